"""PTN's hyper-parameter space (seed 003, Table 5.1) and its genetic operators.

A *space* maps gene names to domains, either a :class:`Choice` (a finite set of values, ordered
or not) or a :class:`Range` (an interval, optionally logarithmic). An *agent* is a plain dict
mapping every gene of a space to one value; it is JSON-serialisable (native Python numbers
and strings only), which is what :mod:`fairbook.forecasting.search` checkpoints.

Crossover (Sec. 5.4.1) weights the parents by their fitness. Seed 003 phrases the rule for a
fitness that is *maximised*; here fitness is a CRPS and is *minimised*, so the weight of a
parent is its **inverse** fitness, normalised::

    w_a = (1/f_a) / (1/f_a + 1/f_b) = f_b / (f_a + f_b),      w_b = 1 − w_a.

The better (smaller) parent therefore gets the larger weight; equal fitness gives ½ each; a
parent whose fitness is zero (perfect) gets all the weight, and a non-finite (failed) fitness
none. Then

* unordered choice — the child takes parent ``a``'s value with probability ``w_a``;
* ordered choice — the weighted mean ``w_a·a + w_b·b`` of the values (of their indices when the
  values are not numbers), snapped to the nearest allowed value; an exact tie between two
  allowed values goes to the better parent (to a coin flip when the fitnesses are equal);
* range — the weighted mean ``w_a·a + w_b·b``; for a logarithmic range in the natural-log space,
  ``exp(w_a ln a + w_b ln b)`` (with equal weights: the geometric mean).

Mutation resamples every gene independently with probability ``rate`` from its domain (uniform
over a choice's values, uniform over a range, log-uniform over a log range).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from types import MappingProxyType

import numpy as np

__all__ = [
    "PTN_SPACE",
    "Choice",
    "Range",
    "crossover",
    "make_space",
    "mutate",
    "parent_weights",
    "sample",
    "validate_agent",
    "validate_space",
]


def _native(value):
    """A NumPy scalar as the matching Python scalar (agents must be JSON-serialisable)."""
    return value.item() if isinstance(value, np.generic) else value


@dataclass(frozen=True)
class Choice:
    """A finite set of allowed values.

    Parameters
    ----------
    values : sequence
        The allowed values, at least one, no duplicates. For an ordered choice they are sorted
        ascending when they are numbers, else kept in the given order.
    ordered : bool, default True
        Whether crossover may interpolate between values (hidden size, kernel sizes) or must
        pick one parent's value (the normalisation layer).

    Examples
    --------
    >>> Choice([96, 72]).values
    (72, 96)
    """

    values: tuple
    ordered: bool = True

    def __post_init__(self):
        values = tuple(_native(v) for v in self.values)
        if not values:
            raise ValueError("a Choice needs at least one value")
        if len(set(values)) != len(values):
            raise ValueError(f"a Choice's values must be distinct; got {values}")
        if self.ordered and all(isinstance(v, Real) for v in values):
            values = tuple(sorted(values))
        object.__setattr__(self, "values", values)

    @property
    def numeric(self) -> bool:
        """Whether every value is a real number (then interpolation uses the values)."""
        return all(isinstance(v, Real) and not isinstance(v, bool) for v in self.values)

    def __contains__(self, value) -> bool:
        return not isinstance(value, bool) and value in self.values


@dataclass(frozen=True)
class Range:
    """A closed interval ``[low, high]`` of real values.

    Parameters
    ----------
    low, high : float
        The bounds, ``low <= high``; both positive when ``log``.
    log : bool, default False
        Sample log-uniformly and interpolate in the natural-log space.

    Examples
    --------
    >>> Range(1e-5, 1e-3, log=True).log
    True
    """

    low: float
    high: float
    log: bool = False

    def __post_init__(self):
        low, high = float(self.low), float(self.high)
        if not (math.isfinite(low) and math.isfinite(high)) or low > high:
            raise ValueError(f"a Range needs finite low <= high; got [{self.low}, {self.high}]")
        if self.log and low <= 0:
            raise ValueError(f"a logarithmic Range needs low > 0; got {self.low}")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)

    def __contains__(self, value) -> bool:
        return isinstance(value, Real) and self.low <= float(value) <= self.high


_KERNELS = tuple(range(1, 16, 2))
_HEADS = (2, 3, 4, 6, 8, 12)
_ADAM = {"lr": Range(1e-5, 1e-3, log=True), "beta1": Range(0.5, 0.99), "beta2": Range(0.95, 0.999)}

_PTN_SPACE = {
    "hidden_size": Choice(tuple(range(72, 256, 24))),
    "dropout": Range(0.0, 0.5),
    "first_dropout": Range(0.0, 0.5),
    "lrelu_slope": Range(0.0, 0.3),
    "history_heads": Choice(_HEADS),
    "forecast_heads": Choice(_HEADS),
    "noise_sd": Range(0.0, 0.25),
    **{f"arch_{k}": v for k, v in _ADAM.items()},
    **{f"weight_{k}": v for k, v in _ADAM.items()},
    "normalisation": Choice(("layer", "batch", "none"), ordered=False),
    "history_embed_kernel": Choice(_KERNELS),
    "history_conv_kernel": Choice(_KERNELS),
    "forecast_collapse_width": Choice(_KERNELS),
    "forecast_collapse_height": Choice(_KERNELS),
    "forecast_embed_kernel": Choice(tuple(range(1, 10, 2))),
    "forecast_conv_kernel": Choice(_KERNELS),
    "output_temporal_kernel": Choice(_KERNELS),
    "output_feature_kernel": Choice(_KERNELS),
}

#: Table 5.1, one entry per row, in the table's order (read-only; see :func:`make_space`).
PTN_SPACE: Mapping[str, Choice | Range] = MappingProxyType(_PTN_SPACE)


def validate_space(space: Mapping) -> None:
    """Raise ``ValueError`` unless ``space`` maps names to domains PTN can be built from.

    Every domain must be a :class:`Choice` or :class:`Range`; where the space has a
    ``hidden_size`` and head-count genes, every hidden size must be even (the bi-GRU runs
    ``d/2`` units each way) and divisible by every head count.

    Examples
    --------
    >>> validate_space(PTN_SPACE)
    >>> validate_space(make_space(hidden_size=Choice([20])))
    Traceback (most recent call last):
    ...
    ValueError: hidden size 20 is not divisible by history_heads 3
    """
    if not isinstance(space, Mapping) or not space:
        raise ValueError("a space must be a non-empty mapping of gene names to domains")
    for name, domain in space.items():
        if not isinstance(domain, Choice | Range):
            raise ValueError(f"gene {name!r} has domain {domain!r}; expected a Choice or Range")
    if "hidden_size" in space:
        sizes = space["hidden_size"].values if isinstance(space["hidden_size"], Choice) else ()
        for d in sizes:
            if not isinstance(d, int) or d < 2 or d % 2:
                raise ValueError(f"hidden size {d!r} must be an even integer >= 2")
            for heads_gene in ("history_heads", "forecast_heads"):
                domain = space.get(heads_gene)
                for h in domain.values if isinstance(domain, Choice) else ():
                    if d % h:
                        raise ValueError(f"hidden size {d} is not divisible by {heads_gene} {h}")


def make_space(base: Mapping | None = None, **overrides) -> dict:
    """A copy of ``base`` (default :data:`PTN_SPACE`) with some domains replaced.

    This is how a chapter's fast profile shrinks the space, e.g. to ``d ∈ {24, 48}``.

    Parameters
    ----------
    base : mapping, optional
        The space to start from.
    **overrides : Choice or Range
        New domains for existing genes (an unknown name is an error).

    Returns
    -------
    dict
        The new, validated space.

    Examples
    --------
    >>> small = make_space(hidden_size=Choice([24, 48]))
    >>> small["hidden_size"].values, len(small) == len(PTN_SPACE)
    ((24, 48), True)
    """
    space = dict(PTN_SPACE if base is None else base)
    for name, domain in overrides.items():
        if name not in space:
            raise ValueError(f"unknown gene {name!r}; the space has {sorted(space)}")
        space[name] = domain
    validate_space(space)
    return space


def validate_agent(agent: Mapping, space: Mapping) -> None:
    """Raise ``ValueError`` unless ``agent`` has exactly the genes of ``space``, all in range.

    Examples
    --------
    >>> validate_agent({"x": 0.5}, {"x": Range(0, 1)})
    >>> validate_agent({"x": 2.0}, {"x": Range(0, 1)})
    Traceback (most recent call last):
    ...
    ValueError: gene 'x' = 2.0 is outside its domain Range(low=0.0, high=1.0, log=False)
    """
    unknown = set(agent) - set(space)
    if unknown:
        raise ValueError(f"unknown gene(s) {sorted(unknown)}")
    missing = set(space) - set(agent)
    if missing:
        raise ValueError(f"missing gene(s) {sorted(missing)}")
    for name, domain in space.items():
        if agent[name] not in domain:
            raise ValueError(f"gene {name!r} = {agent[name]!r} is outside its domain {domain!r}")


def _sample_gene(domain, rng: np.random.Generator):
    if isinstance(domain, Choice):
        return domain.values[int(rng.integers(len(domain.values)))]
    if domain.log:
        value = math.exp(rng.uniform(math.log(domain.low), math.log(domain.high)))
    else:
        value = float(rng.uniform(domain.low, domain.high))
    return min(max(value, domain.low), domain.high)


def sample(space: Mapping, rng: np.random.Generator) -> dict:
    """One agent drawn uniformly from ``space`` (log-uniformly over a log range).

    Parameters
    ----------
    space : mapping of str to Choice or Range
    rng : numpy.random.Generator

    Returns
    -------
    dict
        Gene name to value, in the space's order.

    Examples
    --------
    >>> agent = sample(PTN_SPACE, np.random.default_rng(0))
    >>> agent["hidden_size"] in PTN_SPACE["hidden_size"].values
    True
    """
    validate_space(space)
    return {name: _sample_gene(domain, rng) for name, domain in space.items()}


def parent_weights(fitness_a: float, fitness_b: float) -> tuple[float, float]:
    """Crossover weights ``(w_a, w_b)`` of two parents whose fitness is *minimised*.

    ``w_a = f_b / (f_a + f_b)`` (inverse-fitness weighting); ½ each for equal fitness; a
    non-finite fitness weighs 0 against a finite one.

    Examples
    --------
    >>> parent_weights(1.0, 3.0)
    (0.75, 0.25)
    >>> parent_weights(2.0, 2.0)
    (0.5, 0.5)
    """
    fa, fb = float(fitness_a), float(fitness_b)
    if fa < 0 or fb < 0:
        raise ValueError(f"fitness must be non-negative (a CRPS); got {fitness_a}, {fitness_b}")
    finite_a, finite_b = math.isfinite(fa), math.isfinite(fb)
    if finite_a != finite_b:
        return (1.0, 0.0) if finite_a else (0.0, 1.0)
    if not finite_a or fa == fb:
        return 0.5, 0.5
    w_a = fb / (fa + fb)
    return w_a, 1.0 - w_a


def _snap(target: float, grid, better: float, tie_break: bool, rng) -> int:
    """Index of the grid value nearest ``target``.

    An exact tie goes to the candidate nearest ``better`` (the better parent's position), or
    to a coin flip when ``tie_break`` (equal fitness).
    """
    grid = np.asarray(grid, dtype=float)
    dist = np.abs(grid - target)
    best = np.flatnonzero(np.isclose(dist, dist.min(), rtol=0, atol=1e-9))
    if len(best) == 1:
        return int(best[0])
    if tie_break:
        return int(best[int(rng.integers(len(best)))])
    return int(best[np.argmin(np.abs(grid[best] - better))])


def crossover(
    a: Mapping,
    b: Mapping,
    fitness_a: float,
    fitness_b: float,
    rng: np.random.Generator,
    *,
    space: Mapping | None = None,
) -> dict:
    """Proportional crossover of two agents (seed 003, Sec. 5.4.1), fitness minimised.

    Parameters
    ----------
    a, b : dict
        The parents, agents of ``space``.
    fitness_a, fitness_b : float
        Their (non-negative, minimised) fitness; see :func:`parent_weights`.
    rng : numpy.random.Generator
    space : mapping, optional
        Default :data:`PTN_SPACE`.

    Returns
    -------
    dict
        The child, inside ``space``.

    Examples
    --------
    >>> s = {"lr": Range(1e-4, 1e-2, log=True), "k": Choice([1, 3, 5, 7])}
    >>> child = crossover({"lr": 1e-4, "k": 1}, {"lr": 1e-2, "k": 5}, 1.0, 1.0,
    ...                   np.random.default_rng(0), space=s)
    >>> round(child["lr"], 6), child["k"]      # geometric mean, midpoint
    (0.001, 3)
    """
    space = PTN_SPACE if space is None else space
    validate_agent(a, space)
    validate_agent(b, space)
    w_a, w_b = parent_weights(fitness_a, fitness_b)
    child = {}
    for name, domain in space.items():
        va, vb = a[name], b[name]
        if isinstance(domain, Range):
            if domain.log:
                value = math.exp(w_a * math.log(va) + w_b * math.log(vb))
            else:
                value = w_a * float(va) + w_b * float(vb)
            lo, hi = min(va, vb), max(va, vb)
            child[name] = float(min(max(value, lo), hi))  # guard against rounding
        elif not domain.ordered:
            child[name] = va if rng.random() < w_a else vb
        else:
            grid = domain.values if domain.numeric else range(len(domain.values))
            pa = float(va) if domain.numeric else float(domain.values.index(va))
            pb = float(vb) if domain.numeric else float(domain.values.index(vb))
            index = _snap(w_a * pa + w_b * pb, grid, pa if w_a > w_b else pb, w_a == w_b, rng)
            child[name] = domain.values[index]
    return child


def mutate(agent: Mapping, rate: float, space: Mapping | None = None, rng=None) -> dict:
    """Resample each gene of ``agent`` independently with probability ``rate``.

    One uniform number is drawn per gene whatever ``rate`` is, so the random stream does not
    depend on it.

    Parameters
    ----------
    agent : dict
    rate : float in [0, 1]
    space : mapping, optional
        Default :data:`PTN_SPACE`.
    rng : numpy.random.Generator
        Required.

    Returns
    -------
    dict
        A new agent (``agent`` itself is not changed).

    Examples
    --------
    >>> s = {"x": Range(0.0, 1.0)}
    >>> mutate({"x": 0.5}, 0.0, s, np.random.default_rng(0))
    {'x': 0.5}
    """
    space = PTN_SPACE if space is None else space
    if rng is None:
        raise ValueError("mutate needs an rng (numpy.random.Generator)")
    if not 0.0 <= float(rate) <= 1.0:
        raise ValueError(f"mutation rate must be in [0, 1]; got {rate!r}")
    validate_agent(agent, space)
    child = dict(agent)
    for name, domain in space.items():
        if rng.random() < rate:
            child[name] = _sample_gene(domain, rng)
    return child
