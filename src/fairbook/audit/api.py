"""The audit itself: a table of predictions in, an :class:`~fairbook.audit.AuditReport` out.

:func:`audit` takes a DataFrame with one row per person (or, as before, the three arrays
``y_true, y_pred, groups``) and runs every part of the audit that its options ask for;
:func:`audit_file` reads the table from a CSV or Parquet file and takes options as a command
line gives them (strings, glob patterns, ``attribute=group``). Every bad input is a
``ValueError`` (or ``FileNotFoundError``) whose one-line message names the problem.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from fairbook.labels import (
    binary_indicators,
    encode_values,
    label_array,
    label_position,
    show_value,
    show_values,
)
from fairbook.metrics import compare, compute
from fairbook.parallel import check_n_jobs

from . import columns as cols
from .bias_metrics import seven_metrics
from .comparisons import adjust, compare_to_reference
from .files import read_predictions
from .groups import (
    INTERSECTION_SEPARATOR,
    count_cells,
    encode_attribute,
    intersect,
    outcome_cells,
)
from .meaning import check_decision, decision_of
from .rates import between_groups, rate_table
from .report import GROUP_RATES, AuditReport
from .scores import score_table
from .significance import check_metrics
from .stability import run_comparisons, seven_stability, stability_table
from .uncertainty import person_uncertainty, uncertainty_table

__all__ = ["DEFAULT_METRICS", "audit", "audit_file"]

#: The metrics compared by default: those of chapter 03's MATCH tables (each has an exact
#: MATCH law): accuracy, selection rate, marginal benefit, TPR, FPR, PPV, NPV.
DEFAULT_METRICS = ("ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV")


# --------------------------------------------------------------------------- checks
#: The default most groups per attribute: an audit of 10^5 groups answers in seconds
#: (benchmarks/bench_audit.py --groups), its text report in minutes.
MAX_GROUPS = 100_000


def _check_group_count(attributes, max_groups) -> None:
    if max_groups is None:
        return
    if isinstance(max_groups, bool) or not isinstance(max_groups, numbers.Integral):
        raise ValueError(f"max_groups must be a whole number or None, got {max_groups!r}")
    if max_groups < 1:
        raise ValueError(f"max_groups must be at least 1, got {max_groups}")
    for attribute in attributes:
        if attribute.n_groups > max_groups:
            raise ValueError(
                f"group column {attribute.name!r} has {attribute.n_groups:,} groups, above "
                f"max_groups={max_groups:,}; pass max_groups=None (--max-groups 0 on the "
                "command line) or a larger number to audit it anyway: the audit takes about "
                "50 s per 10^6 groups and its text report much longer"
            )


#: The smallest ``alpha`` accepted: the smallest normal double (about 2.2e-308). Below it
#: ``alpha`` is subnormal: it has lost digits, and Holm's thresholds ``alpha / k`` lose more
#: (``--alpha 1e-320`` printed "Holm p < 9.99989e-321"). A tiny normal ``alpha`` (1e-300) is
#: a legitimate way to ask for no flags at all, so it is accepted.
MIN_ALPHA = float(np.finfo(np.float64).tiny)


def _check_fraction(value, *, name: str, smallest: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number between 0 and 1, got {value!r}")
    value = float(value)
    if not (0.0 < value < 1.0):
        raise ValueError(f"{name} must be between 0 and 1 (exclusive), got {value:g}")
    if value < smallest:
        raise ValueError(f"{name}={value!r} is too small to test at; use at least {smallest:g}")
    return value


def _check_lam(lam) -> float:
    if isinstance(lam, bool) or not isinstance(lam, numbers.Real) or not math.isfinite(lam):
        raise ValueError(f"lam must be a finite number >= 0, got {lam!r}")
    if lam < 0:
        raise ValueError(f"lam must be >= 0, got {lam:g}")
    return float(lam)


def _group_columns(groups) -> list:
    if isinstance(groups, str) or not np.iterable(groups):
        groups = [groups]
    groups = list(groups)
    if not groups:
        raise ValueError("groups names no column; give at least one group column")
    seen = set()
    for column in groups:
        if column in seen:
            raise ValueError(f"group column {show_value(column)} is named twice")
        seen.add(column)
    return groups


def _frame_from_arrays(y_true, y_pred, groups) -> pd.DataFrame:
    arrays = {
        "y_true": label_array(y_true, "y_true"),
        "y_pred": label_array(y_pred, "y_pred"),
        "group": label_array(groups, "groups"),
    }
    lengths = {name: a.size for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"y_true, y_pred and groups differ in length: {lengths}")
    return pd.DataFrame(arrays)


def _indicators(y_true: np.ndarray, column: pd.Series, *, positive, name: str):
    predicted = label_array(column, name)
    try:
        return binary_indicators(y_true, predicted, positive=positive)
    except ValueError as exc:
        if name == "y_pred":
            raise
        raise ValueError(f"run column {show_value(column.name)}: {exc}") from None


def _reference_position(attribute, value) -> int:
    labels = attribute.labels
    if labels.dtype == object and all(isinstance(v, str) for v in labels.tolist()):
        labels = labels.astype(str)  # text labels: "did you mean '1'?" for reference=1
    return label_position(labels, value, what="reference", name="groups")


def _references(attributes, reference, counts) -> tuple[list[int], dict]:
    """Reference positions and the rule that chose each."""
    names = [a.name for a in attributes]
    given = dict(reference or {})
    by_name = {}
    for key, value in given.items():
        match = [a.name for a in attributes if key == a.name or key in a.columns]
        if not match:
            raise ValueError(
                f"reference names {show_value(key)}, which is not a group column; "
                f"group columns are {show_values(np.asarray(names, dtype=object))}"
            )
        by_name[match[0]] = value
    positions, rules = [], {}
    for attribute, count in zip(attributes, counts, strict=True):
        sizes = count.sum(axis=1)
        if attribute.name in by_name:
            positions.append(_reference_position(attribute, by_name[attribute.name]))
            rules[attribute.name] = "given"
            continue
        if len(attribute.columns) > 1:  # an intersection: the combination of the references
            parts = [
                str(_label(a.labels[p]))
                for a, p in zip(attributes, positions, strict=False)
                if len(a.columns) == 1
            ]
            wanted = INTERSECTION_SEPARATOR.join(parts)
            hits = np.flatnonzero(attribute.labels == wanted)
            if hits.size:
                positions.append(int(hits[0]))
                rules[attribute.name] = "combination"
                continue
        positions.append(int(np.argmax(sizes)))
        rules[attribute.name] = "largest"
    return positions, rules


def _no_nul(attribute) -> None:
    """Refuse a group label with a NUL byte: the mark of a damaged or binary file."""
    for label in attribute.labels.tolist():
        if isinstance(label, str) and "\x00" in label:
            raise ValueError(
                f"group column {show_value(attribute.name)} holds a NUL byte in "
                f"{show_value(label)}: the file looks damaged or binary; fix or drop those rows"
            )


def _label(value):
    return value.item() if isinstance(value, np.generic) else value


def _decision_from_favourable(favourable, positive, decision, truth, predicted):
    """The decision that the favourable label implies, checked against ``decision``."""
    labels = encode_values(
        np.concatenate([truth, label_array(predicted, "y_pred")]), name="labels"
    )[0]
    found = labels[label_position(labels, favourable, what="favourable", name="labels")]
    implied = decision_of(bool(found == positive))
    if decision is not None and decision != implied:
        raise ValueError(
            f"decision={decision!r} and favourable={show_value(favourable)} disagree: with "
            f"positive={show_value(positive)}, favourable={show_value(favourable)} means a "
            f"positive prediction {'helps' if implied == 'assistive' else 'harms'} the person "
            f"({implied!r}); give one of them"
        )
    return implied


# --------------------------------------------------------------------------- the audit
def audit(
    data,
    /,
    *arrays,
    y_true="y_true",
    y_pred="y_pred",
    groups=("group",),
    reference=None,
    positive=1,
    intersections: bool = False,
    score=None,
    runs=None,
    samples=None,
    metrics=DEFAULT_METRICS,
    alpha: float = 0.05,
    min_gap: float = 0.05,
    lam: float = 5.0,
    n_jobs: int = 1,
    decision: str | None = None,
    favourable=None,
    max_groups: int | None = MAX_GROUPS,
) -> AuditReport:
    """Audit a binary classifier's predictions across groups with the book's methods.

    Two forms: ``audit(frame, y_true=..., groups=[...], ...)`` with a DataFrame (one row
    per person, columns named by the options), and the original
    ``audit(y_true, y_pred, groups, positive=..., reference=...)`` with three arrays, which
    is the frame form on the columns ``y_true, y_pred, group``.

    Parameters
    ----------
    data : pandas.DataFrame, or array-like of shape (n,)
        The table; or the true labels, followed by ``y_pred`` and ``groups`` arrays.
    y_true : column name, default "y_true"
        True labels (integers, booleans or text; two values at most).
    y_pred : column name or None, default "y_pred"
        Predicted labels. None when ``runs`` are given: the first run is then the main
        prediction of the report.
    groups : column name or sequence of them, default ("group",)
        Sensitive attributes; each is audited on its own.
    reference : dict or label, optional
        ``{attribute: group}``, the group every other group of the attribute is compared
        with (a single label when there is one attribute). Default: the largest group (ties:
        the first in sorted order); for the intersection, the combination of the
        attributes' references when it occurs, else its largest group.
    positive : label, default 1
        The positive label (the one TPR, FPR, PPR count). It must occur in ``y_true`` or
        ``y_pred`` and have their type (``1``/``0`` stand for ``True``/``False``). Whether
        it is good or bad news for the person is ``decision``'s business.
    intersections : bool, default False
        Also audit the intersection of all group columns (``"race & sex"``).
    score : column name, optional
        A score or probability of the positive label: balance and calibration per group.
    runs : sequence of column names or glob patterns, optional
        Predicted labels of repeated training runs: verdict stability (seed 004).
    samples : sequence of column names or glob patterns, optional
        Probabilities of the positive label from ``T`` posterior samples or ensemble
        members: uncertainty fairness (seed 000).
    metrics : sequence of str, default :data:`DEFAULT_METRICS`
        Metrics compared with MATCH (those with an exact law:
        :data:`~fairbook.audit.significance.EXACT_METRICS`).
    alpha : float, default 0.05
        Family-wise error rate of the Holm-adjusted MATCH tests; intervals are at
        ``1 − alpha``.
    min_gap : float, default 0.05
        The smallest gap counted as an apparent disparity, and the gap a group must be
        large enough to detect (:mod:`fairbook.audit.small_groups`).
    lam : float, default 5.0
        Prior strength λ of Cross-Prior Smoothing (the paper's setting).
    n_jobs : int, default 1
        Processes for the MATCH p-values (-1: all cores).
    decision : {"punitive", "assistive"}, optional
        What a positive prediction means for the person: ``"punitive"`` when it harms them
        (detain, investigate: false positives matter most), ``"assistive"`` when it helps
        (approve, treat: false negatives matter most). The reports say it in their header
        and order and explain the metrics by it (:mod:`fairbook.audit.meaning`); the
        numbers do not change. Not given: the reports say the direction is unknown.
    favourable : label, optional
        The same, said as the label value that is good for the person: ``positive`` means
        ``"assistive"``, the other label ``"punitive"``. It must occur in ``y_true`` or
        ``y_pred``; with ``decision`` too, the two must agree.
    max_groups : int or None, default :data:`MAX_GROUPS`
        The most groups one attribute (or intersection) may have; more is refused with the
        limit named. ``None`` audits any number (the audit itself takes about 50 s per 10^6
        groups on one core; the text report grows with every group and pair).

    Returns
    -------
    AuditReport

    Raises
    ------
    ValueError
        Empty input, a missing column, a glob matching nothing, missing values, more than
        two labels, a ``positive`` that does not occur or has the wrong type, a
        ``reference`` that is not a group, probabilities outside [0, 1], bad options
        (a ``decision`` other than punitive/assistive, a ``favourable`` that is not a label
        or disagrees with ``decision``).

    Examples
    --------
    >>> report = audit([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])
    >>> round(float(report.versus_reference.loc["b", "OFI"]), 2)
    -1.0
    >>> frame = pd.DataFrame({"y_true": [1, 0, 1, 0, 1, 0], "y_pred": [1, 1, 0, 0, 1, 0],
    ...                       "sex": list("ffmmmm"), "age": [1, 2, 1, 2, 1, 2]})
    >>> report = audit(frame, groups=["sex", "age"], reference={"sex": "m"})
    >>> report.references
    {'sex': 'm', 'age': 1}
    >>> report.to_frame("comparisons").shape[0]  # 2 attributes x 1 group x 7 metrics
    14
    """
    if isinstance(data, pd.DataFrame):
        if arrays:
            raise TypeError("with a DataFrame, name the columns by keyword (y_true=, ...)")
        frame = data
    else:
        if len(arrays) != 2:
            raise TypeError("audit takes a DataFrame, or the three arrays y_true, y_pred, groups")
        frame = _frame_from_arrays(data, *arrays)
        y_true, y_pred, groups = "y_true", "y_pred", ("group",)
        if reference is not None:
            reference = {"group": reference}
    alpha = _check_fraction(alpha, name="alpha", smallest=MIN_ALPHA)
    min_gap = _check_fraction(min_gap, name="min_gap")
    lam = _check_lam(lam)
    n_jobs = check_n_jobs(n_jobs)
    metrics = check_metrics(metrics)
    decision = check_decision(decision)
    group_columns = _group_columns(groups)
    if reference is not None and not isinstance(reference, dict):
        if len(group_columns) != 1:
            raise ValueError(
                f"with several group columns, give reference as {{column: group}}, "
                f"not {show_value(reference)}"
            )
        reference = {group_columns[0]: reference}
    if frame.empty:
        raise ValueError("there are no rows to audit")
    roles = {y_true: "y_true", **{c: "group" for c in group_columns}}
    roles.update({c: role for c, role in ((y_pred, "y_pred"), (score, "score")) if c is not None})
    run_columns = (
        cols.expand_columns(frame.columns, runs, option="runs", reserved=roles) if runs else []
    )
    roles.update(dict.fromkeys(run_columns, "runs"))
    sample_columns = (
        cols.expand_columns(frame.columns, samples, option="samples", reserved=roles)
        if samples
        else []
    )
    if y_pred is None and not run_columns:
        raise ValueError("y_pred is None: name a column of predictions, or give runs")
    needed = {"y_true": y_true, "groups": group_columns}
    if y_pred is not None:
        needed["y_pred"] = y_pred
    if score is not None:
        needed["score"] = score
    cols.check_present(frame, needed)
    used = [y_true, *group_columns, *run_columns, *sample_columns]
    used += [c for c in (y_pred, score) if c is not None]
    cols.check_unique(frame, used)
    cols.no_missing(frame, used)
    frame = cols.numpy_columns(frame, used)  # nullable, pyarrow, categorical: as numpy
    for column, option in (
        (y_true, "y_true"),
        (y_pred, "y_pred"),
        *((c, "run") for c in run_columns),
    ):
        if column is not None:
            cols.check_labels(
                frame[column],
                option=option if option != "run" else f"run column {show_value(column)}",
            )

    # labels: one pass each
    truth = label_array(frame[y_true], "y_true")
    main_column = y_pred if y_pred is not None else run_columns[0]
    true_pos, pred_pos = _indicators(
        truth, frame[main_column], positive=positive, name="y_pred" if y_pred else "run"
    )
    if not (true_pos.any() or pred_pos.any()):
        labels = encode_values(
            np.concatenate([truth, label_array(frame[main_column], "y_pred")]), name="labels"
        )[0]
        raise ValueError(
            f"positive={show_value(positive)} occurs in neither y_true nor y_pred, whose labels "
            f"are {show_values(labels)}; name the positive label"
        )
    if favourable is not None:
        decision = _decision_from_favourable(
            favourable, positive, decision, truth, frame[main_column]
        )
    run_preds = {
        str(c): _indicators(truth, frame[c], positive=positive, name="run")[1] for c in run_columns
    }
    probabilities = (
        cols.probability_columns(frame, sample_columns, option="samples")
        if sample_columns
        else None
    )
    score_values = cols.numeric_column(frame, score, option="score") if score is not None else None

    # groups: one code per row and attribute, then one bincount each
    attributes = [encode_attribute(frame[c], name=c) for c in group_columns]
    for attribute in attributes:
        _no_nul(attribute)
    if intersections:
        attributes.append(intersect(attributes))
    _check_group_count(attributes, max_groups)
    names = [a.name for a in attributes]
    if len(set(names)) != len(names):
        raise ValueError(f"two attributes have the same name: {names}")
    cells = outcome_cells(true_pos, pred_pos)
    counts = [count_cells(a, cells) for a in attributes]
    positions, rules = _references(attributes, reference, counts)

    group_frames, rate_frames, comparison_frames, seven_frames = [], [], [], []
    for attribute, count, ref in zip(attributes, counts, positions, strict=True):
        group_frames.append(_group_frame(attribute, count, ref))
        rate_frames.append(
            rate_table(
                count,
                attribute.labels,
                attribute=attribute.name,
                reference=ref,
                metrics=metrics,
                lam=lam,
                level=1 - alpha,
            )
        )
        comparison_frames.append(
            compare_to_reference(
                count,
                attribute.labels,
                attribute=attribute.name,
                reference=ref,
                metrics=metrics,
                alpha=alpha,
                min_gap=min_gap,
                n_jobs=n_jobs,
            )
        )
        seven = seven_metrics(count, attribute.labels, positive=positive)
        if not seven.empty:
            seven_frames.append(_seven_frame(seven, attribute.name))
    comparisons = adjust(
        pd.concat(comparison_frames, ignore_index=True), alpha=alpha, min_gap=min_gap
    )
    rates = pd.concat(rate_frames, ignore_index=True)
    tables = {
        "groups": _mark_groups(pd.concat(group_frames, ignore_index=True), comparisons),
        "rates": rates,
        "comparisons": comparisons,
        "overview": between_groups(rates),
        "seven_metrics": pd.concat(seven_frames, ignore_index=True)
        if seven_frames
        else pd.DataFrame(columns=["attribute", "class", "largest", "second"]),
        "uncertainty": None,
        "stability": None,
        "stability_seven_metrics": None,
        "runs": None,
        "scores": None,
    }
    if probabilities is not None:
        per_person = person_uncertainty(probabilities)
        tables["uncertainty"] = pd.concat(
            [
                uncertainty_table(per_person, a, reference=p)
                for a, p in zip(attributes, positions, strict=True)
            ],
            ignore_index=True,
        )
    if score_values is not None:
        tables["scores"] = pd.concat(
            [
                score_table(score_values, true_pos, a, reference=p)
                for a, p in zip(attributes, positions, strict=True)
            ],
            ignore_index=True,
        )
    if run_preds:
        per_run, sevens = run_comparisons(
            true_pos,
            run_preds,
            attributes,
            positions,
            metrics=metrics,
            alpha=alpha,
            min_gap=min_gap,
            positive=positive,
            n_jobs=n_jobs,
        )
        tables["runs"] = per_run
        tables["stability"] = stability_table(per_run)
        tables["stability_seven_metrics"] = seven_stability(sevens)
    settings = {
        "y_true": y_true,
        "y_pred": main_column,
        "positive": _label(positive),
        "decision": decision,
        "favourable": None if favourable is None else _label(favourable),
        "attributes": names,
        "intersections": bool(intersections),
        "references": {
            a.name: _label(a.labels[p]) for a, p in zip(attributes, positions, strict=True)
        },
        "reference_rules": rules,
        "metrics": list(metrics),
        "alpha": alpha,
        "min_gap": min_gap,
        "lam": lam,
        "interval_level": 1 - alpha,
        "score": score,
        "runs": [str(c) for c in run_columns],
        "samples": [str(c) for c in sample_columns],
        "rows": len(frame),
    }
    return AuditReport(settings, tables)


def _group_frame(attribute, counts: np.ndarray, reference: int) -> pd.DataFrame:
    n = counts.sum(axis=1)
    frame = pd.DataFrame(
        {
            "group": attribute.labels,
            "attribute": attribute.name,
            "n": n,
            "share": n / n.sum(),
            "is_reference": np.arange(attribute.n_groups) == reference,
        }
    )
    for position, cell in enumerate(("TP", "FN", "FP", "TN")):
        frame[cell] = counts[:, position]
    for rate in GROUP_RATES:
        frame[rate] = np.asarray(compute(rate, counts), dtype=np.float64)
    ref = counts[reference].astype(np.float64)
    for name in ("OFI", "DI"):
        values = np.asarray(compare(name, counts.astype(np.float64), ref), dtype=np.float64)
        frame[name] = np.where(frame["is_reference"], np.nan, values)
    return frame


def _seven_frame(seven: pd.DataFrame, attribute: str) -> pd.DataFrame:
    frame = seven.rename_axis("class").reset_index()
    frame.insert(0, "attribute", attribute)
    first, second = seven.attrs["groups"]
    frame["largest"] = first
    frame["second"] = second
    return frame


def _mark_groups(groups: pd.DataFrame, comparisons: pd.DataFrame) -> pd.DataFrame:
    def listed(mask) -> pd.Series:
        chosen = comparisons[np.asarray(mask, dtype=bool)]  # an empty mask too (one group)
        return chosen.groupby(["attribute", "group"], sort=False)["metric"].agg(", ".join)

    keys = pd.MultiIndex.from_frame(groups[["attribute", "group"]])
    small = listed(comparisons["small"]).reindex(keys, fill_value="")
    survives = listed(comparisons["verdict"] == "disparity survives").reindex(keys, fill_value="")
    out = groups.copy()
    out["small"] = small.to_numpy() != ""
    out["small_metrics"] = small.to_numpy()
    out["disparities"] = survives.to_numpy()
    return out


# --------------------------------------------------------------------------- from a file
def _parse_references(texts, frame: pd.DataFrame, group_columns, intersections: bool) -> dict:
    """``["race=White", "sex=Male"]`` (or one bare value) as ``{column: typed value}``."""
    if isinstance(texts, dict):
        return texts
    if isinstance(texts, str) or not np.iterable(texts):
        texts = [texts]
    names = {str(c): c for c in group_columns}
    if intersections and len(group_columns) > 1:
        names[INTERSECTION_SEPARATOR.join(str(c) for c in group_columns)] = None
    out = {}
    for text in texts:
        key = None
        if isinstance(text, str):
            for name in sorted(names, key=len, reverse=True):
                if text.startswith(f"{name}="):
                    key, value = name, text[len(name) + 1 :]
                    break
        if key is None:
            if len(group_columns) != 1:
                raise ValueError(
                    f"reference {show_value(text)} does not say which group column it is for; "
                    f"write COLUMN=GROUP, e.g. {group_columns[0]}=..."
                )
            key, value = str(group_columns[0]), text
        if key in out:
            raise ValueError(f"two references for {key!r}")
        column = names[key]
        out[key] = (
            value
            if column is None
            else cols.coerce_option(value, frame[column], option="reference")
        )
    return out


def audit_file(
    path,
    *,
    y_true="y_true",
    y_pred="y_pred",
    groups=None,
    group=None,
    reference=None,
    positive=1,
    intersections: bool = False,
    favourable=None,
    **options,
) -> AuditReport:
    """Audit the predictions stored in ``path`` (CSV or Parquet; columns named by options).

    Options arrive as a command line gives them: ``positive`` and ``reference`` as strings
    are read in their column's type (``"1"`` is the integer 1 in an integer column);
    ``reference`` may be a list of ``"column=group"`` strings (or one bare group when there
    is one group column); ``runs`` and ``samples`` may be glob patterns (``"pred_*"``).

    Parameters
    ----------
    path : str or path-like
    y_true, y_pred : column names
    groups : column name or sequence of them, default ``("group",)``
    group : column name, optional
        The single group column (the original option; do not combine with ``groups``).
    reference, positive, intersections, favourable
        As in :func:`audit` (strings allowed: ``favourable="0"`` is read in ``y_true``'s
        type, as ``positive`` is).
    **options
        Any other keyword of :func:`audit` (``score, runs, samples, metrics, alpha,
        min_gap, lam, n_jobs, decision``).

    Examples
    --------
    >>> audit_file("missing.csv")
    Traceback (most recent call last):
    ...
    FileNotFoundError: predictions file not found: missing.csv
    """
    if groups is not None and group is not None:
        raise ValueError("give either groups or group, not both")
    group_columns = _group_columns(groups if groups is not None else (group or "group"))
    frame = read_predictions(path, text_columns=group_columns)
    runs = options.get("runs")
    if y_pred == "y_pred" and y_pred not in frame.columns and runs:
        y_pred = None  # the default column is absent: the first run is the main prediction
    needed = {"y_true": y_true, "groups": group_columns}
    if y_pred is not None:
        needed["y_pred"] = y_pred
    cols.check_present(frame, needed)
    cols.no_missing(frame, [y_true, *group_columns])
    typed = cols.numpy_columns(frame, [y_true, *group_columns])  # options in the numpy type
    positive = cols.coerce_option(positive, typed[y_true], option="positive")
    if favourable is not None:
        favourable = cols.coerce_option(favourable, typed[y_true], option="favourable")
    if reference is not None:
        reference = _parse_references(reference, typed, group_columns, intersections)
    return audit(
        frame,
        y_true=y_true,
        y_pred=y_pred,
        groups=group_columns,
        reference=reference,
        positive=positive,
        intersections=intersections,
        favourable=favourable,
        **options,
    )
