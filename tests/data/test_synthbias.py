"""Tests of the SynthBias loader on a small file made here in the release's CSV format
(header ``type,sample,occ_1,occ_2,pronoun,is_stereotypical``; sentences written for this
test, not taken from the data set). No network."""

import io

import pandas as pd
import pytest

from fairbook.data import DataSourceError, load_synthbias, read_synthbias, synthbias_available
from fairbook.data import synthbias as S

HEADER = "type,sample,occ_1,occ_2,pronoun,is_stereotypical\n"
ROWS = [
    # type 1 pair; occ_1/occ_2 swapped between the members, the pronoun capitalised once
    'type1,"The baker and the mechanic met, and he laughed.",baker,mechanic,He,ambiguous',
    'type1,"The baker and the mechanic met, and she laughed.",mechanic,baker,she,ambiguous',
    # type 1 pair with his/her
    "type1,The nurse phoned the driver about her schedule.,nurse,driver,her,ambiguous",
    "type1,The nurse phoned the driver about his schedule.,driver,nurse,his,ambiguous",
    # type 2 pair, referent mentioned second, him/her
    "type2,The lawyer thanked the cashier and paid him.,cashier,lawyer,him,False",
    "type2,The lawyer thanked the cashier and paid her.,cashier,lawyer,her,True",
    # type 2 pair, referent mentioned first, himself/herself
    "type2,The secretary told the guard that she would do it herself.,secretary,guard,she,True",
    "type2,The secretary told the guard that he would do it himself.,secretary,guard,he,False",
    # a row whose counterpart is missing
    "type2,The chief greeted the clerk and hugged her.,clerk,chief,her,True",
]
CSV = HEADER + "\n".join(ROWS) + "\n"
COUNTS = {"rows": 9, "type1": 4, "type2_pro": 3, "type2_anti": 2, "pairs": 4, "unpaired": 1}


@pytest.fixture
def table():
    return read_synthbias(io.StringIO(CSV))


def test_columns_and_normalisation(table):
    assert list(table.columns) == list(S.SYNTHBIAS_COLUMNS)
    assert table["type"].tolist() == [1, 1, 1, 1, 2, 2, 2, 2, 2]
    assert table.loc[0, "pronoun"] == "he" and table.loc[0, "pronoun_gender"] == "male"
    assert table["stereotype"].tolist() == ["ambiguous"] * 4 + ["anti", "pro", "pro", "anti", "pro"]
    # candidates in order of mention, whatever the occ_1/occ_2 order in the file
    assert table.loc[1, ["occupation_1", "occupation_2"]].tolist() == ["baker", "mechanic"]
    assert table.loc[4, ["occupation_1", "occupation_2"]].tolist() == ["lawyer", "cashier"]
    # type 2: occ_1 is the referent; type 1 has none, and is scored against the
    # alphabetically first candidate, the same for both members of a pair
    assert table.loc[4, "referent"] == "cashier" and table.loc[4, "referent_position"] == 2
    assert table.loc[6, "referent_position"] == 1
    assert table.loc[:3, "referent"].isna().all()
    assert table.loc[:3, "referent_position"].isna().all()
    assert table.loc[:1, "reference"].tolist() == ["baker", "baker"]
    assert table.loc[2:3, "reference"].tolist() == ["driver", "driver"]


def test_minimal_pairs(table):
    pairs = table["pair_id"]
    assert pairs.iloc[:8].tolist() == [
        "sb-00001",
        "sb-00001",
        "sb-00002",
        "sb-00002",
        "sb-00003",
        "sb-00003",
        "sb-00004",
        "sb-00004",
    ]
    assert pd.isna(pairs.iloc[8])
    for _, pair in table.dropna(subset=["pair_id"]).groupby("pair_id"):
        assert sorted(pair["pronoun_gender"]) == ["female", "male"]
        if (pair["type"] == 2).all():
            assert sorted(pair["stereotype"]) == ["anti", "pro"]


def test_release_counts_pass_and_far_off_pair_counts_warn(table):
    sizes = {"type1": 14_120, "type2_pro": 8_804, "type2_anti": 8_804}
    frame = pd.DataFrame(
        {
            "type": [1] * sizes["type1"] + [2] * (2 * sizes["type2_pro"]),
            "stereotype": ["ambiguous"] * sizes["type1"] + ["pro", "anti"] * sizes["type2_pro"],
        }
    )
    frame["pair_id"] = [f"p{i // 2}" for i in range(len(frame))]  # 15,864 pairs
    assert S.validate_synthbias(frame)["pairs"] == 15_864
    frame.loc[: 2 * 500, "pair_id"] = None  # 500 pairs fewer: more than 1 % off
    with pytest.warns(UserWarning, match="about 15858"):
        S.validate_synthbias(frame)


def test_validate_counts(table):
    assert S.validate_synthbias(table, expected={}) == COUNTS
    with pytest.raises(ValueError, match=r"rows = 9 \(expected 31728\).*type1 = 4"):
        S.validate_synthbias(table)
    assert S.validate_synthbias(table, expected={"pairs": 4})["unpaired"] == 1


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c.replace("is_stereotypical", "stereo"), "missing columns"),
        (lambda c: c.replace("type2,The chief", "type3,The chief"), "unknown type"),
        (lambda c: c.replace(",him,False", ",they,False"), "unknown pronouns"),
        (lambda c: c.replace(",him,False", ",him,maybe"), "unknown is_stereotypical"),
        (lambda c: c.replace(",him,False", ",him,ambiguous"), "type1 rows must be"),
    ],
)
def test_schema_errors(edit, message):
    with pytest.raises(ValueError, match=message):
        read_synthbias(io.StringIO(edit(CSV)))


def test_load_from_a_file_and_from_the_cache(tmp_path):
    path = tmp_path / "synthbias_data.csv"
    path.write_text(CSV)
    assert synthbias_available(path)
    frame = load_synthbias(path, validate=False)
    assert frame.attrs["counts"] == COUNTS
    with pytest.raises(ValueError, match="differ from the release"):
        load_synthbias(path)
    assert not synthbias_available()  # the (private, empty) test cache
    with pytest.raises(DataSourceError, match="download=True"):
        load_synthbias()
    with pytest.raises(DataSourceError, match="not at"):
        load_synthbias(tmp_path / "missing.csv", download=True)  # never downloads to a path


def test_download_checks_the_format_before_caching(serve_urls):
    calls = serve_urls({S.SYNTHBIAS_URL: b"<html>not found</html>"})
    with pytest.raises(ValueError, match="missing columns"):
        load_synthbias(download=True)
    assert not synthbias_available()
    calls = serve_urls({S.SYNTHBIAS_URL: CSV.encode()})
    frame = load_synthbias(download=True, validate=False)
    assert calls[S.SYNTHBIAS_URL] == 1 and synthbias_available() and len(frame) == 9
    load_synthbias(validate=False)  # now from the cache, no second download
    assert calls[S.SYNTHBIAS_URL] == 1


def test_offline_download_fails_cleanly():
    with pytest.raises(DataSourceError, match="network disabled"):
        load_synthbias(download=True)


def test_url_is_pinned_to_a_commit():
    assert S.SYNTHBIAS_COMMIT in S.SYNTHBIAS_URL and len(S.SYNTHBIAS_COMMIT) == 40
