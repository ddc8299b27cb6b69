"""Fixtures shared by the tests of :mod:`fairbook_book.chapters.objective_fairness_index`.

``toy_counts`` gives per-group counts of three groups whose marginal benefits and
positive prediction rates are easy to work out by hand.
"""

import pandas as pd
import pytest


@pytest.fixture
def toy_counts():
    """A function returning a fresh frame of counts for groups a, b, c."""

    def toy_counts():
        # a: B = (1-0)/4 = .25, PPR .5; b: B = 0, PPR .5; c: B = -.5, PPR 0
        return pd.DataFrame(
            {"TP": [1, 1, 0], "FN": [0, 0, 2], "FP": [1, 1, 0], "TN": [2, 2, 2]},
            index=["a", "b", "c"],
        ).assign(n=lambda d: d.sum(axis=1), included=True)

    return toy_counts
