"""fairbook_book.chapters.fit_variance.figures: each figure draws what its title says."""

import pytest

from fairbook_book.chapters import fit_variance as fv


def test_figures_on_a_known_study(synthetic_study):
    study = synthetic_study
    fig_axes = fv.box_grid(study, "t")
    assert fig_axes[0].get_title() == "DP"
    effects = fv.effects(study, "t")
    assert fv.effect_heatmap(effects).get_title().startswith("Cohen")
    assert fv.variance_heatmap(effects).get_title().startswith("Levene")
    assert fv.cost_heatmaps({"t": fv.costs(study, "t")}).get_title().startswith("Cost")


def test_survey_plot():
    survey = fv.load_survey()
    assert fv.survey_plot(survey).get_ylabel() == "papers on DL fairness"


def test_chapter_figures_are_at_most_nine_inches_wide(synthetic_study):
    study = synthetic_study
    boxes = fv.box_figure(study, "t", title="toy")
    assert boxes.get_figwidth() <= 9 and boxes.texts[0].get_text() == "toy"
    assert [a.get_title() for a in boxes.axes[:2]] == ["DP", "DI_BAR"]
    effects = {"t": fv.effects(study, "t"), "u": fv.effects(study, "t")}
    heat = fv.heatmap_figure(effects, kind="variance")
    assert heat.get_figwidth() <= 9 and len(heat.axes) == 2
    assert heat.axes[1].get_title() == "u: fairness variance"
    with pytest.raises(ValueError, match="kind"):
        fv.heatmap_figure(effects, kind="pie")
    recorded = fv.recorded_box_grids(study, title="full")
    assert recorded.get_figwidth() <= 9 and len(recorded.axes) == 8  # 2 rows of 4 panels


def test_box_figure_names_the_techniques_once_in_readable_text(synthetic_study):
    fig = fv.box_figure(synthetic_study, "t")
    fig.canvas.draw()
    axes = [a for a in fig.axes if a.get_visible()]
    top, bottom = axes[:4], axes[4:]
    for ax in top:  # the upper row's names would repeat the lower row's
        assert not any(t.get_visible() and t.get_text() for t in ax.get_xticklabels())
    for ax in bottom:
        names = [t.get_text() for t in ax.get_xticklabels() if t.get_visible()]
        assert names == ["base", "rebalance", "penalty"]  # debiasing.TECHNIQUES order
    for ax in axes:
        for label in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
            assert label.get_fontsize() >= fv.figures.FONT_SIZE >= 10


def test_heatmap_cells_are_at_least_ten_points(synthetic_study):
    effects = {"t": fv.effects(synthetic_study, "t")}
    fig = fv.heatmap_figure(effects, kind="effect")
    sizes = [t.get_fontsize() for ax in fig.axes for t in ax.texts]
    assert sizes and min(sizes) >= 10
    costs = fv.cost_heatmaps({"t": fv.costs(synthetic_study, "t")})
    assert costs.figure.get_figwidth() <= 9
    assert min(t.get_fontsize() for t in costs.texts) >= 10
