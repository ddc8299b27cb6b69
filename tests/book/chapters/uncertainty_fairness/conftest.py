"""Fixtures shared by chapter 04's tests: a hand-made run and a ratio series."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import uncertainty_fairness as uf


def _hand_run():
    """Four people per group; predictions by hand, two Monte Carlo samples."""
    y_true = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    p1 = np.array([0.9, 0.4, 0.2, 0.6, 0.8, 0.7, 0.1, 0.3])  # P(Y = 1), sample 1
    p2 = np.array([0.7, 0.4, 0.4, 0.6, 0.8, 0.9, 0.1, 0.1])
    probs = np.stack([np.column_stack([1 - p, p]) for p in (p1, p2)])
    groups = {"G": np.array(["a"] * 4 + ["b"] * 4, dtype=object)}
    X = np.arange(16.0).reshape(8, 2)
    return uf.Run("hand", "bnn", None, X, y_true, groups, probs)


def _ratios(**values):
    base = dict.fromkeys(uf.POINT_RATIOS + uf.UNCERTAINTY_RATIOS, 1.0)
    base.update(values)
    return pd.Series(base)


@pytest.fixture
def hand_run():
    """A factory of the hand-made run (four people per group, two samples)."""
    return _hand_run


@pytest.fixture
def ratios():
    """A factory of ratio series, 1.0 everywhere unless given."""
    return _ratios


def _compas_run():
    """The hand-made run as COMPAS: race, sex and age groups with the data's short labels."""
    run = _hand_run()
    run.name = "COMPAS"
    run.groups = {
        "race": np.array(["B"] * 4 + ["W"] * 4, dtype=object),
        "sex": np.array(["F", "M"] * 4, dtype=object),
        "age": np.array(["<25", ">45"] * 4, dtype=object),
    }
    return run


@pytest.fixture
def compas_run():
    """A factory of the hand-made run dressed as COMPAS (short group labels)."""
    return _compas_run
