"""Chapter 08 (seed 003 ch. 5, PTN): tables from the runs (no paper numbers)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.forecasting import crps as crps_module
from fairbook.forecasting.baselines import (
    lead_time_mae,
)
from fairbook.forecasting.skill import percent_improved, skill_quartiles
from fairbook.forecasting.space import Choice
from fairbook.papers.seed003 import PTN_COST, TABLE_5_2_CHAOS

from .runs import RunResult

__all__ = [
    "budget_table",
    "chosen_agents",
    "cost_table",
    "crps_check",
    "nvar_error_table",
    "operation_table",
    "partition_table",
    "per_run_table",
    "space_table",
    "summary_markdown",
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
