"""First-order DARTS training of a PTN (seed 003, Sec. 5.4.1; Liu et al. 2019).

Two AdamW optimisers: one over the *weight* parameters, trained on the neural-training
partition, one over the *architecture* parameters (the mixed operations' ``α``), trained on
the neural-validation partition. Each epoch runs, in this order,

1. ``weight_steps`` minibatch steps on the weights (``α`` frozen), then
2. ``arch_steps`` minibatch steps on ``α`` (weights frozen).

This is DARTS' **first-order** approximation: the architecture gradient is taken at the
current weights ``w`` rather than at the one-step-unrolled ``w − ξ∇_w L_train``. Both phases
run the network in training mode (dropout, noise and batch-norm statistics active), as Liu et
al. do. Minibatches are drawn without replacement from a shuffled permutation of each
partition, reshuffled when it runs out, so an epoch is a fixed number of *steps*, not a pass
over the data (the paper: 10 weight and 5 architecture steps of batch 64 per epoch).

Each optimiser has its own ``ReduceLROnPlateau(patience=1, factor=0.1)`` stepped once per
epoch on its phase's mean loss: the learning rate drops tenfold once the loss has failed to
beat the best seen for two consecutive epochs. The loss is Eq. 5.9, ``CRPS + ω·O``.

The data stay where they are given (CPU tensors or arrays); each minibatch is moved to the
device of the model's parameters, so ``model.to("cuda")`` is all a GPU run needs (bit-for-bit
reproducibility is promised on CPU only).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from .crps import OMEGA, crps, ordered_crps
from .ptn import as_tensors

__all__ = [
    "evaluate_crps",
    "make_evaluate",
    "scoring_subset",
    "subset_rank_correlation",
    "train_darts",
]


class _Batches:
    """Endless minibatches without replacement from a seeded permutation."""

    def __init__(self, tensors: dict, batch_size: int, generator: torch.Generator, device):
        self.tensors = {k: v.to(device) for k, v in tensors.items()}
        self.n = next(iter(tensors.values())).shape[0]
        self.batch_size = min(batch_size, self.n)
        self.generator = generator
        self.order = torch.empty(0, dtype=torch.long)

    def next(self) -> dict:
        if len(self.order) < self.batch_size:
            self.order = torch.randperm(self.n, generator=self.generator)
        index, self.order = self.order[: self.batch_size], self.order[self.batch_size :]
        return {k: v[index.to(v.device)] for k, v in self.tensors.items()}


def _optimiser_settings(agent: Mapping, prefix: str) -> dict:
    try:
        return {
            "lr": float(agent[f"{prefix}_lr"]),
            "betas": (float(agent[f"{prefix}_beta1"]), float(agent[f"{prefix}_beta2"])),
        }
    except KeyError as err:
        raise ValueError(f"agent lacks optimiser gene {err.args[0]!r}") from None


def _step(model, batch, optimiser, omega):
    optimiser.zero_grad(set_to_none=True)
    out = model(batch["static"], batch["history"], batch["forecasts"])
    loss = ordered_crps(out, batch["target"], omega=omega)
    loss.backward()
    optimiser.step()
    return float(loss.detach())


def _device(model) -> torch.device:
    """Where the model's parameters live (the data is moved there batch by batch)."""
    return next(iter(model.parameters()), torch.empty(0)).device


def _set_trainable(params, flag: bool):
    for p in params:
        p.requires_grad_(flag)


def train_darts(
    model,
    neural_train,
    neural_val,
    *,
    epochs: int = 30,
    arch_steps: int = 5,
    weight_steps: int = 10,
    batch_size: int = 64,
    agent: Mapping | None = None,
    omega: float = OMEGA,
    weight_decay: float = 0.01,
    seed: int = 0,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Train a PTN's weights and architecture with first-order DARTS.

    Parameters
    ----------
    model : PTN
        Any module with ``forward(static, history, forecasts)``,
        ``architecture_parameters()``, ``weight_parameters()`` and ``operation_weights()``.
        Trained in place.
    neural_train, neural_val : mapping or object
        The two partitions (``static, history, forecasts, target``; see
        :func:`~fairbook.forecasting.ptn.as_tensors`).
    epochs, arch_steps, weight_steps, batch_size : int
        The paper: 30, 5, 10, 64.
    agent : mapping, optional
        Supplies ``arch_lr, arch_beta1, arch_beta2, weight_lr, weight_beta1, weight_beta2``;
        default ``model.agent``.
    omega : float, default 0.0075
        Weight of the ordering penalty (Eq. 5.9).
    weight_decay : float, default 0.01
        AdamW's decoupled weight decay (PyTorch's default), both optimisers.
    seed : int, default 0
        Seeds the minibatch order, dropout and noise; the global torch RNG is left untouched.
    progress : bool, optional
        Show a progress bar (``None``: only on a terminal or notebook).

    Returns
    -------
    pandas.DataFrame
        One row per epoch: ``epoch, train_loss, val_loss, weight_lr, arch_lr`` (the rates
        used in that epoch) and one ``weight:<subspace>/<operation>`` column per candidate
        operation (softmax weight at the end of the epoch).

    Examples
    --------
    >>> from fairbook.forecasting.space import make_space, sample, Choice
    >>> from fairbook.forecasting.ptn import PTN
    >>> rng = np.random.default_rng(0)
    >>> data = {"static": rng.normal(size=(32, 3)), "history": rng.normal(size=(32, 4, 3)),
    ...         "forecasts": rng.normal(size=(32, 2, 4, 3)), "target": rng.normal(size=(32, 4))}
    >>> agent = sample(make_space(hidden_size=Choice([24])), rng)
    >>> net = PTN.from_data(agent, data, n_quantiles=5, seed=0)
    >>> hist = train_darts(net, data, data, epochs=2, arch_steps=1, weight_steps=2,
    ...                    batch_size=16, progress=False)
    >>> list(hist["epoch"])
    [1, 2]
    """
    for name, value in {
        "epochs": epochs,
        "arch_steps": arch_steps,
        "weight_steps": weight_steps,
    }.items():
        if int(value) != value or value < 0:
            raise ValueError(f"{name} must be a non-negative integer; got {value!r}")
    if int(batch_size) != batch_size or batch_size < 2:
        raise ValueError(f"batch_size must be an integer >= 2 (batch norm); got {batch_size!r}")
    agent = getattr(model, "agent", None) if agent is None else agent
    if agent is None:
        raise ValueError("pass agent= (the model has no .agent) for the optimiser genes")
    train, val = as_tensors(neural_train), as_tensors(neural_val)
    arch_params, weight_params = model.architecture_parameters(), model.weight_parameters()
    if {id(p) for p in arch_params} & {id(p) for p in weight_params}:
        raise ValueError("architecture and weight parameters overlap")

    weight_opt = torch.optim.AdamW(
        weight_params, weight_decay=weight_decay, **_optimiser_settings(agent, "weight")
    )
    arch_opt = torch.optim.AdamW(
        arch_params, weight_decay=weight_decay, **_optimiser_settings(agent, "arch")
    )
    weight_sched = torch.optim.lr_scheduler.ReduceLROnPlateau(weight_opt, patience=1, factor=0.1)
    arch_sched = torch.optim.lr_scheduler.ReduceLROnPlateau(arch_opt, patience=1, factor=0.1)

    generator = torch.Generator().manual_seed(int(seed))
    device = _device(model)
    train_batches = _Batches(train, int(batch_size), generator, device)
    val_batches = _Batches(val, int(batch_size), generator, device)
    rows = []
    model.train()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(int(seed))
        bar = tqdm(
            range(1, int(epochs) + 1),
            desc="DARTS",
            leave=False,
            disable=None if progress is None else not progress,
        )
        try:
            for epoch in bar:
                row = {
                    "epoch": epoch,
                    "weight_lr": weight_opt.param_groups[0]["lr"],
                    "arch_lr": arch_opt.param_groups[0]["lr"],
                }
                _set_trainable(arch_params, False)
                losses = [
                    _step(model, train_batches.next(), weight_opt, omega)
                    for _ in range(int(weight_steps))
                ]
                _set_trainable(arch_params, True)
                row["train_loss"] = float(np.mean(losses)) if losses else float("nan")
                _set_trainable(weight_params, False)
                losses = [
                    _step(model, val_batches.next(), arch_opt, omega)
                    for _ in range(int(arch_steps))
                ]
                _set_trainable(weight_params, True)
                row["val_loss"] = float(np.mean(losses)) if losses else float("nan")
                if weight_steps:
                    weight_sched.step(row["train_loss"])
                if arch_steps:
                    arch_sched.step(row["val_loss"])
                for r in model.operation_weights().itertuples():
                    row[f"weight:{r.subspace}/{r.operation}"] = r.weight
                rows.append(row)
                bar.set_postfix(train=row["train_loss"], val=row["val_loss"])
        finally:
            _set_trainable(arch_params, True)
            _set_trainable(weight_params, True)
    columns = ["epoch", "train_loss", "val_loss", "weight_lr", "arch_lr"]
    frame = pd.DataFrame(rows)
    return (
        frame[columns + [c for c in frame.columns if c not in columns]]
        if rows
        else pd.DataFrame(columns=columns)
    )


def evaluate_crps(model, data, *, batch_size: int = 256) -> np.ndarray:
    """CRPS (Eq. 5.7, mean over the target steps) of every window, in eval mode, no grad.

    Parameters
    ----------
    model : torch.nn.Module
        ``forward(static, history, forecasts) -> (N, τ_t, c_t)``.
    data : mapping or object
        With ``static, history, forecasts, target``.
    batch_size : int, default 256

    Returns
    -------
    numpy.ndarray, shape (N,)

    Examples
    --------
    >>> class Zero(torch.nn.Module):
    ...     def forward(self, s, h, f):
    ...         return torch.zeros(len(s), 2, 3)
    >>> data = {"static": np.zeros((2, 1)), "history": np.zeros((2, 1, 1)),
    ...         "forecasts": np.zeros((2, 1, 1, 1)), "target": [[0.0, 0.0], [1.0, 1.0]]}
    >>> evaluate_crps(Zero(), data).tolist()
    [0.0, 1.0]
    """
    if int(batch_size) != batch_size or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer; got {batch_size!r}")
    t = as_tensors(data)
    n = t["target"].shape[0]
    was_training = model.training
    device = _device(model)
    model.eval()
    scores = []
    try:
        with torch.no_grad():
            for start in range(0, n, int(batch_size)):
                batch = {k: v[start : start + int(batch_size)].to(device) for k, v in t.items()}
                out = model(batch["static"], batch["history"], batch["forecasts"])
                if tuple(out.shape[:2]) != tuple(batch["target"].shape):
                    raise ValueError(
                        f"model output {tuple(out.shape)} does not match targets "
                        f"{tuple(batch['target'].shape)}"
                    )
                scores.append(crps(out, batch["target"]).double().cpu().numpy())
    finally:
        model.train(was_training)
    return np.concatenate(scores) if scores else np.empty(0)


def scoring_subset(n: int, size: int | None, *, seed: int = 0) -> np.ndarray:
    """Sorted indices of a fixed random subset of ``size`` of ``n`` windows (all if ``None``).

    Drawn without replacement by ``numpy.random.default_rng(seed)``; a ``size`` of ``n`` or
    more keeps every window, in order.

    Examples
    --------
    >>> scoring_subset(5, None).tolist(), scoring_subset(5, 9).tolist()
    ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    >>> len(scoring_subset(100, 10, seed=1)), len(set(scoring_subset(100, 10, seed=1)))
    (10, 10)
    """
    if int(n) != n or n < 0:
        raise ValueError(f"n must be a non-negative integer; got {n!r}")
    if size is None or size >= n:
        return np.arange(int(n))
    if int(size) != size or size < 1:
        raise ValueError(f"size must be a positive integer or None; got {size!r}")
    rng = np.random.default_rng(int(seed))
    return np.sort(rng.choice(int(n), size=int(size), replace=False))


def subset_rank_correlation(scores, size: int, *, seed: int = 0) -> float:
    """Spearman correlation between candidates' mean scores on all windows and on a subset.

    Parameters
    ----------
    scores : array_like, shape (K, N)
        Per-window scores (e.g. CRPS from :func:`evaluate_crps`) of ``K`` candidates on the
        same ``N`` windows.
    size : int
        Windows in the subset (:func:`scoring_subset` with ``seed``).
    seed : int, default 0

    Returns
    -------
    float
        1 when the subset ranks the candidates as all windows do; NaN with fewer than two
        candidates or when either ranking is constant.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> scores = np.arange(4.0)[:, None] + rng.normal(0, 0.01, size=(4, 500))
    >>> float(subset_rank_correlation(scores, 50))
    1.0
    """
    from scipy.stats import spearmanr

    s = np.asarray(scores, dtype=float)
    if s.ndim != 2:
        raise ValueError(f"scores must be shaped (K, N); got {s.shape}")
    if s.shape[0] < 2:
        return float("nan")
    full = s.mean(axis=1)
    part = s[:, scoring_subset(s.shape[1], size, seed=seed)].mean(axis=1)
    if np.ptp(full) == 0 or np.ptp(part) == 0:
        return float("nan")
    return float(spearmanr(full, part).statistic)


def _subset_tensors(tensors: dict, size: int | None, seed: int) -> dict:
    n = next(iter(tensors.values())).shape[0]
    if size is None or size >= n:
        return tensors
    index = torch.as_tensor(scoring_subset(n, size, seed=seed))
    return {k: v[index] for k, v in tensors.items()}


def make_evaluate(
    neural_train,
    neural_val,
    genetic_train,
    genetic_val,
    *,
    n_quantiles: int,
    epochs: int = 30,
    arch_steps: int = 5,
    weight_steps: int = 10,
    batch_size: int = 64,
    omega: float = OMEGA,
    score_windows: int | None = None,
    score_seed: int = 0,
    device="cpu",
    progress: bool | None = False,
):
    """The ``evaluate(agent, seed) -> (f, f_v)`` of Algorithm 2 for PTN.

    Builds a :class:`~fairbook.forecasting.ptn.PTN` for the agent (initialised with
    ``seed``), trains it with :func:`train_darts` on the two neural partitions (minibatches,
    dropout and noise seeded with ``seed``), and returns the mean CRPS on the genetic-training
    and genetic-validation partitions. A network whose CRPS is not finite scores ``inf``.

    With ``score_windows`` the two genetic partitions are each scored on a fixed random
    subset of that many windows (:func:`scoring_subset` with ``score_seed``; the same subset
    for every candidate), which is what makes scoring affordable at the paper's scale, where
    it otherwise dominates the search; ``None`` (default) scores every window. ``device``
    is where the networks are built and trained (``"cuda"`` on a GPU; the data stay on the
    CPU and move there batch by batch).

    Examples
    --------
    >>> from fairbook.forecasting.space import make_space, sample, Choice
    >>> rng = np.random.default_rng(0)
    >>> data = {"static": rng.normal(size=(16, 3)), "history": rng.normal(size=(16, 4, 3)),
    ...         "forecasts": rng.normal(size=(16, 2, 4, 3)), "target": rng.normal(size=(16, 4))}
    >>> evaluate = make_evaluate(data, data, data, data, n_quantiles=5, epochs=1,
    ...                          weight_steps=1, arch_steps=1, batch_size=8)
    >>> f, f_v = evaluate(sample(make_space(hidden_size=Choice([24])), rng), 0)
    >>> f > 0 and f_v > 0
    True
    """
    from .ptn import PTN

    if score_windows is not None and (int(score_windows) != score_windows or score_windows < 1):
        raise ValueError(f"score_windows must be a positive integer or None; got {score_windows!r}")
    partitions = [as_tensors(p) for p in (neural_train, neural_val, genetic_train, genetic_val)]
    partitions[2:] = [_subset_tensors(p, score_windows, score_seed) for p in partitions[2:]]
    device = torch.device(device)

    def evaluate(agent, seed):
        model = PTN.from_data(agent, partitions[0], n_quantiles=n_quantiles, seed=seed)
        model.to(device)
        train_darts(
            model,
            partitions[0],
            partitions[1],
            epochs=epochs,
            arch_steps=arch_steps,
            weight_steps=weight_steps,
            batch_size=batch_size,
            omega=omega,
            seed=seed,
            progress=progress,
        )
        scores = [
            float(np.mean(evaluate_crps(model, p, batch_size=max(batch_size, 256))))
            for p in partitions[2:]
        ]
        return tuple(s if np.isfinite(s) else float("inf") for s in scores)

    return evaluate
