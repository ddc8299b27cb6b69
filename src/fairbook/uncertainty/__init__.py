"""Uncertainty estimates for fairness (seed 000): Bayes by Backprop, deep ensembles, the
Kwon et al. decomposition and calibration.

>>> import numpy as np
>>> from fairbook.uncertainty import decompose
>>> e, a, p = decompose(np.array([[[0.5, 0.5]], [[0.5, 0.5]]]))
>>> float(e[0]), float(a[0])
(0.0, 0.5)
"""

import importlib

from fairbook.uncertainty.calibration import (
    aleatoric_temperature,
    expected_calibration_error,
    reliability_diagram,
    temper,
)
from fairbook.uncertainty.decomposition import (
    check_probs,
    decompose,
    group_means,
    uncertainty_ratios,
)

#: The names that need torch, imported on first use (PEP 562), so that the decomposition and
#: calibration - used by ``fairbook audit`` - load without it.
_LAZY = {
    "BayesianLinear": "bayes_by_backprop",
    "BayesianMLP": "bayes_by_backprop",
    "BNNClassifier": "bayes_by_backprop",
    "ScaleMixturePrior": "bayes_by_backprop",
    "DeepEnsemble": "ensemble",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"fairbook.uncertainty.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'fairbook.uncertainty' has no attribute {name!r}")


__all__ = [
    "BNNClassifier",
    "BayesianLinear",
    "BayesianMLP",
    "DeepEnsemble",
    "ScaleMixturePrior",
    "aleatoric_temperature",
    "check_probs",
    "decompose",
    "expected_calibration_error",
    "group_means",
    "reliability_diagram",
    "temper",
    "uncertainty_ratios",
]
