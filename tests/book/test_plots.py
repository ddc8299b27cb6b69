"""Smoke-and-content tests of the figure helpers."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd

from fairbook_book.plots import pairwise_heatmap, property_matrix


def test_pairwise_heatmap_annotates_raw_values():
    frame = pd.DataFrame([[np.nan, 2.0], [0.5, np.nan]], index=["a", "b"], columns=["a", "b"])
    ax = pairwise_heatmap(frame, pivot=1, log=True, title="DI")
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["0.50", "2.00"]
    assert ax.get_title() == "DI"


def test_property_matrix_ticks():
    table = pd.DataFrame({"R": [True, False]}, index=["OFI", "EO"])
    ax = property_matrix(table, properties=["R"])
    assert sorted(t.get_text() for t in ax.texts) == ["✓", "✗"]
