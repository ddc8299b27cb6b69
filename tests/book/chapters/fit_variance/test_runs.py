"""fairbook_book.chapters.fit_variance.runs: the study and the knob study, tiny and real."""

import pandas as pd
import pytest

from fairbook_book.chapters import fit_variance as fv


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


# ------------------------------------------------------------------ the recorded study
def _tiny_config():
    config = fv.settings(
        "fast",
        n_runs=2,
        tasks="digits_s",
        techniques="base",
        epochs={"digits_s": 1},
        backend="sequential",
        n_jobs=1,
    )
    return config


def test_recorded_units_merge_back_into_run_study_bit_for_bit(tmp_path):
    """Oracle: the study run in one call. Recording it unit by unit (one FIT run each) and
    loading the units must give the same table, row for row, in the same order."""
    from fairbook_book import recordings

    config = _tiny_config()
    study = fv.run_study(config)
    units = fv.study_units(config)
    assert len(units) == 3 * config["n_runs"]  # FIT, every knob fixed, seed varies
    # record in reverse order: the loader must restore run_study's order
    recordings.record(
        "06_fit_variance", fv.STUDY_RECORDING, config, units=units[::-1], root=tmp_path
    )
    recording = recordings.load(
        "06_fit_variance", fv.STUDY_RECORDING, settings=config, root=tmp_path
    )
    assert not recording.stale and len(recording.provenance) == len(units)
    merged = fv.recorded_study(recording, config)
    pd.testing.assert_frame_equal(merged, study, check_exact=True)


def test_study_unit_rejects_unit_ids_it_did_not_make():
    config = _tiny_config()
    for bad in ("digits_s.base.fit", "digits_s.base.other.r00", "digits_s.base.fit.rxx"):
        with pytest.raises(ValueError, match="is not"):
            fv.study_unit(bad, config)
