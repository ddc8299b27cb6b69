"""Tests of the seed-000 chapter's computations — the explorers module."""

import numpy as np

from fairbook.experiments import uncertainty_fairness as uf


def hand_run():
    """Four people per group; predictions by hand, two Monte Carlo samples."""
    y_true = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    p1 = np.array([0.9, 0.4, 0.2, 0.6, 0.8, 0.7, 0.1, 0.3])  # P(Y = 1), sample 1
    p2 = np.array([0.7, 0.4, 0.4, 0.6, 0.8, 0.9, 0.1, 0.1])
    probs = np.stack([np.column_stack([1 - p, p]) for p in (p1, p2)])
    groups = {"G": np.array(["a"] * 4 + ["b"] * 4, dtype=object)}
    X = np.arange(16.0).reshape(8, 2)
    return uf.Run("hand", "bnn", None, X, y_true, groups, probs)


def test_individual_reliability_and_explorer_on_a_fixed_run():
    run = hand_run()
    table = uf.individual_table(run, "G", ("a", "b"), k=2)
    assert list(table.index) == ["a(+)", "a(-)", "b(+)", "b(-)"]
    out = uf.reliability(run, n_bins=5, attribute="G")
    assert out["table"]["count"].sum() == 8 and 0 <= out["ece"]["all"] <= 1
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    widget = uf.explorer({("SD1", "bnn", 0): run}, initial=("SD1", "G", "bnn", 10, 0))
    assert "F_Alea" in widget.children[2].children[0].value
