import numpy as np
import pandas as pd
import pytest

from fairbook.data import COMPAS_PREPROCESSING, compas_propublica_predictions, load_compas
from fairbook.data.compas import zafar2017

# A COMPAS-like file in the real format (comma-separated, CRLF, empty = missing),
# with the columns the filter and the helpers use. `why` says what each row tests.
ROWS = [
    # id, race, sex, age_cat, days_b, is_recid, degree, score_text, decile, 2yr, why
    (1, "Caucasian", "Male", "25 - 45", "0", 0, "F", "Low", 2, 0, "kept"),
    (2, "African-American", "Female", "Less than 25", "-30", 1, "M", "High", 9, 1, "kept: -30"),
    (3, "Hispanic", "Male", "Greater than 45", "30", 1, "F", "Medium", 5, 0, "kept: 30"),
    (4, "Caucasian", "Male", "25 - 45", "31", 0, "F", "Low", 1, 0, "dropped: 31"),
    (5, "Other", "Female", "25 - 45", "-31", 0, "M", "Low", 3, 0, "dropped: -31"),
    (6, "Asian", "Male", "25 - 45", "", 0, "F", "Low", 4, 0, "dropped: days missing"),
    (7, "African-American", "Male", "Less than 25", "1", -1, "F", "High", 8, 1, "dropped: -1"),
    (8, "Caucasian", "Female", "25 - 45", "-1", 0, "O", "Low", 2, 0, "dropped: degree O"),
    (9, "Native American", "Male", "25 - 45", "0", 0, "F", "N/A", 1, 0, "dropped: N/A"),
    (10, "African-American", "Male", "25 - 45", "-2", 1, "M", "Medium", 6, 1, "kept"),
]
COLUMNS = (
    "id,race,sex,age_cat,days_b_screening_arrest,is_recid,c_charge_degree,"
    "score_text,decile_score,two_year_recid,why"
)
KEPT = [1, 2, 3, 10]


def compas_csv() -> bytes:
    lines = [COLUMNS] + [",".join(map(str, row)) for row in ROWS]
    return ("\r\n".join(lines) + "\r\n").encode()


@pytest.fixture
def small_compas(install):
    return install("compas", compas_csv())


def test_load_raw(small_compas):
    df = load_compas()
    assert df.shape == (10, 11)
    assert df["id"].tolist() == list(range(1, 11))
    assert df["days_b_screening_arrest"].isna().tolist() == [i == 6 for i in range(1, 11)]


def test_zafar2017_row_by_row(small_compas):
    df = load_compas(preprocess="zafar2017")
    assert df["id"].tolist() == KEPT
    assert df.index.tolist() == [0, 1, 2, 3]
    assert all(why.startswith("kept") for why in df["why"])
    assert list(df.columns) == list(load_compas().columns)


def test_zafar2017_on_literal_na_strings():
    df = pd.DataFrame(
        {
            "days_b_screening_arrest": [0.0, 0.0, np.nan],
            "is_recid": [0, 0, 0],
            "c_charge_degree": ["F", "F", "F"],
            "score_text": ["N/A", None, "Low"],
        }
    )
    assert zafar2017(df).empty


def test_unknown_preprocess(small_compas):
    with pytest.raises(ValueError, match="unknown preprocess 'zafar'.*'zafar2017'"):
        load_compas(preprocess="zafar")
    assert list(COMPAS_PREPROCESSING) == ["zafar2017"]


def test_propublica_predictions_flip_labels(small_compas):
    df = load_compas()
    y_true, y_pred, race = compas_propublica_predictions(df)
    # high risk = decile >= 5; positive = "not a recidivist" / "predicted low risk"
    assert y_true.tolist() == [1, 0, 1, 1, 1, 1, 0, 1, 1, 0]
    assert y_pred.tolist() == [1, 0, 0, 1, 1, 1, 0, 1, 1, 0]
    assert race.tolist() == df["race"].tolist()
    assert y_true.dtype == y_pred.dtype == np.int64


def test_propublica_predictions_validates():
    good = pd.DataFrame({"two_year_recid": [0, 1], "decile_score": [1, 10], "race": ["a", "b"]})
    with pytest.raises(ValueError, match="lacks column"):
        compas_propublica_predictions(good.drop(columns="race"))
    with pytest.raises(ValueError, match="decile_score"):
        compas_propublica_predictions(good.assign(decile_score=[1.0, np.nan]))
    with pytest.raises(ValueError, match="decile_score"):
        compas_propublica_predictions(good.assign(decile_score=[0, 5]))
    with pytest.raises(ValueError, match="two_year_recid"):
        compas_propublica_predictions(good.assign(two_year_recid=[0, 2]))


@pytest.mark.real_data("compas")
def test_real_compas_counts():
    raw = load_compas()
    assert raw.shape == (7214, 53)
    df = load_compas(preprocess="zafar2017")
    assert len(df) == 6172
    assert df["race"].value_counts().to_dict() == {
        "African-American": 3175,
        "Caucasian": 2103,
        "Hispanic": 509,
        "Other": 343,
        "Asian": 31,
        "Native American": 11,
    }
    assert df["sex"].value_counts().to_dict() == {"Male": 4997, "Female": 1175}
    assert df["age_cat"].value_counts().to_dict() == {
        "25 - 45": 3532,
        "Less than 25": 1347,
        "Greater than 45": 1293,
    }
    y_true, y_pred, _ = compas_propublica_predictions(df)
    assert len(y_true) == len(y_pred) == 6172
