"""Synthetic data of seed 000: SD1–SD3 (Eqs. 10–21) and a truncated-sequence stand-in.

**SD1–SD3.** Two features, a binary group ``G`` (0 = the paper's minority) and label ``Y``,
``n_per_cell`` samples (paper: 100) from one distribution per ``(G, Y)`` cell. Two
corrections from ``ERRATA.md``:

* Eqs. 16–17 and 20 print the non-symmetric "covariances" [5,1;5,1] and [5,3;5,3]; we
  use [5,1;1,5] (SD2, G = 1) and [5,3;3,5] (SD3, G = 1, Y = 0, as Eq. 21 prints it for
  Y = 1).
* SD1 as printed (Eqs. 10–11) puts G = 0's class 0 at +Beta on [0,1]² and class 1 at
  −Beta on [−1,0]², the opposite orientation to G = 1 (class 1 at +7); a classifier with no
  hidden layer then gets G = 0 almost all wrong, yet Table 1 reports 0.95. The default
  ``orientation="corrected"`` swaps G = 0's classes (class 1 at +Beta, like G = 1);
  ``orientation="printed"`` gives the printed version.

``Beta(α=[.5,.5], β=[.5,.5])`` is two independent Beta(½, ½) coordinates.

**Truncated sequences** (:func:`make_truncated_sequences`) replace D-Vlog (Table 7), which
is available only on request from its authors; see that function.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "SD_CELLS",
    "make_sd",
    "make_truncated_sequences",
    "sd_bayes",
    "sd_posterior",
    "sd_table",
    "split_train_test",
]


def _gauss(mean, cov):
    return ("normal", float(mean), np.asarray(cov, dtype=float))


_BETA_POS = ("beta", +1.0, None)
_BETA_NEG = ("beta", -1.0, None)

#: ``SD_CELLS[k][(g, y)]`` = (kind, sign or mean, covariance) of each cell, corrected.
SD_CELLS = {
    1: {
        (0, 0): _BETA_NEG,
        (0, 1): _BETA_POS,
        (1, 0): _gauss(-7, [[15, 10], [10, 15]]),
        (1, 1): _gauss(7, [[15, 10], [10, 15]]),
    },
    2: {
        (0, 0): _gauss(-10, [[100, 30], [30, 100]]),
        (0, 1): _gauss(10, [[100, 30], [30, 100]]),
        (1, 0): _gauss(-7, [[5, 1], [1, 5]]),
        (1, 1): _gauss(7, [[5, 1], [1, 5]]),
    },
    3: {
        (0, 0): _gauss(-2, [[7, 3], [3, 7]]),
        (0, 1): _gauss(2, [[7, 3], [3, 7]]),
        (1, 0): _gauss(-3, [[5, 3], [3, 5]]),
        (1, 1): _gauss(3, [[5, 3], [3, 5]]),
    },
}

#: The cells as Eqs. 10–21 print them, where they differ from :data:`SD_CELLS`.
_PRINTED = {
    (1, 0, 0): "+Beta(α=[.5,.5], β=[.5,.5])  (Eq. 10)",
    (1, 0, 1): "−Beta(α=[.5,.5], β=[.5,.5])  (Eq. 11)",
    (2, 1, 0): "N([−7,−7], [5,1; 5,1])  (Eq. 16)",
    (2, 1, 1): "N([7,7], [5,1; 5,1])  (Eq. 17)",
    (3, 1, 0): "N([−3,−3], [5,3; 5,3])  (Eq. 20)",
}


def _describe(cell) -> str:
    kind, loc, cov = cell
    if kind == "beta":
        return f"{'+' if loc > 0 else '−'}Beta(α=[.5,.5], β=[.5,.5])"
    c = cov.astype(int)
    m = int(loc)
    return f"N([{m},{m}], [{c[0, 0]},{c[0, 1]}; {c[1, 0]},{c[1, 1]}])".replace("-", "−")


def sd_table() -> pd.DataFrame:
    """The twelve cell distributions, as implemented and as printed.

    Examples
    --------
    >>> sd_table().loc[(2, 1, 0), "implemented"]
    'N([−7,−7], [5,1; 1,5])'
    """
    rows = {}
    for k, cells in SD_CELLS.items():
        for (g, y), cell in cells.items():
            implemented = _describe(cell)
            rows[(k, g, y)] = {
                "implemented": implemented,
                "printed": _PRINTED.get((k, g, y), implemented),
            }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["SD", "G", "Y"])
    frame["differs"] = frame["implemented"] != frame["printed"].str.split("  ").str[0]
    return frame


def make_sd(
    k: int, *, n_per_cell: int = 100, seed: int = 0, orientation: str = "corrected"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Draw synthetic data set SD``k`` of seed 000 (Sec. 5.1.1–5.1.3).

    Parameters
    ----------
    k : {1, 2, 3}
    n_per_cell : int, default 100
        Samples per (G, Y) cell; the data set has ``4 * n_per_cell`` rows.
    seed : int, default 0
    orientation : {'corrected', 'printed'}
        SD1 only: G = 0's classes as corrected (ERRATA) or as Eqs. 10–11 print them.

    Returns
    -------
    X : ndarray (4n, 2)
    y, g : ndarray of int (4n,)
        Rows come in cell order (G, Y) = (0, 0), (0, 1), (1, 0), (1, 1).

    Examples
    --------
    >>> X, y, g = make_sd(1, n_per_cell=5, seed=0)
    >>> X.shape, int(y.sum()), int(g.sum())
    ((20, 2), 10, 10)
    >>> bool((X[(g == 0) & (y == 1)] >= 0).all())  # corrected: class 1 at +Beta
    True
    """
    if k not in SD_CELLS:
        raise ValueError(f"k must be 1, 2 or 3, got {k!r}")
    if orientation not in ("corrected", "printed"):
        raise ValueError(f"orientation must be 'corrected' or 'printed', got {orientation!r}")
    if int(n_per_cell) < 1:
        raise ValueError(f"n_per_cell must be ≥ 1, got {n_per_cell!r}")
    rng = np.random.default_rng(seed)
    xs, ys, gs = [], [], []
    for (g, y), (kind, loc, cov) in SD_CELLS[k].items():
        if kind == "beta":
            sign = -loc if (orientation == "printed" and k == 1) else loc
            x = sign * rng.beta(0.5, 0.5, size=(n_per_cell, 2))
        else:
            x = rng.multivariate_normal([loc, loc], cov, size=n_per_cell, method="cholesky")
        xs.append(x)
        ys.append(np.full(n_per_cell, y))
        gs.append(np.full(n_per_cell, g))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def _cell_density(cell, X: np.ndarray) -> np.ndarray:
    from scipy import stats

    kind, loc, cov = cell
    if kind == "beta":
        Z = X * loc  # the cell lives on [0, 1]² after the sign flip
        inside = (Z > 0).all(axis=1) & (Z < 1).all(axis=1)
        clipped = np.clip(Z, 1e-12, 1 - 1e-12)
        return np.where(inside, stats.beta.pdf(clipped, 0.5, 0.5).prod(axis=1), 0.0)
    return np.atleast_1d(stats.multivariate_normal([loc, loc], cov).pdf(X))


def sd_posterior(k: int, X, *, orientation: str = "corrected") -> np.ndarray:
    """The true P(Y = 1 | x) of SD``k`` (all four cells equally likely, G unseen).

    The Bayes-optimal classifier predicts 1 where this exceeds ½; ``2 p (1 − p)`` is the
    aleatoric uncertainty (trace of Eq. 7) that the data themselves carry at ``x``.

    Examples
    --------
    >>> float(sd_posterior(3, [[0.0, 0.0]])[0])
    0.5
    """
    if k not in SD_CELLS:
        raise ValueError(f"k must be 1, 2 or 3, got {k!r}")
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (N, 2); got {X.shape}")
    cells = dict(SD_CELLS[k])
    if orientation == "printed" and k == 1:
        cells[(0, 0)], cells[(0, 1)] = cells[(0, 1)], cells[(0, 0)]
    positive = sum(_cell_density(cells[(g, 1)], X) for g in (0, 1))
    total = positive + sum(_cell_density(cells[(g, 0)], X) for g in (0, 1))
    return positive / total


def sd_bayes(k: int, *, n_per_cell: int = 20_000, seed: int = 0) -> dict:
    """Per-group accuracy and aleatoric uncertainty of the Bayes-optimal classifier.

    Monte Carlo over ``n_per_cell`` draws per cell.

    Returns
    -------
    dict
        ``ACC`` and ``U_a`` as (G0, G1) pairs, and ``F_EAcc``, ``F_Alea``.
    """
    X, y, g = make_sd(k, n_per_cell=n_per_cell, seed=seed)
    p = sd_posterior(k, X)
    hits = (p > 0.5) == (y == 1)
    aleatoric = 2 * p * (1 - p)
    acc = tuple(float(hits[g == j].mean()) for j in (0, 1))
    alea = tuple(float(aleatoric[g == j].mean()) for j in (0, 1))
    return {"ACC": acc, "U_a": alea, "F_EAcc": acc[0] / acc[1], "F_Alea": alea[0] / alea[1]}


def split_train_test(*arrays, test_size: float = 0.2, seed: int = 0, stratify=None):
    """Seeded train/test split of equally long arrays (seed 000: 20 % test).

    Parameters
    ----------
    *arrays : array-like, same first dimension
    test_size : float in (0, 1)
    seed : int
    stratify : array-like or None
        Keep each label's share in both parts (e.g. ``2 * g + y`` for the SD cells). The
        paper's printed rates (e.g. 0.06 with 20 test points per cell impossible) suggest
        an unstratified split, the default.

    Returns
    -------
    list
        ``[a_train, a_test, b_train, b_test, ...]``.

    Examples
    --------
    >>> X, y, g = make_sd(3, n_per_cell=100, seed=0)
    >>> X_tr, X_te, *_ = split_train_test(X, y, g, seed=0)
    >>> len(X_tr), len(X_te)
    (320, 80)
    """
    if not arrays:
        raise ValueError("give at least one array")
    arrays = [np.asarray(a) for a in arrays]
    n = arrays[0].shape[0]
    if any(a.shape[0] != n for a in arrays):
        raise ValueError(f"arrays differ in length: {[a.shape[0] for a in arrays]}")
    if not 0.0 < test_size < 1.0:
        raise ValueError(f"test_size must be in (0, 1), got {test_size!r}")
    rng = np.random.default_rng(seed)
    if stratify is None:
        order = rng.permutation(n)
        n_test = int(round(test_size * n))
        test = np.sort(order[:n_test])
    else:
        labels = np.asarray(stratify)
        if labels.shape != (n,):
            raise ValueError(f"stratify must have shape ({n},), got {labels.shape}")
        test = []
        for label in np.unique(labels):
            members = rng.permutation(np.flatnonzero(labels == label))
            test.append(members[: int(round(test_size * members.size))])
        test = np.sort(np.concatenate(test))
    if test.size == 0 or test.size == n:
        raise ValueError(f"test_size={test_size} leaves one side empty for {n} rows")
    train = np.setdiff1d(np.arange(n), test)
    out = []
    for a in arrays:
        out += [a[train], a[test]]
    return out


#: D-Vlog's groups (Sec. 5.1.6 / Table 6): rows per (gender, label) and mean duration in
#: seconds; videos were truncated at 596 s.
DVLOG_CELLS = {
    ("F", 0): (266, 587.0),
    ("F", 1): (373, 667.0),
    ("M", 0): (140, 483.0),
    ("M", 1): (182, 583.0),
}
DVLOG_TRUNCATION_S = 596.0


def make_truncated_sequences(
    *,
    t_max: float | None = DVLOG_TRUNCATION_S,
    scale: float = 1.0,
    step_s: float = 10.0,
    duration_sd_s: float = 120.0,
    n_features: int = 4,
    episode_steps: int = 6,
    amplitude: float = 3.0,
    seed: int = 0,
) -> dict:
    """A labelled **stand-in** for D-Vlog: sequences of which one group's are cut more.

    Each recording has a duration drawn per (gender, label) around D-Vlog's mean
    durations (Table 6; normal with sd ``duration_sd_s``, at least 60 s), is sampled every
    ``step_s`` seconds, and carries ``n_features`` standard-normal features per step. The
    label is visible in one *episode* of ``episode_steps`` steps at a uniformly random
    place in the whole recording, where feature 0 is shifted by ``±amplitude`` (+ for
    Y = 1). Recordings are then truncated at ``t_max`` seconds (D-Vlog: 596; None keeps
    them whole) and zero-padded; an episode that reaches beyond the cut is (partly) lost.
    Females' recordings are longer, so truncation removes their evidence more often — the
    mechanism seed 000 holds responsible for its D-Vlog results (Sec. 6.2.3).

    Parameters
    ----------
    t_max : float or None
        Truncation point in seconds.
    scale : float
        Multiplies every cell's size (1 gives D-Vlog's 961 recordings).
    seed : int

    Returns
    -------
    dict
        ``X`` (N, L, d) float, zero-padded; ``lengths`` (N,) kept steps; ``y`` (N,);
        ``g`` (N,) ``'F'``/``'M'``; ``duration_s`` (N,); ``episode_lost`` (N,) bool.

    Examples
    --------
    >>> d = make_truncated_sequences(scale=0.1, seed=0)
    >>> d["X"].shape[0], d["X"].shape[1] <= 60
    (96, True)
    """
    if t_max is not None and t_max <= 0:
        raise ValueError(f"t_max must be > 0 or None, got {t_max!r}")
    if scale <= 0 or step_s <= 0 or episode_steps < 1 or n_features < 1:
        raise ValueError("scale, step_s, episode_steps and n_features must be positive")
    rng = np.random.default_rng(seed)
    durations, ys, gs = [], [], []
    for (gender, label), (count, mean_s) in DVLOG_CELLS.items():
        n = max(1, int(round(count * scale)))
        durations.append(np.maximum(rng.normal(mean_s, duration_sd_s, n), 60.0))
        ys.append(np.full(n, label))
        gs.append(np.full(n, gender))
    duration = np.concatenate(durations)
    y, g = np.concatenate(ys), np.concatenate(gs)
    full_steps = np.maximum(np.floor(duration / step_s).astype(int), episode_steps)
    kept = full_steps if t_max is None else np.minimum(full_steps, int(t_max // step_s))
    width = int(kept.max())
    X = np.zeros((y.size, width, n_features))
    lost = np.zeros(y.size, dtype=bool)
    for i in range(y.size):
        steps = rng.standard_normal((full_steps[i], n_features))
        start = rng.integers(0, full_steps[i] - episode_steps + 1)
        steps[start : start + episode_steps, 0] += amplitude * (2 * y[i] - 1)
        lost[i] = start + episode_steps > kept[i]
        X[i, : kept[i]] = steps[: kept[i]]
    return {"X": X, "lengths": kept, "y": y, "g": g, "duration_s": duration, "episode_lost": lost}
