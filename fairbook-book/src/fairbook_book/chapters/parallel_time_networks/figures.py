"""Chapter 08 (seed 003 ch. 5, PTN): the attractor, the search, the fan charts."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .runs import RunResult

#: Font sizes of legends and annotations, in points: a figure at most 9 inches wide is
#: shown about 800 px wide, where 10 pt is 11 px (the book's floor for text in a figure is
#: 9 px; matplotlib's default for the other texts is 10 pt).
_LEGEND_PT = 10
_TEXT_PT = 10

__all__ = [
    "attractor_plot",
    "decisive_curves_plot",
    "decisive_operations_plot",
    "fan_chart",
    "interesting_forecasts",
    "search_plot",
    "training_curves_plot",
    "wall_time_curves_plot",
]


# ----------------------------------------------------------------------------- figures
def attractor_plot(
    data: dict, *, partition: str = "neural_train", system: int = 0, initial: int = 0, ax=None
):
    """Fig. 5.1: one trajectory in phase space, coloured by time (a 3-D axis).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> part = SimpleNamespace(trajectories=np.ones((1, 1, 5, 3)) * np.arange(5)[:, None],
    ...                        times=np.arange(5.0), params=np.array([[10.0, 28.0, 8 / 3]]))
    >>> attractor_plot({"partitions": {"neural_train": part}}).get_title()
    'σ = 10.00, ρ = 28.00, β = 2.667'
    """
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
    ax.legend(fontsize=_LEGEND_PT)
    return ax


def training_curves_plot(runs: list[RunResult], *, subspace: str = "history", axes=None):
    """The final networks' training, epoch by epoch, against weight updates.

    Left: PTN's training loss (ordered CRPS of the weight phase) against the PTN test CRPS
    after each cycle and the Normal baseline's (dashed), per run; TiDE's test CRPS after
    each cycle as crosses. Right: the DARTS operation weights of one ``subspace`` over the
    same updates (per run; 1/3 each is the uniform start). Returns the two axes.
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(9, 3.8), layout="constrained")
    loss_ax, op_ax = axes
    for r in runs:
        if r.curves is None:
            raise ValueError("the runs carry no training curves")
        c, b = r.curves, r.budget
        (line,) = loss_ax.plot(c["weight updates"], c["train_loss"], lw=0.8, alpha=0.6)
        colour = line.get_color()
        loss_ax.plot(
            b["weight updates"], b["PTN mean"], "o-", color=colour, label=f"PTN, run {r.run}"
        )
        loss_ax.plot(b["weight updates"], b["TiDE mean"], "x", color=colour, ms=8)
        loss_ax.axhline(b["Det. mean"].iloc[0], color=colour, ls="--", lw=0.8)
        for column in [k for k in c if k.startswith(f"weight:{subspace}/")]:
            op_ax.plot(
                c["weight updates"], c[column], lw=1, label=f"{column.split('/')[1]}, run {r.run}"
            )
    loss_ax.set_xlabel("weight updates of the final network")
    loss_ax.set_ylabel("CRPS (line: training loss)")
    loss_ax.legend(fontsize=_LEGEND_PT)
    op_ax.set_xlabel("weight updates of the final network")
    op_ax.set_ylabel(f"operation weight ({subspace})")
    # below the panel: six lines of a few thousandths' difference leave no room inside it
    op_ax.legend(
        fontsize=_LEGEND_PT, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False
    )
    return axes


def wall_time_curves_plot(runs: list[RunResult], *, ax=None):
    """Learning curves against wall time: the test CRPS of PTN (dots) and TiDE (crosses)
    after each final-training cycle against the seconds each has spent training and
    scoring so far, per run, with the Normal baseline's CRPS (dashed), which costs no
    training. Where PTN's curve lies above TiDE's at equal seconds, TiDE buys more with the
    same compute. Returns the axis.

    Examples
    --------
    >>> wall_time_curves_plot.__doc__.split(":")[0]  # needs runs; the chapter calls it
    'Learning curves against wall time'
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6))
    for r in runs:
        b = r.budget
        if b is None or "PTN seconds" not in b:
            raise ValueError("the runs carry no wall-time record (rerun them with today's code)")
        (line,) = ax.plot(b["PTN seconds"], b["PTN mean"], "o-", label=f"PTN, run {r.run}")
        colour = line.get_color()
        ax.plot(b["TiDE seconds"], b["TiDE mean"], "x--", color=colour, ms=8, lw=0.8)
        ax.axhline(b["Det. mean"].iloc[0], color=colour, ls=":", lw=0.8)
    ax.set_xlabel("wall seconds of final training and scoring (cumulative)")
    ax.set_ylabel("test CRPS (mean)")
    ax.set_title("PTN (dots) and TiDE (crosses) against time; Normal baseline dotted")
    ax.legend(fontsize=_LEGEND_PT)
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
        fontsize=_TEXT_PT,
    )
    ax.legend(fontsize=_LEGEND_PT, loc="upper left")
    return ax


def decisive_curves_plot(curves: pd.DataFrame, *, axes=None):
    """Learning curves of the decisive recording (:func:`~.results.decisive_curves`): the
    mean test CRPS of PTN (searched and, dashed, without search), TiDE and the Normal
    baseline after every phase, against weight updates (left) and against the wall seconds
    each model has used (right). Lines are medians over runs, bands their range.

    Examples
    --------
    >>> curves = pd.DataFrame({"search": [True, True], "run": [0, 0], "cycle": [1, 2],
    ...     "phase": ["cycle", "cycle"], "weight updates": [300, 600],
    ...     "PTN seconds": [10.0, 20.0], "TiDE seconds": [1.0, 2.0], "PTN": [0.3, 0.2],
    ...     "TiDE": [0.25, 0.2], "Det.": [0.15, 0.15]})
    >>> axes = decisive_curves_plot(curves)
    >>> axes[0].get_xlabel()
    'weight updates of the final network'
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(9, 4), sharey=True)
    if curves.empty:
        axes[0].set_title("the decisive profile is not recorded yet")
        return axes
    lines = [
        ("PTN", True, "PTN (searched)", "C0", "-"),
        ("PTN", False, "PTN (random agent, no search)", "C0", "--"),
        ("TiDE", True, "TiDE", "C1", "-"),
    ]
    for ax, x_of in zip(axes, ("updates", "seconds"), strict=True):
        for model, search, label, color, style in lines:
            rows = curves[curves["search"] == search]
            if rows.empty:
                continue
            x_column = "weight updates" if x_of == "updates" else f"{model} seconds"
            by_cycle = rows.groupby("cycle")
            x = by_cycle[x_column].median()
            y = by_cycle[model]
            ax.plot(x, y.median(), style, color=color, marker="o", ms=3, label=label)
            ax.fill_between(x, y.min(), y.max(), color=color, alpha=0.15 if search else 0.07)
        normal = curves.loc[curves["search"], "Det."].median()
        ax.axhline(normal, color="0.3", ls=":", label="Normal baseline (Det.)")
        ax.set_xlabel(
            "weight updates of the final network"
            if x_of == "updates"
            else "wall seconds of the model's final training\nand scoring (median over runs)"
        )
    axes[0].legend(fontsize=_LEGEND_PT)  # one legend: both panels draw the same lines
    axes[0].set_ylabel("test CRPS (mean over windows)")
    axes[0].set_title("against updates (the last point is the warm start)", fontsize=_TEXT_PT)
    axes[1].set_title("against the wall time each model used", fontsize=_TEXT_PT)
    return axes


def decisive_operations_plot(recording, *, axes=None):
    """DARTS operation weights of the decisive recording's searched final networks, epoch
    by epoch (median over runs, band: range), one panel per mixed layer. Equal weights
    (1/3, 1/2) mean the architecture search inside the network has not chosen.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> frame = pd.DataFrame({"kind": ["epoch"] * 2, "search": [True] * 2, "run": [0, 0],
    ...     "weight updates": [10, 20], "weight:history/attention": [0.5, 0.6],
    ...     "weight:history/conv1d": [0.5, 0.4]})
    >>> axes = decisive_operations_plot(Recording("08", "decisive", frame))
    >>> axes[0].get_title()
    'history'
    """
    epochs = recording.frame
    if epochs.empty:
        if axes is None:
            _, axes = plt.subplots(figsize=(4, 3))
        axes = np.atleast_1d(axes)
        axes[0].set_title("the decisive profile is not recorded yet")
        return axes
    epochs = epochs[(epochs["kind"] == "epoch") & epochs["search"].astype(bool)]
    columns = [c for c in epochs.columns if c.startswith("weight:") and epochs[c].notna().any()]
    subspaces = list(dict.fromkeys(c.split(":", 1)[1].split("/")[0] for c in columns))
    if axes is None:
        width = min(9.0, 3.0 * len(subspaces))  # reading size: at most 9 inches wide
        _, axes = plt.subplots(1, len(subspaces), figsize=(width, 3.2), sharey=True)
    axes = np.atleast_1d(axes)
    for k, (ax, subspace) in enumerate(zip(axes, subspaces, strict=True)):
        for i, column in enumerate(c for c in columns if c.startswith(f"weight:{subspace}/")):
            by_update = epochs.groupby("weight updates")[column]
            x = by_update.median().index
            ax.plot(x, by_update.median(), color=f"C{i}", label=column.split("/")[-1])
            ax.fill_between(x, by_update.min(), by_update.max(), color=f"C{i}", alpha=0.15)
        ax.set_title(subspace)
        # one x label under the middle panel: three would run into each other
        ax.set_xlabel("weight updates of the final network" if k == len(axes) // 2 else "")
        ax.legend(fontsize=_LEGEND_PT)
    axes[0].set_ylabel("operation weight softmax(α)")
    return axes
