"""Tests of :mod:`fairbook.experiments.small_groups.cps_protocol` (Sec. 4.6, the
Cross-Prior Smoothing protocol).

Oracles: the closed-form CPS mean squared error of linear metrics, direct calls of
:func:`fairbook.stats.cps.smoothing_mse`, and a benchmark file written by hand.
"""

import math

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import small_groups as sg
from fairbook.stats import cps


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


def test_cps_groups_and_experiment():
    adult = pd.DataFrame(
        {"TP": [50.0, 5], "FN": [10, 1], "FP": [10, 2], "TN": [130, 12]}, index=["big", "small"]
    )
    groups = sg.cps_groups(adult_counts=adult, compas_definition=None)
    assert list(groups) == ["Adult: big", "Adult: small"]
    assert groups["Adult: small"][1].tolist() == [50.0, 10, 10, 130]
    run = sg.cps_experiment(groups, sizes=[5, 15], metrics=["TPR", "PPR"], n_draws=3000, seed=4)
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

    claims = sg.cps_claims(run)
    assert claims.quantity.iloc[0] == "CPS λ = 5 below raw (all metrics)"
    assert claims["ours"].between(0, 1).all()
    shares = sg.cps_claim_shares(run)
    assert (shares["point"] >= shares["significant"]).all()
    summary = sg.cps_summary(run, group="Adult: small")
    assert (summary["raw"] == 1.0).all()
    assert list(summary.index) == ["TPR", "PPR"]
    axes = sg.plot_mse(
        run, group="Adult: small", metrics=["TPR", "PPR"], settings_shown=["raw", "CPS λ = 5"]
    )
    assert [ax.get_title() for ax in axes] == ["TPR", "PPR"]
    with pytest.raises(ValueError, match="no rows"):
        sg.cps_summary(run, group="nobody")


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


def test_full_profile_cost_scales_the_benchmark(tmp_path):
    folder = tmp_path / "benchmarks" / "results"
    folder.mkdir(parents=True)
    (folder / "bench_cps.json").write_text(
        '{"results": [{"config": "six", "lams": [5, 10, 20], "eps": [0, 1e-10, 1], '
        '"n_jobs": 1, "seconds_full_scale": 300.0, "extrapolated": true}, '
        '{"config": "six", "lams": [5], "eps": [], "n_jobs": 2, "seconds_full_scale": 1.0}]}'
    )
    table = sg.full_profile_cost(4, root=tmp_path)
    assert len(table) == 1  # the n_jobs = 2 row is skipped
    assert table.seconds_per_group.iloc[0] == pytest.approx(300.0)
    assert table.minutes_total.iloc[0] == pytest.approx(20.0)


def test_cps_group_table(toy_counts):
    groups = sg.cps_groups(adult_counts=toy_counts(), compas_definition=None)
    table = sg.cps_group_table(groups)
    assert list(table.columns) == ["TP", "FN", "FP", "TN", "n", "reference n"]
    assert (table["n"] + table["reference n"] == toy_counts().to_numpy().sum()).all()
