"""Deep ensembles (Lakshminarayanan et al. 2017) with the BNN's interface.

``n_members`` ordinary (deterministic) networks of the same architecture, trained on the
same data with cross-entropy and Adam, that differ **only by seed**: each member has its
own initialisation and its own minibatch order (streams derived from ``seed``). Their
``T = n_members`` predictions replace the BNN's Monte Carlo samples in seed 000's Eq. 7,
as the paper does for D-Vlog (Sec. 5.2). The adversarial training of the original paper is
left out.

All members train at once: their weights are stacked ``(E, in, out)`` and every step is
one batched product; because Adam acts elementwise and the members share no parameter,
this is the same computation as training them one after another (a test checks it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm.auto import tqdm

from fairbook.uncertainty.bayes_by_backprop import (
    check_X,
    check_Xy,
    seed_streams,
    softmax64,
    torch_threads,
    validation_split,
)

__all__ = ["DeepEnsemble", "StackedMLP"]


class StackedMLP(nn.Module):
    """``E`` independent MLPs held as stacked tensors; ReLU between layers.

    Member ``m`` is initialised from its own generator like :class:`torch.nn.Linear`
    (weights and biases uniform on ±1/√fan_in).
    """

    def __init__(self, sizes: Sequence[int], generators: Sequence[torch.Generator]):
        super().__init__()
        self.weights, self.biases = nn.ParameterList(), nn.ParameterList()
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:], strict=True):
            bound = 1.0 / math.sqrt(fan_in)
            w = torch.stack(
                [(torch.rand((fan_in, fan_out), generator=g) * 2 - 1) * bound for g in generators]
            )
            b = torch.stack(
                [(torch.rand(fan_out, generator=g) * 2 - 1) * bound for g in generators]
            )
            self.weights.append(nn.Parameter(w))
            self.biases.append(nn.Parameter(b))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits ``(E, B, C)`` for input ``(B, d)`` (shared) or ``(E, B, d)`` (per member)."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = torch.matmul(h, w) + b[:, None, :]
            if i < last:
                h = torch.relu(h)
        return h


class DeepEnsemble:
    """An ensemble of ``n_members`` MLPs whose predictions stand in for MC samples.

    Parameters
    ----------
    n_members : int, default 5
        Ensemble size; seed 000 uses 5 for D-Vlog.
    hidden_sizes : tuple of int, default ()
    epochs, batch_size, lr : training settings (Adam; ``lr`` default 0.01)
    validation_fraction, patience : early stopping per member on a shared validation split
        (0 disables it); each member keeps its own best epoch.
    seed : int, default 0
        The members' seeds are derived from it (numpy ``SeedSequence``).
    n_threads, progress : as for :class:`~fairbook.uncertainty.BNNClassifier`.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.r_[np.full((20, 1), -2.0), np.full((20, 1), 2.0)]
    >>> y = np.r_[np.zeros(20), np.ones(20)]
    >>> ens = DeepEnsemble(n_members=3, epochs=30, batch_size=8, seed=0).fit(X, y)
    >>> ens.predict_proba_samples(X).shape
    (3, 40, 2)
    >>> float((ens.predict(X) == y).mean())
    1.0
    """

    def __init__(
        self,
        n_members: int = 5,
        hidden_sizes: Sequence[int] = (),
        *,
        epochs: int = 10,
        batch_size: int = 256,
        lr: float = 0.01,
        validation_fraction: float = 0.1,
        patience: int = 3,
        seed: int = 0,
        n_threads: int | None = 1,
        progress: bool | None = None,
    ):
        self.n_members = int(n_members)
        self.hidden_sizes = tuple(int(h) for h in hidden_sizes)
        self.epochs, self.batch_size, self.lr = int(epochs), int(batch_size), float(lr)
        self.validation_fraction, self.patience = float(validation_fraction), int(patience)
        self.seed, self.n_threads, self.progress = int(seed), n_threads, progress
        for name in ("n_members", "epochs", "batch_size", "patience"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be ≥ 1, got {getattr(self, name)}")
        if any(h < 1 for h in self.hidden_sizes):
            raise ValueError(f"hidden sizes must be ≥ 1, got {self.hidden_sizes}")
        if not self.lr > 0:
            raise ValueError(f"lr must be > 0, got {self.lr}")

    def member_seeds(self) -> list[int]:
        """The seed of each member (initialisation and minibatch order)."""
        return seed_streams(self.seed, self.n_members + 1)[1:]

    def fit(self, X, y) -> DeepEnsemble:
        """Train every member (one batched step for all); returns ``self``."""
        X, y_index, self.classes_ = check_Xy(X, y)
        self.n_features_in_ = X.shape[1]
        s_split = seed_streams(self.seed, 1)[0]
        fit_rows, val_rows = validation_split(len(X), self.validation_fraction, s_split)
        seeds = self.member_seeds()
        sizes = (X.shape[1], *self.hidden_sizes, self.classes_.size)
        with torch_threads(self.n_threads):
            self.network_ = StackedMLP(sizes, [torch.Generator().manual_seed(s) for s in seeds])
            self.history_ = self._train(
                torch.from_numpy(X), torch.from_numpy(y_index), fit_rows, val_rows, seeds
            )
        return self

    def _train(self, X, y, fit_rows, val_rows, seeds):
        E, n_classes = self.n_members, self.classes_.size
        rngs = [np.random.default_rng(s) for s in seeds]
        optimiser = torch.optim.Adam(self.network_.parameters(), lr=self.lr)
        params = list(self.network_.parameters())
        best = torch.full((E,), math.inf, dtype=torch.float64)
        best_params = [p.detach().clone() for p in params]
        waited = np.zeros(E, dtype=int)
        active = np.ones(E, dtype=bool)
        self.best_epoch_ = np.zeros(E, dtype=int)
        history = []
        bar = tqdm(
            range(self.epochs),
            desc="ensemble epochs",
            leave=False,
            disable=None if self.progress is None else not self.progress,
        )
        for epoch in bar:
            orders = np.stack([fit_rows[r.permutation(fit_rows.size)] for r in rngs])
            total, steps = 0.0, 0
            for start in range(0, fit_rows.size, self.batch_size):
                rows = torch.from_numpy(orders[:, start : start + self.batch_size])
                logits = self.network_(X[rows])  # (E, B, C)
                losses = (
                    F.cross_entropy(
                        logits.reshape(-1, n_classes), y[rows].reshape(-1), reduction="none"
                    )
                    .view(E, -1)
                    .mean(dim=1)
                )
                optimiser.zero_grad()
                losses.sum().backward()
                optimiser.step()
                total += float(losses.detach().mean())
                steps += 1
            record = {"epoch": epoch + 1, "nll": total / steps}
            if val_rows.size:
                with torch.no_grad():
                    val = (
                        F.cross_entropy(
                            self.network_(X[val_rows]).double().reshape(-1, n_classes),
                            y[val_rows].repeat(E),
                            reduction="none",
                        )
                        .view(E, -1)
                        .mean(dim=1)
                    )
                improved = torch.from_numpy(active) & (val < best)
                best = torch.where(improved, val, best)
                for p, kept in zip(params, best_params, strict=True):
                    kept[improved] = p.detach()[improved]
                improved_np = improved.numpy()
                self.best_epoch_[improved_np] = epoch + 1
                waited = np.where(improved_np, 0, waited + active)
                active &= waited < self.patience
                record["val_nll"] = val.numpy().copy()
            history.append(record)
            if val_rows.size and not active.any():
                break
        if val_rows.size:
            with torch.no_grad():
                for p, kept in zip(params, best_params, strict=True):
                    p.copy_(kept)
        else:
            self.best_epoch_[:] = len(history)
        self.n_epochs_ = len(history)
        return history

    def predict_proba_samples(self, X, T: int | None = None) -> np.ndarray:
        """Each member's class probabilities, ``(T, N, C)``; ``T`` ≤ ``n_members``
        (default all) takes the first ``T`` members."""
        if not hasattr(self, "network_"):
            raise ValueError("this DeepEnsemble is not fitted yet; call fit(X, y) first")
        T = self.n_members if T is None else int(T)
        if not 1 <= T <= self.n_members:
            raise ValueError(f"T must be between 1 and n_members={self.n_members}, got {T}")
        array = torch.from_numpy(check_X(X, n_features=self.n_features_in_))
        with torch_threads(self.n_threads), torch.no_grad():
            return softmax64(self.network_(array))[:T]

    def predict_proba(self, X, T: int | None = None) -> np.ndarray:
        """Mean of the members' probabilities, ``(N, C)``."""
        return self.predict_proba_samples(X, T).mean(axis=0)

    def predict(self, X, T: int | None = None) -> np.ndarray:
        """Class of the largest mean probability."""
        return self.classes_[self.predict_proba(X, T).argmax(axis=1)]
