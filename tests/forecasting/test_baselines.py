"""Tests of fairbook.forecasting.baselines: the Normal baseline, TiDE, the trainer."""

import numpy as np
import pytest
import torch
from scipy.stats import norm

from fairbook.forecasting.baselines import (
    ResidualBlock,
    TiDE,
    lead_time_mae,
    normal_quantiles,
    predict_quantiles,
    train_quantile_model,
)
from fairbook.forecasting.crps import crps, quantile_levels

torch.set_num_threads(1)


def _normal_crps(mu, sd, y):
    """Closed form (Gneiting and Raftery 2007)."""
    z = (y - mu) / sd
    return sd * (z * (2 * norm.cdf(z) - 1) + 2 * norm.pdf(z) - 1 / np.sqrt(np.pi))


def test_normal_quantiles_are_normal_ppf_and_monotone():
    mu = np.array([[0.2, -1.0, 3.0]])
    sd = np.array([0.1, 1.0, 2.5])
    q = normal_quantiles(mu, sd)
    assert q.shape == (1, 3, 111)
    assert (np.diff(q, axis=-1) > 0).all()
    np.testing.assert_allclose(
        q, norm.ppf(quantile_levels(), loc=mu[..., None], scale=sd[:, None]), rtol=1e-12
    )
    np.testing.assert_allclose(q[..., 55], mu)  # the median level is 0.5


def test_normal_crps_matches_closed_form_pointwise():
    y = np.array([-3.0, -1.0, 0.0, 0.5, 2.0, 4.0])
    for sd in (0.5, 1.0, 2.0):
        got = crps(normal_quantiles(np.zeros(6), np.full(6, sd)), y, per_step=True)
        np.testing.assert_allclose(got, _normal_crps(0.0, sd, y), atol=2.5e-3 * sd)


def test_normal_crps_monte_carlo_equals_sd_over_sqrt_pi():
    # y ~ N(mu, sd): E CRPS(N(mu, sd), y) = sd / sqrt(pi)
    rng = np.random.default_rng(0)
    sd = np.array([0.5, 1.0, 2.0, 3.0])
    mu = rng.normal(size=(20_000, 4))
    y = mu + sd * rng.normal(size=mu.shape)
    c = crps(normal_quantiles(mu, sd), y, per_step=True)
    se = c.std(0) / np.sqrt(len(c))
    assert (np.abs(c.mean(0) - sd / np.sqrt(np.pi)) < 4 * se + 2e-3 * sd).all()


def test_zero_mae_is_a_point_forecast():
    q = normal_quantiles(np.array([[1.0, 2.0]]), 0.0)
    np.testing.assert_array_equal(q, np.broadcast_to([[[1.0], [2.0]]], (1, 2, 111)))
    assert crps(q, np.array([[1.5, 2.0]])) == pytest.approx(0.25)


def test_lead_time_mae():
    d = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 4.0]])
    y = np.array([[1.0, 1.0, 0.0], [0.0, 3.0, 4.0]])
    np.testing.assert_allclose(lead_time_mae(d, y), [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="N, T"):
        lead_time_mae(d, y[:, :2])


def test_normal_bad_input():
    with pytest.raises(ValueError, match="non-negative"):
        normal_quantiles(np.zeros(3), -1.0)
    with pytest.raises(ValueError, match="broadcast"):
        normal_quantiles(np.zeros((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="levels"):
        normal_quantiles(np.zeros(3), 1.0, levels=[0.0, 0.5])
    with pytest.raises(ValueError, match="finite"):
        normal_quantiles(np.array([np.nan]), 1.0)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    forecasts = torch.rand(n, 10, 16, 3, generator=g)
    return {
        "static": torch.rand(n, 3, generator=g),
        "history": torch.rand(n, 16, 3, generator=g),
        "forecasts": forecasts,
        "target": forecasts[:, 0, :, 0] + 0.05 * torch.randn(n, 16, generator=g),
    }


def test_tide_shapes_and_seeded_init():
    m = TiDE(hidden=32, n_encoder=2, n_decoder=2, seed=1)
    d = _data(5, 0)
    out = m(d["static"], d["history"], d["forecasts"])
    assert tuple(out.shape) == (5, 16, 111)
    m2 = TiDE(hidden=32, n_encoder=2, n_decoder=2, seed=1)
    for a, b in zip(m.state_dict().values(), m2.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b)
    small = TiDE(n_forecasts=4, horizon=8, n_quantiles=5, history=6, seed=0)
    assert tuple(small(torch.zeros(2, 3), torch.zeros(2, 6, 3), torch.zeros(2, 4, 8, 3)).shape) == (
        2,
        8,
        5,
    )
    assert tuple(ResidualBlock(4, 8, 2, layer_norm=False)(torch.ones(3, 4)).shape) == (3, 2)


def test_tide_bad_shapes():
    m = TiDE(seed=0)
    with pytest.raises(ValueError, match="history"):
        m(torch.zeros(2, 3), torch.zeros(2, 15, 3), torch.zeros(2, 10, 16, 3))
    with pytest.raises(ValueError, match="forecasts"):
        m(torch.zeros(2, 3), torch.zeros(2, 16, 3), torch.zeros(2, 16, 3))
    with pytest.raises(ValueError, match="batch"):
        m(torch.zeros(3, 3), torch.zeros(2, 16, 3), torch.zeros(2, 10, 16, 3))
    with pytest.raises(ValueError, match="hidden"):
        TiDE(hidden=0)
    with pytest.raises(ValueError, match="dropout"):
        TiDE(dropout=1.0)


def test_training_learns_and_keeps_the_best_weights():
    train, val = _data(256, 1), _data(128, 2)
    model = TiDE(hidden=32, temporal_hidden=16, seed=0)
    before = float(crps(predict_quantiles(model, val), val["target"].numpy().astype(float)).mean())
    hist = train_quantile_model(model, train, val, epochs=4, batch_size=32, lr=3e-3, seed=0)
    assert list(hist.columns) == ["epoch", "train_loss", "val_crps", "lr", "best"]
    assert hist["val_crps"].min() < 0.5 * before
    assert hist["train_loss"].iloc[-1] < hist["train_loss"].iloc[0]
    after = float(crps(predict_quantiles(model, val), val["target"].numpy().astype(float)).mean())
    assert after == pytest.approx(hist["val_crps"].min(), rel=1e-5)
    # same seed, same numbers
    again = train_quantile_model(
        TiDE(hidden=32, temporal_hidden=16, seed=0),
        train,
        val,
        epochs=4,
        batch_size=32,
        lr=3e-3,
        seed=0,
    )
    np.testing.assert_array_equal(hist["val_crps"].to_numpy(), again["val_crps"].to_numpy())


class _Constant(torch.nn.Module):
    """A model whose output does not depend on its weight: the validation CRPS never moves."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.zeros(1))

    def forward(self, static, history, forecasts):
        return torch.zeros(len(static), 16, 3) + 0.0 * self.w


def test_patience_and_plateau_schedule():
    d = _data(64, 3)
    hist = train_quantile_model(_Constant(), d, d, epochs=10, lr=1.0, patience=3)
    assert len(hist) == 4  # 1 best epoch + 3 stale ones
    # ReduceLROnPlateau(patience=1, factor=0.1): the lr drops after two stale epochs
    np.testing.assert_allclose(hist["lr"], [1.0, 1.0, 0.1, 0.1])


def test_trainer_bad_input():
    d = _data(8, 0)
    with pytest.raises(ValueError, match="epochs"):
        train_quantile_model(TiDE(seed=0), d, d, epochs=0)
    with pytest.raises(ValueError, match="patience"):
        train_quantile_model(TiDE(seed=0), d, d, epochs=1, patience=0)
    with pytest.raises(ValueError, match="target"):
        train_quantile_model(TiDE(seed=0), {k: v for k, v in d.items() if k != "target"}, d)
