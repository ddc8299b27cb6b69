"""Tests of :mod:`fairbook_book.chapters.small_groups.key_results`: the chapter's Key results.

Oracles: inputs built by hand whose answers can be counted directly — a sampling table with
chosen quantiles, the hole counts of Theorem 4.3's proof (``N(n) = (n+1)(n+2)(n+3)/6``,
``n + 1`` holes for a joint-ratio metric, ``4n`` for MCC, 48 for PT at ``n = 10``), a MATCH
table with chosen gaps, p-values and verdicts, a CPS run with chosen MSEs and intervals, and
replication rows with chosen outcomes (the replication line, never a finding).
"""

import pandas as pd
import pytest

from fairbook.stats import combinatorics
from fairbook_book import ledger
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import small_groups as sg
from fairbook_book.replication import Row, replication_table


def _samples(low_10=0.0, high_10=0.2):
    return pd.DataFrame(
        {
            "n": [5, 10, 150],
            "exact_q025": [0.0, low_10, 0.0267],
            "exact_q975": [0.4, high_10, 0.1],
            "target": 0.0604,
        }
    )


def _match(small_gap=-0.38, small_p_holm=0.8):
    """Two big groups whose gaps survive and one small group whose gaps do not."""
    return pd.DataFrame(
        {
            "group": ["big", "big", "mid", "small", "small", "small"],
            "n": [3000, 3000, 500, 11, 11, 11],
            "metric": ["PPR", "TPR", "PPR", "PPR", "FPR", "ACC"],
            "score": [0.25, 0.7, 0.72, 0.2727, 0.0, 0.73],
            "reference": [0.55, 0.68, 0.54, 0.5548, -small_gap, 0.72],
            "gap": [-0.30, 0.02, 0.18, -0.2821, small_gap, 0.01],
            "p_value": [1e-30, 0.4, 1e-12, 0.11427, 0.24, 0.91],
            "p_holm": [1e-29, 1.0, 1e-11, small_p_holm, 1.0, 1.0],
            "apparent": [True, False, True, True, True, False],
            "survives": [True, False, True, small_p_holm < 0.05, False, False],
        }
    )


def _cps_run(mse_cps20=0.004):
    """Two groups × one metric × two sizes; CPS λ = 5 better everywhere; CPS λ = 20 worse
    than raw with intervals apart for group "far" only (when ``mse_cps20`` is large)."""
    rows = []
    for group in ("near", "far"):
        for n in (5, 7):
            for setting, mse in (("raw", 0.01), ("CPS λ = 5", 0.005), ("CPS λ = 20", 0.004)):
                if group == "far" and setting == "CPS λ = 20":
                    mse = mse_cps20
                rows.append(
                    {
                        "group": group,
                        "metric": "ACC",
                        "n": n,
                        "setting_label": setting,
                        "mse": mse,
                        "ci_low": mse * 0.9,
                        "ci_high": mse * 1.1,
                        "share_undefined": 0.0,
                        "target": 0.5,
                        "reference": 0.9 if group == "far" else 0.5,
                    }
                )
    return pd.DataFrame(rows)


def _tables(extra_differs=0):
    source = "seed 003 Thm 4.1"
    return {
        "Thm A": replication_table([Row("a", 1, 1, source=source), Row("b", 1, 2, source=source)]),
        "Fig. B": replication_table(
            [Row("c", 1, 1, source=source), Row("d", 1, 1, source=source)]
            + [Row(f"e{i}", 1, 3, source=source) for i in range(extra_differs)]
        ),
    }


def _box(**changes):
    inputs = {
        "samples": _samples(),
        "group": "Amer-Indian-Eskimo",
        "holes": combinatorics.hole_count_table(12),
        "match": _match(),
        "alpha": 0.05,
        "min_gap": 0.05,
        "cps_run": _cps_run(),
        "tables": _tables(),
    }
    inputs.update(changes)
    return sg.key_results(**inputs)


def test_five_findings_and_a_replication_line():
    box = _box()
    assert isinstance(box, KeyResults) and len(box.findings) == 5
    assert box.replication is not None
    assert not any("replicat" in finding.lower() for finding in box.findings)


def test_the_sampling_sentence_reads_the_exact_band():
    first = _box().findings[0]
    assert "Samples of 10 people drawn from Adult's Amer-Indian-Eskimo group" in first
    assert "predicted positive rate is 0.06" in first
    assert "from 0.00 to 0.20" in first and "in steps of 1/10" in first
    assert "samples of 150 people still range from 0.03 to 0.10" in first
    changed = _box(samples=_samples(low_10=0.1, high_10=0.3), small_n=10).findings[0]
    assert "from 0.10 to 0.30" in changed
    assert "Samples of 5 people" in _box(small_n=None).findings[0]
    with pytest.raises(ValueError, match="n = 7"):
        _box(small_n=7)


def test_the_hole_sentence_counts_by_the_closed_forms():
    for n in (10, 12):
        total = (n + 1) * (n + 2) * (n + 3) // 6
        text = _box(hole_n=n).findings[1]
        assert f"Among the {total} confusion matrices of {n} people" in text
        assert f"undefined at {n + 1} ({100 * (n + 1) / total:.0f} %)" in text
        assert f"MCC at {4 * n} (" in text
        assert "accuracy is defined at all of them" in text
    assert "prevalence threshold at 48 (17 %)" in _box(hole_n=10).findings[1]


def test_the_match_sentence_counts_what_survives():
    text = _box().findings[3]
    assert text.startswith(
        "In COMPAS, 4 gaps of at least 0.05 between a group and everyone else appear, and 2 "
        "of them survive MATCH at α = 0.05 after Holm's adjustment"
    )
    assert "none of the 2 in the small (11 people) group does" in text
    assert "small's FPR gap of -0.38, is larger than any gap that survives" in text
    # a small gap smaller than every surviving one: no "although"
    quieter = _box(match=_match(small_gap=-0.1)).findings[3]
    assert "although" not in quieter and "none of the 2" in quieter
    everyone = _match().assign(survives=lambda t: t["apparent"])
    assert (
        "every group with an apparent gap keeps at least one" in (_box(match=everyone).findings[3])
    )
    assert "α = 0.01" in _box(alpha=0.01).findings[3]


def test_the_cps_sentence_counts_gains_and_losses():
    text = _box().findings[4]
    assert "λ = 5 lowers the mean squared error, averaged over sizes, for 2 of 2" in text
    assert "for 0 pairs at λ = 5 and 0 at λ = 20" in text
    # group "far" at λ = 20: 0.05 × 0.9 > 0.01 × 1.1, worse with the intervals apart
    worse = _box(cps_run=_cps_run(mse_cps20=0.05)).findings[4]
    assert "for 0 pairs at λ = 5 and 1 at λ = 20" in worse
    with pytest.raises(ValueError, match="CPS λ = 10"):
        _box(lam=10)


def test_the_small_group_sentence_reads_its_row_of_the_match_table():
    text = _box().findings[2]
    assert text == (
        "COMPAS's small group (11 people) has a predicted positive rate of 0.27 against 0.55 "
        "for everyone else, a gap of -0.28; its exact MATCH p-value is 0.114 (0.800 after "
        "Holm's adjustment over the table's 6 tests), so at α = 0.05 its 11 people cannot "
        "tell the gap from chance."
    )
    # a chosen group and metric; a gap that survives says so
    fpr = _box(small_group="small", small_metric="FPR").findings[2]
    assert "false positive rate of 0.00 against 0.38" in fpr and "p-value is 0.240" in fpr
    survives = _box(match=_match(small_p_holm=0.01)).findings[2]
    assert survives.endswith(
        "(0.010 after Holm's adjustment over the table's 6 tests), so the gap survives at α = 0.05."
    )
    with pytest.raises(ValueError, match="no row for group 'small' and metric TPR"):
        _box(small_metric="TPR")


def test_the_replication_line_is_the_ledgers_and_not_a_finding():
    # the wording is fairbook_book.ledger's; here: the chapter's rows and budget go into it
    line = _box().replication
    assert line == ledger.replication_line(_tables(), chapter="03_small_groups", budget="fast")
    assert "Briscoe 2024 — of 4 results" in line and "fast profile" in line
    assert "{doc}`the replication ledger <../book/ledger>`" in line
    more = _box(tables=_tables(extra_differs=2), budget="full").replication
    assert "of 6 results" in more and "full profile" in more
    assert more == ledger.replication_line(
        _tables(extra_differs=2), chapter="03_small_groups", budget="full"
    )


def test_keyword_only():
    with pytest.raises(TypeError):
        sg.key_results(_samples())
