"""Tests of the seed-000 chapter's figures (the robustness heat map)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from fairbook_book.chapters import uncertainty_fairness as uf


def test_robustness_heat_map_shows_every_cell_and_marks_robust_claims():
    idx = pd.MultiIndex.from_product([["a", "b"], [0, 1]], names=["cell", "seed"])
    cols = pd.MultiIndex.from_tuples([("T", "x"), ("T", "y")], names=["source", "claim"])
    claims = pd.DataFrame([[True, True], [True, False], [True, False], [True, True]], idx, cols)
    robust = uf.robustness_table(claims)
    ax = uf.plot_robustness(robust)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "all"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["* T: x", "T: y"]
    shown = ax.images[0].get_array()
    np.testing.assert_allclose(shown, [[1.0, 1.0, 1.0], [0.5, 0.5, 0.5]])
    plt.close("all")
