"""Conditional HydraGAN (seed 003 sec. 3.5): one generator, several objectives.

* **Individual diversity** by an "infinitely strong conditional": the sensitive attributes
  are a condition vector given to the generator (Mirza & Osindero 2014); when sampling,
  the user fixes the conditions' distribution (e.g. uniform), so it holds *exactly*.
* **Data realism** by a Wasserstein critic with gradient penalty (Gulrajani et al. 2017).
* **Activity diversity** by a loss: the MSE between the generated proportion of each
  category of one column (the batch mean of its softmax) and a target proportion.

The generator minimises ``realism_weight · (−E f(G(z, c))) + diversity_weight · MSE``
(DeSmet & Cook's HydraGAN weights its critics the same way).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from fairbook.generative.tabular import TabularEncoder
from fairbook.generative.wgan import Critic, Generator, gradient_penalty

__all__ = ["ConditionalHydraGAN", "allocate"]


def allocate(n: int, probs) -> np.ndarray:
    """Split ``n`` rows over categories with probabilities ``probs`` exactly.

    Largest-remainder rounding: the counts sum to ``n`` and each is ``⌊n p⌋`` or
    ``⌈n p⌉`` (ties go to the first categories).

    Examples
    --------
    >>> allocate(10, [0.25, 0.25, 0.5]).tolist()
    [3, 2, 5]
    """
    p = np.asarray(probs, dtype=float)
    if n < 0 or p.ndim != 1 or len(p) == 0 or (p < 0).any() or not np.isclose(p.sum(), 1):
        raise ValueError(f"need n ≥ 0 and probabilities that sum to 1, got n={n}, {p}")
    raw = n * p
    counts = np.floor(raw + 1e-9).astype(int)
    order = np.argsort(-(raw - counts), kind="stable")
    counts[order[: n - counts.sum()]] += 1
    return counts


def _distribution(spec, categories: list, empirical: np.ndarray, what: str) -> np.ndarray:
    """A probability vector over ``categories`` from "uniform", "empirical", a mapping
    category → probability (missing categories get 0) or an array in category order."""
    k = len(categories)
    if isinstance(spec, str):
        if spec == "uniform":
            return np.full(k, 1.0 / k)
        if spec == "empirical":
            return np.asarray(empirical, dtype=float)
        raise ValueError(
            f"{what} must be 'uniform', 'empirical', a mapping or an array; got {spec!r}"
        )
    if isinstance(spec, Mapping):
        unknown = [key for key in spec if key not in categories]
        if unknown:
            raise ValueError(f"{what} names unknown categories {unknown}; known: {categories}")
        p = np.array([float(spec.get(c, 0.0)) for c in categories])
    else:
        p = np.asarray(spec, dtype=float)
        if p.shape != (k,):
            raise ValueError(f"{what} must have {k} entries (one per category), got {p.shape}")
    if not np.isfinite(p).all() or (p < 0).any() or not np.isclose(p.sum(), 1.0):
        raise ValueError(f"{what} must be non-negative and sum to 1, got {p.round(4).tolist()}")
    return p


class ConditionalHydraGAN:
    """Conditional WGAN-GP with a diversity loss for tabular data (seed 003 sec. 3.5).

    Parameters
    ----------
    continuous, categorical : sequence of str
        (All options are keyword-only.)
        Data columns the generator produces (condition columns excluded).
    noise_dim : int, default 32
    hidden : tuple of int, default (64, 64)
        Hidden widths of both networks.
    epochs : int, default 50
        Passes of the critic over the data.
    batch_size : int, default 256
    n_critic : int, default 5
        Critic steps per generator step.
    lr : float, default 2e-4
        Adam, betas (0.5, 0.9) as in Gulrajani et al.
    gp_lambda : float, default 10
    realism_weight, diversity_weight : float
        Weights of the two generator objectives (1 and 1 by default).
    critic_conditioned : bool, default True
        Give the condition to the critic too (a conditional critic judges rows *given*
        their condition; without it the generator is only pushed toward the marginal).
    seed : int, default 0
    progress : bool or None
        tqdm progress bar (None: only on a terminal).

    Attributes
    ----------
    encoder_ : TabularEncoder of the data columns
    condition_categories_ : list of tuples, the observed condition combinations
    target_ : ndarray, the diversity target in the order of the column's categories
    history_ : DataFrame, per-epoch means of the losses

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame({"who": rng.choice(["a", "b"], 200, p=[0.8, 0.2]),
    ...                    "act": rng.choice(["x", "y"], 200), "v": rng.normal(size=200)})
    >>> gan = ConditionalHydraGAN(continuous=["v"], categorical=["act"], epochs=2,
    ...                           progress=False)
    >>> gan = gan.fit(df, conditions=["who"], diversity_column="act")
    >>> gan.sample(10)["who"].value_counts().tolist()  # uniform by construction
    [5, 5]
    """

    def __init__(
        self,
        *,
        continuous=(),
        categorical=(),
        noise_dim: int = 32,
        hidden=(64, 64),
        epochs: int = 50,
        batch_size: int = 256,
        n_critic: int = 5,
        lr: float = 2e-4,
        gp_lambda: float = 10.0,
        realism_weight: float = 1.0,
        diversity_weight: float = 1.0,
        critic_conditioned: bool = True,
        seed: int = 0,
        progress: bool | None = None,
    ):
        self.continuous, self.categorical = continuous, categorical
        self.noise_dim, self.hidden, self.epochs = int(noise_dim), tuple(hidden), int(epochs)
        self.batch_size, self.n_critic, self.lr = int(batch_size), int(n_critic), float(lr)
        self.gp_lambda = float(gp_lambda)
        self.realism_weight, self.diversity_weight = float(realism_weight), float(diversity_weight)
        self.critic_conditioned, self.seed, self.progress = bool(critic_conditioned), seed, progress
        for name in ("noise_dim", "epochs", "batch_size", "n_critic"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("lr", "gp_lambda", "realism_weight", "diversity_weight"):
            value = getattr(self, name)
            if not np.isfinite(value) or value < 0 or (name == "lr" and value == 0):
                raise ValueError(f"{name} must be a finite non-negative number, got {value}")
        self.generator_ = None

    # ------------------------------------------------------------------ conditions
    def _condition_matrix(self, frame: pd.DataFrame) -> np.ndarray:
        return self.condition_encoder_.transform(frame)

    def _condition_frame(self, spec, n: int, rng: np.random.Generator) -> pd.DataFrame:
        if isinstance(spec, pd.DataFrame):
            missing = [c for c in self.conditions_ if c not in spec.columns]
            if missing:
                raise ValueError(f"the condition frame lacks columns {missing}")
            if len(spec) != n:
                raise ValueError(f"the condition frame has {len(spec)} rows, n is {n}")
            return spec[list(self.conditions_)].reset_index(drop=True)
        cats = self.condition_categories_
        keyed = cats if len(self.conditions_) > 1 else [c[0] for c in cats]
        p = _distribution(
            self.condition_target_ if spec is None else spec,
            keyed,
            self.condition_empirical_,
            "conditions",
        )
        index = np.repeat(np.arange(len(cats)), allocate(n, p))
        index = index[rng.permutation(n)]
        return pd.DataFrame([cats[i] for i in index], columns=list(self.conditions_))

    # ------------------------------------------------------------------ fitting
    def fit(
        self,
        df: pd.DataFrame,
        *,
        conditions,
        diversity_column: str | None = None,
        target="uniform",
        condition_target="uniform",
    ) -> ConditionalHydraGAN:
        """Train on ``df``.

        Parameters
        ----------
        df : DataFrame
            Holds the data columns and the condition columns, no missing values.
        conditions : sequence of str
            Categorical columns forming the condition vector (one-hot each).
        diversity_column : str, optional
            A categorical data column whose generated proportions the diversity loss
            pulls toward ``target``; None (or ``diversity_weight = 0``) turns it off.
        target : "uniform", "empirical", mapping or array
            Target proportions of ``diversity_column``'s categories.
        condition_target : "uniform", "empirical", mapping or array
            The distribution of conditions the generator is trained *for* (drawn in its
            steps; the critic's steps use the real rows' conditions) and that
            :meth:`sample` uses by default. Keys are condition values, or tuples of them
            for several condition columns.
        """
        conditions = (conditions,) if isinstance(conditions, str) else tuple(conditions)
        if not conditions:
            raise ValueError("give at least one condition column")
        data_cols = set(
            self.continuous if not isinstance(self.continuous, str) else [self.continuous]
        )
        data_cols |= set(
            self.categorical if not isinstance(self.categorical, str) else [self.categorical]
        )
        overlap = data_cols & set(conditions)
        if overlap:
            raise ValueError(f"columns {sorted(overlap)} are both data and condition columns")
        self.encoder_ = TabularEncoder(
            continuous=self.continuous, categorical=self.categorical
        ).fit(df)
        self.condition_encoder_ = TabularEncoder(categorical=conditions).fit(df)
        self.conditions_ = conditions
        combos = df[list(conditions)].value_counts(normalize=True, sort=False)
        combos = combos.sort_index()
        self.condition_categories_ = [c if isinstance(c, tuple) else (c,) for c in combos.index]
        self.condition_empirical_ = combos.to_numpy(dtype=float)
        keyed = (
            self.condition_categories_
            if len(conditions) > 1
            else [c[0] for c in self.condition_categories_]
        )
        _distribution(condition_target, keyed, self.condition_empirical_, "condition_target")
        self.condition_target_ = condition_target
        self.diversity_column_ = diversity_column
        if diversity_column is not None:
            spec = self.encoder_.spec(diversity_column)
            if spec.kind != "categorical":
                raise ValueError(f"diversity_column {diversity_column!r} must be categorical")
            empirical = (
                df[diversity_column]
                .value_counts(normalize=True)
                .reindex(list(spec.categories), fill_value=0.0)
                .to_numpy(dtype=float)
            )
            self.target_ = _distribution(target, list(spec.categories), empirical, "target")
        else:
            self.target_ = None
        self._train(df)
        return self

    def _train(self, df: pd.DataFrame) -> None:
        x = torch.as_tensor(self.encoder_.transform(df))
        c = torch.as_tensor(self._condition_matrix(df))
        n = len(x)
        rng = np.random.default_rng(self.seed)
        noise = torch.Generator().manual_seed(int(self.seed))
        blocks = [(s.kind, s.start, s.stop) for s in self.encoder_.columns_]
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(int(self.seed))
            g = Generator(self.noise_dim, c.shape[1], blocks, hidden=self.hidden)
            d = Critic(x.shape[1], c.shape[1] if self.critic_conditioned else 0, hidden=self.hidden)
        opt_g = torch.optim.Adam(g.parameters(), lr=self.lr, betas=(0.5, 0.9))
        opt_d = torch.optim.Adam(d.parameters(), lr=self.lr, betas=(0.5, 0.9))
        div = None
        if self.target_ is not None and self.diversity_weight > 0:
            div = (
                self.encoder_.spec(self.diversity_column_).slice,
                torch.tensor(np.array(self.target_), dtype=torch.float32),
            )
        bs = min(self.batch_size, n)
        history, step = [], 0
        for epoch in tqdm(
            range(self.epochs),
            desc="Conditional HydraGAN",
            disable=None if self.progress is None else not self.progress,
        ):
            perm = rng.permutation(n)
            logs = []
            for start in range(0, n - bs + 1, bs):
                idx = torch.as_tensor(perm[start : start + bs])
                real, cond = x[idx], c[idx]
                z = torch.randn(bs, self.noise_dim, generator=noise)
                with torch.no_grad():
                    fake = g(z, cond)
                dc = cond if self.critic_conditioned else None
                w_dist = d(real, dc).mean() - d(fake, dc).mean()
                gp = gradient_penalty(d, real, fake, dc, lam=self.gp_lambda, generator=noise)
                opt_d.zero_grad()
                (gp - w_dist).backward()
                opt_d.step()
                step += 1
                log = {
                    "epoch": epoch,
                    "wasserstein": float(w_dist.detach()),
                    "gp": float(gp.detach()),
                }
                if step % self.n_critic == 0:
                    gc = torch.as_tensor(
                        self._condition_matrix(self._condition_frame(None, bs, rng))
                    )
                    z = torch.randn(bs, self.noise_dim, generator=noise)
                    fake = g(z, gc)
                    realism = -d(fake, gc if self.critic_conditioned else None).mean()
                    loss = self.realism_weight * realism
                    if div is not None:
                        mse = ((fake[:, div[0]].mean(0) - div[1]) ** 2).mean()
                        loss = loss + self.diversity_weight * mse
                        log["diversity_mse"] = float(mse.detach())
                    opt_g.zero_grad()
                    loss.backward()
                    opt_g.step()
                    log["realism"] = float(realism.detach())
                logs.append(log)
            history.append(pd.DataFrame(logs).mean(numeric_only=True))
        self.history_ = pd.DataFrame(history).reset_index(drop=True)
        g.eval()
        self.generator_ = g
        self.critic_ = d

    # ------------------------------------------------------------------ sampling
    def _check_fitted(self):
        if self.generator_ is None:
            raise ValueError("the model is not fitted; call fit(df, conditions=...) first")

    def sample_encoded(self, n: int, *, conditions=None, seed: int | None = None):
        """``n`` generated rows in the encoded space and their condition frame.

        Returns
        -------
        x : ndarray of shape (n, dim)
            Continuous columns in [-1, 1], each categorical block a softmax.
        cond : DataFrame
            The condition columns of each row.
        """
        self._check_fitted()
        if int(n) != n or n < 1:
            raise ValueError(f"n must be a positive integer, got {n}")
        n = int(n)
        seed = self.seed if seed is None else seed
        rng = np.random.default_rng([int(seed), 1])
        frame = self._condition_frame(conditions, n, rng)
        cond = torch.as_tensor(self._condition_matrix(frame))
        noise = torch.Generator().manual_seed(int(seed) + 7919)
        with torch.no_grad():
            x = self.generator_(torch.randn(n, self.noise_dim, generator=noise), cond)
        return x.numpy(), frame

    def sample(
        self, n: int, *, conditions=None, seed: int | None = None, output: str = "labels"
    ) -> pd.DataFrame:
        """``n`` synthetic rows with their condition columns.

        Parameters
        ----------
        n : int
        conditions : None, "uniform", "empirical", mapping, array or DataFrame
            The distribution of the condition columns (allocated exactly, then
            shuffled), or the condition rows themselves. None: ``condition_target``.
        seed : int, optional
            Defaults to the model's seed.
        output : {"labels", "probabilities", "argmax"}
            Categorical columns as labels drawn from each row's softmax, as the softmax
            probabilities themselves (columns ``col=value``), or as the argmax.
        """
        if output not in ("labels", "probabilities", "argmax"):
            raise ValueError(
                f"output must be 'labels', 'probabilities' or 'argmax', got {output!r}"
            )
        x, frame = self.sample_encoded(n, conditions=conditions, seed=seed)
        seed = self.seed if seed is None else seed
        rng = np.random.default_rng([int(seed), 2]) if output == "labels" else None
        data = self.encoder_.inverse_transform(x, probabilities=output == "probabilities", rng=rng)
        return pd.concat([frame, data], axis=1)

    def generated_proportions(self, x: np.ndarray) -> pd.Series:
        """Mean softmax of the diversity column over encoded rows ``x`` (what the
        diversity loss pulls toward ``target_``)."""
        self._check_fitted()
        if self.diversity_column_ is None:
            raise ValueError("the model was fitted without a diversity_column")
        spec = self.encoder_.spec(self.diversity_column_)
        return pd.Series(np.asarray(x)[:, spec.slice].mean(0), index=list(spec.categories))
