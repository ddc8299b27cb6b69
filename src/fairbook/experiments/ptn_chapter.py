"""Chapter: Probabilistic Parallel Time Networks on the chaotic Lorenz system (seed 003, ch. 5).

The chapter's pipeline, in the order the notebook shows it:

1. :func:`make_data` — Lorenz systems in five partitions, the min–max normaliser and the NVAR
   forecaster fitted on ``neural_train``, and PTN's windows (static, history, ten parallel
   forecasts, target) for every partition (:func:`fairbook.forecasting.windows.lorenz_pipeline`).
2. :func:`run_study` — ``runs`` independent repetitions (seeds ``seed + r``) of: the genetic
   search of Algorithm 2 with DARTS inside (:func:`fairbook.forecasting.search.genetic_search`),
   a final training of the best agent, the TiDE-style baseline trained with the same ordered
   CRPS, the Normal baseline from the deterministic forecast; CRPS of every test forecast.
3. :func:`table_5_2_replication` — Table 5.2's chaos columns from the pooled CRPS of all runs,
   beside the paper's values; :func:`per_run_table` the spread across runs.
4. Figures and a widget: the attractor (Fig. 5.1), the search history, fan charts of a
   confident and of a multi-modal forecast (Figs. 5.5–5.6), a forecast explorer.

The data are fixed by ``data_seed`` for all runs; the runs differ in the search's, the
networks' and the minibatches' seeds. Decisions the paper leaves open are listed in
:data:`DEPARTURES`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from fairbook.experiments.profiles import choose_settings
from fairbook.forecasting import crps as crps_module
from fairbook.forecasting.baselines import (
    TiDE,
    lead_time_mae,
    normal_quantiles,
    predict_quantiles,
    train_quantile_model,
)
from fairbook.forecasting.darts import evaluate_crps, make_evaluate, train_darts
from fairbook.forecasting.ptn import PTN
from fairbook.forecasting.search import genetic_search, search_history
from fairbook.forecasting.skill import percent_improved, skill_quartiles, table_5_2
from fairbook.forecasting.space import PTN_SPACE, Choice, make_space
from fairbook.forecasting.windows import lorenz_pipeline
from fairbook.papers.seed003 import LORENZ_PROTOCOL, PTN_COST, TABLE_5_2_CHAOS
from fairbook.parallel import check_n_jobs, ordered_map
from fairbook.plots import figure_png
from fairbook.replication import replication_table

__all__ = [
    "DEPARTURES",
    "PROFILES",
    "RunResult",
    "attractor_plot",
    "budget_table",
    "chosen_agents",
    "cost_table",
    "tide_epochs_per_cycle",
    "crps_check",
    "fan_chart",
    "fan_explorer",
    "interesting_forecasts",
    "make_data",
    "nvar_error_table",
    "operation_table",
    "partition_table",
    "per_run_table",
    "run_once",
    "run_study",
    "search_plot",
    "search_space",
    "settings",
    "space_table",
    "summary_markdown",
    "table_5_2_replication",
]

#: Profile settings. ``fast`` runs the chapter in about two minutes on 2 CPU cores;
#: ``full`` is the paper's scale (Sec. 5.5), with windows subsampled every 8th step to fit
#: in memory (about 11 GB per partition at stride 1).
PROFILES = {
    "fast": {
        "n_systems": 3,
        "n_initial": 3,
        "stride": 4,
        "integrator": "rk4",
        "hidden_sizes": (24, 48),
        "population": 4,
        "generations": 2,
        "patience": 2,
        "elite_every": 2,
        "n_elite": 1,
        "epochs": 3,
        "final_epochs": LORENZ_PROTOCOL["epochs"],
        "final_cycles": 2,
        "tide_hidden": 64,
        "runs": 2,
        "seed": 0,
        "data_seed": 0,
        "threads": 1,
        "n_jobs": 2,
        "n_quantiles": LORENZ_PROTOCOL["n_quantiles"],
    },
    "full": {
        "n_systems": LORENZ_PROTOCOL["n_systems"],
        "n_initial": LORENZ_PROTOCOL["n_initial"],
        "stride": 8,
        "integrator": "rk4",
        "hidden_sizes": None,
        "population": 16,
        "generations": 20,
        "patience": 3,
        "elite_every": 2,
        "n_elite": 2,
        "epochs": LORENZ_PROTOCOL["epochs"],
        "final_epochs": LORENZ_PROTOCOL["epochs"],
        "final_cycles": 4,
        "tide_hidden": 256,
        "runs": LORENZ_PROTOCOL["runs"],
        "seed": 0,
        "data_seed": 0,
        "threads": 0,
        "n_jobs": 1,
        "n_quantiles": LORENZ_PROTOCOL["n_quantiles"],
    },
}

#: Where the book departs from, or decides what the paper leaves open (shown in the chapter).
DEPARTURES = pd.DataFrame(
    [
        (
            "partitions",
            "50 systems and 125 initial conditions for each partition",
            "each partition draws its own systems, so the test systems are unseen (σ, ρ, β)",
        ),
        (
            "parallel forecasts",
            "ten iterations of 16-step NVAR forecasts",
            "forecast k = 0…9 is the one issued at t − k; forecast 0 covers the target window",
        ),
        (
            "NVAR",
            "an MLP based on NVAR (Shahi et al. 2022)",
            "ridge NVAR read-out (2 delays, 28 features) plus a residual MLP, 16 steps at once",
        ),
        (
            "Normal baseline",
            "sd = the deterministic forecast's MAE",
            "MAE per lead time, measured on neural_val (held out from the NVAR fit)",
        ),
        (
            "DARTS",
            "architecture and weights on separate data, 5 + 10 steps per epoch",
            "first-order DARTS (no unrolled second-order gradient)",
        ),
        (
            "final network",
            "trained on the DARTS data, warm-started on part of the left-out data",
            "the best agent is retrained on the DARTS data for final_cycles back-to-back 30-epoch "
            "DARTS schedules (optimisers and plateau schedules restart each cycle); no training on "
            "test systems",
        ),
        (
            "TiDE budget",
            "not stated",
            "TiDE gets about the same number of weight updates per cycle "
            "as PTN (one 30-epoch cycle = 300 updates of batch 64)",
        ),
        ("runs", "seven runs aggregated", "runs differ in every seed but the data's; CRPS pooled"),
        (
            "ranking",
            "sort(A; f² + f_v²), 'descending'",
            "ascending: our fitness is a CRPS (lower is better)",
        ),
    ],
    columns=["what", "paper", "this book"],
).set_index("what")


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides keep the profile's value.

    Examples
    --------
    >>> settings("fast", runs=3)["runs"]
    3
    """
    return choose_settings(PROFILES, profile, overrides)


def search_space(config: dict) -> dict:
    """Table 5.1, with the hidden sizes of the profile (``None``: the paper's 72…240).

    Examples
    --------
    >>> search_space({"hidden_sizes": (24,)})["hidden_size"].values
    (24,)
    """
    if config.get("hidden_sizes") is None:
        return PTN_SPACE
    return make_space(hidden_size=Choice(list(config["hidden_sizes"])))


class _Threads:
    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.before = torch.get_num_threads()
        if self.n:
            torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        torch.set_num_threads(self.before)


def make_data(config: dict, *, progress=None) -> dict:
    """Simulate, normalise, fit NVAR and cut windows (the fixed data of every run)."""
    start = time.perf_counter()
    with _Threads(config["threads"]):
        data = lorenz_pipeline(
            n_systems=config["n_systems"],
            n_initial=config["n_initial"],
            seed=config["data_seed"],
            stride=config["stride"],
            integrator=config["integrator"],
            progress=progress,
        )
    data["seconds"] = time.perf_counter() - start
    return data


# ----------------------------------------------------------------------------- the runs
@dataclass
class RunResult:
    """One repetition: the search, the final PTN and the CRPS of every test forecast."""

    run: int
    seed: int
    search: object
    history: pd.DataFrame
    agent: dict
    operations: pd.DataFrame
    crps: pd.DataFrame  # columns PTN, Det., TiDE; one row per test window
    quantiles: np.ndarray  # PTN's test quantiles (N, 16, C), normalised
    seconds: dict = field(default_factory=dict)
    budget: pd.DataFrame | None = None  # test CRPS after each final-training cycle


def tide_epochs_per_cycle(config: dict, n_train: int) -> int:
    """TiDE epochs that give it about as many weight updates per cycle as PTN gets.

    PTN's cycle is ``final_epochs`` DARTS epochs of 10 weight steps of batch 64; a TiDE epoch
    is one pass over ``n_train`` windows in batches of 64.

    Examples
    --------
    >>> tide_epochs_per_cycle({"final_epochs": 30}, 2187)    # 300 steps ≈ 9 × 35
    9
    """
    steps = config["final_epochs"] * LORENZ_PROTOCOL["weight_steps"]
    per_epoch = max(1, -(-n_train // LORENZ_PROTOCOL["batch_size"]))
    return max(1, round(steps / per_epoch))


def run_once(data: dict, config: dict, *, run: int = 0, progress=None) -> RunResult:
    """One run: genetic search with DARTS, final PTN, both baselines, test CRPS."""
    if int(config["final_cycles"]) < 1:
        raise ValueError(f"final_cycles must be at least 1; got {config['final_cycles']!r}")
    seed = int(config["seed"]) + run
    w = data["windows"]
    c = int(config["n_quantiles"])
    timings = {}
    with _Threads(config["threads"]):
        tick = time.perf_counter()
        evaluate = make_evaluate(
            w["neural_train"],
            w["neural_val"],
            w["genetic_train"],
            w["genetic_val"],
            n_quantiles=c,
            epochs=config["epochs"],
            batch_size=LORENZ_PROTOCOL["batch_size"],
        )
        result = genetic_search(
            search_space(config),
            evaluate,
            population=config["population"],
            generations=config["generations"],
            patience=config["patience"],
            elite_every=config["elite_every"],
            n_elite=config["n_elite"],
            seed=seed,
            progress=progress,
        )
        timings["search"] = time.perf_counter() - tick

        agent = result.best.agent
        test = w["test"]
        model = PTN.from_data(agent, w["neural_train"], n_quantiles=c, seed=seed)
        tide = TiDE(n_quantiles=c, hidden=config["tide_hidden"], seed=seed)
        tide_epochs = tide_epochs_per_cycle(config, len(w["neural_train"]))
        budget, timings["final PTN"], timings["TiDE"] = [], 0.0, 0.0
        for cycle in range(config["final_cycles"]):
            cycle_seed = 1000 * seed + cycle
            tick = time.perf_counter()
            train_darts(
                model,
                w["neural_train"],
                w["neural_val"],
                epochs=config["final_epochs"],
                seed=cycle_seed,
                progress=False,
            )
            crps_ptn = evaluate_crps(model, test)
            timings["final PTN"] += time.perf_counter() - tick
            tick = time.perf_counter()
            train_quantile_model(
                tide,
                w["neural_train"],
                w["neural_val"],
                epochs=tide_epochs,
                seed=cycle_seed,
                progress=False,
            )
            crps_tide = evaluate_crps(tide, test)
            timings["TiDE"] += time.perf_counter() - tick
            budget.append(
                {
                    "cycle": cycle + 1,
                    "weight updates": (cycle + 1)
                    * config["final_epochs"]
                    * LORENZ_PROTOCOL["weight_steps"],
                    "PTN mean": crps_ptn.mean(),
                    "PTN median": np.median(crps_ptn),
                    "TiDE mean": crps_tide.mean(),
                    "TiDE median": np.median(crps_tide),
                }
            )
        operations = model.operation_weights()
        q_ptn = predict_quantiles(model, test)

    mae = lead_time_mae(w["neural_val"].deterministic, w["neural_val"].target)
    q_det = normal_quantiles(test.deterministic, mae, levels=crps_module.quantile_levels(c))
    crps_det = np.asarray(crps_module.crps(q_det, test.target), dtype=float)
    scores = pd.DataFrame({"PTN": crps_ptn, "Det.": crps_det, "TiDE": crps_tide})
    budget = pd.DataFrame(budget).assign(
        **{"Det. mean": crps_det.mean(), "Det. median": np.median(crps_det)}
    )
    return RunResult(
        run=run,
        seed=seed,
        search=result,
        history=search_history(result),
        agent=dict(agent),
        operations=operations,
        crps=scores,
        quantiles=q_ptn,
        seconds=timings,
        budget=budget.set_index("cycle"),
    )


def run_study(data: dict, config: dict, *, progress=None) -> list[RunResult]:
    """``config["runs"]`` runs of :func:`run_once`, ``config["n_jobs"]`` processes at a time.

    The runs are independent (each seeds itself from ``seed + r`` and sets its own torch
    thread count), so running them in parallel processes gives the numbers of a serial run;
    only the order in which they finish changes, and the list is in run order either way.
    Keep ``n_jobs × threads`` at or below the number of cores. With ``n_jobs > 1`` one bar
    counts finished runs (the workers' own bars would not reach the notebook).

    Examples
    --------
    >>> config = settings("fast", n_jobs=0)
    >>> run_study({}, config)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be a non-zero integer (-1 = all cores), got 0
    """
    n_jobs = check_n_jobs(config.get("n_jobs", 1))
    runs = range(int(config["runs"]))
    if n_jobs == 1 or len(runs) == 1:
        return [run_once(data, config, run=r, progress=progress) for r in runs]
    results = ordered_map(
        run_once, [((data, config), {"run": r, "progress": False}) for r in runs], n_jobs=n_jobs
    )
    disable = None if progress is None else not progress
    return list(tqdm(results, total=len(runs), desc="PTN runs", disable=disable))


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


def space_table(space: dict) -> pd.DataFrame:
    """The hyper-parameter space searched (Table 5.1's rows, as the code holds them)."""
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
                    "values": f"[{domain.low:g}, {domain.high:g}]",
                    "type": "range",
                    "ordered": "",
                    "log": domain.log,
                }
            )
    return pd.DataFrame(rows).set_index("gene")


def chosen_agents(runs: list[RunResult]) -> pd.DataFrame:
    """The best agent of each run's search (one column per run; numbers to 3 significant digits)."""

    def show(value):
        return f"{value:.3g}" if isinstance(value, float) else str(value)

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


def table_5_2_replication(runs: list[RunResult]) -> pd.DataFrame:
    """Table 5.2's chaos columns from the pooled test CRPS of all runs, beside the paper's.

    Skill scores are compared at two decimals, the percent improved at one.
    """
    pooled = _pooled(runs)
    ours = table_5_2(pooled["PTN"].to_numpy(), pooled["Det."].to_numpy(), pooled["TiDE"].to_numpy())
    rows = []
    for baseline, paper in TABLE_5_2_CHAOS.items():
        for key, label in (
            ("Q1", "Q1"),
            ("Q2", "Q2"),
            ("Q3", "Q3"),
            ("percent_improved", "percent_improved"),
        ):
            rows.append(
                {
                    "quantity": f"{baseline}: {label}",
                    "paper": paper[key],
                    "ours": float(ours.loc[label, baseline]),
                    "decimals": 1 if key == "percent_improved" else 2,
                }
            )
    return replication_table(rows)


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


def budget_table(runs: list[RunResult]) -> pd.DataFrame:
    """Test CRPS of PTN and TiDE after each final-training cycle, averaged over the runs.

    Shown to read the training budget, not used to pick anything (selection never sees test).
    """
    frames = [r.budget for r in runs if r.budget is not None]
    if not frames:
        raise ValueError("the runs carry no budget record")
    table = pd.concat(frames).groupby(level="cycle").mean()
    return table[
        [
            "weight updates",
            "PTN mean",
            "TiDE mean",
            "Det. mean",
            "PTN median",
            "TiDE median",
            "Det. median",
        ]
    ]


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


# ----------------------------------------------------------------------------- figures
def attractor_plot(
    data: dict, *, partition: str = "neural_train", system: int = 0, initial: int = 0, ax=None
):
    """Fig. 5.1: one trajectory in phase space, coloured by time (a 3-D axis)."""
    part = data["partitions"][partition]
    xyz = part.trajectories[system, initial]
    if ax is None:
        fig = plt.figure(figsize=(6, 5))
        ax = fig.add_subplot(projection="3d")
    points = ax.scatter(xyz[:, 0], xyz[:, 1], xyz[:, 2], c=part.times, s=2, cmap="viridis")
    ax.plot(xyz[:, 0], xyz[:, 1], xyz[:, 2], lw=0.3, color="0.4")
    sigma, rho, beta = part.params[system]
    ax.set_title(f"σ = {sigma:.2f}, ρ = {rho:.2f}, β = {beta:.3f}")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_zlabel("z")
    ax.figure.colorbar(points, ax=ax, shrink=0.6, pad=0.12, label="time")  # clear of the z label
    return ax


def search_plot(runs: list[RunResult], *, ax=None):
    """Validation fitness of every evaluated agent by generation, and the best so far."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    for r in runs:
        h = r.history
        jitter = 0.08 * (r.run - (len(runs) - 1) / 2)
        ax.scatter(h["generation"] + jitter, h["f_v"], s=18, alpha=0.7, label=f"run {r.run}")
        best = h.groupby("generation")["best_fv_so_far"].last()
        ax.plot(best.index + jitter, best.to_numpy(), lw=1)
    ax.set_xlabel("generation")
    ax.set_ylabel("f_v: mean CRPS on genetic_val")
    ax.set_xticks(sorted(set(pd.concat([r.history["generation"] for r in runs]))))
    ax.legend(fontsize=8)
    return ax


def interesting_forecasts(run: RunResult) -> dict:
    """Indices of a confident and of a multi-modal PTN test forecast (Figs. 5.5 and 5.6).

    Confident: the smallest mean 5–95 % quantile spread. Multi-modal: the largest gap
    between neighbouring sorted quantiles inside the central 80 %, relative to that range,
    among forecasts whose spread is above the median.
    """
    q = np.sort(run.quantiles, axis=-1)
    c = q.shape[-1]
    lo, hi = int(0.05 * c), int(0.95 * c) - 1
    spread = (q[..., hi] - q[..., lo]).mean(-1)
    inner = q[..., int(0.1 * c) : int(0.9 * c)]
    width = np.maximum(inner[..., -1] - inner[..., 0], 1e-12)
    gaps = (np.diff(inner, axis=-1).max(-1) / width).max(-1)
    gaps = np.where(spread >= np.median(spread), gaps, -np.inf)
    return {"confident": int(np.argmin(spread)), "multi-modal": int(np.argmax(gaps))}


def fan_chart(data: dict, run: RunResult, index: int, *, ax=None, title: str = ""):
    """PTN's quantiles of x over the 16 steps, the NVAR forecast, the history and the truth."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    w = data["windows"]["test"]
    inverse = data["normaliser"].inverse_channel
    q = inverse(np.sort(run.quantiles[index], axis=-1))
    c = q.shape[-1]
    steps = np.arange(1, q.shape[0] + 1)
    for k in range(c // 2):
        ax.fill_between(steps, q[:, k], q[:, c - 1 - k], color="tab:blue", alpha=1.6 / c, lw=0)
    ax.plot(steps, q[:, c // 2], color="tab:blue", lw=1, label="PTN median")
    ax.plot(steps, inverse(w.deterministic[index]), color="tab:red", lw=1.2, label="NVAR forecast")
    ax.plot(steps, inverse(w.target[index]), color="black", lw=1.5, label="truth")
    past = np.arange(-w.history.shape[1] + 1, 1)
    ax.plot(past, inverse(w.history[index, :, 0]), color="0.5", lw=1, label="history")
    ax.axvline(0.5, color="0.7", lw=0.8)
    ax.set_xlabel("step (0.1 time units)")
    ax.set_ylabel("x")
    score = run.crps.loc[index]
    ax.set_title(title or f"system {w.system[index]}, start {w.start[index]}, t = {w.t[index]}")
    ax.text(
        0.01,
        0.02,
        f"CRPS PTN {score['PTN']:.4f} · Normal {score['Det.']:.4f}",
        transform=ax.transAxes,
        fontsize=8,
    )
    ax.legend(fontsize=7, loc="upper left")
    return ax


def fan_explorer(data: dict, run: RunResult):
    """Widget: pick a test system, an initial condition and a time; see the fan chart."""
    import ipywidgets as widgets

    w = data["windows"]["test"]
    systems = sorted(set(w.system.tolist()))
    system = widgets.Dropdown(options=systems, value=systems[0], description="system")
    start = widgets.Dropdown(description="start")
    time_index = widgets.SelectionSlider(options=[0], description="t")
    image = widgets.Image(format="png", width=560)

    def set_starts(_=None):
        starts = sorted(set(w.start[w.system == system.value].tolist()))
        start.options = starts
        start.value = starts[0]

    def set_times(_=None):
        if start.value is None:
            return
        times = w.t[(w.system == system.value) & (w.start == start.value)].tolist()
        time_index.options = times
        time_index.value = times[len(times) // 2]

    def refresh(_=None):
        mask = (w.system == system.value) & (w.start == start.value) & (w.t == time_index.value)
        if not mask.any():
            return
        fig, ax = plt.subplots(figsize=(6, 3.5))
        fan_chart(data, run, int(np.flatnonzero(mask)[0]), ax=ax)
        image.value = figure_png(fig)

    system.observe(set_starts, names="value")
    start.observe(set_times, names="value")
    time_index.observe(refresh, names="value")
    set_starts()
    set_times()
    refresh()
    return widgets.VBox([widgets.HBox([system, start]), time_index, image])
