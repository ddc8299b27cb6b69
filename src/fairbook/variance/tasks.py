"""The chapter's two tasks, their models and one training loop for every technique.

* **Digits-S** (:func:`digits_s`) — the analogue of the paper's task (1), CIFAR-10S
  (Wang et al. 2020). scikit-learn's bundled 8×8 digits (1,797 images, no download)
  get a protected attribute, the *domain*: the original image or its inverted copy
  (``1 − x``, white on black ↔ black on white), as CIFAR-10S has colour or greyscale.
  The data are split once (stratified, ``split_seed``) into training and test images.
  In training each image appears in one domain only, with a per-class **95 : 5 skew**:
  digits 0–4 are 95 % original / 5 % inverted, digits 5–9 the reverse. The test set is
  **balanced**: every test image appears in both domains. A small CNN (two 3×3
  convolutions, max-pooling, two linear layers; :class:`SmallCNN`) plays ResNet-18.
* **Tabular** (:func:`tabular_task`) — the analogue of the CelebA binary tasks (4)–(5):
  COMPAS two-year recidivism with race (African-American vs Caucasian) as the protected
  attribute, or Adult income with sex. The protected attribute is not a feature
  (proxies remain). An MLP (:class:`MLP`) plays ResNet-18.

:class:`RunSpec` is a picklable ``train_and_predict`` for :func:`fairbook.variance.fit_runs`:
it trains one model of one technique under given :class:`~fairbook.variance.determinism.Knobs`
and returns the test predictions.

Examples
--------
>>> task = digits_s()
>>> task.x_train.shape[1:], task.n_classes, task.group_names
((1, 8, 8), 10, ('original', 'inverted'))
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from fairbook.variance import debiasing
from fairbook.variance.determinism import Knobs, apply

__all__ = [
    "MLP",
    "FairNet",
    "RunSpec",
    "SmallCNN",
    "TaskData",
    "digits_s",
    "load_task",
    "tabular_task",
    "train_and_predict",
]


@dataclass(frozen=True, eq=False)
class TaskData:
    """Arrays of one task. Groups are integer codes into ``group_names``."""

    name: str
    x_train: np.ndarray
    y_train: np.ndarray
    g_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    g_test: np.ndarray
    n_classes: int
    group_names: tuple[str, ...]
    description: str = ""

    def counts(self):
        """Training and test counts per (class, group) as a DataFrame."""
        import pandas as pd

        frames = {}
        for split, y, g in (
            ("train", self.y_train, self.g_train),
            ("test", self.y_test, self.g_test),
        ):
            frame = pd.crosstab(
                pd.Series(y, name="class"), pd.Series(np.asarray(self.group_names)[g], name="group")
            )
            frames[split] = frame
        return pd.concat(frames, axis=1)


def digits_s(
    *,
    skew: float = 0.95,
    test_size: float = 0.25,
    split_seed: int = 0,
    majority_original=(0, 1, 2, 3, 4),
) -> TaskData:
    """Digits-S: sklearn digits with an original/inverted domain skewed per class.

    Parameters
    ----------
    skew : float in [0.5, 1], default 0.95
        Share of a class's training images in that class's majority domain.
    test_size : float
        Share of each class held out for the (balanced, both-domain) test set.
    split_seed : int
        Seed of the train/test split and of which training images are inverted; fixed
        across FIT runs (it is part of the data, not of training).
    majority_original : iterable of int
        Classes whose majority domain is the original image; the rest are mostly inverted.

    Examples
    --------
    >>> t = digits_s()
    >>> c = t.counts()["train"]
    >>> int(c.loc[0, "original"]), int(c.loc[0, "inverted"])  # 95 % of 133 zeros
    (126, 7)
    >>> bool((t.counts()["test"]["original"] == t.counts()["test"]["inverted"]).all())
    True
    """
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    if not 0.5 <= skew <= 1.0:
        raise ValueError(f"skew must be in [0.5, 1], got {skew}")
    if not 0 < test_size < 1:
        raise ValueError(f"test_size must be in (0, 1), got {test_size}")
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]  # (n, 1, 8, 8) in [0, 1]
    labels = digits.target.astype(np.int64)
    x_tr, x_te, y_tr, y_te = train_test_split(
        images, labels, test_size=test_size, stratify=labels, random_state=split_seed
    )
    rng = np.random.default_rng(split_seed)
    majority_original = set(int(k) for k in majority_original)
    g_tr = np.empty(len(y_tr), dtype=np.int64)
    for k in np.unique(y_tr):
        members = rng.permutation(np.flatnonzero(y_tr == k))
        n_major = int(round(skew * len(members)))
        major, minor = (0, 1) if int(k) in majority_original else (1, 0)
        g_tr[members[:n_major]] = major
        g_tr[members[n_major:]] = minor
    x_tr = np.where(g_tr[:, None, None, None] == 1, 1.0 - x_tr, x_tr).astype(np.float32)
    x_test = np.concatenate([x_te, 1.0 - x_te]).astype(np.float32)
    y_test = np.concatenate([y_te, y_te])
    g_test = np.repeat(np.array([0, 1], dtype=np.int64), len(y_te))
    return TaskData(
        "Digits-S",
        x_tr,
        y_tr,
        g_tr,
        x_test,
        y_test,
        g_test,
        10,
        ("original", "inverted"),
        f"sklearn digits, {skew:.0%} : {1 - skew:.0%} domain skew per class, balanced test set",
    )


_TABULAR = {
    "compas": {"attribute": "race", "groups": ("African-American", "Caucasian")},
    "adult": {"attribute": "sex", "groups": ("Male", "Female")},
}


def tabular_task(
    dataset: str = "compas", *, test_size: float = 0.3, split_seed: int = 0
) -> TaskData:
    """A binary tabular task with a two-group protected attribute (not a feature).

    ``"compas"``: ProPublica's two-year file filtered as in Zafar et al. (6,172 rows),
    restricted to African-American and Caucasian defendants (5,278); label
    ``two_year_recid``; features age, sex, priors and juvenile counts, charge degree.
    ``"adult"``: UCI Adult training file without ``'?'`` rows (30,162); label income
    > 50K; protected attribute sex; the features are the named design ``"seed004_fit"``
    of :mod:`fairbook.data.designs` (11 attributes, no ``sex``, ``fnlwgt`` or
    ``education``; the categorical ones one-hot). Both are split once, stratified by
    label × group (``split_seed``); every column is then standardised with the training
    part's mean and standard deviation.

    Examples
    --------
    >>> t = tabular_task("compas")  # doctest: +SKIP
    >>> t.group_names  # doctest: +SKIP
    ('African-American', 'Caucasian')
    """
    import pandas as pd
    from sklearn.model_selection import train_test_split

    if dataset not in _TABULAR:
        raise ValueError(f"dataset must be one of {sorted(_TABULAR)}, got {dataset!r}")
    spec = _TABULAR[dataset]
    if dataset == "compas":
        from fairbook.data import load_compas

        frame = load_compas(preprocess="zafar2017")
        frame = frame[frame["race"].isin(spec["groups"])].reset_index(drop=True)
        features = pd.DataFrame(
            {
                "age": frame["age"],
                "priors_count": frame["priors_count"],
                "juv_fel_count": frame["juv_fel_count"],
                "juv_misd_count": frame["juv_misd_count"],
                "juv_other_count": frame["juv_other_count"],
                "felony": (frame["c_charge_degree"] == "F").astype(float),
                "male": (frame["sex"] == "Male").astype(float),
            }
        )
        label = frame["two_year_recid"].to_numpy(np.int64)
        description = "COMPAS two-year recidivism (1 = reoffended), race"
    else:
        from fairbook.data import load_adult
        from fairbook.data.designs import adult_design

        frame = load_adult("train", drop_missing=True)
        features = adult_design("seed004_fit", frame).train  # unscaled; standardised below
        label = (frame["income"] == ">50K").to_numpy(np.int64)
        description = "Adult income (1 = > 50K), sex"
    group = np.where(frame[spec["attribute"]] == spec["groups"][0], 0, 1).astype(np.int64)
    x = np.asarray(features, dtype=np.float64)
    idx_tr, idx_te = train_test_split(
        np.arange(len(label)),
        test_size=test_size,
        stratify=label * 2 + group,
        random_state=split_seed,
    )
    mean = x[idx_tr].mean(axis=0)
    std = x[idx_tr].std(axis=0)
    std[std == 0] = 1.0
    x = ((x - mean) / std).astype(np.float32)
    return TaskData(
        dataset.upper() if dataset == "compas" else "Adult",
        x[idx_tr],
        label[idx_tr],
        group[idx_tr],
        x[idx_te],
        label[idx_te],
        group[idx_te],
        2,
        spec["groups"],
        description,
    )


@functools.lru_cache(maxsize=8)
def load_task(name: str, split_seed: int = 0) -> TaskData:
    """:func:`digits_s` or :func:`tabular_task` by name, cached per process.

    ``name`` is ``"digits_s"``, ``"compas"`` or ``"adult"``.
    """
    if name == "digits_s":
        return digits_s(split_seed=split_seed)
    if name in _TABULAR:
        return tabular_task(name, split_seed=split_seed)
    raise ValueError(f"unknown task {name!r}; choose digits_s, compas or adult")


class FairNet(nn.Module):
    """Shared features, ``n_heads`` K-class heads and an optional group adversary.

    ``forward`` returns ``(logits, features)`` with logits shaped ``(n, n_heads, K)``.
    """

    def __init__(
        self,
        features: nn.Module,
        width: int,
        n_classes: int,
        *,
        n_heads: int = 1,
        n_groups: int = 2,
        adversary: bool = False,
    ):
        super().__init__()
        self.features = features
        self.n_heads, self.n_classes = n_heads, n_classes
        self.head = nn.Linear(width, n_classes * n_heads)
        self.adversary = (
            nn.Sequential(nn.Linear(width, 32), nn.ReLU(), nn.Linear(32, n_groups))
            if adversary
            else None
        )

    def forward(self, x):
        z = self.features(x)
        return self.head(z).view(-1, self.n_heads, self.n_classes), z


class SmallCNN(FairNet):
    """Two 3×3 convolutions (16, 32 channels), 2×2 max-pool, a 64-unit layer: for 8×8."""

    def __init__(self, n_classes: int = 10, **kwargs):
        features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(32 * 4 * 4, 64),
            nn.ReLU(),
        )
        super().__init__(features, 64, n_classes, **kwargs)


class MLP(FairNet):
    """A two-hidden-layer ReLU network (64, 32 units)."""

    def __init__(self, n_features: int, n_classes: int = 2, **kwargs):
        features = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        super().__init__(features, 32, n_classes, **kwargs)


def _build(task: TaskData, technique: str, seed: int) -> FairNet:
    n_heads = len(task.group_names) if technique == "domain_independent" else 1
    kwargs = {
        "n_heads": n_heads,
        "n_groups": len(task.group_names),
        "adversary": technique == "adversarial",
    }
    torch.manual_seed(seed)  # the initial weights: the same in every FIT run
    if task.x_train.ndim == 4:
        return SmallCNN(task.n_classes, **kwargs)
    return MLP(task.x_train.shape[1], task.n_classes, **kwargs)


def _weights_hash(model: nn.Module) -> str:
    digest = hashlib.sha256()
    for tensor in model.state_dict().values():
        digest.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()[:16]


def train_and_predict(
    task: TaskData,
    technique: str = "base",
    *,
    seed: int = 0,
    run: int = 0,
    knobs: Knobs | None = None,
    epochs: int = 15,
    batch_size: int = 32,
    lr: float = 0.05,
    momentum: float = 0.9,
    lam: float = 1.0,
) -> dict:
    """Train one model of ``technique`` on ``task`` and predict its test set.

    Every random choice is drawn from ``seed``: the initial weights (``torch.manual_seed``
    under the process lock), the rebalancing draw and the minibatch order (a
    ``torch.Generator``). ``run`` is used only by the emulated knob
    ``sum_order="permuted"``, which reorders the examples *inside* each minibatch.
    SGD with momentum; no dropout or augmentation, so nothing else is random.

    Parameters
    ----------
    task : TaskData
    technique : str
        A key of :data:`fairbook.variance.debiasing.TECHNIQUES`.
    seed, run : int
    knobs : Knobs, optional
        Defaults to ``Knobs()`` (one thread, oneDNN on, nondeterministic algorithms
        allowed, no loader workers, CPU).
    epochs, batch_size, lr, momentum : training settings.
    lam : float
        Weight of the adversary's reversed gradient or of the gap penalty.

    Returns
    -------
    dict
        ``y_true``, ``y_pred``, ``groups`` (names) of the test set, ``weights_hash`` (the
        first 16 hex digits of the SHA-256 of the final weights) and ``final_loss``.
    """
    if technique not in debiasing.TECHNIQUES:
        raise ValueError(
            f"unknown technique {technique!r}; choose one of {', '.join(debiasing.TECHNIQUES)}"
        )
    if epochs < 1 or batch_size < 1:
        raise ValueError("epochs and batch_size must be positive")
    knobs = knobs or Knobs()
    with apply(knobs):
        device = torch.device(knobs.device)
        model = _build(task, technique, seed).to(device)
        index = (
            debiasing.rebalanced_indices(task.y_train, task.g_train, seed=seed)
            if technique == "rebalance"
            else np.arange(len(task.y_train))
        )
        data = torch.utils.data.TensorDataset(
            torch.from_numpy(task.x_train[index]),
            torch.from_numpy(task.y_train[index]),
            torch.from_numpy(task.g_train[index]),
        )
        order = torch.Generator().manual_seed(seed)
        sampler = torch.utils.data.BatchSampler(
            torch.utils.data.RandomSampler(data, generator=order), batch_size, drop_last=False
        )
        loader = torch.utils.data.DataLoader(
            data,
            sampler=sampler,
            batch_size=None,
            num_workers=knobs.workers,
            persistent_workers=knobs.workers > 0,
            multiprocessing_context=_loader_context(knobs),
        )
        permuter = (
            torch.Generator().manual_seed(1_000_003 * (run + 1) + seed)
            if knobs.sum_order == "permuted"
            else None
        )
        optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum)
        model.train()
        loss = torch.zeros(())
        for _ in range(epochs):
            for x, y, g in loader:
                if permuter is not None:
                    perm = torch.randperm(len(y), generator=permuter)
                    x, y, g = x[perm], y[perm], g[perm]
                x, y, g = x.to(device), y.to(device), g.to(device)
                loss = _loss(model, technique, x, y, g, lam)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
        model.eval()
        with torch.no_grad():
            logits, _ = model(torch.from_numpy(task.x_test).to(device))
            if technique == "domain_independent":
                scores = debiasing.domain_independent_predict(logits, mode="sum")
            else:
                scores = logits[:, 0]
            y_pred = scores.argmax(dim=1).cpu().numpy()
        weights = _weights_hash(model)
    names = np.asarray(task.group_names)
    return {
        "y_true": task.y_test,
        "y_pred": y_pred,
        "groups": names[task.g_test],
        "weights_hash": weights,
        "final_loss": float(loss.detach()),
    }


def _loader_context(knobs: Knobs):
    # an explicit context: inside a joblib/loky worker the default one is loky's, which
    # torch's DataLoader cannot start processes with
    if knobs.workers == 0:
        return None
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _loss(model: FairNet, technique: str, x, y, g, lam: float):
    logits, z = model(x)
    if technique == "domain_independent":
        return debiasing.domain_independent_loss(logits, y, g)
    loss = F.cross_entropy(logits[:, 0], y)
    if technique == "adversarial":
        adv = model.adversary(debiasing.grad_reverse(z, lam))
        loss = loss + F.cross_entropy(adv, g)
    elif technique == "penalty":
        loss = loss + lam * debiasing.group_gap_penalty(logits[:, 0].softmax(dim=1), y, g)
    return loss


@dataclass(frozen=True)
class RunSpec:
    """A picklable ``train_and_predict(*, seed, run, knobs)`` for :func:`fit_runs`.

    The task is loaded (and cached) inside the worker that runs it, so only this small
    object travels to a process or a Dask worker.

    Examples
    --------
    >>> spec = RunSpec("digits_s", "base", epochs=1)
    >>> out = spec(seed=0, run=0, knobs=None)
    >>> out["y_pred"].shape
    (900,)
    """

    task: str
    technique: str = "base"
    epochs: int = 15
    batch_size: int = 32
    lr: float = 0.05
    lam: float = 1.0
    split_seed: int = 0
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __call__(self, *, seed: int, run: int, knobs: Knobs | None) -> dict:
        task = load_task(self.task, self.split_seed)
        return train_and_predict(
            task,
            self.technique,
            seed=seed,
            run=run,
            knobs=knobs,
            epochs=self.epochs,
            batch_size=self.batch_size,
            lr=self.lr,
            lam=self.lam,
            **self.extra,
        )
