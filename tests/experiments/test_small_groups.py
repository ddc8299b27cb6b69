"""Tests of the small-groups chapter's computations (seed 003 ch. 4).

Oracles: the printed values of :mod:`fairbook.papers.seed003`, enumeration of M(n), closed
forms (binomial moments, the CPS mean squared error of linear metrics), the MATCH test of
:mod:`fairbook.stats.match` and Monte Carlo. No network; real data only if cached.
"""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from fairbook.experiments import small_groups as sg  # noqa: E402
from fairbook.metrics import compute  # noqa: E402
from fairbook.papers import seed003  # noqa: E402
from fairbook.stats import combinatorics, cps, match  # noqa: E402

P43 = match.FIG_4_3_P_REF


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --------------------------------------------------------------------------- settings
def test_settings_profiles_and_overrides():
    fast, full = sg.settings("fast"), sg.settings("full")
    assert fast["cps_draws"] <= 10_000 < full["cps_draws"] == seed003.CPS_PROTOCOL["n_draws"]
    assert list(full["cps_sizes"]) == list(range(5, 150))
    assert set(full["cps_metrics"]) == set(cps.PAPER_METRICS) and len(cps.PAPER_METRICS) == 15
    assert sg.settings("fast", cps_draws=None)["cps_draws"] == fast["cps_draws"]
    assert sg.settings("fast", cps_draws=7)["cps_draws"] == 7
    with pytest.raises(ValueError, match="profile"):
        sg.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        sg.settings("fast", draws=3)


def test_printed_constants_are_consistent():
    # Fig. 4.1's printed 0.23 is 1365/5956; the published COMPAS "all" matrix is n = 6454
    fig = seed003.FIG_4_1_PPR
    assert round(fig["predicted_positive"] / fig["n"], 2) == fig["printed"]
    assert sum(seed003.COMPAS_CPS_MATRICES["all"]) == 6454
    assert sum(seed003.PROPUBLICA_GENERAL_ALL) == 7214
    ex = seed003.EXAMPLE_4_5_1
    assert ex["k"] == round(ex["n"] * ex["s_obs"])


# --------------------------------------------------------------------------- Sec. 4.3
def test_space_table_and_printed_small_cases():
    table = sg.space_table(range(0, 9))
    assert table["C_agree"].all()
    assert (table["N_closed_form"] == table["N_enumerated"]).all()
    assert set(sg.space_replication().verdict) == {"matches"}


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
    ax = sg.plot_fig_4_1(table)
    assert ax.get_ylabel() == "PPR"
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
    axes = sg.plot_space_cdfs(cdfs)
    assert len(axes) == 4


def test_space_moments_and_fig_4_2_limits():
    moments = sg.space_moments(sg.space_cdfs(["ACC", "PPR", "MCC", "TPR"], [5, 40, 100]))
    assert np.allclose(moments.query("metric in ['ACC', 'PPR', 'TPR']")["mean"], 0.5)
    acc = moments[moments.metric == "ACC"].set_index("n")["sd"]
    # the spread falls towards Beta(2, 2)'s sqrt(1/20), not towards 0
    assert acc.is_monotonic_decreasing
    assert acc.loc[100] == pytest.approx(math.sqrt(1 / 20), abs=0.01)
    table = sg.fig_4_2_replication(moments)
    assert set(table.verdict) == {"matches"}
    assert len(table) == 4


# --------------------------------------------------------------------------- Sec. 4.4
def test_theorem_4_3_replication_verdicts():
    table = sg.theorem_4_3_replication([3, 10], [(1, 1), (2, 2)]).set_index("quantity")
    exact = table[~table.verdict.str.contains("bound")]
    te = exact.index.str.startswith("TE")
    assert (exact[~te].verdict == "matches").all()
    assert (exact[te].verdict == "differs").all()
    assert table.loc["TE holes, n1 = 1, n2 = 1", "ours"] == 15
    assert table.loc["TE holes, n1 = 1, n2 = 1", "paper"] == 5
    assert table.loc["PT holes, n = 10 (upper bound)", "verdict"] == "upper bound fails"
    assert table.loc["PT holes, n = 3 (upper bound)", "verdict"] == "upper bound holds"
    assert table.loc["PT holes, n = 10 (lower bound)", "verdict"] == "lower bound holds"


def test_pt_hole_table_closed_form_and_bounds():
    table = sg.pt_hole_table(30).set_index("n")
    assert (table["holes"] == table["closed_form"]).all()
    assert (table["holes"] >= table["mcc_holes"]).all()
    assert not table.loc[4:, "holds_upper"].any()  # fails for every n from 4 on
    assert table.loc[10, "holes"] == 48 and table.loc[10, "upper"] == pytest.approx(22.6, abs=0.05)
    assert table["share"].iloc[-1] < table["share"].iloc[2]  # Corollary 4.3.1
    assert sg.plot_pt_holes(table.reset_index()).get_xlabel() == "n"


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
    wide = sg.mcc_limit_table(paths)
    assert list(wide.columns) == ["t = 0.0001", "t = 1e-10", "limit"]
    with pytest.raises(ValueError):
        sg.mcc_limit_paths(1)


# --------------------------------------------------------------------------- Sec. 4.5
def test_worked_example_matches_the_paper():
    table = sg.worked_example()
    assert set(table.verdict) == {"matches"}
    assert table.loc[4, "ours"] == pytest.approx(stats.norm.cdf(5.5 / math.sqrt(18.75)))


def test_moments_table_against_closed_forms():
    table = sg.moments_table(sizes=[10, 80], n_draws=20_000, seed=1).set_index(["metric", "n"])
    p, q = 0.7, 0.3  # ACC ~ Binomial(n, .7) / n
    for n in (10, 80):
        assert table.loc[("ACC", n), "skewness"] == pytest.approx((q - p) / math.sqrt(n * p * q))
        assert table.loc[("ACC", n), "excess_kurtosis"] == pytest.approx(
            (1 - 6 * p * q) / (n * p * q))
    # B: summands +1 (.2), -1 (.1), 0 (.7): mean .1, variance .29
    mu, var = 0.1, 0.29
    third = 0.2 * 0.9 ** 3 + 0.1 * (-1.1) ** 3 + 0.7 * (-0.1) ** 3
    fourth = 0.2 * 0.9 ** 4 + 0.1 * 1.1 ** 4 + 0.7 * 0.1 ** 4
    assert table.loc[("B", 80), "mean"] == pytest.approx(mu)
    assert table.loc[("B", 80), "skewness"] == pytest.approx(third / var ** 1.5 / math.sqrt(80))
    assert table.loc[("B", 80), "excess_kurtosis"] == pytest.approx((fourth / var ** 2 - 3) / 80)
    # Monte Carlo agrees with the exact moments (standard error of skewness ~ sqrt(6/N))
    assert abs(table.loc[("ACC", 10), "mc_skewness"] - table.loc[("ACC", 10), "skewness"]) < 0.07
    claims = sg.fig_4_3_claims(sg.moments_table(sizes=range(2, 40), n_draws=0))
    shares = dict(zip(claims.quantity, claims.ours, strict=True))
    assert shares["ACC: kurtosis increases with n"] == 1.0
    assert shares["B: kurtosis increases with n"] == 0.0
    assert shares["B: |skewness| decreases with n"] == 1.0


def test_moment_and_pmf_plots():
    axes = sg.plot_moments(sg.moments_table(metrics=["B"], sizes=[5, 6], n_draws=50))
    assert len(axes) == 2
    assert sg.plot_pmfs("B", sizes=[5, 20]).get_title() == "B"


def test_approximation_errors_and_claims():
    errors = sg.approximation_errors(sizes=[5, 50, 200])
    table = errors.set_index(["metric", "method", "n"])["error"]
    for metric, method in (("ACC", "normal (Eq. 4.18)"), ("B", "normal (Thm 4.8, n restored)")):
        for n in (5, 50, 200):
            assert table[(metric, method, n)] <= table[(metric, "Berry–Esseen bound, C0 = 0.56",
                                                        n)]
    # Table 4.1's Peizer–Pratt for B is far off and gets worse; expected-count beta improves
    assert table[("B", "Peizer–Pratt (Table 4.1)", 200)] > table[("B", "Peizer–Pratt (Table 4.1)",
                                                                  5)] > 0.1
    assert table[("TPR", "beta, expected counts", 200)] < table[("TPR", "beta, expected counts",
                                                                 5)]
    assert table[("TPR", "beta, observed counts (Eq. 4.44)", 200)] > 0.3
    assert table[("B", "normal (Eq. 4.29 as printed)", 200)] > 0.5
    pp = sg.peizer_pratt_check(sizes=[10, 40], probs=[0.1, 0.5])
    assert (pp["error_in_range"] < seed003.PEIZER_PRATT_MAX_ERROR).all()
    assert (pp["error_all"] >= pp["error_in_range"]).all()
    claims = sg.approximation_claims(errors, pp).set_index("quantity")["verdict"]
    assert claims.iloc[0] == "upper bound holds"
    assert claims.str.contains("Table 4.1").sum() == 0  # verdicts are bound words
    assert (claims[claims.index.str.startswith("Peizer–Pratt for B")] == "upper bound fails").all()
    assert (claims[claims.index.str.contains("Berry")] == "upper bound holds").all()
    axes = sg.plot_approximation_errors(errors)
    assert [ax.get_title() for ax in axes] == ["ACC", "B", "TPR", "PPV"]
    with pytest.raises(ValueError, match="probs"):
        sg.peizer_pratt_check(sizes=[10], probs=[1.0])


def test_b_normal_as_printed_is_not_an_approximation():
    p = np.asarray(P43)
    assert sg._b_normal_as_printed_error(p, 100) > 0.5
    assert match.approximation_error("B", p, 100, method="normal") < 0.01


# --------------------------------------------------------------------------- MATCH tables
def toy_counts():
    return pd.DataFrame({"TP": [5, 400, 30], "FN": [5, 100, 10], "FP": [0, 100, 10],
                         "TN": [10, 400, 50]}, index=["small", "big", "mid"])


def test_match_table_against_match_test_and_holm():
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
    assert set(table.verdict) <= {"disparity survives", "apparent, not significant",
                                  "significant, below min_gap", ""}
    summary = sg.match_summary(table)
    assert summary.loc["small", "apparent"] == table[table.group == "small"].apparent.sum()
    with pytest.raises(ValueError, match="no exact MATCH law"):
        sg.match_table(counts, metrics=["MCC"])


def test_holm_by_hand():
    adjusted = sg._holm(np.array([0.01, 0.04, np.nan, 0.03]))
    assert np.allclose(adjusted[[0, 1, 3]], [0.03, 0.06, 0.06])
    assert np.isnan(adjusted[2])


@pytest.mark.parametrize("metric,n", [("ACC", 30), ("TPR", 25), ("B", 20), ("MCC", 12),
                                      ("PPV", 40)])
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
            assert value == pytest.approx(match.test(metric, cm, p_ref, method=method),
                                          abs=1e-9)


# --------------------------------------------------------------------------- COMPAS matrices
def fake_compas():
    """Six people covering every branch of the definitions."""
    return pd.DataFrame({
        "race": ["African-American", "African-American", "Caucasian", "Caucasian",
                 "Caucasian", "Hispanic"],
        "two_year_recid": [1, 0, 1, 0, 1, 0],
        "decile_score": [8, 2, 3, 6, 9, 1],
        "v_decile_score": [7, 1, 2, 5, 6, 1],
        "is_violent_recid": [1, 0, 1, 0, 0, 0],
        "compas_screening_date": ["2013-01-01", "2013-02-01", "2013-03-01", "2014-12-01",
                                  "2014-11-01", "2013-01-05"],
        "vr_offense_date": ["2013-06-01", None, "2016-01-01", None, None, None],
        # zafar2017 columns: the last person is filtered out
        "days_b_screening_arrest": [0, 1, -1, 0, 2, 45],
        "is_recid": [1, 0, 1, 0, 1, 0],
        "c_charge_degree": ["F", "M", "F", "F", "M", "F"],
        "score_text": ["High", "Low", "Low", "Medium", "High", "Low"],
    })


def test_compas_definition_counts_by_hand():
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


def test_published_matrices_have_propublicas_violent_rates():
    for group, rates in seed003.PROPUBLICA_VIOLENT_RATES.items():
        cm = seed003.COMPAS_CPS_MATRICES[group]
        for name, value in rates.items():
            assert round(100 * compute(name, cm), 2) == value
    table = sg.compas_definition_table(frame=fake_compas())
    assert table.loc[("published", "all"), "n"] == 6454
    assert table.loc[("published", "all"), "tv_distance"] == 0


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_real_compas_general_table_is_propublicas():
    table = sg.propublica_rates_replication()
    assert set(table.verdict) == {"matches"}
    defs = sg.compas_definition_table()
    tv = defs.xs("all", level="group")["tv_distance"]
    assert tv["violent_population"] < tv["violent"] < tv["general"]


# --------------------------------------------------------------------------- CPS
def test_cps_linear_mse_matches_the_protocol():
    p_group = np.array([0.3, 0.1, 0.2, 0.4])
    ref = np.array([40.0, 10.0, 40.0, 10.0])  # PPR .8 vs the group's .5
    run = cps.smoothing_mse(p_group, ref, [10, 40], ["PPR", "B"], n_draws=40_000,
                            lams=(5, 20), eps=(0,), seed=2, progress=False)
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
    assert first == math.floor(1 / (gap ** 2 / v - 0.1)) + 1
    lose = sg.cps_linear_mse(0.5, 0.8, v, first, 20) > v / first
    keep = sg.cps_linear_mse(0.5, 0.8, v, first - 1, 20) <= v / (first - 1)
    assert lose and keep
    with pytest.raises(ValueError, match="not linear"):
        sg.cps_break_even(groups, metrics=["TPR"])


def test_cps_groups_and_experiment():
    adult = pd.DataFrame({"TP": [50.0, 5], "FN": [10, 1], "FP": [10, 2], "TN": [130, 12]},
                         index=["big", "small"])
    groups = sg.cps_groups(adult_counts=adult, compas_definition=None)
    assert list(groups) == ["Adult: big", "Adult: small"]
    assert groups["Adult: small"][1].tolist() == [50.0, 10, 10, 130]
    run = sg.cps_experiment(groups, sizes=[5, 15], metrics=["TPR", "PPR"], n_draws=3000,
                            seed=4)
    assert set(run.setting_label) == {"raw", "ε = 1e-10", "ε = 1", "CPS λ = 5", "CPS λ = 10",
                                      "CPS λ = 20"}
    ref = run[(run.group == "Adult: small") & (run.metric == "PPR")]["reference"].iloc[0]
    assert ref == pytest.approx(60 / 200)
    # group i uses seed + i: the first group equals a direct smoothing_mse call
    direct = cps.smoothing_mse(np.array([50, 10, 10, 130]) / 200, [5, 1, 2, 12], [5, 15],
                               ["TPR", "PPR"], n_draws=3000, seed=4, progress=False)
    mine = run[run.group == "Adult: big"].reset_index(drop=True)
    assert np.allclose(mine["mse"], direct["mse"], equal_nan=True)

    claims = sg.cps_claims(run)
    assert claims.quantity.iloc[0] == "CPS λ = 5 below raw (all metrics)"
    assert claims["ours"].between(0, 1).all()
    shares = sg.cps_claim_shares(run)
    assert (shares["point"] >= shares["significant"]).all()
    summary = sg.cps_summary(run, group="Adult: small")
    assert (summary["raw"] == 1.0).all()
    assert list(summary.index) == ["TPR", "PPR"]
    axes = sg.plot_mse(run, group="Adult: small", metrics=["TPR", "PPR"],
                       settings_shown=["raw", "CPS λ = 5"])
    assert [ax.get_title() for ax in axes] == ["TPR", "PPR"]
    with pytest.raises(ValueError, match="no rows"):
        sg.cps_summary(run, group="nobody")


def test_cps_losses_when_the_reference_is_far():
    groups = {"far": (np.array([9.0, 1, 1, 9]), np.array([1.0, 9, 9, 1]))}
    run = sg.cps_experiment(groups, sizes=[60, 100], metrics=["ACC", "PREV"], n_draws=4000,
                            lams=(5, 20), eps=(0,))
    losses = sg.cps_losses(run)
    acc = losses[(losses.metric == "ACC") & (losses.setting == "CPS λ = 20")]
    assert acc.sizes_lost.iloc[0] == 2 and acc.first_n.iloc[0] == 60
    assert acc.reference.iloc[0] == pytest.approx(0.1) and acc.target.iloc[0] == 0.9
    # PREV is the same for group and reference: CPS never loses there
    assert "PREV" not in set(losses.metric)


def test_chapter_verdicts_collects_failures():
    thm = sg.theorem_4_3_replication([10], [(1, 1)])
    verdicts = sg.chapter_verdicts({"Thm 4.3": thm, "ex": sg.worked_example()})
    assert set(verdicts.section) == {"Thm 4.3"}
    assert set(verdicts.verdict) == {"differs", "upper bound fails"}
    assert verdicts.attrs["counts"].loc["ex", "matches"] == 5
    with pytest.raises(ValueError):
        sg.chapter_verdicts({})


def test_full_profile_cost_scales_the_benchmark(tmp_path):
    folder = tmp_path / "benchmarks" / "results"
    folder.mkdir(parents=True)
    (folder / "bench_cps.json").write_text(
        '{"results": [{"config": "six", "lams": [5, 10, 20], "eps": [0, 1e-10, 1], '
        '"n_jobs": 1, "seconds_full_scale": 300.0, "extrapolated": true}, '
        '{"config": "six", "lams": [5], "eps": [], "n_jobs": 2, "seconds_full_scale": 1.0}]}')
    table = sg.full_profile_cost(4, root=tmp_path)
    assert len(table) == 1  # the n_jobs = 2 row is skipped
    assert table.seconds_per_group.iloc[0] == pytest.approx(300.0)
    assert table.minutes_total.iloc[0] == pytest.approx(20.0)


# --------------------------------------------------------------------------- widgets
def test_sampling_distribution_and_summary():
    group, ref = [30, 10, 20, 40], [300, 100, 100, 500]
    frame = sg.sampling_distribution(group, ref, "TPR", 8, eps=1e-10, lam=5, n_draws=3000)
    assert frame.attrs["target"] == pytest.approx(0.75)
    assert frame.attrs["reference"] == pytest.approx(0.75)
    raw_undefined = frame["raw"].isna().mean()
    assert raw_undefined == pytest.approx(0.6 ** 8, abs=0.01)  # P(TP + FN = 0)
    assert frame["cps"].notna().all() and frame["additive"].notna().all()
    summary = sg.sampling_summary(frame, group, ref)
    assert summary["undefined_cps"] == 0
    assert summary["mse_cps"] < summary["mse_raw"]
    assert summary["match_p_full_group"] == pytest.approx(
        match.test("TPR", group, np.array(ref) / 1000))
    assert 0 <= summary["match_power_at_n"] <= 1


def test_widgets_recompute():
    explorer = sg.space_explorer(metric="TPR", n=4, n_max=10)
    menu, slider = explorer.children[0].children
    before = explorer.children[1].value
    assert "holes of TPR" in before
    slider.value = 6
    assert explorer.children[1].value != before
    menu.value = "MCC"
    assert "holes of MCC" in explorer.children[1].value

    groups = {"a": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50])),
              "b": (np.array([1.0, 4, 4, 1]), np.array([30.0, 10, 10, 50]))}
    widget = sg.smoothing_explorer(groups, metric="ACC", n_draws=300)
    output = widget.children[1]
    first = output.value
    assert "MATCH p-value" in first and "<img" in first
    controls = widget.children[0]
    controls.children[0].children[1].value = "b"  # group
    assert output.value != first
    controls.children[1].children[2].value = 20.0  # λ
    assert "CPS λ = 20" in output.value
    with pytest.raises(ValueError, match="unknown group"):
        sg.smoothing_explorer(groups, group="zzz")
    with pytest.raises(ValueError, match="empty"):
        sg.smoothing_explorer({})


def test_monte_carlo_pvalue_agrees_with_the_exact_test():
    p_ref = np.array([0.3, 0.1, 0.2, 0.4])
    for metric, cm in (("ACC", [20, 10, 10, 20]), ("TPR", [10, 10, 5, 25]),
                       ("MCC", [12, 3, 5, 10])):
        method = "exact" if "exact" in match.methods_for(metric) else "enumerate"
        exact = match.test(metric, cm, p_ref, method=method)
        assert sg.monte_carlo_pvalue(metric, cm, p_ref, n_draws=40_000) == pytest.approx(
            exact, abs=0.02)
    assert np.isnan(sg.monte_carlo_pvalue("TPR", [0, 0, 5, 5], p_ref))
    frame = sg.sampling_distribution([300, 50, 60, 400], [300, 100, 100, 500], "MCC", 10,
                                     n_draws=200)
    summary = sg.sampling_summary(frame, [300, 50, 60, 400], [300, 100, 100, 500])
    assert 0 <= summary["match_p_full_group"] <= 1  # n = 810 > 200: Monte Carlo


def test_docstring_examples_run():
    import doctest

    result = doctest.testmod(sg, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_bad_count_frames_raise():
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


def test_cps_group_table():
    groups = sg.cps_groups(adult_counts=toy_counts(), compas_definition=None)
    table = sg.cps_group_table(groups)
    assert list(table.columns) == ["TP", "FN", "FP", "TN", "n", "reference n"]
    assert (table["n"] + table["reference n"] == toy_counts().to_numpy().sum()).all()
