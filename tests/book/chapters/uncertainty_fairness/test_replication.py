"""Tests of the seed-000 chapter's computations — the replication module."""

import numpy as np
import pandas as pd
import pytest

from fairbook.data import verify
from fairbook.papers import seed000
from fairbook_book.chapters import uncertainty_fairness as uf

needs_data = pytest.mark.skipif(
    not all(v is True for v in verify(["compas", "adult_train", "adult_test"]).values()),
    reason="COMPAS / Adult not cached (run `fairbook data fetch`)",
)


def test_replication_tables_and_summaries_from_fixed_results(hand_run):
    result = uf.fairness_result(hand_run(), "G", protected="a", reference="b")
    results = {sd: [result, result] for sd in ("SD1", "SD2", "SD3")}
    table = uf.table_1_replication(results)
    # every printed number once: F_EOdd is judged at y = 0 only (its y = 1 is in the note)
    assert len(table) == 3 * (2 * 8 + 7)
    eodd = table.set_index("quantity").loc["SD1 F_EOdd"]
    assert "judged as y = 0" in eodd["note"] and "ours at y = 1" in eodd["note"]
    row = table.set_index("quantity").loc["SD1 U_a G0"]
    assert row["paper"] == 0.4926 and row["ours"] == pytest.approx(result.groups.loc["U_a", "a"])
    assert row["seeds"] == 2
    # two identical seeds: an interval of one point, in its own columns
    assert row["95 % low"] == row["95 % high"] == pytest.approx(row["ours"])
    f_sp = table.set_index("quantity").loc["SD1 F_SP"]
    # 1.00 vs the printed 1.07: the flags agree (both fair) but two identical seeds give an
    # interval of one point, which the printed value is not in - so no match
    assert f_sp["verdict"] == "flag agrees (fair); paper outside interval"
    # the ledger's rows keep the whole verdict, interval included
    (judged,) = [r for r in table.attrs["rows"] if r.quantity == "SD1 F_SP"]
    assert judged.verdict.startswith("flag agrees (fair); outside 95 % interval [1, 1]")
    summary = uf.verdict_summary({"Table 1": table})
    assert summary.loc["Table 1", "rows"] == len(table)
    assert summary.loc["Table 1", ["matches", "differ", "no verdict"]].sum() == len(table)
    side = uf.estimator_comparison({"bnn": {"SD1": result}, "ensemble": {"SD1": [result]}})
    assert list(side.columns) == [("SD1", "bnn"), ("SD1", "ensemble")]


def test_rules_by_kind_of_quantity():
    row = uf.replication._row
    # a ratio within 20 % of the printed one whose fair/unfair flag flips: no longer a match
    # (seed 000 Table 1 SD2 F_Alea, SD2 F_Pred, SD3 F_EAcc were such cases)
    flipped = row("SD2 F_Alea", 1.15, [1.22, 1.25, 1.28], "ratio", source="seed 000 Table 1")
    assert flipped.verdicts[0].startswith("flag differs") and flipped.passed is False
    # a printed 0.0001 no longer accepts anything from 0 to 0.0002 (old ±50 % band):
    # 2-2.4 times too low over every seed is outside the interval
    low = row("B U_e", 0.0001, [4.2e-5, 4.5e-5, 5e-5], "uncertainty", source="s", decimals=4)
    assert low.passed is False
    # one seed: no interval, no verdict
    assert row("B ACC", 0.6, [0.61], "rate", source="seed 000 Tables 2-3").passed is None
    # the median, not a mean one outlier dominates
    outlier = row("SD1 F_Alea", 18.0, [17.0, 18.6, 20.0, 42_000.0], "ratio", source="s")
    assert outlier.ours == pytest.approx(19.3)
    count = row("x", 10, 10, "count", source="seed 000 Table 4")
    assert count.verdict == "data fact check: matches" and count.source == "seed 000 Table 4"
    assert row("F n", 9872, 9782, "count", source="seed 000 Table 5").verdict == (
        "data fact check: differs"
    )


def test_table_7_is_in_the_ledger_as_not_comparable():
    table = uf.table_7_replication()
    rows = table.attrs["rows"]
    # D-Vlog is data on request: its results are not compared, its sizes are data facts
    results = [r for r in rows if r.kind == "result"]
    assert {r.outcome for r in results} == {"not comparable"}
    assert {r.not_comparable_why for r in results} == {"data on request"}
    assert {r.kind for r in rows} == {"result", "data fact"}
    assert {r.source for r in rows} == {"seed 000 Table 7"}


def test_table_6_has_every_printed_number_and_the_2666_typo_fails():
    from fairbook.papers.printed import printed_count

    table = uf.table_6_replication().set_index("quantity")
    assert len(table) == printed_count("seed 000", "Table 6") == 16
    assert table.loc["F Y=0 samples", "paper"] == 2666  # as printed
    assert table.loc["F Y=0 samples", "ours"] == 639 - 373
    assert table.loc["F Y=0 samples", "verdict"] == "data fact check: differs"
    assert table.loc["M Y=0 samples", "verdict"] == "data fact check: matches"


def test_a_value_printed_in_scientific_notation_is_judged_at_its_precision():
    # Table 5 prints W's U_e as 6e-7: an interval over seeds at four decimals would take any
    # value below 0.00005; at the printed precision it takes 5.5e-7 to 6.5e-7
    from fairbook_book.chapters.uncertainty_fairness.replication import _row

    row = _row("W U_e", 6e-7, [2e-6, 3e-6, 4e-6], "uncertainty", source="seed 000 Table 5",
               decimals=4)  # fmt: skip
    assert row.verdict.startswith("outside") and "significant digit" in row.rule_text


def test_pattern_summary_on_a_fake_study(ratios):
    rows = []
    for seed, alea in enumerate((4.0, 1.1)):
        record = {"estimator": "bnn", "SD": "SD1", "seed": seed, **ratios(F_Alea=alea).to_dict()}
        checks = uf.results._pattern(
            pd.Series({k: record[k] for k in ratios().index}), "SD1", ignore_undefined=False
        )
        record.update(checks)
        record["pattern holds (undefined ignored)"] = checks["pattern holds"]
        rows.append(record)
    patterns, spreads = uf.pattern_summary(pd.DataFrame(rows))
    assert patterns.loc[("bnn", "SD1"), "pattern holds"] == 0.5
    assert spreads.loc[("bnn", "SD1", "F_Alea"), "mean"] == pytest.approx(2.55)
    assert spreads.loc[("bnn", "SD1", "F_Alea"), "share unfair"] == 0.5
    assert spreads.loc[("bnn", "SD1", "F_Alea"), "paper"] == 4.68


def test_paper_consistency_recovers_printed_ratios():
    table = uf.paper_consistency()
    alea = table[table["ratio"] == "F_Alea"]
    assert (alea["relative gap"].abs() < 0.01).all()  # printed U_a reproduce F_Alea
    compas_sp = table[
        (table["table"] == "3 (COMPAS)") & (table["ratio"] == "F_SP") & (table["pair"] == "B/W")
    ]
    assert compas_sp["from printed rates"].iloc[0] == pytest.approx(2.86, abs=0.01)
    # the printed F_EOdd is neither the FPR nor the TPR ratio for COMPAS race
    odd = table[
        (table["table"] == "3 (COMPAS)")
        & (table["pair"] == "B/W")
        & table["ratio"].str.startswith("F_EOdd")
    ]
    assert (odd["relative gap"].abs() > 0.3).all()


@needs_data
def test_table_4_replication_matches_exactly():
    table = uf.table_4_replication()
    # 16 counts and their 16 printed percentages
    assert (table["verdict"] == "data fact check: matches").all() and len(table) == 32


@needs_data
def test_compas_run_and_replication_structure():
    run = uf.tabular_run("compas", seed=0, estimator="ensemble", epochs=2)
    table = uf.compas_replication(run)
    sizes = table[table["quantity"].str.endswith("sample size")]
    assert (sizes["verdict"] == "matches").all()
    assert len(table) == 7 * 9 + 3 * 7


def test_study_comparison_and_group_ordering():
    study = pd.DataFrame(
        {
            "estimator": "bnn",
            "SD": ["SD2", "SD2"],
            "F_Epis": [2.0, 1.0],
            "F_Alea": [1.0, 1.0],
            "pattern holds (undefined ignored)": [1, 0],
        }
    )
    table = uf.study_comparison({"a": study, "b": study.assign(F_Epis=3.0)})
    assert table.loc["SD2", ("a", "F_Epis share unfair")] == 0.5
    assert table.loc["SD2", ("b", "F_Epis mean")] == 3.0
    rng = np.random.default_rng(0)
    n = 210
    p = rng.uniform(0.05, 0.95, n)
    groups = {
        "race": np.repeat(["B", "W", "B"], 70).astype(object),
        "sex": np.tile(["F", "M"], n // 2).astype(object),
        "age": np.repeat(["<25", "25-45", ">45"], 70).astype(object),
    }
    run = uf.Run(
        "COMPAS",
        "bnn",
        None,
        np.zeros((n, 1)),
        rng.integers(0, 2, n),
        groups,
        np.stack([np.column_stack([1 - p, p])] * 2),
    )
    order = uf.group_ordering(run)
    assert set(order.index) == set(seed000.TABLE_3_GROUPS)
    assert order["paper"].is_monotonic_decreasing
    assert -1 <= order.attrs["spearman"] <= 1


# ------------------------------------------------------------------ the sensitivity study
def _scores(rows):
    """Hand-made study scores: ``rows`` = {cell: [(matches, flags) per table]}."""
    tables = ("Table 1", "Tables 2-3", "Table 5")
    cols = [(t, k) for t in tables for k in ("matches", "rows", "same flag", "ratio rows")]
    data = {}
    for cell, per_table in rows.items():
        values = []
        for matches, flags in per_table:
            values += [matches, 50, flags, 20]
        total = sum(m for m, _ in per_table)
        data[cell] = [*values, total, total / 150, 10]
    cols += [("all", "matches"), ("all", "share"), ("all", "seeds")]
    return pd.DataFrame.from_dict(data, orient="index", columns=pd.MultiIndex.from_tuples(cols))


def test_study_decision_adopts_only_a_cell_at_least_as_good_on_every_table():
    # "x" gains on Tables 1 and 5 but loses a flag on Tables 2-3: not supported
    scores = _scores({"chapter": [(10, 5), (10, 5), (10, 5)], "x": [(20, 6), (10, 4), (15, 5)]})
    decision = uf.study_decision(scores)
    assert decision["best"] == "x" and not decision["supported on all tables"]
    assert not decision["adopt"]
    assert decision["gain"].loc["Table 1", "matches"] == 10
    assert decision["best per table"]["Tables 2-3"] == ["chapter", "x"]
    assert "Not adopted" in uf.study_text(scores, decision)
    scores = _scores({"chapter": [(10, 5), (10, 5), (10, 5)], "x": [(11, 5), (10, 5), (12, 6)]})
    decision = uf.study_decision(scores)
    assert decision["adopt"] and decision["serves all tables"]
    with pytest.raises(ValueError, match="baseline"):
        uf.study_decision(scores, baseline="nope")


def test_study_effects_are_high_minus_low_means():
    cells = {
        "f00": {**{f: v[0] for f, v in uf.STUDY_FACTORS.items()}},
        "f01": {**{f: v[0] for f, v in uf.STUDY_FACTORS.items()}, "rho_init": -12.0},
    }
    scores = _scores({"f00": [(10, 0), (20, 0), (30, 0)], "f01": [(13, 0), (18, 0), (30, 0)]})
    effects = uf.study_effects(scores, cells)
    assert effects.index.tolist() == ["rho_init: -5.0 → -12.0"]
    assert effects.loc["rho_init: -5.0 → -12.0"].tolist() == [3.0, -2.0, 0.0]


@pytest.fixture(scope="module")
def recorded_slice():
    recording = uf.study_recording(uf.settings("full"))
    if recording.empty:
        pytest.skip("no recorded study units")
    frame = recording.frame
    keep = frame["cell"].isin(["chapter", "paper"]) & frame["seed"].isin([0, 1])
    return frame[keep]


@needs_data
def test_study_claims_agree_with_the_tables_flag_verdicts(recorded_slice):
    from fairbook_book.replication import passes

    claims = uf.study_claims(recorded_slice)
    assert claims.shape[0] == recorded_slice.groupby(["cell", "seed"]).ngroups
    checked = 0
    for (cell, seed), row in claims.iterrows():
        one = recorded_slice[(recorded_slice["cell"] == cell) & (recorded_slice["seed"] == seed)]
        for title, table in uf.study_tables(one, cell).items():
            for r in table.attrs["rows"]:
                if isinstance(r.rule, tuple):
                    flag = uf.replication._FLAG.decide(r.paper)
                    assert row[(title, f"{r.quantity} is {flag}")] == bool(passes(r.verdicts[0]))
                    checked += 1
    assert checked == claims.shape[0] * (21 + 21 + 14)
    robust = uf.robustness_table(claims)
    assert ((robust["low"] <= robust["share"]) & (robust["share"] <= robust["high"])).all()
    assert robust["robust"].eq(robust["share"] >= 0.9).all()
    assert "Do not" in uf.robustness_text(robust)


@needs_data
def test_study_scores_are_the_verdict_summaries_of_each_cell(recorded_slice):
    scores = uf.study_scores(recorded_slice)
    tables = uf.study_tables(recorded_slice, "paper")
    summary = uf.verdict_summary(tables)
    assert scores.loc["paper", ("Tables 2-3", "matches")] == summary.loc["Tables 2-3", "matches"]
    assert scores.loc["paper", ("all", "seeds")] == 2
    temperatures = uf.study_temperatures(recorded_slice)
    assert list(temperatures.columns) == ["COMPAS", "Adult"]
    assert (temperatures.to_numpy() > 0).all()


@needs_data
def test_tables_from_runs_and_from_their_summaries_are_identical():
    runs = [uf.tabular_run("compas", seed=s, config=uf.settings("fast")) for s in (0, 1)]
    frame = pd.DataFrame(
        [uf.real_summary(r, seed000.TABLE_3_GROUPS, seed000.TABLE_3_RATIOS) for r in runs]
    )
    a, b = uf.compas_replication(runs), uf.compas_replication(frame)
    pd.testing.assert_frame_equal(a, b)


def test_recorded_replication_of_an_empty_recording_is_empty():
    from fairbook_book.recordings import Recording

    empty = Recording("04_uncertainty_fairness", "study", pd.DataFrame(), expected=110)
    assert all(len(t) == 0 for t in uf.recorded_replication(empty).values())
    fast = pd.DataFrame({"cell": ["a", "a", "b", "b", "b"], "seed": [0, 2, 0, 1, 2]})
    label, frame = uf.study_source(empty, fast)
    assert "nothing recorded" in label
    assert frame["seed"].tolist() == [0, 2, 0, 2]  # the seeds every cell has


def test_budget_table_shows_each_budget_verdict_without_the_interval_numbers():
    row = uf.replication._row
    full = uf.replication._with_interval_columns(
        [row("B U_e", 0.0001, [2.0e-5, 3.0e-5, 4.0e-5], "uncertainty", source="s", decimals=4)]
    )
    fast = uf.replication._with_interval_columns(
        [row("B U_e", 0.0001, [9.0e-5, 1.1e-4], "uncertainty", source="s", decimals=4)]
    )
    table = uf.budget_table({"full": full, "fast": fast})
    # 0.0001 is beyond [2e-5, 4e-5] widened by 0.00005, inside [9e-5, 1.1e-4]
    assert table.loc["B U_e", "full: verdict"] == "paper outside interval"
    # inside, but the widened window (±0.00005 around [9e-5, 1.1e-4]) is wider than half of
    # the printed 0.0001: consistent, not informative
    assert table.loc["B U_e", "fast: verdict"].startswith("paper in interval; uninformative")
    assert table.loc["B U_e", "fast: ours"] == pytest.approx(1.0e-4)
