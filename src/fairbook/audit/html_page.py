"""The audit as one self-contained HTML page: summary, figures, tables.

The page needs nothing but itself: the figures are PNG images inlined as base64 ``data:``
URIs (drawn with seaborn and matplotlib, without the PNG's software URL), the style sheet is
inline, there is no script, no font, no link and no other URL, so it opens offline and makes
no network request. Its order is the reader's: what a positive prediction means for the
person (``decision``, or that it was not given), the summary (which disparities survive,
which groups are too small and why, flagged uncertainty, verdicts that flip), what each
metric measures and when to care (:mod:`fairbook.audit.decision_direction`), then per attribute the
figures (each group's rates with intervals against the reference's; the gaps to the
reference as a heat map; uncertainty; gaps run by run), then the tables. Metrics appear in
the order the decision ranks them everywhere. Every label from the data is escaped (HTML and
control characters).

The heat map of gaps is an HTML table whose cells are coloured by the gap (no image, so it
can be read, copied and checked). Its colour scale is set by the groups large enough to
tell a gap of ``min_gap`` from chance; a cell whose group is too small for that metric (the
``small`` flag of :mod:`fairbook.audit.small_groups`) is faded, hatched and marked ``°``,
so the largest raw gaps — which in small groups are mostly noise — never paint the darkest
cells.
"""

from __future__ import annotations

import base64
import html
import io
import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from fairbook.labels import show_value

from .decision_direction import MEANINGS, ranked
from .display_labels import shown_names
from .rate_tests import SIZE_NOTE
from .text import _direction, _is_match, by_metric, metric_order, printable, size_text, test_name

__all__ = ["figure_data_uri", "render_html"]

_MAX_GROUPS = 40  # groups drawn per figure (the largest); the tables list all

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 72rem; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
h3 { margin-top: 1.6rem; }
table { border-collapse: collapse; font-size: 0.82rem; margin: 0.6rem 0 1.2rem; }
th, td { border: 1px solid #ddd; padding: 0.2rem 0.45rem; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
.summary { background: #f7f9fc; border: 1px solid #cfd8e3; padding: 0.4rem 1.2rem; }
.bad { color: #a4161a; } .small { color: #8a5a00; } .note { color: #555; font-size: 0.9rem; }
figure { margin: 1rem 0; } figcaption { font-size: 0.88rem; color: #444; max-width: 60rem; }
img { max-width: 100%; height: auto; }
.direction { font-size: 1.05rem; border-left: 4px solid #4a6fa5; padding: 0.2rem 0.8rem; }
table.heatmap td { min-width: 3.6rem; text-align: center; }
table.heatmap td.small { color: #666; font-style: italic;
  background-image: repeating-linear-gradient(135deg, rgba(0, 0, 0, 0.18) 0 1px,
                                              transparent 1px 6px); }
table.heatmap td.nan { background: #eee; color: #777; }
.swatch { display: inline-block; min-width: 3.2rem; text-align: center; padding: 0 0.3rem;
          border: 1px solid #ddd; font-size: 0.8rem; }
"""


def _esc(value) -> str:
    return html.escape(printable(value))


def _label(value) -> str:
    return _esc(show_value(value) if not isinstance(value, str) else value)


def figure_data_uri(fig, *, dpi: int = 96) -> str:
    """A matplotlib figure as a ``data:image/png;base64,...`` URI; the figure is closed.

    The PNG carries no software metadata (matplotlib's default names its web site).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> uri = figure_data_uri(fig)
    >>> uri.startswith("data:image/png;base64,"), "http" in base64.b64decode(uri[22:]).decode(
    ...     "latin-1")
    (True, False)
    """
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _img(fig, caption: str) -> str:
    return (
        f'<figure><img alt="{html.escape(caption, quote=True)}" src="{figure_data_uri(fig)}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _tick_labels(groups) -> dict:
    """A distinct, short, printable label for each group (:func:`.names.shown_names`)."""
    groups = list(dict.fromkeys(groups))
    return dict(zip(groups, shown_names(groups, width=28), strict=True))


def _group(report, row) -> str:
    """A group of a summary row, escaped for HTML and distinct from its attribute's others."""
    group = row["group"]
    text = report.group_names(row["attribute"]).get(group)
    return _label(group) if text is None else html.escape(text)


def _name_columns(report, frame: pd.DataFrame) -> pd.DataFrame:
    """A table with its group columns as printed names (exact names stay in the JSON)."""
    if "attribute" not in frame.columns:
        return frame
    out = frame.copy()
    for column in ("group", "reference_group", "largest", "second"):
        if column in out.columns:
            out[column] = [
                report.group_names(a).get(g, printable(g))
                for a, g in zip(frame["attribute"], frame[column], strict=True)
            ]
    return out


def _largest(part: pd.DataFrame) -> pd.DataFrame:
    order = part.groupby("group", sort=False)["n"].first().sort_values(ascending=False)
    keep = set(order.index[:_MAX_GROUPS].tolist())
    return part[part["group"].isin(keep)]


# --------------------------------------------------------------------------- figures
def _rates_figure(report, attribute: str):
    import matplotlib.pyplot as plt
    import seaborn as sns
    from matplotlib.ticker import MaxNLocator

    rates = _largest(report.tables["rates"][report.tables["rates"]["attribute"] == attribute])
    comparisons = report.tables["comparisons"]
    small = comparisons[(comparisons["attribute"] == attribute) & comparisons["small"]]
    small_keys = set(zip(small["group"].tolist(), small["metric"].tolist(), strict=True))
    metrics = [m for m in metric_order(report) if m in set(rates["metric"])]
    groups = list(dict.fromkeys(rates["group"]))
    ticks = _tick_labels(groups)
    ncols = min(4, len(metrics))
    nrows = math.ceil(len(metrics) / ncols)
    height = max(2.0, 0.32 * len(groups) + 1.0)
    with sns.axes_style("whitegrid"):
        fig, axes = plt.subplots(
            nrows, ncols, figsize=(3.4 * ncols, height * nrows), sharey=True, squeeze=False
        )
    palette = sns.color_palette("deep")
    y = np.arange(len(groups))
    for ax, metric in zip(axes.ravel(), metrics, strict=False):
        part = rates[rates["metric"] == metric].set_index("group").reindex(groups)
        score = part["score"].to_numpy(dtype=float)
        low = part["ci_low"].to_numpy(dtype=float)
        high = part["ci_high"].to_numpy(dtype=float)
        is_small = np.array([(g, metric) in small_keys for g in groups])
        is_ref = part["is_reference"].to_numpy(dtype=bool)
        err = np.vstack([score - low, high - score])
        for mask, color, label in (
            (~is_small & ~is_ref, palette[0], "group"),
            (is_small, palette[1], "small for this metric"),
            (is_ref, "black", "reference"),
        ):
            if mask.any():
                ax.errorbar(
                    score[mask],
                    y[mask],
                    xerr=np.nan_to_num(err[:, mask]),
                    fmt="o",
                    color=color,
                    ms=4,
                    capsize=2,
                    lw=1,
                    label=label,
                )
        if is_small.any():
            ax.plot(
                part["cps"].to_numpy(dtype=float)[is_small],
                y[is_small],
                "x",
                color=palette[3],
                ms=5,
                label="CPS-smoothed",
            )
        ref_score = score[is_ref][0] if is_ref.any() else np.nan
        if np.isfinite(ref_score):
            ax.axvline(ref_score, color="black", ls="--", lw=0.8)
        ax.set_title(metric, fontsize=10)
        ax.set_yticks(y, [ticks[g] for g in groups], fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.set_xlim(-1.05 if metric == "B" else -0.05, 1.05)
        ax.xaxis.set_major_locator(MaxNLocator(5))
    for ax in axes.ravel()[len(metrics) :]:
        ax.set_visible(False)
    axes[0, 0].invert_yaxis()
    handles, labels = [], []
    for ax in axes.ravel()[: len(metrics)]:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def _gap_cells(report, attribute: str) -> pd.DataFrame:
    """The heat map's cells: one row per group and metric (decision's order), largest groups."""
    part = report.tables["comparisons"]
    part = _largest(part[part["attribute"] == attribute])
    return by_metric(report, part)


def _colour_limit(cells: pd.DataFrame) -> float:
    """The gap that gets the darkest colour: the largest |gap| among the cells whose group
    is large enough for the metric (all cells only when every one is small)."""
    gaps = np.abs(cells["gap"].to_numpy(dtype=float))
    trusted = gaps[~cells["small"].to_numpy(dtype=bool) & np.isfinite(gaps)]
    pool = trusted if trusted.size else gaps[np.isfinite(gaps)]
    return max(float(pool.max()), 1e-9) if pool.size else 1.0


def _colour(value: float, limit: float, *, faded: bool) -> tuple[str, str]:
    """Background and text colour of a gap on the diverging scale (vlag) clipped at ±limit."""
    import seaborn as sns
    from matplotlib.colors import to_hex

    with warnings.catch_warnings():  # seaborn 0.13 calls a colormap method matplotlib retires
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        cmap = sns.color_palette("vlag", as_cmap=True)
    rgb = np.asarray(cmap(float(np.clip(0.5 + value / (2 * limit), 0.0, 1.0)))[:3])
    if faded:
        rgb = 0.3 * rgb + 0.7  # most of the way to white: the colour says little here
    luminance = float(rgb @ np.array([0.299, 0.587, 0.114]))
    red, green, blue = (float(v) for v in rgb[:3])
    return to_hex((red, green, blue)), "#111" if luminance > 0.55 else "#fff"


def _gap_heatmap(report, attribute: str) -> str:
    """The gaps to the reference as a coloured HTML table; small groups' cells muted."""
    cells = _gap_cells(report, attribute)
    metrics = [m for m in metric_order(report) if m in set(cells["metric"])]
    groups = list(dict.fromkeys(cells["group"]))
    names = _tick_labels(groups)
    limit = _colour_limit(cells)
    by_cell = {(row.group, row.metric): row for row in cells.itertuples(index=False)}
    rows = []
    for group in groups:
        tds = []
        for metric in metrics:
            row = by_cell.get((group, metric))
            if row is None:
                tds.append("<td></td>")
                continue
            small = bool(row.small)
            text = "NaN" if not np.isfinite(row.gap) else f"{row.gap:+.2f}"
            text += "*" if row.verdict == "disparity survives" else ""
            text += "°" if small else ""
            classes = ["small"] if small else []
            style = ""
            if np.isfinite(row.gap):
                background, ink = _colour(float(row.gap), limit, faded=small)
                style = f" style='background-color:{background};color:{ink}'"
            else:
                classes.append("nan")
            title = (
                f"{metric}: too small for this metric, so its colour is muted"
                if small
                else f"{metric}: {row.verdict}"
            )
            tds.append(
                f"<td class='{' '.join(classes)}'{style} "
                f"title='{html.escape(title, quote=True)}'>{text}</td>"
            )
        rows.append(f"<tr><th scope='row'>{html.escape(names[group])}</th>{''.join(tds)}</tr>")
    head = "".join(f"<th scope='col'>{m}</th>" for m in metrics)
    swatches = "".join(
        f"<span class='swatch' style='background-color:{back};color:{ink}'>{v:+.2f}</span>"
        for v in np.linspace(-limit, limit, 5)
        for back, ink in [_colour(float(v), limit, faded=False)]
    )
    min_gap = report.settings["min_gap"]
    caption = (
        f"{_esc(attribute)}: gap to the reference (group minus reference), metrics in the "
        "order they matter here. Colour scale (clipped at the ends): "
        f"{swatches}; the darkest colour is the largest gap among the groups large enough to "
        f"tell. * the disparity survives {'MATCH' if _is_match(report) else 'the test'} with "
        "Holm's adjustment. "
        "<span class='small'>Hatched, faded cells marked ° belong to a group too small for "
        f"that metric to tell a gap of {min_gap:g} from chance: their colour is muted "
        "whatever the gap, because the evidence there is weakest; read the number, not the "
        "colour.</span>"
    )
    return (
        f"<figure><table class='heatmap'><thead><tr><th>group</th>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table><figcaption>{caption}</figcaption></figure>"
    )


def _uncertainty_figure(report, attribute: str):
    import matplotlib.pyplot as plt
    import seaborn as sns

    table = report.tables["uncertainty"]
    part = table[table["attribute"] == attribute].sort_values("n", ascending=False)
    part = part.head(_MAX_GROUPS)
    ticks = _tick_labels(part["group"])
    long = pd.concat(
        [
            pd.DataFrame(
                {
                    "group": [ticks[g] for g in part["group"]],
                    "measure": name,
                    "mean": part[column].to_numpy(dtype=float),
                    "se": part[f"{column}_se"].to_numpy(dtype=float),
                }
            )
            for column, name in (("U_e", "epistemic"), ("U_a", "aleatoric"), ("U_p", "predictive"))
        ],
        ignore_index=True,
    )
    with sns.axes_style("whitegrid"):
        fig, ax = plt.subplots(figsize=(7, 0.45 * len(part) + 1.6))
    sns.barplot(data=long, y="group", x="mean", hue="measure", ax=ax, errorbar=None)
    bars: list[Any] = [b for b in ax.patches if b.get_height() > 0][: len(long)]  # type: ignore[attr-defined]
    for bar, (_, row) in zip(bars, long.iterrows(), strict=False):
        if np.isfinite(row["se"]):
            ax.errorbar(
                bar.get_width(),
                bar.get_y() + bar.get_height() / 2,
                xerr=1.96 * row["se"],
                color="black",
                lw=0.8,
                capsize=2,
            )
    sns.move_legend(ax, "upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, title_fontsize=8)
    ax.set_xlabel("mean uncertainty per person")
    ax.set_ylabel("")
    fig.tight_layout()
    return fig


def _runs_figure(report, attribute: str):
    import matplotlib.pyplot as plt
    import seaborn as sns

    runs = report.tables["runs"]
    part = _largest(runs[runs["attribute"] == attribute]).copy()
    ticks = _tick_labels(dict.fromkeys(part["group"]))
    part["group"] = [ticks[g] for g in part["group"]]
    with sns.axes_style("whitegrid"):
        fig, ax = plt.subplots(figsize=(7.5, 0.5 * part["group"].nunique() + 1.6))
    sns.stripplot(data=part, x="gap", y="group", hue="metric", dodge=True, size=4, ax=ax)
    ax.axvline(0.0, color="black", lw=0.8)
    ax.set_xlabel("gap to the reference in each run")
    ax.set_ylabel("")
    sns.move_legend(ax, "upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7, title_fontsize=8)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- tables
def _format(value) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else ""
    if isinstance(value, float | np.floating):
        number = float(value)
        if math.isnan(number):
            return "NaN"
        if number != 0 and abs(number) < 1e-3:
            return f"{number:.2e}"
        return f"{number:.4f}"
    return printable(value)


def _html_table(frame: pd.DataFrame) -> str:
    shown = frame.copy()
    for column in shown.columns:
        shown[column] = [_format(v) for v in shown[column].tolist()]
    return shown.to_html(index=False, escape=True, border=0)


# --------------------------------------------------------------------------- the page
def _ordered(report, rows: list[dict]) -> list[dict]:
    """Summary rows in the decision's metric order within each attribute (stable)."""
    if not rows:
        return rows
    frame = pd.DataFrame({"attribute": [r["attribute"] for r in rows]})
    frame["metric"] = [r["metric"] for r in rows]
    return [rows[i] for i in by_metric(report, frame).index]


def _summary_html(report) -> str:
    summary = report.summary()
    settings = report.settings
    decision = settings.get("decision")
    parts = [f"<p>{html.escape(summary['adjustment'])}.</p>"]
    if summary["significant"]:
        items = "".join(
            f"<li class='bad'>{_esc(r['attribute'])} = {_group(report, r)}: {r['metric']} "
            f"{r['score']:.3f} vs {r['reference_score']:.3f} (gap {r['gap']:+.3f}, "
            f"n = {r['n']:,}, Holm p = {r['p_holm']:.2g})</li>"
            for r in _ordered(report, summary["significant"])
        )
        parts.append(f"<p>Disparities that survive:</p><ul>{items}</ul>")
    else:
        parts.append(
            f"<p>No disparity of at least {settings['min_gap']:g} survives the adjusted tests "
            "(not evidence of fairness: see the small groups).</p>"
        )
    if summary["small_groups"]:
        items = "".join(
            f"<li class='small'>{_esc(r['attribute'])} = {_group(report, r)} "
            f"(n = {r['n']:,}): {', '.join(ranked(r['metrics'], decision))}<ul>"
            + "".join(f"<li>{_esc(reason)}</li>" for reason in r["reasons"])
            + (
                f"<li>{_esc(size_text(report, r['metrics'], r['exact_sizes'], r['size_notes']))}"
                "</li>"
                if "exact_sizes" in r
                else ""
            )
            + "</ul></li>"
            for r in summary["small_groups"]
        )
        parts.append(
            f"<p>Groups too small to tell a gap of {settings['min_gap']:g} from chance, for the "
            "metrics listed (there, “no apparent disparity” says little; a disparity that "
            "survives anyway is real):</p>"
            f"<ul>{items}</ul>"
        )
    for r in summary["small_references"]:
        parts.append(
            f"<p class='small'>The reference {_group(report, r)} of {_esc(r['attribute'])} is "
            f"itself small (n = {r['n']:,}) for {', '.join(r['metrics'])}: "
            + (
                "MATCH treats its rates as exact.</p>"
                if _is_match(report)
                else f"the chosen test ({html.escape(test_name(report))}) counts its sampling "
                "too.</p>"
            )
        )
    if summary["uncertainty_unfair"]:
        items = "".join(
            f"<li class='bad'>{_esc(r['attribute'])} = {_group(report, r)}: {r['measure']} = "
            f"{r['ratio']:.3f}</li>"
            for r in summary["uncertainty_unfair"]
        )
        parts.append(
            f"<p>Uncertainty ratios flagged unfair (|F − 1| &gt; 0.2):</p><ul>{items}</ul>"
        )
    if summary["flips"] or summary["seven_metric_flips"]:
        items = "".join(
            f"<li>{_esc(r['attribute'])} = {_group(report, r)}, {r['metric']}: survives in "
            f"{_pct(r['share_survives'])} of {r['runs']} runs"
            + (
                f", ratio unfair in {_pct(r['share_ratio_unfair'])}</li>"
                if r["share_ratio_unfair"] is not None and np.isfinite(r["share_ratio_unfair"])
                else " (no ratio)</li>"
            )
            for r in summary["flips"]
        ) + "".join(
            f"<li>{_esc(r['attribute'])}, {r['metric']} above 0.2 in {_pct(r['share_unfair'])} "
            f"of {r['runs']} runs</li>"
            for r in summary["seven_metric_flips"]
        )
        parts.append(f"<p>Verdicts that flip between runs (seed 004):</p><ul>{items}</ul>")
    if summary["undefined"]:
        items = "".join(
            f"<li>{_esc(r['attribute'])} = {_group(report, r)}, {r['metric']}: {_esc(r['note'])}"
            "</li>"
            for r in _ordered(report, summary["undefined"])
        )
        parts.append(f"<p>Undefined comparisons (NaN):</p><ul>{items}</ul>")
    return "<section class='summary'><h2>Summary</h2>" + "".join(parts) + "</section>"


#: Tables whose rows the page orders by the decision's metric order (within each attribute).
_BY_METRIC = ("comparisons", "rates", "overview")


def _meanings_html(report) -> str:
    """What each metric measures and when to care, in the decision's order."""
    decision = report.settings.get("decision")
    if decision is None:
        intro = "In the order given: the direction was not given, so each metric is read both ways."
    else:
        intro = (
            "Most important first: a positive prediction "
            f"{'harms' if decision == 'punitive' else 'helps'} the person."
        )
    rows = "".join(
        f"<tr><td>{m}</td><td>{html.escape(MEANINGS[m].measures)}</td>"
        f"<td>{html.escape(MEANINGS[m].care(decision))}</td></tr>"
        for m in metric_order(report)
    )
    return (
        f"<h2>What the metrics measure, and when to care</h2><p>{intro}</p>"
        "<table class='meanings'><thead><tr><th>metric</th><th>what it measures</th>"
        f"<th>when to care</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _pct(value) -> str:
    return "NaN" if value is None or not np.isfinite(value) else f"{value:.0%}"


def render_html(report, *, title: str = "Fairness audit") -> str:
    """The report as one HTML page with inline images and style, and no URL at all.

    Examples
    --------
    >>> from fairbook.audit import audit, predictions_frame
    >>> page = audit(predictions_frame([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])).to_html()
    >>> page.startswith("<!DOCTYPE html>"), "http" in page, "<script" in page
    (True, False, False)
    """
    settings = report.settings
    head = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_esc(title)}</title><style>{_STYLE}</style></head><body><main>"
        f"<h1>{_esc(title)}</h1>"
        f"<p class='direction'>{html.escape(_direction(report))}</p>"
        f"<p class='note'>{settings['rows']:,} rows; positive label "
        f"{_label(settings['positive'])}; predictions {_esc(settings['y_pred'])}; metrics "
        f"{', '.join(metric_order(report))}; α = {settings['alpha']:g}; intervals at "
        f"{settings['interval_level']:.0%}; CPS λ = {settings['lam']:g}.</p>"
        f"<p class='test'>Test of each comparison: <strong>{html.escape(test_name(report))}"
        "</strong>; Holm's adjustment over all of them"
        + ("" if _is_match(report) else " (B has no p-value: it is tested only by MATCH)")
        + ".</p>"
    )
    refs = "".join(
        f"<li>{_esc(a)}: reference {_label(report.references[a])} "
        f"({settings['reference_rules'][a]})</li>"
        for a in report.attributes
    )
    body = [head, f"<ul>{refs}</ul>", _summary_html(report), _meanings_html(report)]
    body += _figures_html(report)
    body += _tables_html(report)
    body.append(
        "<h2>Notes</h2><p class='note'>NaN means undefined, never 0: a rate whose denominator "
        "is 0 in that group, and then its gap, ratio and p-value; a ratio is NaN for B (a "
        "signed difference) and where the reference's score is 0; OFI and DI are NaN for the "
        "reference itself. A comparison's <code>note</code> says which. "
        "“Not significant” is not “fair”: a small group cannot show a small gap.</p>"
    )
    body.append("</main></body></html>")
    return "\n".join(body)


def _figures_html(report) -> list[str]:
    """Each attribute's figures: rates with intervals, gaps, uncertainty, runs."""
    settings = report.settings
    body = ["<h2>Figures</h2>"]
    for attribute in report.attributes:
        body.append(f"<h3>{_esc(attribute)}</h3>")
        body.append(
            _img(
                _rates_figure(report, attribute),
                f"{attribute}: each group's rate with its {settings['interval_level']:.0%} "
                "interval (Clopper–Pearson; normal for B); dashed: the reference's rate; "
                "orange: groups too small for that metric, with their CPS-smoothed rate (x).",
            )
        )
        if (report.tables["comparisons"]["attribute"] == attribute).any():
            body.append(_gap_heatmap(report, attribute))
        if report.tables.get("uncertainty") is not None:
            body.append(
                _img(
                    _uncertainty_figure(report, attribute),
                    f"{attribute}: mean uncertainty per group (bars: ±1.96 standard errors).",
                )
            )
        runs = report.tables.get("runs")
        if runs is not None and (runs["attribute"] == attribute).any():
            body.append(
                _img(
                    _runs_figure(report, attribute),
                    f"{attribute}: each run's gap to the reference, per metric.",
                )
            )
    return body


def _tables_html(report) -> list[str]:
    """Every table of the report that has rows, captioned."""
    body = ["<h2>Tables</h2>"]
    captions = {
        "groups": "Groups: counts, rates, OFI and DI against the reference",
        "comparisons": (
            "Against the reference: MATCH p-values (exact), Holm-adjusted"
            if _is_match(report)
            else f"Against the reference: p-values of {test_name(report)}, Holm-adjusted"
        )
        + "; exact_size: the "
        + SIZE_NOTE.format(alpha=report.settings["alpha"])
        + ", beside each small-group flag",
        "rates": "Rates with intervals and CPS-smoothed rates",
        "overview": "Between groups (fairlearn's difference and ratio)",
        "seven_metrics": "Seed 004's seven bias metrics (two largest groups for the pairwise)",
        "uncertainty": "Uncertainty per group and seed 000's ratios",
        "stability": "Stability over runs",
        "stability_seven_metrics": "Seed 004's seven metrics over runs",
        "scores": "Score balance and calibration",
    }
    for name, caption in captions.items():
        table = report.tables.get(name)
        if table is None or table.empty:
            continue
        if name in _BY_METRIC:
            table = by_metric(report, table)
        table = _name_columns(report, table)
        body.append(f"<h3>{html.escape(caption)}</h3>{_html_table(table)}")
    return body
