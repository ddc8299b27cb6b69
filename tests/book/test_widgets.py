"""The generic widgets recompute through tested functions when their inputs change.

(The metric catalogue's ``metric_panel`` is tested with its chapter, in
tests/book/chapters/metric_catalogue/test_explorers.py.)
"""

import pandas as pd

from fairbook_book.widgets import html_table, pair_explorer


def test_html_table_spells_out_nan_and_rounds():
    html = html_table(pd.DataFrame({"value": [1 / 3, float("nan")]}, index=["a", "b"]))
    assert "0.3333" in html and "undefined (NaN)" in html
    assert "0.33333" not in html


def test_pair_explorer_updates_on_selection():
    counts = pd.DataFrame(
        {"TP": [1, 7, 0], "FN": [0, 0, 1], "FP": [0, 1, 0], "TN": [5, 10, 5]}, index=["i", "j", "k"]
    )
    widget = pair_explorer(counts, metrics=("OFI",))
    before = widget.children[1].value
    widget.children[0].children[1].value = "k"
    assert widget.children[1].value != before
    assert "-0.0556" in before
