"""Tests of fairbook.audit.text: 100 columns, every NaN explained, labels made harmless."""

import pytest

from fairbook.audit import audit, printable


def test_every_line_fits_100_columns(full_report):
    text = full_report.to_text()
    too_long = [line for line in text.splitlines() if len(line) > 100]
    assert not too_long, too_long[:3]
    for heading in (
        "SUMMARY",
        "GROUPS",
        "AGAINST THE REFERENCE",
        "SEED 004'S SEVEN METRICS",
        "UNCERTAINTY",
        "STABILITY OVER 3 RUNS",
        "SCORE 'score'",
        "NOTES",
    ):
        assert heading in text, heading
    assert text.index("SUMMARY") < text.index("GROUPS")  # the summary comes first


def test_narrower_width_is_respected(full_report):
    assert max(len(line) for line in full_report.to_text(width=80).splitlines()) <= 80


def test_nan_is_explained():
    report = audit([1, 1, 0, 0, 1], [1, 1, 0, 0, 0], ["a", "a", "b", "b", "b"])
    text = report.to_text()
    assert "NaN" in text
    assert "NaN = undefined, never 0" in text
    assert "FPR: FPR undefined for the group (FP + TN = 0 (no actual negatives))" in text


def test_small_groups_show_reasons_and_cps(full_report):
    text = full_report.to_text()
    assert "race = 'Asian' (n = 11)" in text
    assert "sampling spread: with 11 people a gap of 0.05" in text
    assert "CPS" in text


def test_control_characters_and_long_labels():
    label = "evil\x1b[2J" + "x" * 60
    report = audit([1, 0, 1, 0], [1, 1, 0, 0], [label, label, "b", "b"])
    text = report.to_text()
    assert "\x1b" not in text and "\\x1b" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "…" in text


@pytest.mark.parametrize(
    ("value", "shown"), [("a\tb", "a\\tb"), ("Zoë", "Zoë"), (3, "3"), ("\u202e", "\\u202e")]
)
def test_printable(value, shown):
    assert printable(value) == shown
