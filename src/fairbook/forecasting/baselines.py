"""The two baselines of seed 003's Table 5.2 (chaos columns) and a quantile-model trainer.

* **Normal baseline** (Sec. 5.5): the deterministic forecast turned into a distribution,
  ``Normal(mean = forecast, sd = its MAE)``, the MAE taken per lead time. Its quantiles sit at
  the CRPS levels :func:`~fairbook.forecasting.crps.quantile_levels`. The chapter measures
  the MAE on the **neural-validation** partition: held out from the NVAR fit (so it is not an
  in-sample, optimistic error) and disjoint from the test partition.
* **TiDE** (Das et al. 2023), adapted as the paper describes ("feed TiDE forecasts in addition
  to the static data and history", trained on ordered CRPS): see :class:`TiDE`.
* :func:`train_quantile_model`: AdamW + ``ReduceLROnPlateau(patience=1, factor=0.1)`` on the
  validation CRPS, Eq. 5.9's loss, best-on-validation weights kept.

Examples
--------
>>> q = normal_quantiles(np.zeros((1, 2)), np.array([1.0, 2.0]))
>>> q.shape, round(float(q[0, 1, -1] / q[0, 0, -1]), 6)
((1, 2, 111), 2.0)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import torch
from scipy.special import ndtri
from torch import nn
from tqdm.auto import tqdm

from .crps import OMEGA, crps, ordered_crps, quantile_levels
from .windows import float32_tensor

__all__ = [
    "ResidualBlock",
    "TiDE",
    "lead_time_mae",
    "normal_quantiles",
    "predict_quantiles",
    "train_quantile_model",
]


def lead_time_mae(deterministic, target) -> np.ndarray:
    """Mean absolute error of a deterministic forecast at each lead time.

    Parameters
    ----------
    deterministic, target : array_like, shape (N, T)

    Returns
    -------
    ndarray, shape (T,)

    Examples
    --------
    >>> lead_time_mae([[0.0, 1.0], [2.0, 1.0]], [[1.0, 1.0], [1.0, 3.0]])
    array([1., 1.])
    """
    d, y = np.asarray(deterministic, dtype=float), np.asarray(target, dtype=float)
    if d.ndim != 2 or d.shape != y.shape or len(d) == 0:
        raise ValueError(
            f"deterministic and target must both be (N, T), N > 0; got {d.shape} and {y.shape}"
        )
    if not (np.isfinite(d).all() and np.isfinite(y).all()):
        raise ValueError("deterministic and target must be finite")
    return np.abs(d - y).mean(0)


def normal_quantiles(deterministic, mae, *, levels=None) -> np.ndarray:
    """Quantiles of ``Normal(deterministic, mae)``: ``μ + sd · Φ⁻¹(level)``.

    Parameters
    ----------
    deterministic : array_like, shape (..., T)
        The means (deterministic forecasts).
    mae : float or array_like broadcastable to (..., T)
        The standard deviations (the forecaster's MAE per lead time); ``≥ 0``.
    levels : array_like, shape (C,), optional
        Probability levels in ``(0, 1)``; default ``quantile_levels(111)``.

    Returns
    -------
    ndarray, shape (..., T, C)
        Non-decreasing along the last axis for increasing ``levels``.

    Examples
    --------
    >>> normal_quantiles([0.0], 1.0, levels=[0.5, 0.975]).round(3)
    array([[0.  , 1.96]])
    """
    mu = np.asarray(deterministic, dtype=float)
    sd = np.asarray(mae, dtype=float)
    lv = quantile_levels() if levels is None else np.asarray(levels, dtype=float)
    if mu.ndim < 1:
        raise ValueError(f"deterministic must be shaped (..., T); got shape {mu.shape}")
    if lv.ndim != 1 or len(lv) == 0 or not ((lv > 0) & (lv < 1)).all():
        raise ValueError("levels must be a non-empty 1-d array strictly inside (0, 1)")
    if not np.isfinite(sd).all() or (sd < 0).any():
        raise ValueError("mae must be finite and non-negative")
    if not np.isfinite(mu).all():
        raise ValueError("deterministic must be finite")
    try:
        sd = np.broadcast_to(sd, mu.shape)
    except ValueError:
        raise ValueError(f"mae of shape {sd.shape} does not broadcast to {mu.shape}") from None
    return mu[..., None] + sd[..., None] * ndtri(lv)


class ResidualBlock(nn.Module):
    """TiDE's residual block: ``LayerNorm(Dropout(W₂ ReLU(W₁ x)) + W_s x)``.

    Examples
    --------
    >>> tuple(ResidualBlock(5, 8, 3)(torch.zeros(2, 5)).shape)
    (2, 3)
    """

    def __init__(
        self, n_in: int, hidden: int, n_out: int, *, dropout: float = 0.0, layer_norm: bool = True
    ):
        super().__init__()
        self.dense = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, n_out), nn.Dropout(dropout)
        )
        self.skip = nn.Linear(n_in, n_out)
        self.norm = nn.LayerNorm(n_out) if layer_norm else nn.Identity()

    def forward(self, x):
        return self.norm(self.dense(x) + self.skip(x))


class TiDE(nn.Module):
    """A TiDE-style encoder–decoder (Das et al. 2023) with PTN's inputs and quantile output.

    ``forward(static (N, p), history (N, L, c), forecasts (N, F, H, c)) → (N, H, C)``.

    * **Feature projection**: the "dynamic covariates" of future step ``h`` are the ``F``
      forecasts' values at index ``h`` (``F·c`` numbers), projected per step by a residual
      block to ``temporal_width``.
    * **Dense encoder**: residual blocks on ``[static, flattened history, flattened projected
      covariates]``; **dense decoder**: residual blocks to ``H × decoder_dim``.
    * **Temporal decoder**: per step, a residual block on ``[decoder output_h, projected
      covariates_h]`` → ``C`` quantiles.
    * **Global linear residual**: a linear map of the target channel's history
      (``L`` values) to all ``H × C`` outputs.

    Parameters
    ----------
    n_static, history, n_channels, n_forecasts, horizon, n_quantiles : int
        Input/output sizes (defaults: the Lorenz contract 3, 16, 3, 10, 16, 111).
    hidden : int, default 128
        Width of the encoder and decoder.
    n_encoder, n_decoder : int, default 1
        Residual blocks in each.
    decoder_dim, temporal_width, temporal_hidden : int, default 8, 4, 32
    dropout : float, default 0.1
    layer_norm : bool, default True
    target_channel : int, default 0
        The history channel fed to the global residual (``x``).
    seed : int, optional
        If given, the initial weights are drawn under ``torch.manual_seed(seed)`` without
        touching the global RNG state.

    Examples
    --------
    >>> m = TiDE(seed=0)
    >>> tuple(m(torch.zeros(2, 3), torch.zeros(2, 16, 3), torch.zeros(2, 10, 16, 3)).shape)
    (2, 16, 111)
    """

    def __init__(
        self,
        *,
        n_static: int = 3,
        history: int = 16,
        n_channels: int = 3,
        n_forecasts: int = 10,
        horizon: int = 16,
        n_quantiles: int = 111,
        hidden: int = 128,
        n_encoder: int = 1,
        n_decoder: int = 1,
        decoder_dim: int = 8,
        temporal_width: int = 4,
        temporal_hidden: int = 32,
        dropout: float = 0.1,
        layer_norm: bool = True,
        target_channel: int = 0,
        seed: int | None = None,
    ):
        super().__init__()
        sizes = dict(
            n_static=n_static,
            history=history,
            n_channels=n_channels,
            n_forecasts=n_forecasts,
            horizon=horizon,
            n_quantiles=n_quantiles,
            hidden=hidden,
            n_encoder=n_encoder,
            n_decoder=n_decoder,
            decoder_dim=decoder_dim,
            temporal_width=temporal_width,
            temporal_hidden=temporal_hidden,
        )
        for name, v in sizes.items():
            if int(v) != v or v < 1:
                raise ValueError(f"{name} must be a positive integer; got {v!r}")
        if not 0 <= dropout < 1:
            raise ValueError(f"dropout must be in [0, 1); got {dropout!r}")
        if not 0 <= target_channel < n_channels:
            raise ValueError(f"target_channel must be in [0, {n_channels}); got {target_channel}")
        self.sizes, self.target_channel = sizes, int(target_channel)
        with torch.random.fork_rng(devices=[], enabled=seed is not None):
            if seed is not None:
                torch.manual_seed(seed)
            kw = dict(dropout=dropout, layer_norm=layer_norm)
            self.project = ResidualBlock(
                n_forecasts * n_channels, temporal_hidden, temporal_width, **kw
            )
            n_in = n_static + history * n_channels + horizon * temporal_width
            enc = [ResidualBlock(n_in, hidden, hidden, **kw)]
            enc += [ResidualBlock(hidden, hidden, hidden, **kw) for _ in range(n_encoder - 1)]
            dec = [ResidualBlock(hidden, hidden, hidden, **kw) for _ in range(n_decoder - 1)]
            dec += [ResidualBlock(hidden, hidden, horizon * decoder_dim, **kw)]
            self.encoder, self.decoder = nn.Sequential(*enc), nn.Sequential(*dec)
            self.temporal = ResidualBlock(
                decoder_dim + temporal_width, temporal_hidden, n_quantiles, **kw
            )
            self.residual = nn.Linear(history, horizon * n_quantiles)

    def _check(self, static, history, forecasts):
        s = self.sizes
        want = {
            "static": (s["n_static"],),
            "history": (s["history"], s["n_channels"]),
            "forecasts": (s["n_forecasts"], s["horizon"], s["n_channels"]),
        }
        got = {"static": static, "history": history, "forecasts": forecasts}
        for name, shape in want.items():
            if tuple(got[name].shape[1:]) != shape or got[name].ndim != len(shape) + 1:
                raise ValueError(
                    f"{name} must be shaped (N, {', '.join(map(str, shape))}); "
                    f"got {tuple(got[name].shape)}"
                )
        if not static.shape[0] == history.shape[0] == forecasts.shape[0]:
            raise ValueError("static, history and forecasts disagree on the batch size")

    def forward(self, static, history, forecasts):
        self._check(static, history, forecasts)
        n, s = static.shape[0], self.sizes
        covariates = forecasts.permute(0, 2, 1, 3).reshape(n, s["horizon"], -1)
        projected = self.project(covariates)  # (N, H, w)
        z = torch.cat([static, history.reshape(n, -1), projected.reshape(n, -1)], dim=1)
        decoded = self.decoder(self.encoder(z)).reshape(n, s["horizon"], s["decoder_dim"])
        out = self.temporal(torch.cat([decoded, projected], dim=-1))  # (N, H, C)
        skip = self.residual(history[..., self.target_channel])
        return out + skip.reshape(n, s["horizon"], s["n_quantiles"])


_INPUTS = ("static", "history", "forecasts")


def _tensors(data, *, need_target=True) -> dict[str, torch.Tensor]:
    if hasattr(data, "to_torch"):
        return data.to_torch()
    names = _INPUTS + (("target",) if need_target else ())
    out = {}
    for name in names:
        value = (
            data[name] if isinstance(data, Mapping) and name in data else getattr(data, name, None)
        )
        if value is None:
            raise ValueError(f"data has no {name!r}")
        out[name] = float32_tensor(value)
    return out


def _model_device(model: nn.Module) -> torch.device:
    """Where the model's parameters live (batches are moved there; CPU for none)."""
    return next(iter(model.parameters()), torch.empty(0)).device


@torch.no_grad()
def predict_quantiles(model: nn.Module, data, *, batch_size: int = 1024) -> np.ndarray:
    """Run ``model`` in eval mode over ``data`` (Windows or mapping) → ndarray ``(N, H, C)``.

    Examples
    --------
    >>> d = {"static": np.zeros((3, 3)), "history": np.zeros((3, 16, 3)),
    ...      "forecasts": np.zeros((3, 10, 16, 3))}
    >>> predict_quantiles(TiDE(seed=0), d).shape
    (3, 16, 111)
    """
    t = _tensors(data, need_target=False)
    device = _model_device(model)
    was = model.training
    model.eval()
    n = len(t["static"])
    out = [
        model(*(t[k][i : i + batch_size].to(device) for k in _INPUTS)).cpu()
        for i in range(0, n, batch_size)
    ]
    model.train(was)
    return torch.cat(out).numpy().astype(float) if out else np.empty((0,))


def train_quantile_model(
    model: nn.Module,
    train,
    val,
    *,
    epochs: int = 10,
    batch_size: int = 64,
    lr: float = 1e-3,
    weight_decay: float = 1e-4,
    omega: float = OMEGA,
    seed: int = 0,
    patience: int | None = None,
    progress=None,
) -> pd.DataFrame:
    """Train a quantile model on ordered CRPS (Eq. 5.9), keeping the best-on-validation weights.

    AdamW; ``ReduceLROnPlateau(patience=1, factor=0.1)`` stepped on the validation CRPS
    (Eq. 5.7, no ordering penalty) after every epoch; the weights with the lowest validation
    CRPS are loaded back into ``model`` at the end. The data stay on the CPU; each batch
    moves to the device of the model's parameters (``model.to("cuda")`` for a GPU).

    Parameters
    ----------
    model : nn.Module
        ``forward(static, history, forecasts) → (N, H, C)``.
    train, val : Windows or mapping
        With ``static, history, forecasts, target``.
    epochs : int, default 10
    batch_size : int, default 64
    lr, weight_decay : float
    omega : float, default 0.0075
    seed : int, default 0
        Seeds shuffling and dropout (the global torch RNG state is restored afterwards).
    patience : int, optional
        Stop after this many epochs without a validation improvement (None: never).
    progress : bool or None

    Returns
    -------
    DataFrame
        One row per epoch: ``epoch, train_loss, val_crps, lr, best``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> d = {"static": rng.random((32, 3)), "history": rng.random((32, 16, 3)),
    ...      "forecasts": rng.random((32, 10, 16, 3)), "target": rng.random((32, 16))}
    >>> h = train_quantile_model(TiDE(seed=0), d, d, epochs=2)
    >>> list(h.columns)
    ['epoch', 'train_loss', 'val_crps', 'lr', 'best']
    """
    for name, v, low in (("epochs", epochs, 1), ("batch_size", batch_size, 1)):
        if int(v) != v or v < low:
            raise ValueError(f"{name} must be a positive integer; got {v!r}")
    if patience is not None and (int(patience) != patience or patience < 1):
        raise ValueError(f"patience must be a positive integer or None; got {patience!r}")
    if not (lr > 0 and weight_decay >= 0 and omega >= 0):
        raise ValueError("lr must be positive, weight_decay and omega non-negative")
    tr, va = _tensors(train), _tensors(val)
    for name, t in (("train", tr), ("val", va)):
        if len(t["target"]) == 0:
            raise ValueError(f"{name} holds no windows")
        if t["target"].ndim != 2:
            raise ValueError(f"{name} target must be (N, H); got {tuple(t['target'].shape)}")
    device = _model_device(model)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.1)
    rows, best, best_state, stale = [], np.inf, None, 0
    n = len(tr["target"])
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        for epoch in tqdm(
            range(1, int(epochs) + 1),
            desc="train",
            disable=None if progress is None else not progress,
        ):
            model.train()
            order, total = torch.randperm(n), 0.0
            for i in range(0, n, batch_size):
                idx = order[i : i + batch_size]
                q = model(*(tr[k][idx].to(device) for k in _INPUTS))
                loss = ordered_crps(q, tr["target"][idx].to(device), omega=omega)
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            q_val = predict_quantiles(model, va)
            val_crps = float(np.mean(crps(q_val, va["target"].numpy().astype(float))))
            if not np.isfinite(val_crps):
                raise FloatingPointError(f"validation CRPS is {val_crps} at epoch {epoch}")
            sched.step(val_crps)
            improved = val_crps < best
            if improved:
                best, stale = val_crps, 0
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            else:
                stale += 1
            rows.append(
                {
                    "epoch": epoch,
                    "train_loss": total / n,
                    "val_crps": val_crps,
                    "lr": opt.param_groups[0]["lr"],
                    "best": improved,
                }
            )
            if patience is not None and stale >= patience:
                break
    model.load_state_dict(best_state)
    model.eval()
    return pd.DataFrame(rows)
