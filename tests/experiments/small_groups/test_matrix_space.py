"""Tests of :mod:`fairbook.experiments.small_groups.matrix_space` (Sec. 4.3, the space of
confusion matrices).

Oracles: the printed values of :mod:`fairbook.papers.seed003`, enumeration of M(n), the
binomial law and Monte Carlo.
"""

import math

import numpy as np
import pytest
from scipy import stats

from fairbook.experiments import small_groups as sg
from fairbook.stats import combinatorics


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
