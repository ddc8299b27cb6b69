"""Fixed-seed identical training (FIT) runs and debiasing techniques (seed 004).

* :func:`fit_runs` — the same training n times (same seed, data order, initial weights),
  dispatched through joblib (``loky`` locally, ``dask`` or ``ray`` on a cluster), scored
  with seed 004's seven bias metrics and the accuracy; :func:`summarize` gives MaxDiff and
  STDEV (Tables 2 and 4).
* :mod:`fairbook.variance.determinism` — the implementation knobs (:class:`Knobs`).
* :mod:`fairbook.variance.debiasing` — rebalancing, gradient reversal, domain-independent
  heads, the L2 gap penalty.
* :mod:`fairbook.variance.tasks` — Digits-S (a CIFAR-10S analogue), COMPAS/Adult, models.

>>> from fairbook.variance import Knobs, fit_runs, summarize
>>> Knobs().describe()
'reference'
"""

from fairbook.variance.determinism import Knobs, knob_variants
from fairbook.variance.fit_runs import (
    fit_runs,
    fit_runs_many,
    identical_runs,
    per_run,
    score_predictions,
    summarize,
)

__all__ = [
    "Knobs",
    "fit_runs",
    "fit_runs_many",
    "identical_runs",
    "knob_variants",
    "per_run",
    "score_predictions",
    "summarize",
]
