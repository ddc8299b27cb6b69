"""Tests of :mod:`fairbook.experiments.small_groups.match_approximations` (Sec. 4.5, the
law of a metric under MATCH and its approximations).

Oracles: the printed values of :mod:`fairbook.papers.seed003`, closed forms (binomial
moments), the exact laws of :mod:`fairbook.stats.match` and Monte Carlo.
"""

import math

import numpy as np
import pytest
from scipy import stats

from fairbook.experiments import small_groups as sg
from fairbook.experiments.small_groups.match_approximations import _b_normal_as_printed_error
from fairbook.papers import seed003
from fairbook.stats import match

P43 = match.FIG_4_3_P_REF


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
    assert _b_normal_as_printed_error(p, 100) > 0.5
    assert match.approximation_error("B", p, 100, method="normal") < 0.01
