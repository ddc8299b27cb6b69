"""The FIT-run harness: table shape, summaries, backends (loky, a Dask LocalCluster)."""

import numpy as np
import pandas as pd
import pytest

from fairbook.metrics import BIAS_REPORT_METRICS, bias_report
from fairbook.variance import fit_runs, fit_runs_many, identical_runs, per_run, summarize
from fairbook.variance.determinism import Knobs
from fairbook.variance.fit_runs import score_predictions
from fairbook.variance.tasks import RunSpec

Y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
G = np.array(["a"] * 6 + ["b"] * 6)


def noisy(*, seed, run, knobs):
    """Predictions that depend on the run (a stand-in for nondeterministic training)."""
    rng = np.random.default_rng(run)
    pred = np.where(rng.random(Y.size) < 0.3, (Y + 1) % 3, Y)
    return {"y_true": Y, "y_pred": pred, "groups": G, "weights_hash": f"w{run}"}


def fixed(*, seed, run, knobs):
    rng = np.random.default_rng(seed)
    return {"y_true": Y, "y_pred": rng.integers(0, 3, Y.size), "groups": G}


def test_table_matches_bias_report_for_each_run():
    table = fit_runs(noisy, n_runs=3, backend="sequential", tags={"technique": "x"})
    assert {"run", "seed", "class", "group", "metric", "value", "technique"} <= set(table)
    for run in range(3):
        out = noisy(seed=0, run=run, knobs=None)
        report = bias_report(out["y_true"], out["y_pred"], out["groups"])
        ours = per_run(table)
        for metric in BIAS_REPORT_METRICS:
            assert ours.loc[run, metric] == pytest.approx(
                report.loc["overall", metric], nan_ok=True
            )
        assert ours.loc[run, "accuracy"] == pytest.approx((out["y_pred"] == Y).mean())
    assert not identical_runs(table)
    assert not identical_runs(table, on="weights_hash")


def test_summarize_is_range_and_population_std():
    table = fit_runs(noisy, n_runs=5, backend="sequential")
    wide = per_run(table)
    summary = summarize(table)
    for metric in ("DP", "accuracy"):
        values = wide[metric].to_numpy()
        assert summary.loc[metric, "overall MaxDiff"] == pytest.approx(100 * np.ptp(values))
        assert summary.loc[metric, "overall STDEV"] == pytest.approx(100 * np.std(values))
    per_class = {c: np.ptp(per_run(table, cls=c)["DP"]) for c in ("0", "1", "2")}
    worst = max(per_class, key=per_class.get)
    assert summary.loc["DP", "worst class"] == worst
    assert summary.loc["DP", "per-class MaxDiff"] == pytest.approx(100 * per_class[worst])
    assert summary.loc["DP", "runs"] == 5


def test_fixed_seed_vs_varying_seed():
    same = fit_runs(fixed, n_runs=3, backend="sequential")
    assert identical_runs(same)
    assert set(same["seed"]) == {0}
    varied = fit_runs(fixed, n_runs=3, seed=10, vary="seed", backend="sequential")
    assert set(varied["seed"]) == {10, 11, 12}
    assert not identical_runs(varied)


def test_per_run_knobs_and_many_experiments():
    knobs = [Knobs(), Knobs(threads=2)]
    table = fit_runs_many(
        [({"e": 1}, noisy), ({"e": 2}, fixed)], n_runs=2, backend="sequential", knobs=knobs
    )
    assert set(table["knobs"]) == {"reference", "threads=2"}
    assert identical_runs(table, by=["e"]).to_dict() == {1: False, 2: True}


@pytest.mark.parametrize(
    "kwargs", [{"n_runs": 0}, {"vary": "data"}, {"knobs": [Knobs()]}, {"knobs": "fast"}]
)
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        fit_runs(noisy, backend="sequential", **{"n_runs": 2, **kwargs})


def test_bad_train_output():
    with pytest.raises(ValueError, match="y_true"):
        fit_runs(lambda **_: {"y_pred": Y}, n_runs=1, backend="sequential")
    with pytest.raises(ValueError):
        score_predictions(Y, Y[:-1], G)


@pytest.mark.heavy
def test_loky_processes_give_the_sequential_numbers():
    spec = RunSpec("digits_s", "base", epochs=1)
    knobs = Knobs(sum_order="permuted")
    local = fit_runs(spec, n_runs=2, backend="loky", n_jobs=2, knobs=knobs)
    here = fit_runs(spec, n_runs=2, backend="sequential", knobs=knobs)
    pd.testing.assert_frame_equal(local, here)


def test_dask_local_cluster_gives_the_sequential_numbers():
    distributed = pytest.importorskip("dask.distributed")
    spec = RunSpec("digits_s", "base", epochs=1)
    knobs = Knobs(sum_order="permuted")
    here = fit_runs(spec, n_runs=3, backend="sequential", knobs=knobs)
    with (
        distributed.LocalCluster(
            n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        remote = fit_runs(spec, n_runs=3, backend="dask", knobs=knobs)
    pd.testing.assert_frame_equal(remote, here)
    assert not identical_runs(remote, on="weights_hash")


@pytest.mark.parametrize("vary", [None, "seed"])
def test_one_run_alone_is_that_run_of_fit_runs(vary):
    """Oracle: fit_runs over all runs. Run r computed alone (a recorded unit) gives the same
    rows, seed (seed + r when the seed varies) and knobs included."""
    from fairbook.variance.fit_runs import fit_run

    knobs = Knobs(sum_order="permuted")
    every = fit_runs(
        noisy, n_runs=3, seed=5, backend="sequential", knobs=knobs, vary=vary, tags={"t": "x"}
    )
    for r in range(3):
        alone = fit_run(noisy, run=r, seed=5, knobs=knobs, vary=vary, tags={"t": "x"})
        expected = every[every["run"] == r].reset_index(drop=True)
        pd.testing.assert_frame_equal(alone, expected, check_exact=True)
        assert set(alone["seed"]) == {5 + r if vary == "seed" else 5}
    for bad in ({"run": -1}, {"run": 1.0}, {"vary": "run"}, {"knobs": "fixed"}):
        with pytest.raises(ValueError):
            fit_run(noisy, **bad)
