"""Widgets of chapter 06 (seed 004): Table 3's counts and the many-runs conclusion.

* :func:`table_3_editor` — edit the eight counts of Table 3 and see the seven metrics;
* :func:`conclusion_explorer` — slices the precomputed run table (task, technique, metric,
  number of runs) and shows what that many runs, and what a single pair of runs, would
  conclude.

Both need a kernel (ipywidgets); the static page shows them without interaction.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.papers import seed004
from fairbook.stats.runs import compare_runs, max_diff

from ._common import _runs_matrix, _techniques
from .results import table_3
from .settings import METRICS, SETTINGS_FIT

__all__ = ["conclusion_explorer", "table_3_editor"]


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


def conclusion_explorer(study: pd.DataFrame):
    """Widget: pick a task, technique, metric and number of runs; see both sets of runs,
    the U-test / Cohen's d / Levene at that many runs, and how often a single pair of runs
    would have said the opposite (the table slices the precomputed ``study``).

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
        r = compare_runs(b, t)
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
                "U-test p (asymptotic / exact)": f"{r['mw_p']:.4f} / {r['mw_p_exact']:.4f}",
                "conclusion at this many runs": r["direction"],
                "Cohen's d": f"{r['cohen_d']:.2f} ({r['effect']})",
                "Levene p (normalised)": f"{r['levene_p']:.4f}",
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
