"""Tests of fairbook.forecasting.windows: the data contract, offsets and normalisation."""

import numpy as np
import pytest
import torch

from fairbook.forecasting.lorenz import PARAMETER_RANGES, make_partitions
from fairbook.forecasting.nvar import NVARForecaster
from fairbook.forecasting.windows import (
    Normaliser,
    Windows,
    build_windows,
    lorenz_pipeline,
    make_windows,
    warm_start_split,
)

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def small():
    parts = make_partitions(
        n_systems=2, n_initial=2, t_end=8.0, n_times=81, seed=0, partitions=("neural_train", "test")
    )
    norm = Normaliser.fit(parts["neural_train"].trajectories)
    model = NVARForecaster(n_delays=2, epochs=1, hidden=8, seed=0).fit(
        norm.transform(parts["neural_train"].trajectories)
    )
    return parts, norm, model


def test_contract_shapes_and_offsets(small):
    parts, norm, model = small
    part = parts["test"]
    w = build_windows(part, norm, model, stride=3)
    n = len(w)
    assert w.static.shape == (n, 3) and w.history.shape == (n, 16, 3)
    assert w.forecasts.shape == (n, 10, 16, 3) and w.target.shape == (n, 16)
    assert w.deterministic.shape == (n, 16)
    assert w.forecasts.dtype == np.float32
    states = norm.transform(part.trajectories)
    rolled = model.rolling(states)
    # t runs from max(15, lag + 9) = 15 to T − 17 = 64 in steps of 3, for each trajectory
    np.testing.assert_array_equal(np.unique(w.t), np.arange(15, 65, 3))
    assert n == 2 * 2 * len(np.arange(15, 65, 3))
    for j in range(0, n, 7):
        s, i, t = w.system[j], w.start[j], w.t[j]
        np.testing.assert_allclose(w.target[j], states[s, i, t + 1 : t + 17, 0], rtol=1e-6)
        np.testing.assert_allclose(w.history[j], states[s, i, t - 15 : t + 1], rtol=1e-6)
        for k in range(10):
            np.testing.assert_allclose(w.forecasts[j, k], rolled[s, i, t - k], rtol=1e-6)
        np.testing.assert_array_equal(w.deterministic[j], w.forecasts[j, 0, :, 0])
        np.testing.assert_allclose(w.static[j], norm.transform_static(part.params[s]), rtol=1e-6)


def test_target_is_the_raw_trajectory_after_inversion(small):
    parts, norm, model = small
    w = build_windows(parts["test"], norm, model, stride=5)
    raw = parts["test"].trajectories
    j = len(w) - 1
    s, i, t = w.system[j], w.start[j], w.t[j]
    np.testing.assert_allclose(
        norm.inverse_channel(w.target[j]), raw[s, i, t + 1 : t + 17, 0], atol=1e-4
    )


def test_make_windows_by_hand():
    s = np.arange(40.0).reshape(1, 1, 40, 1)
    rolled = s[..., None, :] + np.arange(1.0, 4.0)[:, None]
    rolled[:, :, :2] = np.nan  # lag 2
    w = make_windows(s, np.zeros((1, 1)), rolled, history=4, n_forecasts=3, burn_in=0)
    assert w.t[0] == 4  # lag + n_forecasts − 1
    assert w.t[-1] == 36  # T − H − 1
    np.testing.assert_array_equal(w.forecasts[0, :, :, 0], [[5, 6, 7], [4, 5, 6], [3, 4, 5]])
    w = make_windows(s, np.zeros((1, 1)), rolled, history=4, n_forecasts=3, burn_in=10, stride=4)
    np.testing.assert_array_equal(w.t, [10, 14, 18, 22, 26, 30, 34])


def test_normaliser_round_trip_and_bounds(small):
    parts, norm, _ = small
    tr = parts["neural_train"].trajectories
    z = norm.transform(tr)
    np.testing.assert_allclose(z.reshape(-1, 3).min(0), 0.0, atol=1e-12)
    np.testing.assert_allclose(z.reshape(-1, 3).max(0), 1.0, atol=1e-12)
    np.testing.assert_allclose(norm.inverse(z), tr, atol=1e-10)
    p = parts["test"].params
    sp = norm.transform_static(p)
    assert ((sp >= 0) & (sp <= 1)).all()
    np.testing.assert_allclose(norm.inverse_static(sp), p)
    np.testing.assert_allclose(norm.transform_static(PARAMETER_RANGES.T), [[0] * 3, [1] * 3])
    np.testing.assert_allclose(norm.inverse_channel(z[..., 1], 1), tr[..., 1], atol=1e-10)


def test_windows_subset_concat_torch(small):
    parts, norm, model = small
    w = build_windows(parts["test"], norm, model, stride=10)
    sub = w.subset([0, 2])
    assert len(sub) == 2 and sub.t.tolist() == [w.t[0], w.t[2]]
    both = Windows.concat([w, sub])
    assert len(both) == len(w) + 2
    t = sub.to_torch()
    assert set(t) == {"static", "history", "forecasts", "target", "deterministic"}
    assert t["forecasts"].dtype == torch.float32 and tuple(t["forecasts"].shape) == (2, 10, 16, 3)


def test_pipeline_seeded_and_normalised_on_neural_train():
    kw = dict(
        n_systems=1,
        n_initial=2,
        t_end=6.0,
        n_times=61,
        stride=6,
        seed=3,
        nvar={"epochs": 1, "hidden": 8},
    )
    a, b = lorenz_pipeline(**kw), lorenz_pipeline(**kw)
    for name, w in a["windows"].items():
        np.testing.assert_array_equal(w.forecasts, b["windows"][name].forecasts)
        np.testing.assert_array_equal(w.target, b["windows"][name].target)
    h = a["windows"]["neural_train"].history
    assert h.min() >= 0 and h.max() <= 1
    np.testing.assert_allclose(
        a["normaliser"].state_min,
        a["partitions"]["neural_train"].trajectories.reshape(-1, 3).min(0),
    )


def test_bad_input():
    with pytest.raises(ValueError, match="constant"):
        Normaliser.fit(np.ones((5, 3)))
    with pytest.raises(ValueError, match="NaN"):
        Normaliser.fit(np.full((5, 3), np.nan))
    n = Normaliser.fit(np.random.default_rng(0).random((5, 3)))
    with pytest.raises(ValueError, match="length 3"):
        n.transform(np.zeros((4, 2)))
    s = np.zeros((1, 1, 40, 1))
    r = np.zeros((1, 1, 40, 3, 1))
    with pytest.raises(ValueError, match="static"):
        make_windows(s, np.zeros((2, 1)), r)
    with pytest.raises(ValueError, match="rolled"):
        make_windows(s, np.zeros((1, 1)), r[..., :1, :, :])
    with pytest.raises(ValueError, match="no valid window"):
        make_windows(s[:, :, :18], np.zeros((1, 1)), r[:, :, :18])
    with pytest.raises(ValueError, match="stride"):
        make_windows(s, np.zeros((1, 1)), r, stride=0)
    with pytest.raises(ValueError, match="disagree"):
        Windows(*(np.zeros(2),) * 7, np.zeros(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float32_tensor_copies_read_only_arrays_without_a_warning(dtype):
    import warnings

    import torch

    from fairbook.forecasting.windows import float32_tensor

    array = np.arange(6, dtype=dtype).reshape(2, 3)
    array.flags.writeable = False
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # torch warns when it would share read-only memory
        tensor = float32_tensor(array)
    assert tensor.dtype == torch.float32 and tensor.shape == (2, 3)
    np.testing.assert_array_equal(tensor.numpy(), array.astype(np.float32))
    tensor[0, 0] = 99.0  # a copy: the read-only array is untouched
    assert array[0, 0] == 0
    writable = np.ones(3, dtype=np.float32)
    shared = float32_tensor(writable)
    shared[0] = 5.0  # writable float32 arrays are shared, as torch.as_tensor does
    assert writable[0] == 5.0
    grad = torch.ones(2, requires_grad=True)
    assert not float32_tensor(grad).requires_grad


def _windows(systems, starts, per=3):
    si = np.repeat(np.arange(systems), starts * per)
    ii = np.tile(np.repeat(np.arange(starts), per), systems)
    n = len(si)
    return Windows(
        np.zeros((n, 1)),
        np.zeros((n, 1, 1)),
        np.zeros((n, 1, 1, 1)),
        np.arange(n, dtype=float)[:, None],
        np.zeros((n, 1)),
        si,
        ii,
        np.arange(n),
    )


@pytest.mark.parametrize("fraction", [0.2, 0.5, 0.75])
def test_warm_start_split_partitions_by_trajectory_within_each_system(fraction):
    w = _windows(systems=3, starts=4)
    warm, rest = warm_start_split(w, fraction)
    assert len(warm) + len(rest) == len(w)
    assert sorted(np.concatenate([warm.t, rest.t]).tolist()) == w.t.tolist()  # disjoint, all
    k = int(round(fraction * 4))
    for s in range(3):  # the first k starts of every system warm the network up
        assert set(warm.start[warm.system == s]) == set(range(k))
        assert set(rest.start[rest.system == s]) == set(range(k, 4))
    no_warm, everything = warm_start_split(w, 0.0)
    assert len(no_warm) == 0 and len(everything) == len(w)


def test_warm_start_split_errors():
    w = _windows(systems=2, starts=2)
    for bad in (-0.1, 1.0, 1.5):
        with pytest.raises(ValueError, match="fraction"):
            warm_start_split(w, bad)
    with pytest.raises(ValueError, match="empty"):
        warm_start_split(w, 0.1)  # rounds to no start at all
