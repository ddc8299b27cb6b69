"""Fairness and performance metrics over confusion matrices.

>>> from fairbook.metrics import compute, compare
>>> compute("ACC", [3, 1, 2, 4])
0.7
>>> round(compare("OFI", [1, 2, 1, 1], [1, 1, 2, 2]), 2)  # seed 003 Table 3.3, C
-0.37
"""

from fairbook.metrics.group import (
    BIAS_REPORT_METRICS,
    COMPARISONS,
    bias_report,
    compare,
    ratio_measures,
)
from fairbook.metrics.rates import METRICS, compute, compute_all, undefined_reason

__all__ = [
    "BIAS_REPORT_METRICS",
    "COMPARISONS",
    "METRICS",
    "bias_report",
    "compare",
    "compute",
    "compute_all",
    "ratio_measures",
    "undefined_reason",
]
