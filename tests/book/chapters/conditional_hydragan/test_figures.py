"""Tests of :mod:`fairbook_book.chapters.conditional_hydragan.figures`: Fig. 3.4's box plots
and the representation bars draw on the axes they are given."""

import matplotlib.pyplot as plt

from fairbook_book.chapters import conditional_hydragan as hc


def test_plots(small_run):
    cfg, data, result = small_run
    axes = hc.plot_bias_boxplot(result["scores"])
    assert len(axes) == 4
    assert axes[0].figure.get_size_inches()[0] <= 9  # reading size: 2 × 2, not a row of 4
    assert [a.get_title() for a in axes][2] == "DI − 1 (cells)"
    ax = hc.plot_representation(result["who"].groupby(level="who").mean())
    assert ax.get_ylabel() == "proportion"
    _, given = plt.subplots(1, 4)
    assert hc.plot_bias_boxplot(result["scores"], definition="pair", ax=given) is given


def test_recorded_figure_at_reading_size(small_run):
    _, _, result = small_run
    fig = hc.plot_recorded_bias(result, title="recorded")
    assert fig.get_size_inches()[0] <= 9 and len(fig.axes) == 8
    titles = [a.get_title() for a in fig.axes]
    assert titles[:4] == ["OFI (pair)", "DPPL (pair)", "DI − 1 (pair)", "DCA (pair)"]
    assert titles[4:] == ["OFI (cells)", "DPPL (cells)", "DI − 1 (cells)", "DCA (cells)"]


def test_every_text_reads_at_page_width(small_run):
    """A 9-inch figure shown about 800 px wide: text of 10 pt or more is at least 9 px."""
    import matplotlib.text

    _, _, result = small_run
    axes = hc.plot_bias_boxplot(result["scores"])
    fig = axes[0].figure
    sizes = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
    assert sizes and min(sizes) >= 10
