"""Widgets of chapter 06 (seed 004): Table 3's counts and the many-runs conclusion.

* :func:`table_3_editor` — edit the eight counts of Table 3 and see the seven metrics;
* :func:`conclusion_explorer` — slices the precomputed run table (task, technique, metric,
  number of runs) and shows what that many runs, and what a single pair of runs, would
  conclude.

Both need a kernel (ipywidgets); the static page shows them without interaction. For the
static page, :func:`table_3_grid` precomputes the metrics for every move of predictions
within one row of Table 3 and :func:`table_3_chart` draws them, and :func:`conclusion_grid`
precomputes every cell of the conclusion explorer and :func:`conclusion_chart` draws it: both
are Vega-Lite charts whose controls respond without a kernel (shown through
:func:`fairbook_book.charts.vega_chart`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.papers import seed004
from fairbook.stats.between_runs import MIN_RUNS, compare_runs, fewest_runs, max_diff, too_few_runs

from ._common import _runs_matrix, _techniques
from .results import table_3
from .settings import METRICS, SETTINGS_FIT

__all__ = [
    "conclusion_chart",
    "conclusion_explorer",
    "conclusion_grid",
    "table_3_chart",
    "table_3_editor",
    "table_3_grid",
]

#: The significance level of the conclusion explorers (:func:`compare_runs`'s default).
ALPHA = 0.05


def _guarded(r: dict, n: int) -> tuple[dict, dict]:
    """``compare_runs``'s result at ``n`` runs per group with every statistic that is
    undefined there set to NaN (:data:`~fairbook.stats.between_runs.MIN_RUNS`), and the guard's
    sentence per statistic (:func:`~fairbook.stats.between_runs.too_few_runs`)."""
    r = dict(r)
    for name, fewest in MIN_RUNS.items():
        if n < fewest:
            r[name] = np.nan
    return r, too_few_runs(n, alpha=ALPHA)


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _shown_p(p: float, note: str | None, undefined: str) -> str:
    """A p-value as the explorers print it: ``n/a (why)`` where it is undefined (NaN:
    never 0.0000), else 4 decimals (``< 0.0001`` when tiny) and the guard's note."""
    if p is None or np.isnan(p):
        return f"n/a ({note or undefined})"
    return f"{_p(p)} ({note})" if note else _p(p)


def _u_test_parts(r: dict, notes: dict) -> tuple[str, str]:
    """Both U-test p-values, asymptotic / exact, and apart from them the guard saying which
    of the two cannot reach α with this many runs (``""`` when both can).

    Examples
    --------
    >>> _u_test_parts({"mw_p": 0.1213, "mw_p_exact": 0.1667}, too_few_runs(2))
    ('0.1213 / 0.1667', 'cannot reach p < 0.05 with 2 runs: needs ≥ 3 per group, exact ≥ 4')
    >>> _u_test_parts({"mw_p": 0.0404, "mw_p_exact": 0.05}, too_few_runs(3))[1]
    'exact cannot reach p < 0.05 with 3 runs: needs ≥ 4 per group'
    """
    asymptotic, exact = r["mw_p"], r["mw_p_exact"]
    if np.isnan(asymptotic) or np.isnan(exact):
        return f"n/a ({notes['mw_p'] or 'every run equal: nothing to rank'})", ""
    shown = f"{_p(asymptotic)} / {_p(exact)}"
    if notes["mw_p"]:
        return shown, f"{notes['mw_p']}, exact ≥ {fewest_runs('mw_p_exact', alpha=ALPHA)}"
    if notes["mw_p_exact"]:
        return shown, f"exact {notes['mw_p_exact']}"
    return shown, ""


def _shown_u_test(r: dict, notes: dict) -> str:
    """Both U-test p-values, asymptotic / exact, and one bracket saying which of the two
    cannot reach α with this many runs (``0.1213 / 0.1667 (cannot reach p < 0.05 with
    2 runs: needs ≥ 3 per group, exact ≥ 4)``)."""
    shown, note = _u_test_parts(r, notes)
    return f"{shown} ({note})" if note else shown


def _shown_conclusion(r: dict, notes: dict) -> str:
    if notes["mw_p"]:
        return f"{r['direction']} (cannot be significant at this many runs)"
    return r["direction"]


def _shown_d(r: dict, notes: dict) -> str:
    d = r["cohen_d"]
    if np.isnan(d):
        return f"n/a ({notes['cohen_d'] or 'no spread and no difference'})"
    if np.isinf(d):
        return f"{'+' if d > 0 else '−'}∞ ({r['effect']}: no spread within the runs)"
    return f"{d:.2f} ({r['effect']})"


def _shown_levene(r: dict, notes: dict) -> str:
    return _shown_p(r["levene_p"], notes["levene_p"], "no spread to compare")


def table_3_editor(counts=None):
    """Widget: edit the eight counts of Table 3 and see the seven metrics (percent).

    Examples
    --------
    >>> w = table_3_editor()
    >>> "overall" in w.children[-1].value
    True
    """
    import ipywidgets as widgets

    counts = dict(seed004.TABLE_3_COUNTS if counts is None else counts)
    labels = list(dict.fromkeys(label for _, label in counts))
    boxes = {}
    rows = []
    for (group, true), row in counts.items():
        cells = []
        for predicted, n in zip(labels, row, strict=True):
            box = widgets.BoundedIntText(
                value=int(n),
                min=0,
                max=10**6,
                description=f"→ {predicted}",
                layout=widgets.Layout(width="170px"),
            )
            boxes[(group, true, predicted)] = box
            cells.append(box)
        rows.append(
            widgets.HBox(
                [
                    widgets.Label(f"{group}, true {true}", layout=widgets.Layout(width="160px")),
                    *cells,
                ]
            )
        )
    output = widgets.HTML()

    def refresh(_=None):
        edited = {(g, t): tuple(boxes[(g, t, p)].value for p in labels) for g, t in counts}
        try:
            frame = table_3(edited)
            output.value = frame.to_html(
                float_format=lambda v: f"{v:.1f}", na_rep="undefined (NaN)"
            )
        except ValueError as error:
            output.value = f"<p>{error}</p>"

    for box in boxes.values():
        box.observe(refresh, names="value")
    refresh()
    return widgets.VBox([*rows, output])


def table_3_grid(counts=None, *, max_moved: int = 50) -> pd.DataFrame:
    """Seed 004's seven metrics (%) of Table 3 after moving ``k`` people of one row
    (group, true label) from one predicted label to the other: the static counterpart of
    :func:`table_3_editor`, for a Table 3 with two labels.

    Parameters
    ----------
    counts : dict, optional
        ``{(group, true label): (predicted first label, predicted second label)}``;
        default :data:`fairbook.papers.seed004.TABLE_3_COUNTS`.
    max_moved : int, default 50
        ``k`` runs over ``−max_moved … max_moved`` (positive: to the first predicted label);
        where the row holds fewer people, as many as it holds move (the text says so).

    Returns
    -------
    pandas.DataFrame
        One row per (edited row, ``k``, class): ``row`` ("Female, true Sport"), ``k``,
        ``class`` (each label and ``overall``), the seven metrics (rounded to 4 decimals;
        None where undefined) and ``counts`` (the edited row as text). Every ``k`` is
        present for every row.

    Examples
    --------
    >>> grid = table_3_grid(max_moved=2)
    >>> cell = grid.query("row == 'Female, true Sport' and k == 0 and `class` == 'overall'")
    >>> float(cell.BA.iloc[0]) == round(float(table_3().loc["overall", "BA"]), 4)  # 4 decimals
    True
    """
    counts = dict(seed004.TABLE_3_COUNTS if counts is None else counts)
    labels = list(dict.fromkeys(label for _, label in counts))
    if len(labels) != 2 or any(len(row) != 2 for row in counts.values()):
        raise ValueError(f"table_3_grid needs a Table 3 with two labels, got {labels}")
    if int(max_moved) < 1:
        raise ValueError(f"max_moved must be >= 1, got {max_moved!r}")
    records = []
    for (group, true), (first, second) in counts.items():
        for k in range(-int(max_moved), int(max_moved) + 1):
            moved = min(max(k, -first), second)  # no more than the row holds
            edited = dict(counts)
            edited[(group, true)] = (first + moved, second - moved)
            text = (
                f"{group}, true {true}: predicted {labels[0]} {first + moved}, "
                f"{labels[1]} {second - moved}"
                + ("" if moved == k else f" (only {abs(moved)} can move this way)")
            )
            frame = table_3(edited)  # a move keeps the row's total: bad counts fail here
            for name, values in frame.iterrows():
                record = {"row": f"{group}, true {true}", "k": k, "class": name, "counts": text}
                record.update(
                    {m: None if pd.isna(v) else round(float(v), 4) for m, v in values.items()}
                )
                records.append(record)
    return pd.DataFrame(records)


def table_3_chart(grid: pd.DataFrame, *, row: str | None = None, k: int = 0):
    """The static Table 3 editor: a Vega-Lite chart of a :func:`table_3_grid`.

    Two controls: the row of Table 3 to edit (a dropdown) and how many of its people move
    to the first predicted label (a slider; negative: to the second). Bars: the seven
    metrics per class and overall after the move; ticks: Table 3 as printed (``k`` = 0).

    Parameters
    ----------
    grid : pandas.DataFrame
        From :func:`table_3_grid`.
    row : str, optional
        The initial row (default the first).
    k : int, default 0

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> spec = table_3_chart(table_3_grid(max_moved=3)).to_dict()
    >>> sorted(p["name"] for p in spec["params"])
    ['k', 'row']
    """
    import altair as alt

    rows = list(dict.fromkeys(grid["row"]))
    metrics = [m for m in METRICS if m in grid.columns]
    p_row = alt.param(
        name="row", value=row or rows[0], bind=alt.binding_select(options=rows, name="row ")
    )
    p_k = alt.param(
        name="k",
        value=int(k),
        bind=alt.binding_range(
            min=int(grid["k"].min()),
            max=int(grid["k"].max()),
            step=1,
            name="people moved to the first predicted label ",
        ),
    )
    base = alt.Chart(grid).transform_filter(alt.datum.row == p_row)
    folded = base.transform_fold(metrics, as_=["metric", "value"]).transform_filter(
        "isValid(datum.value)"
    )
    x = alt.X("metric:N", title=None, sort=metrics)
    x_offset = alt.XOffset("class:N")
    colour = alt.Color("class:N", title="class")
    bars = (
        folded.transform_filter(alt.datum.k == p_k)
        .mark_bar()
        .encode(
            x=x,
            xOffset=x_offset,
            y=alt.Y("value:Q", title="metric (%)"),
            color=colour,
            tooltip=["class:N", "metric:N", alt.Tooltip("value:Q", format=".2f")],
        )
    )
    printed = (
        folded.transform_filter(alt.datum.k == 0)
        .mark_tick(color="black", thickness=2, size=14)
        .encode(x=x, xOffset=x_offset, y="value:Q")
    )
    text = (
        base.transform_filter(alt.datum.k == p_k)
        .transform_filter("datum['class'] == 'overall'")
        .mark_text(align="left", fontSize=11)
        .encode(x=alt.value(0), text="counts:N")
        .properties(width=560, height=20)
    )
    return (
        alt.vconcat(text, (bars + printed).properties(width=560, height=240))
        .add_params(p_row, p_k)
        .configure_view(strokeWidth=0)
    )


def conclusion_explorer(study: pd.DataFrame):
    """Widget: pick a task, technique, metric and number of runs; see both sets of runs,
    the U-test / Cohen's d / Levene at that many runs, and how often a single pair of runs
    would have said the opposite (the table slices the precomputed ``study``).

    A statistic the slider's number of runs leaves undefined reads ``n/a (needs ≥ k runs
    per group)`` (Levene at 2 runs), and a U-test that cannot reach p < 0.05 with that
    many runs says so beside its p-value (:func:`fairbook.stats.between_runs.too_few_runs`).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [{"task": "t", "technique": q, "setting": SETTINGS_FIT, "run": r,
    ...          "class": "overall", "group": "all", "metric": m, "value": v + r / 100}
    ...         for q, v in (("base", 0.1), ("rebalance", 0.2)) for r in range(4)
    ...         for m in (*METRICS, "accuracy")]
    >>> w = conclusion_explorer(pd.DataFrame(rows))
    >>> "U-test" in w.children[-1].value
    True
    """
    import ipywidgets as widgets

    fit = study[study["setting"] == SETTINGS_FIT]
    tasks = list(dict.fromkeys(fit["task"]))
    task = widgets.Dropdown(options=tasks, value=tasks[0], description="task")
    technique = widgets.Dropdown(description="technique")
    metric = widgets.Dropdown(options=[*METRICS, "accuracy"], value="BA", description="metric")
    max_runs = int(fit["run"].max()) + 1
    n_runs = widgets.IntSlider(value=max_runs, min=2, max=max_runs, description="runs")
    output = widgets.HTML()

    def set_techniques(_=None):
        options = [t for t in _techniques(study, task.value) if t != "base"]
        technique.options = options
        technique.value = options[0]

    def refresh(_=None):
        if technique.value is None:
            return
        n = n_runs.value
        b = _runs_matrix(study, task.value, "base", n)[metric.value].to_numpy()
        t = _runs_matrix(study, task.value, technique.value, n)[metric.value].to_numpy()
        if np.isnan(b).any() or np.isnan(t).any():
            output.value = "<p>the metric is undefined in some run</p>"
            return
        r, notes = _guarded(compare_runs(b, t, alpha=ALPHA), n)
        sign = np.sign(t.mean() - b.mean())
        flips = float((np.sign(np.subtract.outer(t, b)) == -sign).mean()) if sign else 0.0
        runs = pd.DataFrame(
            {"base": 100 * b, technique.value: 100 * t}, index=pd.RangeIndex(n, name="run")
        )
        facts = pd.Series(
            {
                "mean base (%)": f"{100 * r['mean_baseline']:.2f}",
                f"mean {technique.value} (%)": f"{100 * r['mean_treated']:.2f}",
                "MaxDiff base / technique (pp)": (
                    f"{100 * max_diff(b):.2f} / {100 * max_diff(t):.2f}"
                ),
                "U-test p (asymptotic / exact)": _shown_u_test(r, notes),
                "conclusion at this many runs": _shown_conclusion(r, notes),
                "Cohen's d": _shown_d(r, notes),
                "Levene p (normalised)": _shown_levene(r, notes),
                "run 0 vs run 0 says": (
                    "decrease" if t[0] < b[0] else "increase" if t[0] > b[0] else "no change"
                ),
                "single-run pairs contradicting the means": f"{flips:.0%}",
            },
            name="",
        )
        output.value = facts.to_frame().to_html(header=False) + runs.to_html(
            float_format=lambda v: f"{v:.2f}"
        )

    task.observe(set_techniques, names="value")
    for control in (task, technique, metric, n_runs):
        control.observe(refresh, names="value")
    set_techniques()
    refresh()
    return widgets.VBox([widgets.HBox([task, technique]), widgets.HBox([metric, n_runs]), output])


def conclusion_grid(study: pd.DataFrame, *, metrics=(*METRICS, "accuracy")) -> dict:
    """Every cell of :func:`conclusion_explorer`, precomputed for the static chart.

    For each task, technique (not the baseline), metric and number of runs ``n`` (2 to all):
    the comparison of the technique's first ``n`` runs with the baseline's
    (:func:`fairbook.stats.between_runs.compare_runs`) and the share of single-run pairs whose sign
    contradicts the means; and every run's value, for the dots.

    Returns
    -------
    dict
        ``summary`` (one row per cell: ``task, technique, metric, n, mean_base,
        mean_technique`` in %, ``mw_p, mw_p_exact, direction, cohen_d, effect, levene_p,
        flips``, ``notes`` — the guard of :func:`fairbook.stats.between_runs.too_few_runs`,
        ``"levene_p: needs ≥ 3 runs per group; …"``, empty where every statistic means
        something — and ``label``, the cell's numbers as the chart prints them, undefined
        ones as ``n/a (why)``) and ``runs`` (``task, technique, metric, run, value`` in %,
        the baseline's runs included). Undefined values are None (Levene's p at 2 runs).

    Examples
    --------
    >>> rows = [{"task": "t", "technique": q, "setting": SETTINGS_FIT, "run": r,
    ...          "class": "overall", "group": "all", "metric": "BA", "value": v + r / 100}
    ...         for q, v in (("base", 0.1), ("rebalance", 0.2)) for r in range(3)]
    >>> grid = conclusion_grid(pd.DataFrame(rows), metrics=["BA"])
    >>> grid["summary"]["n"].tolist(), grid["summary"]["flips"].tolist()
    ([2, 3], [0.0, 0.0])
    >>> grid["summary"]["levene_p"].iloc[0] is None  # 2 runs: undefined, not p = 0
    True
    """
    fit = study[study["setting"] == SETTINGS_FIT]
    summary, runs = [], []
    for task in dict.fromkeys(fit["task"]):
        techniques = _techniques(study, task)
        matrices = {q: _runs_matrix(study, task, q) for q in techniques}
        for technique, matrix in matrices.items():
            for metric in metrics:
                values = matrix[metric].to_numpy() if metric in matrix else np.array([])
                runs += [
                    {
                        "task": task,
                        "technique": technique,
                        "metric": metric,
                        "run": r,
                        "value": 100 * float(v),
                    }
                    for r, v in enumerate(values)
                    if np.isfinite(v)
                ]
                if technique == "base":
                    continue
                base = matrices["base"][metric].to_numpy()
                for n in range(2, min(len(base), len(values)) + 1):
                    b, t = base[:n], values[:n]
                    if np.isnan(b).any() or np.isnan(t).any():
                        continue
                    r, notes = _guarded(compare_runs(b, t, alpha=ALPHA), n)
                    sign = np.sign(t.mean() - b.mean())
                    flips = (
                        float((np.sign(np.subtract.outer(t, b)) == -sign).mean()) if sign else 0.0
                    )
                    summary.append(
                        {
                            "task": task,
                            "technique": technique,
                            "metric": metric,
                            "n": n,
                            "mean_base": 100 * r["mean_baseline"],
                            "mean_technique": 100 * r["mean_treated"],
                            "mw_p": r["mw_p"],
                            "mw_p_exact": r["mw_p_exact"],
                            "direction": r["direction"],
                            "cohen_d": r["cohen_d"],
                            "effect": r["effect"],
                            "levene_p": r["levene_p"],
                            "flips": flips,
                            "notes": "; ".join(
                                f"{name}: {note}" for name, note in notes.items() if note
                            ),
                            "label": _label(n, technique, r, notes, flips),
                        }
                    )
    frames = {"summary": pd.DataFrame(summary), "runs": pd.DataFrame(runs)}
    return {k: f.astype(object).where(f.notna(), None) for k, f in frames.items()}


def _label(n: int, technique: str, r: dict, notes: dict, flips: float) -> str:
    """One cell of the static explorer as the chart prints it: short lines joined by
    ``"; "`` (the chart breaks the text there), the U-test's guard on a line of its own, so
    that no line is wider than the chart.

    Examples
    --------
    >>> r = compare_runs([0.10, 0.11, 0.12], [0.05, 0.06, 0.07])
    >>> for line in _label(3, "penalty", *_guarded(r, 3), 0.0).split("; "):
    ...     print(line)
    3 runs each: mean base 11.00 %, penalty 6.00 %
    U-test p (asymptotic / exact) 0.0404 / 0.0500: decrease
    (exact cannot reach p < 0.05 with 3 runs: needs ≥ 4 per group)
    Cohen's d -5.00 (huge)
    Levene p (normalised) 0.4695
    single-run pairs against the means 0%
    """
    shown, note = _u_test_parts(r, notes)
    lines = [
        f"{n} runs each: mean base {100 * r['mean_baseline']:.2f} %, "
        f"{technique} {100 * r['mean_treated']:.2f} %",
        f"U-test p (asymptotic / exact) {shown}: {r['direction']}",
        *([f"({note})"] if note else []),
        f"Cohen's d {_shown_d(r, notes)}",
        f"Levene p (normalised) {_shown_levene(r, notes)}",
        f"single-run pairs against the means {flips:.0%}",
    ]
    return "; ".join(lines)


#: The static explorer's text: its font size (px) and the most lines a cell prints.
_TEXT_SIZE, _TEXT_LINES = 12, 6


def conclusion_chart(grid: dict, *, task=None, technique=None, metric="BA", n=None):
    """The static conclusion explorer: a Vega-Lite chart of a :func:`conclusion_grid`.

    Four controls bound to parameters that both panels filter on: the task, the technique
    and the metric (dropdowns) and the number of runs (a slider). The chart shows the
    first ``n`` runs of the baseline and of the technique as dots, and above them the
    comparison at that many runs (a technique missing from a task shows nothing).

    Parameters
    ----------
    grid : dict
        :func:`conclusion_grid`'s.
    task, technique, metric, n : optional
        The initial values (default: the first task and technique, BA, all runs).

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> rows = [{"task": "t", "technique": q, "setting": SETTINGS_FIT, "run": r,
    ...          "class": "overall", "group": "all", "metric": "BA", "value": v + r / 100}
    ...         for q, v in (("base", 0.1), ("rebalance", 0.2)) for r in range(3)]
    >>> spec = conclusion_chart(conclusion_grid(pd.DataFrame(rows), metrics=["BA"])).to_dict()
    >>> sorted(p["name"] for p in spec["params"])
    ['metric', 'n', 'task', 'technique']
    """
    import altair as alt

    summary, runs = grid["summary"], grid["runs"]
    if summary.empty:
        raise ValueError("the grid has no comparison: nothing to chart")
    tasks = list(dict.fromkeys(summary["task"]))
    techniques = list(dict.fromkeys(summary["technique"]))
    metrics = list(dict.fromkeys(summary["metric"]))
    sizes = sorted({int(v) for v in summary["n"]})
    p_task = alt.param(
        name="task", value=task or tasks[0], bind=alt.binding_select(options=tasks, name="task ")
    )
    p_technique = alt.param(
        name="technique",
        value=technique or techniques[0],
        bind=alt.binding_select(options=techniques, name="technique "),
    )
    p_metric = alt.param(
        name="metric",
        value=metric if metric in metrics else metrics[0],
        bind=alt.binding_select(options=metrics, name="metric "),
    )
    p_n = alt.param(
        name="n",
        value=int(n if n is not None else sizes[-1]),
        bind=alt.binding_range(min=sizes[0], max=sizes[-1], step=1, name="runs "),
    )
    same = (alt.datum.task == p_task) & (alt.datum.metric == p_metric)
    dots = (
        alt.Chart(runs)
        .transform_filter(same)
        .transform_filter((alt.datum.technique == "base") | (alt.datum.technique == p_technique))
        .transform_filter(alt.datum.run < p_n)
        .mark_circle(size=70, opacity=0.8)
        .encode(
            x=alt.X(
                "value:Q", title="overall value over the runs (%)", scale=alt.Scale(zero=False)
            ),
            y=alt.Y("technique:N", title=None),
            color=alt.Color("technique:N", legend=None),
            tooltip=["technique:N", "run:Q", alt.Tooltip("value:Q", format=".3f")],
        )
        .properties(width=560, height=90)
    )
    # the text needs only the label: the numbers' undefined cells (None) would reach
    # Vega-Lite as NaN through Altair's float columns
    text = (
        alt.Chart(summary[["task", "technique", "metric", "n", "label"]])
        .transform_filter(same)
        .transform_filter(alt.datum.technique == p_technique)
        .transform_filter(alt.datum.n == p_n)
        .mark_text(
            align="left",
            baseline="top",
            fontSize=_TEXT_SIZE,
            lineBreak="; ",
            lineHeight=_TEXT_SIZE + 3,
        )
        .encode(x=alt.value(0), y=alt.value(0), text="label:N")
        # room for every line of the longest cell: the status line is never cut
        .properties(width=560, height=_TEXT_LINES * (_TEXT_SIZE + 3))
    )
    return (
        alt.vconcat(text, dots)
        .add_params(p_task, p_technique, p_metric, p_n)
        .configure_view(strokeWidth=0)
    )
