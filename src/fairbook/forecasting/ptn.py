"""The Probabilistic Parallel Time Network hypermodel (seed 003, Sec. 5.4.1, Fig. 5.2).

:class:`PTN` is built from an *agent* (a dict of Table 5.1's genes, see
:mod:`fairbook.forecasting.space`) and the data's shapes. It maps

* ``static``    ``(N, c_s)``            — per-system constants (for Lorenz: σ, ρ, β),
* ``history``   ``(N, τ_h, c_h)``       — the last ``τ_h`` observed states,
* ``forecasts`` ``(N, f_f, τ_f, c_f)``  — the ``f_f`` most recent deterministic forecasts,

to ``(N, τ_t, c_t)``: ``c_t`` quantiles at each of ``τ_t`` future steps.

Every embedding lives in a ``d × d`` space, shaped ``(N, L = d, d)`` as (time, channels).
Choices the paper leaves open, made here:

* **"1D-CNN over the temporal dimension" that changes the number of steps** (history
  ``τ_h × d → d × d``, forecasts ``f_f × d → d × d``, output ``d × d → τ_t × d``) is a
  ``Conv1d`` whose *input channels are the time steps* (PyTorch convention: a tensor
  ``(N, τ, d)`` convolved with ``Conv1d(τ, d_out)`` slides along the ``d`` axis). So it mixes
  all input steps; its causal (left) padding is along the feature axis, as "all our 1D-CNN
  layers use causal padding" demands, and only the convolutions that slide along time
  (:class:`CausalConv1d` inside the mixed ops, and the output's conv over channels) are
  causal in time.
* The **bi-directional GRU** has ``d/2`` units each way, so its output stays ``d`` wide
  (hence ``d`` must be even); attention is plain (unmasked) self-attention with ``heads``
  heads, which must divide ``d``.
* **Conv2D collapse** convolves ``(f_f, τ_f)`` with the ``c_f`` variables as input channels
  and one output channel, kernel height along ``f_f`` and width along ``τ_f``, zero "same"
  padding; the alternative is a dense layer ``c_f → 1``.
* The forecast dense layer maps each forecast's ``τ_f`` steps to ``d``; no activation
  follows the forecast conv (the paper lists none), one follows the history conv.
* The three learnable embedding scales start at 1 and are *weight* parameters.
* Dropout: ``first_dropout`` after the static repeat, ``dropout`` after the history dense
  layer (the two places the paper names). Gaussian noise only in training mode.

A mixed operation (Liu et al. 2019) returns ``Σ_i softmax(α)_i · op_i(x)``; the ``α`` are the
*architecture* parameters, everything else the *weight* parameters.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import torch
from torch import nn
from torch.nn import functional as F

from .windows import float32_tensor

__all__ = [
    "ARCHITECTURE_GENES",
    "PTN",
    "CausalConv1d",
    "MixedOp",
    "as_tensors",
]

#: The genes of Table 5.1 the network itself uses (the others configure the optimisers).
ARCHITECTURE_GENES = (
    "hidden_size",
    "dropout",
    "first_dropout",
    "lrelu_slope",
    "history_heads",
    "forecast_heads",
    "noise_sd",
    "normalisation",
    "history_embed_kernel",
    "history_conv_kernel",
    "forecast_collapse_width",
    "forecast_collapse_height",
    "forecast_embed_kernel",
    "forecast_conv_kernel",
    "output_temporal_kernel",
    "output_feature_kernel",
)
_OPTIMISER_GENES = tuple(f"{p}_{k}" for p in ("arch", "weight") for k in ("lr", "beta1", "beta2"))
_FIELDS = ("static", "history", "forecasts", "target")


def as_tensors(data, *, require_target: bool = True) -> dict[str, torch.Tensor]:
    """The four arrays of a PTN data set as float32 tensors, checked for consistent shapes.

    Parameters
    ----------
    data : mapping or object
        With keys or attributes ``static (N, c_s)``, ``history (N, τ_h, c_h)``,
        ``forecasts (N, f_f, τ_f, c_f)`` and ``target (N, τ_t)`` (arrays or tensors).
    require_target : bool, default True

    Returns
    -------
    dict of str to torch.Tensor

    Examples
    --------
    >>> import numpy as np
    >>> d = as_tensors({"static": np.zeros((2, 3)), "history": np.zeros((2, 4, 3)),
    ...                 "forecasts": np.zeros((2, 5, 4, 3)), "target": np.zeros((2, 4))})
    >>> tuple(d["forecasts"].shape)
    (2, 5, 4, 3)
    """
    fields = _FIELDS if require_target else _FIELDS[:3]
    out = {}
    for name in fields:
        if isinstance(data, Mapping):
            if name not in data:
                raise ValueError(f"data has no {name!r}; expected keys {fields}")
            value = data[name]
        elif hasattr(data, name):
            value = getattr(data, name)
        else:
            raise ValueError(f"data has no {name!r}; expected attributes {fields}")
        out[name] = float32_tensor(value)
    ndims = {"static": 2, "history": 3, "forecasts": 4, "target": 2}
    for name, value in out.items():
        if value.ndim != ndims[name]:
            raise ValueError(
                f"{name} must have {ndims[name]} dimensions; got shape {tuple(value.shape)}"
            )
    sizes = {name: value.shape[0] for name, value in out.items()}
    if len(set(sizes.values())) != 1:
        raise ValueError(f"the arrays disagree on the number of windows: {sizes}")
    return out


class CausalConv1d(nn.Module):
    """``Conv1d`` over the last axis with ``kernel − 1`` zeros padded on the left.

    Output position ``t`` sees inputs ``≤ t`` only; the length is preserved.

    Examples
    --------
    >>> conv = CausalConv1d(2, 4, kernel_size=3)
    >>> tuple(conv(torch.zeros(1, 2, 7)).shape)
    (1, 4, 7)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        if kernel_size < 1:
            raise ValueError(f"kernel_size must be >= 1; got {kernel_size}")
        self.pad = kernel_size - 1
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size)

    def forward(self, x):  # (N, C_in, L) -> (N, C_out, L)
        return self.conv(F.pad(x, (self.pad, 0)))


class _TimeConv(nn.Module):
    """Causal conv along time for (N, L, d) tensors (channels last)."""

    def __init__(self, d: int, kernel_size: int):
        super().__init__()
        self.conv = CausalConv1d(d, d, kernel_size)

    def forward(self, x):
        return self.conv(x.transpose(1, 2)).transpose(1, 2)


class _Attention(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, heads, batch_first=True)

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


class _BiGRU(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.gru = nn.GRU(d, d // 2, batch_first=True, bidirectional=True)

    def forward(self, x):
        return self.gru(x)[0]


class _Collapse2d(nn.Module):
    """(N, f_f, τ_f, c_f) -> (N, f_f, τ_f) by a 2-D conv with c_f input channels."""

    def __init__(self, channels: int, height: int, width: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, 1, (height, width), padding=(height // 2, width // 2))

    def forward(self, x):
        return self.conv(x.permute(0, 3, 1, 2))[:, 0]


class _DenseCollapse(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.dense = nn.Linear(channels, 1)

    def forward(self, x):
        return self.dense(x)[..., 0]


class _GaussianNoise(nn.Module):
    def __init__(self, sd: float):
        super().__init__()
        self.sd = float(sd)

    def forward(self, x):
        if self.training and self.sd > 0:
            return x + self.sd * torch.randn_like(x)
        return x


class _ChannelBatchNorm(nn.Module):
    """BatchNorm1d over the channels of an (N, L, d) tensor."""

    def __init__(self, d: int):
        super().__init__()
        self.norm = nn.BatchNorm1d(d)

    def forward(self, x):
        return self.norm(x.transpose(1, 2)).transpose(1, 2)


class MixedOp(nn.Module):
    """A DARTS cell: the softmax(α)-weighted sum of candidate operations (Liu et al. 2019).

    Parameters
    ----------
    ops : mapping of str to nn.Module
        The candidates; they must map the same input to outputs of the same shape.

    Attributes
    ----------
    alpha : nn.Parameter, shape (n_ops,)
        Architecture parameters, initialised to 0 (uniform weights).
    active : torch.Tensor of bool
        A buffer; pruned operations are inactive (weight 0, not evaluated).

    Examples
    --------
    >>> op = MixedOp({"same": nn.Identity(), "double": nn.Linear(1, 1, bias=False)})
    >>> op.weights().tolist()
    [0.5, 0.5]
    """

    def __init__(self, ops: Mapping[str, nn.Module]):
        super().__init__()
        if not ops:
            raise ValueError("a MixedOp needs at least one operation")
        self.names = tuple(ops)
        self.ops = nn.ModuleList(ops.values())
        self.alpha = nn.Parameter(torch.zeros(len(self.names)))
        self.register_buffer("active", torch.ones(len(self.names), dtype=torch.bool))

    def weights(self) -> torch.Tensor:
        """``softmax(α)`` over the active operations (0 for pruned ones)."""
        return torch.softmax(self.alpha.masked_fill(~self.active, float("-inf")), dim=0)

    def forward(self, x):
        weights = self.weights()
        out = 0
        for i, op in enumerate(self.ops):
            if self.active[i]:
                out = out + weights[i] * op(x)
        return out

    def prune(self, threshold: float) -> None:
        """Deactivate operations whose weight is below ``threshold`` (the argmax always stays)."""
        with torch.no_grad():
            weights = self.weights()
            keep = (weights >= threshold) & self.active
            keep[int(torch.argmax(weights))] = True
            self.active.copy_(keep)


def _check_agent(agent: Mapping) -> dict:
    if not isinstance(agent, Mapping):
        raise ValueError(f"agent must be a mapping of genes; got {type(agent).__name__}")
    unknown = set(agent) - set(ARCHITECTURE_GENES) - set(_OPTIMISER_GENES)
    if unknown:
        raise ValueError(f"unknown gene(s) {sorted(unknown)}")
    missing = set(ARCHITECTURE_GENES) - set(agent)
    if missing:
        raise ValueError(f"agent lacks gene(s) {sorted(missing)}")
    a = dict(agent)
    d = a["hidden_size"]
    if int(d) != d or d < 2 or d % 2:
        raise ValueError(f"hidden_size must be an even integer >= 2; got {d!r}")
    for gene in ("history_heads", "forecast_heads"):
        if int(a[gene]) != a[gene] or a[gene] < 1 or d % a[gene]:
            raise ValueError(f"{gene} = {a[gene]!r} does not divide hidden_size {d}")
    for gene in ARCHITECTURE_GENES:
        if gene.endswith(("kernel", "width", "height")):
            k = a[gene]
            if int(k) != k or k < 1 or k % 2 == 0:
                raise ValueError(f"{gene} must be an odd positive integer; got {k!r}")
    if a["normalisation"] not in ("layer", "batch", "none"):
        raise ValueError(
            f"normalisation must be 'layer', 'batch' or 'none'; got {a['normalisation']!r}"
        )
    for gene in ("dropout", "first_dropout"):
        if not 0 <= a[gene] < 1:
            raise ValueError(f"{gene} must be in [0, 1); got {a[gene]!r}")
    if a["noise_sd"] < 0 or a["lrelu_slope"] < 0:
        raise ValueError("noise_sd and lrelu_slope must be non-negative")
    return a


class PTN(nn.Module):
    """The PTN hypermodel of Sec. 5.4.1 for one agent.

    Parameters
    ----------
    agent : mapping
        Table 5.1's genes (:data:`ARCHITECTURE_GENES`; the optimiser genes may be present
        and are ignored here).
    static_channels : int
        ``c_s``.
    history_steps, history_channels : int
        ``τ_h``, ``c_h``.
    n_forecasts, forecast_steps, forecast_channels : int
        ``f_f``, ``τ_f``, ``c_f``.
    target_steps, n_quantiles : int
        ``τ_t``, ``c_t``.
    seed : int, optional
        Seeds the weight initialisation (without touching the global torch RNG).

    Examples
    --------
    >>> import numpy as np
    >>> from fairbook.forecasting.space import make_space, sample, Choice
    >>> agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(0))
    >>> net = PTN(agent, static_channels=3, history_steps=8, history_channels=3,
    ...           n_forecasts=2, forecast_steps=8, forecast_channels=3,
    ...           target_steps=8, n_quantiles=5, seed=0)
    >>> out = net(torch.zeros(4, 3), torch.zeros(4, 8, 3), torch.zeros(4, 2, 8, 3))
    >>> tuple(out.shape)
    (4, 8, 5)
    """

    def __init__(
        self,
        agent: Mapping,
        *,
        static_channels: int,
        history_steps: int,
        history_channels: int,
        n_forecasts: int,
        forecast_steps: int,
        forecast_channels: int,
        target_steps: int,
        n_quantiles: int,
        seed: int | None = None,
    ):
        super().__init__()
        self.agent = _check_agent(agent)
        shapes = {
            "static_channels": static_channels,
            "history_steps": history_steps,
            "history_channels": history_channels,
            "n_forecasts": n_forecasts,
            "forecast_steps": forecast_steps,
            "forecast_channels": forecast_channels,
            "target_steps": target_steps,
            "n_quantiles": n_quantiles,
        }
        for name, value in shapes.items():
            if int(value) != value or value < 1:
                raise ValueError(f"{name} must be a positive integer; got {value!r}")
        self.shapes = {k: int(v) for k, v in shapes.items()}
        if seed is None:
            self._build()
        else:
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(int(seed))
                self._build()

    def _build(self):
        a, s = self.agent, self.shapes
        d = int(a["hidden_size"])
        slope = float(a["lrelu_slope"])
        self.d = d
        self.act = nn.LeakyReLU(slope)
        # static: noise -> dense c_s->d -> BN -> LReLU -> repeat -> first dropout -> dense -> LReLU
        self.static_noise = _GaussianNoise(a["noise_sd"])
        self.static_in = nn.Linear(s["static_channels"], d)
        self.static_norm = nn.BatchNorm1d(d)
        self.static_dropout = nn.Dropout(a["first_dropout"])
        self.static_out = nn.Linear(d, d)
        # history: dense c_h->d -> LReLU -> dropout -> conv τ_h->d -> LReLU -> mixed op
        self.history_in = nn.Linear(s["history_channels"], d)
        self.history_dropout = nn.Dropout(a["dropout"])
        self.history_embed = CausalConv1d(s["history_steps"], d, int(a["history_embed_kernel"]))
        self.history_cell = MixedOp(
            {
                "attention": _Attention(d, int(a["history_heads"])),
                "conv1d": _TimeConv(d, int(a["history_conv_kernel"])),
                "bigru": _BiGRU(d),
            }
        )
        # forecasts: mixed collapse c_f -> dense τ_f->d -> LReLU -> conv f_f->d -> mixed op
        self.forecast_collapse = MixedOp(
            {
                "conv2d": _Collapse2d(
                    s["forecast_channels"],
                    int(a["forecast_collapse_height"]),
                    int(a["forecast_collapse_width"]),
                ),
                "dense": _DenseCollapse(s["forecast_channels"]),
            }
        )
        self.forecast_in = nn.Linear(s["forecast_steps"], d)
        self.forecast_embed = CausalConv1d(s["n_forecasts"], d, int(a["forecast_embed_kernel"]))
        self.forecast_cell = MixedOp(
            {
                "attention": _Attention(d, int(a["forecast_heads"])),
                "conv1d": _TimeConv(d, int(a["forecast_conv_kernel"])),
                "bigru": _BiGRU(d),
            }
        )
        self.scales = nn.Parameter(torch.ones(3))  # static, history, forecasts
        self.norm = {
            "layer": lambda: nn.LayerNorm(d),
            "batch": lambda: _ChannelBatchNorm(d),
            "none": nn.Identity,
        }[a["normalisation"]]()
        # output: conv d->τ_t (time as channels) -> LN -> LReLU -> conv d->c_t over time
        #         -> LReLU -> dense c_t->c_t
        self.out_temporal = CausalConv1d(d, s["target_steps"], int(a["output_temporal_kernel"]))
        self.out_norm = nn.LayerNorm(d)
        self.out_features = CausalConv1d(d, s["n_quantiles"], int(a["output_feature_kernel"]))
        self.out_dense = nn.Linear(s["n_quantiles"], s["n_quantiles"])

    @classmethod
    def from_data(cls, agent: Mapping, data, *, n_quantiles: int, seed: int | None = None):
        """A PTN whose shapes are read from a data set (see :func:`as_tensors`).

        Examples
        --------
        >>> import numpy as np
        >>> from fairbook.forecasting.space import make_space, sample, Choice
        >>> agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(0))
        >>> data = {"static": np.zeros((2, 3)), "history": np.zeros((2, 4, 3)),
        ...         "forecasts": np.zeros((2, 5, 4, 3)), "target": np.zeros((2, 6))}
        >>> PTN.from_data(agent, data, n_quantiles=7).shapes["target_steps"]
        6
        """
        t = as_tensors(data)
        return cls(
            agent,
            static_channels=t["static"].shape[1],
            history_steps=t["history"].shape[1],
            history_channels=t["history"].shape[2],
            n_forecasts=t["forecasts"].shape[1],
            forecast_steps=t["forecasts"].shape[2],
            forecast_channels=t["forecasts"].shape[3],
            target_steps=t["target"].shape[1],
            n_quantiles=n_quantiles,
            seed=seed,
        )

    def _check_inputs(self, static, history, forecasts):
        s = self.shapes
        expected = {
            "static": (static, (s["static_channels"],)),
            "history": (history, (s["history_steps"], s["history_channels"])),
            "forecasts": (
                forecasts,
                (s["n_forecasts"], s["forecast_steps"], s["forecast_channels"]),
            ),
        }
        n = static.shape[0] if static.ndim else None
        for name, (x, shape) in expected.items():
            if tuple(x.shape[1:]) != shape or x.ndim != len(shape) + 1 or x.shape[0] != n:
                raise ValueError(
                    f"{name} must be shaped (N, {', '.join(map(str, shape))}) "
                    f"with the same N; got {tuple(x.shape)}"
                )

    # the three embeddings, each (N, d, d) = (time, channels)
    def embed_static(self, static):
        x = self.act(self.static_norm(self.static_in(self.static_noise(static))))
        x = x[:, None, :].expand(-1, self.d, -1)
        return self.act(self.static_out(self.static_dropout(x)))

    def embed_history(self, history):
        x = self.history_dropout(self.act(self.history_in(history)))  # (N, τ_h, d)
        x = self.act(self.history_embed(x))  # (N, d, d)
        return self.history_cell(x)

    def embed_forecasts(self, forecasts):
        x = self.forecast_collapse(forecasts)  # (N, f_f, τ_f)
        x = self.act(self.forecast_in(x))  # (N, f_f, d)
        x = self.forecast_embed(x)  # (N, d, d)
        return self.forecast_cell(x)

    def head(self, fused):
        """Normalisation and output block: ``(N, d, d) → (N, τ_t, c_t)``."""
        x = self.out_temporal(self.norm(fused))  # (N, τ_t, d)
        x = self.act(self.out_norm(x))
        x = self.act(self.out_features(x.transpose(1, 2)).transpose(1, 2))  # (N, τ_t, c_t)
        return self.out_dense(x)

    def forward(self, static, history, forecasts):
        """Quantile forecasts ``(N, τ_t, c_t)`` from the three inputs."""
        self._check_inputs(static, history, forecasts)
        fused = (
            self.scales[0] * self.embed_static(static)
            + self.scales[1] * self.embed_history(history)
            + self.scales[2] * self.embed_forecasts(forecasts)
        )
        return self.head(fused)

    # DARTS bookkeeping
    def mixed_ops(self) -> dict[str, MixedOp]:
        """The hypermodel subspaces by name."""
        return {
            "history": self.history_cell,
            "forecast_collapse": self.forecast_collapse,
            "forecasts": self.forecast_cell,
        }

    def architecture_parameters(self) -> list[nn.Parameter]:
        """The ``α`` of every mixed operation."""
        return [op.alpha for op in self.mixed_ops().values()]

    def weight_parameters(self) -> list[nn.Parameter]:
        """Every other parameter (disjoint from :meth:`architecture_parameters`)."""
        arch = {id(p) for p in self.architecture_parameters()}
        return [p for p in self.parameters() if id(p) not in arch]

    def operation_weights(self) -> pd.DataFrame:
        """Tidy table (subspace, operation, weight, active) of the current softmax weights."""
        rows = []
        with torch.no_grad():
            for subspace, op in self.mixed_ops().items():
                for name, w, act in zip(
                    op.names, op.weights().tolist(), op.active.tolist(), strict=True
                ):
                    rows.append(
                        {"subspace": subspace, "operation": name, "weight": w, "active": act}
                    )
        return pd.DataFrame(rows)

    def chosen_operations(self) -> dict[str, str]:
        """The operation with the largest weight in each subspace."""
        return {
            subspace: op.names[int(torch.argmax(op.weights()))]
            for subspace, op in self.mixed_ops().items()
        }

    def prune(self, threshold: float) -> PTN:
        """Deactivate, in place, every operation whose weight is below ``threshold``."""
        if not 0 <= threshold <= 1:
            raise ValueError(f"threshold must be in [0, 1]; got {threshold!r}")
        for op in self.mixed_ops().values():
            op.prune(threshold)
        return self

    def derive(self) -> PTN:
        """Keep only the argmax operation of every subspace (in place; DARTS' discrete step)."""
        return self.prune(1.0)
