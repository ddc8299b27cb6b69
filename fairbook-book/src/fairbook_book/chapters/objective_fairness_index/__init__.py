"""Chapter "The Objective Fairness Index" (seed 003 ch. 3): every computation it shows.

The chapter replicates seed 003's chapter 3: the worked scenarios of Tables 3.1 and 3.3
(OFI against DI, TE and DCA), Table 3.2's desirable properties of the bias metrics (checked
by exhaustive enumeration), COMPAS by race (Fig. 3.2) and Folktables employment (Fig. 3.3;
the book runs an offline stand-in on UCI Adult). The metrics live in :mod:`fairbook.metrics`,
the shared prediction sets in :mod:`fairbook.data.predictions`; this package arranges the
chapter by role:

* :mod:`~fairbook_book.chapters.objective_fairness_index.settings` — the profiles
  (:data:`PROFILES`, :func:`settings`);
* :mod:`~fairbook_book.chapters.objective_fairness_index.runs` — the Fig. 3.3 models (the
  Adult stand-in, and the paper's Folktables setting for readers with internet);
* :mod:`~fairbook_book.chapters.objective_fairness_index.results` — pairwise scores, how
  often DI and OFI agree, and the counterexamples of Table 3.2;
* :mod:`~fairbook_book.chapters.objective_fairness_index.replication` — the paper's numbers
  beside ours (``<table>_replication``);
* :mod:`~fairbook_book.chapters.objective_fairness_index.figures` — none of its own (the
  heat maps are :func:`fairbook_book.plots.pairwise_heatmap`);
* :mod:`~fairbook_book.chapters.objective_fairness_index.explorers` — the static pair
  explorer (a precomputed grid drawn as a chart that works without a kernel); the live
  widget is the generic :func:`fairbook_book.widgets.pair_explorer`;
* :mod:`~fairbook_book.chapters.objective_fairness_index.key_results` — the chapter's
  answers in plain sentences, computed from its tables (:func:`key_results`).

Every public name is importable from here (``from fairbook_book.chapters import
objective_fairness_index as ofi; ofi.table_3_1_replication()``).
"""

from .explorers import comparison_chart, comparison_grid
from .key_results import key_results
from .replication import (
    PAPER_SOURCES,
    fig_3_2_replication,
    fig_3_3_over_seeds,
    fig_3_3_replication,
    table_3_1_replication,
    table_3_2_replication,
    table_3_3_replication,
)
from .results import (
    benefit_table,
    counterexample_table,
    direction_agreement,
    favour_counts,
    firefighter_scenarios,
    pairwise_scores,
)
from .runs import (
    ADULT_RECORDING,
    RECORDINGS,
    adult_counts,
    adult_recorded_unit,
    adult_recorded_units,
    folktables_employment_predictions,
    recorded_counts,
)
from .settings import PROFILES, settings

__all__ = [
    "ADULT_RECORDING",
    "PAPER_SOURCES",
    "PROFILES",
    "RECORDINGS",
    "adult_counts",
    "adult_recorded_unit",
    "adult_recorded_units",
    "benefit_table",
    "comparison_chart",
    "comparison_grid",
    "counterexample_table",
    "direction_agreement",
    "favour_counts",
    "fig_3_2_replication",
    "fig_3_3_over_seeds",
    "fig_3_3_replication",
    "firefighter_scenarios",
    "folktables_employment_predictions",
    "key_results",
    "pairwise_scores",
    "recorded_counts",
    "settings",
    "table_3_1_replication",
    "table_3_2_replication",
    "table_3_3_replication",
]
