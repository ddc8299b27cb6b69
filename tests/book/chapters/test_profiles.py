"""Tests of the shared profile rule."""

import pytest

from fairbook_book.chapters.profiles import choose_settings

PROFILES = {"fast": {"n": 1, "k": 2}, "full": {"n": 10, "k": 2}}


def test_profile_values_and_overrides():
    assert choose_settings(PROFILES, "full", {}) == {"n": 10, "k": 2}
    assert choose_settings(PROFILES, "fast", {"n": None, "k": 7}) == {"n": 1, "k": 7}
    assert PROFILES["fast"] == {"n": 1, "k": 2}  # the table itself is not changed


@pytest.mark.parametrize(
    ("profile", "overrides", "message"),
    [
        ("medium", {}, "profile must be one of"),
        ("fast", {"trees": 3}, "unknown settings"),
    ],
)
def test_bad_input(profile, overrides, message):
    with pytest.raises(ValueError, match=message):
        choose_settings(PROFILES, profile, overrides)
