"""Tests of fairbook.audit.display_labels: group names that differ are printed differently."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.audit import audit
from fairbook.audit.display_labels import NOT_NFC, shown_names

NFC, NFD = "caf\u00e9", "cafe\u0301"
LONG = ["Hispanic or Latino, born in the USA", "Hispanic or Latino, born abroad"]


def test_issue_37_pairs_are_told_apart():
    assert shown_names([NFC, NFD]) == [NFC, NFD + NOT_NFC]
    assert shown_names(["a", "a "]) == ["a", "'a '"]
    short = shown_names(LONG, width=24)
    assert len(set(short)) == 2 and all(len(s) <= 24 for s in short)
    assert short[0].endswith("USA") and short[1].endswith("abroad")


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        ("no\u00a0break", "no\\xa0break"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("a  b", "a \\x20b"),
        ("", "''"),
        (" lead", "' lead'"),
        ("x\x1b[2J", "x\\x1b[2J"),
        (7, "7"),
    ],
)
def test_invisible_differences_are_visible(label, shown):
    assert shown_names([label]) == [shown]


PIECES = ["a", "b", " ", "\u00e9", "e\u0301", "\x1b", "\\", "x", "\u00a0", "\\x1b"]
labels_strategy = st.lists(
    st.lists(st.sampled_from(PIECES), max_size=20).map("".join),
    min_size=1,
    max_size=8,
    unique=True,
)


@settings(max_examples=150, deadline=None)
@given(labels_strategy, st.sampled_from([None, 8, 12, 24]))
def test_distinct_labels_stay_distinct_within_width(labels, width):
    shown = shown_names(labels, width=width)
    collapsed = [" ".join(filter(None, unicodedata.normalize("NFC", s).split(" "))) for s in shown]
    assert len(set(collapsed)) == len(labels), (labels, shown)
    if width is not None:
        assert all(len(s) <= width for s in shown), shown
    assert all(unicodedata.category(c)[0] != "C" for s in shown for c in s)


def test_text_and_html_reports_show_the_difference():
    groups = [NFC] * 4 + [NFD] * 4 + ["a"] * 2 + ["a "] * 2 + LONG * 2
    report = audit([1, 0] * 8, [1, 1, 0, 0] * 4, groups)
    text = report.to_text()
    assert NOT_NFC in text and "'a '" in text
    assert "Hispanic or Latino, bor…" not in text
    page = report.to_html()
    assert NOT_NFC in page and "&#x27;a &#x27;" in page
    assert sorted(report.tables["groups"]["group"]) == sorted(set(groups))  # exact in JSON
    assert NFD in report.to_json()


def test_width_too_small_is_refused():
    with pytest.raises(ValueError, match="at least 8"):
        shown_names(["a"], width=3)
