"""Tests of :mod:`fairbook.experiments.objective_fairness_index.replication`: seed 003
ch. 3 beside ours.

Oracles: the printed values of :mod:`fairbook.papers.seed003` (Tables 3.1–3.3, Fig. 3.3).
"""

import pytest

from fairbook.experiments import objective_fairness_index as ofi
from fairbook.replication import Rounding


def test_tables_3_1_and_3_3_replicate():
    assert set(ofi.table_3_1_replication().verdict) == {"matches", "both undefined"}
    assert set(ofi.table_3_3_replication().verdict) == {"matches"}


def test_rows_are_typed_with_their_source():
    for table, source in (
        (ofi.table_3_1_replication(), "seed 003 Table 3.1"),
        (ofi.table_3_3_replication(), "seed 003 Table 3.3"),
    ):
        rows = table.attrs["rows"]
        assert {r.source for r in rows} == {source}
        assert {r.rule for r in rows} == {Rounding()}


def test_property_replication_agrees_with_the_paper():
    table = ofi.table_3_2_replication(n_max=6)
    assert (table.verdict == "matches").all()
    assert table.loc["DI", "SYM"] == "✗ (✗)"


def test_fig_3_2_replication(toy_counts):
    counts = toy_counts()
    table = ofi.fig_3_2_replication(counts)
    agreement = ofi.direction_agreement(counts)
    assert table.loc[0, "quantity"] == "share of race pairs where OFI and DI agree"
    assert table.loc[0, "paper"] == 1.0
    assert table.loc[0, "note"] == f"{agreement['agree']} of {agreement['pairs']} pairs"
    assert table.attrs["rows"][0].source == "seed 003 Fig. 3.2"


def test_fig_3_3_replication_shares(toy_counts):
    counts = toy_counts()
    table = ofi.fig_3_3_replication({"rf": counts, "nb": counts}, group="a")
    assert table.loc[1, "paper"] == pytest.approx(7 / 8)
    assert table.loc[2, "paper"] == pytest.approx(2 / 8)
    with pytest.raises(ValueError, match="not among"):
        ofi.fig_3_3_replication({"nb": counts}, group="zzz")
