"""Tests of the seed-000 chapter's computations — the results module."""

import numpy as np
import pytest

from fairbook.papers import seed000
from fairbook.uncertainty import decompose
from fairbook_book.chapters import uncertainty_fairness as uf


def test_fairness_result_by_hand(hand_run):
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


def _tiny_run():
    """Two groups whose samples barely disagree: G0 four times as much as G1 (by hand)."""
    base = np.array([0.9, 0.2, 0.8, 0.3, 0.9, 0.2, 0.8, 0.3])
    spread = np.array([0.01] * 4 + [0.005] * 4)
    p = np.stack([base + spread, base - spread])
    probs = np.stack([1 - p, p], axis=2)
    groups = {"G": np.array([0] * 4 + [1] * 4)}
    return uf.Run("SD1", "bnn", None, None, np.array([1, 0, 1, 0] * 2), groups, probs)


def test_small_epistemic_means_print_so_that_their_ratio_can_be_read():
    result = uf.fairness_result(_tiny_run(), "G", protected=0, reference=1)
    # U_e of a person: two classes, each deviating by ± spread: 2 spread²
    assert result.groups.loc["U_e", 0] == pytest.approx(2 * 0.01**2)
    assert result.ratios["F_Epis"] == pytest.approx(4.0)
    table = uf.format_tables({"SD1": result})
    assert table.loc["U_e", ("SD1", "G0")] == "2.00 × 10⁻⁴"  # never 0.0002 against 0.0001
    assert table.loc["U_e", ("SD1", "G1")] == "5.00 × 10⁻⁵"
    assert table.loc["F_Epis", ("SD1", "G0")] == "4.00"
    line = uf.ratio_lines({"SD1": result})
    assert line == (
        "SD1: F_Epis = mean U_e of G0 / mean U_e of G1 = 2.00 × 10⁻⁴ / 5.00 × 10⁻⁵ = 4.00 (unfair)"
    )
    assert uf.ratio_line(result, "F_EAcc").startswith("F_EAcc = accuracy of G0 / accuracy of G1")
    with pytest.raises(ValueError, match="ratio must be one of"):
        uf.ratio_line(result, "F_SP")
    assert uf.uncertainty_text(0.4917) == "0.4917" and uf.uncertainty_text(0.0) == "0"


def test_the_open_table_summarises_each_comparison_over_seeds(hand_run):
    runs = [hand_run(), _tiny_run()]
    runs[0].groups = {"G": np.array([0] * 4 + [1] * 4)}
    table = uf.uncertainty_summary(runs, dataset="SD1")  # no pairs of its own: G0 / G1
    assert table.index.names == ["groups", "measure"]
    assert list(table.index.get_level_values("measure")) == [
        "accuracy → F_EAcc",
        "aleatoric U_a → F_Alea",
        "epistemic U_e → F_Epis",
    ]
    assert set(table.index.get_level_values("groups")) == {"G0 / G1"}
    ratios = [uf.fairness_result(r, "G", protected=0, reference=1).ratios for r in runs]
    epis = sorted(r["F_Epis"] for r in ratios)
    row = table.loc[("G0 / G1", "epistemic U_e → F_Epis")]
    assert row["F = G0 / G1"] == f"{ratios[0]['F_Epis']:.2f}"  # the first run's
    assert row["F, median of 2"] == f"{np.median(epis):.2f}"
    assert row["F, range"] == f"{epis[0]:.2f}–{epis[1]:.2f}"


def test_the_open_table_of_compas_names_groups_and_counts_unfair_seeds(compas_run):
    run = compas_run()
    table = uf.uncertainty_summary([run, run, run])
    row = table.loc[("Black / White", "aleatoric U_a → F_Alea")]
    result = uf.fairness_result(run, "race", protected="B", reference="W")
    value = result.ratios["F_Alea"]
    assert row["G0"] == uf.uncertainty_text(result.groups.loc["U_a", "B"])
    assert row["F = G0 / G1"] == row["F, median of 3"] == f"{value:.2f}"
    assert row["F, range"] == f"{value:.2f}–{value:.2f}"
    unfair = abs(value - 1) > 0.2
    assert row["unfair in"] == f"{3 if unfair else 0} of 3"
    assert {"younger than 25 / older than 45", "female / male"} < set(
        table.index.get_level_values("groups")
    )
    with pytest.raises(ValueError, match="empty"):
        uf.uncertainty_summary([])


def test_pattern_checks(ratios):
    assert uf.results._pattern(ratios(F_Alea=4.0, F_Pred=4.0), "SD1", ignore_undefined=False)[
        "pattern holds"
    ]
    weak = ratios(F_Alea=1.1)
    assert not uf.results._pattern(weak, "SD1", ignore_undefined=False)["pattern holds"]
    undefined = ratios(F_Alea=4.0, F_EOdd_y0=np.nan)
    assert not uf.results._pattern(undefined, "SD1", ignore_undefined=False)["pattern holds"]
    assert uf.results._pattern(undefined, "SD1", ignore_undefined=True)["pattern holds"]
    assert uf.results._pattern(ratios(F_Epis=2.5), "SD2", ignore_undefined=False)["pattern holds"]
    assert uf.results._pattern(ratios(F_EAcc=0.7), "SD3", ignore_undefined=False)["pattern holds"]
    assert not uf.results._pattern(ratios(F_EAcc=0.7, F_Alea=1.3), "SD3", ignore_undefined=False)[
        "pattern holds"
    ]


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


def test_study_cost_sums_the_provenance_and_prices_designs():
    import pandas as pd

    from fairbook_book.recordings import Recording

    provenance = [
        {"unit": "chapter-s00", "seconds": 2.0},
        {"unit": "chapter-s01", "seconds": 4.0},
        {"unit": "f03-s00", "seconds": 10.0},
    ]
    recording = Recording("04", "study", pd.DataFrame(), provenance, expected=110)
    cost = uf.study_cost(recording, seeds=10)
    assert cost.loc["chapter", "units"] == 2 and cost.loc["chapter", "mean s per unit"] == 3.0
    assert cost.loc["all recorded", "total s"] == 16.0
    projected = cost.attrs["projected"]["hours at the measured mean unit"]
    # priced at the fraction's mean unit (f03: 10 s)
    assert projected["this recording, complete"] == 110 * 10.0 / 3600
    assert projected.iloc[2] == (128 + 3) * 10 * 10.0 / 3600
    assert uf.study_cost(Recording("04", "study", pd.DataFrame())).empty
