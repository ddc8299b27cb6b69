"""Audit a user's own predictions with the book's methods (``fairbook audit FILE``).

The input is a table with one row per person: a true label, a predicted label, one or more
group columns, and optionally a score, the predictions of several training runs and the
probabilities of several posterior samples or ensemble members. :func:`audit` (a DataFrame)
and :func:`audit_file` (a CSV or Parquet file) validate their options once
(:class:`AuditOptions`, against the one table :data:`CONSTRAINTS`), run the named steps of
:mod:`.pipeline` and return an :class:`AuditReport` with

* per group and attribute: confusion counts, rates with exact intervals, OFI and DI against
  a reference group, seed 004's seven bias metrics (:mod:`.groups`, :mod:`.rates`,
  :mod:`.bias_metrics`);
* every group against its reference: an exact MATCH p-value per metric, Holm-adjusted over
  all comparisons, a verdict, and the reasons a group is too small for a metric, with
  Cross-Prior-Smoothed rates beside the raw ones (seed 003 ch. 4: :mod:`.significance`,
  :mod:`.small_groups`, :mod:`.comparisons`);
* with ``samples``: epistemic, aleatoric and predictive uncertainty per group and seed 000's
  ratios with their flags (:mod:`.uncertainty`);
* with ``runs``: the spread of every number over the runs and how often each verdict holds
  (seed 004: :mod:`.stability`);
* with ``score``: balance for each class and calibration per group (:mod:`.scores`);

rendered as text (:mod:`.text`), JSON (schema in :mod:`.report`) and one self-contained
HTML page (:mod:`.html_page`).

Where the definitions differ from other tools
---------------------------------------------
fairlearn's ``MetricFrame`` gives the same per-group selection rate (PPR), TPR and FPR, and
its ``difference()``/``ratio()`` (``method="between_groups"``) are the ``difference`` and
``ratio`` of the ``overview`` table; it has no reference group, no significance and no
small-group flag. aif360 (not a dependency; not cross-checked in the tests) compares an
*unprivileged* with a *privileged* group: its ``disparate_impact`` is the audit's PPR
``ratio`` and ``statistical_parity_difference`` the PPR ``gap`` when the privileged group is
the reference; ``equal_opportunity_difference`` is the TPR gap; its
``average_odds_difference`` is the *signed* mean of the FPR and TPR gaps, while the book's
AAOD (:func:`fairbook.metrics.compare`) is the mean of their absolute values; aif360 returns
``inf``/``nan`` with a warning where a rate is undefined, the audit NaN with a reason.
"""

from .files import PARQUET_SUFFIXES, read_predictions
from .options import CONSTRAINTS, DEFAULT_METRICS, AuditOptions
from .pipeline import audit, audit_file, predictions_frame
from .report import JSON_SCHEMA, SCHEMA, TABLES, AuditReport
from .significance import EXACT_METRICS
from .text import printable

__all__ = [
    "CONSTRAINTS",
    "DEFAULT_METRICS",
    "EXACT_METRICS",
    "JSON_SCHEMA",
    "PARQUET_SUFFIXES",
    "SCHEMA",
    "TABLES",
    "AuditOptions",
    "AuditReport",
    "audit",
    "audit_file",
    "predictions_frame",
    "printable",
    "read_predictions",
]
