"""Tests of fairbook_book.tooling.parameter_ranges: every chapter parameter has a range or
choices, every default lies in it, and a value outside is refused before anything runs."""

from __future__ import annotations

import ast

import pytest

from fairbook_book.tooling import chapters
from fairbook_book.tooling.parameter_ranges import (
    ADULT_RACES,
    BY_CHAPTER,
    CPS_GROUPS,
    Choices,
    Counts,
    Range,
    rule_for,
)

CHAPTERS = chapters.discover()


def _parameters():
    for chapter in CHAPTERS:
        for name, parameter in chapter.parameters().items():
            if name != "profile":
                yield pytest.param(chapter, name, parameter, id=f"{chapter.number}-{name}")


@pytest.mark.parametrize(("chapter", "name", "parameter"), list(_parameters()))
def test_every_parameter_has_a_rule_its_default_obeys(chapter, name, parameter):
    rule = rule_for(chapter.slug, name)
    assert rule is not None, f"{chapter.slug}: {name} has no range or choices"
    default = ast.literal_eval(parameter.default)
    if default is not None:
        rule.check(default)


def test_every_chapter_entry_names_a_parameter_that_exists():
    declared = {(c.slug, name) for c in CHAPTERS for name in c.parameters()}
    assert set(BY_CHAPTER) <= declared, sorted(set(BY_CHAPTER) - declared)


@pytest.mark.parametrize(
    ("rule", "value"),
    [
        (Range(0, 10), -1),
        (Range(0, 10), 11),
        (Range(0, 10), 2.5),
        (Range(0, 10), True),
        (Range(0, 1, integer=False), float("nan")),
        (Range(0, 1, integer=False), float("inf")),
        (Choices(("a", "b")), "c"),
        (Counts(4), [1, 2, 3]),
        (Counts(4), [1, 2, 3, -4]),
        (Counts(4), [1, 2, 3, 4.5]),
    ],
)
def test_a_value_outside_its_rule_is_refused_naming_the_rule(rule, value):
    with pytest.raises(ValueError, match=f"is not {rule.describe()[:12]}"):
        rule.check(value)


@pytest.mark.parametrize(
    ("chapter", "raw", "says"),
    [
        ("02", {"seed": "-1"}, "bad value for parameter seed: -1 is not an integer from 0 to"),
        ("02", {"seed": str(10**23)}, "is not an integer from 0 to 4,294,967,295"),
        ("03", {"fig41_group": "Martian"}, "'Martian' is not one of 'White'"),
        ("03", {"cps_group": "Adult: Martian"}, "'Adult: Martian' is not one of 'COMPAS"),
        ("04", {"setting": "f99"}, "'f99' is not one of 'chapter'"),
        ("01", {"example_cm": "[1, -2, 3, 4]"}, "is not a list of 4 whole numbers"),
    ],
)
def test_a_chapter_refuses_an_out_of_range_value_before_it_runs(chapter, raw, says):
    with pytest.raises(chapters.ChapterError, match=says.replace("(", r"\(").replace("[", r"\[")):
        chapters.coerce_parameters(chapters.resolve(chapter, CHAPTERS), raw)


def test_the_cps_groups_are_the_chapters():
    import pandas as pd

    from fairbook_book.chapters.small_groups import runs

    races = pd.DataFrame(1, index=list(ADULT_RACES), columns=["TP", "FN", "FP", "TN"])
    adult = set(runs.cps_groups(adult_counts=races, compas_definition=None))
    compas = {f"COMPAS ({s}): {g}" for s in ("ours", "published") for g in runs._COMPAS_GROUPS}
    assert adult | compas == set(CPS_GROUPS)  # (COMPAS's groups need the data to list them)


def test_the_adult_races_are_the_data_sets(tmp_path):
    from fairbook.data import cache

    if not (cache.cache_dir() / "adult").exists() and not any(cache.cache_dir().glob("adult*")):
        pytest.skip("the Adult data is not cached here (make data)")
    from fairbook.data import load_adult

    races = set(load_adult()["race"].astype(str).str.strip())
    assert races == set(ADULT_RACES)
