"""Tests of :mod:`fairbook.experiments.conditional_hydragan.figures`: Fig. 3.4's box plots
and the representation bars draw on the axes they are given."""

import matplotlib.pyplot as plt

from fairbook.experiments import conditional_hydragan as hc


def test_plots(small_run):
    cfg, data, result = small_run
    axes = hc.plot_bias_boxplot(result["scores"])
    assert len(axes) == 4
    ax = hc.plot_representation(result["who"].groupby(level="who").mean())
    assert ax.get_ylabel() == "proportion"
    _, given = plt.subplots(1, 4)
    assert hc.plot_bias_boxplot(result["scores"], definition="pair", ax=given) is given
