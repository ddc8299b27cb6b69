"""Fixed-seed identical training (FIT) runs, dispatched through joblib, and their spread.

:func:`fit_runs` calls the same ``train_and_predict`` ``n_runs`` times with the same seed
(so the same initial weights and data order) and the same implementation settings, and
scores each run's test predictions with seed 004's seven bias metrics
(:func:`fairbook.metrics.bias_report`) and the accuracy. The runs go through
``joblib.Parallel``, so the same call runs them

* in this process (``backend="sequential"``), in local worker processes
  (``backend="loky"``, the default), or on a cluster: ``backend="dask"`` inside a
  ``dask.distributed.Client`` context (a ``LocalCluster`` or a real scheduler), or
  ``backend="ray"`` after ``ray.init()`` (``ray.util.joblib`` is registered for you).

:func:`summarize` gives seed 004's two spreads, *MaxDiff* (max − min) and *STDEV*
(population), overall and for the class with the largest MaxDiff (Tables 2 and 4).

Examples
--------
>>> import numpy as np
>>> def constant(*, seed, run, knobs):
...     y = np.array([0, 1, 0, 1]); g = np.array(["a", "a", "b", "b"])
...     return {"y_true": y, "y_pred": np.array([0, 1, 1, 1]), "groups": g}
>>> table = fit_runs(constant, n_runs=2, backend="sequential")
>>> identical_runs(table)
True
>>> summarize(table).loc["DP", "overall MaxDiff"]
np.float64(0.0)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

import joblib
import numpy as np
import pandas as pd

from fairbook.metrics import BIAS_REPORT_METRICS, bias_report
from fairbook.stats.between_runs import max_diff, population_stdev
from fairbook.variance.determinism import Knobs

__all__ = [
    "RUN_COLUMNS",
    "fit_run",
    "fit_runs",
    "fit_runs_many",
    "identical_runs",
    "per_run",
    "score_predictions",
    "summarize",
]

#: Columns of a run table (plus any ``tags``).
RUN_COLUMNS = (
    "run",
    "seed",
    "knobs",
    "class",
    "group",
    "metric",
    "value",
    "pred_hash",
    "weights_hash",
)


def score_predictions(y_true, y_pred, groups) -> pd.DataFrame:
    """Long table of one run: seven bias metrics per class and overall, and accuracy.

    Rows have ``class`` (a class label as str, or ``"overall"``), ``group`` (``"all"``
    for the between-group metrics and the overall accuracy, a group name for a group's
    accuracy), ``metric`` and ``value`` (a fraction).

    Examples
    --------
    >>> t = score_predictions([0, 1, 0, 1], [0, 1, 1, 1], ["a", "a", "b", "b"])
    >>> float(t.query("metric == 'accuracy' and group == 'b'").value.iloc[0])
    0.5
    """
    y_true, y_pred, groups = np.asarray(y_true), np.asarray(y_pred), np.asarray(groups)
    if not (y_true.shape == y_pred.shape == groups.shape) or y_true.ndim != 1:
        raise ValueError(
            f"y_true {y_true.shape}, y_pred {y_pred.shape} and groups "
            f"{groups.shape} must be 1-d of the same length"
        )
    report = bias_report(y_true, y_pred, groups)
    report.index = [str(c) for c in report.index]
    long = (
        report.rename_axis("class")
        .reset_index()
        .melt(id_vars="class", var_name="metric", value_name="value")
    )
    long["group"] = "all"
    correct = y_true == y_pred
    acc = [
        {"class": "overall", "group": "all", "metric": "accuracy", "value": float(correct.mean())}
    ]
    for g in np.unique(groups):
        acc.append(
            {
                "class": "overall",
                "group": str(g),
                "metric": "accuracy",
                "value": float(correct[groups == g].mean()),
            }
        )
    return pd.concat([long, pd.DataFrame(acc)], ignore_index=True)[
        ["class", "group", "metric", "value"]
    ]


def _one_run(train_and_predict: Callable, seed: int, run: int, knobs: Knobs) -> pd.DataFrame:
    out = train_and_predict(seed=seed, run=run, knobs=knobs)
    if not isinstance(out, Mapping) or not {"y_true", "y_pred", "groups"} <= set(out):
        raise ValueError(
            "train_and_predict must return a mapping with y_true, y_pred and "
            f"groups; got {type(out).__name__}"
        )
    table = score_predictions(out["y_true"], out["y_pred"], out["groups"])
    y_pred = np.ascontiguousarray(np.asarray(out["y_pred"]))
    table.insert(0, "run", run)
    table.insert(1, "seed", seed)
    table.insert(2, "knobs", knobs.describe())
    table["pred_hash"] = hashlib.sha256(y_pred.tobytes()).hexdigest()[:16]
    table["weights_hash"] = str(out.get("weights_hash", ""))
    return table


def fit_run(
    train_and_predict: Callable,
    *,
    run: int = 0,
    seed: int = 0,
    knobs: Knobs | None = None,
    vary: str | None = None,
    tags: Mapping[str, object] | None = None,
) -> pd.DataFrame:
    """Run ``run`` of :func:`fit_runs` alone: the rows that :func:`fit_runs` with the same
    arguments gives for that run (a unit of a resumable, recorded study).

    Parameters
    ----------
    train_and_predict : callable
        As in :func:`fit_runs`.
    run : int, default 0
        The run's index (it chooses the emulated knobs' permutation; with
        ``vary="seed"`` the run uses the seed ``seed + run``).
    seed : int
    knobs : Knobs, optional
        The run's implementation settings (default ``Knobs()``).
    vary : {None, "seed"}
    tags : mapping, optional
        Constant columns added to every row.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RUN_COLUMNS` plus the tags.

    Examples
    --------
    >>> def constant(*, seed, run, knobs):
    ...     y = np.array([0, 1, 0, 1]); g = np.array(["a", "a", "b", "b"])
    ...     return {"y_true": y, "y_pred": np.array([0, 1, 1, 1]), "groups": g}
    >>> one = fit_run(constant, run=1, vary="seed", tags={"technique": "base"})
    >>> both = fit_runs(constant, n_runs=2, vary="seed", backend="sequential",
    ...                 tags={"technique": "base"})
    >>> one.equals(both[both["run"] == 1].reset_index(drop=True))
    True
    """
    if not isinstance(run, int) or isinstance(run, bool) or run < 0:
        raise ValueError(f"run must be a non-negative int, got {run!r}")
    if vary not in (None, "seed"):
        raise ValueError(f"vary must be None or 'seed', got {vary!r}")
    if knobs is not None and not isinstance(knobs, Knobs):
        raise ValueError(f"knobs must be a Knobs, got {type(knobs).__name__}")
    table = _one_run(
        train_and_predict, seed + run if vary == "seed" else seed, run, knobs or Knobs()
    )
    for key, value in (tags or {}).items():
        table[key] = value
    return table


def fit_runs(
    train_and_predict: Callable,
    *,
    n_runs: int = 16,
    seed: int = 0,
    backend: str = "loky",
    n_jobs: int | None = None,
    knobs: Knobs | Sequence[Knobs] | None = None,
    vary: str | None = None,
    tags: Mapping[str, object] | None = None,
) -> pd.DataFrame:
    """Run the same training ``n_runs`` times and return a tidy table of its fairness.

    Parameters
    ----------
    train_and_predict : callable
        ``train_and_predict(*, seed, run, knobs) -> mapping`` with the test set's
        ``y_true``, ``y_pred`` and ``groups`` (optionally ``weights_hash``). It must take
        every random choice from ``seed``; ``run`` is only for emulated knobs (see
        :mod:`fairbook.variance.determinism`). It must be picklable for process or
        cluster backends (e.g. :class:`fairbook.variance.tasks.RunSpec`).
    n_runs : int, default 16
        The paper's 16 FIT runs.
    seed : int
        The fixed seed of every run.
    backend : str, default "loky"
        A joblib backend: ``"sequential"``, ``"loky"``, ``"threading"``, ``"dask"``
        (needs an active ``dask.distributed.Client``) or ``"ray"`` (needs ``ray``).
    n_jobs : int, optional
        joblib's ``n_jobs`` (default: 2 for loky/threading, -1 for dask/ray).
    knobs : Knobs or sequence of Knobs, optional
        The implementation settings of every run (default ``Knobs()``), or one per run.
    vary : {None, "seed"}
        ``None``: FIT runs (the seed is fixed). ``"seed"``: run ``r`` uses
        ``seed + r`` — the *random-seed* variance the paper contrasts FIT runs with.
    tags : mapping, optional
        Constant columns added to every row (e.g. ``{"technique": "base"}``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RUN_COLUMNS` plus the tags: one row per run × class × metric
        (and per-group accuracy rows), values as fractions; ``pred_hash`` and
        ``weights_hash`` fingerprint each run's predictions and final weights.
    """
    return fit_runs_many(
        [(dict(tags or {}), train_and_predict)],
        n_runs=n_runs,
        seed=seed,
        backend=backend,
        n_jobs=n_jobs,
        knobs=knobs,
        vary=vary,
    )


def fit_runs_many(
    experiments: Sequence[tuple[Mapping[str, object], Callable]],
    *,
    n_runs: int = 16,
    seed: int = 0,
    backend: str = "loky",
    n_jobs: int | None = None,
    knobs: Knobs | Sequence[Knobs] | None = None,
    vary: str | None = None,
) -> pd.DataFrame:
    """:func:`fit_runs` for several experiments in one joblib call (one queue, no idle
    workers between experiments).

    Parameters
    ----------
    experiments : sequence of (tags, train_and_predict)
        Each experiment's constant columns and its training function.
    n_runs, seed, backend, n_jobs, knobs, vary
        As in :func:`fit_runs`; the same for every experiment.

    Returns
    -------
    pandas.DataFrame
        The experiments' run tables, concatenated in order.
    """
    if not isinstance(n_runs, int) or isinstance(n_runs, bool) or n_runs < 1:
        raise ValueError(f"n_runs must be a positive int, got {n_runs!r}")
    if vary not in (None, "seed"):
        raise ValueError(f"vary must be None or 'seed', got {vary!r}")
    if knobs is None or isinstance(knobs, Knobs):
        per_run = [knobs or Knobs()] * n_runs
    else:
        per_run = list(knobs)
        if len(per_run) != n_runs or not all(isinstance(k, Knobs) for k in per_run):
            raise ValueError(f"knobs must be a Knobs or a sequence of {n_runs} Knobs")
    experiments = list(experiments)
    if not experiments:
        raise ValueError("no experiments given")
    if backend == "ray":  # pragma: no cover - ray is optional
        from ray.util.joblib import register_ray

        register_ray()
    if n_jobs is None:
        n_jobs = -1 if backend in ("dask", "ray") else 2
    seeds = [seed + r if vary == "seed" else seed for r in range(n_runs)]
    jobs = [
        joblib.delayed(_one_run)(fn, s, r, k)
        for _, fn in experiments
        for r, (s, k) in enumerate(zip(seeds, per_run, strict=True))
    ]
    # parallel_config (not Parallel(backend=...)) is joblib's documented route to the
    # dask backend: it registers it lazily and builds it without Parallel's extra arguments
    with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
        parts = joblib.Parallel()(jobs)
    tables = []
    for i, (tags, _) in enumerate(experiments):
        table = pd.concat(parts[i * n_runs : (i + 1) * n_runs], ignore_index=True)
        for key, value in tags.items():
            table[key] = value
        tables.append(table)
    return pd.concat(tables, ignore_index=True)


def identical_runs(
    table: pd.DataFrame, *, by: Sequence[str] = (), on: str = "pred_hash"
) -> bool | pd.Series:
    """Whether every run has the same fingerprint (``pred_hash`` or ``weights_hash``).

    With ``by`` (tag columns), a boolean Series per group.
    """
    if on not in ("pred_hash", "weights_hash"):
        raise ValueError(f"on must be 'pred_hash' or 'weights_hash', got {on!r}")
    if not by:
        return bool(table[on].nunique() == 1)
    return table.groupby(list(by))[on].nunique().eq(1)


def per_run(
    table: pd.DataFrame,
    *,
    cls: str = "overall",
    group: str = "all",
    metrics: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Runs × metrics (one value per run) for one class, from a long run table.

    Examples
    --------
    >>> t = pd.DataFrame({"run": [0, 1], "class": "overall", "group": "all",
    ...                   "metric": "DP", "value": [0.1, 0.2]})
    >>> per_run(t)["DP"].tolist()
    [0.1, 0.2]
    """
    rows = table[(table["class"] == cls) & (table["group"] == group)]
    wide = rows.pivot_table(
        index="run", columns="metric", values="value", aggfunc="first", dropna=False
    )
    wide.columns.name = None
    if metrics is not None:
        wide = wide.reindex(columns=list(metrics))
    return wide


def summarize(
    table: pd.DataFrame,
    *,
    metrics: Sequence[str] = (*BIAS_REPORT_METRICS, "accuracy"),
    percent: bool = True,
) -> pd.DataFrame:
    """Seed 004 Tables 2/4: MaxDiff and STDEV over runs, overall and per class.

    The per-class columns describe the class with the largest MaxDiff (the paper's "class
    within each technique that has the most variance"), named in ``worst class``; classes
    where the metric is undefined (NaN) in some run are skipped there.

    Parameters
    ----------
    table : DataFrame
        One technique's run table from :func:`fit_runs`.
    metrics : sequence of str
    percent : bool, default True
        Percentage points, as the paper prints.

    Returns
    -------
    DataFrame
        Index ``metric``; columns ``overall MaxDiff``, ``overall STDEV``,
        ``per-class MaxDiff``, ``per-class STDEV``, ``worst class``, ``runs``.
    """
    scale = 100.0 if percent else 1.0
    between = table[table["group"] == "all"]
    rows = {}
    for metric in metrics:
        values = between[between["metric"] == metric]
        overall = values[values["class"] == "overall"]["value"].to_numpy()
        per_class = values[values["class"] != "overall"]
        spreads = {
            cls: (max_diff(v["value"]), population_stdev(v["value"]))
            for cls, v in per_class.groupby("class")
        }
        spreads = {k: v for k, v in spreads.items() if not np.isnan(v[0])}
        worst = max(spreads, key=lambda k: spreads[k][0]) if spreads else None
        rows[metric] = {
            "overall MaxDiff": scale * max_diff(overall),
            "overall STDEV": scale * population_stdev(overall),
            "per-class MaxDiff": scale * spreads[worst][0] if worst is not None else np.nan,
            "per-class STDEV": scale * spreads[worst][1] if worst is not None else np.nan,
            "worst class": worst if worst is not None else "",
            "runs": int(len(overall)),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "metric"
    return out
