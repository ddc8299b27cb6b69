"""The deterministic forecaster: an MLP on nonlinear vector-autoregressive features.

Seed 003 (Sec. 5.3.2) feeds PTN the forecasts of "a multilayer perceptron based on the
nonlinear vector autoregressive model (NVAR)", following Shahi et al. (2022). The NVAR feature
vector of Gauthier et al. (2021) at time ``t`` is

* the **constant** 1,
* the **linear** part ``O_lin = (s_t, s_{t−skip}, …, s_{t−(k−1)·skip})`` of ``d = k·c``
  numbers (``c`` channels, ``k`` delays), and
* the **unique quadratic monomials** ``O_lin,i · O_lin,j`` for ``i ≤ j`` — ``d(d+1)/2`` of
  them (upper-triangle order of ``numpy.triu_indices``).

Choices made here (the paper gives none):

* **Direct multi-step**: one model maps the features at ``t`` to all ``horizon`` future states
  ``s_{t+1} … s_{t+horizon}`` at once (no iteration, so no compounding of one-step errors
  and one forward pass per time step); it predicts the *increments* ``s_{t+h} − s_t``.
* **NVAR + MLP**: the output is a linear ridge read-out of the features (Gauthier's NVAR,
  solved in closed form) **plus** a small MLP (``tanh``, ``hidden`` units, two hidden layers)
  on the standardised features, trained with Adam on the ridge residual. Its last layer
  starts at zero, so training starts from the exact NVAR solution; ``epochs=0`` *is* NVAR.
* Defaults: ``n_delays=2``, ``skip=1``, ``horizon=16``, ``hidden=128``, 30 epochs of Adam
  (lr 3e-3, batch 256) on at most 200 000 sampled time steps.
* Iterating a one-step model was tried and rejected: at the paper's ``Δt = 0.1`` a quadratic
  NVAR iterated 16 times diverges on the Lorenz attractor.

Forecasts issued at ``t`` need ``t ≥ (n_delays − 1)·skip``; earlier ones are NaN.

Examples
--------
>>> rng = np.random.default_rng(0)
>>> A = np.array([[0.9, -0.2], [0.2, 0.9]])
>>> s = np.empty((50, 2)); s[0] = rng.normal(size=2)
>>> for t in range(49): s[t + 1] = A @ s[t]
>>> model = NVARForecaster(n_delays=1, horizon=3, epochs=0).fit(s[None])
>>> bool(np.allclose(model.predict(s[:10])[-1], A @ A @ A @ s[9], atol=1e-6))
True
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

__all__ = [
    "NVARForecaster",
    "delay_embedding",
    "n_features",
    "nvar_features",
    "parallel_forecasts",
]


def _states(x, name="states") -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim < 2:
        raise ValueError(f"{name} must be shaped (..., T, channels); got shape {x.shape}")
    return x


def _check_delays(n_delays, skip):
    if int(n_delays) != n_delays or n_delays < 1:
        raise ValueError(f"n_delays must be a positive integer; got {n_delays!r}")
    if int(skip) != skip or skip < 1:
        raise ValueError(f"skip must be a positive integer; got {skip!r}")
    return int(n_delays), int(skip)


def n_features(n_channels: int, n_delays: int, *, constant: bool = True) -> int:
    """Length of the NVAR feature vector: ``1 + d + d(d+1)/2`` with ``d = n_channels·n_delays``.

    Examples
    --------
    >>> n_features(3, 2)     # d = 6: 1 + 6 + 21
    28
    """
    d = int(n_channels) * int(n_delays)
    return int(constant) + d + d * (d + 1) // 2


def delay_embedding(states, n_delays: int, *, skip: int = 1) -> np.ndarray:
    """``(s_t, s_{t−skip}, …, s_{t−(k−1)skip})`` for every ``t``; NaN where a delay is missing.

    Parameters
    ----------
    states : array_like, shape (..., T, c)
    n_delays : int
    skip : int, default 1

    Returns
    -------
    ndarray, shape (..., T, n_delays·c)

    Examples
    --------
    >>> delay_embedding([[1.0], [2.0], [3.0]], 2)
    array([[ 1., nan],
           [ 2.,  1.],
           [ 3.,  2.]])
    """
    s = _states(states)
    k, skip = _check_delays(n_delays, skip)
    parts = []
    for j in range(k):
        lag = j * skip
        shifted = np.full_like(s, np.nan)
        if lag < s.shape[-2]:
            shifted[..., lag:, :] = s[..., : s.shape[-2] - lag, :]
        parts.append(shifted)
    return np.concatenate(parts, axis=-1)


def nvar_features(states, *, n_delays: int = 2, skip: int = 1, constant: bool = True) -> np.ndarray:
    """Gauthier et al.'s NVAR features at every time step.

    Parameters
    ----------
    states : array_like, shape (..., T, c)
    n_delays, skip : int
    constant : bool, default True

    Returns
    -------
    ndarray, shape (..., T, n_features(c, n_delays))
        ``[1, O_lin, O_lin,i·O_lin,j for i ≤ j]``; rows before ``(n_delays − 1)·skip`` are NaN
        (the constant included).

    Examples
    --------
    >>> nvar_features([[2.0, 3.0]], n_delays=1)     # 1, x, y, x², xy, y²
    array([[1., 2., 3., 4., 6., 9.]])
    """
    lin = delay_embedding(states, n_delays, skip=skip)
    i, j = np.triu_indices(lin.shape[-1])
    parts = [lin, lin[..., i] * lin[..., j]]
    if constant:
        parts.insert(0, np.ones(lin.shape[:-1] + (1,)))
    out = np.concatenate(parts, axis=-1)
    out[np.isnan(lin).any(axis=-1)] = np.nan
    return out


class _MLP(nn.Module):
    def __init__(self, n_in: int, hidden: int, n_out: int):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden),
            nn.Tanh(),
            nn.Linear(hidden, hidden),
            nn.Tanh(),
            nn.Linear(hidden, n_out),
        )
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x):
        return self.net(x)


class NVARForecaster:
    """Direct ``horizon``-step forecasts from NVAR features: ridge read-out + residual MLP.

    Parameters
    ----------
    n_delays : int, default 2
        ``k``, the number of time-delayed states in the linear part.
    skip : int, default 1
        Steps between the delays.
    horizon : int, default 16
    hidden : int, default 128
        Width of the MLP's two hidden layers.
    ridge : float, default 1e-6
        Tikhonov weight of the linear read-out (on standardised features).
    epochs : int, default 30
        MLP epochs (0: the pure NVAR ridge model).
    batch_size : int, default 256
    lr : float, default 3e-3
        Adam's learning rate.
    max_samples : int or None, default 200_000
        The MLP trains on at most this many (randomly chosen) time steps; the ridge uses all.
    seed : int, default 0
        Seeds the MLP's initialisation, the subsample and the shuffling.

    Attributes
    ----------
    n_channels_ : int
    ridge_weights_ : ndarray, shape (n_features, horizon·c)
    history_ : list of float
        Mean training MSE (standardised residual units) per epoch.

    Examples
    --------
    >>> t = np.linspace(0, 20, 201)
    >>> s = np.stack([np.sin(t), np.cos(t)], axis=-1)
    >>> m = NVARForecaster(horizon=4, epochs=1, hidden=8, seed=0).fit(s[None])
    >>> m.predict(s[:5]).shape
    (4, 2)
    """

    def __init__(
        self,
        *,
        n_delays: int = 2,
        skip: int = 1,
        horizon: int = 16,
        hidden: int = 128,
        ridge: float = 1e-6,
        epochs: int = 30,
        batch_size: int = 256,
        lr: float = 3e-3,
        max_samples: int | None = 200_000,
        seed: int = 0,
    ):
        self.n_delays, self.skip = _check_delays(n_delays, skip)
        for name, v in (("horizon", horizon), ("hidden", hidden), ("batch_size", batch_size)):
            if int(v) != v or v < 1:
                raise ValueError(f"{name} must be a positive integer; got {v!r}")
        if int(epochs) != epochs or epochs < 0:
            raise ValueError(f"epochs must be a non-negative integer; got {epochs!r}")
        if not ridge >= 0 or not lr > 0:
            raise ValueError(f"ridge must be >= 0 and lr > 0; got {ridge!r}, {lr!r}")
        if max_samples is not None and max_samples < 1:
            raise ValueError(f"max_samples must be positive or None; got {max_samples!r}")
        self.horizon, self.hidden, self.epochs = int(horizon), int(hidden), int(epochs)
        self.batch_size, self.lr, self.ridge = int(batch_size), float(lr), float(ridge)
        self.max_samples, self.seed = max_samples, seed

    @property
    def lag(self) -> int:
        """The first time index at which a forecast can be issued, ``(n_delays − 1)·skip``."""
        return (self.n_delays - 1) * self.skip

    def _features(self, states):
        phi = nvar_features(states, n_delays=self.n_delays, skip=self.skip, constant=False)
        return (phi - self.feature_mean_) / self.feature_scale_

    def _design(self, trajectories):
        s = _states(trajectories, "trajectories")
        if s.shape[-2] < self.lag + self.horizon + 1:
            raise ValueError(
                f"trajectories need at least lag + horizon + 1 = {self.lag + self.horizon + 1} "
                f"steps; got {s.shape[-2]}"
            )
        if not np.isfinite(s).all():
            raise ValueError("trajectories contain NaN or infinite values")
        s = s.reshape((-1,) + s.shape[-2:])
        n_t, h = s.shape[1], self.horizon
        phi = nvar_features(s, n_delays=self.n_delays, skip=self.skip, constant=False)
        rows = np.arange(self.lag, n_t - h)
        x = phi[:, rows].reshape(-1, phi.shape[-1])
        future = np.stack([s[:, rows + k] for k in range(1, h + 1)], axis=2)  # (B, R, h, c)
        y = (future - s[:, rows, None, :]).reshape(len(x), -1)
        return x, y

    def fit(self, trajectories):
        """Fit on trajectories shaped ``(..., T, c)`` (every leading index is one trajectory).

        Returns
        -------
        self
        """
        s = _states(trajectories, "trajectories")
        self.n_channels_ = s.shape[-1]
        x, y = self._design(s)
        self.feature_mean_ = x.mean(0)
        self.feature_scale_ = x.std(0)
        self.feature_scale_[self.feature_scale_ == 0] = 1.0
        xs = (x - self.feature_mean_) / self.feature_scale_
        xs1 = np.concatenate([np.ones((len(xs), 1)), xs], axis=1)
        gram = xs1.T @ xs1 + self.ridge * len(xs1) * np.eye(xs1.shape[1])
        gram[0, 0] -= self.ridge * len(xs1)  # the intercept is not penalised
        self.ridge_weights_ = np.linalg.solve(gram, xs1.T @ y)
        resid = y - xs1 @ self.ridge_weights_
        self.target_scale_ = resid.std(0)
        self.target_scale_[self.target_scale_ == 0] = 1.0
        self.history_ = []
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.seed)
            self.mlp_ = _MLP(xs.shape[1], self.hidden, y.shape[1]).double()
            if self.epochs:
                self._train(xs, resid / self.target_scale_)
        self.mlp_.eval()
        return self

    def _train(self, xs, r):
        rng = np.random.default_rng(self.seed)
        if self.max_samples is not None and len(xs) > self.max_samples:
            keep = rng.choice(len(xs), self.max_samples, replace=False)
            xs, r = xs[keep], r[keep]
        xt, rt = torch.as_tensor(xs, dtype=torch.float64), torch.as_tensor(r, dtype=torch.float64)
        opt = torch.optim.Adam(self.mlp_.parameters(), lr=self.lr)
        gen = torch.Generator().manual_seed(
            int(np.random.SeedSequence(self.seed).generate_state(1)[0])
        )
        self.mlp_.train()
        for _ in range(self.epochs):
            order = torch.randperm(len(xt), generator=gen)
            total = 0.0
            for start in range(0, len(xt), self.batch_size):
                idx = order[start : start + self.batch_size]
                loss = torch.mean((self.mlp_(xt[idx]) - rt[idx]) ** 2)
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            self.history_.append(total / len(xt))

    def _check_fitted(self):
        if not hasattr(self, "ridge_weights_"):
            raise ValueError("this NVARForecaster is not fitted; call fit first")

    def _increments(self, xs):
        """Predicted increments for standardised feature rows ``(n, F)`` → ``(n, h·c)``."""
        xs1 = np.concatenate([np.ones((len(xs), 1)), xs], axis=1)
        out = xs1 @ self.ridge_weights_
        with torch.no_grad():
            out = (
                out
                + self.mlp_(torch.as_tensor(xs, dtype=torch.float64)).numpy() * self.target_scale_
            )
        return out

    def rolling(self, trajectories) -> np.ndarray:
        """The forecast issued at every time step of every trajectory, in one pass.

        Parameters
        ----------
        trajectories : array_like, shape (..., T, c)

        Returns
        -------
        ndarray, shape (..., T, horizon, c)
            ``out[..., t, h − 1, :]`` forecasts ``s_{t+h}`` from the states up to ``t``; NaN
            for ``t < lag``.
        """
        self._check_fitted()
        s = _states(trajectories, "trajectories")
        if s.shape[-1] != self.n_channels_:
            raise ValueError(f"expected {self.n_channels_} channels; got {s.shape[-1]}")
        lead, n_t = s.shape[:-2], s.shape[-2]
        out = np.full(lead + (n_t, self.horizon, self.n_channels_), np.nan)
        if n_t <= self.lag:
            return out
        xs = self._features(s)[..., self.lag :, :]
        flat = xs.reshape(-1, xs.shape[-1])
        inc = self._increments(flat).reshape(xs.shape[:-1] + (self.horizon, self.n_channels_))
        out[..., self.lag :, :, :] = s[..., self.lag :, None, :] + inc
        return out

    def predict(self, history) -> np.ndarray:
        """Forecast the next ``horizon`` states from the last states of ``history``.

        Parameters
        ----------
        history : array_like, shape (..., L, c) with ``L ≥ lag + 1``

        Returns
        -------
        ndarray, shape (..., horizon, c)
        """
        self._check_fitted()
        h = _states(history, "history")
        if h.shape[-2] < self.lag + 1:
            raise ValueError(
                f"history needs at least lag + 1 = {self.lag + 1} steps; got {h.shape[-2]}"
            )
        return self.rolling(h[..., -(self.lag + 1) :, :])[..., -1, :, :]


def parallel_forecasts(rolled, n_forecasts: int = 10) -> np.ndarray:
    """Stack, at every ``t``, the forecasts issued at ``t, t−1, …, t−(n_forecasts−1)``.

    Parameters
    ----------
    rolled : array_like, shape (..., T, horizon, c)
        Output of :meth:`NVARForecaster.rolling`.
    n_forecasts : int, default 10

    Returns
    -------
    ndarray, shape (..., T, n_forecasts, horizon, c)
        ``out[..., t, k] = rolled[..., t − k]`` (NaN where ``t − k < 0``), so forecast ``k``
        covers steps ``t − k + 1 … t − k + horizon`` — the "parallel time" input.

    Examples
    --------
    >>> r = np.arange(4.0).reshape(4, 1, 1)
    >>> parallel_forecasts(r, 2)[:, :, 0, 0]
    array([[ 0., nan],
           [ 1.,  0.],
           [ 2.,  1.],
           [ 3.,  2.]])
    """
    r = np.asarray(rolled, dtype=float)
    if r.ndim < 3:
        raise ValueError(f"rolled must be shaped (..., T, horizon, c); got {r.shape}")
    if int(n_forecasts) != n_forecasts or n_forecasts < 1:
        raise ValueError(f"n_forecasts must be a positive integer; got {n_forecasts!r}")
    n_t = r.shape[-3]
    out = np.full(r.shape[:-3] + (n_t, int(n_forecasts)) + r.shape[-2:], np.nan)
    for k in range(int(n_forecasts)):
        if k < n_t:
            out[..., k:, k, :, :] = r[..., : n_t - k, :, :]
    return out
