"""Tests of the COMPAS / Adult feature encodings for seed 000.

(The generic encoder and the Adult design ``"seed000"`` are tested in test_designs.py.)
"""

import numpy as np
import pandas as pd
import pytest

from fairbook.data.tabular import adult_data, compas_data
from fairbook.papers import seed000


def fake_compas(n=40, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age_cat": rng.choice(["Less than 25", "25 - 45", "Greater than 45"], n),
            "race": rng.choice(["African-American", "Caucasian", "Hispanic"], n),
            "sex": rng.choice(["Male", "Female"], n),
            "priors_count": rng.integers(0, 10, n),
            "c_charge_degree": rng.choice(["F", "M"], n),
            "age": rng.integers(18, 70, n),
            "juv_fel_count": rng.integers(0, 2, n),
            "juv_misd_count": rng.integers(0, 2, n),
            "juv_other_count": rng.integers(0, 2, n),
            "two_year_recid": rng.integers(0, 2, n),
        }
    )


def test_compas_encoding_on_a_fake_frame():
    data = compas_data(frame=fake_compas(), seed=1)
    assert data.X_train.shape == (20, 1 + 3 + 3 + 1 + 1)
    assert set(data.groups_test["race"]) <= {"B", "W", "Hispanic"}
    assert set(data.groups_test["age"]) <= {"<25", "25-45", ">45"}
    assert abs(data.X_train[:, data.feature_names.index("priors_count")].mean()) < 1e-12
    extended = compas_data(frame=fake_compas(), seed=1, features="extended")
    assert extended.X_train.shape[1] == 13
    with pytest.raises(ValueError, match="features"):
        compas_data(frame=fake_compas(), features="all")
    with pytest.raises(ValueError, match="scale"):
        compas_data(frame=fake_compas(), scale="minmax")


def test_adult_data_is_the_seed000_design():
    from fairbook.data.designs import adult_design

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 80, 12),
            "fnlwgt": rng.integers(10_000, 500_000, 12),
            "education-num": rng.integers(1, 16, 12),
            "capital-gain": rng.integers(0, 2, 12) * 1000,
            "capital-loss": 0,
            "hours-per-week": rng.integers(10, 60, 12),
            "workclass": rng.choice(["Private", "State-gov"], 12),
            "education": rng.choice(["HS-grad", "Bachelors"], 12),
            "marital-status": rng.choice(["Divorced", "Never-married"], 12),
            "occupation": rng.choice(["Sales", "Craft-repair"], 12),
            "relationship": rng.choice(["Husband", "Own-child"], 12),
            "race": rng.choice(["White", "Black", "Other"], 12),
            "sex": rng.choice(["Male", "Female"], 12),
            "native-country": rng.choice(["United-States", "Cuba"], 12),
            "income": rng.choice(["<=50K", ">50K"], 12),
        }
    )
    train, test = frame.iloc[:8], frame.iloc[8:]
    data = adult_data(train=train, test=test, scale="none")
    design = adult_design("seed000", train, test, scale="none")
    np.testing.assert_array_equal(data.X_train, design.train)
    np.testing.assert_array_equal(data.X_test, design.test)
    assert data.feature_names == design.names
    assert set(data.groups_test["race"]) <= {"B", "W", "Other"}
    assert data.y_train.tolist() == (train["income"] == ">50K").astype(int).tolist()
    with pytest.raises(ValueError, match="scale"):
        adult_data(train=train, test=test, scale="minmax")


@pytest.mark.real_data("compas")
def test_compas_counts_match_seed000_table_4():
    data = compas_data()
    assert data.X_train.shape == (3086, 12) and data.X_test.shape == (3086, 12)
    counts = data.group_counts("race")
    for label in ("B", "W"):
        assert tuple(counts.loc[label, [0, 1]]) == seed000.TABLE_4["COMPAS"][label]
    sizes = data.group_counts("age")["n"]
    assert sizes.to_dict() == {g: seed000.TABLE_3_GROUPS[g]["n"] for g in sizes.index}
    assert len(data.y_train) + len(data.y_test) == seed000.COMPAS_ROWS


@pytest.mark.real_data("adult_train", "adult_test")
def test_adult_counts_match_seed000_table_4():
    data = adult_data()
    assert data.X_train.shape == (30162, 104) and data.X_test.shape == (15060, 104)
    for attribute, labels in (("race", ("B", "W")), ("sex", ("F", "M"))):
        counts = data.group_counts(attribute, part="train")
        for label in labels:
            assert tuple(counts.loc[label, [0, 1]]) == seed000.TABLE_4["Adult"][label]
    raw = adult_data(scale="none")
    assert raw.X_train[:, raw.feature_names.index("fnlwgt")].max() > 1e5
