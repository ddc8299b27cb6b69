"""Chapter "Are my models fair every time?" (seed 004): every computation it shows.

The chapter replays Qian et al.'s study at a reader's scale: FIT runs of a baseline and of
debiasing techniques on two small tasks (:mod:`fairbook.variance.tasks`), the spread of
seven bias metrics (RQ1), whether a technique really helps (RQ2), what it costs (RQ3), the
literature survey and the implementation knobs. The functions below build the study's
run table, the tables and figures derived from it, the replication tables (paper beside
ours) and the chapter's widgets (thin wrappers that slice a precomputed run table).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from fairbook.experiments.profiles import choose_settings
from fairbook.metrics import BIAS_REPORT_METRICS, bias_report
from fairbook.papers import seed004
from fairbook.replication import replication_table
from fairbook.stats.runs import compare_runs, max_diff
from fairbook.variance import debiasing
from fairbook.variance.determinism import Knobs, knob_variants
from fairbook.variance.fit_runs import fit_runs_many, per_run, summarize
from fairbook.variance.tasks import RunSpec

__all__ = [
    "METRICS",
    "PROFILES",
    "SETTINGS_FIT",
    "SETTINGS_SEED",
    "SETTINGS_STRICT",
    "TASKS",
    "TASK_LABELS",
    "box_grid",
    "conclusion_explorer",
    "connect",
    "cost_heatmaps",
    "costs",
    "effect_heatmap",
    "effects",
    "finding_1_replication",
    "finding_2_example",
    "finding_2_replication",
    "finding_3_4_replication",
    "knob_study",
    "knob_table",
    "load_survey",
    "run_study",
    "settings",
    "single_run_table",
    "spread_contrast",
    "spec",
    "strict_identity",
    "study_knobs",
    "survey_plot",
    "survey_replication",
    "table_2",
    "table_3",
    "table_3_editor",
    "table_3_labels",
    "table_3_replication",
    "table_4_replication",
    "techniques_table",
    "variance_heatmap",
]

METRICS = tuple(BIAS_REPORT_METRICS)
TASKS = ("digits_s", "adult")
TASK_LABELS = {"digits_s": "Digits-S (CNN)", "compas": "COMPAS (MLP)", "adult": "Adult (MLP)"}

#: The run settings of the study (a column of the run table).
SETTINGS_FIT = "FIT runs"
SETTINGS_STRICT = "FIT runs, every knob fixed"
SETTINGS_SEED = "seed varies"

#: Training hyper-parameters per task (``lam`` per technique). Chosen once so that every
#: technique trains stably on a CPU in seconds; see the chapter for what they imply.
TASK_SETTINGS = {
    "digits_s": {
        "epochs": 15,
        "batch_size": 32,
        "lr": 0.05,
        "lam": {"adversarial": 0.1, "penalty": 0.1},
    },
    "compas": {
        "epochs": 20,
        "batch_size": 64,
        "lr": 0.05,
        "lam": {"adversarial": 1.0, "penalty": 5.0},
    },
    "adult": {
        "epochs": 10,
        "batch_size": 128,
        "lr": 0.05,
        "lam": {"adversarial": 1.0, "penalty": 5.0},
    },
}

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "n_runs": 4,
        "tasks": TASKS,
        "techniques": ("base", "adversarial", "penalty"),
        "epochs": {"digits_s": 10, "adult": 10},
        "knob_runs": 2,
        "knob_tasks": ("digits_s",),
        "seed": 0,
        "backend": "loky",
        "n_jobs": 2,
        "device": "cpu",
        "emulate": None,
        "scheduler": "",
    },
    "full": {
        "n_runs": 16,
        "tasks": TASKS,
        "techniques": tuple(debiasing.TECHNIQUES),
        "epochs": {"digits_s": 15, "adult": 10},
        "knob_runs": 4,
        "knob_tasks": TASKS,
        "seed": 0,
        "backend": "loky",
        "n_jobs": 2,
        "device": "cpu",
        "emulate": None,
        "scheduler": "",
    },
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides are ignored.

    ``techniques`` and ``tasks`` may be given as comma-separated strings (papermill
    parameters); ``emulate`` defaults to True on a CPU and False on a GPU (where the real
    nondeterminism is there to measure).

    Examples
    --------
    >>> settings("full")["n_runs"]
    16
    >>> settings("fast", techniques="base,penalty")["techniques"]
    ('base', 'penalty')
    >>> settings("fast", device="cuda")["emulate"]
    False
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    for key in ("techniques", "tasks", "knob_tasks"):
        if isinstance(chosen[key], str):
            chosen[key] = tuple(s.strip() for s in chosen[key].split(",") if s.strip())
    bad = [t for t in chosen["techniques"] if t not in debiasing.TECHNIQUES]
    if bad:
        raise ValueError(f"unknown techniques {bad}; known: {list(debiasing.TECHNIQUES)}")
    if "base" not in chosen["techniques"]:
        chosen["techniques"] = ("base", *chosen["techniques"])
    bad = [t for t in (*chosen["tasks"], *chosen["knob_tasks"]) if t not in TASK_SETTINGS]
    if bad:
        raise ValueError(f"unknown tasks {bad}; known: {list(TASK_SETTINGS)}")
    if chosen["n_runs"] < 2:
        raise ValueError(f"n_runs must be at least 2 to measure a spread, got {chosen['n_runs']}")
    if chosen["emulate"] is None:
        chosen["emulate"] = not str(chosen["device"]).startswith("cuda")
    return chosen


def techniques_table(config: dict | None = None) -> pd.DataFrame:
    """The techniques: the paper's analogue, the metrics each targets, its weight per task."""
    rows = {}
    for name, t in debiasing.TECHNIQUES.items():
        row = {
            "technique": t.label,
            "paper": t.paper_analogue,
            "targets": ", ".join(t.targets) or "—",
            "what it does": t.description,
        }
        for task in (config or PROFILES["full"])["tasks"]:
            row[f"λ ({task})"] = TASK_SETTINGS[task]["lam"].get(name, np.nan)
        rows[name] = row
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "name"
    if config is not None:
        out["in this run"] = [n in config["techniques"] for n in out.index]
    return out


def spec(task: str, technique: str, config: dict) -> RunSpec:
    """The :class:`RunSpec` of one task × technique under ``config``."""
    base = TASK_SETTINGS[task]
    epochs = config.get("epochs", {}).get(task, base["epochs"])
    return RunSpec(
        task,
        technique,
        epochs=epochs,
        batch_size=base["batch_size"],
        lr=base["lr"],
        lam=base["lam"].get(technique, 1.0),
    )


def study_knobs(config: dict) -> Knobs:
    """Knobs of the study's FIT runs: on a CPU the emulated scheduling (``sum_order=
    "permuted"``); on a GPU the real thing (cuDNN benchmark on, nondeterminism allowed)."""
    device = config["device"]
    if device.startswith("cuda"):
        return Knobs(
            device=device,
            cudnn_benchmark=True,
            sum_order="permuted" if config["emulate"] else "fixed",
        )
    return Knobs(device=device, sum_order="permuted" if config["emulate"] else "fixed")


@contextlib.contextmanager
def connect(config: dict):
    """Yield the joblib backend for the study: ``config["backend"]``, or ``"dask"`` inside
    a ``dask.distributed.Client`` when ``config["scheduler"]`` is set (``"local"`` starts a
    ``LocalCluster`` with ``n_jobs`` single-threaded worker processes; anything else is a
    scheduler address such as ``tcp://10.0.0.5:8786``)."""
    address = config.get("scheduler") or ""
    if not address:
        yield config["backend"]
        return
    from dask.distributed import Client, LocalCluster

    if address == "local":
        with (
            LocalCluster(
                n_workers=config["n_jobs"], threads_per_worker=1, dashboard_address=None
            ) as cluster,
            Client(cluster),
        ):
            yield "dask"
    else:  # pragma: no cover - needs a running scheduler
        with Client(address):
            yield "dask"


def run_study(config: dict) -> pd.DataFrame:
    """Every run of the chapter's RQ1–RQ3, as one long run table.

    For each task: every technique's ``n_runs`` FIT runs under :func:`study_knobs`
    (setting :data:`SETTINGS_FIT`), and for the baseline also FIT runs with every knob
    fixed (:data:`SETTINGS_STRICT`) and runs whose seed varies (:data:`SETTINGS_SEED`).
    Columns: :data:`fairbook.variance.fit_runs.RUN_COLUMNS` + ``task``, ``technique``,
    ``setting``.
    """
    fit = study_knobs(config)
    strict = replace(
        fit,
        sum_order="fixed",
        cudnn_benchmark=False,
        deterministic=fit.device.startswith("cuda"),
        cudnn_deterministic=fit.device.startswith("cuda"),
    )
    common = {"n_runs": config["n_runs"], "seed": config["seed"], "n_jobs": config["n_jobs"]}
    with connect(config) as backend:
        main = [
            ({"task": t, "technique": q, "setting": SETTINGS_FIT}, spec(t, q, config))
            for t in config["tasks"]
            for q in config["techniques"]
        ]
        parts = [fit_runs_many(main, knobs=fit, backend=backend, **common)]
        base = [(t, spec(t, "base", config)) for t in config["tasks"]]
        parts.append(
            fit_runs_many(
                [
                    ({"task": t, "technique": "base", "setting": SETTINGS_STRICT}, s)
                    for t, s in base
                ],
                knobs=strict,
                backend=backend,
                **common,
            )
        )
        parts.append(
            fit_runs_many(
                [({"task": t, "technique": "base", "setting": SETTINGS_SEED}, s) for t, s in base],
                knobs=replace(fit, sum_order="fixed"),
                vary="seed",
                backend=backend,
                **common,
            )
        )
    return pd.concat(parts, ignore_index=True)


def _select(
    study: pd.DataFrame, task: str, *, setting: str = SETTINGS_FIT, technique: str | None = None
) -> pd.DataFrame:
    rows = study[(study["task"] == task) & (study["setting"] == setting)]
    if technique is not None:
        rows = rows[rows["technique"] == technique]
    if rows.empty:
        raise ValueError(f"no runs for task={task!r}, setting={setting!r}, technique={technique!r}")
    return rows


def _techniques(study: pd.DataFrame, task: str) -> list[str]:
    present = set(_select(study, task)["technique"])
    return [t for t in debiasing.TECHNIQUES if t in present]


# --------------------------------------------------------------------------- Table 3
def table_3_labels(counts=None):
    """Expand a Table 3–shaped count table into label arrays.

    Parameters
    ----------
    counts : dict, optional
        ``(group, true label) → (predicted first label, predicted second label)``;
        default :data:`fairbook.papers.seed004.TABLE_3_COUNTS`. The predicted labels are
        the true labels in the order they first appear.

    Returns
    -------
    y_true, y_pred, groups : ndarray of str

    Examples
    --------
    >>> y, p, g = table_3_labels()
    >>> len(y), int((g == "Female").sum())
    (400, 200)
    """
    counts = seed004.TABLE_3_COUNTS if counts is None else counts
    labels = list(dict.fromkeys(label for _, label in counts))
    if len(labels) != 2:
        raise ValueError(f"Table 3 has two labels, got {labels}")
    y_true, y_pred, groups = [], [], []
    for (group, true), row in counts.items():
        if len(row) != 2 or any(int(v) < 0 for v in row):
            raise ValueError(f"counts for {(group, true)} must be two non-negative ints")
        for predicted, n in zip(labels, row, strict=True):
            y_true += [true] * int(n)
            y_pred += [predicted] * int(n)
            groups += [group] * int(n)
    return np.array(y_true), np.array(y_pred), np.array(groups)


def table_3(counts=None) -> pd.DataFrame:
    """Seed 004's seven metrics of a Table 3–shaped example, per class and overall, in %.

    Examples
    --------
    >>> round(float(table_3().loc["overall", "BA"]), 1)
    10.1
    """
    return 100 * bias_report(*table_3_labels(counts))


def table_3_replication() -> pd.DataFrame:
    """Table 3's printed metric values beside ``bias_report``'s (percent, 1 decimal).

    Examples
    --------
    >>> set(table_3_replication()["verdict"])
    {'matches'}
    """
    ours = table_3().loc["overall"]
    return replication_table(
        {"quantity": f"{m} (%)", "paper": p, "ours": float(ours[m]), "decimals": 1}
        for m, p in seed004.TABLE_3_METRICS.items()
    )


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


# --------------------------------------------------------------------------- RQ1
def table_2(study: pd.DataFrame, task: str, *, setting: str = SETTINGS_FIT) -> pd.DataFrame:
    """Seed 004 Table 2 for one task: MaxDiff and STDEV (pp), overall and per class,
    rows (technique, row, statistic), columns the seven metrics and accuracy."""
    frames = {}
    for technique in _techniques(study, task):
        summary = summarize(_select(study, task, setting=setting, technique=technique))
        for row in ("overall", "per-class"):
            for stat in ("MaxDiff", "STDEV"):
                frames[(technique, row.capitalize(), stat)] = summary[f"{row} {stat}"]
    out = pd.DataFrame(frames).T
    out.index.names = ["technique", "row", "statistic"]
    return out[[*METRICS, "accuracy"]]


def box_grid(
    study: pd.DataFrame,
    task: str,
    *,
    metrics=(*METRICS, "accuracy"),
    setting: str = SETTINGS_FIT,
    axes=None,
):
    """Box plots (with the runs as dots) of each metric's overall value per technique.

    Parameters
    ----------
    axes : array of Axes, optional
        One per metric; created (2 rows) when omitted.

    Returns
    -------
    ndarray of Axes
    """
    metrics = list(metrics)
    if axes is None:
        ncols = (len(metrics) + 1) // 2
        _, axes = plt.subplots(2, ncols, figsize=(3.1 * ncols, 6.2))
    axes = np.asarray(axes).ravel()
    if len(axes) < len(metrics):
        raise ValueError(f"need {len(metrics)} axes, got {len(axes)}")
    rows = _select(study, task, setting=setting)
    rows = rows[(rows["class"] == "overall") & (rows["group"] == "all")]
    order = _techniques(study, task)
    for ax, metric in zip(axes, metrics, strict=False):
        data = [
            100 * rows[(rows["metric"] == metric) & (rows["technique"] == t)]["value"].to_numpy()
            for t in order
        ]
        ax.boxplot(
            data, tick_labels=order, widths=0.6, showfliers=False, medianprops={"color": "black"}
        )
        for i, values in enumerate(data, start=1):
            offsets = np.linspace(-0.12, 0.12, len(values)) if len(values) > 1 else [0.0]
            ax.plot(i + np.asarray(offsets), values, "o", ms=3, color="#1f4e79")
        ax.set_title(metric)
        ax.set_ylabel("%" if ax is axes[0] else "")
        ax.tick_params(axis="x", rotation=45, labelsize=8)
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    return axes


def finding_1_replication(study: pd.DataFrame) -> pd.DataFrame:
    """Finding 1 beside ours: the largest overall MaxDiff of DP and DI-bar, and the
    largest per-class DI-bar MaxDiff, over every task and technique (pp)."""
    best = {}
    for task in study["task"].unique():
        table = table_2(study, task)
        for (technique, row, stat), values in table.iterrows():
            if stat != "MaxDiff":
                continue
            for metric in ("DP", "DI_BAR"):
                key = (row, metric)
                if key not in best or values[metric] > best[key][0]:
                    best[key] = (values[metric], f"{TASK_LABELS.get(task, task)}, {technique}")
    rows = []
    for metric, (technique, value, low, high) in seed004.FINDING_1.items():
        ours, where = best[("Overall", metric)]
        rows.append(
            {
                "quantity": f"largest overall MaxDiff of {metric} (pp)",
                "paper": value,
                "ours": ours,
                "decimals": 1,
                "note": f"paper: {technique} ({low}–{high}); ours: {where}",
            }
        )
    ours, where = best[("Per-class", "DI_BAR")]
    rows.append(
        {
            "quantity": "largest per-class MaxDiff of DI_BAR (pp)",
            "paper": seed004.FINDING_1_PER_CLASS_MAX,
            "ours": ours,
            "decimals": 1,
            "note": f"paper: C-Base and others (a class 0 % in one run, 100 % in "
            f"another); ours: {where}",
        }
    )
    return replication_table(rows)


#: Our technique that plays each Table 4 row (task, technique).
TABLE_4_ANALOGUES = {
    "S-Base": ("digits_s", "base"),
    "S-RS": ("digits_s", "rebalance"),
    "S-GR": ("digits_s", "adversarial"),
    "S-DI2": ("digits_s", "domain_independent"),
    "A-Base": ("adult", "base"),
    "A-L2": ("adult", "penalty"),
}


def table_4_replication(study: pd.DataFrame) -> pd.DataFrame:
    """Table 4 (DI-bar MaxDiff and STDEV) for the paper's techniques we have analogues of.

    Different data, networks and a CPU: the verdicts say whether our spread has the
    paper's size, which nothing obliges it to have.
    """
    rows = []
    for paper_name, (task, technique) in TABLE_4_ANALOGUES.items():
        present = study[
            (study["task"] == task)
            & (study["technique"] == technique)
            & (study["setting"] == SETTINGS_FIT)
        ]
        if present.empty:
            continue
        ours = summarize(present).loc["DI_BAR"]
        printed = seed004.TABLE_4_DI_BAR[paper_name]
        for (label, column), value in zip(
            [
                ("overall MaxDiff", "overall MaxDiff"),
                ("overall STDEV", "overall STDEV"),
                ("per-class MaxDiff", "per-class MaxDiff"),
                ("per-class STDEV", "per-class STDEV"),
            ],
            printed,
            strict=True,
        ):
            rows.append(
                {
                    "quantity": f"{paper_name} ≈ {TASK_LABELS.get(task, task)} "
                    f"{technique}: DI_BAR {label} (pp)",
                    "paper": value,
                    "ours": float(ours[column]),
                    "decimals": 1,
                    "note": f"{int(ours['runs'])} runs (paper 16)",
                }
            )
    return replication_table(rows)


# --------------------------------------------------------------------------- RQ2
def effects(
    study: pd.DataFrame,
    task: str,
    *,
    n_runs: int | None = None,
    metrics=METRICS,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Every technique against the baseline on every metric (:func:`compare_runs`).

    Parameters
    ----------
    n_runs : int, optional
        Use only the first ``n_runs`` runs of each technique.

    Returns
    -------
    DataFrame
        Index (technique, metric); the columns of :func:`compare_runs` plus ``target``
        (the technique is designed to reduce this metric), and the ranges of both sets.
    """
    base = _runs_matrix(study, task, "base", n_runs)
    rows = {}
    for technique in _techniques(study, task):
        if technique == "base":
            continue
        treated = _runs_matrix(study, task, technique, n_runs)
        for metric in metrics:
            b, t = base[metric].to_numpy(), treated[metric].to_numpy()
            if np.isnan(b).any() or np.isnan(t).any():
                result = {"direction": "undefined", "variance_change": "undefined"}
            else:
                result = compare_runs(b, t, alpha=alpha)
            result.update(
                {
                    "target": metric in debiasing.TECHNIQUES[technique].targets,
                    "baseline_min": np.nanmin(b),
                    "baseline_max": np.nanmax(b),
                    "treated_min": np.nanmin(t),
                    "treated_max": np.nanmax(t),
                }
            )
            rows[(technique, metric)] = result
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.names = ["technique", "metric"]
    return out


def _runs_matrix(study, task, technique, n_runs=None, *, setting=SETTINGS_FIT):
    wide = per_run(
        _select(study, task, setting=setting, technique=technique), metrics=[*METRICS, "accuracy"]
    )
    return wide.iloc[:n_runs] if n_runs is not None else wide


_LEVELS = ("negligible", "very small", "small", "medium", "large", "very large", "huge")
_BLUES = ("#eef4fb", "#d6e6f5", "#b0cfe8", "#7fb1d9", "#4a8bc4", "#2166ac", "#053061")
_ORANGES = ("#fdf1e6", "#fde0c5", "#fdc08c", "#f99c50", "#e6731f", "#c5510a", "#7f2704")
_GREY = "#cccccc"


def _effect_colour(row) -> str:
    if row.get("direction") not in ("increase", "decrease") or row.get("effect") not in _LEVELS:
        return _GREY
    palette = _BLUES if row["direction"] == "decrease" else _ORANGES
    return palette[_LEVELS.index(row["effect"])]


def _grid(ax, colours: pd.DataFrame, labels: pd.DataFrame, title: str):
    from matplotlib.colors import to_rgb

    image = np.array([[to_rgb(c) for c in row] for row in colours.to_numpy()])
    ax.imshow(image, aspect="auto")
    for i in range(labels.shape[0]):
        for j in range(labels.shape[1]):
            rgb = image[i, j]
            dark = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 0.5
            ax.text(
                j,
                i,
                labels.iat[i, j],
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
            )
    ax.set_xticks(range(labels.shape[1]), labels.columns, rotation=45, ha="right")
    ax.set_yticks(range(labels.shape[0]), labels.index)
    ax.set_title(title)
    return ax


def effect_heatmap(effect_table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 1 analogue: Cohen's d per technique × metric; blue = bias decrease,
    orange = increase, shade = Sawilowsky's label, grey = not significant (U-test);
    ``*`` marks a metric the technique is designed to reduce."""
    if ax is None:
        _, ax = plt.subplots(
            figsize=(7, 0.6 * effect_table.index.get_level_values(0).nunique() + 1.5)
        )
    colours = effect_table.apply(_effect_colour, axis=1).unstack("metric")
    labels = effect_table.apply(
        lambda r: (
            ("NS" if r.get("direction") not in ("increase", "decrease") else f"{r['cohen_d']:.1f}")
            + ("*" if r.get("target") else "")
        ),
        axis=1,
    ).unstack("metric")
    order = [m for m in METRICS if m in colours.columns]
    return _grid(ax, colours[order], labels[order], title or "Cohen's d (U-test p < 0.05)")


def single_run_table(
    study: pd.DataFrame, task: str, *, n_runs: int | None = None, metrics=METRICS
) -> pd.DataFrame:
    """Finding 2 on our runs: per technique × metric, what one run would have said.

    Columns: ``many-run conclusion`` (U-test), ``ranges overlap`` (the technique's and
    the baseline's ranges intersect), ``reversal`` (the technique's mean is higher —
    worse — yet one of its runs is lower than one baseline run: the paper's 9.1 % case),
    and ``single-run pairs contradicting`` (the share of (baseline run, technique run)
    pairs whose comparison points the other way than the means).
    """
    table = effects(study, task, n_runs=n_runs, metrics=metrics)
    base = _runs_matrix(study, task, "base", n_runs)
    out = {}
    for (technique, metric), row in table.iterrows():
        b = base[metric].to_numpy()
        t = _runs_matrix(study, task, technique, n_runs)[metric].to_numpy()
        diff = np.subtract.outer(t, b)
        sign = np.sign(t.mean() - b.mean())
        out[(technique, metric)] = {
            "many-run conclusion": row["direction"],
            "ranges overlap": bool(max(b.min(), t.min()) <= min(b.max(), t.max())),
            "reversal": bool(t.mean() > b.mean() and t.min() < b.max()),
            "single-run pairs contradicting": float((np.sign(diff) == -sign).mean())
            if sign != 0
            else np.nan,
        }
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.names = ["technique", "metric"]
    return frame


def finding_2_replication(study: pd.DataFrame) -> pd.DataFrame:
    """The shares of Sec. 3.2 (ranges overlap 34/154, reversal 14/154) beside ours."""
    tables = [single_run_table(study, task) for task in study["task"].unique()]
    table = pd.concat(tables)
    n = len(table)
    rows = [
        {
            "quantity": "share of experiments whose ranges overlap the baseline's (%)",
            "paper": 100 * seed004.RANGES_OVERLAP / seed004.EXPERIMENTS,
            "ours": 100 * table["ranges overlap"].mean(),
            "decimals": 1,
            "note": f"ours {int(table['ranges overlap'].sum())} of {n}; paper "
            f"{seed004.RANGES_OVERLAP} of {seed004.EXPERIMENTS}",
        },
        {
            "quantity": "share where the mean is worse but one run beats one baseline run (%)",
            "paper": 100 * seed004.SINGLE_RUN_REVERSAL / seed004.EXPERIMENTS,
            "ours": 100 * table["reversal"].mean(),
            "decimals": 1,
            "note": f"ours {int(table['reversal'].sum())} of {n}; paper "
            f"{seed004.SINGLE_RUN_REVERSAL} of {seed004.EXPERIMENTS}",
        },
    ]
    return replication_table(rows)


def finding_2_example(
    study: pd.DataFrame,
    *,
    task: str = "digits_s",
    technique: str = "adversarial",
    metric: str = "BA",
) -> pd.DataFrame:
    """The paper's S-GR vs S-Base example (BA) beside our gradient-reversal analogue.

    "Single run" values: the paper's pair is one where the technique looks better; ours
    are the technique's best run and the baseline's worst (the most misleading pair).
    """
    ex = seed004.FINDING_2_EXAMPLE
    b = _runs_matrix(study, task, "base")[metric].to_numpy()
    t = _runs_matrix(study, task, technique)[metric].to_numpy()
    result = compare_runs(b, t)
    label = f"{TASK_LABELS.get(task, task)}: {technique} vs base"
    rows = [
        {
            "quantity": f"mean {metric} of the baseline (%)",
            "paper": ex["mean_baseline"],
            "ours": 100 * b.mean(),
            "decimals": 1,
            "note": label,
        },
        {
            "quantity": f"mean {metric} of the technique (%)",
            "paper": ex["mean_treated"],
            "ours": 100 * t.mean(),
            "decimals": 1,
            "note": label,
        },
        {
            "quantity": f"a single baseline run's {metric} (%)",
            "paper": ex["single_run_baseline"],
            "ours": 100 * b.max(),
            "decimals": 1,
            "note": "ours: the baseline's worst run",
        },
        {
            "quantity": f"a single technique run's {metric} (%)",
            "paper": ex["single_run_treated"],
            "ours": 100 * t.min(),
            "decimals": 1,
            "note": "ours: the technique's best run",
        },
        {
            "quantity": "U-test p (one-sided, asymptotic)",
            "paper": ex["mw_p"],
            "ours": result["mw_p"],
            "decimals": 4,
            "note": f"exact method: {result['mw_p_exact']:.4f}; {len(b)} vs {len(t)} runs",
        },
        {
            "quantity": "Levene p (normalised)",
            "paper": ex["levene_p"],
            "ours": result["levene_p"],
            "decimals": 4,
        },
    ]
    return replication_table(rows)


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


# --------------------------------------------------------------------------- RQ3
def costs(study: pd.DataFrame, task: str, *, alpha: float = 0.05) -> pd.DataFrame:
    """RQ3 per technique: accuracy (U-test), accuracy variance (Levene) and, per metric the
    technique significantly reduces, the fairness variance (Levene) — seed 004 Sec. 3.3.

    Returns
    -------
    DataFrame
        Index technique; columns ``accuracy`` (lower / higher / not significant),
        ``accuracy variance`` (higher / lower / not significant), ``metrics reduced``,
        ``with higher fairness variance``, ``experiments with a cost``.
    """
    table = effects(study, task, alpha=alpha)
    base = _runs_matrix(study, task, "base")["accuracy"].to_numpy()
    rows = {}
    for technique in table.index.get_level_values(0).unique():
        acc = _runs_matrix(study, task, technique)["accuracy"].to_numpy()
        r = compare_runs(base, acc, alpha=alpha)
        accuracy = {"increase": "higher", "decrease": "lower"}.get(
            r["direction"], "not significant"
        )
        sub = table.loc[technique]
        reduced = sub[sub["direction"] == "decrease"]
        higher_var = reduced[reduced["variance_change"] == "higher"]
        any_cost = accuracy == "lower" or r["variance_change"] == "higher"
        with_cost = [
            m for m in reduced.index if any_cost or reduced.loc[m, "variance_change"] == "higher"
        ]
        rows[technique] = {
            "accuracy": accuracy,
            "accuracy p": r["mw_p"],
            "accuracy variance": r["variance_change"],
            "accuracy Levene p": r["levene_p"],
            "metrics reduced": ", ".join(reduced.index),
            "metrics increased": ", ".join(sub[sub["direction"] == "increase"].index),
            "with higher fairness variance": ", ".join(higher_var.index),
            "experiments reducing bias": len(reduced),
            "experiments with a cost": len(with_cost),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "technique"
    return out


def variance_heatmap(effect_table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 2 analogue: Levene's test on normalised bias values per technique × metric;
    orange = higher variance than the baseline, blue = lower, grey = not significant;
    ``X`` = the technique does not reduce this metric (the paper's mark)."""
    if ax is None:
        _, ax = plt.subplots(
            figsize=(7, 0.6 * effect_table.index.get_level_values(0).nunique() + 1.5)
        )
    colour = {"higher": _ORANGES[4], "lower": _BLUES[4]}
    colours = effect_table["variance_change"].map(lambda v: colour.get(v, _GREY)).unstack("metric")
    labels = effect_table.apply(
        lambda r: (
            ("" if r.get("direction") == "decrease" else "X ")
            + (f"p={r['levene_p']:.2f}" if pd.notna(r.get("levene_p")) else "n/a")
        ),
        axis=1,
    ).unstack("metric")
    order = [m for m in METRICS if m in colours.columns]
    return _grid(
        ax,
        colours[order],
        labels[order],
        title or "Levene (normalised): fairness variance vs baseline",
    )


def cost_heatmaps(cost_tables: dict, *, ax=None):
    """Fig. 3 analogue: rows accuracy and accuracy variance, columns task/technique;
    orange = a cost (lower accuracy, higher variance), blue = a gain, grey = NS."""
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 2.2))
    colours, labels = {}, {}
    for task, table in cost_tables.items():
        for technique, row in table.iterrows():
            key = f"{TASK_LABELS.get(task, task).split(' ')[0]}: {technique}"
            acc = {"lower": _ORANGES[4], "higher": _BLUES[4]}.get(row["accuracy"], _GREY)
            var = {"higher": _ORANGES[4], "lower": _BLUES[4]}.get(row["accuracy variance"], _GREY)
            mark = "" if row["experiments reducing bias"] else "X "
            colours[key] = [acc, var]
            labels[key] = [
                mark + f"p={row['accuracy p']:.2f}",
                mark
                + (
                    f"p={row['accuracy Levene p']:.2f}"
                    if pd.notna(row["accuracy Levene p"])
                    else "n/a"
                ),
            ]
    index = ["accuracy", "accuracy variance"]
    return _grid(
        ax,
        pd.DataFrame(colours, index=index),
        pd.DataFrame(labels, index=index),
        "Cost in accuracy (U-test) and accuracy variance (Levene)",
    )


def finding_3_4_replication(study: pd.DataFrame) -> pd.DataFrame:
    """Findings 3 and 4 as shares, paper beside ours (all tasks pooled)."""
    tables = {task: effects(study, task) for task in study["task"].unique()}
    cost = {task: costs(study, task) for task in study["task"].unique()}
    techniques = sum(len(c) for c in cost.values())
    increase = sum(int((c["metrics increased"] != "").sum()) for c in cost.values())
    experiments = sum(len(t) for t in tables.values())
    reduced = sum(int(c["experiments reducing bias"].sum()) for c in cost.values())
    with_cost = sum(int(c["experiments with a cost"].sum()) for c in cost.values())
    f3, f4 = seed004.FINDING_3, seed004.FINDING_4
    rows = [
        {
            "quantity": "techniques that increase at least one metric (%)",
            "paper": 100 * f3["increase at least one metric"] / f3["techniques"],
            "ours": 100 * increase / techniques if techniques else np.nan,
            "decimals": 1,
            "note": f"ours {increase} of {techniques}; paper 15 of 22",
        },
        {
            "quantity": "experiments that reduce bias (%)",
            "paper": 100 * f4["reduce bias"] / f4["experiments"],
            "ours": 100 * reduced / experiments if experiments else np.nan,
            "decimals": 1,
            "note": f"ours {reduced} of {experiments}; paper 103 of 154",
        },
        {
            "quantity": "of those, with a cost (%)",
            "paper": f4["share with a cost"],
            "ours": 100 * with_cost / reduced if reduced else np.nan,
            "decimals": 1,
            "note": f"ours {with_cost} of {reduced}; paper 70 of 103",
        },
    ]
    return replication_table(rows)


# --------------------------------------------------------------------------- survey
def _data_dir() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "data" / "literature_survey_seed004.csv").is_file():
            return parent / "data"
    from fairbook.chapters import find_root

    return find_root() / "data"


def load_survey(path=None) -> pd.DataFrame:
    """Seed 004 Table 5 with each paper's year, from ``data/literature_survey_seed004.csv``
    (its comment lines give the provenance; ``-`` = not applicable)."""
    path = Path(path) if path is not None else _data_dir() / "literature_survey_seed004.csv"
    frame = pd.read_csv(path, comment="#", keep_default_na=False, dtype={"ref": int, "year": int})
    expected = ["paper", "ref", "year", "venue", "multiple_runs", "mean", "stdev", "range"]
    if list(frame.columns) != expected:
        raise ValueError(f"{path}: columns {list(frame.columns)}, expected {expected}")
    return frame


def survey_replication(survey: pd.DataFrame) -> pd.DataFrame:
    """Findings 5 and 6 recomputed from the survey file."""
    per_year = survey["year"].value_counts()
    n2017, n2020 = int(per_year.get(2017, 0)), int(per_year.get(2020, 0))
    multiple = int((survey["multiple_runs"] == "Y").sum())
    f5, f6 = seed004.FINDING_5, seed004.FINDING_6
    return replication_table(
        [
            {"quantity": "papers in 2017", "paper": f5["2017"], "ours": n2017, "decimals": 0},
            {"quantity": "papers in 2020", "paper": f5["2020"], "ours": n2020, "decimals": 0},
            {
                "quantity": "growth 2017 → 2020 (%)",
                "paper": f5["growth %"],
                "ours": 100 * (n2020 - n2017) / n2017 if n2017 else np.nan,
                "decimals": 0,
            },
            {
                "quantity": "papers using multiple identical runs",
                "paper": f6["multiple runs"],
                "ours": multiple,
                "decimals": 0,
            },
            {
                "quantity": "share using multiple runs (%)",
                "paper": f6["share %"],
                "ours": 100 * multiple / len(survey),
                "decimals": 1,
                "note": f"of {len(survey)} papers",
            },
        ]
    )


def survey_plot(survey: pd.DataFrame, *, ax=None):
    """Papers per year, split by whether they use multiple identical runs."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.2))
    counts = (
        survey.assign(runs=survey["multiple_runs"].map({"Y": "multiple runs", "N": "one run"}))
        .groupby(["year", "runs"])
        .size()
        .unstack(fill_value=0)
        .reindex(columns=["multiple runs", "one run"], fill_value=0)
    )
    counts.plot.bar(stacked=True, ax=ax, color=["#2166ac", "#cccccc"], rot=0)
    ax.set_xlabel("year")
    ax.set_ylabel("papers on DL fairness")
    ax.legend(frameon=False)
    return ax


# --------------------------------------------------------------------------- knobs
def knob_study(config: dict) -> pd.DataFrame:
    """The baseline of each ``knob_tasks`` task under the reference knobs and under each
    knob changed alone (:func:`fairbook.variance.determinism.knob_variants`), ``knob_runs``
    FIT runs each; plus the emulated scheduling and seed variation for contrast.
    Column ``variant`` names the change."""
    reference = Knobs(device=config["device"])
    variants = knob_variants(reference)
    experiments = []
    for task in config["knob_tasks"]:
        run_spec = spec(task, "base", config)
        for name, knobs in variants.items():
            experiments.append((task, name, knobs, run_spec))
    parts = []
    with connect(config) as backend:
        for task, name, knobs, run_spec in experiments:
            parts.append(
                fit_runs_many(
                    [({"task": task, "technique": "base", "variant": name}, run_spec)],
                    n_runs=config["knob_runs"],
                    seed=config["seed"],
                    backend=backend,
                    n_jobs=config["n_jobs"],
                    knobs=knobs,
                )
            )
    return pd.concat(parts, ignore_index=True)


def knob_table(knobs_runs: pd.DataFrame, task: str) -> pd.DataFrame:
    """What each knob alone does: are its runs identical to each other and to the
    reference, and how far does each metric move from the reference (pp, the largest
    |difference| of any run against the reference's run 0)?"""
    rows = knobs_runs[knobs_runs["task"] == task]
    if rows.empty:
        raise ValueError(f"no knob runs for task {task!r}")
    ref = rows[rows["variant"] == "reference"]
    ref_values = per_run(ref, metrics=[*METRICS, "accuracy"]).iloc[0]
    ref_weights = ref[ref["run"] == ref["run"].min()]["weights_hash"].iloc[0]
    ref_preds = ref[ref["run"] == ref["run"].min()]["pred_hash"].iloc[0]
    out = {}
    for variant, sub in rows.groupby("variant", sort=False):
        wide = per_run(sub, metrics=[*METRICS, "accuracy"])
        moved = (100 * (wide - ref_values).abs()).max()
        record = {
            "runs": len(wide),
            "runs identical to each other": bool(sub["weights_hash"].nunique() == 1),
            "same weights as reference": bool((sub["weights_hash"] == ref_weights).all()),
            "same predictions as reference": bool((sub["pred_hash"] == ref_preds).all()),
        }
        record.update({f"|Δ{m}| (pp)": float(moved[m]) for m in [*METRICS, "accuracy"]})
        out[variant] = record
    frame = pd.DataFrame.from_dict(out, orient="index")
    frame.index.name = "knob changed"
    return frame


def strict_identity(study: pd.DataFrame) -> pd.DataFrame:
    """Per task and run setting of the baseline: how many runs, how many distinct final
    weights and predictions (1 = bit-identical runs)."""
    rows = study[study["technique"] == "base"]
    out = rows.groupby(["task", "setting"], sort=False).agg(
        runs=("run", "nunique"),
        distinct_weights=("weights_hash", "nunique"),
        distinct_predictions=("pred_hash", "nunique"),
    )
    out["bit-identical"] = out["distinct_weights"] == 1
    return out


def spread_contrast(study: pd.DataFrame, task: str) -> pd.DataFrame:
    """The baseline's overall STDEV (pp) per metric under the three run settings: every
    knob fixed, the study's FIT runs, and seeds varying."""
    out = {}
    for setting in (SETTINGS_STRICT, SETTINGS_FIT, SETTINGS_SEED):
        runs = _select(study, task, setting=setting, technique="base")
        out[setting] = summarize(runs)["overall STDEV"]
    frame = pd.DataFrame(out).T
    frame.index.name = "runs"
    return frame[[*METRICS, "accuracy"]]
