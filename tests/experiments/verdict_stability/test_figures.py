"""Tests of the chapter "How stable is a fairness verdict?": its figures draw their data."""

import numpy as np

from fairbook.experiments import verdict_stability as vs


def test_heatmap_and_size_curve_draw_the_numbers(tiny_build, tiny_config):
    flips = vs.flip_table(tiny_build["table"], tiny_config)
    ax = vs.plot_flip_heatmap(flips)
    image = ax.get_images()[0].get_array()
    expected = flips.groupby(["dataset", "attribute", "group"], sort=False)["seed"].mean()
    np.testing.assert_allclose(image[:, 1], expected.to_numpy())
    axes = vs.plot_size_curve(vs.size_table(tiny_build["table"]))
    assert len(axes) == 1 and len(axes[0].get_lines()) == 6  # 3 metrics x 2 sources
    assert "background-color" in vs.style_flips(flips).to_html()
