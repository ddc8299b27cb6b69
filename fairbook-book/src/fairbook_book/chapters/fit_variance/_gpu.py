"""Chapter 06 on a GPU: ``fairbook-book record 06 gpu``, seed 004's own setting.

Seed 004 ran its FIT runs on GPUs, where the nondeterminism comes from the hardware
(cuDNN's algorithm choice, atomic additions in parallel reductions) rather than from the
emulated scheduling the chapter uses on a CPU. This recording runs the chapter's Digits-S
task on CUDA: :data:`GPU_RUNS` FIT runs of the baseline and of the adversarial technique
with the default cuDNN settings (``fit``), and the baseline's runs with
``deterministic`` and ``cudnn_deterministic`` (``strict``), :data:`GPU_EPOCHS` epochs each —
the configuration measured on one NVIDIA H200 on 2026-11-26 outside the recordings (8
distinct final weights and a MaxDiff accuracy of 5.56 pp with the defaults, 8 identical
runs with the deterministic knobs; see the chapter). Each unit's provenance names the GPU
and the CUDA and driver versions (``kernels``).

On a machine without CUDA every unit refuses to run with one line; the recording stays
defined, and the chapter says that nothing is recorded yet.
"""

from __future__ import annotations

import pandas as pd

from fairbook_book.recordings import Recordable

from .runs import STUDY_RECORDING, study_unit

__all__ = ["GPU_EPOCHS", "GPU_RECORDING", "GPU_RUNS", "gpu_settings", "gpu_units"]

#: FIT runs per configuration and epochs per run (the H200 measurement's).
GPU_RUNS = 8
GPU_EPOCHS = 15


def gpu_settings(settings: dict) -> dict:
    """The chapter's settings at the GPU recording's scale (Digits-S, base and adversarial,
    :data:`GPU_RUNS` runs of :data:`GPU_EPOCHS` epochs, on ``cuda``, real scheduling).

    Examples
    --------
    >>> from fairbook_book.chapters.fit_variance.settings import settings
    >>> g = gpu_settings(settings("full"))
    >>> g["device"], g["emulate"], g["tasks"], g["n_runs"], g["epochs"]["digits_s"]
    ('cuda', False, ('digits_s',), 8, 15)
    """
    epochs = dict(settings.get("epochs", {}))
    epochs["digits_s"] = GPU_EPOCHS
    return {
        **settings,
        "tasks": ("digits_s",),
        "techniques": ("base", "adversarial"),
        "n_runs": GPU_RUNS,
        "epochs": epochs,
        "device": "cuda",
        "emulate": False,
    }


def gpu_units(settings: dict) -> list[str]:
    """``digits_s.<base|adversarial>.fit.rNN`` and ``digits_s.base.strict.rNN``.

    Examples
    --------
    >>> units = gpu_units({"n_runs": 2})
    >>> units
    ['digits_s.base.fit.r00', 'digits_s.base.fit.r01', 'digits_s.adversarial.fit.r00', 'digits_s.adversarial.fit.r01', 'digits_s.base.strict.r00', 'digits_s.base.strict.r01']
    """  # noqa: E501
    runs = range(int(settings["n_runs"]))
    units = [f"digits_s.{t}.fit.r{r:02d}" for t in ("base", "adversarial") for r in runs]
    return units + [f"digits_s.base.strict.r{r:02d}" for r in runs]


def gpu_unit(unit: str, settings: dict) -> pd.DataFrame:
    """One FIT run on the GPU (:func:`fairbook_book.chapters.fit_variance.runs.study_unit`).

    Raises
    ------
    ValueError
        On a machine without CUDA (one line: record on a machine with a GPU).
    """
    import torch

    if not torch.cuda.is_available():
        raise ValueError(
            "the gpu recording trains on CUDA and this machine has none: run "
            "`fairbook-book record 06 gpu` on a machine with an NVIDIA GPU"
        )
    return study_unit(unit, settings)


#: ``fairbook-book record 06 gpu``: the chapter's FIT runs on a GPU (module docstring).
GPU_RECORDING = Recordable(
    name="gpu",
    units=gpu_units,
    run=gpu_unit,
    # the study's code, and this module's settings
    depends=(*STUDY_RECORDING.depends, "fairbook_book.chapters.fit_variance._gpu"),
    parameters=STUDY_RECORDING.parameters,
    description="seed 004's setting: Digits-S FIT runs on a GPU, default and deterministic "
    "cuDNN (8 runs of 15 epochs)",
    prepare=gpu_settings,
)
