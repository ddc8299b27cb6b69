import pytest

from fairbook.data import GERMAN_COLUMNS, load_german

GERMAN = (
    "A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201 1\n"
    "A12 48 A32 A43 5951 A61 A73 2 A92 A101 2 A121 22 A143 A152 1 A173 1 A191 A201 2\n"
    "A14 12 A34 A46 2096 A61 A74 2 A93 A101 3 A121 49 A143 A152 1 A172 2 A191 A201 1\n"
)


def test_load_german_small(install):
    install("german", GERMAN.encode())
    df = load_german()
    assert df.shape == (3, 21)
    assert tuple(df.columns) == GERMAN_COLUMNS
    assert df["checking_account_status"].tolist() == ["A11", "A12", "A14"]
    assert df["duration_months"].tolist() == [6, 48, 12]
    assert df["age"].tolist() == [67, 22, 49]
    assert df["credit"].tolist() == [1, 2, 1]


@pytest.mark.real_data("german")
def test_real_german():
    df = load_german()
    assert df.shape == (1000, 21)
    assert df["credit"].value_counts().to_dict() == {1: 700, 2: 300}
    assert df["personal_status_sex"].str.fullmatch(r"A9[1-5]").all()
