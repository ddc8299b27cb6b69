"""Tests of :mod:`fairbook.papers.printed`: each replicated table's count of printed numbers.

Oracle: the tables' shapes as transcribed block by block, checked against an independent
transcription, the printed values themselves in :mod:`fairbook.papers.seed000`,
:mod:`~fairbook.papers.seed003`, :mod:`~fairbook.papers.seed004` and
:mod:`~fairbook.papers.addenda` (a leaf count of every printed value of the table).
"""

import math

import pytest

from fairbook.papers import addenda, printed, seed000, seed003, seed004


def _leaves(value) -> int:
    """How many printed numbers a nested constant holds (a pair label is not a number)."""
    if isinstance(value, dict):
        return sum(_leaves(v) for k, v in value.items() if k != "pair")
    if isinstance(value, list | tuple):
        return sum(_leaves(v) for v in value)
    if isinstance(value, str):
        return 1
    assert isinstance(value, int | float), value
    return 1


#: Every table's printed numbers, counted from the printed values the book holds.
_FROM_VALUES = {
    ("seed 000", "Table 1"): lambda: _leaves(seed000.TABLE_1),
    ("seed 000", "Tables 2-3"): lambda: (
        _leaves(seed000.TABLE_3_GROUPS) + _leaves(seed000.TABLE_3_RATIOS)
    ),
    ("seed 000", "Table 4"): lambda: (
        _leaves(seed000.TABLE_4) + _leaves(addenda.SEED000_TABLE_4_PERCENT)
    ),
    ("seed 000", "Table 5"): lambda: (
        _leaves(seed000.TABLE_5_GROUPS) + _leaves(seed000.TABLE_5_RATIOS)
    ),
    ("seed 000", "Table 6"): lambda: (
        _leaves(addenda.SEED000_TABLE_6_PRINTED_N)
        + _leaves(addenda.SEED000_TABLE_6_PERCENT)
        + sum(len(v) - 1 for v in seed000.TABLE_6.values())
    ),
    ("seed 000", "Table 7"): lambda: (
        _leaves(seed000.TABLE_7) + len(seed000.TABLE_7) * _leaves(seed000.TABLE_7_SAMPLE_SIZES)
    ),
    ("seed 003", "Table 3.1"): lambda: (
        _leaves(seed003.TABLE_3_1) + _leaves(addenda.SEED003_TABLE_3_1_COLUMNS)
    ),
    ("seed 003", "Table 3.3"): lambda: (
        _leaves(seed003.TABLE_3_3) + _leaves(addenda.SEED003_TABLE_3_3_THRESHOLDS)
    ),
    ("seed 003", "Table 3.4"): lambda: _leaves(seed003.TABLE_3_4),
    ("seed 003", "Table 3.5"): lambda: _leaves(seed003.TABLE_3_5),
    ("seed 003", "Table 5.2"): lambda: (
        _leaves(seed003.TABLE_5_2_CHAOS) + _leaves(addenda.SEED003_TABLE_5_2_MICROCLIMATE)
    ),
    ("seed 004", "Table 3"): lambda: (
        _leaves(seed004.TABLE_3_COUNTS)
        + _leaves(addenda.SEED004_TABLE_3_TOTALS)
        + _leaves(seed004.TABLE_3_METRICS)
    ),
    ("seed 004", "Table 2"): lambda: _leaves(seed004.TABLE_2),
    ("seed 004", "Table 4"): lambda: _leaves(seed004.TABLE_4_DI_BAR),
}


@pytest.mark.parametrize("key", sorted(printed.TABLES))
def test_each_tables_count_is_its_shape_and_its_printed_values(key):
    count = printed.printed_count(*key)
    blocks = printed.TABLES[key]
    assert count == sum(r * c for _, r, c in blocks) > 0
    if key in _FROM_VALUES:
        assert count == _FROM_VALUES[key](), key


def test_the_counts_the_audit_of_issue_36_named():
    # seed 003: Table 3.4 48, 3.5 18, 5.2 16, 3.1 54, 3.3 25; seed 000 Table 7 69 + 6 sizes
    expected = {
        ("seed 003", "Table 3.4"): 48,
        ("seed 003", "Table 3.5"): 18,
        ("seed 003", "Table 5.2"): 16,
        ("seed 003", "Table 3.1"): 54,
        ("seed 003", "Table 3.3"): 25,
        ("seed 000", "Table 7"): 75,
        ("seed 000", "Table 4"): 32,
        ("seed 004", "Table 4"): 108,
    }
    assert {k: printed.printed_count(*k) for k in expected} == expected


def test_every_table_with_values_has_an_independent_count():
    # Table 3.2 (check marks) is the only table counted from its shape alone
    assert set(printed.TABLES) - set(_FROM_VALUES) == {("seed 003", "Table 3.2")}


def test_table_of_and_unknown_tables():
    assert printed.table_of("Table 5.2 (microclimate)") == "Table 5.2"
    assert printed.table_of("Sec. 4.6.2") is None
    with pytest.raises(ValueError, match="not among the transcribed tables"):
        printed.printed_count("seed 001", "Table 9")
    assert not math.isnan(printed.printed_count("seed 003", "Table 3.2"))
