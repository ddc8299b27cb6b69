"""fairbook_book.chapters.fit_variance.settings: profiles, parameters and what a run needs."""

import pytest

from fairbook_book.chapters import fit_variance as fv


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


def test_spec_and_techniques_table_follow_the_task_settings():
    config = fv.settings("fast")
    run_spec = fv.spec("adult", "penalty", config)
    assert run_spec.epochs == 10 and run_spec.lam == fv.TASK_SETTINGS["adult"]["lam"]["penalty"]
    assert fv.spec("digits_s", "base", config).lam == 1.0  # no weight: the default
    table = fv.techniques_table()
    assert "in this run" not in table.columns
    assert {f"λ ({task})" for task in fv.TASKS} <= set(table.columns)
