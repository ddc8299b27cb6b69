"""Tests of fairbook.replication: the rounding rule and the table layout."""

import numpy as np
import pytest

from fairbook.replication import replication_table, verdict


@pytest.mark.parametrize(
    ("paper", "ours", "decimals", "expected"),
    [
        (-0.06, -0.0556, 2, "matches"),
        (-0.33, -0.325, 2, "matches"),  # half away from zero, as the paper rounds
        (0.38, 0.386, 2, "differs"),
        (2.71, 2.714, 2, "matches"),
        (10.1, 10.14, 1, "matches"),
        (10.1, 10.16, 1, "differs"),
        (np.nan, np.nan, 2, "both undefined"),
        (np.nan, 1.0, 2, "paper undefined"),
        (1.0, np.nan, 2, "ours undefined"),
    ],
)
def test_verdict(paper, ours, decimals, expected):
    assert verdict(paper, ours, decimals=decimals) == expected


def test_extra_tolerance_widens_the_match():
    assert verdict(0.5, 0.52, decimals=2) == "differs"
    assert verdict(0.5, 0.52, decimals=2, extra=0.02) == "matches"


def test_table_columns_and_difference_sign():
    table = replication_table([{"quantity": "x", "paper": 1.0, "ours": 1.5, "note": "n"}])
    assert list(table.columns) == ["quantity", "paper", "ours", "difference", "verdict", "note"]
    assert table.loc[0, "difference"] == 0.5
    assert table.loc[0, "verdict"] == "differs"


def test_rows_need_the_three_fields():
    with pytest.raises(ValueError, match="quantity, paper and ours"):
        replication_table([{"quantity": "x", "paper": 1.0}])
