"""The widgets recompute through tested functions when their inputs change."""

import pandas as pd

from fairbook.widgets import metric_panel, pair_explorer


def test_metric_panel_updates_on_edit():
    panel = metric_panel([3, 1, 2, 4])
    boxes, output = panel.children[0].children, panel.children[1]
    assert "(NaN)" not in output.value  # every metric is defined here
    for box in boxes[:2]:  # TP = FN = 0: no actual positives
        box.value = 0
    assert "TP + FN = 0" in output.value


def test_pair_explorer_updates_on_selection():
    counts = pd.DataFrame(
        {"TP": [1, 7, 0], "FN": [0, 0, 1], "FP": [0, 1, 0], "TN": [5, 10, 5]}, index=["i", "j", "k"]
    )
    widget = pair_explorer(counts, metrics=("OFI",))
    before = widget.children[1].value
    widget.children[0].children[1].value = "k"
    assert widget.children[1].value != before
    assert "-0.0556" in before
