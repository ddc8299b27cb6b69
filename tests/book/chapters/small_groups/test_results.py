"""Tests of :mod:`fairbook_book.chapters.small_groups.results`: the chapter's tables, section
by section (seed 003 ch. 4).

Oracles: enumeration of M(n) and closed forms (Theorems 4.1–4.3, Corollary 4.3.1, the
Beta limit of Fig. 4.2), a six-person COMPAS file, the closed-form CPS mean squared error
of linear metrics, direct calls of :func:`fairbook.stats.cps.smoothing_mse`, and costs
worked out by hand.
"""

import math

import numpy as np
import pandas as pd
import pytest

from fairbook.stats import cps
from fairbook_book.chapters import small_groups as sg


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def test_space_table_checks_theorems_4_1_and_4_2():
    table = sg.space_table(range(0, 9))
    assert table["C_agree"].all()
    assert (table["N_closed_form"] == table["N_enumerated"]).all()


def test_space_moments_approach_the_beta_limit():
    moments = sg.space_moments(sg.space_cdfs(["ACC", "PPR", "MCC", "TPR"], [5, 40, 100]))
    assert np.allclose(moments.query("metric in ['ACC', 'PPR', 'TPR']")["mean"], 0.5)
    acc = moments[moments.metric == "ACC"].set_index("n")["sd"]
    # the spread falls towards Beta(2, 2)'s sqrt(1/20), not towards 0
    assert acc.is_monotonic_decreasing
    assert acc.loc[100] == pytest.approx(math.sqrt(1 / 20), abs=0.01)


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def test_pt_hole_table_closed_form_and_bounds():
    table = sg.pt_hole_table(30).set_index("n")
    assert (table["holes"] == table["closed_form"]).all()
    assert (table["holes"] >= table["mcc_holes"]).all()
    assert not table.loc[4:, "holds_upper"].any()  # fails for every n from 4 on
    assert table.loc[10, "holes"] == 48 and table.loc[10, "upper"] == pytest.approx(22.6, abs=0.05)
    assert table["share"].iloc[-1] < table["share"].iloc[2]  # Corollary 4.3.1


def test_mcc_limit_table_is_wide():
    wide = sg.mcc_limit_table(sg.mcc_limit_paths(10, scales=[1e-4, 1e-10]))
    assert list(wide.columns) == ["t = 10⁻⁴", "t = 10⁻¹⁰", "limit"]


def test_indeterminacy_table_reads_the_path_without_scientific_notation():
    table = sg.indeterminacy_table("FPR", scales=(1e-3, 1e-9), ratios=(0, 1, 4))
    on_path = table[table["path"] == "c_i = r c_j"]
    assert on_path["t"].tolist() == ["10⁻³", "10⁻⁹"] * 3
    # FP = r / (r + 1) t and TN = t / (r + 1): 0 and t, then t/2 twice, then 0.8 t and 0.2 t
    assert on_path["FP"].tolist() == ["0", "0", "0.5 t", "0.5 t", "0.8 t", "0.8 t"]
    assert on_path["TN"].tolist() == ["t", "t", "0.5 t", "0.5 t", "0.2 t", "0.2 t"]
    assert on_path["value"].tolist() == pytest.approx([0, 0, 0.5, 0.5, 0.8, 0.8])
    hole = table[table["path"] == "at the hole"].iloc[0]
    assert (hole["t"], hole["FP"], hole["TN"]) == ("0", "0", "0")
    tpr = sg.indeterminacy_table("TPR", scales=(1e-6,), ratios=(1,))
    assert tpr.loc[0, ["t", "TP", "FN"]].tolist() == ["10⁻⁶", "0.5 t", "0.5 t"]


# --------------------------------------------------------- Sec. 4.5: MATCH on real small groups
def test_match_summary_counts_the_apparent_disparities(toy_counts):
    table = sg.match_table(toy_counts(), metrics=["PPR", "TPR", "B"], min_gap=0.05)
    summary = sg.match_summary(table)
    assert summary.loc["small", "apparent"] == table[table.group == "small"].apparent.sum()


# --------------------------------------- Sec. 4.6: which COMPAS matrices the published ones are
def test_compas_definition_table_holds_the_published_matrices(fake_compas):
    table = sg.compas_definition_table(frame=fake_compas())
    assert table.loc[("published", "all"), "n"] == 6454
    assert table.loc[("published", "all"), "tv_distance"] == 0


@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_real_compas_definitions_closest_to_the_published():
    defs = sg.compas_definition_table()
    tv = defs.xs("all", level="group")["tv_distance"]
    assert tv["violent_population"] < tv["violent"] < tv["general"]


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def test_cps_group_table(toy_counts):
    groups = sg.cps_groups(adult_counts=toy_counts(), compas_definition=None)
    table = sg.cps_group_table(groups)
    assert list(table.columns) == ["TP", "FN", "FP", "TN", "n", "reference n"]
    assert (table["n"] + table["reference n"] == toy_counts().to_numpy().sum()).all()


def test_cps_claim_shares_and_summary(toy_cps_run):
    _, run = toy_cps_run()
    shares = sg.cps_claim_shares(run)
    assert (shares["point"] >= shares["significant"]).all()
    summary = sg.cps_summary(run, group="Adult: small")
    assert (summary["raw"] == 1.0).all()
    assert list(summary.index) == ["TPR", "PPR"]
    assert "ε = 10⁻¹⁰" in summary.columns and "ε = 1e-10" not in summary.columns
    with pytest.raises(ValueError, match="no rows"):
        sg.cps_summary(run, group="nobody")


def test_cps_linear_mse_matches_the_protocol():
    p_group = np.array([0.3, 0.1, 0.2, 0.4])
    ref = np.array([40.0, 10.0, 40.0, 10.0])  # PPR .8 vs the group's .5
    run = cps.smoothing_mse(
        p_group,
        ref,
        [10, 40],
        ["PPR", "B"],
        n_draws=40_000,
        lams=(5, 20),
        eps=(0,),
        seed=2,
        progress=False,
    )
    for _, row in run.iterrows():
        lam = 0.0 if row.method == "additive" else row.setting
        if row.metric == "PPR":
            s, s_ref, v = 0.5, 0.8, 0.25
        else:
            s, s_ref, v = 0.1, 0.3, 0.3 - 0.01
        expected = float(sg.cps_linear_mse(s, s_ref, v, row.n, lam))
        assert row.mse == pytest.approx(expected, rel=0.05)


def test_cps_break_even_prediction():
    groups = {"g": (np.array([3.0, 1, 2, 4]), np.array([40.0, 10, 40, 10]))}
    table = sg.cps_break_even(groups, metrics=["PPR"], lams=[5, 20]).iloc[0]
    v, gap = 0.25, 0.3
    assert table["break_even_gap_λ=5"] == pytest.approx(math.sqrt(2 * v / 5))
    # gap .3 < sqrt(.1) = .316: λ = 5 never loses; λ = 20 loses from n > 1/(.36 - .1)
    assert np.isnan(table["loses_from_n_λ=5"])
    first = table["loses_from_n_λ=20"]
    assert first == math.floor(1 / (gap**2 / v - 0.1)) + 1
    lose = sg.cps_linear_mse(0.5, 0.8, v, first, 20) > v / first
    keep = sg.cps_linear_mse(0.5, 0.8, v, first - 1, 20) <= v / (first - 1)
    assert lose and keep
    with pytest.raises(ValueError, match="not linear"):
        sg.cps_break_even(groups, metrics=["TPR"])


def test_cps_losses_when_the_reference_is_far():
    groups = {"far": (np.array([9.0, 1, 1, 9]), np.array([1.0, 9, 9, 1]))}
    run = sg.cps_experiment(
        groups, sizes=[60, 100], metrics=["ACC", "PREV"], n_draws=4000, lams=(5, 20), eps=(0,)
    )
    losses = sg.cps_losses(run)
    acc = losses[(losses.metric == "ACC") & (losses.setting == "CPS λ = 20")]
    assert acc.sizes_lost.iloc[0] == 2 and acc.first_n.iloc[0] == 60
    assert acc.reference.iloc[0] == pytest.approx(0.1) and acc.target.iloc[0] == 0.9
    # PREV is the same for group and reference: CPS never loses there
    assert "PREV" not in set(losses.metric)


def test_full_profile_cost_scales_the_measured_seconds():
    # 50 s per setting at the full profile's 146 sizes: 6 settings = 300 s per group,
    # 4 groups = 20 minutes
    table = sg.full_profile_cost(4, 50.0, source="by hand")
    assert len(table) == 1 and table.source.iloc[0] == "by hand"
    assert table.seconds_per_group.iloc[0] == pytest.approx(300.0)
    assert table.minutes_total.iloc[0] == pytest.approx(20.0)
    # several measurements give one row each; fewer sizes cost proportionally less
    two = sg.full_profile_cost(1, {"a": 10.0, "b": 20.0}, n_settings=3, sizes=73)
    assert two.source.tolist() == ["a", "b"]
    assert two.seconds_per_group.tolist() == pytest.approx([15.0, 30.0])  # half the sizes
    with pytest.raises(ValueError, match="> 0"):
        sg.full_profile_cost(2, 0.0)


def test_cps_seconds_per_setting_extrapolates_the_run(toy_cps_run):
    _, run = toy_cps_run()
    a = run.attrs
    per_setting = a["seconds"] / (2 * 6)
    expected = per_setting * (1_000_000 / 3000) * (146 / 2)
    assert sg.cps_seconds_per_setting(run) == pytest.approx(expected)
    # at the run's own scale it is the measured time per group and setting
    same = sg.cps_seconds_per_setting(run, n_draws=3000, n_sizes=2)
    assert same == pytest.approx(per_setting)
    # the chapter's use: the full protocol for both groups, 6 settings each
    cost = sg.full_profile_cost(2, sg.cps_seconds_per_setting(run))
    assert cost.seconds_total.iloc[0] == pytest.approx(expected * 6 * 2)
    with pytest.raises(ValueError, match="cps_experiment"):
        sg.cps_seconds_per_setting(pd.DataFrame())
