"""Seed 004 Table 3's counts add up as the paper says (200 per group, 100 per label)."""

from fairbook.papers import seed004


def test_table_3_counts():
    for group in ("Female", "Male"):
        assert sum(sum(seed004.TABLE_3_COUNTS[(group, y)]) for y in ("Sport", "Cook")) == 200
    for key, row in seed004.TABLE_3_COUNTS.items():
        assert sum(row) == 100, key
