"""Chapter "How stable is a fairness verdict?": one verdict under many sources of variation.

Each paper of the book attacks the reliability of a fairness verdict from one side; this
chapter, the book's own contribution, puts them together on COMPAS and Adult with five model
families (logistic regression, random forest, the MLP of seed 004's FIT runs, seed 000's
BNN and a deep ensemble). The generic
part — verdict rules, flip rates, favoured-group agreement, flip rate against group size —
is :mod:`fairbook.variance.verdicts`; this package arranges the chapter by role:

* :mod:`~fairbook_book.chapters.verdict_stability.settings` — the profiles, rules, settings;
* :mod:`~fairbook_book.chapters.verdict_stability.runs` — predictions under every source and
  the values of every comparison (a :class:`~fairbook_book.recordings.Recordable`);
* :mod:`~fairbook_book.chapters.verdict_stability.results` — flip tables and the advice;
* :mod:`~fairbook_book.chapters.verdict_stability.replication` — none (no paper prints these);
* :mod:`~fairbook_book.chapters.verdict_stability.figures` — the heat map and the size curve;
* :mod:`~fairbook_book.chapters.verdict_stability.explorers` — the flip rate as the number
  of runs and the distance from the threshold move (a static chart and a live widget);
* :mod:`~fairbook_book.chapters.verdict_stability.key_results` — the chapter's answers in
  plain sentences, computed from its tables.

Every public name is importable from here.
"""

from .explorers import FlipGrid, flip_chart, flip_explorer, flip_grid, flip_law, simulate_flips
from .figures import plot_flip_heatmap, plot_size_curve, style_flips
from .key_results import key_results
from .replication import PAPER_SOURCES
from .results import (
    VERDICT_KEYS,
    advice,
    bnn_flip_table,
    fit_differences,
    flip_table,
    metric_disagreement,
    most_unstable,
    recorded,
    recorded_uncertainty_flips,
    recorded_uncertainty_values,
    size_needed,
    size_table,
    small_group_table,
    source_summary,
    training_settings_table,
    uncertainty_flip_summary,
    uncertainty_flip_table,
    uncertainty_flip_text,
    verdict_table,
)
from .runs import (
    BASE,
    RECORDINGS,
    SIZE_GROUPS,
    UNCERTAINTY_RECORDING,
    VERDICT_RECORDING,
    Dataset,
    build,
    load_dataset,
    predictions,
    run_unit,
    size_curve,
    uncertainty_table,
    uncertainty_values,
    units,
    verdict_values,
)
from .settings import (
    ATTRIBUTES,
    MODELS,
    PROFILES,
    REFERENCES,
    SEVEN_RULES,
    SOURCES,
    TRAINING_SETTINGS,
    rules,
    settings,
)

__all__ = [
    "ATTRIBUTES",
    "BASE",
    "Dataset",
    "FlipGrid",
    "MODELS",
    "PAPER_SOURCES",
    "PROFILES",
    "RECORDINGS",
    "REFERENCES",
    "SEVEN_RULES",
    "SIZE_GROUPS",
    "SOURCES",
    "TRAINING_SETTINGS",
    "UNCERTAINTY_RECORDING",
    "VERDICT_KEYS",
    "VERDICT_RECORDING",
    "advice",
    "bnn_flip_table",
    "build",
    "fit_differences",
    "flip_chart",
    "flip_explorer",
    "flip_grid",
    "flip_law",
    "flip_table",
    "key_results",
    "load_dataset",
    "metric_disagreement",
    "most_unstable",
    "plot_flip_heatmap",
    "plot_size_curve",
    "predictions",
    "recorded",
    "recorded_uncertainty_flips",
    "recorded_uncertainty_values",
    "rules",
    "run_unit",
    "settings",
    "simulate_flips",
    "size_curve",
    "size_needed",
    "size_table",
    "small_group_table",
    "source_summary",
    "style_flips",
    "training_settings_table",
    "uncertainty_flip_summary",
    "uncertainty_flip_table",
    "uncertainty_flip_text",
    "uncertainty_table",
    "uncertainty_values",
    "units",
    "verdict_table",
    "verdict_values",
]
