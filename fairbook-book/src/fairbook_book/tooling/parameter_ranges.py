"""The range or choices of every chapter parameter, checked before a chapter runs.

``fairbook-book run 02 -p seed -1`` used to run the chapter for 16 s and then fail inside
numpy; a group name that is not a group failed late with a bare ``KeyError``. Every parameter
of a chapter's parameters cell now has an entry here — by name for the parameters many
chapters share (seeds, counts, levels), by chapter for the rest — and
:func:`fairbook_book.tooling.chapters.coerce_parameters` checks each value against it before
anything runs; ``fairbook-book chapters`` prints them. ``None`` (the profile's default) is
always allowed where the cell's default is ``None``. A test holds that every parameter of
every chapter has an entry.

Examples
--------
>>> rule_for("02_objective_fairness_index", "seed").describe()
'an integer from 0 to 4,294,967,295'
>>> rule_for("02_objective_fairness_index", "seed").check(-1)
Traceback (most recent call last):
...
ValueError: -1 is not an integer from 0 to 4,294,967,295
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

from fairbook.papers import seed003

__all__ = [
    "ADULT_RACES",
    "BY_CHAPTER",
    "BY_NAME",
    "CPS_GROUPS",
    "Choices",
    "Counts",
    "Range",
    "Text",
    "rule_for",
]


@dataclass(frozen=True)
class Range:
    """A number from ``low`` to ``high`` (both included); ``integer`` for whole numbers."""

    low: float
    high: float
    integer: bool = True

    def describe(self) -> str:
        if self.integer:
            return f"an integer from {int(self.low):,} to {int(self.high):,}"
        return f"a number from {self.low:g} to {self.high:g}"

    def check(self, value: Any) -> None:
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        ok = ok and math.isfinite(value) and self.low <= value <= self.high
        if self.integer:
            ok = ok and isinstance(value, numbers.Integral)
        if not ok:
            raise ValueError(f"{value!r} is not {self.describe()}")


@dataclass(frozen=True)
class Choices:
    """One of a fixed set of values."""

    values: tuple

    def describe(self) -> str:
        return "one of " + ", ".join(map(repr, self.values))

    def check(self, value: Any) -> None:
        if value not in self.values:
            raise ValueError(f"{value!r} is not {self.describe()}")


@dataclass(frozen=True)
class Counts:
    """A list of ``length`` whole numbers, each at least 0 (a confusion matrix)."""

    length: int

    def describe(self) -> str:
        return f"a list of {self.length} whole numbers, each >= 0 ([TP, FN, FP, TN])"

    def check(self, value: Any) -> None:
        ok = isinstance(value, list | tuple) and len(value) == self.length
        ok = ok and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 0 for v in value
        )
        if not ok:
            raise ValueError(f"{value!r} is not {self.describe()}")


@dataclass(frozen=True)
class Text:
    """Free text (a model id, a file, a list the chapter parses itself)."""

    what: str

    def describe(self) -> str:
        return self.what

    def check(self, value: Any) -> None:
        if not isinstance(value, str):
            raise ValueError(f"{value!r} is not text ({self.what})")


_SEED = Range(0, 2**32 - 1)  # numpy's and torch's seeds alike
_COUNT = Range(1, 10_000_000)
_SHARE = Range(0, 1, integer=False)

#: The race groups of UCI Adult (its codebook's ``race`` values), the groups of Fig. 4.1.
ADULT_RACES = ("White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other")

#: The groups of chapter 03's CPS experiment (``small_groups.cps_groups``): the two COMPAS
#: groups of Sec. 4.6.2, from our loader and as published, and Adult's race groups.
CPS_GROUPS = (
    *(
        f"COMPAS ({source}): {group}"
        for source in ("ours", "published")
        for group in seed003.COMPAS_CPS_MATRICES
        if group != "all"
    ),
    *(f"Adult: {race}" for race in ADULT_RACES),
)

#: Parameters with one meaning wherever they occur.
BY_NAME: dict[str, Any] = {
    "seed": _SEED,
    "data_seed": _SEED,
    "n_estimators": Range(1, 100_000),
    "n_runs": Range(2, 10_000),
    "n_seeds": Range(1, 10_000),
    "n_jobs": Range(1, 4_096),
    "threads": Range(1, 4_096),
    "epochs": _COUNT,
    "alpha": Range(1e-12, 0.5, integer=False),
    "min_gap": Range(1e-6, 1, integer=False),
    "min_group_size": Range(0, 10_000_000),
}

#: Parameters of one chapter.
BY_CHAPTER: dict[tuple[str, str], Any] = {
    ("01_metric_catalogue", "example_cm"): Counts(4),
    ("02_objective_fairness_index", "n_max"): Range(1, 60),
    ("03_small_groups", "fig41_group"): Choices(ADULT_RACES),
    ("03_small_groups", "cps_group"): Choices(CPS_GROUPS),
    ("03_small_groups", "cps_draws"): _COUNT,
    ("04_uncertainty_fairness", "sd_seeds"): Range(1, 1_000),
    ("04_uncertainty_fairness", "real_seeds"): Range(1, 1_000),
    ("04_uncertainty_fairness", "T"): Range(1, 10_000),
    ("04_uncertainty_fairness", "k"): Range(1, 1_000),
    ("04_uncertainty_fairness", "prior_sigma1"): Range(1e-3, 100, integer=False),
    ("04_uncertainty_fairness", "setting"): Choices(
        ("chapter", "paper", "overconfident", *(f"f{i:02d}" for i in range(8)))
    ),
    ("05_ucerf", "n_pairs"): Range(1, 1_584),
    ("05_ucerf", "batch_size"): Range(1, 4_096),
    ("05_ucerf", "model"): Text('a Hugging Face id or a folder ("": SmolLM2-135M)'),
    ("05_ucerf", "models"): Text("comma-separated Hugging Face ids"),
    ("05_ucerf", "synthbias_file"): Text("a path to synthbias_data.csv"),
    ("05_ucerf", "synthbias_pairs"): _COUNT,
    ("06_fit_variance", "techniques"): Text("comma-separated technique names"),
    ("06_fit_variance", "device"): Choices(("cpu", "cuda")),
    ("06_fit_variance", "backend"): Choices(("loky", "sequential", "dask", "ray")),
    ("06_fit_variance", "scheduler"): Text('"", "local" or tcp://HOST:PORT'),
    ("07_conditional_hydragan", "n_train"): Range(100, 30_162),
    ("07_conditional_hydragan", "diversity_weight"): Range(0, 1e6, integer=False),
    ("07_conditional_hydragan", "target"): Choices(("uniform", "empirical")),
    ("07_conditional_hydragan", "critic_conditioned"): Choices((True, False)),
    ("08_parallel_time_networks", "runs"): Range(1, 1_000),
    ("08_parallel_time_networks", "population"): Range(2, 10_000),
    ("08_parallel_time_networks", "generations"): Range(1, 10_000),
    ("08_parallel_time_networks", "final_epochs"): _COUNT,
    ("08_parallel_time_networks", "final_cycles"): Range(1, 1_000),
    ("08_parallel_time_networks", "n_systems"): Range(1, 100_000),
    ("08_parallel_time_networks", "n_initial"): Range(1, 100_000),
    ("08_parallel_time_networks", "score_windows"): _COUNT,
    ("08_parallel_time_networks", "warm_start"): _SHARE,
    ("08_parallel_time_networks", "device"): Choices(("cpu", "cuda")),
    ("09_audit_your_model", "adult_seeds"): Range(1, 1_000),
    ("10_verdict_stability", "n_boot"): Range(2, 100_000),
    ("10_verdict_stability", "di_threshold"): Range(1e-3, 1, integer=False),
    ("10_verdict_stability", "gap_threshold"): Range(0, 1, integer=False),
    ("10_verdict_stability", "size_draws"): _COUNT,
    # the exact sums cost (n + 1)(N + 1) tables per group size: 20,000 keeps a run in minutes
    ("11_small_group_tests", "reference_size"): Range(1, 20_000),
    ("11_small_group_tests", "n_datasets"): Range(10, 1_000_000),
    ("11_small_group_tests", "n_sims"): Range(10, 1_000_000),
}


def rule_for(chapter: str, name: str):
    """The range or choices of ``name`` in ``chapter`` (None for ``profile``, which the
    chapters' own profiles decide, and for a parameter without an entry)."""
    return BY_CHAPTER.get((chapter, name), BY_NAME.get(name))
