"""Uncertainty estimates for fairness (seed 000): Bayes by Backprop, deep ensembles, the
Kwon et al. decomposition and calibration.

>>> import numpy as np
>>> from fairbook.uncertainty import decompose
>>> e, a, p = decompose(np.array([[[0.5, 0.5]], [[0.5, 0.5]]]))
>>> float(e[0]), float(a[0])
(0.0, 0.5)
"""

from fairbook.uncertainty.bayes_by_backprop import (
    BayesianLinear,
    BayesianMLP,
    BNNClassifier,
    ScaleMixturePrior,
)
from fairbook.uncertainty.calibration import expected_calibration_error, reliability_diagram
from fairbook.uncertainty.decomposition import (
    check_probs,
    decompose,
    group_means,
    uncertainty_ratios,
)
from fairbook.uncertainty.ensemble import DeepEnsemble

__all__ = [
    "BNNClassifier",
    "BayesianLinear",
    "BayesianMLP",
    "DeepEnsemble",
    "ScaleMixturePrior",
    "check_probs",
    "decompose",
    "expected_calibration_error",
    "group_means",
    "reliability_diagram",
    "uncertainty_ratios",
]
