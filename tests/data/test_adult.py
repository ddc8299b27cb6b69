import pandas as pd
import pytest

from fairbook.data import ADULT_COLUMNS, load_adult
from fairbook.data.adult import read_adult

TRAIN = (
    "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "
    "White, Male, 2174, 0, 40, United-States, <=50K\n"
    "54, ?, 180211, Some-college, 10, Married-civ-spouse, ?, Husband, "
    "Asian-Pac-Islander, Male, 0, 0, 60, South, >50K\n"
    "31, Private, 45781, Masters, 14, Never-married, Prof-specialty, Not-in-family, "
    "White, Female, 14084, 0, 50, ?, >50K\n"
    "42, Private, 159449, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, "
    "Black, Male, 5178, 0, 40, United-States, >50K \n"
    "\n"
)
TEST = (
    "|1x3 Cross validator\n"
    "25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, "
    "Black, Male, 0, 0, 40, United-States, <=50K.\n"
    "18, ?, 103497, Some-college, 10, Never-married, ?, Own-child, "
    "White, Female, 0, 0, 30, United-States, <=50K.\n"
    "44, Private, 160323, Some-college, 10, Married-civ-spouse, Machine-op-inspct, "
    "Husband, Black, Male, 7688, 0, 40, United-States, >50K.\n"
    "\n"
)


@pytest.fixture
def small_adult(install):
    install("adult_train", TRAIN.encode())
    install("adult_test", TEST.encode())


def test_columns_and_types(small_adult):
    df = load_adult()
    assert tuple(df.columns) == ADULT_COLUMNS and len(ADULT_COLUMNS) == 15
    assert len(df) == 4
    for col in ("age", "fnlwgt", "education-num", "capital-gain", "hours-per-week"):
        assert pd.api.types.is_integer_dtype(df[col]), col
    assert df.loc[0, "workclass"] == "State-gov"  # leading space stripped
    assert df["income"].tolist() == ["<=50K", ">50K", ">50K", ">50K"]  # trailing space too


def test_question_mark_is_missing(small_adult):
    df = load_adult("train")
    assert df["workclass"].isna().tolist() == [False, True, False, False]
    assert df["occupation"].isna().tolist() == [False, True, False, False]
    assert df["native-country"].isna().tolist() == [False, False, True, False]
    assert not (df == "?").any().any()


def test_drop_missing(small_adult):
    df = load_adult("train", drop_missing=True)
    assert df["fnlwgt"].tolist() == [77516, 159449]
    assert df.index.tolist() == [0, 1]


def test_test_split_skips_comment_and_strips_dot(small_adult):
    df = load_adult("test")
    assert df["age"].tolist() == [25, 18, 44]
    assert df["income"].tolist() == ["<=50K", "<=50K", ">50K"]
    assert len(load_adult("test", drop_missing=True)) == 2


def test_bad_split(small_adult):
    with pytest.raises(ValueError, match="split must be one of 'train', 'test'"):
        load_adult("validation")


def test_read_adult_directly(tmp_path):
    p = tmp_path / "adult.test"
    p.write_text(TEST)
    assert read_adult(p).shape == (3, 15)


@pytest.mark.real_data("adult_train", "adult_test")
def test_real_adult_counts():
    train, test = load_adult("train"), load_adult("test")
    assert train.shape == (32561, 15) and test.shape == (16281, 15)
    assert set(train["income"]) == set(test["income"]) == {"<=50K", ">50K"}
    df = load_adult("train", drop_missing=True)
    assert len(df) == 30162
    assert df["race"].value_counts().to_dict() == {
        "White": 25933,
        "Black": 2817,
        "Asian-Pac-Islander": 895,
        "Amer-Indian-Eskimo": 286,
        "Other": 231,
    }
    assert df["sex"].value_counts().to_dict() == {"Male": 20380, "Female": 9782}
