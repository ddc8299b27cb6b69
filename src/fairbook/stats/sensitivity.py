"""Sensitivity studies: two-level (fractional) factorial designs and the share of settings
under which a claim holds.

A two-level factorial design over ``k`` factors codes each factor's levels as −1 (low) and
+1 (high); the full design has :math:`2^k` runs. A *fractional* design
:math:`2^{k-p}` runs a full design over ``k − p`` *base* factors and sets each of the ``p``
others to a product of base columns (its *generator*, e.g. ``E = ABC``). The generators'
shortest word in the defining relation is the design's *resolution*: with resolution IV
no main effect is aliased with another main effect or with a two-factor interaction
(Box, Hunter and Hunter 2005, ch. 6).

The share of (setting, seed) runs under which a claim holds is a binomial proportion; its
interval is Wilson's score interval (Wilson 1927), which stays inside [0, 1] and behaves at
shares of 0 and 1, unlike the Wald interval.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import stats

__all__ = ["fractional_factorial", "resolution", "share_holding"]


def fractional_factorial(
    n_base: int, generators: Mapping[str, Sequence[int]] | None = None
) -> np.ndarray:
    """The ±1 design matrix of a two-level (fractional) factorial design.

    Parameters
    ----------
    n_base : int
        Base factors (columns ``0 … n_base − 1``); they run through all :math:`2^{n}`
        combinations in standard (Yates) order, the first column changing fastest.
    generators : mapping of str to sequence of int, optional
        One added column per entry: the product of the named base columns (the keys only
        label them; their order is the columns' order).

    Returns
    -------
    ndarray of int, shape (2**n_base, n_base + len(generators))

    Examples
    --------
    >>> fractional_factorial(2).tolist()
    [[-1, -1], [1, -1], [-1, 1], [1, 1]]
    >>> fractional_factorial(2, {"C": (0, 1)})[:, 2].tolist()
    [1, -1, -1, 1]
    """
    if isinstance(n_base, bool) or not isinstance(n_base, (int, np.integer)) or n_base < 1:
        raise ValueError(f"n_base must be an integer >= 1, got {n_base!r}")
    base = np.array(
        [row[::-1] for row in itertools.product((-1, 1), repeat=int(n_base))], dtype=int
    )
    columns = [base]
    for name, word in (generators or {}).items():
        word = tuple(int(i) for i in word)
        if len(word) < 2 or len(set(word)) != len(word) or not all(0 <= i < n_base for i in word):
            raise ValueError(
                f"generator {name!r} must name at least two distinct base columns "
                f"0..{n_base - 1}, got {word}"
            )
        columns.append(np.prod(base[:, list(word)], axis=1, keepdims=True))
    return np.hstack(columns)


def resolution(design) -> int:
    """The resolution of a ±1 two-level design: the length of the shortest product of
    columns that is constant (the shortest word of the defining relation); 0 for a full
    design, which has none.

    Examples
    --------
    >>> resolution(fractional_factorial(3, {"D": (0, 1, 2)}))
    4
    >>> resolution(fractional_factorial(3))
    0
    """
    design = np.asarray(design)
    if design.ndim != 2 or not np.isin(design, (-1, 1)).all():
        raise ValueError("design must be a 2-D array of -1 and +1")
    k = design.shape[1]
    for length in range(1, k + 1):
        for subset in itertools.combinations(range(k), length):
            product = np.prod(design[:, list(subset)], axis=1)
            if (product == product[0]).all():
                return length
    return 0


def share_holding(holds, *, confidence: float = 0.95) -> dict:
    """The share of runs under which a claim holds, with Wilson's score interval.

    Parameters
    ----------
    holds : array of bool or float
        One entry per run; NaN (the claim undefined in that run) is left out.
    confidence : float, default 0.95

    Returns
    -------
    dict
        ``runs``, ``holds`` (count), ``share``, ``low``, ``high``; NaN share and interval
        when no run defines the claim.

    Examples
    --------
    >>> r = share_holding([True] * 9 + [False])
    >>> r["share"], round(r["low"], 3), round(r["high"], 3)
    (0.9, 0.596, 0.982)
    """
    values = np.asarray(holds, dtype=float).ravel()
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    values = values[np.isfinite(values)]
    if not np.isin(values, (0.0, 1.0)).all():
        raise ValueError("holds must be booleans (or NaN for an undefined run)")
    n, k = int(values.size), int(values.sum())
    if n == 0:
        return {"runs": 0, "holds": 0, "share": np.nan, "low": np.nan, "high": np.nan}
    z = stats.norm.ppf(0.5 + confidence / 2)
    share = k / n
    centre = (share + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(share * (1 - share) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return {
        "runs": n,
        "holds": k,
        "share": share,
        "low": float(max(0.0, centre - half)),
        "high": float(min(1.0, centre + half)),
    }
