"""Settings of chapter 06 "Are my models fair every time?" (seed 004, Qian et al.).

The profiles (``fast``: what CI and the book run; ``full``: more runs and every technique),
:func:`settings` (a profile plus the notebook's parameters), and the chapter's constants: the
seven metrics, the two tasks, the three run settings of the study, the training
hyper-parameters per task, and which of our runs plays each of the paper's Table 4 rows.
:func:`spec` and :func:`study_knobs` turn settings into what one run needs (a
:class:`~fairbook.variance.tasks.RunSpec`, the :class:`~fairbook.variance.determinism.Knobs`);
:func:`techniques_table` describes the techniques the settings choose.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook_book.chapters.profiles import choose_settings
from fairbook.metrics import BIAS_REPORT_METRICS
from fairbook.variance import debiasing
from fairbook.variance.determinism import Knobs
from fairbook.variance.tasks import RunSpec

__all__ = [
    "METRICS",
    "PROFILES",
    "SETTINGS_FIT",
    "SETTINGS_SEED",
    "SETTINGS_STRICT",
    "TABLE_4_ANALOGUES",
    "TASKS",
    "TASK_LABELS",
    "TASK_SETTINGS",
    "settings",
    "spec",
    "study_knobs",
    "techniques_table",
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


#: Our technique that plays each Table 4 row (task, technique).
TABLE_4_ANALOGUES = {
    "S-Base": ("digits_s", "base"),
    "S-RS": ("digits_s", "rebalance"),
    "S-GR": ("digits_s", "adversarial"),
    "S-DI2": ("digits_s", "domain_independent"),
    "A-Base": ("adult", "base"),
    "A-L2": ("adult", "penalty"),
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
    """The techniques: the paper's analogue, the metrics each targets, its weight per task.

    Examples
    --------
    >>> table = techniques_table(settings("fast"))
    >>> list(table.index[table["in this run"]])
    ['base', 'adversarial', 'penalty']
    """
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
    """The :class:`RunSpec` of one task × technique under ``config``.

    Examples
    --------
    >>> run_spec = spec("digits_s", "adversarial", settings("fast"))
    >>> run_spec.epochs, run_spec.lam
    (10, 0.1)
    """
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
    "permuted"``); on a GPU the real thing (cuDNN benchmark on, nondeterminism allowed).

    Examples
    --------
    >>> study_knobs(settings("fast")).sum_order
    'permuted'
    """
    device = config["device"]
    if device.startswith("cuda"):
        return Knobs(
            device=device,
            cudnn_benchmark=True,
            sum_order="permuted" if config["emulate"] else "fixed",
        )
    return Knobs(device=device, sum_order="permuted" if config["emulate"] else "fixed")
