"""fairbook.experiments.fit_variance.figures: each figure draws what its title says."""

import pytest

from fairbook.experiments import fit_variance as fv


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
