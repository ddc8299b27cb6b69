"""The PTN chapter's pipeline on a tiny configuration — the results module."""

import numpy as np
import pytest

from fairbook.forecasting.crps import crps
from fairbook_book.chapters import parallel_time_networks as pc


def test_search_space_restricts_only_the_hidden_size():
    full = pc.search_space({"hidden_sizes": None})
    small = pc.search_space({"hidden_sizes": (24, 48)})
    assert full["hidden_size"].values == (72, 96, 120, 144, 168, 192, 216, 240)
    assert small["hidden_size"].values == (24, 48)
    assert {k: v for k, v in small.items() if k != "hidden_size"} == {
        k: v for k, v in full.items() if k != "hidden_size"
    }
    assert len(pc.space_table(full)) == 22


def test_partition_table_counts_windows(study):
    _, data, _ = study
    table = pc.partition_table(data)
    assert list(table.index) == [
        "neural_train",
        "neural_val",
        "genetic_train",
        "genetic_val",
        "test",
    ]
    assert (table["trajectories"] == 1).all()
    assert table.loc["test", "windows"] == len(data["windows"]["test"])


def test_runs_score_every_test_window_with_the_three_models(study):
    config, data, runs = study
    n_test = len(data["windows"]["test"])
    assert [r.seed for r in runs] == [config["seed"], config["seed"] + 1]
    for r in runs:
        assert list(r.crps.columns) == ["PTN", "Det.", "TiDE"]
        assert len(r.crps) == n_test and np.isfinite(r.crps.to_numpy()).all()
        assert (r.crps.to_numpy() >= -1e-12).all()
        assert r.quantiles.shape == (n_test, 16, 111)
        # the PTN column is Eq. 5.7 of the stored quantiles
        w = data["windows"]["test"]
        assert np.allclose(r.crps["PTN"], crps(r.quantiles, w.target), atol=1e-5)
        assert set(r.seconds) == {"search", "final PTN", "TiDE"}
    # the Normal baseline does not depend on the run's seed
    assert np.array_equal(runs[0].crps["Det."], runs[1].crps["Det."])


def test_budget_records_each_cycle_and_ends_at_the_final_scores(study):
    _, _, runs = study
    for r in runs:
        assert list(r.budget.index) == [1, 2]
        assert list(r.budget["weight updates"]) == [10, 20]
        last = r.budget.iloc[-1]
        assert last["PTN mean"] == pytest.approx(r.crps["PTN"].mean())
        assert last["TiDE median"] == pytest.approx(r.crps["TiDE"].median())
        assert (r.budget["Det. mean"] == r.crps["Det."].mean()).all()
        # wall seconds accumulate and end at the stage totals of the cost table
        for model, stage in (("PTN", "final PTN"), ("TiDE", "TiDE")):
            seconds = r.budget[f"{model} seconds"]
            assert seconds.is_monotonic_increasing and seconds.iloc[0] > 0
            assert seconds.iloc[-1] == pytest.approx(r.seconds[stage])
    table = pc.budget_table(runs)
    assert "TiDE seconds" not in table  # wall time only on request (it varies run to run)
    table = pc.budget_table(runs, seconds=True)
    assert table.loc[2, "TiDE seconds"] == pytest.approx(
        np.mean([r.budget.loc[2, "TiDE seconds"] for r in runs])
    )
    assert table.loc[2, "PTN mean"] == pytest.approx(np.mean([r.crps["PTN"].mean() for r in runs]))
    with pytest.raises(ValueError, match="budget"):
        pc.budget_table([])


def test_crps_check_converges():
    table = pc.crps_check()
    assert table["|difference|"].is_monotonic_decreasing
    assert table["|difference|"].iloc[-1] < 1e-3


def test_window_counts_are_the_windows_the_pipeline_cuts(study):
    config, data, _ = study
    counts = pc.window_counts(config)
    assert {len(w) for w in data["windows"].values()} == {counts["partition"]}
    assert counts["score"] == counts["test"] == counts["partition"] and counts["warm"] == 0
    sub = pc.window_counts({**config, "score_windows": 5, "n_initial": 4, "warm_start": 0.25})
    assert sub["score"] == 5 and sub["warm"] * 3 == sub["test"]


def test_cost_extrapolation_counts_every_stage():
    import pandas as pd

    costs = pd.DataFrame(
        {
            "hidden_size": [24, 48],
            "epoch_cpu_seconds": [1.0, 4.0],  # d²: 1 s at 24, 4 s at 48 -> mean 2.5 s
            "window_cpu_seconds": [0.01, 0.04],  # mean 0.025 s
            "tide_step_cpu_seconds": [0.5, 0.5],
            "tide_window_cpu_seconds": [0.0, 0.0],
        }
    )
    config = {
        **pc.settings("fast"),
        "population": 3,
        "generations": 2,
        "epochs": 5,
        "final_cycles": 2,
        "final_epochs": 7,
        "warm_start": 0.5,
        "warm_epochs": 4,
        "n_systems": 1,
        "n_initial": 2,
        "stride": 100,
        "score_windows": 4,
        "runs": 3,
    }
    n = pc.window_counts(config)
    table = pc.cost_extrapolation(costs, config)
    hours = table["CPU hours"] * 3600
    assert hours["search: training"] == pytest.approx(6 * 5 * 2.5)
    assert hours["search: scoring"] == pytest.approx(6 * 2 * 4 * 0.025)
    assert hours["final PTN"] == pytest.approx((2 * 7 + 4) * 2.5 + 3 * n["test"] * 0.025)
    tide_epochs = pc.tide_epochs_per_cycle(config, n["partition"])
    assert hours["TiDE"] == pytest.approx(3 * tide_epochs * -(-n["partition"] // 64) * 0.5)
    stages = ["search: training", "search: scoring", "final PTN", "TiDE"]
    assert hours["total per run"] == pytest.approx(hours[stages].sum())
    assert hours["all runs"] == pytest.approx(3 * hours[stages].sum())
    assert hours["search: scoring every window"] == pytest.approx(6 * 2 * n["partition"] * 0.025)
    # the power law through two sizes extends to another size as d²
    beyond = pc.cost_extrapolation(costs, {**config, "hidden_sizes": (96,)})
    assert beyond.loc["search: training", "CPU hours"] * 3600 == pytest.approx(30 * 16.0)
    with pytest.raises(ValueError, match="columns"):
        pc.cost_extrapolation(costs.drop(columns="epoch_cpu_seconds"), config)
    assert pc.cost_extrapolation(pd.DataFrame(), config).empty
    assert "not recorded" in pc.cost_markdown(pd.DataFrame(), config)
    text = pc.cost_markdown(table, config, hours=0.001, cores=2)
    wall = hours["total per run"] * 3 / 2 / 3600
    assert "does not fit" in text and f"{wall:,.1f} hours of wall time" in text
    assert "That fits" in pc.cost_markdown(table, config, hours=10**6)
    other = (hours["total per run"] - hours["search: training"] - hours["search: scoring"]) / 3600
    per_candidate = hours["search: training"] / 6 / 3600
    window = (other + 2 * per_candidate) * 3 / 2  # each of 3 runs gets 2/3 of it on 2 cores
    text = pc.cost_markdown(table, config, hours=window, cores=2)
    assert "could train about 2 candidates" in text and "not 6" in text
    assert "before any search" in pc.cost_markdown(table, config, hours=other, cores=2)


def test_equal_compute_gives_tide_no_more_time_than_ptn(study):
    _, _, runs = study
    table = pc.equal_compute_table(runs)
    assert list(table.index) == [f"run {r.run}" for r in runs] + ["mean"]
    for r in runs:
        row = table.loc[f"run {r.run}"]
        assert row["PTN CRPS"] == pytest.approx(r.crps["PTN"].mean())
        assert row["Normal CRPS"] == pytest.approx(r.crps["Det."].mean())
        within = r.budget[r.budget["TiDE seconds"] <= row["PTN seconds"]]
        if len(within):
            assert row["TiDE seconds"] <= row["PTN seconds"]
            assert row["TiDE CRPS"] == within["TiDE mean"].iloc[-1]
            assert row["PTN better than TiDE"] == float(row["PTN CRPS"] < row["TiDE CRPS"])
        else:
            assert np.isnan(row["TiDE CRPS"]) and np.isnan(row["PTN better than TiDE"])
    assert table.loc["mean", "PTN CRPS"] == pytest.approx(table["PTN CRPS"].iloc[:-1].mean())
    with pytest.raises(ValueError, match="no runs"):
        pc.equal_compute_table([])


# ---- the decisive recording (synthetic tables in its layout, known numbers)
def test_recorded_runs_take_each_runs_last_phase_or_its_last_cycle(synthetic_decisive):
    recording = synthetic_decisive(runs=3, cycles=3, warm=True)
    frame = recording.frame
    last = pc.recorded_runs(recording)
    cold = pc.recorded_runs(recording, phase="before warm start")
    random_agent = pc.recorded_runs(recording, search=False)
    assert len(last) == len(cold) == len(random_agent) == 3
    for run, (a, b, c) in enumerate(zip(last, cold, random_agent, strict=True)):
        rows = frame[(frame["kind"] == "window") & (frame["run"] == run)]
        mine = rows[rows["search"]]
        np.testing.assert_array_equal(a["PTN"], mine.loc[mine["cycle"] == 4, "PTN"])
        np.testing.assert_array_equal(b["PTN"], mine.loc[mine["cycle"] == 3, "PTN"])
        theirs = rows[~rows["search"]]
        np.testing.assert_array_equal(c["PTN"], theirs.loc[theirs["cycle"] == 4, "PTN"])
        assert list(a.columns) == ["PTN", "Det.", "TiDE"]
    with pytest.raises(ValueError, match="phase"):
        pc.recorded_runs(recording, phase="first")


def test_decision_table_decides_the_skill_of_each_run_with_a_t_interval(synthetic_decisive):
    from scipy import stats

    recording = synthetic_decisive(runs=6)
    table = pc.decision_table(recording)
    runs = pc.recorded_runs(recording)
    expected = [1 - np.median(r["PTN"]) / np.median(r["Det."]) for r in runs]
    row = table.loc["PTN vs Normal (Det.): skill Q2"]
    assert row["mean"] == pytest.approx(np.mean(expected))
    ci = stats.ttest_1samp(expected, 0.0).confidence_interval(0.95)
    assert (row["low"], row["high"]) == (pytest.approx(ci.low), pytest.approx(ci.high))
    assert row["runs above zero"] == sum(e > 0 for e in expected)
    # the synthetic search is 1.5x better than its random agent in every run, and the warm
    # start (phase 4 of 4) divides the CRPS by 4/3: both decided for the first named
    searched = table.loc["search vs no search (PTN): skill Q2"]
    assert searched["decision"] == "decided: the first wins" and searched["mean"] > 0
    warm = table.loc["warm start vs none (PTN): skill Q2"]
    assert warm["mean"] == pytest.approx(0.25) and warm["decision"] == "decided: the first wins"
    assert set(table["decision"]) <= {
        "decided: the first wins",
        "decided: the second wins",
        "t interval: the first wins; sign test: not decided",
        "t interval: the second wins; sign test: not decided",
        "not decided",
    }
    assert (table["runs"] == 6).all()


def test_decision_table_without_warm_start_or_ablation_leaves_those_rows_out(synthetic_decisive):
    recording = synthetic_decisive(runs=3, warm=False)
    frame = recording.frame
    recording.frame = frame[frame["search"]]
    table = pc.decision_table(recording)
    assert not any(name.startswith(("warm", "search", "random")) for name in table.index)
    assert pc.decision_table(synthetic_decisive(runs=1)).empty


def test_decisive_curves_are_the_mean_crps_after_each_phase(synthetic_decisive):
    recording = synthetic_decisive(runs=2, cycles=2, warm=True)
    curves = pc.decisive_curves(recording)
    assert len(curves) == 2 * 2 * 3  # search x runs x phases
    frame = recording.frame
    rows = frame[(frame["kind"] == "window") & (frame["run"] == 1) & frame["search"]]
    got = curves[(curves["run"] == 1) & curves["search"] & (curves["cycle"] == 2)]
    assert got["PTN"].item() == pytest.approx(rows.loc[rows["cycle"] == 2, "PTN"].mean())
    assert curves["phase"].tolist()[:3] == ["cycle", "cycle", "warm start"]


def test_decisive_runs_table_and_the_answer_come_from_the_recording(synthetic_decisive):
    recording = synthetic_decisive(runs=4)
    runs = pc.decisive_runs_table(recording)
    assert list(runs.index) == [0, 1, 2, 3]
    assert runs[("search", "hidden size")].tolist() == [24, 48, 24, 48]
    for variant in ("search", "no search"):  # printed 48, not 48.0
        assert runs[(variant, "hidden size")].dtype.kind in "iu"
    assert (runs[("search", "unit minutes")] == 1.0).all()
    assert (runs[("no search", "PTN")] > runs[("search", "PTN")]).all()
    decisions = pc.decision_table(recording)
    text = pc.decisive_answer_markdown(recording, decisions, pc.decisive_curves(recording))
    # 4 of 4 runs: the t interval decides, the sign test cannot (p = 2 / 2**4)
    assert "4 runs recorded" in text and "**the searched agent wins by the t interval**" in text
    # the last cycle (2 -> 3) divides the synthetic CRPS by 3/2: a third off
    assert "fell by 33.3 %" in text
    recording.provenance[0]["fingerprint"] = "old"
    stale = pc.decisive_answer_markdown(recording, decisions, pc.decisive_curves(recording))
    assert stale.startswith("**The recording is stale**")


def test_a_comparison_decided_by_the_t_interval_alone_says_so(synthetic_decisive):
    recording = synthetic_decisive(runs=7)
    frame = recording.frame
    # make the warm start hurt PTN in one run of seven: the t interval still excludes zero,
    # the sign test (6 of 7, p = 0.125) does not
    hurt = (frame["kind"] == "window") & (frame["run"] == 3) & (frame["cycle"] == 4)
    frame.loc[hurt, "PTN"] *= 1.4
    table = pc.decision_table(recording)
    row = table.loc["warm start vs none (PTN): skill Q2"]
    assert row["runs above zero"] == 6 and row["sign test p"] == pytest.approx(0.125)
    assert row["low"] > 0
    assert row["decision"] == "t interval: the first wins; sign test: not decided"
    text = pc.decisive_answer_markdown(recording, table, pc.decisive_curves(recording))
    assert "wins by the t interval**, not by the sign test" in text


def test_crps_examples_by_hand():
    table = pc.crps_examples(
        {"on target": [0.3, 0.3], "fan {0, 0.5, 1}": [0.0, 0.5, 1.0], "narrow": [0.9, 1.1]},
        target=0.3,
    )
    assert table.loc["on target", "CRPS"] == 0
    fan = table.loc["fan {0, 0.5, 1}"]
    assert fan["quantiles"] == "{0, 0.5, 1}"
    assert fan["T1"] == pytest.approx((0.3 + 0.2 + 0.7) / 3)
    assert fan["T2"] == pytest.approx(4 / 9)  # |differences| 0.5, 1, 0.5, twice each, over 9
    assert fan["CRPS"] == pytest.approx(0.4 - 2 / 9)
    assert table.loc["narrow", "CRPS"] == pytest.approx(0.7 - 0.05)
    assert np.allclose(table["CRPS"], table["T1"] - table["T2"] / 2)


def test_crps_examples_over_steps_and_bad_shapes():
    table = pc.crps_examples({"fan": [[0.0, 2.0], [1.0, 3.0]]}, target=[0.0, 2.0])
    assert table.loc["fan", "quantiles"] == "{0, 2} | {1, 3}"
    assert table.loc["fan", "CRPS"] == pytest.approx(crps([[0.0, 2.0], [1.0, 3.0]], [0.0, 2.0]))
    with pytest.raises(ValueError, match="2 steps but the target has 1"):
        pc.crps_examples({"fan": [[0.0, 2.0], [1.0, 3.0]]}, target=1.0)
    with pytest.raises(ValueError, match="at least one"):
        pc.crps_examples({}, target=1.0)


def test_space_and_agent_tables_print_without_scientific_notation_or_five_decimals():
    from types import SimpleNamespace

    table = pc.space_table(pc.search_space({"hidden_sizes": (24, 48)}))
    assert table.loc["weight_lr", "values"] == "[1 × 10⁻⁵, 0.001]"
    run = SimpleNamespace(
        run=0, agent={"arch_lr": 9.3412e-05, "slope": 0.00496, "dropout": 0.2, "heads": 4}
    )
    agents = pc.chosen_agents([run])
    assert agents["run 0"].tolist() == ["9.34 × 10⁻⁵", "4.96 × 10⁻³", "0.2", "4"]
