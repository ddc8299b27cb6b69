"""Statistics for small groups (seed 003, Chapter 4).

* :mod:`fairbook.stats.combinatorics` — the space of confusion matrices, hole counts
  (Theorems 4.1–4.4) checked by enumeration;
* :mod:`fairbook.stats.match` — the MATCH test: exact and approximate CDFs of a metric
  under a reference multinomial law (Theorems 4.5–4.9), moments, approximation errors;
* :mod:`fairbook.stats.cps` — Cross-Prior Smoothing (Algorithm 1), additive smoothing and
  the chapter's MSE protocol;
* :mod:`fairbook.stats.multiple_testing` — Holm's step-down adjustment of many p-values.

>>> from fairbook.stats import combinatorics, cps, match
>>> combinatorics.n_confusion_matrices(2)
10
>>> round(match.test("ACC", [40, 10, 10, 40], [0.4, 0.1, 0.1, 0.4]), 3)
1.0
"""

from fairbook.stats import combinatorics, cps, match, multiple_testing

__all__ = ["combinatorics", "cps", "match", "multiple_testing"]
