"""The FIT-variance chapter's computations: Table 3, the survey, a tiny study end to end."""

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import fit_variance as fv
from fairbook.papers import seed004


def test_table_3_replicates_through_bias_report():
    table = fv.table_3_replication()
    assert set(table["verdict"]) == {"matches"}
    assert list(table["paper"]) == list(seed004.TABLE_3_METRICS.values())


def test_table_3_labels_round_trip():
    y, p, g = fv.table_3_labels()
    assert len(y) == 400
    for (group, true), (sport, cook) in seed004.TABLE_3_COUNTS.items():
        rows = (g == group) & (y == true)
        assert int((p[rows] == "Sport").sum()) == sport
        assert int((p[rows] == "Cook").sum()) == cook
    with pytest.raises(ValueError):
        fv.table_3_labels({("F", "a"): (1, 2), ("F", "b"): (1, 2), ("F", "c"): (1, 1)})


def test_table_3_editor_recomputes():
    widget = fv.table_3_editor()
    assert "33.6" in widget.children[-1].value
    box = widget.children[0].children[1]  # Female, true Sport → Sport
    box.value = 60  # now both groups' Sport rows are 60 / 40
    assert "33.6" not in widget.children[-1].value


def test_survey_file_is_table_5_and_reproduces_findings_5_6():
    survey = fv.load_survey()
    assert len(survey) == 32
    printed = pd.DataFrame(
        seed004.TABLE_5, columns=["paper", "ref", "multiple_runs", "mean", "stdev", "range"]
    )
    pd.testing.assert_frame_equal(
        survey[["paper", "ref", "multiple_runs", "mean", "stdev", "range"]],
        printed,
        check_dtype=False,
    )
    assert set(fv.survey_replication(survey)["verdict"]) == {"matches"}
    assert fv.survey_plot(survey).get_ylabel() == "papers on DL fairness"


def test_settings():
    assert fv.settings("full")["n_runs"] == 16
    fast = fv.settings("fast", techniques="penalty", device="cpu")
    assert fast["techniques"] == ("base", "penalty") and fast["emulate"] is True
    for bad in ({"techniques": "magic"}, {"tasks": "cifar"}, {"n_runs": 1}, {"colour": 1}):
        with pytest.raises(ValueError):
            fv.settings("fast", **bad)
    with pytest.raises(ValueError):
        fv.settings("huge")
    assert fv.study_knobs(fv.settings("fast")).sum_order == "permuted"


def synthetic_study(n_runs=6):
    """A run table whose numbers are known: the treated technique is higher by 0.05."""
    rows = []
    rng = np.random.default_rng(0)
    for technique, shift in (("base", 0.0), ("penalty", 0.05), ("rebalance", -0.05)):
        for setting in (fv.SETTINGS_FIT, fv.SETTINGS_STRICT, fv.SETTINGS_SEED):
            for run in range(n_runs):
                noise = 0.0 if setting == fv.SETTINGS_STRICT else rng.normal(0, 0.005)
                for cls in ("0", "1", "overall"):
                    for metric in (*fv.METRICS, "accuracy"):
                        if metric == "accuracy" and cls != "overall":
                            continue
                        value = 0.8 if metric == "accuracy" else 0.2 + shift
                        rows.append(
                            {
                                "task": "t",
                                "technique": technique,
                                "setting": setting,
                                "run": run,
                                "class": cls,
                                "group": "all",
                                "metric": metric,
                                "value": value + noise,
                                "pred_hash": "h",
                                "weights_hash": "w",
                            }
                        )
    return pd.DataFrame(rows)


def test_effects_and_single_run_table_on_a_known_study():
    study = synthetic_study()
    table = fv.effects(study, "t")
    assert set(table.loc["penalty", "direction"]) == {"increase"}
    assert set(table.loc["rebalance", "direction"]) == {"decrease"}
    assert table.loc[("penalty", "EOTP"), "target"]
    runs = fv.single_run_table(study, "t")
    assert not runs["ranges overlap"].any()
    assert (runs["single-run pairs contradicting"] == 0).all()
    costs = fv.costs(study, "t")
    assert costs.loc["rebalance", "experiments reducing bias"] == 7
    assert costs.loc["penalty", "metrics increased"].startswith("DP")


def test_tables_and_figures_on_a_known_study():
    study = synthetic_study()
    t2 = fv.table_2(study, "t")
    assert t2.loc[("base", "Overall", "MaxDiff"), "DP"] > 0
    strict = fv.spread_contrast(study, "t")
    assert (strict.loc[fv.SETTINGS_STRICT] == 0).all()
    fig_axes = fv.box_grid(study, "t")
    assert fig_axes[0].get_title() == "DP"
    effects = fv.effects(study, "t")
    assert fv.effect_heatmap(effects).get_title().startswith("Cohen")
    assert fv.variance_heatmap(effects).get_title().startswith("Levene")
    assert fv.cost_heatmaps({"t": fv.costs(study, "t")}).get_title().startswith("Cost")
    widget = fv.conclusion_explorer(study)
    assert "U-test" in widget.children[-1].value
    widget.children[1].children[1].value = 3  # fewer runs
    assert "U-test" in widget.children[-1].value


def test_replication_tables_on_a_known_study():
    study = synthetic_study()
    f1 = fv.finding_1_replication(study)
    assert len(f1) == 3 and (f1["verdict"] == "differs").all()
    f2 = fv.finding_2_replication(study)
    assert f2.loc[0, "ours"] == 0.0
    f34 = fv.finding_3_4_replication(study)
    assert f34.loc[1, "ours"] == pytest.approx(50.0)  # 7 of 14 experiments reduce bias
    example = fv.finding_2_example(study, task="t", technique="penalty")
    assert example.loc[0, "ours"] == pytest.approx(20.0, abs=1)


def test_a_tiny_real_study_end_to_end():
    config = fv.settings(
        "fast",
        n_runs=2,
        tasks="digits_s",
        techniques="base,rebalance",
        epochs={"digits_s": 1},
        knob_runs=2,
        backend="sequential",
    )
    study = fv.run_study(config)
    assert set(study["setting"]) == {fv.SETTINGS_FIT, fv.SETTINGS_STRICT, fv.SETTINGS_SEED}
    strict = study[study["setting"] == fv.SETTINGS_STRICT]
    assert strict["weights_hash"].nunique() == 1
    seeds = study[study["setting"] == fv.SETTINGS_SEED]
    assert seeds["weights_hash"].nunique() == 2
    assert len(fv.table_2(study, "digits_s")) == 8


def test_knob_table_on_the_digits_task():
    config = fv.settings(
        "fast", knob_runs=2, knob_tasks="digits_s", epochs={"digits_s": 1}, backend="sequential"
    )
    runs = fv.knob_study(config)
    table = fv.knob_table(runs, "digits_s")
    assert table.loc["reference", "same weights as reference"]
    assert table.loc["reference", "runs identical to each other"]
    assert not table.loc["mkldnn=False", "same weights as reference"]
    assert table.loc["deterministic=True", "same weights as reference"]
    assert not table.loc["sum_order=permuted", "runs identical to each other"]
    with pytest.raises(ValueError):
        fv.knob_table(runs, "adult")
