"""Chapter "Audit your own model": the book's methods on a practitioner's predictions.

The chapter runs :func:`fairbook.audit.audit` — the tool behind ``fairbook audit`` — on two
models a reader can rebuild offline: ProPublica's COMPAS risk scores (every race, including
the groups of 31 and 11 people, sex and age class) and an Adult income model trained over
several seeds, whose forests serve both as repeated training runs (seed 004) and as the
members of an ensemble (seed 000). This package arranges it by role:

* :mod:`~fairbook.experiments.audit_your_model.settings` — the profiles;
* :mod:`~fairbook.experiments.audit_your_model.runs` — the two prediction tables;
* :mod:`~fairbook.experiments.audit_your_model.results` — the two audits;
* :mod:`~fairbook.experiments.audit_your_model.replication` — none (no paper prints these);
* :mod:`~fairbook.experiments.audit_your_model.figures` — none (the audit draws its own, in
  its HTML report);
* :mod:`~fairbook.experiments.audit_your_model.explorers` — none (the audit is the tool;
  run ``fairbook audit`` on other columns to explore).

Every public name is importable from here.
"""

from .replication import PAPER_SOURCES
from .results import adult_audit, compas_audit
from .runs import adult_seed_ensemble, compas_predictions
from .settings import COMPAS_REFERENCES, PROFILES, settings

__all__ = [
    "COMPAS_REFERENCES",
    "PAPER_SOURCES",
    "PROFILES",
    "adult_audit",
    "adult_seed_ensemble",
    "compas_audit",
    "compas_predictions",
    "settings",
]
