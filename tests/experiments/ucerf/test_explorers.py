"""Tests of the UCerF chapter's computations — the explorers module."""

import pytest  # noqa: E402

from fairbook.experiments import ucerf as uc  # noqa: E402


def test_pair_metrics_and_widget():
    m = uc.pair_metrics(1.0, True, 1.0, False)
    assert m == {"D_a": 1.0, "D_b": -1.0, "accuracy gap": 1, "1 − accuracy gap": 0, "UCerF": 0.0}
    assert uc.pair_metrics(0.2, True, 0.6, True)["UCerF"] == pytest.approx(0.8)
    widget = uc.pair_explorer(0.5, True, 0.5, True)
    slider = widget.children[0].children[0]
    slider.value = 1.0  # the widget recomputes from pair_metrics
    assert "0.750" in widget.children[-1].value
