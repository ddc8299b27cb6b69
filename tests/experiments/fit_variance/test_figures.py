"""fairbook.experiments.fit_variance.figures: each figure draws what its title says."""

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
