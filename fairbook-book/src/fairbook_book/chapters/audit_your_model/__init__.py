"""Chapter "Audit your own model": the book's methods on a practitioner's predictions.

The chapter runs :func:`fairbook.audit.audit` — the tool behind ``fairbook audit`` — on two
models a reader can rebuild offline: ProPublica's COMPAS risk scores (every race, including
the groups of 31 and 11 people, sex and age class) and an Adult income model trained over
several seeds, whose forests serve both as repeated training runs (seed 004) and as the
members of an ensemble (seed 000). This package arranges it by role:

* :mod:`~fairbook_book.chapters.audit_your_model.settings` — the profiles;
* :mod:`~fairbook_book.chapters.audit_your_model.runs` — the two prediction tables;
* :mod:`~fairbook_book.chapters.audit_your_model.results` — the two audits, and the tables and
  sentences the chapter shows of them;
* :mod:`~fairbook_book.chapters.audit_your_model.replication` — none (no paper prints these);
* :mod:`~fairbook_book.chapters.audit_your_model.figures` — none (the audit draws its own, in
  its HTML report);
* :mod:`~fairbook_book.chapters.audit_your_model.explorers` — the groups the audit calls too
  small as α and the minimum gap move (a static chart and a live widget);
* :mod:`~fairbook_book.chapters.audit_your_model.key_results` — what the two audits find, in
  plain sentences.

Every public name is importable from here.
"""

from .explorers import SmallGroupGrid, small_group_chart, small_group_explorer, small_group_grid
from .key_results import key_results
from .replication import PAPER_SOURCES
from .results import (
    AuditSummary,
    adult_audit,
    audit_counts,
    audit_summary,
    comparisons_table,
    compas_audit,
    flip_patterns,
    flips_table,
    group_counts,
    group_rates,
    small_groups,
    survivors,
    uncertainty_table,
)
from .runs import adult_seed_ensemble, compas_predictions
from .settings import COMPAS_REFERENCES, PROFILES, settings

__all__ = [
    "AuditSummary",
    "COMPAS_REFERENCES",
    "PAPER_SOURCES",
    "PROFILES",
    "SmallGroupGrid",
    "adult_audit",
    "adult_seed_ensemble",
    "audit_counts",
    "audit_summary",
    "comparisons_table",
    "compas_audit",
    "compas_predictions",
    "flip_patterns",
    "flips_table",
    "group_counts",
    "group_rates",
    "key_results",
    "settings",
    "small_group_chart",
    "small_group_explorer",
    "small_group_grid",
    "small_groups",
    "survivors",
    "uncertainty_table",
]
