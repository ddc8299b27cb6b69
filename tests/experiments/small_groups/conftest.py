"""Fixtures shared by the tests of :mod:`fairbook.experiments.small_groups` (seed 003 ch. 4).

Figures are drawn with the Agg backend and closed after every test; ``toy_counts`` gives
per-group counts of three groups (small, big, mid).
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def toy_counts():
    """A function returning a fresh frame of ``TP FN FP TN`` for groups small, big, mid."""

    def toy_counts():
        return pd.DataFrame(
            {"TP": [5, 400, 30], "FN": [5, 100, 10], "FP": [0, 100, 10], "TN": [10, 400, 50]},
            index=["small", "big", "mid"],
        )

    return toy_counts
