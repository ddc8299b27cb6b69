"""Tests of :mod:`fairbook_book.chapters.small_groups.runs`: the chapter's sampling,
enumeration and scoring, section by section (seed 003 ch. 4), and the input checks of
:mod:`fairbook_book.chapters.small_groups._common` through the functions that use them.

Oracles: enumeration of M(n), the binomial law, closed forms (binomial moments), the exact
laws and the MATCH test of :mod:`fairbook.stats.match`, Holm's adjustment by hand, a
six-person COMPAS file counted by hand, direct calls of
:func:`fairbook.stats.cps.smoothing_mse`, and Monte Carlo.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from fairbook.metrics import compute
from fairbook.papers import seed003
from fairbook.stats import combinatorics, cps, match
from fairbook_book.chapters import small_groups as sg
from fairbook_book.chapters.small_groups.runs import _b_normal_as_printed_error

P43 = match.FIG_4_3_P_REF


def test_bad_count_frames_raise(toy_counts):
    with pytest.raises(ValueError, match="lacks column"):
        sg.match_table(pd.DataFrame({"TP": [1]}))
    with pytest.raises(ValueError, match="unknown group"):
        sg.match_table(toy_counts(), groups=["nobody"])
    with pytest.raises(ValueError, match="DataFrame"):
        sg.cps_groups(adult_counts=[[1, 2, 3, 4]], compas_definition=None)
    with pytest.raises(ValueError, match="unknown metric"):
        sg.space_cdfs(["AUC"], [3])
    with pytest.raises(ValueError, match="sizes"):
        sg.space_table([-1])


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def test_fig_4_1_monte_carlo_matches_the_exact_law():
    cm = [7, 12, 2, 128]  # PPR = 9/149
    table = sg.fig_4_1_monte_carlo(cm, sizes=[10, 60, 150], n_draws=4000, seed=3)
    p = 9 / 149
    assert np.allclose(table["target"], p)
    # the Monte Carlo mean is within 4 standard errors of the exact mean p
    se = np.sqrt(p * (1 - p) / table["n"] / 4000)
    assert (np.abs(table["mean"] - p) < 4 * se).all()
    # exact quantiles are those of Binomial(n, p) / n
    for _, row in table.iterrows():
        n = int(row.n)
        assert row.exact_q975 == pytest.approx(stats.binom.ppf(0.975, n, p) / n)
        assert abs(row.q975 - row.exact_q975) <= 1.0 / n + 1e-12
    # reproducible, and a size's numbers do not depend on the other sizes
    again = sg.fig_4_1_monte_carlo(cm, sizes=[60], n_draws=4000, seed=3)
    assert again["mean"].iloc[0] == table.set_index("n").loc[60, "mean"]
    assert len(table.attrs["draws"]) == 3 * 40
    with pytest.raises(ValueError, match="non-negative counts"):
        sg.fig_4_1_monte_carlo([1, 2, 3], sizes=[5], n_draws=10)
    with pytest.raises(ValueError, match="n_draws"):
        sg.fig_4_1_monte_carlo(cm, sizes=[5], n_draws=1)


def test_space_cdfs_against_enumeration():
    cdfs = sg.space_cdfs(["ACC", "TPR", "MCC"], [4, 12], hole_values={"MCC": 0.0})
    for (metric, n), part in cdfs.groupby(["metric", "n"]):
        assert part["cdf"].iloc[-1] == pytest.approx(1.0)
        assert part["N"].iloc[0] == combinatorics.n_confusion_matrices(n)
        if metric in ("ACC", "TPR", "MCC"):
            assert part["holes"].iloc[0] == combinatorics.hole_count(metric, n)
    # ACC over M(n): the share at or below 0 is C(0; n)·... = matrices with TP = TN = 0
    acc4 = cdfs[(cdfs.metric == "ACC") & (cdfs.n == 4)]
    assert acc4["cdf"].iloc[0] == pytest.approx(5 / 35)  # (FN, FP) with FN + FP = 4
    filled = cdfs[(cdfs.metric == "MCC (holes = 0)") & (cdfs.n == 4)]
    assert filled["holes"].iloc[0] == 0


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def test_mcc_limit_paths_edge_and_corner():
    paths = sg.mcc_limit_paths(10, scales=[1e-4, 1e-10])
    edge = paths[paths.hole.str.startswith("edge")]
    corner = paths[paths.hole.str.startswith("corner")]
    # edge holes: MCC ~ sqrt(t) -> 0 along every path
    tiny = edge[edge.t == 1e-10]
    assert (tiny.MCC.abs() < 1e-4).all()
    # corner: the value along each path is its own limit, and they differ
    close = corner[corner.t == 1e-10]
    assert np.allclose(close.MCC, close.limit, atol=1e-6)
    assert close.limit.nunique() >= 3
    with pytest.raises(ValueError):
        sg.mcc_limit_paths(1)


# ----------------------------- Sec. 4.5: the law of a metric under MATCH and its approximations
def test_moments_table_against_closed_forms():
    table = sg.moments_table(sizes=[10, 80], n_draws=20_000, seed=1).set_index(["metric", "n"])
    p, q = 0.7, 0.3  # ACC ~ Binomial(n, .7) / n
    for n in (10, 80):
        assert table.loc[("ACC", n), "skewness"] == pytest.approx((q - p) / math.sqrt(n * p * q))
        assert table.loc[("ACC", n), "excess_kurtosis"] == pytest.approx(
            (1 - 6 * p * q) / (n * p * q)
        )
    # B: summands +1 (.2), -1 (.1), 0 (.7): mean .1, variance .29
    mu, var = 0.1, 0.29
    third = 0.2 * 0.9**3 + 0.1 * (-1.1) ** 3 + 0.7 * (-0.1) ** 3
    fourth = 0.2 * 0.9**4 + 0.1 * 1.1**4 + 0.7 * 0.1**4
    assert table.loc[("B", 80), "mean"] == pytest.approx(mu)
    assert table.loc[("B", 80), "skewness"] == pytest.approx(third / var**1.5 / math.sqrt(80))
    assert table.loc[("B", 80), "excess_kurtosis"] == pytest.approx((fourth / var**2 - 3) / 80)
    # Monte Carlo agrees with the exact moments (standard error of skewness ~ sqrt(6/N))
    assert abs(table.loc[("ACC", 10), "mc_skewness"] - table.loc[("ACC", 10), "skewness"]) < 0.07


def test_approximation_errors_and_peizer_pratt():
    errors = sg.approximation_errors(sizes=[5, 50, 200])
    table = errors.set_index(["metric", "method", "n"])["error"]
    for metric, method in (("ACC", "normal (Eq. 4.18)"), ("B", "normal (Thm 4.8, n restored)")):
        for n in (5, 50, 200):
            assert table[(metric, method, n)] <= table[(metric, "Berry–Esseen bound, C0 = 0.56", n)]
    # Table 4.1's Peizer–Pratt for B is far off and gets worse; expected-count beta improves
    assert (
        table[("B", "Peizer–Pratt (Table 4.1)", 200)]
        > table[("B", "Peizer–Pratt (Table 4.1)", 5)]
        > 0.1
    )
    assert table[("TPR", "beta, expected counts", 200)] < table[("TPR", "beta, expected counts", 5)]
    assert table[("TPR", "beta, observed counts (Eq. 4.44)", 200)] > 0.3
    assert table[("B", "normal (Eq. 4.29 as printed)", 200)] > 0.5
    pp = sg.peizer_pratt_check(sizes=[10, 40], probs=[0.1, 0.5])
    assert (pp["error_in_range"] < seed003.PEIZER_PRATT_MAX_ERROR).all()
    assert (pp["error_all"] >= pp["error_in_range"]).all()
    with pytest.raises(ValueError, match="probs"):
        sg.peizer_pratt_check(sizes=[10], probs=[1.0])


def test_b_normal_as_printed_is_not_an_approximation():
    p = np.asarray(P43)
    assert _b_normal_as_printed_error(p, 100) > 0.5
    assert match.approximation_error("B", p, 100, method="normal") < 0.01


# --------------------------------------------------------- Sec. 4.5: MATCH on real small groups
def test_match_table_against_match_test_and_holm(toy_counts):
    counts = toy_counts()
    table = sg.match_table(counts, metrics=["PPR", "TPR", "B"], min_gap=0.05)
    total = counts.sum().to_numpy(float)
    row = table[(table.group == "small") & (table.metric == "TPR")].iloc[0]
    ref = total - counts.loc["small"].to_numpy(float)
    assert row.p_value == pytest.approx(match.test("TPR", [5, 5, 0, 10], ref / ref.sum()))
    assert row.reference == pytest.approx(compute("TPR", ref))
    # Holm: sorted adjusted p-values are monotone, at least the raw ones, at most 1
    ordered = table.sort_values("p_value")
    assert ordered.p_holm.is_monotonic_increasing
    assert (table.p_holm >= table.p_value - 1e-15).all() and (table.p_holm <= 1).all()
    m = len(table)
    assert ordered.p_holm.iloc[0] == pytest.approx(min(1.0, m * ordered.p_value.iloc[0]))
    assert (table.survives == (table.apparent & (table.p_holm < 0.05))).all()
    assert set(table.verdict) <= {
        "disparity survives",
        "apparent, not significant",
        "significant, below min_gap",
        "",
    }
    with pytest.raises(ValueError, match="no exact MATCH law"):
        sg.match_table(counts, metrics=["MCC"])


@pytest.mark.parametrize(
    "metric,n", [("ACC", 30), ("TPR", 25), ("B", 20), ("MCC", 12), ("PPV", 40)]
)
def test_match_pvalues_equal_match_test(metric, n):
    rng = np.random.default_rng(5)
    p_ref = np.array([0.3, 0.1, 0.2, 0.4])
    draws = rng.multinomial(n, [0.25, 0.2, 0.15, 0.4], size=40)
    scores = compute(metric, draws)
    fast = sg.match_pvalues(metric, scores, p_ref, n)
    method = "exact" if "exact" in match.methods_for(metric) else "enumerate"
    for cm, score, value in zip(draws, scores, fast, strict=True):
        if np.isnan(score):
            assert np.isnan(value)
        else:
            assert value == pytest.approx(match.test(metric, cm, p_ref, method=method), abs=1e-9)


# --------------------------------------- Sec. 4.6: which COMPAS matrices the published ones are
def test_compas_definition_counts_by_hand(fake_compas):
    frame = fake_compas()
    general = sg.compas_definition_counts("general", frame=frame)
    assert general["African-American"].tolist() == [1, 0, 0, 1]
    assert general["Caucasian"].tolist() == [1, 1, 1, 0]
    assert general["all"].tolist() == [2, 1, 1, 2]
    violent = sg.compas_definition_counts("violent", frame=frame)
    # the Caucasian violent offence is > 730 days after screening: not a positive
    assert violent["Caucasian"].tolist() == [0, 0, 2, 1]
    assert violent["African-American"].tolist() == [1, 0, 0, 1]
    zafar = sg.compas_definition_counts("general_zafar", frame=frame)
    assert zafar["all"].sum() == 5
    population = sg.compas_definition_counts("violent_population", frame=frame)
    # the Caucasian general recidivist screened in Nov 2014 has < 730 days by 2016-04-01
    assert population["Caucasian"].sum() == 2
    with pytest.raises(ValueError, match="unknown definition"):
        sg.compas_definition_counts("sometimes", frame=frame)


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def test_cps_groups_and_experiment(toy_cps_run):
    groups, run = toy_cps_run()
    assert list(groups) == ["Adult: big", "Adult: small"]
    assert groups["Adult: small"][1].tolist() == [50.0, 10, 10, 130]
    assert set(run.setting_label) == {
        "raw",
        "ε = 1e-10",
        "ε = 1",
        "CPS λ = 5",
        "CPS λ = 10",
        "CPS λ = 20",
    }
    ref = run[(run.group == "Adult: small") & (run.metric == "PPR")]["reference"].iloc[0]
    assert ref == pytest.approx(60 / 200)
    # group i uses seed + i: the first group equals a direct smoothing_mse call
    direct = cps.smoothing_mse(
        np.array([50, 10, 10, 130]) / 200,
        [5, 1, 2, 12],
        [5, 15],
        ["TPR", "PPR"],
        n_draws=3000,
        seed=4,
        progress=False,
    )
    mine = run[run.group == "Adult: big"].reset_index(drop=True)
    assert np.allclose(mine["mse"], direct["mse"], equal_nan=True)


def test_cps_experiment_records_its_scale_and_cost(toy_cps_run):
    _, run = toy_cps_run()
    attrs = run.attrs
    assert attrs["seconds"] > 0
    assert (attrs["n_groups"], attrs["n_settings"], attrs["n_sizes"]) == (2, 6, 2)
    assert (attrs["n_draws"], attrs["n_metrics"], attrs["n_jobs"]) == (3000, 2, 1)
    # sizes given as a generator are used for every group, and counted
    groups = {"a": ([3.0, 1, 2, 4], [30.0, 10, 10, 50]), "b": ([1.0, 4, 4, 1], [3.0, 1, 1, 5])}
    again = sg.cps_experiment(
        groups, sizes=(n for n in (5, 7)), metrics=["ACC"], n_draws=200, lams=(5,), eps=(0,)
    )
    assert again.attrs["n_sizes"] == 2
    assert set(again.groupby("group")["n"].nunique()) == {2}


def test_a_recorded_unit_equals_its_size_in_one_run_over_all_sizes():
    config = {"seed": 3, **sg.settings("fast", cps_draws=2_000)}
    groups = sg.cps_recorded_groups(seed=3, n_estimators=config["n_estimators"], with_adult=False)
    whole = sg.cps_experiment(
        groups, sizes=[5, 8, 13], metrics=config["cps_metrics"], n_draws=2_000, seed=3
    )
    unit = sg.cps_recorded_unit("n008", config, with_adult=False)
    expected = whole[whole["n"] == 8].reset_index(drop=True)
    pd.testing.assert_frame_equal(unit.reset_index(drop=True), expected)
    assert sg.cps_recorded_units({"cps_sizes": (5, 149)}) == ["n005", "n149"]
