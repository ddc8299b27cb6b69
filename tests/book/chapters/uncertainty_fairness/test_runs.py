"""Tests of the seed-000 chapter's computations — the runs module."""

import numpy as np
import pytest

from fairbook.papers import seed000
from fairbook_book.chapters import uncertainty_fairness as uf
from fairbook_book.chapters.uncertainty_fairness.settings import _TRAINING


def test_flag_threshold_is_the_papers():
    assert uf.runs._flag(1.2) == "fair" and uf.runs._flag(0.8) == "fair"
    assert uf.runs._flag(1.2001) == "unfair" and uf.runs._flag(np.nan) == "undefined"


def test_settings():
    assert uf.settings("full")["sd_seeds"] >= 20
    with pytest.raises(ValueError, match="profile"):
        uf.settings("huge")
    with pytest.raises(ValueError, match="unknown"):
        uf.settings(bogus=1)
    with pytest.raises(ValueError, match="estimator"):
        uf.make_estimator("svm", epochs=1, batch_size=1, seed=0)


# ------------------------------------------------------------------ the sensitivity study
def test_study_design_is_a_balanced_resolution_iii_fraction_plus_named_cells():
    from fairbook.stats.sensitivity import resolution

    cells = uf.study_cells()
    fraction = [c for c in cells if c.startswith("f")]
    assert len(fraction) == 8 and {"chapter", "paper", "overconfident"} <= set(cells)
    coded = np.array(
        [
            [1 if cells[c][f] == uf.STUDY_FACTORS[f][1] else -1 for f in uf.STUDY_FACTORS]
            for c in fraction
        ]
    )
    assert resolution(coded) == 3
    assert (coded.sum(axis=0) == 0).all()  # each level in half the cells
    assert len({tuple(r) for r in coded}) == 8
    low = {f: levels[0] for f, levels in uf.STUDY_FACTORS.items()}
    assert cells["chapter"] == low
    assert cells["paper"]["kl_reduction"] == "sum" and cells["paper"]["sd_size"] == "paper"


def test_the_chapter_cell_leaves_the_settings_as_they_are():
    for profile in ("fast", "full"):
        config = uf.settings(profile)
        assert uf.study_config(config, "chapter") == config
    paper = uf.study_config(uf.settings("full"), "paper")
    assert paper["sd_n_per_cell"] * 4 == 320 and paper["mu_init_std"] == 1.0
    with pytest.raises(ValueError, match="unknown study factor"):
        uf.study_config(uf.settings(), {"dropout": 0.1})


def test_new_training_options_default_to_the_old_behaviour_bit_for_bit():
    config = uf.settings("fast")
    old = {k: v for k, v in config.items() if k not in _TRAINING}
    new_run, old_run = uf.sd_run(1, seed=2, config=config), uf.sd_run(1, seed=2, config=old)
    np.testing.assert_array_equal(new_run.probs, old_run.probs)
    model = old_run.model
    assert (model.rho_init, model.kl_reduction, model.validation_fraction) == (-5.0, "mean", 0.1)


def test_study_config_reaches_the_estimator():
    config = uf.study_config(uf.settings("fast"), "overconfident")
    run = uf.sd_run(1, seed=0, config=config)
    stated = seed000.SETTINGS["synthetic"]["epochs"]
    assert run.model.n_epochs_ == stated * config["study_long_factor"]  # no early stopping
    assert run.model.nll_reduction == "sum" and run.model.validation_fraction == 0.0
    assert not config["standardize"] and config["encoding"] == "raw"
    with pytest.raises(ValueError, match="epochs_factor"):
        uf.training_options({"epochs_factor": 0}, 5)


def test_study_units_and_bad_units():
    units = uf.study_units(uf.settings("full"))
    assert len(units) == 11 * 10 and units[:2] == ["chapter-s00", "paper-s00"]
    with pytest.raises(ValueError, match="unit"):
        uf.study_unit("nocell-s00", uf.settings("full"))
