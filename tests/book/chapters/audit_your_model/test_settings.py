"""Tests of the chapter "Audit your own model": its profiles."""

import pytest

from fairbook_book.chapters import audit_your_model as am


def test_profiles_define_the_same_settings_and_overrides_apply():
    assert set(am.PROFILES["fast"]) == set(am.PROFILES["full"])
    assert am.settings("fast", alpha=0.01)["alpha"] == 0.01
    assert am.settings("fast", alpha=None)["alpha"] == am.PROFILES["fast"]["alpha"]
    with pytest.raises(ValueError, match="unknown settings"):
        am.settings("fast", lam=3)
