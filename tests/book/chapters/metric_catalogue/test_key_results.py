"""Tests of :mod:`fairbook_book.chapters.metric_catalogue.key_results`: the chapter's Key
results box.

Oracles: counts and rates worked out by hand from small confusion matrices (TPR = 3/4,
FPR = 2/6, PPV = 3/5, ACC = 7/10 for ``[3, 1, 2, 4]``), the holes of each matrix read
off the definitions (no actual positives: TPR, FNR, MCC, PT), and the families' denominators
(a binomial metric and B divide by n; a joint-ratio metric by two cells).
"""

import pytest

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import metric_catalogue as catalogue


def _box(cm, holes):
    return catalogue.key_results(
        catalogue=catalogue.catalogue_table(),
        example=catalogue.metric_values(cm),
        cm=cm,
        holes=catalogue.hole_table(holes),
    )


def test_the_box_counts_the_catalogue_and_reads_the_worked_example():
    box = _box([3, 1, 2, 4], {"example": [3, 1, 2, 4], "no positives": [0, 0, 2, 3]})
    assert isinstance(box, KeyResults) and 3 <= len(box.findings) <= 5
    assert box.findings[0] == (
        "The catalogue holds 18 single-matrix metrics: 6 binomial, 8 joint-ratio and 4 others."
    )
    example = box.findings[2]
    assert "[3, 1, 2, 4] of 10 people" in example
    for text in ("rate is 0.75", "positive rate 0.33", "(PPV) 0.60", "accuracy 0.70"):
        assert text in example
    assert "all 18 metrics are defined" in example


def test_where_the_holes_are_is_read_off_the_catalogue():
    sentence = _box([3, 1, 2, 4], {"example": [3, 1, 2, 4]}).findings[1]
    # the six binomial metrics and B divide by n only; the other 11 have holes at n > 0
    assert sentence.startswith(
        "7 of them (ACC, PREV, PPR, INACC, NPREV, PNR and B) divide by the group size and "
        "are undefined only for an empty group; the other 11 have holes"
    )
    # each joint-ratio metric's denominator is two cells: TP + FN for TPR and FNR, ...
    for pair, cause in (
        ("TPR and FNR", "no actual positives"),
        ("FPR and TNR", "no actual negatives"),
        ("PPV and FDR", "no positive predictions"),
        ("NPV and FOR", "no negative predictions"),
    ):
        assert f"{pair} with {cause}" in sentence
    assert "the 8 joint-ratio metrics" in sentence
    assert sentence.endswith("and F1, MCC and PT, which combine such ratios.")


def test_the_holes_are_counted_and_named():
    box = _box([3, 1, 2, 4], {"example": [3, 1, 2, 4], "no positives": [0, 0, 2, 3]})
    assert "“no positives” 4 (TPR, FNR, MCC, PT)" in box.findings[3]
    assert "Of the 1 other matrix in the table of holes, 1 leaves" in box.findings[3]
    # every metric but TPR, FNR, MCC, PT is defined at both matrices: 14 of 18
    assert box.findings[4].startswith("14 of the 18 metrics are defined at all 2 matrices")


def test_changing_the_example_changes_the_sentences():
    box = _box([0, 0, 2, 3], {"example": [0, 0, 2, 3], "one person": [0, 0, 0, 1]})
    example = box.findings[2]
    assert "[0, 0, 2, 3] of 5 people" in example
    assert "rate is undefined" in example and "accuracy 0.60" in example
    assert "4 of 18 metrics are undefined (TPR, FNR, MCC and PT)" in example
    # one true negative: TPR, FNR, PPV, FDR, F1, MCC, PT undefined (7, named)
    assert "“one person” 7 (TPR, FNR, PPV, FDR, F1, MCC, PT)" in box.findings[3]


def test_long_lists_are_counted_not_named():
    box = catalogue.key_results(
        catalogue=catalogue.catalogue_table(),
        example=catalogue.metric_values([3, 1, 2, 4]),
        cm=[3, 1, 2, 4],
        holes=catalogue.hole_table({"one person": [0, 0, 0, 1]}),
        listed=3,
    )
    assert "“one person” 7." in box.findings[3]


def test_a_table_without_holes_says_so():
    box = _box([3, 1, 2, 4], {"example": [3, 1, 2, 4], "full": [2, 1, 1, 2]})
    assert box.findings[3] == "None of the 1 other matrix in the table of holes has a hole."
    assert box.findings[4].startswith("18 of the 18 metrics")


def test_no_finding_is_a_tally_and_the_replication_line_says_nothing_is_compared():
    box = _box([3, 1, 2, 4], {"example": [3, 1, 2, 4]})
    # the paper prints formulas, not numbers: the chapter has no ledger row
    assert box.replication.startswith("Beside the paper (fast profile): this chapter compares")
    assert "no printed number" in box.replication and "../book/ledger" in box.replication
    full = catalogue.key_results(
        catalogue=catalogue.catalogue_table(),
        example=catalogue.metric_values([3, 1, 2, 4]),
        cm=[3, 1, 2, 4],
        holes=catalogue.hole_table({"example": [3, 1, 2, 4]}),
        budget="full",
    )
    assert "(full profile)" in full.replication
    assert not any("replicat" in finding.lower() for finding in full.findings)


def test_keyword_only():
    with pytest.raises(TypeError):
        catalogue.key_results(catalogue.catalogue_table())
