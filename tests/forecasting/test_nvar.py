"""Tests of fairbook.forecasting.nvar: features by hand, exactly representable maps, rolling."""

import numpy as np
import pytest
import torch

from fairbook.forecasting.nvar import (
    NVARForecaster,
    delay_embedding,
    n_features,
    nvar_features,
    parallel_forecasts,
)

torch.set_num_threads(1)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_feature_count(k):
    d = 3 * k
    phi = nvar_features(np.random.default_rng(0).random((10, 3)), n_delays=k)
    assert phi.shape == (10, 1 + d + d * (d + 1) // 2) == (10, n_features(3, k))
    assert n_features(3, k, constant=False) == d + d * (d + 1) // 2


def test_features_by_hand():
    s = np.array([[1.0, 2.0], [3.0, 5.0], [7.0, 11.0]])
    phi = nvar_features(s, n_delays=2)
    # t = 2: O_lin = (s_2, s_1) = (7, 11, 3, 5)
    a, b, c, d = 7.0, 11.0, 3.0, 5.0
    want = [1, a, b, c, d, a * a, a * b, a * c, a * d, b * b, b * c, b * d, c * c, c * d, d * d]
    np.testing.assert_array_equal(phi[2], want)
    assert np.isnan(phi[0]).all()
    assert np.isfinite(phi[1]).all()


def test_delay_embedding_skip():
    s = np.arange(6.0)[:, None]
    e = delay_embedding(s, 3, skip=2)
    np.testing.assert_array_equal(e[5], [5.0, 3.0, 1.0])
    assert np.isnan(e[3, 2]) and not np.isnan(e[4]).any()


def _linear_orbits(n=4, t=60, seed=0):
    rng = np.random.default_rng(seed)
    theta = 0.3
    a = 0.97 * np.array(
        [[np.cos(theta), -np.sin(theta), 0.0], [np.sin(theta), np.cos(theta), 0.0], [0.0, 0.0, 0.5]]
    )
    s = np.empty((n, t, 3))
    s[:, 0] = rng.normal(size=(n, 3))
    for i in range(t - 1):
        s[:, i + 1] = s[:, i] @ a.T
    return s, a


def test_linear_map_recovered_at_every_lead():
    s, a = _linear_orbits()
    model = NVARForecaster(n_delays=1, horizon=16, epochs=0, ridge=1e-12).fit(s[:3])
    pred = model.predict(s[3, :20])
    want = np.stack([np.linalg.matrix_power(a, h) @ s[3, 19] for h in range(1, 17)])
    np.testing.assert_allclose(pred, want, atol=1e-7)


def test_henon_map_recovered():
    # x' = 1 − a x² + y, y' = b x: quadratic in the state, so exactly NVAR with k = 1
    a, b = 1.4, 0.3
    s = np.empty((3, 300, 2))
    s[:, 0] = [[0.1, 0.1], [0.0, 0.2], [-0.1, 0.0]]
    for t in range(299):
        x, y = s[:, t, 0], s[:, t, 1]
        s[:, t + 1] = np.stack([1 - a * x**2 + y, b * x], axis=-1)
    model = NVARForecaster(n_delays=1, horizon=1, epochs=0, ridge=1e-14).fit(s[:2, 50:])
    rolled = model.rolling(s[2])
    np.testing.assert_allclose(rolled[:-1, 0], s[2, 1:], atol=1e-8)


def test_mlp_improves_a_non_quadratic_map():
    # two steps of the logistic map are quartic: the quadratic NVAR alone cannot fit them
    s = np.empty((4, 400, 1))
    s[:, 0, 0] = [0.11, 0.23, 0.37, 0.52]
    for t in range(399):
        s[:, t + 1] = 3.9 * s[:, t] * (1 - s[:, t])

    def err(model):
        r = model.rolling(s[3])
        return np.abs(r[:-2, 1, 0] - s[3, 2:, 0]).mean()

    ridge = NVARForecaster(n_delays=1, horizon=2, epochs=0).fit(s[:3])
    mlp = NVARForecaster(n_delays=1, horizon=2, epochs=40, hidden=32, seed=0).fit(s[:3])
    assert mlp.history_[-1] < 0.5 * mlp.history_[0]
    assert err(mlp) < 0.5 * err(ridge)


def test_shapes_nan_prefix_and_predict_matches_rolling():
    s, _ = _linear_orbits(n=6, t=40)
    s = s.reshape(2, 3, 40, 3)
    model = NVARForecaster(n_delays=3, skip=2, horizon=5, epochs=1, hidden=8).fit(s)
    assert model.lag == 4
    r = model.rolling(s)
    assert r.shape == (2, 3, 40, 5, 3)
    assert np.isnan(r[:, :, :4]).all() and np.isfinite(r[:, :, 4:]).all()
    np.testing.assert_allclose(model.predict(s[:, :, :21]), r[:, :, 20], atol=1e-12)


def test_same_seed_same_numbers():
    s, _ = _linear_orbits()
    s = s + 0.05 * np.sin(7 * s)
    fits = [NVARForecaster(horizon=4, epochs=2, hidden=8, seed=seed).fit(s) for seed in (3, 3, 4)]
    r = [f.rolling(s) for f in fits]
    np.testing.assert_array_equal(r[0], r[1])
    assert not np.allclose(r[0][:, 2:], r[2][:, 2:])


def test_parallel_forecasts_offsets():
    rng = np.random.default_rng(1)
    rolled = rng.random((2, 20, 4, 3))
    p = parallel_forecasts(rolled, 5)
    assert p.shape == (2, 20, 5, 4, 3)
    for t in range(20):
        for k in range(5):
            if t - k >= 0:
                np.testing.assert_array_equal(p[:, t, k], rolled[:, t - k])
            else:
                assert np.isnan(p[:, t, k]).all()


def test_bad_input():
    with pytest.raises(ValueError, match="n_delays"):
        NVARForecaster(n_delays=0)
    with pytest.raises(ValueError, match="horizon"):
        NVARForecaster(horizon=0)
    with pytest.raises(ValueError, match="not fitted"):
        NVARForecaster().rolling(np.zeros((20, 3)))
    with pytest.raises(ValueError, match="at least"):
        NVARForecaster(horizon=16).fit(np.zeros((1, 10, 3)))
    with pytest.raises(ValueError, match="NaN"):
        NVARForecaster(horizon=2, epochs=0).fit(np.full((1, 10, 3), np.nan))
    s, _ = _linear_orbits()
    m = NVARForecaster(horizon=2, epochs=0).fit(s)
    with pytest.raises(ValueError, match="channels"):
        m.rolling(np.zeros((10, 2)))
    with pytest.raises(ValueError, match="lag"):
        m.predict(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="states"):
        nvar_features(np.zeros(5))
