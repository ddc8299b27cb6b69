"""Tests of the seed-000 chapter's computations — the explorers module."""

import numpy as np

from fairbook.experiments import uncertainty_fairness as uf


def test_individual_reliability_and_explorer_on_a_fixed_run(hand_run):
    run = hand_run()
    table = uf.individual_table(run, "G", ("a", "b"), k=2)
    assert list(table.index) == ["a(+)", "a(-)", "b(+)", "b(-)"]
    out = uf.reliability(run, n_bins=5, attribute="G")
    assert out["table"]["count"].sum() == 8 and 0 <= out["ece"]["all"] <= 1
    run.name, run.groups = "SD1", {"G": np.array([0] * 4 + [1] * 4)}
    widget = uf.explorer({("SD1", "bnn", 0): run}, initial=("SD1", "G", "bnn", 10, 0))
    assert "F_Alea" in widget.children[2].children[0].value
