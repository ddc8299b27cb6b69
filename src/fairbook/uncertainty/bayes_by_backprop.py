"""Bayes by Backprop (Blundell et al. 2015) as seed 000 uses it (Sec. 5.2, Eq. 22).

Every weight and bias has a Gaussian posterior :math:`q(w) = \\mathcal N(\\mu, \\sigma^2)`
with :math:`\\sigma = \\log(1 + e^{\\rho})` (softplus) and is sampled by
reparameterisation, :math:`w = \\mu + \\sigma\\varepsilon`. The prior is Blundell et al.'s
scale mixture :math:`\\pi\\,\\mathcal N(0, \\sigma_1^2) + (1-\\pi)\\,\\mathcal N(0, \\sigma_2^2)`
with :math:`\\pi = 0.5`, :math:`\\sigma_1 = e^{0} = 1`, :math:`\\sigma_2 = e^{-6}` (ERRATA:
the paper's "σ1 and σ2 set to 0 and 6" are :math:`-\\log\\sigma`). Each minibatch step
minimises

.. math:: \\widehat{\\mathrm{KL}} + \\lambda \\cdot \\mathrm{NLL},\\qquad
    \\widehat{\\mathrm{KL}} = \\tfrac1M \\sum_{m=1}^M \\log q(\\omega_m) - \\log p(\\omega_m),

with :math:`M` = ``mc_train`` weight samples, NLL the cross-entropy averaged over the
minibatch and the :math:`M` samples, and Adam. Eq. 22 writes a *sum* over the M samples;
we average, which is the unbiased estimate of the KL divergence (a sum is the same
objective with :math:`\\lambda/M`). With the NLL a minibatch *mean*, the objective is the
evidence lower bound of a data set of :math:`\\lambda` points: λ plays the role of the
training-set size, so λ = 2000 tempers the likelihood on larger data (Adult: 30,162 rows)
and sharpens it on smaller (the synthetic sets: 320).

All ``M`` (training) or ``T`` (prediction) weight samples go through the network in one
batched matrix product, not a Python loop; ``benchmarks/bench_bnn.py`` times both.
"""

from __future__ import annotations

import contextlib
import copy
import math
from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm.auto import tqdm

__all__ = [
    "BNNClassifier",
    "BayesianLinear",
    "BayesianMLP",
    "ScaleMixturePrior",
    "check_X",
    "check_Xy",
    "torch_threads",
]

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


# --------------------------------------------------------------------------- helpers
@contextlib.contextmanager
def torch_threads(n_threads: int | None):
    """Run a block with ``torch.set_num_threads(n_threads)`` and restore the old value.

    ``None`` leaves the setting alone. One thread makes CPU results independent of the
    machine's core count.
    """
    if n_threads is None:
        yield
        return
    if int(n_threads) < 1:
        raise ValueError(f"n_threads must be ≥ 1 or None, got {n_threads!r}")
    old = torch.get_num_threads()
    torch.set_num_threads(int(n_threads))
    try:
        yield
    finally:
        torch.set_num_threads(old)


def check_X(X, *, n_features: int | None = None) -> np.ndarray:
    """Validate a feature matrix: 2-D, numeric, finite, non-empty; return float32.

    Examples
    --------
    >>> check_X([[0, 1]]).dtype
    dtype('float32')
    """
    try:
        array = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"X must be numeric: {error}") from error
    if array.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {array.shape}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"X must not be empty; got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("X must be finite (found NaN or inf)")
    if n_features is not None and array.shape[1] != n_features:
        raise ValueError(f"X has {array.shape[1]} features; the model was fitted with {n_features}")
    return array.astype(np.float32)


def check_Xy(X, y) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate training data; return ``X`` (float32), class indices and the classes.

    Raises
    ------
    ValueError
        For a bad ``X`` (see :func:`check_X`), a ``y`` that is not 1-D, has another length,
        holds missing values or fewer than two classes.
    """
    array = check_X(X)
    labels = np.asarray(y)
    if labels.ndim != 1 or labels.shape[0] != array.shape[0]:
        raise ValueError(
            f"y must be 1-D with one label per row of X ({array.shape[0]}); "
            f"got shape {labels.shape}"
        )
    if labels.dtype.kind == "f" and not np.isfinite(labels).all():
        raise ValueError("y must not hold NaN or inf")
    classes, index = np.unique(labels, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y must hold at least two classes; got {classes.tolist()}")
    return array, index.astype(np.int64), classes


def seed_streams(seed: int, n: int) -> list[int]:
    """``n`` independent 63-bit seeds derived from ``seed`` (numpy SeedSequence)."""
    states = np.random.SeedSequence(int(seed)).generate_state(n, dtype=np.uint64)
    return [int(s >> np.uint64(1)) for s in states]


def validation_split(n: int, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeded split of ``range(n)`` into fitting and validation indices.

    Examples
    --------
    >>> fit, val = validation_split(10, 0.2, 0)
    >>> len(fit), len(val)
    (8, 2)
    """
    if not 0.0 <= fraction < 1.0:
        raise ValueError(f"validation_fraction must be in [0, 1), got {fraction!r}")
    order = np.random.default_rng(seed).permutation(n)
    n_val = int(round(fraction * n))
    if fraction > 0 and (n_val == 0 or n_val == n):
        raise ValueError(f"validation_fraction={fraction} leaves no data on one side of {n} rows")
    return np.sort(order[n_val:]), np.sort(order[:n_val])


def softmax64(logits: torch.Tensor) -> np.ndarray:
    """Class probabilities in float64 (they sum to 1 to ~1e-16)."""
    return torch.softmax(logits.detach().double(), dim=-1).numpy()


# --------------------------------------------------------------------------- the model
class ScaleMixturePrior:
    """Blundell et al.'s prior :math:`\\pi N(0,\\sigma_1^2) + (1-\\pi) N(0,\\sigma_2^2)`.

    Examples
    --------
    >>> prior = ScaleMixturePrior(pi=1.0, sigma1=1.0, sigma2=1.0)
    >>> round(float(prior.log_prob(torch.tensor([0.0]))), 4)
    -0.9189
    """

    def __init__(self, *, pi: float = 0.5, sigma1: float = 1.0, sigma2: float = math.exp(-6)):
        if not 0.0 <= pi <= 1.0:
            raise ValueError(f"prior pi must be in [0, 1], got {pi!r}")
        if not (sigma1 > 0 and sigma2 > 0):
            raise ValueError(f"prior sigmas must be > 0, got {sigma1!r}, {sigma2!r}")
        self.pi, self.sigma1, self.sigma2 = float(pi), float(sigma1), float(sigma2)

    @property
    def is_gaussian(self) -> bool:
        """True when the mixture is one Gaussian (then the KL has a closed form)."""
        return self.pi in (0.0, 1.0) or self.sigma1 == self.sigma2

    @property
    def gaussian_sigma(self) -> float:
        if not self.is_gaussian:
            raise ValueError("the prior is a proper mixture; it has no single sigma")
        return self.sigma2 if self.pi == 0.0 else self.sigma1

    def log_prob(self, w: torch.Tensor) -> torch.Tensor:
        """Elementwise log density."""

        def log_normal(sigma):
            return -_LOG_SQRT_2PI - math.log(sigma) - 0.5 * (w / sigma) ** 2

        if self.pi == 1.0:
            return log_normal(self.sigma1)
        if self.pi == 0.0:
            return log_normal(self.sigma2)
        return torch.logaddexp(
            math.log(self.pi) + log_normal(self.sigma1),
            math.log1p(-self.pi) + log_normal(self.sigma2),
        )


class BayesianLinear(nn.Module):
    """A linear layer with a diagonal Gaussian posterior over weights and biases.

    Weights are stored as ``(in_features, out_features)``; posterior means start at
    :math:`\\mathcal N(0, \\text{mu\\_init\\_std}^2)` (seed 000: 0 and 1), ``ρ`` at
    ``rho_init`` (σ = softplus(ρ); −5 gives σ ≈ 0.0067).
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        *,
        prior: ScaleMixturePrior,
        generator: torch.Generator,
        mu_init_std: float = 1.0,
        rho_init: float = -5.0,
    ):
        super().__init__()
        self.in_features, self.out_features, self.prior = in_features, out_features, prior
        shape = (in_features, out_features)
        if mu_init_std == "fan_in":
            mu_init_std = 1.0 / math.sqrt(in_features)
        self.weight_mu = nn.Parameter(torch.randn(shape, generator=generator) * mu_init_std)
        self.bias_mu = nn.Parameter(torch.randn(out_features, generator=generator) * mu_init_std)
        self.weight_rho = nn.Parameter(torch.full(shape, float(rho_init)))
        self.bias_rho = nn.Parameter(torch.full((out_features,), float(rho_init)))

    def sample(self, n_samples: int, generator: torch.Generator):
        """``n_samples`` draws of (weights, biases) with their ``log q − log p`` each.

        Returns
        -------
        weight : Tensor (S, in, out)
        bias : Tensor (S, out)
        log_ratio : Tensor (S,)
            :math:`\\log q(\\omega_s) - \\log p(\\omega_s)` summed over this layer.
        """
        eps_w = torch.randn((n_samples, self.in_features, self.out_features), generator=generator)
        eps_b = torch.randn((n_samples, self.out_features), generator=generator)
        sigma_w, sigma_b = F.softplus(self.weight_rho), F.softplus(self.bias_rho)
        weight = self.weight_mu + sigma_w * eps_w
        bias = self.bias_mu + sigma_b * eps_b
        n_params = self.weight_mu.numel() + self.bias_mu.numel()
        log_q = (
            -n_params * _LOG_SQRT_2PI
            - torch.log(sigma_w).sum()
            - torch.log(sigma_b).sum()
            - 0.5 * (eps_w**2).sum(dim=(1, 2))
            - 0.5 * (eps_b**2).sum(dim=1)
        )
        log_p = self.prior.log_prob(weight).sum(dim=(1, 2)) + self.prior.log_prob(bias).sum(dim=1)
        return weight, bias, log_q - log_p

    def kl_closed_form(self) -> torch.Tensor:
        """Exact KL(q ‖ p) when the prior is one Gaussian (else ``ValueError``)."""
        s = self.prior.gaussian_sigma
        total = torch.zeros(())
        for mu, rho in ((self.weight_mu, self.weight_rho), (self.bias_mu, self.bias_rho)):
            sigma = F.softplus(rho)
            total = (
                total
                + (math.log(s) - torch.log(sigma) + (sigma**2 + mu**2) / (2 * s**2) - 0.5).sum()
            )
        return total


class BayesianMLP(nn.Module):
    """A stack of :class:`BayesianLinear` layers with ReLU between them.

    ``forward(x, n_samples, generator)`` draws ``n_samples`` networks and returns
    logits ``(S, B, C)`` and the per-sample ``log q − log p`` ``(S,)``, all in one batched
    product per layer.
    """

    def __init__(
        self,
        sizes: Sequence[int],
        *,
        prior: ScaleMixturePrior,
        generator: torch.Generator,
        mu_init_std: float = 1.0,
        rho_init: float = -5.0,
    ):
        super().__init__()
        self.layers = nn.ModuleList(
            BayesianLinear(
                a, b, prior=prior, generator=generator, mu_init_std=mu_init_std, rho_init=rho_init
            )
            for a, b in zip(sizes[:-1], sizes[1:], strict=True)
        )

    def sample(self, n_samples: int, generator: torch.Generator):
        draws = [layer.sample(n_samples, generator) for layer in self.layers]
        log_ratio = sum(d[2] for d in draws)
        return [(d[0], d[1]) for d in draws], log_ratio

    @staticmethod
    def apply(x: torch.Tensor, weights) -> torch.Tensor:
        """Logits ``(S, B, C)`` of input ``(B, d)`` under sampled ``weights``.

        The input is shared by all S networks, so the first layer is one matrix product
        ``(B, d) @ (d, S·out)`` rather than S products; later layers are batched.
        """
        h = x
        for i, (weight, bias) in enumerate(weights):
            if h.dim() == 2:
                n_samples, fan_in, fan_out = weight.shape
                stacked = weight.permute(1, 0, 2).reshape(fan_in, n_samples * fan_out)
                h = (h @ stacked).view(-1, n_samples, fan_out).transpose(0, 1)
                h = h + bias[:, None, :]
            else:
                h = torch.matmul(h, weight) + bias[:, None, :]
            if i < len(weights) - 1:
                h = torch.relu(h)
        return h

    def forward(self, x: torch.Tensor, n_samples: int, generator: torch.Generator):
        weights, log_ratio = self.sample(n_samples, generator)
        return self.apply(x, weights), log_ratio


# --------------------------------------------------------------------------- estimator
class BNNClassifier:
    """Bayes-by-Backprop classifier with seed 000's objective and defaults.

    Parameters
    ----------
    hidden_sizes : tuple of int, default ()
        Hidden layer widths; ``()`` is the paper's "no hidden layer" (synthetic, Adult),
        ``(100,)`` its COMPAS network.
    epochs : int, default 10
        Maximum number of epochs; early stopping picks the epoch with the lowest
        validation NLL (of the mean of ``T_val`` sampled predictions) and restores it.
    batch_size : int, default 256
    lam : float, default 2000
        λ of Eq. 22, the weight of the NLL against the KL term.
    mc_train : int, default 10
        Weight samples per minibatch step (``M``).
    lr : float, default 0.01
        Adam learning rate (not stated in the paper; see the chapter).
    prior_pi, prior_sigma1, prior_sigma2 : float
        The scale-mixture prior, default 0.5, 1, e^−6.
    mu_init_std, rho_init : float
        Posterior initialisation (means from N(0, 1) as the paper says; ρ = −5).
    validation_fraction : float, default 0.1
        Share of the training rows held out for early stopping (0 disables it).
    patience : int, default 3
        Epochs without improvement before stopping.
    T_val : int, default 10
        Weight samples of the validation predictions.
    seed : int, default 0
        Seeds initialisation, shuffling, weight noise and the validation split; the same
        seed gives the same model and samples on a CPU.
    n_threads : int or None, default 1
        torch threads while fitting and predicting (None: leave torch's setting).
    progress : bool or None, default None
        tqdm bar over epochs (None: only on a terminal).
    kl_reduction : {'mean', 'sum'}, default 'mean'
        How the ``M`` weight samples' :math:`\\log q - \\log p` enter the loss: averaged
        (the KL estimate) or summed, as Eq. 22 prints it (λ/M in effect).
    nll_reduction : {'mean', 'sum'}, default 'mean'
        The NLL averaged over the minibatch's rows or summed over them (λ·batch size in
        effect; a much smaller KL weight). Both average over the ``M`` samples.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.r_[np.full((20, 1), -2.0), np.full((20, 1), 2.0)]
    >>> y = np.r_[np.zeros(20), np.ones(20)]
    >>> model = BNNClassifier(epochs=20, batch_size=8, seed=0).fit(X, y)
    >>> model.predict_proba_samples(X, T=10).shape
    (10, 40, 2)
    >>> float((model.predict(X) == y).mean())
    1.0
    """

    def __init__(
        self,
        hidden_sizes: Sequence[int] = (),
        *,
        epochs: int = 10,
        batch_size: int = 256,
        lam: float = 2000.0,
        mc_train: int = 10,
        lr: float = 0.01,
        prior_pi: float = 0.5,
        prior_sigma1: float = 1.0,
        prior_sigma2: float = math.exp(-6),
        mu_init_std: float | str = 1.0,
        rho_init: float = -5.0,
        validation_fraction: float = 0.1,
        patience: int = 3,
        T_val: int = 10,
        seed: int = 0,
        n_threads: int | None = 1,
        progress: bool | None = None,
        kl_reduction: str = "mean",
        nll_reduction: str = "mean",
    ):
        self.hidden_sizes = tuple(int(h) for h in hidden_sizes)
        self.epochs, self.batch_size, self.lam = int(epochs), int(batch_size), float(lam)
        self.mc_train, self.lr = int(mc_train), float(lr)
        self.prior_pi, self.prior_sigma1, self.prior_sigma2 = prior_pi, prior_sigma1, prior_sigma2
        if mu_init_std != "fan_in":
            mu_init_std = float(mu_init_std)
        self.mu_init_std, self.rho_init = mu_init_std, float(rho_init)
        self.validation_fraction, self.patience = float(validation_fraction), int(patience)
        self.T_val, self.seed = int(T_val), int(seed)
        self.n_threads, self.progress = n_threads, progress
        for name in ("epochs", "batch_size", "mc_train", "patience", "T_val"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be ≥ 1, got {getattr(self, name)}")
        if any(h < 1 for h in self.hidden_sizes):
            raise ValueError(f"hidden sizes must be ≥ 1, got {self.hidden_sizes}")
        if not self.lam > 0 or not self.lr > 0:
            raise ValueError(f"lam and lr must be > 0, got {self.lam}, {self.lr}")
        for name, value in (("kl_reduction", kl_reduction), ("nll_reduction", nll_reduction)):
            if value not in ("mean", "sum"):
                raise ValueError(f"{name} must be 'mean' or 'sum', got {value!r}")
        self.kl_reduction, self.nll_reduction = kl_reduction, nll_reduction
        self.prior = ScaleMixturePrior(pi=prior_pi, sigma1=prior_sigma1, sigma2=prior_sigma2)

    # ---------------------------------------------------------------- fitting
    def _build(self, n_features: int, n_classes: int, generator: torch.Generator):
        sizes = (n_features, *self.hidden_sizes, n_classes)
        return BayesianMLP(
            sizes,
            prior=self.prior,
            generator=generator,
            mu_init_std=self.mu_init_std,
            rho_init=self.rho_init,
        )

    def fit(self, X, y) -> BNNClassifier:
        """Fit by minibatch Adam on KL + λ·NLL with early stopping; returns ``self``."""
        X, y_index, self.classes_ = check_Xy(X, y)
        self.n_features_in_ = X.shape[1]
        s_init, s_shuffle, s_noise, s_split, s_val = seed_streams(self.seed, 5)
        fit_rows, val_rows = validation_split(len(X), self.validation_fraction, s_split)
        with torch_threads(self.n_threads):
            self.network_ = self._build(
                X.shape[1], self.classes_.size, torch.Generator().manual_seed(s_init)
            )
            self.history_ = self._train(
                torch.from_numpy(X),
                torch.from_numpy(y_index),
                fit_rows,
                val_rows,
                s_shuffle,
                s_noise,
                s_val,
            )
        return self

    def _train(self, X, y, fit_rows, val_rows, s_shuffle, s_noise, s_val):
        rng = np.random.default_rng(s_shuffle)
        noise = torch.Generator().manual_seed(s_noise)
        optimiser = torch.optim.Adam(self.network_.parameters(), lr=self.lr)
        n_classes = self.classes_.size
        history, best, best_state, waited = [], math.inf, None, 0
        bar = tqdm(
            range(self.epochs),
            desc="BNN epochs",
            leave=False,
            disable=None if self.progress is None else not self.progress,
        )
        for epoch in bar:
            order = fit_rows[rng.permutation(fit_rows.size)]
            totals = np.zeros(3)
            for start in range(0, order.size, self.batch_size):
                rows = torch.from_numpy(order[start : start + self.batch_size])
                logits, log_ratio = self.network_(X[rows], self.mc_train, noise)
                nll = F.cross_entropy(logits.reshape(-1, n_classes), y[rows].repeat(self.mc_train))
                kl = log_ratio.mean() if self.kl_reduction == "mean" else log_ratio.sum()
                if self.nll_reduction == "sum":
                    nll = nll * rows.numel()
                loss = kl + self.lam * nll
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                totals += (loss.item(), kl.item(), nll.item())
            record = dict(
                zip(("loss", "kl", "nll"), totals / -(-order.size // self.batch_size), strict=True)
            )
            record["epoch"] = epoch + 1
            if val_rows.size:
                record["val_nll"] = self._predictive_nll(X[val_rows], y[val_rows], s_val)
                if record["val_nll"] < best:
                    best, waited = record["val_nll"], 0
                    best_state = copy.deepcopy(self.network_.state_dict())
                    self.best_epoch_ = epoch + 1
                else:
                    waited += 1
            history.append(record)
            if val_rows.size and waited >= self.patience:
                break
        if best_state is not None:
            self.network_.load_state_dict(best_state)
        else:
            self.best_epoch_ = len(history)
        self.n_epochs_ = len(history)
        return history

    def _predictive_nll(self, X, y, seed) -> float:
        with torch.no_grad():
            logits, _ = self.network_(X, self.T_val, torch.Generator().manual_seed(seed))
            mean = torch.softmax(logits.double(), dim=-1).mean(dim=0)
            return float(-torch.log(mean[torch.arange(len(y)), y].clamp_min(1e-300)).mean())

    # ---------------------------------------------------------------- prediction
    def _check_fitted(self):
        if not hasattr(self, "network_"):
            raise ValueError("this BNNClassifier is not fitted yet; call fit(X, y) first")

    def predict_proba_samples(
        self, X, T: int = 10, *, seed: int | None = None, chunk_size: int = 2048
    ) -> np.ndarray:
        """``T`` Monte Carlo predictions: class probabilities shaped ``(T, N, C)``.

        The ``T`` networks are drawn once and applied to every row (in chunks of
        ``chunk_size`` rows). ``seed`` defaults to one derived from the model's seed, so
        repeated calls return identical samples.
        """
        self._check_fitted()
        if int(T) < 1:
            raise ValueError(f"T must be ≥ 1, got {T!r}")
        array = torch.from_numpy(check_X(X, n_features=self.n_features_in_))
        seed = seed_streams(self.seed, 6)[5] if seed is None else int(seed)
        with torch_threads(self.n_threads), torch.no_grad():
            weights, _ = self.network_.sample(int(T), torch.Generator().manual_seed(seed))
            parts = [
                softmax64(BayesianMLP.apply(array[i : i + chunk_size], weights))
                for i in range(0, len(array), chunk_size)
            ]
        return np.concatenate(parts, axis=1)

    def predict_proba(self, X, T: int = 10, **kwargs) -> np.ndarray:
        """Mean of :meth:`predict_proba_samples` over the samples, ``(N, C)``."""
        return self.predict_proba_samples(X, T, **kwargs).mean(axis=0)

    def predict(self, X, T: int = 10, **kwargs) -> np.ndarray:
        """Class of the largest mean probability."""
        return self.classes_[self.predict_proba(X, T, **kwargs).argmax(axis=1)]

    def kl_estimate(self, n_samples: int = 1000, *, seed: int = 0) -> float:
        """Monte Carlo estimate of KL(q ‖ p) over the whole network (as in training)."""
        self._check_fitted()
        with torch.no_grad():
            _, log_ratio = self.network_.sample(int(n_samples), torch.Generator().manual_seed(seed))
        return float(log_ratio.double().mean())
