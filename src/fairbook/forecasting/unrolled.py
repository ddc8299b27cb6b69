"""Second-order DARTS: the architecture gradient at the one-step-unrolled weights
(Liu et al. 2019, Eq. 6-8; seed 003's chapter 5 uses DARTS without saying which order).

First-order DARTS (:func:`~fairbook.forecasting.darts.train_darts`) steps the architecture
parameters ``α`` along ``∇_α L_val(w, α)``. The second-order version steps along the gradient
at the weights one virtual SGD step ahead, ``w' = w − ξ ∇_w L_train(w, α)``:

    ∇_α L_val(w', α) − ξ ∇²_{α,w} L_train(w, α) · ∇_{w'} L_val(w', α),

with the Hessian-vector product taken by central differences at
``w± = w ± ε ∇_{w'} L_val(w', α)``, ``ε = 0.01 / ‖∇_{w'} L_val‖`` (Liu et al.'s Eq. 8). An
architecture step costs four forward-backward passes instead of one.

Two decisions the DARTS paper does not need (its search cell has no dropout) and a PTN does:
the three passes on the training batch (at ``w``, ``w+`` and ``w−``) replay the same random
state, so dropout and noise draw the same masks and the difference measures the weights, not
the masks; and the batch-norm running statistics are restored after the unrolled step, so
the virtual weights never leak into them. ``ξ`` is the weight optimiser's current learning
rate, as in Liu et al.

This module is separate from :mod:`~fairbook.forecasting.darts` on purpose: that module's
source is part of chapter 08's recorded fingerprints, and the first-order trainer is
unchanged here (the training loop below mirrors it line for line but for the architecture
step; ``tests/forecasting/test_unrolled.py`` checks that with ``ξ = 0`` the two give the
same gradients).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from .crps import OMEGA, ordered_crps
from .darts import _Batches, _device, _optimiser_settings, _set_trainable, _step
from .ptn import as_tensors

__all__ = ["train_darts_second_order", "unrolled_architecture_gradient"]

#: Liu et al.'s finite-difference scale: ε = 0.01 / ‖∇_{w'} L_val‖.
EPSILON_SCALE = 0.01


def _loss(model, batch, omega):
    out = model(batch["static"], batch["history"], batch["forecasts"])
    return ordered_crps(out, batch["target"], omega=omega)


def _rng_state(device: torch.device):
    state = {"cpu": torch.get_rng_state()}
    if device.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state(device)
    return state


def _set_rng_state(state, device: torch.device):
    torch.set_rng_state(state["cpu"])
    if "cuda" in state:
        torch.cuda.set_rng_state(state["cuda"], device)


def _grads(loss, params):
    grads = torch.autograd.grad(loss, params, allow_unused=True)
    return [torch.zeros_like(p) if g is None else g for p, g in zip(params, grads, strict=True)]


def unrolled_architecture_gradient(
    model,
    train_batch: Mapping,
    val_batch: Mapping,
    *,
    xi: float,
    omega: float = OMEGA,
    epsilon_scale: float = EPSILON_SCALE,
) -> tuple[list[torch.Tensor], float]:
    """DARTS' second-order architecture gradient and the validation loss at the unrolled
    weights.

    Parameters
    ----------
    model : PTN
        Any module with ``forward(static, history, forecasts)``,
        ``architecture_parameters()`` and ``weight_parameters()``. Its weights, buffers and
        the random state after the call are as before it but for the draws of the
        validation pass.
    train_batch, val_batch : mapping of str to torch.Tensor
        ``static, history, forecasts, target`` of one minibatch each.
    xi : float
        The virtual step's learning rate (``0`` gives the first-order gradient).
    omega : float, default 0.0075
        Weight of the ordering penalty (Eq. 5.9).
    epsilon_scale : float, default 0.01
        The finite difference's step is ``epsilon_scale / ‖∇_{w'} L_val‖`` (Liu et al.: 0.01).
        The loss is piecewise linear in the network's outputs (pinball losses), so a step
        that crosses a kink leaves a truncation error of a few per cent in the
        Hessian-vector term; smaller steps shrink it until float32 rounding takes over.

    Returns
    -------
    gradients : list of torch.Tensor
        One per architecture parameter, in ``model.architecture_parameters()`` order.
    val_loss : float
        ``L_val(w', α)``.

    Examples
    --------
    >>> from fairbook.forecasting.space import make_space, sample, Choice
    >>> from fairbook.forecasting.ptn import PTN, as_tensors
    >>> rng = np.random.default_rng(0)
    >>> data = as_tensors({"static": rng.normal(size=(16, 3)),
    ...     "history": rng.normal(size=(16, 4, 3)), "forecasts": rng.normal(size=(16, 2, 4, 3)),
    ...     "target": rng.normal(size=(16, 4))})
    >>> net = PTN.from_data(sample(make_space(hidden_size=Choice([24])), rng), data,
    ...                     n_quantiles=5, seed=0)
    >>> grads, loss = unrolled_architecture_gradient(net, data, data, xi=0.01)
    >>> arch = net.architecture_parameters()
    >>> len(grads) == len(arch) and all(g.shape == a.shape for g, a in zip(grads, arch))
    True
    """
    if not np.isfinite(xi) or xi < 0:
        raise ValueError(f"xi must be a finite number >= 0; got {xi!r}")
    if not np.isfinite(epsilon_scale) or epsilon_scale <= 0:
        raise ValueError(f"epsilon_scale must be a finite number > 0; got {epsilon_scale!r}")
    arch, weights = model.architecture_parameters(), model.weight_parameters()
    device = _device(model)
    buffers = [b.detach().clone() for b in model.buffers()]
    original = [w.detach().clone() for w in weights]
    train_state = _rng_state(device)
    try:
        # the virtual step w' = w - xi * grad_w L_train(w, alpha)
        grad_train = _grads(_loss(model, train_batch, omega), weights)
        with torch.no_grad():
            for w, g in zip(weights, grad_train, strict=True):
                w.sub_(xi * g)
        val_loss = _loss(model, val_batch, omega)
        grads = _grads(val_loss, [*arch, *weights])
        after_val = _rng_state(device)
        grad_arch, grad_weights = grads[: len(arch)], grads[len(arch) :]
        norm = torch.sqrt(sum((g.double() ** 2).sum() for g in grad_weights))
        if xi == 0 or float(norm) == 0.0:
            return [g.detach() for g in grad_arch], float(val_loss.detach())
        eps = epsilon_scale / float(norm)
        sides = []
        for sign in (1.0, -1.0):
            with torch.no_grad():
                for w, w0, v in zip(weights, original, grad_weights, strict=True):
                    w.copy_(w0 + sign * eps * v)
            _set_rng_state(train_state, device)
            sides.append(_grads(_loss(model, train_batch, omega), arch))
        hessian_vector = [(p - m) / (2 * eps) for p, m in zip(*sides, strict=True)]
        gradients = [(g - xi * h).detach() for g, h in zip(grad_arch, hessian_vector, strict=True)]
        _set_rng_state(after_val, device)
        return gradients, float(val_loss.detach())
    finally:
        with torch.no_grad():
            for w, w0 in zip(weights, original, strict=True):
                w.copy_(w0)
            for b, b0 in zip(model.buffers(), buffers, strict=True):
                b.copy_(b0)


def train_darts_second_order(
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
    """Train a PTN's weights and architecture with second-order DARTS.

    The same schedule, optimisers, plateau schedules and minibatches as
    :func:`~fairbook.forecasting.darts.train_darts`, but each architecture step follows
    :func:`unrolled_architecture_gradient` (with ``ξ`` the weight optimiser's current
    learning rate) and draws one extra training minibatch for its virtual step. ``val_loss``
    is the validation loss at the unrolled weights.

    Parameters
    ----------
    model, neural_train, neural_val, epochs, arch_steps, weight_steps, batch_size, agent, \
omega, weight_decay, seed, progress
        As for :func:`~fairbook.forecasting.darts.train_darts`.

    Returns
    -------
    pandas.DataFrame
        One row per epoch, the columns of :func:`~fairbook.forecasting.darts.train_darts`.

    Examples
    --------
    >>> from fairbook.forecasting.space import make_space, sample, Choice
    >>> from fairbook.forecasting.ptn import PTN
    >>> rng = np.random.default_rng(0)
    >>> data = {"static": rng.normal(size=(32, 3)), "history": rng.normal(size=(32, 4, 3)),
    ...         "forecasts": rng.normal(size=(32, 2, 4, 3)), "target": rng.normal(size=(32, 4))}
    >>> agent = sample(make_space(hidden_size=Choice([24])), rng)
    >>> net = PTN.from_data(agent, data, n_quantiles=5, seed=0)
    >>> hist = train_darts_second_order(net, data, data, epochs=2, arch_steps=1,
    ...                                 weight_steps=2, batch_size=16, progress=False)
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

    def arch_step() -> float:
        xi = weight_opt.param_groups[0]["lr"]
        grads, loss = unrolled_architecture_gradient(
            model, train_batches.next(), val_batches.next(), xi=xi, omega=omega
        )
        arch_opt.zero_grad(set_to_none=True)
        for p, g in zip(arch_params, grads, strict=True):
            p.grad = g
        arch_opt.step()
        return loss

    rows = []
    model.train()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(int(seed))
        bar = tqdm(
            range(1, int(epochs) + 1),
            desc="DARTS (2nd order)",
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
                losses = [arch_step() for _ in range(int(arch_steps))]
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
    columns = ["epoch", "train_loss", "val_loss", "weight_lr", "arch_lr"]
    frame = pd.DataFrame(rows)
    return (
        frame[columns + [c for c in frame.columns if c not in columns]]
        if rows
        else pd.DataFrame(columns=columns)
    )
