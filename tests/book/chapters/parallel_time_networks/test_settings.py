"""The PTN chapter's pipeline on a tiny configuration — the settings module."""

import pytest

from fairbook_book.chapters import parallel_time_networks as pc


def test_settings_profiles_and_overrides():
    assert pc.settings("fast")["runs"] == 2
    assert pc.settings("full")["runs"] == 7
    assert pc.settings("full")["n_systems"] == 50 and pc.settings("full")["n_initial"] == 125
    with pytest.raises(ValueError, match="profile"):
        pc.settings("huge")
    with pytest.raises(ValueError, match="unknown"):
        pc.settings("fast", learning_rate=1)
