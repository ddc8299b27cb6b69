"""Tests of :mod:`fairbook_book.chapters.metric_catalogue.results`: the corrected Tables
2.2–2.4 of seed 003 and the tables of holes.

Oracles: the formulas as printed in seed 003 and the catalogue itself; values by hand.
"""

import numpy as np
import pytest

from fairbook.metrics import METRICS
from fairbook_book.chapters.metric_catalogue import (
    catalogue_markdown,
    catalogue_table,
    hole_table,
    metric_values,
)


def test_three_tables_partition_the_catalogue():
    names = [n for fam in ("binomial", "joint ratio", "other") for n in catalogue_table(fam).index]
    assert sorted(names) == sorted(METRICS)
    assert len(catalogue_table()) == 18


def test_corrections_are_shown_where_the_paper_differs():
    table = catalogue_table()
    assert table.loc["TPR", "formula"] == r"\frac{TP}{TP+FN}"
    assert table.loc["TPR", "printed in seed 003"] == r"\frac{TP}{TP+FP}"
    assert table.loc["ACC", "printed in seed 003"] == "(same)"
    assert "B" in catalogue_markdown("other") and "FP-FN" in catalogue_markdown("other")


def test_metric_values_reports_holes():
    values = metric_values([0, 0, 3, 4])
    assert np.isnan(values.loc["TPR", "value"])
    assert values.loc["ACC", "why undefined"] == ""
    assert values.loc["ACC", "value"] == pytest.approx(4 / 7)


def test_hole_table_marks_undefined():
    table = hole_table({"a": [0, 2, 0, 3]})
    assert table.loc["a", "PPV"] == "✗"
    assert table.loc["a", "ACC"] == "0.60"


@pytest.mark.parametrize(
    "call",
    [
        lambda: catalogue_table("nope"),
        lambda: metric_values([[1, 0, 0, 0], [0, 1, 0, 0]]),
    ],
)
def test_bad_input(call):
    with pytest.raises(ValueError):
        call()
