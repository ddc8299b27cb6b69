"""Tests of :mod:`fairbook_book.chapters.objective_fairness_index.replication`: seed 003
ch. 3 beside ours.

Oracles: the printed values of :mod:`fairbook.papers.seed003` (Tables 3.1–3.3, Fig. 3.3).
"""

import pytest

from fairbook_book.chapters import objective_fairness_index as ofi
from fairbook_book.replication import Rounding


def test_tables_3_1_and_3_3_replicate():
    t31, t33 = ofi.table_3_1_replication(), ofi.table_3_3_replication()
    assert set(t31.verdict) == {
        "arithmetic check: matches",
        "arithmetic check: both undefined",
        "input check: matches",
    }
    assert set(t33.verdict) == {"arithmetic check: matches", "input check: matches"}
    # worked examples: inputs and arithmetic on them are checks, never replications
    outcomes = {r.outcome for t in (t31, t33) for r in t.attrs["rows"]}
    assert outcomes == {"check holds", "no verdict"}
    # every printed number once (seed 003 Table 3.1: 6 group rows × 8 columns + OFI and DI
    # of 3 scenarios; Table 3.3: 16 counts, 6 scores, 3 thresholds)
    assert (len(t31), len(t33)) == (54, 25)
    # the inputs of the worked examples are listed as inputs, as printed
    inputs = t31[t31["quantity"].str.match(r"^(TP|FN|FP|TN),")]
    assert len(inputs) == 24 and (inputs["verdict"] == "input check: matches").all()
    b = t31.set_index("quantity").loc["B, group j, scenario α"]
    assert b["paper"] == pytest.approx(-7 / 19) and b["verdict"] == "arithmetic check: matches"


def test_rows_are_typed_with_their_source():
    for table, source in (
        (ofi.table_3_1_replication(), "seed 003 Table 3.1"),
        (ofi.table_3_3_replication(), "seed 003 Table 3.3"),
    ):
        rows = table.attrs["rows"]
        assert {r.source for r in rows} == {source}
        scores = [r for r in rows if r.quantity.startswith(("OFI,", "DI,", "TE,", "DCA,"))]
        assert {r.rule for r in scores} == {Rounding()}


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


def test_fig_3_3_over_seeds_judges_each_seed_like_one_run_and_refuses_stale():
    import pandas as pd

    from fairbook_book.recordings import Recording

    rows = []
    for unit, tp in (("s0", 7), ("s1", 2), ("s10", 9)):
        for model in ("rf", "nb"):
            rows += [
                {"unit": unit, "model": model, "group": "i", "TP": 1, "FN": 0, "FP": 0, "TN": 5},
                {"unit": unit, "model": model, "group": "j", "TP": tp, "FN": 0, "FP": 1, "TN": 10},
            ]
    frame = pd.DataFrame(rows)
    frame["n"] = frame[["TP", "FN", "FP", "TN"]].sum(axis=1)

    def provenance_of(name, fingerprint="now"):
        return {"unit": name, "fingerprint": fingerprint, "cores": 2, "n_jobs": 1}, {
            "seconds": 1.0,
            "date": "2026-11-25T00:00:00",
            "commit": "abc",
        }

    provenance = [a | b for a, b in map(provenance_of, ("s0", "s1", "s10"))]
    table = ofi.fig_3_3_over_seeds(Recording("02", "adult", frame, provenance, "now"), group="j")
    assert list(table.columns) == ["paper", "s0", "s1", "s10", "median", "min", "max"]
    for unit in ("s0", "s1", "s10"):  # each seed's column is fig_3_3_replication of that seed
        counts = ofi.recorded_counts(frame, unit)
        one = ofi.fig_3_3_replication(counts, group="j")
        assert table[unit].tolist() == one["ours"].astype(float).tolist()
    assert (table["min"] <= table["median"]).all() and (table["median"] <= table["max"]).all()
    old = [a | b for a, b in [provenance_of("s0", "old")]]
    stale = Recording("02", "adult", frame, old, "now")
    with pytest.raises(ValueError, match="stale"):
        ofi.fig_3_3_over_seeds(stale, group="j")
