"""What a positive prediction means for the person, and what each metric then tells.

A confusion matrix does not know whether its positive label is good or bad news. On a
loan, a positive prediction (approve) helps the person, and the error that hurts them is a
false negative: someone who would have repaid is refused. On a bail or fraud decision, a
positive prediction (detain, investigate) harms the person, and the error that hurts them
is a false positive: someone who would not have reoffended is held. Which gaps between
groups matter most follows from that one fact, so the audit asks for it:

``decision="punitive"``
    A positive prediction harms the person. False positives are the errors that matter
    most: FPR (and TNR = 1 − FPR) first, then FDR / PPV (how many of those penalised did
    not warrant it), then the share penalised (PPR).
``decision="assistive"``
    A positive prediction helps the person. False negatives are the errors that matter
    most: TPR (and FNR = 1 − TPR) first, then FOR / NPV (how many of those refused
    qualified), then the share helped (PPR).
``decision=None`` (not given)
    The report says so, keeps the metrics in the order they were asked for, and explains
    each for both directions. It never calls the positive label "beneficial".

``favourable`` says the same thing as a label: the label value that is good for the
person. ``favourable == positive`` means ``"assistive"``; the other label means
``"punitive"`` (:func:`decision_of`). Either option is enough; both are accepted when they
agree, so that a command line can take whichever its user thinks in.

:data:`MEANINGS` holds one line per metric — what it measures, and when to care under each
direction — written for this book; :func:`ranked` orders metrics for a direction.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairbook.labels import show_value

__all__ = [
    "DECISIONS",
    "MEANINGS",
    "Meaning",
    "check_decision",
    "decision_of",
    "direction",
    "ranked",
]

#: The two directions a positive prediction can have for the person.
DECISIONS = ("punitive", "assistive")

_ERRORS = {"punitive": "false positives", "assistive": "false negatives"}
_EFFECT = {"punitive": "harms", "assistive": "helps"}

#: Metrics in the order they matter for each direction (the person's errors first, then
#: the decision's reach, then the decision-maker's errors, then context). Metrics not
#: listed keep their given order after these.
_ORDER = {
    "punitive": (
        "FPR",
        "TNR",
        "FDR",
        "PPV",
        "PPR",
        "PNR",
        "B",
        "TPR",
        "FNR",
        "NPV",
        "FOR",
        "ACC",
        "INACC",
        "PREV",
        "NPREV",
    ),
    "assistive": (
        "TPR",
        "FNR",
        "FOR",
        "NPV",
        "PPR",
        "PNR",
        "B",
        "FPR",
        "TNR",
        "PPV",
        "FDR",
        "ACC",
        "INACC",
        "PREV",
        "NPREV",
    ),
}


@dataclass(frozen=True)
class Meaning:
    """One metric in plain words.

    Attributes
    ----------
    measures : str
        What the number is, for any decision.
    punitive, assistive : str
        When to care about a gap in it, when a positive prediction harms (helps) the person.
    unknown : str
        When to care, when the direction was not given.
    """

    measures: str
    punitive: str
    assistive: str
    unknown: str

    def care(self, decision: str | None) -> str:
        """When to care about a gap in this metric, for ``decision`` (None: not given)."""
        return self.unknown if decision is None else getattr(self, decision)


_SUMMARY = (
    "a single summary: two groups can score the same while one gets the false positives "
    "and the other the false negatives; read the error rates beside it"
)
_CONTEXT = (
    "not a property of the model but of the data; a gap here explains why equal selection "
    "rates and equal error rates cannot all hold at once"
)

#: One plain line per metric the audit can compare: what it measures, and when to care.
MEANINGS: dict[str, Meaning] = {
    "ACC": Meaning("share of the group whose prediction is right", _SUMMARY, _SUMMARY, _SUMMARY),
    "INACC": Meaning("share of the group whose prediction is wrong", _SUMMARY, _SUMMARY, _SUMMARY),
    "PREV": Meaning("share of the group whose true label is positive (base rate)", *[_CONTEXT] * 3),
    "NPREV": Meaning("share of the group whose true label is negative", *[_CONTEXT] * 3),
    "PPR": Meaning(
        "share of the group predicted positive (selection rate)",
        "how much of the group receives the harmful decision at all; a higher rate than the "
        "reference's is a burden even when every prediction is right",
        "how much of the group receives the benefit at all; a lower rate than the "
        "reference's is a shortfall even when every prediction is right",
        "how much of the group receives the positive decision; whether more is better or "
        "worse depends on the direction",
    ),
    "PNR": Meaning(
        "share of the group predicted negative (1 − PPR)",
        "how much of the group is spared; as PPR, read the other way",
        "how much of the group is refused; as PPR, read the other way",
        "as PPR, read the other way",
    ),
    "TPR": Meaning(
        "of the people whose true label is positive, the share predicted positive",
        "how completely the harmful decision reaches those it is meant for; matters to the "
        "decision-maker more than to the person",
        "of those who qualify, the share who get the benefit (1 − FNR): care most, a lower "
        "TPR means more of the group is wrongly refused",
        "1 − FNR: the person's error rate when a positive prediction helps",
    ),
    "FNR": Meaning(
        "of the people whose true label is positive, the share predicted negative (missed)",
        "those the harmful decision should have caught and did not: a cost to others, not "
        "a harm to the person",
        "of those who qualify, the share wrongly refused: care most, this is the error that "
        "hurts the person",
        "the person's error rate when a positive prediction helps",
    ),
    "FPR": Meaning(
        "of the people whose true label is negative, the share predicted positive",
        "of those who did not warrant it, the share penalised anyway: care most, this is "
        "the error that hurts the person",
        "of those who do not qualify, the share helped anyway: a cost to the decision-maker "
        "more than a harm to the person",
        "the person's error rate when a positive prediction harms",
    ),
    "TNR": Meaning(
        "of the people whose true label is negative, the share predicted negative (1 − FPR)",
        "1 − FPR: a lower TNR means more of the group is wrongly penalised; care as for FPR",
        "how well those who do not qualify are screened out; matters to the decision-maker",
        "1 − FPR: the person's side when a positive prediction harms",
    ),
    "PPV": Meaning(
        "of the people predicted positive, the share whose true label is positive (precision)",
        "of those penalised, the share who warranted it; 1 − PPV is the share penalised "
        "wrongly: care when the harm is heavy",
        "of those helped, the share who qualified; matters to the decision-maker",
        "1 − FDR: trust in a positive prediction",
    ),
    "FDR": Meaning(
        "of the people predicted positive, the share whose true label is negative (1 − PPV)",
        "of those penalised, the share who did not warrant it: care when the harm is heavy",
        "of those helped, the share who did not qualify; matters to the decision-maker",
        "how often a positive prediction is wrong",
    ),
    "NPV": Meaning(
        "of the people predicted negative, the share whose true label is negative",
        "of those spared, the share rightly spared; matters to the decision-maker",
        "of those refused, the share rightly refused; 1 − NPV is the share refused "
        "wrongly: care when the benefit is large",
        "1 − FOR: trust in a negative prediction",
    ),
    "FOR": Meaning(
        "of the people predicted negative, the share whose true label is positive (1 − NPV)",
        "of those spared, the share the decision should have caught; matters to the decision-maker",
        "of those refused, the share who qualified: care when the benefit is large",
        "how often a negative prediction is wrong",
    ),
    "B": Meaning(
        "(FP − FN) / n: the group's wrong positives minus its wrong negatives, per person",
        "above 0 the group's errors lean to wrongful penalties, below 0 to leniency; a "
        "group above the reference bears more of the harmful errors",
        "above 0 the group's errors lean to undeserved benefit, below 0 to wrongful "
        "refusal; a group below the reference bears more of the harmful errors",
        "which way the group's errors lean; which way hurts depends on the direction",
    ),
}


def check_decision(decision) -> str | None:
    """``decision`` checked: None, ``"punitive"`` or ``"assistive"`` (any case).

    Examples
    --------
    >>> check_decision("Punitive"), check_decision(None)
    ('punitive', None)
    >>> check_decision("maybe")
    Traceback (most recent call last):
    ...
    ValueError: decision must be 'punitive' (a positive prediction harms the person) or \
'assistive' (it helps), got 'maybe'
    """
    if decision is None:
        return None
    if isinstance(decision, str) and decision.strip().lower() in DECISIONS:
        return decision.strip().lower()
    raise ValueError(
        "decision must be 'punitive' (a positive prediction harms the person) or "
        f"'assistive' (it helps), got {show_value(decision)}"
    )


def decision_of(favourable_is_positive: bool) -> str:
    """The decision a favourable label implies: ``"assistive"`` when it is the positive one.

    Examples
    --------
    >>> decision_of(True), decision_of(False)
    ('assistive', 'punitive')
    """
    return "assistive" if favourable_is_positive else "punitive"


def direction(decision: str | None, positive: str, *, favourable: str | None = None) -> str:
    """The sentence that says what a positive prediction means for the person.

    Parameters
    ----------
    decision : {"punitive", "assistive"} or None
    positive : str
        The positive label as printed.
    favourable : str, optional
        The favourable label as printed, when the user named it.

    Examples
    --------
    >>> direction("punitive", "1")
    'A positive prediction (label 1) harms the person: false positives are the errors that \
matter most.'
    >>> direction(None, "1").startswith("Direction not given")
    True
    """
    if decision is None:
        return (
            f"Direction not given: the audit was not told whether a positive prediction "
            f"(label {positive}) helps or harms the person, and that decides which errors "
            "matter most (false negatives if it helps, false positives if it harms). Give "
            "decision 'assistive' or 'punitive' (--decision) or the favourable label "
            "(--favourable); until then the metrics keep the order given and each is "
            "explained both ways."
        )
    given = f" (favourable label {favourable}, as given)" if favourable is not None else ""
    return (
        f"A positive prediction (label {positive}) {_EFFECT[decision]} the person{given}: "
        f"{_ERRORS[decision]} are the errors that matter most."
    )


def ranked(metrics, decision: str | None) -> list[str]:
    """``metrics`` in the order they matter for ``decision`` (unchanged when None).

    Metrics the direction does not rank keep their given order, after the ranked ones.

    Examples
    --------
    >>> ranked(["ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV"], "punitive")
    ['FPR', 'PPV', 'PPR', 'B', 'TPR', 'NPV', 'ACC']
    >>> ranked(["ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV"], "assistive")
    ['TPR', 'NPV', 'PPR', 'B', 'FPR', 'PPV', 'ACC']
    >>> ranked(["ACC", "TPR"], None)
    ['ACC', 'TPR']
    """
    metrics = list(metrics)
    if decision is None:
        return metrics
    order = {m: i for i, m in enumerate(_ORDER[decision])}
    given = {m: i for i, m in enumerate(metrics)}
    return sorted(metrics, key=lambda m: (order.get(m, len(order)), given[m]))
