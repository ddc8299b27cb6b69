"""Tests of fairbook.forecasting.lorenz: reference integration, fixed points, the partition."""

import numpy as np
import pytest

from fairbook.forecasting.lorenz import (
    INITIAL_RANGES,
    PARAMETER_RANGES,
    PARTITIONS,
    equilibria,
    lorenz_rhs,
    make_partitions,
    sample_initial_conditions,
    sample_systems,
    simulate,
    simulate_rk4,
)
from fairbook.papers.seed003 import LORENZ_PROTOCOL


def _rk4(params, x0, t_end, n_steps):
    """Classical fixed-step RK4, the independent reference."""
    h = t_end / n_steps
    s = np.asarray(x0, dtype=float)
    out = [s]
    for _ in range(n_steps):
        k1 = lorenz_rhs(0, s, *params)
        k2 = lorenz_rhs(0, s + h / 2 * k1, *params)
        k3 = lorenz_rhs(0, s + h / 2 * k2, *params)
        k4 = lorenz_rhs(0, s + h * k3, *params)
        s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(s)
    return np.array(out)


@pytest.mark.parametrize(
    "params, x0",
    [((10.0, 28.0, 8 / 3), (1.0, 1.0, 1.0)), ((8.3, 27.95, 2.66), (-15.0, 12.0, 35.0))],
)
def test_matches_fixed_step_rk4(params, x0):
    ref = _rk4(params, x0, 2.0, 20_000)[::1000]  # h = 1e-4, sampled every 0.1
    got = simulate(*params, x0, t_end=2.0, n_times=21)
    np.testing.assert_allclose(got, ref, atol=1e-6, rtol=0)


def test_rk4_reference_is_converged():
    a = _rk4((10.0, 28.0, 8 / 3), (1.0, 1.0, 1.0), 2.0, 20_000)[-1]
    b = _rk4((10.0, 28.0, 8 / 3), (1.0, 1.0, 1.0), 2.0, 10_000)[-1]
    assert np.abs(a - b).max() < 1e-8


def test_equilibria_are_fixed():
    params = (11.0, 28.05, 2.65)
    eq = equilibria(*params)
    assert np.abs(lorenz_rhs(0, eq, *params)).max() < 1e-12
    for point in eq:
        traj = simulate(*params, point, t_end=1.0, n_times=11)
        np.testing.assert_allclose(traj, np.broadcast_to(point, traj.shape), atol=1e-7)
    np.testing.assert_array_equal(simulate(*params, [0, 0, 0], t_end=5.0, n_times=6), 0.0)


def test_equilibria_values_and_error():
    np.testing.assert_allclose(
        equilibria(10.0, 28.0, 8 / 3)[2], [-np.sqrt(72.0), -np.sqrt(72.0), 27.0]
    )
    with pytest.raises(ValueError, match="rho > 1"):
        equilibria(10.0, 0.5, 8 / 3)


def test_shape_times_and_start():
    traj = simulate(10.0, 28.0, 8 / 3, [3.0, -2.0, 10.0], t_end=10.0, n_times=101)
    assert traj.shape == (101, 3)
    np.testing.assert_array_equal(traj[0], [3.0, -2.0, 10.0])
    # bounded on the attractor
    assert np.abs(traj).max() < 60


def test_ranges_match_the_protocol_and_are_respected():
    np.testing.assert_allclose(
        PARAMETER_RANGES, [LORENZ_PROTOCOL[k] for k in ("sigma", "rho", "beta")]
    )
    p = sample_systems(2000, seed=4)
    lo, hi = PARAMETER_RANGES[:, 0], PARAMETER_RANGES[:, 1]
    assert ((p >= lo) & (p <= hi)).all()
    # the draws fill the range (uniform): min and max within 1 % of the bounds
    assert (np.abs(p.min(0) - lo) < 0.01 * (hi - lo)).all()
    assert (np.abs(p.max(0) - hi) < 0.01 * (hi - lo)).all()
    ic = sample_initial_conditions(2000, seed=5)
    assert ((ic >= INITIAL_RANGES[:, 0]) & (ic <= INITIAL_RANGES[:, 1])).all()
    np.testing.assert_allclose(ic.mean(0), [0.0, 0.0, 20.0], atol=1.5)


def test_partitions_disjoint_seeded_and_independent_of_the_others():
    kw = dict(n_systems=2, n_initial=2, t_end=1.0, n_times=11)
    a = make_partitions(seed=7, **kw)
    b = make_partitions(seed=7, **kw)
    c = make_partitions(seed=8, **kw)
    only = make_partitions(seed=7, partitions=("genetic_val",), **kw)
    assert tuple(a) == PARTITIONS
    for name in PARTITIONS:
        np.testing.assert_array_equal(a[name].trajectories, b[name].trajectories)
        assert not np.allclose(a[name].params, c[name].params)
        assert a[name].trajectories.shape == (2, 2, 11, 3)
        np.testing.assert_array_equal(a[name].trajectories[:, :, 0], a[name].initial)
    np.testing.assert_array_equal(only["genetic_val"].trajectories, a["genetic_val"].trajectories)
    params = np.concatenate([a[n].params for n in PARTITIONS])
    assert len(np.unique(params, axis=0)) == len(params)
    ics = np.concatenate([a[n].initial.reshape(-1, 3) for n in PARTITIONS])
    assert len(np.unique(ics, axis=0)) == len(ics)


def test_shared_systems():
    p = make_partitions(n_systems=2, n_initial=1, t_end=1.0, n_times=3, share_systems=True, seed=1)
    for name in PARTITIONS[1:]:
        np.testing.assert_array_equal(p[name].params, p["neural_train"].params)
        assert not np.allclose(p[name].initial, p["neural_train"].initial)


def test_parallel_equals_serial():
    kw = dict(n_systems=1, n_initial=2, t_end=1.0, n_times=11, seed=2, partitions=("test",))
    np.testing.assert_array_equal(
        make_partitions(n_jobs=2, **kw)["test"].trajectories,
        make_partitions(n_jobs=1, **kw)["test"].trajectories,
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(x0=[1.0, 2.0]), "x0"),
        (dict(x0=[np.nan, 0.0, 0.0]), "finite"),
        (dict(t_end=0.0), "t_end"),
        (dict(n_times=1), "n_times"),
        (dict(rtol=0.0), "rtol"),
    ],
)
def test_simulate_bad_input(kwargs, match):
    args = {"x0": [1.0, 1.0, 1.0], **kwargs}
    x0 = args.pop("x0")
    with pytest.raises(ValueError, match=match):
        simulate(10.0, 28.0, 8 / 3, x0, **args)


def test_partition_bad_input():
    with pytest.raises(ValueError, match="partitions"):
        make_partitions(n_systems=1, n_initial=1, partitions=("train",))
    with pytest.raises(ValueError, match="n_systems"):
        make_partitions(n_systems=0, n_initial=1)
    with pytest.raises(ValueError, match="n_initial"):
        make_partitions(n_systems=1, n_initial=1.5)


def test_batched_rk4_matches_a_tight_dop853_and_ignores_the_batch():
    p = sample_systems(6, seed=0)
    x0 = sample_initial_conditions(6, seed=1)
    ref = np.stack(
        [simulate(*p[i], x0[i], t_end=2.0, n_times=21, rtol=1e-13, atol=1e-13) for i in range(6)]
    )
    got = simulate_rk4(p, x0, t_end=2.0, n_times=21)
    np.testing.assert_allclose(got, ref, atol=1e-5, rtol=0)
    coarse = simulate_rk4(p, x0, t_end=2.0, n_times=21, substeps=20)
    # fourth order: 5x fewer steps, ~5^4 = 625x the error
    assert np.abs(coarse - ref).max() > 50 * np.abs(got - ref).max()
    np.testing.assert_array_equal(simulate_rk4(p[2:3], x0[2:3], t_end=2.0, n_times=21)[0], got[2])


def test_partitions_with_rk4_track_dop853():
    kw = dict(n_systems=2, n_initial=2, t_end=2.0, n_times=21, seed=5, partitions=("test",))
    a = make_partitions(integrator="rk4", **kw)["test"]
    b = make_partitions(**kw)["test"]
    np.testing.assert_array_equal(a.params, b.params)
    np.testing.assert_allclose(a.trajectories, b.trajectories, atol=1e-5)


def test_rk4_bad_input():
    with pytest.raises(ValueError, match="shaped"):
        simulate_rk4(np.ones((2, 3)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="substeps"):
        simulate_rk4(np.ones((1, 3)), np.ones((1, 3)), substeps=0)
    with pytest.raises(ValueError, match="finite"):
        simulate_rk4(np.full((1, 3), np.inf), np.ones((1, 3)))
