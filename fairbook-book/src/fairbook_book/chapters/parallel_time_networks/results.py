"""Chapter 08 (seed 003 ch. 5, PTN): tables from the runs (no paper numbers)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.forecasting import crps as crps_module
from fairbook.forecasting.baselines import (
    lead_time_mae,
)
from fairbook.forecasting.skill import percent_improved, skill_quartiles, skill_score
from fairbook.forecasting.space import Choice
from fairbook.papers.seed003 import LORENZ_PROTOCOL, PTN_COST, TABLE_5_2_CHAOS
from fairbook_book.formatting import MAX_DECIMALS

from .runs import RunResult, tide_epochs_per_cycle
from .settings import search_space

__all__ = [
    "budget_table",
    "chosen_agents",
    "cost_extrapolation",
    "cost_markdown",
    "cost_table",
    "crps_check",
    "crps_examples",
    "decision_rows",
    "decision_table",
    "decisive_answer_markdown",
    "decisive_curves",
    "decisive_runs_table",
    "equal_compute_table",
    "nvar_error_table",
    "operation_table",
    "partition_table",
    "per_run_table",
    "recorded_runs",
    "space_table",
    "summary_markdown",
    "window_counts",
]


# ----------------------------------------------------------------------------- tables
def partition_table(data: dict) -> pd.DataFrame:
    """Systems, initial conditions, trajectories and windows of each partition."""
    rows = {}
    for name, part in data["partitions"].items():
        rows[name] = {
            "systems": part.n_systems,
            "initial conditions per system": part.n_initial,
            "trajectories": part.n_systems * part.n_initial,
            "time steps": part.trajectories.shape[-2],
            "windows": len(data["windows"][name]),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def nvar_error_table(data: dict, *, partition: str = "test", leads=None) -> pd.DataFrame:
    """MAE of the deterministic forecast by lead time, normalised and in units of x.

    ``leads`` (1-based steps) selects rows; ``None`` keeps all 16.
    """
    w = data["windows"][partition]
    mae = lead_time_mae(w.deterministic, w.target)
    scale = data["normaliser"].state_max[0] - data["normaliser"].state_min[0]
    table = pd.DataFrame(
        {"MAE (normalised x)": mae, "MAE (x)": mae * scale},
        index=pd.RangeIndex(1, len(mae) + 1, name="lead time (steps of 0.1)"),
    )
    return table if leads is None else table.loc[list(leads)]


def crps_check(
    *, mu: float = 0.0, sigma: float = 1.0, y: float = 0.7, sizes=(11, 111, 1111)
) -> pd.DataFrame:
    """CRPS of a Normal's quantiles (Eq. 5.7) against the closed form, by quantile count.

    Examples
    --------
    >>> t = crps_check()
    >>> bool(t["|difference|"].is_monotonic_decreasing)
    True
    """
    from scipy import stats

    z = (y - mu) / sigma
    exact = sigma * (z * (2 * stats.norm.cdf(z) - 1) + 2 * stats.norm.pdf(z) - 1 / np.sqrt(np.pi))
    rows = []
    for c in sizes:
        q = stats.norm.ppf(crps_module.quantile_levels(c), loc=mu, scale=sigma)
        ours = crps_module.crps(q[None, :], np.array([y]))
        rows.append(
            {
                "quantiles C": c,
                "Eq. 5.7": ours,
                "closed form": exact,
                "|difference|": abs(ours - exact),
            }
        )
    return pd.DataFrame(rows).set_index("quantiles C")


def _quantiles_text(quantiles: np.ndarray) -> str:
    steps = ["{" + ", ".join(f"{q:g}" for q in step) + "}" for step in quantiles]
    return steps[0] if len(set(steps)) == 1 else " | ".join(steps)


def crps_examples(forecasts, target) -> pd.DataFrame:
    """The CRPS of a few small quantile forecasts, worked through: ``T1``, ``T2`` and
    ``CRPS = T1 − T2 / 2`` (Eqs. 5.5–5.7).

    Parameters
    ----------
    forecasts : mapping
        Name → quantiles, ``(C,)`` for one step or ``(T, C)`` for ``T`` steps.
    target : float or array_like
        The outcome at each step (a scalar for one step, or ``(T,)``).

    Returns
    -------
    DataFrame
        One row per forecast: its quantiles (``{…}``, one set per step where they differ),
        ``T1`` (the mean ``|q − y|``), ``T2`` (the mean ``|q − q'|`` over all pairs of
        quantiles), and the CRPS of :func:`fairbook.forecasting.crps.crps`, which equals
        ``T1 − T2 / 2``. Lower is better; 0 is a point forecast on the target.

    Examples
    --------
    >>> t = crps_examples({"fan {0, 2}": [0.0, 2.0], "point at 0": [0.0, 0.0]}, target=1.0)
    >>> t["CRPS"].tolist()
    [0.5, 1.0]
    >>> t.loc["fan {0, 2}", ["T1", "T2"]].tolist()
    [1.0, 1.0]
    """
    if not forecasts:
        raise ValueError("crps_examples needs at least one forecast")
    y = np.atleast_1d(np.asarray(target, dtype=float))
    rows = {}
    for name, quantiles in forecasts.items():
        q = np.atleast_2d(np.asarray(quantiles, dtype=float))
        if q.shape[0] != y.shape[0]:
            raise ValueError(
                f"forecast {name!r} has {q.shape[0]} steps but the target has {y.shape[0]}"
            )
        t1 = float(np.abs(q - y[:, None]).mean())
        t2 = float(np.abs(q[:, :, None] - q[:, None, :]).mean())
        rows[name] = {
            "quantiles": _quantiles_text(q),
            "T1": t1,
            "T2": t2,
            "CRPS": float(crps_module.crps(q, y)),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "forecast"
    return frame


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _significant(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits in fixed point, trailing zeros trimmed;
    a value that would need five decimals or more as a power of ten, as a reader writes it
    (``9.34 × 10⁻⁵``, never ``9.34e-05`` nor ``0.0000934``: the book's tables show at most
    :data:`fairbook_book.formatting.MAX_DECIMALS` decimals).

    Examples
    --------
    >>> _significant(0.2), _significant(0.123456), _significant(0.001), _significant(4.0)
    ('0.2', '0.123', '0.001', '4')
    >>> _significant(9.3412e-05), _significant(1e-05), _significant(0.00496)
    ('9.34 × 10⁻⁵', '1 × 10⁻⁵', '4.96 × 10⁻³')
    """
    text = np.format_float_positional(
        float(value), precision=digits, unique=False, fractional=False, trim="-"
    )
    decimals = len(text.partition(".")[2])
    if decimals <= MAX_DECIMALS:
        return text
    mantissa, exponent = f"{float(value):.{int(digits) - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def space_table(space: dict) -> pd.DataFrame:
    """The hyper-parameter space searched (Table 5.1's rows, as the code holds them).

    Examples
    --------
    >>> space_table(search_space({"hidden_sizes": (24, 48)})).loc["arch_lr", "values"]
    '[1 × 10⁻⁵, 0.001]'
    """
    rows = []
    for name, domain in space.items():
        if isinstance(domain, Choice):
            rows.append(
                {
                    "gene": name,
                    "values": "{" + ", ".join(map(str, domain.values)) + "}",
                    "type": "choice",
                    "ordered": domain.ordered,
                    "log": "",
                }
            )
        else:
            rows.append(
                {
                    "gene": name,
                    "values": f"[{_significant(domain.low)}, {_significant(domain.high)}]",
                    "type": "range",
                    "ordered": "",
                    "log": domain.log,
                }
            )
    return pd.DataFrame(rows).set_index("gene")


def chosen_agents(runs: list[RunResult]) -> pd.DataFrame:
    """The best agent of each run's search (one column per run; numbers to 3 significant
    digits, in fixed point up to four decimals, as a power of ten below)."""

    def show(value):
        return _significant(value) if isinstance(value, float) else str(value)

    return pd.DataFrame(
        {f"run {r.run}": pd.Series({k: show(v) for k, v in r.agent.items()}) for r in runs}
    )


def operation_table(runs: list[RunResult]) -> pd.DataFrame:
    """DARTS' softmax weight of every operation in the final PTN of each run."""
    frames = [
        r.operations.set_index(["subspace", "operation"])["weight"].rename(f"run {r.run}")
        for r in runs
    ]
    return pd.concat(frames, axis=1)


def _pooled(runs: list[RunResult]) -> pd.DataFrame:
    return pd.concat([r.crps for r in runs], ignore_index=True)


def per_run_table(runs: list[RunResult]) -> pd.DataFrame:
    """Skill quartiles and percent improved of each run on its own, and mean CRPS."""
    rows = []
    for r in runs:
        for baseline in ("Det.", "TiDE"):
            model, base = r.crps["PTN"].to_numpy(), r.crps[baseline].to_numpy()
            q = skill_quartiles(model, base)
            rows.append(
                {
                    "run": r.run,
                    "baseline": baseline,
                    **{f"skill Q{i + 1}": float(v) for i, v in enumerate(np.ravel(q))},
                    "percent improved": percent_improved(model, base),
                    "mean CRPS PTN": model.mean(),
                    "mean CRPS baseline": base.mean(),
                }
            )
    return pd.DataFrame(rows).set_index(["baseline", "run"]).sort_index()


def summary_markdown(runs: list[RunResult]) -> str:
    """A sentence per baseline on what the pooled runs say, for the chapter's text.

    Examples
    --------
    >>> import pandas as pd
    >>> r = RunResult(run=0, seed=0, search=None, history=None, agent={}, operations=None,
    ...               crps=pd.DataFrame({"PTN": [1.0, 2.0], "Det.": [2.0, 1.0],
    ...                                  "TiDE": [4.0, 4.0]}), quantiles=None)
    >>> line = summary_markdown([r]).splitlines()[1]
    >>> line.startswith("- against **TiDE**: PTN's CRPS is lower or equal in 100.0 %")
    True
    >>> line.endswith("PTN is **better** at the median.")
    True
    """
    pooled = _pooled(runs)
    lines = []
    for baseline, paper in TABLE_5_2_CHAOS.items():
        share = percent_improved(pooled["PTN"].to_numpy(), pooled[baseline].to_numpy())
        ptn, base = pooled["PTN"].median(), pooled[baseline].median()
        word = "better" if ptn < base else "worse" if ptn > base else "equal"
        lines.append(
            f"- against **{baseline}**: PTN's CRPS is lower or equal in {share:.1f} % "
            f"of the {len(pooled):,} test forecasts (paper: {paper['percent_improved']}"
            f" %); median CRPS {ptn:.4g} vs {base:.4g} — PTN is **{word}** at the "
            "median."
        )
    return "\n".join(lines)


def budget_table(runs: list[RunResult], *, seconds: bool = False) -> pd.DataFrame:
    """Test CRPS of PTN and TiDE after each final-training cycle, averaged over the runs;
    with ``seconds=True`` also the wall seconds of final training so far (where the runs
    recorded them; they change from run to run, so the default leaves them out).

    Shown to read the training budget, not used to pick anything (selection never sees test).
    """
    frames = [r.budget for r in runs if r.budget is not None]
    if not frames:
        raise ValueError("the runs carry no budget record")
    columns = [
        "weight updates",
        "PTN mean",
        "TiDE mean",
        "Det. mean",
        "PTN median",
        "TiDE median",
        "Det. median",
    ]
    if seconds:
        columns += [c for c in ("PTN seconds", "TiDE seconds") if c in frames[0]]
    table = pd.concat(frames)[columns].groupby(level="cycle").mean()
    if "phase" in frames[0]:
        table.insert(0, "phase", frames[0]["phase"])
    return table


def equal_compute_table(runs: list[RunResult]) -> pd.DataFrame:
    """PTN against TiDE at equal compute: per run, PTN's final test CRPS and the wall
    seconds its final training and scoring took, beside TiDE's test CRPS after the last
    cycle whose cumulative seconds do not exceed PTN's (TiDE never gets more time than
    PTN) and the Normal baseline's (no training). A last row averages the runs.

    Returns
    -------
    pandas.DataFrame
        Index: ``run 0`` … and ``mean``; columns ``PTN seconds``, ``PTN CRPS``, ``TiDE
        seconds``, ``TiDE CRPS`` (NaN where even TiDE's first cycle took longer than PTN),
        ``Normal CRPS``, ``PTN − TiDE``, ``PTN − Normal``, and ``PTN better than TiDE`` /
        ``PTN better than Normal`` (1.0 or 0.0 per run; on the ``mean`` row the share).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> budget = pd.DataFrame({"PTN seconds": [2.0, 4.0], "PTN mean": [0.5, 0.3],
    ...                        "TiDE seconds": [1.0, 3.0], "TiDE mean": [0.4, 0.2],
    ...                        "Det. mean": [0.35, 0.35]})
    >>> t = equal_compute_table([SimpleNamespace(run=0, budget=budget)])
    >>> t.loc["run 0", ["PTN CRPS", "TiDE seconds", "TiDE CRPS"]].tolist()
    [0.3, 3.0, 0.2]
    """
    rows = {}
    for r in runs:
        b = r.budget
        if b is None or "PTN seconds" not in b:
            raise ValueError("the runs carry no wall-time record (rerun them with today's code)")
        seconds = float(b["PTN seconds"].iloc[-1])
        within = b[b["TiDE seconds"] <= seconds]
        tide = float(within["TiDE mean"].iloc[-1]) if len(within) else np.nan
        ptn, normal = float(b["PTN mean"].iloc[-1]), float(b["Det. mean"].iloc[-1])
        rows[f"run {r.run}"] = {
            "PTN seconds": seconds,
            "PTN CRPS": ptn,
            "TiDE seconds": float(within["TiDE seconds"].iloc[-1]) if len(within) else np.nan,
            "TiDE CRPS": tide,
            "Normal CRPS": normal,
            "PTN − TiDE": ptn - tide,
            "PTN − Normal": ptn - normal,
        }
    if not rows:
        raise ValueError("no runs")
    table = pd.DataFrame(rows).T
    # 1.0 where PTN's CRPS is the lower, NaN where TiDE had no cycle within PTN's time;
    # the mean row is then the share of runs
    table["PTN better than TiDE"] = (
        (table["PTN − TiDE"] < 0).astype(float).where(table["PTN − TiDE"].notna())
    )
    table["PTN better than Normal"] = (table["PTN − Normal"] < 0).astype(float)
    table.loc["mean"] = table.mean()
    return table


def cost_table(data: dict, runs: list[RunResult]) -> pd.DataFrame:
    """Wall-clock seconds of each stage, beside the paper's reported cost."""
    rows = {"data (simulate, NVAR, windows)": data["seconds"]}
    for r in runs:
        for stage, s in r.seconds.items():
            rows[f"run {r.run}: {stage}"] = s
    table = pd.DataFrame({"seconds": pd.Series(rows)})
    table.loc["total (sum of the stages)"] = table["seconds"].sum()
    table.attrs["paper"] = PTN_COST
    return table


def window_counts(config: dict) -> dict:
    """Windows per partition a profile cuts (no simulation needed), and how many are scored.

    Each trajectory of ``n_times = 1000`` steps gives a window at every ``stride``-th ``t``
    from 15 (16 steps of history; the NVAR's one-step lag plus ten forecasts need 10) to
    ``1000 − 17``. Keys: ``partition`` (windows in each of the five), ``score`` (windows a
    candidate is scored on in each genetic partition), ``test`` (test windows scored, after
    the warm-start split) and ``warm`` (warm-start windows).

    Examples
    --------
    >>> window_counts({"n_systems": 50, "n_initial": 125, "stride": 8,
    ...                "score_windows": 4096, "warm_start": 0.2})["partition"]
    762500
    """
    history, horizon = LORENZ_PROTOCOL["history"], LORENZ_PROTOCOL["horizon"]
    t_min = max(history - 1, 1 + LORENZ_PROTOCOL["n_forecasts"] - 1)
    per_trajectory = len(range(t_min, LORENZ_PROTOCOL["n_times"] - horizon, int(config["stride"])))
    n_systems, n_initial = int(config["n_systems"]), int(config["n_initial"])
    partition = n_systems * n_initial * per_trajectory
    warm_starts = int(round(float(config.get("warm_start") or 0.0) * n_initial))
    warm = n_systems * warm_starts * per_trajectory
    score = config.get("score_windows")
    return {
        "partition": partition,
        "score": partition if score is None else min(int(score), partition),
        "test": partition - warm,
        "warm": warm,
    }


def _mean_cost(costs: pd.DataFrame, column: str, sizes) -> float:
    """Mean over ``sizes`` of a cost measured at some hidden sizes: a power law
    ``cost = a · d^b`` fitted (least squares in logs) through the measured sizes, the
    measurement itself where only one size was measured."""
    d = costs["hidden_size"].to_numpy(dtype=float)
    y = costs[column].to_numpy(dtype=float)
    if len(np.unique(d)) < 2 or (y <= 0).any():
        return float(np.mean(y))
    b, a = np.polyfit(np.log(d), np.log(y), 1)
    return float(np.mean(np.exp(a + b * np.log(np.asarray(sizes, dtype=float)))))


def cost_extrapolation(costs: pd.DataFrame, config: dict) -> pd.DataFrame:
    """CPU hours one run of a profile takes, by stage, from measured per-epoch and per-window
    costs.

    Parameters
    ----------
    costs : DataFrame
        Rows of :func:`~fairbook_book.chapters.parallel_time_networks.runs.stage_costs` (the
        ``cost`` recording: CPU seconds on one thread), one per measured hidden size.
        Candidates draw their hidden size from the profile's space, so each stage uses the
        mean cost over the space's sizes, from a power law in ``d`` fitted through the
        measured sizes (all sizes measured: the fit's values at them).
    config : dict
        The profile (its population, generations, epochs, cycles, windows, runs).

    Returns
    -------
    DataFrame
        Index: the stages, ``total per run`` and ``all runs``; columns ``CPU hours`` and
        ``what`` (how the stage is counted); empty when ``costs`` is (a recording not made
        yet). The search counts every generation (patience may stop it earlier: an upper
        bound). The row ``search: scoring every window`` says what scoring costs without the
        subset and is not in the total.

    Examples
    --------
    >>> costs = pd.DataFrame({"hidden_size": [24], "epoch_cpu_seconds": [36.0],
    ...                       "window_cpu_seconds": [0.0036], "tide_step_cpu_seconds": [0.0],
    ...                       "tide_window_cpu_seconds": [0.0]})
    >>> config = {"population": 2, "generations": 1, "epochs": 100, "final_cycles": 1,
    ...           "final_epochs": 100, "warm_start": 0.0, "warm_epochs": 0, "runs": 1,
    ...           "n_systems": 1, "n_initial": 1, "stride": 1000, "score_windows": None,
    ...           "hidden_sizes": (24,)}
    >>> float(round(cost_extrapolation(costs, config).loc["search: training", "CPU hours"], 3))
    2.0
    """
    need = {
        "hidden_size",
        "epoch_cpu_seconds",
        "window_cpu_seconds",
        "tide_step_cpu_seconds",
        "tide_window_cpu_seconds",
    }
    if costs.empty and not len(costs.columns):  # nothing recorded yet
        return pd.DataFrame(columns=["CPU hours", "what"])
    if costs.empty or not need <= set(costs.columns):
        raise ValueError(f"costs needs rows with columns {sorted(need)}")
    sizes = search_space(config)["hidden_size"].values
    m = {c: _mean_cost(costs, c, sizes) for c in sorted(need - {"hidden_size"})}
    n = window_counts(config)
    candidates = int(config["population"]) * int(config["generations"])
    cycles = int(config["final_cycles"])
    warm = n["warm"] > 0
    phases = cycles + int(warm)
    tide_epochs = tide_epochs_per_cycle(config, n["partition"])
    batches = -(-n["partition"] // LORENZ_PROTOCOL["batch_size"])
    epoch, window = m["epoch_cpu_seconds"], m["window_cpu_seconds"]
    rows = {
        "search: training": (
            candidates * int(config["epochs"]) * epoch,
            f"{candidates} candidates × {config['epochs']} DARTS epochs",
        ),
        "search: scoring": (
            candidates * 2 * n["score"] * window,
            f"{candidates} candidates × 2 partitions × {n['score']:,} windows",
        ),
        "final PTN": (
            (cycles * int(config["final_epochs"]) + warm * int(config["warm_epochs"])) * epoch
            + phases * n["test"] * window,
            f"{cycles} cycles × {config['final_epochs']} epochs"
            + (f" + warm start {config['warm_epochs']} epochs" if warm else "")
            + f", {n['test']:,} test windows scored {phases}×",
        ),
        "TiDE": (
            phases
            * (
                tide_epochs
                * (
                    batches * m["tide_step_cpu_seconds"]
                    + n["partition"] * m["tide_window_cpu_seconds"]
                )
                + n["test"] * m["tide_window_cpu_seconds"]
            ),
            f"{phases} × {tide_epochs} epochs of {batches:,} steps, validated and tested",
        ),
    }
    table = pd.DataFrame(rows, index=["seconds", "what"]).T
    table["CPU hours"] = table["seconds"].astype(float) / 3600
    total = float(table["CPU hours"].sum())
    table.loc["total per run"] = [np.nan, "", total]
    table.loc["all runs"] = [np.nan, f"{int(config['runs'])} runs", total * int(config["runs"])]
    table.loc["search: scoring every window"] = [
        np.nan,
        f"not in the total: {candidates} × 2 × {n['partition']:,} windows",
        candidates * 2 * n["partition"] * window / 3600,
    ]
    return table[["CPU hours", "what"]]


def cost_markdown(
    table: pd.DataFrame, config: dict, *, hours: float = 4.0, cores: int = 2, gpu: bool = True
) -> str:
    """What :func:`cost_extrapolation`'s ``table`` says about a profile, as a sentence;
    with ``gpu`` (default), followed by the CPU and GPU hours of each stage side by side
    (:func:`._cost_table.gpu_cost_markdown`: the ``cost-cuda`` recording when there is one,
    else the GPU measurement quoted with its source).

    Whether all of ``config``'s runs fit in ``hours`` of wall time on ``cores`` cores (at
    best, one run per core: CPU hours / cores), and if not, how many candidates of
    ``config["epochs"]`` DARTS epochs each run could train in its share after its final
    training (against the profile's population × generations).

    Examples
    --------
    >>> t = pd.DataFrame({"CPU hours": [8.0, 1.0, 1.0, 0.0, 10.0, 20.0, 50.0]},
    ...                  index=["search: training", "search: scoring", "final PTN", "TiDE",
    ...                         "total per run", "all runs", "search: scoring every window"])
    >>> cost_markdown(t, {"runs": 2, "population": 4, "generations": 2}, hours=4, gpu=False)[:35]
    'One run of this profile takes about'
    """
    if table.empty:
        return "The costs are not recorded yet: run `fairbook-book record 08 cost --profile full`."
    text = _cost_sentence(table, config, hours=hours, cores=cores)
    if not gpu:
        return text
    from ._cost_table import gpu_cost_markdown

    return text + "\n\n" + gpu_cost_markdown(table, config)


def _cost_sentence(table: pd.DataFrame, config: dict, *, hours: float, cores: int) -> str:
    runs = int(config["runs"])
    per_run = float(table.loc["total per run", "CPU hours"])
    wall = per_run * runs / max(1, min(int(cores), runs))
    training = float(table.loc["search: training", "CPU hours"])
    candidates = int(config["population"]) * int(config["generations"])
    per_candidate = training / candidates if candidates else float("nan")
    other = per_run - training - float(table.loc["search: scoring", "CPU hours"])
    share = hours * min(int(cores), runs) / runs  # CPU hours each run gets in the window
    fit = (share - other) / per_candidate if per_candidate > 0 else float("nan")
    text = (
        f"One run of this profile takes about {per_run:,.1f} CPU hours on the machine that "
        f"measured the costs (the search's training {training:,.1f} of them, for "
        f"{candidates} candidates), so its {runs} runs take about {wall:,.1f} hours of wall "
        f"time on {cores} cores at best."
    )
    if wall <= hours:
        return text + f" That fits in {hours:g} hours."
    if fit >= 1:
        room = (
            f"in its share of them each run could train about {fit:,.0f} candidates after its "
            f"final training and warm start, not {candidates}"
        )
    else:
        room = (
            f"each run's final training, warm start and TiDE alone ({other:,.1f} CPU hours) "
            "exceed its share of them, before any search"
        )
    return text + (
        f" That does not fit in {hours:g} hours: {room}. So at the thesis' protocol these "
        "cores cannot decide the comparison; the recording (`fairbook-book record 08 ptn`) is the "
        "way, on a GPU or over days. Section 8 records the largest budget that fits instead."
    )


# ----------------------------------------------------------------------------- recorded runs
def _rows(recording, kind: str) -> pd.DataFrame:
    frame = recording.frame
    if frame.empty:
        return frame
    return frame[frame["kind"] == kind]


def recorded_runs(recording, *, search: bool = True, phase: str = "last") -> list[pd.DataFrame]:
    """The decisive recording's test CRPS, one table (``PTN, Det., TiDE``) per run.

    Parameters
    ----------
    recording : fairbook_book.recordings.Recording
        Of :data:`~.runs.DECISIVE_RECORDING`.
    search : bool, default True
        The searched runs, or (False) the ablation with a random agent.
    phase : {"last", "before warm start"}
        After each run's last phase (the warm start, when the profile has one), or after its
        last final-training cycle (the ablation "no warm start": the same windows scored).

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> recorded_runs(Recording("08", "decisive", pd.DataFrame()))
    []
    """
    if phase not in ("last", "before warm start"):
        raise ValueError(f"phase must be 'last' or 'before warm start'; got {phase!r}")
    windows, phases = _rows(recording, "window"), _rows(recording, "phase")
    if windows.empty:
        return []
    frames = []
    for run, rows in windows[windows["search"] == search].groupby("run", sort=True):
        steps = phases[(phases["search"] == search) & (phases["run"] == run)]
        if phase == "last":
            cycle = steps["cycle"].max()
        else:
            cycles = steps.loc[steps["phase"] == "cycle", "cycle"]
            cycle = cycles.max()
        chosen = rows[rows["cycle"] == cycle]
        frames.append(chosen[["PTN", "Det.", "TiDE"]].reset_index(drop=True))
    return frames


def _skill_q2(model, baseline) -> float:
    return float(skill_quartiles(model, baseline, quantiles=(0.5,))[0])


def _decision_label(d: dict, alpha: float) -> str:
    """Decided by the t interval *and* the sign test, by the t interval only, or not."""
    if d["side"] == "undecided":
        return "not decided"
    winner = "the first wins" if d["side"] == "above zero" else "the second wins"
    if d["sign_p"] < alpha:
        return f"decided: {winner}"
    return f"t interval: {winner}; sign test: not decided"


def decision_table(recording, *, alpha: float = 0.05) -> pd.DataFrame:
    """Is each comparison of the decisive recording decided over its runs?

    One number per run (paired by run where two variants are compared), then
    :func:`fairbook.stats.decision.decide`: the mean over runs, its ``1 − alpha`` t
    interval, how many runs are above zero, the exact sign test, the decision and the runs
    an interval would need to exclude zero at the observed mean and spread. A comparison is
    *decided* when the t interval excludes zero and the sign test rejects at ``alpha`` too;
    when only the t interval does (a few runs far from the others can carry a mean), the
    decision says so. The numbers are
    skill scores ``1 − model / baseline`` of the median CRPS (Table 5.2's Q2) or of the mean
    CRPS: above zero, the first named wins.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> decision_table(Recording("08", "decisive", pd.DataFrame())).empty
    True
    """

    columns = [
        "runs",
        "mean",
        "low",
        "high",
        "runs above zero",
        "sign test p",
        "decision",
        "runs needed",
    ]
    searched = recorded_runs(recording)
    if len(searched) < 2:
        return pd.DataFrame(columns=columns)
    random_agent = recorded_runs(recording, search=False)
    cold = recorded_runs(recording, phase="before warm start")

    def mean_skill(model, baseline) -> float:
        return float(skill_score(np.mean(model), np.mean(baseline)))

    comparisons = {}
    for name, baseline in (("Normal (Det.)", "Det."), ("TiDE", "TiDE")):
        comparisons[f"PTN vs {name}: skill Q2"] = [
            _skill_q2(f["PTN"], f[baseline]) for f in searched
        ]
        comparisons[f"PTN vs {name}: skill of the mean CRPS"] = [
            mean_skill(f["PTN"], f[baseline]) for f in searched
        ]
    comparisons["TiDE vs Normal (Det.): skill Q2"] = [
        _skill_q2(f["TiDE"], f["Det."]) for f in searched
    ]
    if len(random_agent) == len(searched):
        comparisons["random agent (no search) vs Normal (Det.): skill Q2"] = [
            _skill_q2(f["PTN"], f["Det."]) for f in random_agent
        ]
        comparisons["search vs no search (PTN): skill Q2"] = [
            _skill_q2(s["PTN"], r["PTN"]) for s, r in zip(searched, random_agent, strict=True)
        ]
    if (_rows(recording, "phase")["phase"] == "warm start").any():
        comparisons["warm start vs none (PTN): skill Q2"] = [
            _skill_q2(s["PTN"], c["PTN"]) for s, c in zip(searched, cold, strict=True)
        ]
        comparisons["warm start vs none (TiDE): skill Q2"] = [
            _skill_q2(s["TiDE"], c["TiDE"]) for s, c in zip(searched, cold, strict=True)
        ]
    return decision_rows(comparisons, alpha=alpha)[columns]


def decision_rows(comparisons: dict, *, alpha: float = 0.05) -> pd.DataFrame:
    """One row per named comparison (one number per run each): the columns of
    :func:`decision_table`, by :func:`fairbook.stats.decision.decide`.

    Examples
    --------
    >>> decision_rows({"a": [0.1, 0.2, 0.3, 0.2, 0.25, 0.15]})["decision"].tolist()
    ['decided: the first wins']
    """
    from fairbook.stats.decision import decide

    rows = {}
    for name, values in comparisons.items():
        d = decide(values, alpha=alpha)
        rows[name] = {
            "runs": d["n"],
            "mean": d["mean"],
            "low": d["low"],
            "high": d["high"],
            "runs above zero": d["positive"],
            "sign test p": d["sign_p"],
            "decision": _decision_label(d, alpha),
            "runs needed": d["runs_needed"],
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def decisive_curves(recording) -> pd.DataFrame:
    """Mean test CRPS after every phase of every recorded run: the learning curves.

    One row per ``search, run, cycle`` with ``phase``, ``weight updates`` (PTN's so far;
    TiDE gets about as many), the mean CRPS of ``PTN, TiDE, Det.`` on the scored windows and
    the wall seconds ``PTN seconds, TiDE seconds`` of training and scoring so far.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> decisive_curves(Recording("08", "decisive", pd.DataFrame())).empty
    True
    """
    windows, phases = _rows(recording, "window"), _rows(recording, "phase")
    if windows.empty:
        return pd.DataFrame()
    keys = ["search", "run", "cycle"]
    means = windows.groupby(keys)[["PTN", "TiDE", "Det."]].mean().reset_index()
    steps = phases[keys + ["phase", "weight updates", "PTN seconds", "TiDE seconds"]]
    return steps.merge(means, on=keys).sort_values(keys, ignore_index=True)


def decisive_runs_table(recording) -> pd.DataFrame:
    """Each recorded run on its own: the agent's hidden size with and without the search,
    the final mean CRPS of the three models, and the minutes the unit took.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> decisive_runs_table(Recording("08", "decisive", pd.DataFrame())).empty
    True
    """
    curves = decisive_curves(recording)
    if curves.empty:
        return pd.DataFrame()
    phases = _rows(recording, "phase")
    last = curves.sort_values("cycle").groupby(["search", "run"]).last()
    # an integer (the frame's column is float: other kinds of row leave it empty)
    agents = phases.groupby(["search", "run"])["hidden_size"].first().astype("Int64")
    # each unit's variant and run, as its own rows say (no second parse of the unit names)
    variant = recording.frame.groupby("unit")[["search", "run"]].first()
    minutes = {
        (bool(variant.loc[p["unit"], "search"]), int(variant.loc[p["unit"], "run"])): p["seconds"]
        / 60
        for p in recording.provenance
    }
    table = pd.DataFrame(
        {
            ("search", "hidden size"): agents.xs(True, level="search"),
            ("search", "PTN"): last.xs(True, level="search")["PTN"],
            ("search", "TiDE"): last.xs(True, level="search")["TiDE"],
            ("search", "Det."): last.xs(True, level="search")["Det."],
            ("search", "unit minutes"): pd.Series(
                {run: m for (s, run), m in minutes.items() if s}, dtype=float
            ),
        }
    )
    if (~phases["search"].astype(bool)).any():
        table[("no search", "hidden size")] = agents.xs(False, level="search")
        table[("no search", "PTN")] = last.xs(False, level="search")["PTN"]
        table[("no search", "unit minutes")] = pd.Series(
            {run: m for (s, run), m in minutes.items() if not s}, dtype=float
        )
    table.columns = pd.MultiIndex.from_tuples(table.columns)
    table.index.name = "run"
    return table


def _decision_sentence(decisions: pd.DataFrame, name: str, first: str, second: str) -> str:
    row = decisions.loc[name]
    interval = f"[{row['low']:.2f}, {row['high']:.2f}]"
    verdict = {
        "decided: the first wins": f"**{first} wins**",
        "decided: the second wins": f"**{second} wins**",
        "t interval: the first wins; sign test: not decided": f"**{first} wins by the t "
        "interval**, not by the sign test",
        "t interval: the second wins; sign test: not decided": f"**{second} wins by the t "
        "interval**, not by the sign test",
        "not decided": "**not decided**",
    }[row["decision"]]
    text = (
        f"{first} against {second}: {verdict} — mean {row['mean']:.2f}, 95 % interval "
        f"{interval} over {row['runs']} runs, {row['runs above zero']} of them above zero "
        f"(sign test p = {row['sign test p']:.3g})"
    )
    if row["decision"] == "not decided":
        text += f"; at this mean and spread an interval would need about {row['runs needed']} runs"
    return text + "."


def decisive_answer_markdown(recording, decisions: pd.DataFrame, curves: pd.DataFrame) -> str:
    """The chapter's answer, written from the decisive recording's numbers.

    ``decisions`` is :func:`decision_table`'s and ``curves`` :func:`decisive_curves`'s
    table of the same recording. Each sentence states a decision with its interval; the
    last ones say how far each model's test CRPS still fell over its last final-training
    cycle (median over runs), which is what more budget would buy.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> decisive_answer_markdown(Recording("08", "decisive", pd.DataFrame()),
    ...                          pd.DataFrame(), pd.DataFrame())[:40]
    'The decisive profile is not recorded yet'
    """
    if recording.empty or decisions.empty:
        return (
            "The decisive profile is not recorded yet (or has fewer than two runs): "
            "`fairbook-book record 08 decisive --profile decisive --n-jobs 2` records it."
        )
    parts = []
    if recording.stale:
        parts.append(
            "**The recording is stale** (the code it depends on has changed since): the "
            "sentences below describe the code that made it, not today's."
        )
    runs = int(decisions["runs"].max())
    parts.append(
        f"At the decisive profile ({runs} runs recorded, {recording.hours:.1f} unit-hours on "
        f"{recording.provenance[0]['cores']} cores), skill of the median CRPS (Table 5.2's Q2):"
    )
    pairs = [
        ("PTN vs Normal (Det.): skill Q2", "PTN", "the Normal baseline"),
        ("PTN vs TiDE: skill Q2", "PTN", "TiDE"),
        ("TiDE vs Normal (Det.): skill Q2", "TiDE", "the Normal baseline"),
        ("search vs no search (PTN): skill Q2", "the searched agent", "a random agent"),
        ("warm start vs none (PTN): skill Q2", "PTN with the warm start", "PTN without it"),
    ]
    parts.append(
        "\n".join(
            "- " + _decision_sentence(decisions, name, first, second)
            for name, first, second in pairs
            if name in decisions.index
        )
    )
    searched = curves[curves["search"] & (curves["phase"] == "cycle")]
    if searched["cycle"].nunique() >= 2:
        last, before = searched["cycle"].max(), searched["cycle"].max() - 1
        fell = {}
        for model in ("PTN", "TiDE"):
            wide = searched.pivot(index="run", columns="cycle", values=model)
            fell[model] = float(np.median(1 - wide[last] / wide[before]))
        parts.append(
            f"Over the last final-training cycle (cycle {before} to {last}) PTN's mean test "
            f"CRPS fell by {100 * fell['PTN']:.1f} % and TiDE's by {100 * fell['TiDE']:.1f} % "
            "(medians over runs): how much one more cycle of budget would still buy."
        )
    return "\n\n".join(parts)
