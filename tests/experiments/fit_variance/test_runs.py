"""fairbook.experiments.fit_variance.runs: the study and the knob study, tiny and real."""

import pytest

from fairbook.experiments import fit_variance as fv


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
