"""Tests of :mod:`fairbook.experiments.metric_catalogue.explorers`: the widget recomputes
through tested functions when its inputs change."""

from fairbook.experiments.metric_catalogue import metric_panel


def test_metric_panel_updates_on_edit():
    panel = metric_panel([3, 1, 2, 4])
    boxes, output = panel.children[0].children, panel.children[1]
    assert "(NaN)" not in output.value  # every metric is defined here
    for box in boxes[:2]:  # TP = FN = 0: no actual positives
        box.value = 0
    assert "TP + FN = 0" in output.value
