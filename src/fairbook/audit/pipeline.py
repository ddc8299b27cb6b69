"""The audit as a pipeline: a table of predictions in, an :class:`~fairbook.audit.AuditReport`
out, in named steps.

1. :class:`~fairbook.audit.options.AuditOptions` — every option validated once;
2. :func:`resolve_columns` — each column's role, checked once (present, unique, no missing
   values, two labels at most), the table as numpy columns;
3. :func:`encode_outcomes` — the positive label, each person's outcome indicators, the runs'
   predictions, the samples' probabilities and the score;
4. :func:`encode_groups` — each attribute's groups (and the intersection), the confusion
   counts per group, the reference groups;
5. :func:`group_tables` — per group: counts, rates with intervals, comparisons (MATCH or
   the chosen ``test``) with their Holm adjustment, the between-groups overview and seed
   004's seven metrics;
6. :func:`optional_tables` — the uncertainty, score and run-stability tables the options ask
   for;
7. :func:`audit_settings` — what the report says it ran with.

:func:`audit` (a DataFrame) runs them; :func:`audit_file` (a CSV or Parquet file) only reads
the file and turns the strings of a command line into those objects. Every bad input is a
``ValueError`` (or ``FileNotFoundError``) whose one-line message names the problem.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

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

from . import columns as cols
from .bias_metrics import bias_metrics_table
from .comparisons import adjust, compare_to_reference
from .decision_direction import decision_of
from .files import read_predictions
from .groups import (
    INTERSECTION_SEPARATOR,
    count_cells,
    encode_attribute,
    intersect,
    outcome_cells,
)
from .options import DEFAULT_METRICS, MAX_GROUPS, AuditOptions, parse_text
from .rate_tests import TEST_NAMES
from .rates import between_groups, rate_table
from .report import GROUP_RATES, AuditReport
from .scores import score_table
from .stability import run_comparisons, seven_stability, stability_table
from .uncertainty import person_uncertainty, uncertainty_table

__all__ = [
    "DEFAULT_METRICS",
    "MAX_GROUPS",
    "Columns",
    "Groups",
    "Outcomes",
    "audit",
    "audit_file",
    "audit_settings",
    "encode_groups",
    "encode_outcomes",
    "group_tables",
    "optional_tables",
    "predictions_frame",
    "resolve_columns",
]


# --------------------------------------------------------------------------- 2. columns
@dataclass(frozen=True)
class Columns:
    """Each column's role, resolved once: ``prediction`` is ``y_pred`` or the first run."""

    y_true: object
    prediction: object
    groups: tuple
    score: object
    runs: tuple
    samples: tuple


def resolve_columns(frame: pd.DataFrame, options: AuditOptions) -> tuple[Columns, pd.DataFrame]:
    """The columns of each role, checked once, and the table's used columns as numpy columns.

    Examples
    --------
    >>> frame = pd.DataFrame({"y_true": [1, 0], "y_pred": [1, 1], "group": ["a", "b"]})
    >>> columns, _ = resolve_columns(frame, AuditOptions())
    >>> columns.prediction, columns.groups
    ('y_pred', ('group',))
    """
    if frame.empty:
        raise ValueError("there are no rows to audit")
    roles = {options.y_true: "y_true", **dict.fromkeys(options.groups, "group")}
    optional = (("y_pred", options.y_pred), ("score", options.score))
    roles.update({c: role for role, c in optional if c is not None})
    runs = _expand(frame, options.runs, "runs", roles)
    roles.update(dict.fromkeys(runs, "runs"))
    samples = _expand(frame, options.samples, "samples", roles)
    if options.y_pred is None and not runs:
        raise ValueError("y_pred is None: name a column of predictions, or give runs")
    needed = {"y_true": options.y_true, "groups": list(options.groups)}
    needed.update({role: c for role, c in optional if c is not None})
    cols.check_present(frame, needed)
    used = [options.y_true, *options.groups, *runs, *samples]
    used += [c for c in (options.y_pred, options.score) if c is not None]
    cols.check_unique(frame, used)
    cols.no_missing(frame, used)
    frame = cols.numpy_columns(frame, used)  # nullable, pyarrow, categorical: as numpy
    for column, option in ((options.y_true, "y_true"), (options.y_pred, "y_pred")):
        if column is not None:
            cols.check_labels(frame[column], option=option)
    for column in runs:
        cols.check_labels(frame[column], option=f"run column {show_value(column)}")
    prediction = options.y_pred if options.y_pred is not None else runs[0]
    columns = Columns(options.y_true, prediction, options.groups, options.score, runs, samples)
    return columns, frame


def _expand(frame: pd.DataFrame, patterns, option: str, roles: dict) -> tuple:
    if not patterns:
        return ()
    return tuple(cols.expand_columns(frame.columns, patterns, option=option, reserved=roles))


# --------------------------------------------------------------------------- 3. outcomes
@dataclass(frozen=True)
class Outcomes:
    """Each person's outcome: who is truly and who is predicted positive, per run too."""

    true_positive: np.ndarray
    predicted_positive: np.ndarray
    runs: dict
    probabilities: np.ndarray | None
    score: np.ndarray | None
    decision: str | None


def encode_outcomes(frame: pd.DataFrame, columns: Columns, options: AuditOptions) -> Outcomes:
    """The positive label checked against the labels, and the indicators every count uses.

    Examples
    --------
    >>> frame = pd.DataFrame({"y_true": ["y", "n"], "y_pred": ["y", "y"], "group": [1, 2]})
    >>> options = AuditOptions(positive="y")
    >>> outcomes = encode_outcomes(frame, resolve_columns(frame, options)[0], options)
    >>> outcomes.true_positive.tolist(), outcomes.predicted_positive.tolist()
    ([True, False], [True, True])
    """
    truth = label_array(frame[columns.y_true], "y_true")
    main = "y_pred" if options.y_pred is not None else "run"
    true_pos, pred_pos = _indicators(truth, frame[columns.prediction], options, name=main)
    if not (true_pos.any() or pred_pos.any()):
        raise ValueError(
            f"positive={show_value(options.positive)} occurs in neither y_true nor y_pred, whose "
            f"labels are {show_values(_labels(truth, frame[columns.prediction]))}; name the "
            "positive label"
        )
    decision = options.decision
    if options.favourable is not None:
        decision = _decision_from_favourable(options, truth, frame[columns.prediction])
    runs = {str(c): _indicators(truth, frame[c], options, name="run")[1] for c in columns.runs}
    probabilities = (
        cols.probability_columns(frame, list(columns.samples), option="samples")
        if columns.samples
        else None
    )
    score = None
    if columns.score is not None:
        score = cols.numeric_column(frame, columns.score, option="score")
    return Outcomes(true_pos, pred_pos, runs, probabilities, score, decision)


def _labels(truth: np.ndarray, predicted: pd.Series) -> np.ndarray:
    both = np.concatenate([truth, label_array(predicted, "y_pred")])
    return encode_values(both, name="labels")[0]


def _indicators(truth: np.ndarray, column: pd.Series, options: AuditOptions, *, name: str):
    predicted = label_array(column, name)
    try:
        return binary_indicators(truth, predicted, positive=options.positive)
    except ValueError as exc:
        if name == "y_pred":
            raise
        raise ValueError(f"run column {show_value(column.name)}: {exc}") from None


def _decision_from_favourable(options: AuditOptions, truth, predicted) -> str:
    """The decision that the favourable label implies, checked against ``decision``."""
    labels = _labels(truth, predicted)
    favourable, positive = options.favourable, options.positive
    found = labels[label_position(labels, favourable, what="favourable", name="labels")]
    implied = decision_of(bool(found == positive))
    if options.decision is not None and options.decision != implied:
        raise ValueError(
            f"decision={options.decision!r} and favourable={show_value(favourable)} disagree: "
            f"with positive={show_value(positive)}, favourable={show_value(favourable)} means "
            f"a positive prediction {'helps' if implied == 'assistive' else 'harms'} the "
            f"person ({implied!r}); give one of them"
        )
    return implied


# --------------------------------------------------------------------------- 4. groups
@dataclass(frozen=True)
class Groups:
    """Every attribute audited, its confusion counts per group and its reference group."""

    attributes: list
    counts: list
    references: list
    rules: dict


def encode_groups(
    frame: pd.DataFrame, columns: Columns, options: AuditOptions, outcomes: Outcomes
) -> Groups:
    """Each attribute's groups (and their intersection), counts and references.

    Examples
    --------
    >>> frame = pd.DataFrame({"y_true": [1, 0, 1], "y_pred": [1, 1, 0], "g": ["a", "b", "b"]})
    >>> options = AuditOptions(groups="g")
    >>> columns, frame = resolve_columns(frame, options)
    >>> groups = encode_groups(frame, columns, options, encode_outcomes(frame, columns, options))
    >>> groups.counts[0].tolist(), groups.rules
    ([[1, 0, 0, 0], [0, 1, 1, 0]], {'g': 'largest'})
    """
    attributes = [encode_attribute(frame[c], name=c) for c in columns.groups]
    for attribute in attributes:
        _no_nul(attribute)
    if options.intersections:
        attributes.append(intersect(attributes))
    _check_group_count(attributes, options.max_groups)
    names = [a.name for a in attributes]
    if len(set(names)) != len(names):
        raise ValueError(f"two attributes have the same name: {names}")
    cells = outcome_cells(outcomes.true_positive, outcomes.predicted_positive)
    counts = [count_cells(a, cells) for a in attributes]
    references, rules = _references(attributes, options.reference, counts)
    return Groups(attributes, counts, references, rules)


def _check_group_count(attributes, max_groups) -> None:
    for attribute in attributes:
        if max_groups is not None and attribute.n_groups > max_groups:
            raise ValueError(
                f"group column {attribute.name!r} has {attribute.n_groups:,} groups, above "
                f"max_groups={max_groups:,}; pass max_groups=None (--max-groups 0 on the "
                "command line) or a larger number to audit it anyway: the audit takes about "
                "50 s per 10^6 groups and its text report much longer"
            )


def _no_nul(attribute) -> None:
    """Refuse a group label with a NUL byte: the mark of a damaged or binary file."""
    for label in attribute.labels.tolist():
        if isinstance(label, str) and "\x00" in label:
            raise ValueError(
                f"group column {show_value(attribute.name)} holds a NUL byte in "
                f"{show_value(label)}: the file looks damaged or binary; fix or drop those rows"
            )


def _reference_position(attribute, value) -> int:
    labels = attribute.labels
    if labels.dtype == object and all(isinstance(v, str) for v in labels.tolist()):
        labels = labels.astype(str)  # text labels: "did you mean '1'?" for reference=1
    return label_position(labels, value, what="reference", name="groups")


def _given_references(attributes, reference) -> dict:
    names = [a.name for a in attributes]
    by_name = {}
    for key, value in dict(reference or {}).items():
        match = [a.name for a in attributes if key == a.name or key in a.columns]
        if not match:
            raise ValueError(
                f"reference names {show_value(key)}, which is not a group column; "
                f"group columns are {show_values(np.asarray(names, dtype=object))}"
            )
        by_name[match[0]] = value
    return by_name


def _references(attributes, reference, counts) -> tuple[list[int], dict]:
    """Reference positions and the rule that chose each: given, the combination of the
    attributes' references (an intersection), or the largest group."""
    by_name = _given_references(attributes, reference)
    positions: list[int] = []
    rules = {}
    for attribute, count in zip(attributes, counts, strict=True):
        if attribute.name in by_name:
            positions.append(_reference_position(attribute, by_name[attribute.name]))
            rules[attribute.name] = "given"
            continue
        if len(attribute.columns) > 1:  # an intersection: the combination of the references
            parts = [
                str(_plain(a.labels[p]))
                for a, p in zip(attributes, positions, strict=False)
                if len(a.columns) == 1
            ]
            hits = np.flatnonzero(attribute.labels == INTERSECTION_SEPARATOR.join(parts))
            if hits.size:
                positions.append(int(hits[0]))
                rules[attribute.name] = "combination"
                continue
        positions.append(int(np.argmax(count.sum(axis=1))))
        rules[attribute.name] = "largest"
    return positions, rules


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


# --------------------------------------------------------------------------- 5. tables
def group_tables(groups: Groups, options: AuditOptions) -> dict[str, pd.DataFrame | None]:
    """The report's tables for every attribute: groups, rates, comparisons (Holm-adjusted
    over all of them), the between-groups overview and the seven bias metrics."""
    group_frames, rate_frames, comparison_frames, seven_frames = [], [], [], []
    for attribute, count, ref in zip(
        groups.attributes, groups.counts, groups.references, strict=True
    ):
        group_frames.append(_group_frame(attribute, count, ref))
        common = {"attribute": attribute.name, "reference": ref, "metrics": options.metrics}
        rate_frames.append(
            rate_table(count, attribute.labels, **common, lam=options.lam, level=1 - options.alpha)
        )
        comparison_frames.append(
            compare_to_reference(
                count,
                attribute.labels,
                **common,
                alpha=options.alpha,
                min_gap=options.min_gap,
                n_jobs=options.n_jobs,
                test=options.test,
            )
        )
        seven = bias_metrics_table(count, attribute.labels, positive=options.positive)
        if not seven.empty:
            seven_frames.append(_seven_frame(seven, attribute.name))
    comparisons = adjust(
        pd.concat(comparison_frames, ignore_index=True),
        alpha=options.alpha,
        min_gap=options.min_gap,
    )
    rates = pd.concat(rate_frames, ignore_index=True)
    no_seven = pd.DataFrame(columns=["attribute", "class", "largest", "second"])
    return {
        "groups": _mark_groups(pd.concat(group_frames, ignore_index=True), comparisons),
        "rates": rates,
        "comparisons": comparisons,
        "overview": between_groups(rates),
        "seven_metrics": pd.concat(seven_frames, ignore_index=True) if seven_frames else no_seven,
    }


def optional_tables(
    groups: Groups, outcomes: Outcomes, options: AuditOptions
) -> dict[str, pd.DataFrame | None]:
    """The tables only some options ask for: uncertainty (``samples``), scores (``score``),
    run stability (``runs``); None where not asked."""
    pairs = list(zip(groups.attributes, groups.references, strict=True))
    tables: dict[str, pd.DataFrame | None] = dict.fromkeys(
        ("uncertainty", "stability", "stability_seven_metrics", "runs", "scores")
    )
    if outcomes.probabilities is not None:
        per_person = person_uncertainty(outcomes.probabilities)
        tables["uncertainty"] = pd.concat(
            [uncertainty_table(per_person, a, reference=p) for a, p in pairs], ignore_index=True
        )
    if outcomes.score is not None:
        tables["scores"] = pd.concat(
            [score_table(outcomes.score, outcomes.true_positive, a, reference=p) for a, p in pairs],
            ignore_index=True,
        )
    if outcomes.runs:
        per_run, sevens = run_comparisons(
            outcomes.true_positive,
            outcomes.runs,
            groups.attributes,
            groups.references,
            metrics=options.metrics,
            alpha=options.alpha,
            min_gap=options.min_gap,
            positive=options.positive,
            n_jobs=options.n_jobs,
            test=options.test,
        )
        tables["runs"] = per_run
        tables["stability"] = stability_table(per_run)
        tables["stability_seven_metrics"] = seven_stability(sevens)
    return tables


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


# --------------------------------------------------------------------------- 7. settings
def audit_settings(
    columns: Columns, groups: Groups, outcomes: Outcomes, options: AuditOptions, rows: int
) -> dict:
    """What the report says it ran with (the JSON report's ``settings``)."""
    pairs = zip(groups.attributes, groups.references, strict=True)
    return {
        "y_true": columns.y_true,
        "y_pred": columns.prediction,
        "positive": _plain(options.positive),
        "decision": outcomes.decision,
        "favourable": None if options.favourable is None else _plain(options.favourable),
        "attributes": [a.name for a in groups.attributes],
        "intersections": options.intersections,
        "references": {a.name: _plain(a.labels[p]) for a, p in pairs},
        "reference_rules": groups.rules,
        "metrics": list(options.metrics),
        "alpha": options.alpha,
        "test": options.test,
        "test_name": TEST_NAMES[options.test],
        "min_gap": options.min_gap,
        "lam": options.lam,
        "interval_level": 1 - options.alpha,
        "score": columns.score,
        "runs": [str(c) for c in columns.runs],
        "samples": [str(c) for c in columns.samples],
        "rows": rows,
    }


# --------------------------------------------------------------------------- the audit
def _run(frame: pd.DataFrame, columns: Columns, options: AuditOptions) -> AuditReport:
    outcomes = encode_outcomes(frame, columns, options)
    groups = encode_groups(frame, columns, options, outcomes)
    tables = {**group_tables(groups, options), **optional_tables(groups, outcomes, options)}
    return AuditReport(audit_settings(columns, groups, outcomes, options, len(frame)), tables)


def predictions_frame(y_true, y_pred, groups) -> pd.DataFrame:
    """Three arrays as the table :func:`audit` reads: columns ``y_true``, ``y_pred`` and
    ``group`` (its default column names).

    Examples
    --------
    >>> predictions_frame([1, 0], [1, 1], ["a", "b"]).columns.tolist()
    ['y_true', 'y_pred', 'group']
    >>> try:
    ...     predictions_frame([1, 0], [1], ["a", "b"])
    ... except ValueError as error:
    ...     print(error)
    y_true, y_pred and groups differ in length: {'y_true': 2, 'y_pred': 1, 'group': 2}
    """
    given = {"y_true": y_true, "y_pred": y_pred, "group": groups}
    columns = {
        name: label_array(a, "groups" if name == "group" else name) for name, a in given.items()
    }
    lengths = {name: a.size for name, a in columns.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"y_true, y_pred and groups differ in length: {lengths}")
    return pd.DataFrame(columns)


def _deprecated_arrays(data, arrays, keywords) -> pd.DataFrame:
    """The 0.x form ``audit(y_true, y_pred, groups, ...)``: the frame it stands for."""
    if len(arrays) != 2:
        raise TypeError("audit takes a DataFrame, or the three arrays y_true, y_pred, groups")
    warnings.warn(
        "audit(y_true, y_pred, groups) is deprecated since fairbook 1.0 and goes in 2.0: pass "
        "a DataFrame, audit(frame, y_true=..., y_pred=..., groups=[...]), or three arrays as "
        "audit(predictions_frame(y_true, y_pred, groups))",
        FutureWarning,
        stacklevel=3,
    )
    frame = predictions_frame(data, *arrays)
    if keywords.get("reference") is not None and not isinstance(keywords["reference"], dict):
        keywords["reference"] = {"group": keywords["reference"]}
    keywords.update(y_true="y_true", y_pred="y_pred", groups=("group",))
    return frame


def audit(data, /, *arrays, options: AuditOptions | None = None, **keywords) -> AuditReport:
    """Audit a binary classifier's predictions across groups with the book's methods.

    ``audit(frame, y_true=..., groups=[...], ...)``: a DataFrame with one row per person and
    its columns named by the options (or ``audit(frame, options=AuditOptions(...))``). The
    0.x form with three arrays, ``audit(y_true, y_pred, groups)``, still works and warns.

    Parameters
    ----------
    data : pandas.DataFrame
        One row per person.
    options : AuditOptions, optional
        All options at once (then no keywords).
    **keywords
        The options one by one; each is a field of
        :class:`~fairbook.audit.options.AuditOptions`, validated against
        :data:`~fairbook.audit.options.CONSTRAINTS`: ``y_true``, ``y_pred`` (None with
        ``runs``: the first run is the main prediction), ``groups``, ``reference``
        (``{attribute: group}``; default the largest group, and for the intersection the
        combination of the references), ``positive``, ``intersections``, ``score``,
        ``runs`` and ``samples`` (names or glob patterns), ``metrics``, ``alpha``,
        ``test`` (``"match"``, the default, ``"wald"``, ``"score"``, ``"fisher"``,
        ``"boschloo"`` or ``"bayes"``: the test of each comparison), ``min_gap``, ``lam``,
        ``n_jobs``, ``decision`` (``"punitive"`` or
        ``"assistive"``), ``favourable``, ``max_groups``.

    Returns
    -------
    AuditReport

    Raises
    ------
    ValueError
        Empty input, a missing column, a glob matching nothing, missing values, more than
        two labels, a ``positive`` that does not occur or has the wrong type, a
        ``reference`` that is not a group, probabilities outside [0, 1], a bad option.

    Examples
    --------
    >>> frame = pd.DataFrame({"y_true": [1, 0, 1, 0, 1, 0], "y_pred": [1, 1, 0, 0, 1, 0],
    ...                       "sex": list("ffmmmm"), "age": [1, 2, 1, 2, 1, 2]})
    >>> report = audit(frame, groups=["sex", "age"], reference={"sex": "m"})
    >>> report.references
    {'sex': 'm', 'age': 1}
    >>> report.to_frame("comparisons").shape[0]  # 2 attributes x 1 group x 7 metrics
    14
    >>> round(float(report.versus_reference.loc["f", "OFI"]), 2)
    0.75
    """
    if isinstance(data, pd.DataFrame):
        if arrays:
            raise TypeError("with a DataFrame, name the columns by keyword (y_true=, ...)")
        frame = data
    else:
        frame = _deprecated_arrays(data, arrays, keywords)
    if options is not None and keywords:
        raise TypeError("give the options either as options= or as keywords, not both")
    options = options if options is not None else AuditOptions.from_keywords(**keywords)
    columns, frame = resolve_columns(frame, options)
    return _run(frame, columns, options)


# --------------------------------------------------------------------------- from a file
def _parse_references(texts, frame: pd.DataFrame, options: AuditOptions) -> dict:
    """``["race=White", "sex=Male"]`` (or one bare value) as ``{column: typed value}``."""
    if isinstance(texts, dict):
        return texts
    if isinstance(texts, str) or not np.iterable(texts):
        texts = [texts]
    group_columns = options.groups
    names = {str(c): c for c in group_columns}
    if options.intersections and len(group_columns) > 1:
        names[INTERSECTION_SEPARATOR.join(str(c) for c in group_columns)] = None
    out: dict = {}
    for text in texts:
        key, value = _split_reference(text, names, group_columns)
        if key in out:
            raise ValueError(f"two references for {key!r}")
        column = names[key]
        out[key] = (
            value
            if column is None
            else cols.coerce_option(value, frame[column], option="reference")
        )
    return out


def _split_reference(text, names: dict, group_columns) -> tuple[str, object]:
    if isinstance(text, str):
        for name in sorted(names, key=len, reverse=True):
            if text.startswith(f"{name}="):
                return name, text[len(name) + 1 :]
    if len(group_columns) != 1:
        raise ValueError(
            f"reference {show_value(text)} does not say which group column it is for; "
            f"write COLUMN=GROUP, e.g. {group_columns[0]}=..."
        )
    return str(group_columns[0]), text


def audit_file(path, *, group=None, **options) -> AuditReport:
    """Audit the predictions stored in ``path`` (CSV or Parquet; columns named by options).

    Options arrive as a command line gives them, and are read into an
    :class:`~fairbook.audit.options.AuditOptions` (:func:`~fairbook.audit.options.parse_text`):
    numbers as strings (``alpha="0.05"``, ``max_groups="0"`` for no limit); ``positive``,
    ``favourable`` and ``reference`` as strings read in their column's type (``"1"`` is the
    integer 1 in an integer column); ``reference`` as a list of ``"column=group"`` strings (or
    one bare group when there is one group column); ``runs`` and ``samples`` as glob patterns
    (``"pred_*"``). With ``runs`` and no ``y_pred`` column, the first run is the main
    prediction. ``group=`` (one column) is the 0.x spelling of ``groups=`` and warns.

    Examples
    --------
    >>> try:
    ...     audit_file("missing.csv")
    ... except FileNotFoundError as error:
    ...     print(error)
    predictions file not found: missing.csv
    """
    if group is not None:
        if options.get("groups") is not None:
            raise ValueError("give either groups or group, not both")
        warnings.warn(
            "audit_file(group=...) is deprecated since fairbook 1.0 and goes in 2.0: use groups=",
            FutureWarning,
            stacklevel=2,
        )
        options["groups"] = group
    options = {k: v for k, v in parse_text(options).items() if v is not None or k == "y_pred"}
    labels: dict[str, Any] = {
        k: options.pop(k) for k in ("positive", "favourable", "reference") if k in options
    }
    labels.setdefault("positive", AuditOptions.positive)  # read in y_true's type too
    checked = AuditOptions.from_keywords(**options)
    frame = read_predictions(path, text_columns=list(checked.groups))
    if checked.runs and checked.y_pred == "y_pred" and "y_pred" not in frame.columns:
        checked = checked.replace(y_pred=None)  # the first run is the main prediction
    columns, frame = resolve_columns(frame, checked)
    truth = frame[columns.y_true]
    typed = {
        k: cols.coerce_option(v, truth, option=k) for k, v in labels.items() if k != "reference"
    }
    if "reference" in labels:
        typed["reference"] = _parse_references(labels["reference"], frame, checked)
    return _run(frame, columns, checked.replace(**typed))
