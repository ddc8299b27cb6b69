"""Four debiasing techniques of seed 004's Table 1, as small building blocks.

Each is what the training loop in :mod:`fairbook.variance.tasks` switches on by name
(:data:`TECHNIQUES`); the baseline (``"base"``) is plain cross-entropy.

* **Data rebalancing** (S-RS, C-R1, I-R1): :func:`rebalanced_indices` oversamples, within
  each class, every protected group up to the largest group of that class.
* **Adversarial training with gradient reversal** (S-GR, C-A4/A5): :func:`grad_reverse`
  is the identity forward and multiplies the gradient by ``−λ`` backward, so an adversary
  that predicts the group from the shared features pushes them to *forget* the group.
* **Domain-independent training** (S-DI1, S-DI2): one classification head per protected
  group, each trained only on its group (:func:`domain_independent_loss`); prediction sums
  the heads' class probabilities (:func:`domain_independent_predict`, ``"sum"`` = S-DI2,
  no protected attribute needed) or uses the person's own group's head
  (``"conditional"`` = S-DI1).
* **Fairness penalty** (A-L2): :func:`group_gap_penalty` adds ``λ Σ_k (gap_k)²``, the
  squared difference between two groups' mean predicted probability of class ``k`` among
  the examples of class ``k`` (a soft TPR gap, the equal-opportunity target of
  Lokhande et al.) or among all examples (``condition="ppr"``, a soft DP gap).

Examples
--------
>>> import numpy as np
>>> idx = rebalanced_indices([0, 0, 0, 1], ["a", "a", "b", "b"], seed=0)
>>> sorted(idx.tolist())
[0, 1, 2, 2, 3]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "TECHNIQUES",
    "Technique",
    "domain_independent_loss",
    "domain_independent_predict",
    "grad_reverse",
    "group_gap_penalty",
    "rebalanced_indices",
]


@dataclass(frozen=True)
class Technique:
    """A debiasing technique: its name, the paper's analogue and the metrics it targets."""

    name: str
    label: str
    paper_analogue: str
    targets: tuple[str, ...]
    description: str


TECHNIQUES: dict[str, Technique] = {
    t.name: t
    for t in [
        Technique("base", "Baseline", "S-Base, A-Base", (), "cross-entropy, no debiasing"),
        Technique(
            "rebalance",
            "Data rebalancing",
            "S-RS, C-R1, I-R1",
            ("BA",),
            "oversample each group to the largest group of its class",
        ),
        Technique(
            "adversarial",
            "Gradient reversal",
            "S-GR, C-A4, C-A5",
            ("DP", "BA"),
            "an adversary predicts the group from the features through a gradient-reversal layer",
        ),
        Technique(
            "domain_independent",
            "Domain-independent heads",
            "S-DI2",
            ("BA",),
            "one head per group, trained on its group; predict with the sum of the "
            "heads' probabilities",
        ),
        Technique(
            "penalty",
            "L2 fairness penalty",
            "A-L2",
            ("EOTP",),
            "cross-entropy + λ Σ_k (TPR gap of class k)², soft, per minibatch",
        ),
    ]
}


def rebalanced_indices(y, groups, *, seed: int = 0) -> np.ndarray:
    """Indices that oversample every (class, group) cell to the largest group of its class.

    The original indices are all kept; each smaller cell gets extra indices drawn with
    replacement (NumPy generator seeded by ``seed``). The result is in a fixed,
    seed-determined order (sorted by original index).

    Parameters
    ----------
    y, groups : array-like of shape (n,)
    seed : int

    Returns
    -------
    ndarray of int
        Within each class, every group present in that class has the same count.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0] * 5 + [1] * 5); g = np.array(list("aaaab") + list("abbbb"))
    >>> idx = rebalanced_indices(y, g)
    >>> np.unique(g[idx][y[idx] == 0], return_counts=True)[1].tolist()
    [4, 4]
    """
    y = np.asarray(y)
    groups = np.asarray(groups)
    if y.shape != groups.shape or y.ndim != 1:
        raise ValueError(
            f"y and groups must be 1-d of the same length, got {y.shape} and {groups.shape}"
        )
    if y.size == 0:
        raise ValueError("y is empty")
    rng = np.random.default_rng(seed)
    out = [np.arange(y.size)]
    for cls in np.unique(y):
        in_class = y == cls
        cells = {g: np.flatnonzero(in_class & (groups == g)) for g in np.unique(groups[in_class])}
        target = max(len(v) for v in cells.values())
        for members in cells.values():
            if len(members) < target:
                out.append(rng.choice(members, size=target - len(members), replace=True))
    return np.sort(np.concatenate(out), kind="stable")


def _grad_reverse_class():
    import torch

    class _GradReverse(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, lam):
            ctx.lam = lam
            return x.view_as(x)

        @staticmethod
        def backward(ctx, grad):
            return -ctx.lam * grad, None

    return _GradReverse


_GRAD_REVERSE = None


def grad_reverse(x, lam: float = 1.0):
    """Gradient reversal (Ganin & Lempitsky 2015): identity forward, ``−lam ×`` backward.

    Examples
    --------
    >>> import torch
    >>> x = torch.ones(3, requires_grad=True)
    >>> grad_reverse(x, 0.5).sum().backward()
    >>> x.grad.tolist()
    [-0.5, -0.5, -0.5]
    """
    global _GRAD_REVERSE
    if lam < 0:
        raise ValueError(f"lam must be non-negative, got {lam}")
    if _GRAD_REVERSE is None:
        _GRAD_REVERSE = _grad_reverse_class()
    return _GRAD_REVERSE.apply(x, float(lam))


def domain_independent_loss(logits, y, groups):
    """Cross-entropy of each example under its own group's head.

    Parameters
    ----------
    logits : Tensor of shape (n, G, K)
        One K-class head per group.
    y : LongTensor (n,)
    groups : LongTensor (n,) in ``0 … G−1``

    Examples
    --------
    >>> import torch
    >>> logits = torch.zeros(2, 2, 3); logits[0, 0, 1] = 5.0  # group 0's head says 1
    >>> loss = domain_independent_loss(logits, torch.tensor([1, 1]), torch.tensor([0, 1]))
    >>> round(float(loss), 3)  # mean of CE(head 0 → 1) ≈ 0.013 and CE(uniform) = log 3
    0.556
    """
    import torch.nn.functional as F

    if logits.ndim != 3:
        raise ValueError(f"logits must be (n, groups, classes), got {tuple(logits.shape)}")
    if int(groups.max()) >= logits.shape[1] or int(groups.min()) < 0:
        raise ValueError("a group index is outside the heads")
    own = logits[np.arange(len(y)), groups]  # (n, K)
    return F.cross_entropy(own, y)


def domain_independent_predict(logits, groups=None, *, mode: str = "sum"):
    """Class scores from per-group heads.

    ``mode="sum"`` (S-DI2) sums each head's softmax probabilities and needs no group;
    ``mode="conditional"`` (S-DI1) uses each example's own group's head.

    Returns
    -------
    Tensor of shape (n, K)

    Examples
    --------
    >>> import torch
    >>> logits = torch.tensor([[[2.0, 0.0], [0.0, 1.0]]])
    >>> domain_independent_predict(logits).argmax(1).tolist()
    [0]
    >>> domain_independent_predict(logits, torch.tensor([1]), mode="conditional").argmax(1).tolist()
    [1]
    """
    if mode == "sum":
        return logits.softmax(dim=-1).sum(dim=1)
    if mode == "conditional":
        if groups is None:
            raise ValueError("mode='conditional' needs the groups")
        return logits[np.arange(logits.shape[0]), groups].softmax(dim=-1)
    raise ValueError(f"mode must be 'sum' or 'conditional', got {mode!r}")


def group_gap_penalty(probs, y, groups, *, condition: str = "tpr"):
    """Σ_k (mean p_k over group 0 − mean p_k over group 1)², soft and differentiable.

    Parameters
    ----------
    probs : Tensor (n, K)
        Predicted class probabilities.
    y : LongTensor (n,)
    groups : LongTensor (n,) with values 0 and 1
    condition : {"tpr", "ppr"}
        ``"tpr"``: the means run over the examples of class k (a soft TPR / equal
        opportunity gap); ``"ppr"``: over all examples (a soft demographic-parity gap).
        A class with no example of one group in the batch adds nothing.

    Examples
    --------
    >>> import torch
    >>> p = torch.tensor([[0.9, 0.1], [0.5, 0.5], [0.2, 0.8], [0.4, 0.6]])
    >>> y = torch.tensor([0, 0, 1, 1]); g = torch.tensor([0, 1, 0, 1])
    >>> round(float(group_gap_penalty(p, y, g)), 4)  # (0.9-0.5)² + (0.8-0.6)²
    0.2
    """
    import torch

    if condition not in ("tpr", "ppr"):
        raise ValueError(f"condition must be 'tpr' or 'ppr', got {condition!r}")
    total = probs.new_zeros(())
    for k in range(probs.shape[1]):
        rows = (y == k) if condition == "tpr" else torch.ones_like(y, dtype=torch.bool)
        a, b = rows & (groups == 0), rows & (groups == 1)
        if a.any() and b.any():
            total = total + (probs[a, k].mean() - probs[b, k].mean()) ** 2
    return total
