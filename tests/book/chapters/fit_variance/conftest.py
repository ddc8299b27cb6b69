"""Fixtures shared by the tests of :mod:`fairbook_book.chapters.fit_variance` (seed 004).

Figures are drawn with the Agg backend and closed after every test; ``synthetic_study`` is a
run table whose numbers are known (the ``penalty`` technique is higher than the baseline by
0.05 on every bias metric, ``rebalance`` lower by 0.05; the strict setting has no noise).
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import fit_variance as fv


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def make_synthetic_study(n_runs=6):
    """A run table whose numbers are known: the treated technique is higher by 0.05."""
    rows = []
    rng = np.random.default_rng(0)
    for technique, shift in (("base", 0.0), ("penalty", 0.05), ("rebalance", -0.05)):
        for setting in (fv.SETTINGS_FIT, fv.SETTINGS_STRICT, fv.SETTINGS_SEED):
            for run in range(n_runs):
                noise = 0.0 if setting == fv.SETTINGS_STRICT else rng.normal(0, 0.005)
                for cls in ("0", "1", "overall"):
                    for metric in (*fv.METRICS, "accuracy"):
                        if metric == "accuracy" and cls != "overall":
                            continue
                        value = 0.8 if metric == "accuracy" else 0.2 + shift
                        rows.append(
                            {
                                "task": "t",
                                "technique": technique,
                                "setting": setting,
                                "run": run,
                                "class": cls,
                                "group": "all",
                                "metric": metric,
                                "value": value + noise,
                                "pred_hash": "h",
                                "weights_hash": "w",
                            }
                        )
    return pd.DataFrame(rows)


@pytest.fixture
def synthetic_study():
    """A fresh known run table (:func:`make_synthetic_study`, 6 runs per technique)."""
    return make_synthetic_study()
