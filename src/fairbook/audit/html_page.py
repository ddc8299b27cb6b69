"""The audit as one self-contained HTML page: summary, figures, tables.

The page needs nothing but itself: the figures are PNG images inlined as base64 ``data:``
URIs (drawn with seaborn and matplotlib, without the PNG's software URL), the style sheet is
inline, there is no script, no font, no link and no other URL, so it opens offline and makes
no network request. Its order is the reader's: the summary (which disparities survive, which
groups are too small and why, flagged uncertainty, verdicts that flip), then per attribute
the figures (each group's rates with intervals against the reference's; the gaps to the
reference, marked where they survive or the group is small; uncertainty; gaps run by run),
then the tables. Every label from the data is escaped (HTML and control characters).
"""

from __future__ import annotations

import base64
import html
import io
import math
import warnings

import numpy as np
import pandas as pd

from fairbook.labels import show_value

from .names import shown_names
from .text import printable

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
    metrics = list(dict.fromkeys(rates["metric"]))
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


def _gap_figure(report, attribute: str):
    import matplotlib.pyplot as plt
    import seaborn as sns

    part = report.tables["comparisons"]
    part = _largest(part[part["attribute"] == attribute]).copy()
    ticks = _tick_labels(dict.fromkeys(part["group"]))
    part["group"] = [ticks[g] for g in part["group"]]
    groups = list(dict.fromkeys(part["group"]))
    metrics = list(dict.fromkeys(part["metric"]))
    gap = part.pivot_table(index="group", columns="metric", values="gap", sort=False, dropna=False)
    gap = gap.reindex(index=groups, columns=metrics)
    marks = {}
    for row in part.itertuples(index=False):
        text = "NaN" if not np.isfinite(row.gap) else f"{row.gap:+.2f}"
        text += "*" if row.verdict == "disparity survives" else ""
        text += "°" if row.small else ""
        marks[(row.group, row.metric)] = text
    annot = np.array([[marks.get((g, m), "") for m in metrics] for g in groups], dtype=object)
    limit = (
        float(np.nanmax(np.abs(gap.to_numpy(dtype=float)))) if np.isfinite(gap).any().any() else 1
    )
    fig, ax = plt.subplots(figsize=(1.1 * len(metrics) + 2.5, 0.42 * len(groups) + 1.4))
    with warnings.catch_warnings():  # seaborn 0.13 calls a colormap method matplotlib retires
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        _heatmap(sns, gap, annot, limit, ax)
    ax.set_yticklabels(groups, rotation=0, fontsize=8)
    ax.set_xlabel("")
    ax.set_ylabel("")
    fig.tight_layout()
    return fig


def _heatmap(sns, gap, annot, limit, ax):
    sns.heatmap(
        gap.astype(float),
        annot=annot,
        fmt="",
        cmap="vlag",
        center=0.0,
        vmin=-max(limit, 1e-9),
        vmax=max(limit, 1e-9),
        linewidths=0.5,
        cbar_kws={"label": "group minus reference"},
        ax=ax,
        annot_kws={"fontsize": 8},
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
    bars = [b for b in ax.patches if b.get_height() > 0][: len(long)]
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
        if math.isnan(value):
            return "NaN"
        if value != 0 and abs(value) < 1e-3:
            return f"{value:.2e}"
        return f"{value:.4f}"
    return printable(value)


def _html_table(frame: pd.DataFrame) -> str:
    shown = frame.copy()
    for column in shown.columns:
        shown[column] = [_format(v) for v in shown[column].tolist()]
    return shown.to_html(index=False, escape=True, border=0)


# --------------------------------------------------------------------------- the page
def _summary_html(report) -> str:
    summary = report.summary()
    settings = report.settings
    parts = [f"<p>{html.escape(summary['adjustment'])}.</p>"]
    if summary["significant"]:
        items = "".join(
            f"<li class='bad'>{_esc(r['attribute'])} = {_group(report, r)}: {r['metric']} "
            f"{r['score']:.3f} vs {r['reference_score']:.3f} (gap {r['gap']:+.3f}, "
            f"n = {r['n']:,}, Holm p = {r['p_holm']:.2g})</li>"
            for r in summary["significant"]
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
            f"(n = {r['n']:,}): {', '.join(r['metrics'])}<ul>"
            + "".join(f"<li>{_esc(reason)}</li>" for reason in r["reasons"])
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
            f"itself small (n = {r['n']:,}) for {', '.join(r['metrics'])}: MATCH treats its "
            "rates as exact.</p>"
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
            for r in summary["undefined"]
        )
        parts.append(f"<p>Undefined comparisons (NaN):</p><ul>{items}</ul>")
    return "<section class='summary'><h2>Summary</h2>" + "".join(parts) + "</section>"


def _pct(value) -> str:
    return "NaN" if value is None or not np.isfinite(value) else f"{value:.0%}"


def render_html(report, *, title: str = "Fairness audit") -> str:
    """The report as one HTML page with inline images and style, and no URL at all.

    Examples
    --------
    >>> from fairbook.audit import audit
    >>> page = audit([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"]).to_html()
    >>> page.startswith("<!DOCTYPE html>"), "http" in page, "<script" in page
    (True, False, False)
    """
    settings = report.settings
    head = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_esc(title)}</title><style>{_STYLE}</style></head><body><main>"
        f"<h1>{_esc(title)}</h1>"
        f"<p class='note'>{settings['rows']:,} rows; positive (beneficial) label "
        f"{_label(settings['positive'])}; predictions {_esc(settings['y_pred'])}; metrics "
        f"{', '.join(settings['metrics'])}; α = {settings['alpha']:g}; intervals at "
        f"{settings['interval_level']:.0%}; CPS λ = {settings['lam']:g}.</p>"
    )
    refs = "".join(
        f"<li>{_esc(a)}: reference {_label(report.references[a])} "
        f"({settings['reference_rules'][a]})</li>"
        for a in report.attributes
    )
    body = [head, f"<ul>{refs}</ul>", _summary_html(report), "<h2>Figures</h2>"]
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
            body.append(
                _img(
                    _gap_figure(report, attribute),
                    f"{attribute}: gap to the reference (group minus reference); * the "
                    "disparity survives MATCH with Holm's adjustment; ° the group is too "
                    "small for that metric.",
                )
            )
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
    body.append("<h2>Tables</h2>")
    captions = {
        "groups": "Groups: counts, rates, OFI and DI against the reference",
        "comparisons": "Against the reference: MATCH p-values (exact), Holm-adjusted",
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
        table = _name_columns(report, table)
        body.append(f"<h3>{html.escape(caption)}</h3>{_html_table(table)}")
    body.append(
        "<h2>Notes</h2><p class='note'>NaN means undefined, never 0: a rate whose denominator "
        "is 0 in that group, and then its gap, ratio and p-value; a ratio is NaN for B (a "
        "signed difference) and where the reference's score is 0; OFI and DI are NaN for the "
        "reference itself. A comparison's <code>note</code> says which. "
        "“Not significant” is not “fair”: a small group cannot show a small gap.</p>"
    )
    body.append("</main></body></html>")
    return "\n".join(body)
