"""Put a paper's printed number beside ours, with the difference and a verdict.

Every replicated table in the book is a list of :class:`Row` objects turned into a table by
:func:`replication_table`. A row names the *rule* that judges it, so the rule for "matches"
is stated once, here, and is the same wherever it is used:

* :class:`Rounding` — the paper prints rounded numbers, so ours matches when it rounds to
  the printed value, i.e. ``|ours − paper| ≤ ½·10^(−decimals)`` (plus an optional extra
  absolute tolerance for quantities that are themselves estimates);
* :class:`Bound` — the paper prints a bound (upper: ours must be below it; lower: at or
  above it);
* :class:`SameSign` — only the direction is compared (an effect the paper reports as an
  improvement must be an improvement here too).

* :class:`Exact` — counts and closed forms: equal (to floating-point rounding);
* :class:`Flag` — a decision the paper draws from the value (fair/unfair as
  ``|F − 1| > 0.2``): the decisions must agree, whatever the values;
* :class:`Interval` — a learned or sampled quantity: ours is a distribution over seeds or
  draws (:meth:`Row.from_samples`), and it matches when the paper's value lies inside our
  95 % interval, which the verdict shows;
* :class:`LogScale` — quantities that span orders of magnitude: the printed value's own
  precision in significant digits, and the difference in decades;
* :class:`NotComparable` — our number comes from a different experiment than the paper's,
  or the printed number cannot be computed here (data on request, an input of a worked
  example): listed with the reason, never a match;
* :class:`Words` — a share the paper describes in words ("most", "a majority", "some"):
  ours must satisfy the words (most: above 50 %), whatever its value;
* :class:`ReadingCheck` — a row whose agreement holds by construction (a number computed
  from our own reading of the paper, a rule chosen to reproduce a finding): the inner rule's
  verdict is shown, but it is a check of our reading, never a replicated match.

Every rule states itself in full, with its widenings and tolerances, in :attr:`Rule.text`
(the ledger's ``rule`` column). No rule passes a value of the wrong sign or direction: a
median of ours on the other side of 0 than a non-zero printed value fails every
numerical rule, and a ratio flagged on the other side of 1 is a different flag.

A row that passes may still say little: :attr:`Row.informative` is False when the row's
interval (or tolerance) is wider than :data:`INFORMATIVE_WIDTH` times the printed value or
contains 0 while the printed value does not; the ledger then calls the row *consistent but
uninformative* (``"uninformative"``) instead of a match.

A row may carry several rules (a ratio: its flag *and* its interval); it matches only when
every rule passes (:attr:`Row.passed`). Rules answer ``True`` (passes), ``False`` (fails) or
``None`` (no verdict: undefined on a side, not comparable, the paper printed no sign).

Functions that build a chapter's rows for one of the paper's tables are named
``<table>_replication`` (``table_3_1_replication``, ``theorem_4_3_replication``) and return
the table of :func:`replication_table`. The book-wide ledger (:mod:`fairbook_book.ledger`) is
made of these rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from fairbook_book.formatting import significant

__all__ = [
    "COLUMNS",
    "INFORMATIVE_WIDTH",
    "KINDS",
    "NOT_COMPARABLE_WHY",
    "OUTCOMES",
    "Bound",
    "Exact",
    "Flag",
    "Interval",
    "LogScale",
    "NotComparable",
    "ReadingCheck",
    "Rounding",
    "Row",
    "STALE",
    "SameSign",
    "Words",
    "at_recorded_budget",
    "by_budget",
    "float_format",
    "passes",
    "replication_table",
    "verdict",
]

#: What each verdict string means for the tallies: passes (True), fails (False), none (None).
_PASSES = {
    "matches": True,
    "differs": False,
    "yes": True,
    "no": False,
    "agrees": True,
    "disagrees": False,
    "holds": True,
    "fails": False,
}

#: The columns of every replication table, in order.
COLUMNS = ("quantity", "paper", "ours", "difference", "verdict", "note")

#: A passing row is *informative* only when its interval (or tolerance window) is at most
#: this share of the printed value's magnitude wide, and does not contain 0 while the
#: printed value is non-zero (:attr:`Row.informative`).
INFORMATIVE_WIDTH = 0.5

#: What kind of number a row's printed value is. Only a *result* — a number the paper's
#: experiment produced — can replicate; the others are checks, tallied apart:
#: *arithmetic* (computed from the paper's own printed inputs), *mathematics* (a formula,
#: bound or theorem evaluated), *data fact* (a property of a public data set), *input* (a
#: number the paper chose: a sample size, a hyperparameter, a worked example's input).
KINDS = ("result", "arithmetic", "mathematics", "data fact", "input")

#: Why a result is not compared, from a short list, so that a reader sees what more
#: resources would buy: the data are public but not available offline here, the runs need
#: GPU-days, the data are available only on request, the comparison was not attempted, or
#: the recording that would judge it is stale (its code changed since).
NOT_COMPARABLE_WHY = (
    "data not offline",
    "needs GPU-days",
    "data on request",
    "not attempted",
    "stale recording",
)

#: The ledger's outcomes. For a *result*: passes and informative (``matches``), passes but
#: says little (``uninformative``), fails (``differs``); on a stand-in for the paper's data
#: or model, passes or fails its direction (``in kind``, ``not in kind``, never a match);
#: not computed as the paper did (``not comparable``, with a reason from
#: :data:`NOT_COMPARABLE_WHY`). For any other kind (:data:`KINDS`): ``check holds`` or
#: ``check fails``. ``no verdict`` when a rule cannot judge (undefined on a side, one seed, a
#: rule chosen to reproduce the finding).
OUTCOMES = (
    "matches",
    "uninformative",
    "differs",
    "in kind",
    "not in kind",
    "not comparable",
    "no verdict",
    "check holds",
    "check fails",
)

#: What the verdict of a passing result whose window says little adds.
_UNINFORMATIVE = (
    f"; uninformative (our window is missing, holds 0 or is wider than {INFORMATIVE_WIDTH:g} × "
    "|paper|)"
)

#: The outcomes that judge a result against the paper's number.
RESULT_OUTCOMES = ("matches", "uninformative", "differs")


def _opposite(paper: float, ours: float) -> bool:
    """Whether ours lies on the other side of 0 than a non-zero printed value."""
    return paper != 0 and ours != 0 and math.copysign(1, paper) != math.copysign(1, ours)


def _window_informative(paper: float, low: float, high: float) -> bool:
    """Whether the window [low, high] around a printed value says something about it."""
    if paper == 0:
        return False
    if low <= 0 <= high:
        return False
    return bool((high - low) <= INFORMATIVE_WIDTH * abs(paper) + 1e-12)  # a bool, not np.bool_


def _number(value: float) -> str:
    """A tolerance in a rule's text: no float noise."""
    return significant(value, digits=3) if value else "0"


def _undefined(paper: float, ours: float) -> str | None:
    paper_nan, ours_nan = math.isnan(paper), math.isnan(ours)
    if paper_nan and ours_nan:
        return "both undefined"
    if paper_nan:
        return "paper undefined"
    if ours_nan:
        return "ours undefined"
    return None


def passes(verdict: str) -> bool | None:
    """Whether a rule's verdict string is a pass (True), a fail (False) or no verdict (None).

    Examples
    --------
    >>> passes("matches"), passes("upper bound fails"), passes("not comparable")
    (True, False, None)
    """
    if verdict in _PASSES:
        return _PASSES[verdict]
    if verdict.startswith("check of our reading"):
        return None  # agreement by construction is not a replication
    if verdict.startswith("opposite sign"):
        return False
    words = verdict.split(" ")
    if words[0] in ("matches", "differs"):  # "matches (+0.08 decades)"
        return words[0] == "matches"
    if words[0] == "in" and "interval" in verdict:
        return True
    if words[0] == "outside" and "interval" in verdict:
        return False
    if words[-1] in ("holds", "fails"):  # "upper bound holds"
        return words[-1] == "holds"
    if verdict.startswith(("flag agrees", "flag differs")):
        return verdict.startswith("flag agrees")
    return None  # undefined on a side, not comparable, no interval, a printed ±0


@dataclass(frozen=True)
class Exact:
    """Counts and closed forms: ours equals the paper's value (to 1e-9, relative).

    Examples
    --------
    >>> Exact().judge(6172, 6172)
    'matches'
    >>> Exact().judge(127, 126)
    'differs'
    """

    name = "exact"

    @property
    def text(self) -> str:
        """The rule in full."""
        return "exact (equal to one part in 10⁹)"

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """An exact equality always says something (None: not a window)."""
        return None

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"matches"``, ``"differs"`` or which side is undefined."""
        undefined = _undefined(paper, ours)
        if undefined:
            return undefined
        return "matches" if math.isclose(ours, paper, rel_tol=1e-9, abs_tol=1e-12) else "differs"


@dataclass(frozen=True)
class Rounding:
    """Ours matches when it rounds to the printed value.

    Parameters
    ----------
    decimals : int, default 2
        Decimals the paper printed; the tolerance is half a unit in the last place.
    extra : float, default 0
        Additional absolute tolerance (e.g. a Monte Carlo error).

    Examples
    --------
    >>> Rounding(decimals=2).judge(-0.06, -0.0556)
    'matches'
    >>> Rounding(decimals=2).judge(0.38, 0.40)
    'differs'
    """

    decimals: int = 2
    extra: float = 0.0
    name = "rounding"

    @property
    def tolerance(self) -> float:
        """Half a unit in the last printed place plus the extra tolerance."""
        return 0.5 * 10.0 ** (-self.decimals) + self.extra

    @property
    def text(self) -> str:
        """The rule in full, with its tolerance.

        Examples
        --------
        >>> Rounding(decimals=3, extra=0.001).text
        'rounding (|ours − paper| ≤ 0.0005, half a unit at 3 decimals, + extra tolerance 0.001)'
        """
        half = _number(0.5 * 10.0 ** (-self.decimals))
        extra = f", + extra tolerance {_number(self.extra)}" if self.extra else ""
        return f"rounding (|ours − paper| ≤ {half}, half a unit at {self.decimals} decimals{extra})"

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """With an extra tolerance, whether the widened window is informative
        (:data:`INFORMATIVE_WIDTH`); the printed precision alone is the paper's (None)."""
        if not self.extra:
            return None
        return _window_informative(paper, paper - self.tolerance, paper + self.tolerance)

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"matches"``, ``"differs"``, ``"opposite sign"`` or which side is undefined."""
        undefined = _undefined(paper, ours)
        if undefined:
            return undefined
        if _opposite(paper, ours):
            return "opposite sign"
        return "matches" if abs(ours - paper) <= self.tolerance + 1e-9 else "differs"


@dataclass(frozen=True)
class LogScale:
    """A quantity that spans orders of magnitude, at the printed precision.

    The printed value ``p`` with ``significant`` significant digits stands for the interval
    ``p ± ½·10^(e − significant + 1)`` with ``e = ⌊log10 |p|⌋``: ours matches inside it.
    The verdict also gives the difference in decades, ``log10(ours / paper)``. A printed
    0.0001 thus accepts 0.00005–0.00015 (not 0–0.0002).

    Examples
    --------
    >>> LogScale(significant=1).judge(0.0001, 0.00012)
    'matches (+0.08 decades)'
    >>> LogScale(significant=1).judge(0.0001, 0.00004)
    'differs (-0.40 decades)'
    """

    significant: int = 1
    name = "log scale"

    @property
    def text(self) -> str:
        """The rule in full."""
        return (
            f"log scale (within half a unit of the printed value's {self.significant} "
            "significant digit(s); same sign)"
        )

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """The printed precision is the paper's (None)."""
        return None

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"matches (…)"``, ``"differs (…)"`` or which side is undefined."""
        undefined = _undefined(paper, ours)
        if undefined:
            return undefined
        if paper == 0 or ours == 0 or np.sign(paper) != np.sign(ours):
            return "differs (sign or zero)" if ours != paper else "matches (0 decades)"
        exponent = math.floor(math.log10(abs(paper)))
        half_unit = 0.5 * 10.0 ** (exponent - self.significant + 1)
        decades = math.log10(ours / paper)
        inside = abs(ours - paper) <= half_unit * (1 + 1e-9)
        return f"{'matches' if inside else 'differs'} ({decades:+.2f} decades)"


@dataclass(frozen=True)
class Flag:
    """The paper's decision from the value must agree with ours, whatever the values.

    A value is flagged (``"unfair"``) when ``|value − pivot| > threshold``; seed 000 flags
    a ratio F when ``|F − 1| > 0.2``. The flag has a direction: a ratio above the band
    (``"unfair (> 1.2)"``) says group 0 has more of the measure, one below it the opposite,
    so a flag on the other side of the pivot is a different verdict.

    Examples
    --------
    >>> Flag(pivot=1.0, threshold=0.2).judge(1.15, 1.25)
    'flag differs: paper fair, ours unfair (> 1.2)'
    >>> Flag(pivot=1.0, threshold=0.2).judge(1.25, 3.0)
    'flag agrees (unfair (> 1.2))'
    >>> Flag(pivot=1.0, threshold=0.2).judge(151.0, 0.67)
    'flag differs: paper unfair (> 1.2), ours unfair (< 0.8)'
    """

    pivot: float = 1.0
    threshold: float = 0.2
    name = "flag"

    @property
    def text(self) -> str:
        """The rule in full."""
        low, high = _number(self.pivot - self.threshold), _number(self.pivot + self.threshold)
        return (
            f"flag (fair within [{low}, {high}]; unfair above {high} and unfair below {low} "
            "are different flags)"
        )

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """A decision, not a window (None)."""
        return None

    def decide(self, value: float) -> str:
        """``"unfair (> …)"`` or ``"unfair (< …)"`` beyond the threshold (the side says
        which group has more), ``"fair"`` within it, ``"undefined"`` for NaN."""
        if math.isnan(value):
            return "undefined"
        if abs(value - self.pivot) <= self.threshold:
            return "fair"
        if value > self.pivot:
            return f"unfair (> {_number(self.pivot + self.threshold)})"
        return f"unfair (< {_number(self.pivot - self.threshold)})"

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"flag agrees (…)"``, ``"flag differs: …"`` or which side is undefined."""
        undefined = _undefined(paper, ours)
        if undefined:
            return undefined
        p, o = self.decide(paper), self.decide(ours)
        return f"flag agrees ({p})" if p == o else f"flag differs: paper {p}, ours {o}"


@dataclass(frozen=True)
class Bound:
    """The printed value is a bound: ``upper`` holds when ours < paper, ``lower`` when
    ours ≥ paper.

    Examples
    --------
    >>> Bound("upper").judge(22.6, 48.0)
    'upper bound fails'
    >>> Bound("lower").judge(5.0, 5.0)
    'lower bound holds'
    """

    kind: str
    name = "bound"

    @property
    def text(self) -> str:
        """The rule in full."""
        side = "ours < paper" if self.kind == "upper" else "ours ≥ paper"
        return f"{self.kind} bound ({side}, no tolerance)"

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """A bound is a side, not a window (None)."""
        return None

    def __post_init__(self):
        if self.kind not in ("upper", "lower"):
            raise ValueError(f"a bound is 'upper' or 'lower', not {self.kind!r}")

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"<kind> bound holds"``, ``"<kind> bound fails"`` or ``"ours undefined"``."""
        if math.isnan(ours):
            return "ours undefined"
        ok = ours < paper if self.kind == "upper" else ours >= paper
        return f"{self.kind} bound {'holds' if ok else 'fails'}"


@dataclass(frozen=True)
class SameSign:
    """Only the sign is compared; a printed (−)0 has no sign to compare.

    Examples
    --------
    >>> SameSign().judge(0.041, 0.12)
    'yes'
    >>> SameSign().judge(0.0, -0.3)
    'paper ±0'
    """

    name = "same sign"

    @property
    def text(self) -> str:
        """The rule in full."""
        return (
            "same sign (only the direction; a printed ±0 has no sign: no verdict; "
            "uninformative without a window of ours, or when it holds 0 or is wider than "
            f"{INFORMATIVE_WIDTH:g} × |paper|)"
        )

    def informative(self, paper: float, ours: float, *, low=None, high=None, **_) -> bool:
        """Whether our window (``low``, ``high``: e.g. the seed spread) leaves the sign in
        no doubt *and* says something about the size: it excludes 0 and is at most
        :data:`INFORMATIVE_WIDTH` × |paper| wide. Without a window a sign says little
        (False): one number of ours could have fallen on either side.

        Examples
        --------
        >>> SameSign().informative(0.2, 0.25, low=0.2, high=0.28)
        True
        >>> SameSign().informative(0.2, 0.25, low=0.05, high=0.4)
        False
        >>> SameSign().informative(0.2, 0.25)
        False
        """
        if low is None or high is None or math.isnan(low) or math.isnan(high):
            return False
        return _window_informative(paper, low, high)

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"yes"``, ``"no"``, ``"paper ±0"`` or ``"ours undefined"``."""
        if paper == 0:
            return "paper ±0"
        if not np.isfinite(ours):
            return "ours undefined"
        return "yes" if np.sign(ours) == np.sign(paper) else "no"


@dataclass(frozen=True)
class Interval:
    """A learned or sampled quantity: the paper's value must lie in our interval.

    The row carries ``low`` and ``high`` (e.g. the 2.5 % and 97.5 % quantiles over seeds or
    draws, :meth:`Row.from_samples`) and ``n`` (how many); the verdict shows them. With one
    seed there is no interval, and the verdict says so instead of matching.

    Parameters
    ----------
    decimals : int, default 2
        The printed precision: the interval is widened by half a unit in the last printed
        place, since the paper's value is itself rounded (the widening is stated in
        :attr:`text`).

    A median of ours on the other side of 0 than a non-zero printed value fails
    (``"opposite sign"``) whatever the interval.

    Examples
    --------
    >>> Interval().judge(0.5, 0.48, low=0.41, high=0.55, n=10)
    'in 95 % interval [0.41, 0.55] (10 seeds)'
    >>> Interval().judge(0.7, 0.48, low=0.41, high=0.55, n=10)
    'outside 95 % interval [0.41, 0.55] (10 seeds)'
    >>> Interval().judge(0.7, 0.48, low=None, high=None, n=1)
    'no interval (1 seed)'
    >>> Interval().judge(0.1, -0.05, low=-0.2, high=0.3, n=10)
    'opposite sign (median -0.05, paper 0.1)'
    """

    decimals: int = 2
    what: str = "seeds"
    significant: int | None = None
    name = "interval"

    def half_unit_of(self, paper: float) -> float:
        """The widening for `paper`: half a unit in its last printed place, or, for a value
        printed in scientific notation (``significant`` digits), half a unit of its last
        significant digit (a log-scale precision: 6e-7 stands for 5.5e-7 to 6.5e-7).

        Examples
        --------
        >>> Interval(significant=1).half_unit_of(6e-7) == 0.5e-7
        True
        """
        if self.significant is None or not paper or not math.isfinite(paper):
            return self.half_unit
        exponent = math.floor(math.log10(abs(paper)))
        return 0.5 * 10.0 ** (exponent - self.significant + 1)

    @property
    def half_unit(self) -> float:
        """The widening: half a unit in the last printed place."""
        return 0.5 * 10.0 ** (-self.decimals)

    @property
    def text(self) -> str:
        """The rule in full, with its widening.

        Examples
        --------
        >>> print(Interval(decimals=4).text)  # doctest: +NORMALIZE_WHITESPACE
        interval (paper in our 95 % interval over seeds, widened by ±0.00005, half a unit at
        4 decimals; same sign as the median)
        """
        if self.significant is not None:
            widening = (
                f"half a unit of the printed value's {self.significant} significant digit(s), "
                "a log-scale precision for a value printed in scientific notation"
            )
        else:
            widening = f"±{_number(self.half_unit)}, half a unit at {self.decimals} decimals"
        return (
            f"interval (paper in our 95 % interval over {self.what}, widened by {widening}; "
            "same sign as the median)"
        )

    def informative(self, paper: float, ours: float, *, low=None, high=None, **_) -> bool | None:
        """Whether the widened interval is at most :data:`INFORMATIVE_WIDTH` × |paper| wide
        and does not contain 0 (None without an interval)."""
        if low is None or high is None or math.isnan(low) or math.isnan(high):
            return None
        half_unit = self.half_unit_of(paper)
        return _window_informative(paper, low - half_unit, high + half_unit)

    def judge(self, paper: float, ours: float, *, low=None, high=None, n=None, **_) -> str:
        """``"in …"``, ``"outside …"``, ``"opposite sign …"``, ``"no interval (…)"`` or which
        side is undefined."""
        undefined = _undefined(paper, ours)
        if undefined:
            return undefined
        count = "" if n is None else f" ({n} {self.what[:-1] if n == 1 else self.what})"
        if low is None or high is None or math.isnan(low) or math.isnan(high) or (n or 0) < 2:
            return f"no interval{count}"
        if _opposite(paper, ours):
            return f"opposite sign (median {_short(ours)}, paper {_short(paper)})"
        half_unit = self.half_unit_of(paper)
        inside = low - half_unit - 1e-12 <= paper <= high + half_unit + 1e-12
        shown = f"[{_short(low)}, {_short(high)}]"
        return f"{'in' if inside else 'outside'} 95 % interval {shown}{count}"


@dataclass(frozen=True)
class NotComparable:
    """Our number comes from a different experiment than the paper's: never a match.

    Parameters
    ----------
    reason : str, default ""
        What differs, in words.
    why : str, keyword-only, default "not attempted"
        What comparing would need, one of :data:`NOT_COMPARABLE_WHY` (the ledger's
        ``reason`` column).

    Examples
    --------
    >>> rule = NotComparable("our FIT runs are on Digits-S, the paper's on CIFAR-10",
    ...                      why="needs GPU-days")
    >>> rule.judge(5e-4, 4.9e-4)
    'not comparable'
    >>> NotComparable(why="too hard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: why is one of ['data not offline', ..., 'stale recording'], not 'too hard'
    """

    reason: str = ""
    why: str = "not attempted"
    name = "not comparable"

    def __post_init__(self):
        if self.why not in NOT_COMPARABLE_WHY:
            raise ValueError(f"why is one of {list(NOT_COMPARABLE_WHY)}, not {self.why!r}")

    @property
    def text(self) -> str:
        """The rule in full, with what comparing would need and the reason."""
        detail = "; ".join(part for part in (self.why, self.reason) if part)
        return f"not comparable ({detail})"

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """Never judged (None)."""
        return None

    def judge(self, paper: float, ours: float, **_) -> str:
        """Always ``"not comparable"``."""
        return "not comparable"


_WORDS = {"most": 50.0, "a majority": 50.0, "some": 0.0}


@dataclass(frozen=True)
class Words:
    """A share (in percent) that the paper describes in words: ours must satisfy them.

    ``"most"`` and ``"a majority"`` hold when ours is above 50 %, ``"some"`` when it is
    above 0 %; the printed value itself is judged by another rule of the row (an
    :class:`Interval` over our exact binomial interval, :meth:`Row.from_count`).

    Examples
    --------
    >>> Words("most").judge(68.2, 25.0)
    "'most' (> 50 %) fails"
    >>> Words("most").judge(68.2, 75.0)
    "'most' (> 50 %) holds"
    """

    claim: str
    name = "words"

    def __post_init__(self):
        if self.claim not in _WORDS:
            raise ValueError(f"the paper's words are one of {sorted(_WORDS)}, not {self.claim!r}")

    @property
    def text(self) -> str:
        """The rule in full."""
        return f"the paper's words: '{self.claim}' (ours > {_number(_WORDS[self.claim])} %)"

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """Words are a side, not a window (None)."""
        return None

    def judge(self, paper: float, ours: float, **_) -> str:
        """``"'<claim>' (> …) holds"``, ``"… fails"`` or ``"ours undefined"``."""
        if math.isnan(ours):
            return "ours undefined"
        above = _WORDS[self.claim]
        ok = ours > above
        return f"'{self.claim}' (> {_number(above)} %) {'holds' if ok else 'fails'}"


@dataclass(frozen=True)
class ReadingCheck:
    """A row whose agreement holds by construction: a check of our reading, not a replication.

    The inner rule's verdict is shown after ``"check of our reading: "``; the row has no
    verdict in the tallies whatever the inner rule says.

    Examples
    --------
    >>> rule = ReadingCheck(Exact(), "the year rule was chosen to reproduce Finding 5")
    >>> verdict = rule.judge(17, 17)
    >>> verdict, passes(verdict)
    ('check of our reading: matches', None)
    """

    rule: object
    reason: str
    name = "check of our reading"

    @property
    def text(self) -> str:
        """The rule in full, with the inner rule and why it holds by construction."""
        return f"check of our reading, not a replication ({self.reason}; {self.rule.text})"

    def informative(self, paper: float, ours: float, **_) -> bool | None:
        """Never a replicated match (None)."""
        return None

    def judge(self, paper: float, ours: float, **kwargs) -> str:
        """``"check of our reading: <inner verdict>"``."""
        return f"check of our reading: {self.rule.judge(paper, ours, **kwargs)}"


Rule = (
    Exact
    | Rounding
    | LogScale
    | Flag
    | Bound
    | SameSign
    | Interval
    | NotComparable
    | Words
    | ReadingCheck
)


def _short(value: float) -> str:
    """A number inside a verdict's words: three significant digits, never scientific."""
    return significant(value, digits=3) if abs(value) < 1000 else f"{value:,.0f}"


@dataclass(frozen=True)
class Row:
    """One paper number beside ours.

    Parameters
    ----------
    quantity : str
        What is compared, as the chapter's table names it.
    paper, ours : float
        The printed value and ours (NaN where undefined). For a quantity with a spread,
        ``ours`` is the median over seeds or draws.
    rule : a rule or a tuple of rules, default ``Rounding()``
        The named rule(s) that give the verdict; with several, the row passes only when
        every one does.
    note : str, default ""
        Why a difference arises, where known; a caveat.
    source : str, default ""
        The paper and its table, figure or theorem (``"seed 003 Table 3.1"``).
    low, high : float, optional
        Our interval (95 %, over seeds or draws); used by :class:`Interval`.
    n : int, optional
        How many seeds or draws ``ours`` summarises.
    iqr : tuple of float, optional
        The interquartile range over seeds, shown in the note.
    kind : str, keyword-only, default "result"
        What kind of number the printed value is (:data:`KINDS`). Only a result can
        replicate; any other kind is a check (outcome ``check holds`` or ``check fails``).
    derived : str, keyword-only, default ""
        Non-empty when the paper does not print this value: how it is derived from what
        the paper prints (``"103/154 of Finding 2's counts"``).
    stand_in : str, keyword-only, default ""
        Non-empty when ours comes from a stand-in for the paper's data or model
        (``"Adult for CASAS"``): a passing row agrees *in kind*, never matches.

    Examples
    --------
    >>> row = Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1")
    >>> row.verdict, row.passed
    ('matches', True)
    >>> Row("F_Alea", 1.18, 1.31, rule=(Flag(), Interval()), low=1.1, high=1.5, n=10).verdict
    'flag differs: paper fair, ours unfair (> 1.2); in 95 % interval [1.1, 1.5] (10 seeds)'
    """

    quantity: str
    paper: float
    ours: float
    rule: Rule | tuple = Rounding()
    note: str = ""
    source: str = ""
    low: float | None = None
    high: float | None = None
    n: int | None = None
    iqr: tuple | None = None
    kind: str = "result"
    derived: str = ""
    stand_in: str = ""

    def __post_init__(self):
        if not isinstance(self.quantity, str) or not self.quantity:
            raise ValueError(f"a row's quantity is a non-empty string, not {self.quantity!r}")
        if self.kind not in KINDS:
            raise ValueError(
                f"row {self.quantity!r}: kind is one of {list(KINDS)}, not {self.kind!r}"
            )
        for field_name in ("derived", "stand_in"):
            if not isinstance(getattr(self, field_name), str):
                raise ValueError(f"row {self.quantity!r}: {field_name} must be text")
        for field_name in ("paper", "ours"):
            value = getattr(self, field_name)
            try:
                object.__setattr__(self, field_name, float(value))
            except (TypeError, ValueError):
                raise ValueError(
                    f"row {self.quantity!r}: {field_name} must be a number, not {value!r}"
                ) from None
        for rule in self.rules:
            if not hasattr(rule, "judge"):
                raise ValueError(f"row {self.quantity!r}: rule must be a named rule, not {rule!r}")
        if (self.low is None) != (self.high is None):
            raise ValueError(f"row {self.quantity!r}: give both low and high, or neither")

    @classmethod
    def from_samples(cls, quantity: str, paper: float, samples, **kwargs) -> Row:
        """A row whose ``ours`` is the median of `samples` (seeds or draws), with the
        95 % interval (2.5 % and 97.5 % quantiles) and the interquartile range.

        Non-finite samples are left out of the summaries and counted in the note.

        Examples
        --------
        >>> row = Row.from_samples("F_SP", 1.05, [0.9, 1.0, 1.1, 1.2, 5000.0],
        ...                        rule=(Flag(), Interval()))
        >>> row.ours, row.n
        (1.1, 5)
        """
        values = np.asarray(samples, dtype=float).ravel()
        finite = values[np.isfinite(values)]
        note = kwargs.pop("note", "")
        if finite.size < values.size:
            dropped = f"{values.size - finite.size} of {values.size} undefined"
            note = f"{note}; {dropped}" if note else dropped
        if finite.size == 0:
            return cls(quantity, paper, math.nan, note=note, n=0, **kwargs)
        low, q1, median, q3, high = np.quantile(finite, [0.025, 0.25, 0.5, 0.75, 0.975])
        return cls(
            quantity,
            paper,
            float(median),
            note=note,
            low=float(low),
            high=float(high),
            n=int(finite.size),
            iqr=(float(q1), float(q3)),
            **kwargs,
        )

    @property
    def rules(self) -> tuple:
        """The row's rules as a tuple."""
        return self.rule if isinstance(self.rule, tuple) else (self.rule,)

    @property
    def verdicts(self) -> tuple[str, ...]:
        """Each rule's verdict."""
        return tuple(
            r.judge(self.paper, self.ours, low=self.low, high=self.high, n=self.n)
            for r in self.rules
        )

    @property
    def _check_verdicts(self) -> tuple[str, ...]:
        """A check's verdicts: a :class:`ReadingCheck` judged by its inner rule (a check of
        our reading is what such a row is)."""
        rules = [r.rule if isinstance(r, ReadingCheck) else r for r in self.rules]
        kwargs = {"low": self.low, "high": self.high, "n": self.n}
        return tuple(r.judge(self.paper, self.ours, **kwargs) for r in rules)

    @property
    def verdict(self) -> str:
        """The rules' verdicts, joined with ``"; "``: prefixed ``"<kind> check: "`` for a row
        that is not a result and ``"on a stand-in: "`` for a stand-in, and followed by
        ``"uninformative (…)"`` for a passing result whose window says little
        (:attr:`informative`).

        Examples
        --------
        >>> Row("OFI", -0.06, -0.0556, kind="arithmetic").verdict
        'arithmetic check: matches'
        """
        if self.kind != "result":
            return f"{self.kind} check: {'; '.join(self._check_verdicts)}"
        text = "; ".join(self.verdicts)
        if self.stand_in and not self.not_comparable_why:
            text = f"on a stand-in ({self.stand_in}): {text}"
        if self.informative is False:
            text += _UNINFORMATIVE
        return text

    @property
    def passed(self) -> bool | None:
        """True when every rule passes, False when one fails, None when none can judge.

        For a row that is not a result, a :class:`ReadingCheck` is judged by its inner
        rule: a check of our reading is what such a row is."""
        if self.kind != "result":
            results = [passes(v) for v in self._check_verdicts]
        else:
            results = [passes(v) for v in self.verdicts]
        if any(r is False for r in results):
            return False
        if any(r is None for r in results):
            return None
        return True

    @property
    def display_note(self) -> str:
        """The note, with why a number is not comparable and the median's sample size and
        interquartile range when there are such."""
        parts = [r.reason for r in self.rules if isinstance(r, NotComparable) and r.reason]
        parts += [self.note] if self.note and self.note not in parts else []
        if self.iqr is not None and self.n is not None:
            parts.append(f"median of {self.n}, IQR {_short(self.iqr[0])}–{_short(self.iqr[1])}")
        return "; ".join(parts)

    @property
    def rule_names(self) -> str:
        """The names of the row's rules, joined with ``" + "``."""
        return " + ".join(r.name for r in self.rules)

    @property
    def rule_text(self) -> str:
        """Every rule of the row in full, with its widenings and tolerances, joined with
        ``" + "`` (the ledger's ``rule`` column).

        Examples
        --------
        >>> Row("x", 0.5, 0.5, rule=Rounding(decimals=1)).rule_text
        'rounding (|ours − paper| ≤ 0.05, half a unit at 1 decimals)'
        """
        return " + ".join(r.text for r in self.rules)

    @property
    def informative(self) -> bool | None:
        """For a passing row, whether it says something: False when a rule's window (our
        interval, widened, or a tolerance with an extra term) is wider than
        :data:`INFORMATIVE_WIDTH` × |paper| or contains 0 while the paper's value does not;
        None for a row that does not pass.

        Examples
        --------
        >>> Row("U", 0.0004, 0.0003, rule=Interval(decimals=4), low=0.0, high=0.001,
        ...     n=3).informative
        False
        >>> Row("ACC", 0.70, 0.69, rule=Interval(), low=0.66, high=0.72, n=10).informative
        True
        """
        if self.passed is not True or self.kind != "result":
            return None
        verdicts = [
            r.informative(self.paper, self.ours, low=self.low, high=self.high, n=self.n)
            for r in self.rules
        ]
        return not any(v is not None and not v for v in verdicts)

    @property
    def not_comparable_why(self) -> str:
        """What comparing would need (:data:`NOT_COMPARABLE_WHY`) for a row judged
        :class:`NotComparable`, else ``""``."""
        for rule in self.rules:
            if isinstance(rule, NotComparable):
                return rule.why
        return ""

    @property
    def outcome(self) -> str:
        """One of :data:`OUTCOMES`.

        A result: ``"not comparable"`` under a :class:`NotComparable` rule; ``"no verdict"``
        when a rule cannot judge; on a stand-in, ``"in kind"`` or ``"not in kind"``;
        otherwise ``"matches"`` (passes, informative), ``"uninformative"`` (passes, see
        :attr:`informative`) or ``"differs"``. Any other kind: ``"check holds"``,
        ``"check fails"`` or ``"no verdict"``.

        Examples
        --------
        >>> Row("n", 6172, 6172, rule=Exact(), kind="data fact").outcome
        'check holds'
        >>> Row("gap", 0.2, 0.25, rule=SameSign(), low=0.21, high=0.29, n=10,
        ...     stand_in="Adult for CASAS").outcome
        'in kind'
        """
        if self.kind == "result" and self.not_comparable_why:
            return "not comparable"
        passed = self.passed
        if passed is None:
            return "no verdict"
        if self.kind != "result":
            return "check holds" if passed else "check fails"
        if self.stand_in:
            return "in kind" if passed else "not in kind"
        if passed is False:
            return "differs"
        return "matches" if self.informative else "uninformative"

    @classmethod
    def from_count(cls, quantity: str, paper: float, k: int, n: int, **kwargs) -> Row:
        """A row for a share in percent: ours is ``100 k / n`` with the exact
        (Clopper–Pearson) 95 % interval of the binomial proportion, and ``n`` trials.

        Examples
        --------
        >>> row = Row.from_count("most", 68.2, 3, 4, rule=Words("most"))
        >>> row.ours, round(row.low, 1), round(row.high, 1), row.n
        (75.0, 19.4, 99.4, 4)
        """
        from scipy.stats import binomtest

        k, n = int(k), int(n)
        if n <= 0:
            return cls(quantity, paper, math.nan, n=0, **kwargs)
        interval = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        return cls(
            quantity,
            paper,
            100.0 * k / n,
            low=100.0 * interval.low,
            high=100.0 * interval.high,
            n=n,
            **kwargs,
        )


def verdict(paper: float, ours: float, *, decimals: int = 2, extra: float = 0.0) -> str:
    """Compare one printed value with ours by the rounding rule (:class:`Rounding`).

    Examples
    --------
    >>> verdict(-0.06, -0.0556)
    'matches'
    >>> verdict(0.38, 0.40)
    'differs'
    """
    return Rounding(decimals=decimals, extra=extra).judge(float(paper), float(ours))


def replication_table(rows: Iterable[Row]) -> pd.DataFrame:
    """Build the paper-vs-ours table of a chapter.

    Parameters
    ----------
    rows : iterable of Row

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS`; ``difference`` is ``ours − paper``. The rows themselves
        (with their rules and sources) are kept in ``attrs["rows"]``.

    Examples
    --------
    >>> t = replication_table([Row("OFI (A)", -0.06, -0.0556)])
    >>> t.loc[0, "verdict"]
    'matches'
    """
    rows = tuple(rows)
    for row in rows:
        if not isinstance(row, Row):
            raise TypeError(f"replication_table takes Row objects, not {type(row).__name__}")
    table = pd.DataFrame.from_records(
        [
            {
                "quantity": row.quantity,
                "paper": row.paper,
                "ours": row.ours,
                "difference": row.ours - row.paper,
                "verdict": row.verdict,
                "note": row.display_note,
            }
            for row in rows
        ],
        columns=list(COLUMNS),
    )
    table.attrs["rows"] = rows
    return table


def by_budget(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The same quantities judged at several budgets, side by side.

    Parameters
    ----------
    tables : mapping of str to DataFrame
        Budget label (``"full (recorded 2026-11-25)"``, ``"this build (fast)"``) to a table
        from :func:`replication_table`; rows are matched by ``quantity``.

    Returns
    -------
    pandas.DataFrame
        Indexed by quantity: ``paper`` and, per budget, ``<label>: ours`` and
        ``<label>: verdict`` (missing where a budget lacks the quantity).

    Examples
    --------
    >>> fast = replication_table([Row("share", 1.0, 0.88, rule=Exact(), source="seed 003")])
    >>> full = replication_table([Row("share", 1.0, 1.0, rule=Exact(), source="seed 003")])
    >>> by_budget({"full": full, "fast": fast}).loc["share"].astype(str).tolist()
    ['1.0', '1.0', 'matches', '0.88', 'differs']
    """
    columns = {}
    paper = {}
    order: list[str] = []
    for label, table in tables.items():
        for row in table.attrs.get("rows", ()):
            if row.quantity not in paper:
                order.append(row.quantity)
                paper[row.quantity] = row.paper
            columns.setdefault(f"{label}: ours", {})[row.quantity] = row.ours
            columns.setdefault(f"{label}: verdict", {})[row.quantity] = row.verdict
    frame = pd.DataFrame({"paper": pd.Series(paper, dtype=float)}, index=order)
    for label in tables:
        for part in ("ours", "verdict"):
            key = f"{label}: {part}"
            frame[key] = pd.Series(columns.get(key, {}), dtype=float if part == "ours" else object)
    frame.index.name = "quantity"
    return frame


#: The rule every row of a stale recording gets: its numbers are shown for context only.
STALE = NotComparable(
    "STALE recording: the code it depends on changed since it was made", why="stale recording"
)


def at_recorded_budget(table: pd.DataFrame, *, note: str, stale: bool) -> pd.DataFrame:
    """A replication table judged on a recorded run: every row's note says what was
    recorded (``note``), and a **stale** recording's rows are :data:`STALE` (not comparable),
    never judged by their own rules.

    Parameters
    ----------
    table : DataFrame
        From :func:`replication_table` (its rows are in ``table.attrs["rows"]``), computed
        on the recording's numbers.
    note : str
        What the recording holds, e.g. ``"7 of 10 seeds recorded"``.
    stale : bool
        :attr:`fairbook_book.recordings.Recording.stale`.

    Examples
    --------
    >>> t = replication_table([Row("x", 0.5, 0.5, note="by hand")])
    >>> at_recorded_budget(t, note="3 seeds", stale=False)["note"].tolist()
    ['by hand; 3 seeds']
    >>> at_recorded_budget(t, note="3 seeds", stale=True)["verdict"].tolist()
    ['not comparable']
    """
    rows = []
    for row in table.attrs["rows"]:
        changes = {"note": f"{row.note}; {note}" if row.note else note}
        if stale:
            changes["rule"] = STALE
        rows.append(replace(row, **changes))
    return replication_table(rows)


def float_format(value: float) -> str:
    """How a replicated table prints a float: 4 significant digits, and numbers from 10,000
    on as grouped integers.

    A paper column can hold 0.0005 and 100 at once; pandas prints such a column with a fixed
    number of decimals or, when that would hide the small values, all of it in scientific
    notation. Set it for a chapter with
    ``pd.set_option("display.float_format", replication.float_format)``.

    Examples
    --------
    >>> float_format(7.4), float_format(0.0005), float_format(12.846), float_format(25933.0)
    ('7.4', '0.0005', '12.85', '25,933')
    >>> float_format(5.5e-85), float_format(float("nan")), float_format(-0.10683)
    ('5.5e-85', 'nan', '-0.1068')
    """
    if math.isfinite(value) and abs(value) >= 10_000:
        return f"{value:,.0f}"
    return f"{value:.4g}"
