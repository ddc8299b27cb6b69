"""Tests of the UCerF chapter's computations — the settings module."""

import pytest

from fairbook_book.chapters import ucerf as uc


def test_settings():
    assert uc.settings("fast")["n_pairs"] == 100
    assert uc.settings("full", batch_size=4)["batch_size"] == 4
    with pytest.raises(ValueError, match="profile"):
        uc.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        uc.settings("fast", seeds=3)
