"""The tabular encoder: round trips, drawn labels and bad column specs."""

import numpy as np
import pandas as pd
import pytest

from fairbook.generative.tabular import TabularEncoder


def frame():
    return pd.DataFrame(
        {
            "x": [1.0, 3.0, 2.0, 5.0],
            "k": [7, 7, 7, 7],
            "c": ["b", "a", "c", "a"],
            "d": [True, False, True, True],
        }
    )


def test_round_trip_and_layout():
    df = frame()
    enc = TabularEncoder(continuous=["x", "k"], categorical=["c", "d"]).fit(df)
    x = enc.transform(df)
    assert enc.dim == 2 + 3 + 2 == x.shape[1]
    assert x[:, 0].tolist() == [-1.0, 0.0, -0.5, 1.0]
    assert (x[:, 1] == 0).all()  # a constant column encodes to 0, decodes to its value
    assert enc.feature_names() == ["x", "k", "c=a", "c=b", "c=c", "d=False", "d=True"]
    back = enc.inverse_transform(x)
    pd.testing.assert_frame_equal(back.astype({"d": bool}), df, check_dtype=False)
    assert enc.spec("c").slice == slice(2, 5)


def test_probabilities_and_drawn_labels():
    enc = TabularEncoder(categorical=["c"]).fit(frame())
    probs = np.tile([0.2, 0.5, 0.3], (20000, 1))
    soft = enc.inverse_transform(probs, probabilities=True)
    assert list(soft.columns) == ["c=a", "c=b", "c=c"]
    assert enc.inverse_transform(probs)["c"].eq("b").all()  # argmax
    drawn = enc.inverse_transform(probs, rng=np.random.default_rng(0))["c"]
    shares = drawn.value_counts(normalize=True).reindex(["a", "b", "c"]).to_numpy()
    assert np.abs(shares - [0.2, 0.5, 0.3]).max() < 0.015  # ~4.5 standard errors


def test_continuous_decode_is_clipped_to_the_range():
    enc = TabularEncoder(continuous=["x"]).fit(frame())
    assert enc.inverse_transform(np.array([[2.0], [-3.0]]))["x"].tolist() == [5.0, 1.0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"continuous": ["x"], "categorical": ["x"]}, "both continuous and categorical"),
        ({"continuous": ["x", "x"]}, "listed twice"),
        ({}, "at least one"),
        ({"continuous": [1]}, "column names"),
        ({"continuous": 5}, "list of column names"),
    ],
)
def test_bad_specs(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TabularEncoder(**kwargs)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"continuous": ["zz"]}, "not in the data"),
        ({"continuous": ["c"]}, "not numeric"),
        ({"categorical": ["k"]}, "two or more categories"),
    ],
)
def test_bad_columns_at_fit(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TabularEncoder(**kwargs).fit(frame())


def test_missing_values_and_unseen_categories():
    df = frame()
    with pytest.raises(ValueError, match="missing"):
        TabularEncoder(continuous=["x"]).fit(df.assign(x=[1.0, np.nan, 2.0, 3.0]))
    with pytest.raises(ValueError, match="missing"):
        TabularEncoder(categorical=["c"]).fit(df.assign(c=["a", None, "b", "a"]))
    enc = TabularEncoder(categorical=["c"]).fit(df)
    with pytest.raises(ValueError, match="not seen in fit"):
        enc.transform(pd.DataFrame({"c": ["a", "zz"]}))
    with pytest.raises(ValueError, match="not fitted"):
        TabularEncoder(categorical=["c"]).transform(df)
    with pytest.raises(ValueError, match="shape"):
        enc.inverse_transform(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="DataFrame"):
        TabularEncoder(categorical=["c"]).fit(df.to_numpy())
