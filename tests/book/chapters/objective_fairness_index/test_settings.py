"""Tests of :mod:`fairbook_book.chapters.objective_fairness_index.settings`: the profiles."""

import pytest

from fairbook_book.chapters import objective_fairness_index as ofi


def test_settings_profiles():
    assert ofi.settings("fast")["n_estimators"] < ofi.settings("full")["n_estimators"]
    assert ofi.settings("fast", n_estimators=None)["n_estimators"] == 50
    with pytest.raises(ValueError, match="profile"):
        ofi.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        ofi.settings("fast", trees=3)
