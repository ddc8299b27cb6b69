"""Tests of the seed-000 chapter's computations (no network; real data only if cached)."""

import numpy as np
import pandas as pd
import pytest

from fairbook.data import verify
from fairbook.experiments import uncertainty_fairness as uf
from fairbook.papers import seed000
from fairbook.uncertainty import decompose


def hand_run():
    """Four people per group; predictions by hand, two Monte Carlo samples."""
    y_true = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    p1 = np.array([0.9, 0.4, 0.2, 0.6, 0.8, 0.7, 0.1, 0.3])  # P(Y = 1), sample 1
    p2 = np.array([0.7, 0.4, 0.4, 0.6, 0.8, 0.9, 0.1, 0.1])
    probs = np.stack([np.column_stack([1 - p, p]) for p in (p1, p2)])
    groups = {"G": np.array(["a"] * 4 + ["b"] * 4, dtype=object)}
    X = np.arange(16.0).reshape(8, 2)
    return uf.Run("hand", "bnn", None, X, y_true, groups, probs)


def test_fairness_result_by_hand():
    run = hand_run()
    # mean P(Y=1): a .8 .4 .3 .6 -> predictions 1 0 0 1; b .8 .8 .1 .2 -> 1 1 0 0
    np.testing.assert_array_equal(run.y_pred, [1, 0, 0, 1, 1, 1, 0, 0])
    result = uf.fairness_result(run, "G", protected="a", reference="b")
    a, b = result.groups["a"], result.groups["b"]
    assert (a["n"], a["ACC"], a["FPR"], a["FNR"]) == (4, 0.5, 0.5, 0.5)
    assert (b["ACC"], b["PPV"], b["NPV"]) == (1.0, 1.0, 1.0)
    e, al, p = decompose(run.probs)
    assert a["U_e"] == pytest.approx(e[:4].mean()) and b["U_a"] == pytest.approx(al[4:].mean())
    r = result.ratios
    assert r["F_SP"] == pytest.approx(1.0) and r["F_EOpp"] == pytest.approx(0.5)
    assert np.isnan(r["F_EOdd_y0"])  # b has no false positives: 0.5 / 0
    assert np.isnan(r["F_EOpp_FNR"])
    assert r["F_EAcc"] == pytest.approx(0.5)
    assert r["F_Alea"] == pytest.approx(al[:4].mean() / al[4:].mean())
    assert result.flags["F_EAcc"] == "unfair" and result.flags["F_SP"] == "fair"
    assert result.flags["F_EOdd_y0"] == "undefined"
    table = uf.format_tables({"hand": result})
    assert table.loc["F_EAcc", ("hand", "G0")] == "0.50"
    assert table.loc["F_EAcc", ("hand", "G1")] == "unfair"
    assert table.loc["U_a", ("hand", "G0")] == f"{al[:4].mean():.4f}"


def test_flag_threshold_is_the_papers():
    assert uf._flag(1.2) == "fair" and uf._flag(0.8) == "fair"
    assert uf._flag(1.2001) == "unfair" and uf._flag(np.nan) == "undefined"


def ratios(**values):
    base = dict.fromkeys(uf.POINT_RATIOS + uf.UNCERTAINTY_RATIOS, 1.0)
    base.update(values)
    return pd.Series(base)


def test_pattern_checks():
    assert uf._pattern(ratios(F_Alea=4.0, F_Pred=4.0), "SD1", ignore_undefined=False)[
        "pattern holds"
    ]
    assert not uf._pattern(ratios(F_Alea=1.1), "SD1", ignore_undefined=False)["pattern holds"]
    undefined = ratios(F_Alea=4.0, F_EOdd_y0=np.nan)
    assert not uf._pattern(undefined, "SD1", ignore_undefined=False)["pattern holds"]
    assert uf._pattern(undefined, "SD1", ignore_undefined=True)["pattern holds"]
    assert uf._pattern(ratios(F_Epis=2.5), "SD2", ignore_undefined=False)["pattern holds"]
    assert uf._pattern(ratios(F_EAcc=0.7), "SD3", ignore_undefined=False)["pattern holds"]
    assert not uf._pattern(ratios(F_EAcc=0.7, F_Alea=1.3), "SD3", ignore_undefined=False)[
        "pattern holds"
    ]


def test_replication_tables_and_summaries_from_fixed_results():
    result = uf.fairness_result(hand_run(), "G", protected="a", reference="b")
    results = {sd: [result, result] for sd in ("SD1", "SD2", "SD3")}
    table = uf.table_1_replication(results)
    assert len(table) == 3 * (2 * 8 + 8)
    row = table.set_index("quantity").loc["SD1 U_a G0"]
    assert row["paper"] == 0.4926 and row["ours"] == pytest.approx(result.groups.loc["U_a", "a"])
    assert "sd 0 over 2 seeds" in row["note"]
    f_sp = table.set_index("quantity").loc["SD1 F_SP"]
    assert f_sp["verdict"] == "matches"  # 1.00 vs 1.07: within 20 % + rounding
    assert "flag: paper fair, ours fair" in f_sp["note"]
    summary = uf.verdict_summary({"Table 1": table})
    assert summary.loc["Table 1", "rows"] == len(table)
    side = uf.estimator_comparison({"bnn": {"SD1": result}, "ensemble": {"SD1": [result]}})
    assert list(side.columns) == [("SD1", "bnn"), ("SD1", "ensemble")]


def test_bands_are_applied():
    row = uf._row("x", 2.0, 2.45, "ratio")
    assert row["extra"] == pytest.approx(0.4)
    assert uf._row("x", 0.5, 0.4, "rate")["extra"] == 0.05
    assert uf._row("x", 10, 10, "count", decimals=0)["extra"] == 0.0


def test_pattern_summary_on_a_fake_study():
    rows = []
    for seed, alea in enumerate((4.0, 1.1)):
        record = {"estimator": "bnn", "SD": "SD1", "seed": seed, **ratios(F_Alea=alea).to_dict()}
        checks = uf._pattern(
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


def test_seed000_tables_are_self_consistent():
    assert seed000.TABLE_2_GROUPS["B"] is seed000.TABLE_3_GROUPS["B"]
    for label, (y0, y1) in seed000.TABLE_4["COMPAS"].items():
        assert y0 + y1 == seed000.TABLE_3_GROUPS[label]["n"]
    assert sum(seed000.TABLE_4["Adult"]["F"]) == seed000.TABLE_5_F_SAMPLE_SIZE_CORRECTED
    assert sum(v["n"] for k, v in seed000.TABLE_6.items() if k[0] == "F") == 639


def test_sd_run_and_small_study():
    config = uf.settings("fast")
    run = uf.sd_run(3, seed=0, config=config)
    assert run.probs.shape == (10, 80, 2)
    again = uf.sd_run(3, seed=0, config=config)
    np.testing.assert_array_equal(run.probs, again.probs)  # bit-reproducible on CPU
    study, results = uf.sd_seed_study([0], estimators=("ensemble",), config=config)
    assert len(results["ensemble"]["SD2"]) == 1
    assert list(study["SD"]) == ["SD1", "SD2", "SD3"] and (study["epochs"] == 5).all()
    assert uf.sd_run(1, seed=0, config=config, estimator="ensemble").probs.shape[0] == 5


def test_pool_sequences_and_small_dvlog_standin():
    X = np.array([[[1.0, 0.0], [3.0, 2.0], [9.0, 9.0]]])
    np.testing.assert_allclose(uf.pool_sequences(X, [2]), [[2.0, 1.0, 3.0, 2.0, 1.0, 0.0]])
    with pytest.raises(ValueError, match="lengths"):
        uf.pool_sequences(X, [4])
    frame = uf.dvlog_standin((None, 400), scale=0.3, epochs=3, n_members=2)
    assert set(frame["group"]) == {"F", "M"} and len(frame) == 4
    none = frame[frame["t_max"] == "none"]
    assert (none["evidence cut"] == 0).all()
    summary = uf.dvlog_summary(frame)
    assert list(summary.index) == ["none", "400 s"]
    assert {"U_a F", "U_a M", "F_Alea"} <= set(summary.columns)


def test_individual_reliability_and_explorer_on_a_fixed_run():
    run = hand_run()
    table = uf.individual_table(run, "G", ("a", "b"), k=2)
    assert list(table.index) == ["a(+)", "a(-)", "b(+)", "b(-)"]
    out = uf.reliability(run, n_bins=5, attribute="G")
    assert out["table"]["count"].sum() == 8 and 0 <= out["ece"]["all"] <= 1
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    widget = uf.explorer({("SD1", "bnn", 0): run}, initial=("SD1", "G", "bnn", 10, 0))
    assert "F_Alea" in widget.children[2].children[0].value


def test_settings():
    assert uf.settings("full")["sd_seeds"] >= 20
    with pytest.raises(ValueError, match="profile"):
        uf.settings("huge")
    with pytest.raises(ValueError, match="unknown"):
        uf.settings(bogus=1)
    with pytest.raises(ValueError, match="estimator"):
        uf.make_estimator("svm", epochs=1, batch_size=1, seed=0)


needs_data = pytest.mark.skipif(
    not all(v is True for v in verify(["compas", "adult_train", "adult_test"]).values()),
    reason="COMPAS / Adult not cached (run `fairbook data fetch`)",
)


@needs_data
def test_table_4_replication_matches_exactly():
    table = uf.table_4_replication()
    assert (table["verdict"] == "matches").all() and len(table) == 16


@needs_data
def test_compas_run_and_replication_structure():
    run = uf.tabular_run("compas", seed=0, estimator="ensemble", epochs=2)
    table = uf.compas_replication(run)
    sizes = table[table["quantity"].str.endswith("sample size")]
    assert (sizes["verdict"] == "matches").all()
    assert len(table) == 7 * 9 + 3 * 8


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
