"""The chapter's two audits, by :func:`fairbook.audit.audit`."""

from __future__ import annotations

import pandas as pd

from fairbook.audit import AuditReport, audit

from .settings import COMPAS_REFERENCES

__all__ = ["adult_audit", "compas_audit"]


def compas_audit(frame: pd.DataFrame, *, alpha: float, min_gap: float) -> AuditReport:
    """Audit ProPublica's COMPAS scores by race, sex and age class against
    :data:`~fairbook.experiments.audit_your_model.settings.COMPAS_REFERENCES`, with the
    low-risk score's balance and calibration.

    Examples
    --------
    >>> from fairbook.experiments.audit_your_model.runs import compas_predictions
    >>> report = compas_audit(compas_predictions(), alpha=0.05, min_gap=0.05)  # doctest: +SKIP
    >>> report.reference["race"]  # doctest: +SKIP
    'Caucasian'
    """
    return audit(
        frame,
        groups=("race", "sex", "age_cat"),
        reference=dict(COMPAS_REFERENCES),
        score="low_risk_score",
        alpha=alpha,
        min_gap=min_gap,
    )


def adult_audit(frame: pd.DataFrame, *, alpha: float, min_gap: float) -> AuditReport:
    """Audit the Adult forests by race, sex and their intersections: the first forest's
    predictions, the spread of the verdicts over the forests (``pred_*``) and the
    uncertainty of their ensemble (``p_*``).
    """
    runs = sorted(c for c in frame.columns if c.startswith("pred_"))
    samples = sorted(c for c in frame.columns if c.startswith("p_"))
    return audit(
        frame,
        groups=("race", "sex"),
        intersections=True,
        runs=runs,
        samples=samples,
        alpha=alpha,
        min_gap=min_gap,
    )
