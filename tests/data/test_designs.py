"""Tests of :mod:`fairbook.data.designs`: the generic encoder and every named Adult design.

Oracles: matrices written out by hand on tiny frames (one test per design), the GAN's own
:class:`fairbook.generative.TabularEncoder` for the min-max design, and, on the real files
when they are cached, the column counts the chapters rely on.
"""

import numpy as np
import pandas as pd
import pytest

from fairbook.data.designs import ADULT_DESIGNS, Design, adult_design, encode


def test_encode_by_hand():
    train = pd.DataFrame({"a": [1.0, 3.0], "c": ["x", "y"], "b": ["F", "M"]})
    test = pd.DataFrame({"a": [2.0], "c": ["z"], "b": ["F"]})
    X_tr, X_te, names = encode(
        train, test, numeric=["a"], categorical=["c", "b"], binary={"b": "F"}
    )
    assert names == ["a", "c=x", "c=y", "c=z", "b=F"]
    np.testing.assert_allclose(X_tr, [[-1, 1, 0, 0, 1], [1, 0, 1, 0, 0]])
    np.testing.assert_allclose(X_te, [[0, 0, 0, 1, 1]])
    X_tr, _, _ = encode(train, test, numeric=["a"], scale="none")
    np.testing.assert_allclose(X_tr, [[1.0], [3.0]])
    with pytest.raises(ValueError, match="scale"):
        encode(train, test, numeric=["a"], scale="robust")


def test_encode_minmax_train_levels_and_dtype():
    train = pd.DataFrame({"a": [0.0, 10.0, 5.0], "k": [7.0, 7.0, 7.0], "c": ["y", "x", "y"]})
    test = pd.DataFrame({"a": [20.0], "k": [8.0], "c": ["x"]})
    X_tr, X_te, names = encode(
        train,
        test,
        numeric=["a", "k"],
        categorical=["c"],
        scale="minmax",
        levels="train",
        dtype=np.float32,
    )
    assert names == ["a", "k", "c=x", "c=y"]
    assert X_tr.dtype == X_te.dtype == np.float32
    np.testing.assert_array_equal(X_tr, [[-1, 0, 0, 1], [1, 0, 1, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(X_te, [[3, 0, 1, 0]])  # outside the training range
    with pytest.raises(ValueError, match="not seen in train"):
        encode(train, test.assign(c="z"), categorical=["c"], levels="train")
    with pytest.raises(ValueError, match="levels"):
        encode(train, test, categorical=["c"], levels="test")
    with pytest.raises(ValueError, match="at least one"):
        encode(train, test)


def adult_rows(n_extra=0):
    """Three training rows and one test row with every Adult column (plus ``who``)."""
    train = pd.DataFrame(
        {
            "age": [20, 40, 60],
            "workclass": ["Private", "State-gov", "Private"],
            "fnlwgt": [100, 200, 300],
            "education": ["HS-grad", "Bachelors", "HS-grad"],
            "education-num": [9, 13, 9],
            "marital-status": ["Never-married", "Divorced", "Never-married"],
            "occupation": ["Sales", "Craft-repair", "Sales"],
            "relationship": ["Own-child", "Husband", "Husband"],
            "race": ["White", "Black", "White"],
            "sex": ["Male", "Female", "Male"],
            "capital-gain": [0, 0, 300],
            "capital-loss": [0, 10, 0],
            "hours-per-week": [40, 50, 30],
            "native-country": ["United-States", "Cuba", "United-States"],
            "income": ["<=50K", ">50K", "<=50K"],
            "who": ["Male, young", "Female, young", "Male, old"],
        }
    )
    test = train.iloc[[1]].reset_index(drop=True).assign(age=30, race="Asian-Pac-Islander")
    return train, test


def test_seed000_design_by_hand():
    train, test = adult_rows()
    m = adult_design("seed000", train, test, scale="none")
    assert m.names[:6] == [
        "age",
        "fnlwgt",
        "education-num",
        "capital-gain",
        "capital-loss",
        "hours-per-week",
    ]
    assert m.names[6:8] == ["workclass=Private", "workclass=State-gov"]
    assert "race=Asian-Pac-Islander" in m.names  # the union of train and test categories
    # workclass 2, education 2, marital 2, occupation 2, relationship 2, race 3, sex 2,
    # native-country 2
    assert m.train.shape == (3, 6 + 17) and m.test.shape == (1, 23)
    np.testing.assert_array_equal(
        m.test[0],
        [30, 200, 13, 0, 10, 50]
        + [0, 1]  # workclass: Private, State-gov
        + [1, 0]  # education: Bachelors, HS-grad
        + [1, 0]  # marital: Divorced, Never-married
        + [1, 0]  # occupation: Craft-repair, Sales
        + [1, 0]  # relationship: Husband, Own-child
        + [1, 0, 0]  # race: Asian-Pac-Islander, Black, White
        + [1, 0]  # sex: Female, Male
        + [1, 0],  # native-country: Cuba, United-States
    )
    standard = adult_design("seed000", train, test)
    age = np.array([20.0, 40.0, 60.0])
    np.testing.assert_allclose(standard.train[:, 0], (age - 40) / age.std())
    np.testing.assert_allclose(standard.test[0, 0], (30 - 40) / age.std())
    assert standard.train.dtype == np.float64


def test_seed003_ofi_design_by_hand():
    train, test = adult_rows()
    m = adult_design("seed003_ofi", train, test)
    assert m.names[:5] == ["age", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
    assert not any(n.startswith(("fnlwgt", "education=")) for n in m.names)
    assert m.names[5:7] == ["workclass=Private", "workclass=State-gov"]
    np.testing.assert_array_equal(
        m.train[2],
        [60, 9, 300, 0, 30]  # raw numbers
        + [1, 0]  # workclass
        + [0, 1]  # marital: Divorced, Never-married
        + [0, 1]  # occupation: Craft-repair, Sales
        + [1, 0]  # relationship: Husband, Own-child
        + [0, 0, 1]  # race: Asian-Pac-Islander, Black, White (union with test)
        + [0, 1]  # sex: Female, Male
        + [0, 1],  # native-country
    )
    assert m.test.shape == (1, 5 + 15) and m.train.dtype == np.float64


def test_seed003_ofi_design_is_pandas_get_dummies():
    # the encoding the chapter used before the design existed: get_dummies of train + test
    train, test = adult_rows()
    columns = [c for c in train.columns if c not in ("fnlwgt", "education", "income", "who")]
    both = pd.get_dummies(pd.concat([train[columns], test[columns]]), dtype=float)
    m = adult_design("seed003_ofi", train, test)
    np.testing.assert_array_equal(m.train, both.iloc[:3].to_numpy())
    np.testing.assert_array_equal(m.test, both.iloc[3:].to_numpy())
    assert set(ADULT_DESIGNS["seed003_ofi"].columns) == set(columns)


def test_seed003_hydragan_design_by_hand():
    train, test = adult_rows()
    m = adult_design("seed003_hydragan", train, test.assign(race="White"))
    assert m.train.dtype == np.float32
    assert m.names[:3] == ["age", "education-num", "hours-per-week"]
    assert not any(n.startswith("occupation") for n in m.names)
    assert m.names[-3:] == ["who=Female, young", "who=Male, old", "who=Male, young"]
    np.testing.assert_array_equal(
        m.test[0],
        [-0.5, 1, 1]  # age 30 in [20, 60]; education 13 in [9, 13]; hours 50 in [30, 50]
        + [0, 1]  # workclass: Private, State-gov
        + [1, 0]  # marital
        + [1, 0]  # relationship
        + [0, 1]  # race: Black, White (training categories only)
        + [0, 1]  # income: <=50K, >50K
        + [1, 0, 0],  # who
    )
    with pytest.raises(ValueError, match="not seen in train"):
        adult_design("seed003_hydragan", train, test)  # Asian-Pac-Islander is not in train


def test_seed003_hydragan_design_is_the_gan_encoding():
    # real rows must be encoded exactly as the GAN encodes them (its generated rows are the
    # other half of the classifier's training data): the GAN's data encoder without the
    # occupation block, then its condition encoder
    from fairbook.generative import TabularEncoder

    train, test = adult_rows()
    test = test.assign(race="White")
    design = ADULT_DESIGNS["seed003_hydragan"]
    data = TabularEncoder(
        continuous=design.numeric,
        categorical=("workclass", "marital-status", "relationship", "race", "income", "occupation"),
    ).fit(train)
    who = TabularEncoder(categorical=["who"]).fit(train)
    keep = np.ones(data.dim, dtype=bool)
    keep[data.spec("occupation").slice] = False
    for frame, ours in zip(
        (train, test), adult_design("seed003_hydragan", train, test)[:2], strict=True
    ):
        gan = np.hstack([data.transform(frame)[:, keep], who.transform(frame)])
        assert gan.dtype == ours.dtype and np.array_equal(gan, ours)


def test_seed004_fit_design_by_hand():
    train, _ = adult_rows()
    m = adult_design("seed004_fit", train)
    assert m.test is None
    assert not any(n.startswith(("sex", "fnlwgt", "education=")) for n in m.names)
    np.testing.assert_array_equal(
        m.train[1],
        [40, 13, 0, 10, 50]  # raw: the task standardises after its split
        + [0, 1]  # workclass
        + [1, 0]  # marital
        + [1, 0]  # occupation: Craft-repair, Sales
        + [1, 0]  # relationship
        + [1, 0]  # race: Black, White (the frame's categories)
        + [1, 0],  # native-country: Cuba, United-States
    )
    columns = [c for c in train.columns if c not in ("fnlwgt", "education", "sex", "income", "who")]
    np.testing.assert_array_equal(m.train, pd.get_dummies(train[columns], dtype=float).to_numpy())


def test_every_design_is_documented_and_checked():
    for name, design in ADULT_DESIGNS.items():
        assert design.name == name and "seed 00" in design.used_by
        assert not set(design.numeric) & set(design.categorical)
    with pytest.raises(ValueError, match="unknown Adult design"):
        adult_design("seed999", *adult_rows())
    with pytest.raises(ValueError, match="needs columns"):
        adult_design("seed003_hydragan", adult_rows()[0].drop(columns="who"))
    with pytest.raises(ValueError, match="scale"):
        Design("bad", "nobody", ("age",), (), scale="log")
    with pytest.raises(ValueError, match="levels"):
        Design("bad", "nobody", ("age",), (), levels="all")


@pytest.mark.real_data("adult_train", "adult_test")
def test_designs_on_the_real_files():
    from fairbook.data import load_adult

    train = load_adult("train", drop_missing=True)
    test = load_adult("test", drop_missing=True)
    assert adult_design("seed000", train, test).train.shape == (30162, 104)
    assert adult_design("seed003_ofi", train, test).test.shape == (15060, 87)
    assert adult_design("seed004_fit", train).train.shape == (30162, 85)
