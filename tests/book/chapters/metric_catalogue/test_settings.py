"""Tests of :mod:`fairbook_book.chapters.metric_catalogue.settings`: the profiles (the same
and empty in both) and the titles of seed 003's Tables 2.2–2.4."""

import pytest

from fairbook.metrics import METRICS
from fairbook_book.chapters import metric_catalogue as catalogue


def test_settings_profiles():
    assert catalogue.settings("fast") == catalogue.settings("full") == {}
    with pytest.raises(ValueError, match="profile"):
        catalogue.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        catalogue.settings("fast", n_max=3)


def test_family_titles_cover_every_family():
    assert set(catalogue.FAMILY_TITLES) == {m.family for m in METRICS.values()}
    assert [t.split(" — ")[0] for t in catalogue.FAMILY_TITLES.values()] == [
        "Table 2.2",
        "Table 2.3",
        "Table 2.4",
    ]
