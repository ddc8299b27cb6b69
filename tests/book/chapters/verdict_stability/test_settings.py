"""Tests of the chapter "How stable is a fairness verdict?": profiles and rules."""

import pytest

from fairbook_book.chapters import verdict_stability as vs


def test_profiles_define_the_same_settings_and_overrides_apply():
    assert set(vs.PROFILES["fast"]) == set(vs.PROFILES["full"])
    assert vs.settings("fast", n_runs=7)["n_runs"] == 7
    with pytest.raises(ValueError, match="unknown settings"):
        vs.settings("fast", lam=3)


def test_rules_follow_the_thresholds():
    r = vs.rules(vs.settings("fast", di_threshold=0.9, gap_threshold=0.1))
    assert r["DI"] == ("ratio", 0.9) and r["EOpp"] == ("difference", 0.1)
    assert r["DI_BAR"] == ("above", 0.2) and r["DP"] == ("above", 0.1)
    assert set(vs.SEVEN_RULES) <= set(r)
    for model in vs.MODELS:  # the first setting is the base
        assert vs.TRAINING_SETTINGS[model][0] == {}
