"""Chapter "Confusion matrices and the metric catalogue" (seed 003 ch. 2).

The chapter replicates seed 003's catalogue of single-matrix metrics (Tables 2.2–2.4,
with the formulas corrected where the printed ones are wrong) and shows where each metric
is undefined. The metrics themselves live in :mod:`fairbook.metrics`; this package
arranges them by role:

* :mod:`~fairbook_book.chapters.metric_catalogue.settings` — the (empty) profiles and the
  titles of the paper's three tables;
* :mod:`~fairbook_book.chapters.metric_catalogue.runs` — none (nothing is expensive);
* :mod:`~fairbook_book.chapters.metric_catalogue.results` — the corrected tables, the 18
  metrics of one matrix and the table of holes;
* :mod:`~fairbook_book.chapters.metric_catalogue.replication` — none (the paper prints
  formulas, not numbers);
* :mod:`~fairbook_book.chapters.metric_catalogue.figures` — none (no figure);
* :mod:`~fairbook_book.chapters.metric_catalogue.explorers` — the widget that edits one
  confusion matrix, and its static twin (a precomputed grid drawn as a chart that works
  without a kernel);
* :mod:`~fairbook_book.chapters.metric_catalogue.key_results` — the chapter's answers in
  plain sentences, computed from its tables (the Key results box at the top of the page).

Every public name is importable from here (``from fairbook_book.chapters import
metric_catalogue as catalogue; catalogue.hole_table(...)``).
"""

from .explorers import MetricGrid, metric_chart, metric_grid, metric_panel
from .key_results import key_results
from .replication import PAPER_SOURCES
from .results import catalogue_markdown, catalogue_table, hole_table, metric_values
from .settings import FAMILY_TITLES, PROFILES, settings

__all__ = [
    "FAMILY_TITLES",
    "MetricGrid",
    "PAPER_SOURCES",
    "PROFILES",
    "catalogue_markdown",
    "catalogue_table",
    "hole_table",
    "key_results",
    "metric_chart",
    "metric_grid",
    "metric_panel",
    "metric_values",
    "settings",
]
