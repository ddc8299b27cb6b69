"""The audit's options: one table of constraints, one frozen object validated once.

Every option of :func:`fairbook.audit.audit` is a row of :data:`CONSTRAINTS`: its name, its
*kind* (what values it takes), its default, and its help text. From that one table come

* :class:`AuditOptions`, the frozen object the audit's steps read, validated on creation:
  each kind is checked by one function with one wording (:data:`KINDS`), so ``alpha`` and
  ``min_gap`` are refused in the same words;
* :func:`parse_text`, which reads the strings a command line gives (``"0.05"``, ``"0"`` for no
  group limit, ``"pred_*"``) as the kind's values;
* the ``fairbook audit`` flags (:func:`command_line_arguments`): every option reachable, every
  default from the table;
* the bad-parameter tests (``tests/audit/test_options.py`` draws invalid values per kind).

Labels (``positive``, ``favourable``, ``reference``) are checked against the data, which an
option object does not see: the pipeline does that (:mod:`fairbook.audit.pipeline`).

Examples
--------
>>> options = AuditOptions(groups=["race", "sex"], alpha=0.01)
>>> options.groups, options.alpha, options.lam
(('race', 'sex'), 0.01, 5.0)
>>> AuditOptions(test="Fisher").test
'fisher'
>>> AuditOptions(min_gap=1.5)
Traceback (most recent call last):
...
ValueError: min_gap must be a number between 0 and 1 (exclusive), got 1.5
>>> parse_text({"alpha": "0.1", "max_groups": "0", "intersections": True})
{'alpha': 0.1, 'max_groups': None, 'intersections': True}
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from fairbook.labels import show_value
from fairbook.parallel import check_n_jobs

from .decision_direction import check_decision
from .rate_tests import TEST_NAMES, TESTS
from .significance import EXACT_METRICS, check_metrics

__all__ = [
    "CONSTRAINTS",
    "DEFAULT_METRICS",
    "KINDS",
    "MAX_GROUPS",
    "MIN_ALPHA",
    "AuditOptions",
    "Constraint",
    "command_line_arguments",
    "parse_text",
]

#: The metrics compared by default: those of chapter 03's MATCH tables (each has an exact
#: MATCH law): accuracy, selection rate, marginal benefit, TPR, FPR, PPV, NPV.
DEFAULT_METRICS = ("ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV")

#: The default most groups per attribute: an audit of 10^5 groups answers in seconds
#: (benchmarks/bench_audit.py --groups), its text report in minutes.
MAX_GROUPS = 100_000

#: The smallest ``alpha`` accepted: the smallest normal double (about 2.2e-308). Below it
#: ``alpha`` is subnormal: it has lost digits, and Holm's thresholds ``alpha / k`` lose more
#: (``--alpha 1e-320`` printed "Holm p < 9.99989e-321"). A tiny normal ``alpha`` (1e-300) is
#: a legitimate way to ask for no flags at all, so it is accepted.
MIN_ALPHA = float(np.finfo(np.float64).tiny)


@dataclass(frozen=True)
class Constraint:
    """One option: its name, kind, default and help (the row of :data:`CONSTRAINTS`).

    ``floor`` is the smallest value a ``fraction`` takes; an ``optional`` column may be None;
    ``choices`` are the values a ``choice`` takes (the first is the default); ``flag`` and
    ``metavar`` are the
    command line's spelling (default ``--name-with-dashes``); ``repeatable`` options take
    the flag once per value.
    """

    name: str
    kind: str
    default: Any
    help: str
    floor: float = 0.0
    optional: bool = False
    flag: str | None = None
    metavar: str | None = None
    repeatable: bool = False
    choices: tuple[str, ...] = ()

    @property
    def option(self) -> str:
        """The command-line flag, e.g. ``--min-gap``."""
        return self.flag or "--" + self.name.replace("_", "-")


# --------------------------------------------------------------------------- the kinds
def _not_a(value) -> bool:
    return isinstance(value, bool) or not isinstance(value, numbers.Real)


def _fraction(c: Constraint, value) -> float:
    floor = f", at least {c.floor:g} (smaller is too small to test at)" if c.floor else ""
    if _not_a(value) or not (0.0 < float(value) < 1.0) or float(value) < c.floor:
        shown = value if _not_a(value) else float(value)
        raise ValueError(
            f"{c.name} must be a number between 0 and 1 (exclusive){floor}, got {shown!r}"
        )
    return float(value)


def _non_negative(c: Constraint, value) -> float:
    if _not_a(value) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{c.name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _jobs(c: Constraint, value) -> int:
    return check_n_jobs(value)


def _limit(c: Constraint, value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{c.name} must be a whole number >= 1, or None (no limit), got {value!r}")
    return int(value)


def _switch(c: Constraint, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{c.name} must be True or False, got {show_value(value)}")
    return bool(value)


def _column(c: Constraint, value):
    if value is None and c.optional:
        return None
    if value is None or not isinstance(value, Hashable) or isinstance(value, (bool, tuple)):
        raise ValueError(f"{c.name} must name one column, got {show_value(value)}")
    return value


def _columns(c: Constraint, value) -> tuple:
    if isinstance(value, str) or not np.iterable(value):
        value = [value]
    names = tuple(_column(dataclasses.replace(c, optional=False), v) for v in value)
    if not names:
        raise ValueError(f"{c.name} names no column; give at least one column")
    twice = sorted({show_value(n) for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"{c.name}: column {twice[0]} is named twice")
    return names


def _patterns(c: Constraint, value) -> tuple | None:
    if value is None or (isinstance(value, list | tuple) and not value):
        return None
    return _columns(c, value)


def _choice(c: Constraint, value) -> str:
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in c.choices:
        raise ValueError(f"{c.name} must be one of {', '.join(c.choices)}, got {show_value(value)}")
    return key


def _metrics(c: Constraint, value) -> tuple[str, ...]:
    return check_metrics(value)


def _decision(c: Constraint, value) -> str | None:
    return check_decision(value)


def _label(c: Constraint, value):
    if value is not None and not isinstance(value, Hashable):
        raise ValueError(f"{c.name} must be a single label, got {show_value(value)}")
    return value


def _references(c: Constraint, value):
    if value is None or isinstance(value, Mapping):
        return None if value is None else dict(value)
    return _label(c, value)


#: One check per kind of option, each with its own wording.
KINDS: dict[str, Callable[[Constraint, Any], Any]] = {
    "fraction": _fraction,
    "non-negative": _non_negative,
    "jobs": _jobs,
    "limit": _limit,
    "switch": _switch,
    "choice": _choice,
    "column": _column,
    "columns": _columns,
    "patterns": _patterns,
    "metrics": _metrics,
    "decision": _decision,
    "label": _label,
    "references": _references,
}

#: Every option of the audit, in the order of its signature.
CONSTRAINTS: tuple[Constraint, ...] = (
    Constraint("y_true", "column", "y_true", "column of true labels"),
    Constraint(
        "y_pred",
        "column",
        "y_pred",
        "column of predicted labels (with runs and no such column: the first run)",
        optional=True,
    ),
    Constraint(
        "groups",
        "columns",
        ("group",),
        "a column of group membership (repeatable)",
        flag="--group",
        metavar="COLUMN",
        repeatable=True,
    ),
    Constraint(
        "reference",
        "references",
        None,
        "the group everyone is compared with, per column (repeatable; default: the largest group)",
        metavar="[COLUMN=]GROUP",
        repeatable=True,
    ),
    Constraint("positive", "label", 1, "the positive label, the one TPR, FPR and PPR count"),
    Constraint(
        "intersections", "switch", False, "also audit the intersection of all group columns"
    ),
    Constraint(
        "score",
        "column",
        None,
        "a column of scores or probabilities of the positive label",
        optional=True,
    ),
    Constraint(
        "runs",
        "patterns",
        None,
        "prediction columns of repeated training runs, names or globs such as 'pred_*' "
        "(repeatable): verdict stability",
        metavar="PATTERN",
        repeatable=True,
    ),
    Constraint(
        "samples",
        "patterns",
        None,
        "probability columns of posterior samples or ensemble members, names or globs such "
        "as 'p_*' (repeatable): uncertainty fairness",
        metavar="PATTERN",
        repeatable=True,
    ),
    Constraint(
        "metrics",
        "metrics",
        DEFAULT_METRICS,
        f"a metric to compare (repeatable; one of {', '.join(EXACT_METRICS)})",
        flag="--metric",
        metavar="NAME",
        repeatable=True,
    ),
    Constraint(
        "alpha",
        "fraction",
        0.05,
        "family-wise error rate of the Holm-adjusted tests; intervals are at 1 - alpha",
        floor=MIN_ALPHA,
    ),
    Constraint(
        "test",
        "choice",
        "match",
        "the test of each rate against the reference's: "
        + "; ".join(f"{key}: {name}" for key, name in TEST_NAMES.items())
        + " (B is tested only by MATCH)",
        choices=TESTS,
    ),
    Constraint(
        "min_gap",
        "fraction",
        0.05,
        "the smallest gap counted as a disparity, and the gap a group must be large enough "
        "to detect",
    ),
    Constraint("lam", "non-negative", 5.0, "prior strength of Cross-Prior Smoothing"),
    Constraint("n_jobs", "jobs", 1, "processes for the MATCH p-values (-1: all cores)"),
    Constraint(
        "decision",
        "decision",
        None,
        "what a positive prediction means for the person: punitive (it harms them, e.g. "
        "detain: false positives matter most) or assistive (it helps, e.g. approve: false "
        "negatives matter most); orders and explains the metrics",
        metavar="punitive|assistive",
    ),
    Constraint(
        "favourable",
        "label",
        None,
        "the same, as the label that is good for the person (read in y_true's type): the "
        "positive label means assistive, the other punitive",
        metavar="LABEL",
    ),
    Constraint(
        "max_groups",
        "limit",
        MAX_GROUPS,
        "refuse an attribute with more groups than this (0 on the command line: no limit)",
        metavar="N",
    ),
)

_BY_NAME = {c.name: c for c in CONSTRAINTS}


@dataclass(frozen=True)
class AuditOptions:
    """The audit's options, validated once against :data:`CONSTRAINTS`.

    Every field is an option of :func:`fairbook.audit.audit`, with its default; creating the
    object checks each by its kind and normalises it (``groups`` and ``metrics`` as tuples,
    ``alpha`` as a float, ``decision`` lower-cased). It is frozen: the audit's steps read it
    and never change it; :meth:`replace` gives a checked copy.

    Examples
    --------
    >>> AuditOptions(metrics=["tpr", "FPR"]).metrics
    ('TPR', 'FPR')
    >>> try:
    ...     AuditOptions(lam=-1)
    ... except ValueError as error:
    ...     print(error)
    lam must be a finite number >= 0, got -1
    """

    y_true: Any = "y_true"
    y_pred: Any = "y_pred"
    groups: tuple = ("group",)
    reference: Any = None
    positive: Any = 1
    intersections: bool = False
    score: Any = None
    runs: tuple | None = None
    samples: tuple | None = None
    metrics: tuple[str, ...] = DEFAULT_METRICS
    alpha: float = 0.05
    test: str = "match"
    min_gap: float = 0.05
    lam: float = 5.0
    n_jobs: int = 1
    decision: str | None = None
    favourable: Any = None
    max_groups: int | None = MAX_GROUPS

    def __post_init__(self) -> None:
        for constraint in CONSTRAINTS:
            value = KINDS[constraint.kind](constraint, getattr(self, constraint.name))
            object.__setattr__(self, constraint.name, value)
        if not isinstance(self.reference, dict | type(None)):
            if len(self.groups) != 1:
                raise ValueError(
                    "with several group columns, give reference as {column: group}, "
                    f"not {show_value(self.reference)}"
                )
            object.__setattr__(self, "reference", {self.groups[0]: self.reference})

    @classmethod
    def from_keywords(cls, **keywords) -> AuditOptions:
        """The options from keywords, refusing an unknown one by name."""
        unknown = sorted(set(keywords) - set(_BY_NAME))
        if unknown:
            raise TypeError(
                f"unknown audit option {unknown[0]!r}; the options are {', '.join(_BY_NAME)}"
            )
        return cls(**keywords)

    def replace(self, **changes) -> AuditOptions:
        """A checked copy with ``changes``."""
        return dataclasses.replace(self, **changes)


# --------------------------------------------------------------------------- text
def _number(text: str, constraint: Constraint, cast: Callable[[str], Any]):
    try:
        return cast(text.strip())
    except ValueError:
        KINDS[constraint.kind](constraint, text)  # raises in the kind's own words
        raise  # pragma: no cover - every kind refuses a string


#: How a string of the command line becomes a value, per kind (other kinds keep the string).
_FROM_TEXT: dict[str, Callable[[str, Constraint], Any]] = {
    "fraction": lambda text, c: _number(text, c, float),
    "non-negative": lambda text, c: _number(text, c, float),
    "jobs": lambda text, c: _number(text, c, int),
    "limit": lambda text, c: (lambda n: None if n == 0 else n)(_number(text, c, int)),
}


def parse_text(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a command line gives them, read as values: numbers from strings, and
    ``max_groups`` 0 as no limit. Labels stay strings (the pipeline reads them in their
    column's type); values that are not strings pass unchanged.

    Examples
    --------
    >>> parse_text({"n_jobs": "-1", "lam": "0", "positive": "1"})
    {'n_jobs': -1, 'lam': 0.0, 'positive': '1'}
    >>> parse_text({"alpha": "five percent"})
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a number between 0 and 1 (exclusive), at least 2.22507e-308 \
(smaller is too small to test at), got 'five percent'
    """
    out = {}
    for name, value in options.items():
        constraint = _BY_NAME.get(name)
        if constraint is not None and constraint.kind in _FROM_TEXT and isinstance(value, str):
            value = _FROM_TEXT[constraint.kind](value, constraint)
        out[name] = value
    return out


def command_line_arguments() -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """``(flags, add_argument keywords)`` for every option: the ``fairbook audit`` flags.

    Every flag takes a string (or, for a switch, none); :func:`parse_text` reads it, so a bad
    value is refused in the kind's one wording. Defaults are shown from :data:`CONSTRAINTS`.

    Examples
    --------
    >>> [flags for flags, _ in command_line_arguments()][:3]
    [('--y-true',), ('--y-pred',), ('--group',)]
    """
    arguments: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    for c in CONSTRAINTS:
        default = c.default
        if isinstance(default, tuple):
            default = " ".join(str(v) for v in default)
        shown = "" if default is None else f" (default {default})"
        kwargs: dict[str, Any] = {"dest": c.name, "help": c.help + shown}
        if c.kind == "switch":
            kwargs["action"] = "store_true"
        else:
            kwargs["action"] = "append" if c.repeatable else "store"
            kwargs["metavar"] = c.metavar or ("|".join(c.choices) or c.name.upper())
        arguments.append(((c.option,), kwargs))
    return arguments
