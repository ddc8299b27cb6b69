"""Tests of :mod:`fairbook_book.chapters.conditional_hydragan.settings`: the profiles and
the stand-in's constants (Adult from the offline cache)."""

import pytest

from fairbook.data.designs import ADULT_DESIGNS
from fairbook_book.chapters import conditional_hydragan as hc


def test_settings():
    assert hc.settings("fast")["n_seeds"] >= 2
    assert hc.settings("fast", epochs=3)["epochs"] == 3
    with pytest.raises(ValueError, match="profile"):
        hc.settings("huge")
    with pytest.raises(ValueError, match="target"):
        hc.settings("fast", target="flat")
    with pytest.raises(ValueError, match="n_seeds"):
        hc.settings("fast", n_seeds=0)


def test_age_split_is_the_75th_percentile():
    from fairbook.data import load_adult

    age = load_adult("train", drop_missing=True)["age"]
    assert age.quantile(0.75) == hc.AGE_SPLIT
    assert 0.2 < (age > hc.AGE_SPLIT).mean() <= 0.25


def test_design_reads_the_generated_columns_without_the_label():
    design = ADULT_DESIGNS[hc.DESIGN]
    assert design.numeric == hc.CONTINUOUS
    assert design.categorical == (*(c for c in hc.CATEGORICAL if c != "occupation"), "who")
    assert set(hc.PAPER_CLASSES) == {c for _, (_, cs) in hc.ATTRIBUTES.items() for c in cs}
