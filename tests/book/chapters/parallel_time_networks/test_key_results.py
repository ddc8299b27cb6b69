"""Tests of :mod:`fairbook_book.chapters.parallel_time_networks.key_results`: the sentences
carry numbers worked out by hand from small tables, and move when the tables move."""

import math

import pandas as pd
import pytest
from scipy import stats

from fairbook_book.chapters import parallel_time_networks as pc
from fairbook_book.replication import replication_table

DET_Q2 = "PTN vs Normal (Det.): skill Q2"
TIDE_Q2 = "PTN vs TiDE: skill Q2"


def _errors(last: float = 3.0) -> pd.DataFrame:
    return pd.DataFrame(
        {"MAE (normalised x)": [0.01, 0.05, 0.1], "MAE (x)": [0.5, 1.0, last]},
        index=pd.Index([1, 8, 16], name="lead time (steps of 0.1)"),
    )


def _table_5_2(tide=(0.1, 0.1, 0.1)) -> pd.DataFrame:
    # two identical runs: PTN's median CRPS 0.2, Det.'s 0.4 (skill 1 − 0.2/0.4 = 0.5),
    # TiDE's 0.1 (skill 1 − 0.2/0.1 = −1)
    crps = pd.DataFrame({"PTN": [0.1, 0.2, 0.3], "Det.": [0.2, 0.4, 0.6], "TiDE": list(tide)})
    return pc.table_5_2_replication([crps, crps])


def _decisions() -> pd.DataFrame:
    return pc.decision_rows(
        {
            DET_Q2: [0.1, 0.2, 0.3, 0.2, 0.25, 0.15],  # all six above zero: decided
            TIDE_Q2: [0.10, -0.05, 0.20],  # one of three below zero: not decided
        }
    )


def _key_results(**kwargs):
    options = {
        "nvar_errors": _errors(),
        "table_5_2": _table_5_2(),
        "decisions": _decisions(),
        "profile": "fast",
    } | kwargs
    return pc.key_results(**options)


def _findings(**kwargs):
    return _key_results(**kwargs).findings


def _replication(**kwargs) -> str:
    return _key_results(**kwargs).replication


def test_nvar_sentence_by_hand():
    sentence = _findings()[0]
    assert "from 0.50 at 1 step ahead to 3.00 at 16 steps (6 times larger)" in sentence
    assert "to 5.00 at 16 steps (10 times larger)" in _findings(nvar_errors=_errors(5.0))[0]


def test_build_sentence_by_hand():
    sentence = _findings()[1]
    assert sentence.startswith("In this build (fast profile, 2 runs)")
    # two identical runs: the interval over the runs is the one value
    assert (
        "is 0.50 (95 % interval over the runs 0.50 to 0.50) against the Normal baseline and "
        "-1.00 (95 % interval over the runs -1.00 to -1.00) against TiDE"
    ) in sentence
    assert "the paper reports 0.57 and 0.73" in sentence  # seed 003 Table 5.2, chaos Q2
    # TiDE's median CRPS 0.8: skill 1 − 0.2/0.8 = 0.75
    assert (
        "and 0.75 (95 % interval over the runs 0.75 to 0.75) against TiDE"
        in _findings(table_5_2=_table_5_2((0.4, 0.8, 1.2)))[1]
    )


def test_build_sentence_shows_the_spread_over_the_runs():
    # run skills 1 − 0.2/0.4 = 0.5 and 1 − 0.3/0.4 = 0.25: median 0.375, and the 2.5 % and
    # 97.5 % points of the two are 0.25 + 0.025 × 0.25 ≈ 0.26 and 0.5 − 0.025 × 0.25 ≈ 0.49
    first = pd.DataFrame({"PTN": [0.1, 0.2, 0.3], "Det.": [0.2, 0.4, 0.6], "TiDE": [0.1] * 3})
    second = first.assign(PTN=[0.1, 0.3, 0.3])
    sentence = _findings(table_5_2=pc.table_5_2_replication([first, second]))[1]
    assert "is 0.38 (95 % interval over the runs 0.26 to 0.49) against the Normal" in sentence


def test_decisive_sentences_by_hand():
    det, tide = _findings()[2:4]
    values = [0.1, 0.2, 0.3, 0.2, 0.25, 0.15]
    mean = sum(values) / 6
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 5)
    half = stats.t.ppf(0.975, 5) * sd / math.sqrt(6)
    assert det.startswith(
        "Does PTN beat the Normal baseline? At the recorded decisive budget, "
        "PTN wins: PTN's mean skill over 6 runs is 0.20"
    )
    assert f"(95 % interval {mean - half:.2f} to {mean + half:.2f})" in det
    assert "above zero in 6 of 6 runs" in det
    assert "TiDE? At the recorded decisive budget, it is not decided" in tide
    assert "mean skill over 3 runs is 0.08" in tide
    assert "above zero in 2 of 3 runs" in tide


def test_decisive_not_recorded():
    findings = _findings(decisions=pd.DataFrame())
    assert len(findings) == 3  # the NVAR error, this build's skill, and what is still open
    assert findings[2].startswith("The decisive profile is not recorded yet")


def test_no_finding_is_a_tally_and_the_replication_line_counts_the_ledger_rows():
    # this build's eight chaos cells: with two identical runs every interval is one point
    # and misses the paper's; the eight microclimate numbers are not compared (the weather
    # data is not public). Sec. 5.5's "PTN dominates" rests on the printed Q2s: no row of
    # its own
    for finding in _findings():
        assert "replicat" not in finding.lower()
    line = _replication()
    assert line.startswith(
        "Beside the paper (fast profile): Briscoe 2024 — of 16 results, 8 differ and 8 are "
        "not compared (data on request: 8)."
    )
    assert "seed 003" not in line
    assert "{doc}`the replication ledger <../book/ledger>`" in line
    # the tables the ledger cell collects can be given; the profile names the budget
    line = _replication(replication_tables=[_table_5_2()], profile="full")
    assert line.startswith("Beside the paper (full profile): Briscoe 2024 — of 8 results")


def test_missing_row_is_an_error():
    with pytest.raises(ValueError, match="no row 'Det.: Q2'"):
        _findings(table_5_2=replication_table([]))
