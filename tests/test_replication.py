"""Tests of fairbook.replication: the named rules, the Row type and the table layout."""

import numpy as np
import pandas as pd
import pytest

from fairbook.replication import (
    COLUMNS,
    Bound,
    Rounding,
    Row,
    SameSign,
    replication_table,
    verdict,
)


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
def test_rounding_rule(paper, ours, decimals, expected):
    assert Rounding(decimals=decimals).judge(paper, ours) == expected
    assert verdict(paper, ours, decimals=decimals) == expected


def test_extra_tolerance_widens_the_match():
    assert Rounding(decimals=2).judge(0.5, 0.52) == "differs"
    assert Rounding(decimals=2, extra=0.02).judge(0.5, 0.52) == "matches"


@pytest.mark.parametrize(
    ("kind", "paper", "ours", "expected"),
    [
        ("upper", 22.6, 48.0, "upper bound fails"),
        ("upper", 22.6, 22.6, "upper bound fails"),  # strict: the bound itself is not below
        ("upper", 22.6, 10.0, "upper bound holds"),
        ("lower", 5.0, 5.0, "lower bound holds"),
        ("lower", 5.0, 4.0, "lower bound fails"),
        ("lower", 5.0, np.nan, "ours undefined"),
    ],
)
def test_bound_rule(kind, paper, ours, expected):
    assert Bound(kind).judge(paper, ours) == expected


def test_bound_names_its_side():
    with pytest.raises(ValueError, match="'upper' or 'lower'"):
        Bound("above")


@pytest.mark.parametrize(
    ("paper", "ours", "expected"),
    [
        (0.04, 0.2, "yes"),
        (-0.04, -1e-9, "yes"),
        (0.04, -0.2, "no"),
        (0.0, 0.3, "paper ±0"),
        (-0.0, 0.3, "paper ±0"),
        (0.1, np.nan, "ours undefined"),
    ],
)
def test_same_sign_rule(paper, ours, expected):
    assert SameSign().judge(paper, ours) == expected


def test_table_columns_difference_sign_and_rows_kept():
    rows = [Row("x", 1.0, 1.5, note="n", source="seed 003 Table 3.1")]
    table = replication_table(rows)
    assert tuple(table.columns) == COLUMNS
    assert table.loc[0, "difference"] == 0.5
    assert table.loc[0, "verdict"] == "differs"
    assert table.attrs["rows"] == tuple(rows)


def test_each_row_uses_its_own_rule():
    table = replication_table(
        [Row("a", 22.6, 48.0, rule=Bound("upper")), Row("b", 0.1, 0.3, rule=SameSign())]
    )
    assert table["verdict"].tolist() == ["upper bound fails", "yes"]


def test_the_table_takes_rows_only():
    with pytest.raises(TypeError, match="Row objects, not dict"):
        replication_table([{"quantity": "x", "paper": 1.0, "ours": 1.0}])


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"quantity": "", "paper": 1.0, "ours": 1.0}, "non-empty string"),
        ({"quantity": "x", "paper": "one", "ours": 1.0}, "paper must be a number"),
        ({"quantity": "x", "paper": 1.0, "ours": None}, "ours must be a number"),
        ({"quantity": "x", "paper": 1.0, "ours": 1.0, "rule": "rounding"}, "named rule"),
    ],
)
def test_bad_rows_name_the_problem(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        Row(**kwargs)


def test_empty_table_keeps_its_columns():
    table = replication_table([])
    assert isinstance(table, pd.DataFrame) and tuple(table.columns) == COLUMNS and table.empty
