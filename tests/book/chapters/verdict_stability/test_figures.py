"""Tests of the chapter "How stable is a fairness verdict?": its figures draw their data."""

import numpy as np
import pandas as pd

from fairbook_book.chapters import verdict_stability as vs


def test_heatmap_and_size_curve_draw_the_numbers(tiny_build, tiny_config):
    flips = vs.flip_table(tiny_build["table"], tiny_config)
    ax = vs.plot_flip_heatmap(flips)
    image = ax.get_images()[0].get_array()
    expected = flips.groupby(["dataset", "attribute", "group"], sort=False)["seed"].mean()
    np.testing.assert_allclose(image[:, 1], expected.to_numpy())
    axes = vs.plot_size_curve(vs.size_table(tiny_build["table"]))
    assert len(axes) == 1 and len(axes[0].get_lines()) == 6  # 3 metrics x 2 sources
    assert "background-color" in vs.style_flips(flips).to_html()


def test_size_curve_of_two_data_sets_fits_the_page():
    curve = pd.DataFrame(
        {
            "dataset": ["compas"] * 2 + ["adult"] * 2,
            "group": "g",
            "metric": "DI",
            "source": "samples",
            "size": [10, 100] * 2,
            "flip_rate": [0.4, 0.1, 0.3, 0.0],
        }
    )
    axes = vs.plot_size_curve(curve)
    assert len(axes) == 2 and axes[0].figure.get_size_inches()[0] <= 9


def test_every_text_of_the_figures_is_at_least_ten_points(tiny_build, tiny_config):
    from fairbook_book.chapters.verdict_stability import figures

    flips = vs.flip_table(tiny_build["table"], tiny_config)
    ax = vs.plot_flip_heatmap(flips)
    assert ax.figure.get_size_inches()[0] <= figures.MAX_WIDTH
    assert ax.texts and min(t.get_fontsize() for t in ax.texts) >= 10
    axes = vs.plot_size_curve(vs.size_table(tiny_build["table"]))
    figure = axes[0].figure
    (legend,) = figure.legends  # one legend under the panels, none over their lines
    assert all(ax.get_legend() is None for ax in axes)
    assert min(t.get_fontsize() for t in legend.get_texts()) >= 10


def test_the_styled_table_prints_verdicts_as_integers():
    f = pd.DataFrame({"n": [31], "value": [0.912], "unfair": [1.0], "FIT": [0.0], "seed": [0.667]})
    html = vs.style_flips(f).to_html()
    assert ">1<" in html and "1.000" not in html and "0.912" in html and "0.667" in html
