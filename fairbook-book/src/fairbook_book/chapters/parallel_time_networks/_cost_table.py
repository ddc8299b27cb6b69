"""Chapter 08: what the search costs on a CPU and on a GPU, side by side.

The CPU column comes from the ``cost`` recording (:func:`.results.cost_extrapolation`). The
GPU column comes from the ``cost-cuda`` recording whenever one exists
(``fairbook-book record 08 cost --device cuda`` on a machine with a GPU: the same units and code
as ``cost``, in a folder of its own, :func:`fairbook.devices.on_device`). Until then it is
filled from :data:`GPU_MEASURED`, one measurement **made outside the recordings** and quoted
with its provenance (:data:`GPU_SOURCE`): it gives the DARTS epoch only, so only the
search's training is filled and the other stages say "not measured".

A ``cost-cuda`` unit times with the same code as ``cost``: ``time.process_time`` of the
host process, which counts the CPU's waits for the GPU where the code synchronises (every
loss read back), not the GPU's work in between; its provenance names the GPU (``kernels``).

Not fingerprinted by any recording (it computes no recorded number), so it can change
without making a recording stale.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook.devices import on_device
from fairbook_book.recordings import Recording, load

from .runs import COST_RECORDING

__all__ = [
    "GPU_COST_RECORDING",
    "GPU_MEASURED",
    "GPU_SOURCE",
    "cost_side_by_side",
    "gpu_cost_markdown",
    "gpu_cost_recording",
]

_CHAPTER = "08_parallel_time_networks"

#: Seconds of one DARTS epoch of a PTN candidate on one NVIDIA H200, by hidden size, with
#: this repository's ``fairbook.forecasting`` code; and that machine's CPU at ``d = 72``.
GPU_MEASURED = {
    "epoch_seconds": {72: 0.26, 240: 0.25},
    "cpu_epoch_cpu_seconds": {72: 4.27},
    "gpu": "one NVIDIA H200",
}

#: Where :data:`GPU_MEASURED` comes from (quoted wherever it is shown).
GPU_SOURCE = (
    "measured outside the recordings on one NVIDIA H200, reported in issue #38 "
    "(first read 2026-11-26)"
)

#: ``fairbook-book record 08 cost --device cuda``: the cost recording's units on a GPU.
GPU_COST_RECORDING = on_device(COST_RECORDING, "cuda")


def gpu_cost_recording(config: dict, *, root=None) -> Recording:
    """The ``cost-cuda`` recording at ``config``'s parameters, on ``cuda``.

    Examples
    --------
    >>> import tempfile
    >>> from fairbook_book.chapters.parallel_time_networks import settings
    >>> gpu_cost_recording(settings("full"), root=tempfile.mkdtemp()).empty
    True
    """
    return load(_CHAPTER, GPU_COST_RECORDING, settings={**config, "device": "cuda"}, root=root)


def _measured_frame() -> pd.DataFrame:
    """:data:`GPU_MEASURED` as rows of ``stage_costs`` (the windows not measured: NaN)."""
    sizes = sorted(GPU_MEASURED["epoch_seconds"])
    return pd.DataFrame(
        {
            "hidden_size": sizes,
            "epoch_cpu_seconds": [GPU_MEASURED["epoch_seconds"][d] for d in sizes],
            "window_cpu_seconds": np.nan,
            "tide_step_cpu_seconds": np.nan,
            "tide_window_cpu_seconds": np.nan,
        }
    )


def cost_side_by_side(
    cpu: pd.DataFrame, config: dict, *, recording: Recording | None = None
) -> tuple[pd.DataFrame, str]:
    """The CPU hours of :func:`.results.cost_extrapolation` beside the GPU hours of the
    same stages, and where the GPU column comes from.

    Parameters
    ----------
    cpu : DataFrame
        ``cost_extrapolation`` of the ``cost`` recording (columns ``CPU hours``, ``what``).
    config : dict
        The profile.
    recording : Recording, optional
        The ``cost-cuda`` recording; used when it has units and is not stale, otherwise
        the GPU column is :data:`GPU_MEASURED`'s (the search's training only; NaN where
        not measured).

    Returns
    -------
    (DataFrame, str)
        Columns ``CPU hours``, ``GPU hours``, ``what`` (the CPU table's index), and the
        GPU column's source.

    Examples
    --------
    >>> cpu = pd.DataFrame({"CPU hours": [2.0, 1.0], "what": ["a", "b"]},
    ...                    index=["search: training", "search: scoring"])
    >>> config = {"population": 2, "generations": 1, "epochs": 3600, "hidden_sizes": (72,),
    ...           "final_cycles": 1, "final_epochs": 1, "warm_start": 0, "warm_epochs": 0,
    ...           "runs": 1, "n_systems": 1, "n_initial": 1, "stride": 1000,
    ...           "score_windows": None}
    >>> table, source = cost_side_by_side(cpu, config)
    >>> round(float(table.loc["search: training", "GPU hours"]), 2)
    0.52
    >>> bool(np.isnan(table.loc["search: scoring", "GPU hours"])), source[:22]
    (True, 'measured outside the r')
    """
    from .results import cost_extrapolation

    if cpu.empty:
        return pd.DataFrame(columns=["CPU hours", "GPU hours", "what"]), ""
    if recording is not None and not recording.empty and not recording.stale:
        gpu = cost_extrapolation(recording.frame, config)["CPU hours"]
        source = (
            f"the cost-cuda recording ({len(recording.provenance)} unit(s), {recording.dates}, "
            f"{'; '.join(recording.signatures)})"
        )
    else:
        gpu = cost_extrapolation(_measured_frame(), config)["CPU hours"]
        gpu = gpu.where(gpu.index == "search: training")  # only the epochs were measured
        source = GPU_SOURCE
    table = cpu[["CPU hours"]].assign(**{"GPU hours": gpu.reindex(cpu.index)})
    return table.assign(what=cpu["what"]), source


def _hours(value: float) -> str:
    return "not measured" if not np.isfinite(value) else f"{value:,.1f}"


def gpu_cost_markdown(cpu: pd.DataFrame, config: dict, *, root=None) -> str:
    """The CPU and GPU hours of one run of ``config`` as a Markdown table with a sentence
    that says where the GPU column comes from ("" when the CPU costs are not recorded).

    Examples
    --------
    >>> gpu_cost_markdown(pd.DataFrame(), {})
    ''
    """
    if cpu.empty:
        return ""
    recording = gpu_cost_recording(config, root=root)
    table, source = cost_side_by_side(cpu, config, recording=recording)
    rows = [
        "| stage | CPU hours | GPU hours |",
        "|---|---:|---:|",
        *(
            f"| {stage} | {_hours(row['CPU hours'])} | {_hours(row['GPU hours'])} |"
            for stage, row in table.iterrows()
        ),
    ]
    measured = source == GPU_SOURCE
    if measured:
        d = sorted(GPU_MEASURED["epoch_seconds"])
        epochs = " and ".join(f"{GPU_MEASURED['epoch_seconds'][x]:.2f} s at d = {x}" for x in d)
        cpu_72 = GPU_MEASURED["cpu_epoch_cpu_seconds"][72]
        text = (
            f"On a GPU, one DARTS epoch took {epochs}, {source} (that machine's CPU took "
            f"{cpu_72:.2f} CPU-s at d = 72). Only the epoch was measured, so the GPU column "
            "fills the search's training alone; `fairbook-book record 08 cost --device cuda` on "
            "a machine with a GPU records every stage, and this table then shows it."
        )
    else:
        text = f"The GPU column comes from {source}: seconds of the host process per stage."
    return text + "\n\n" + "\n".join(rows)
