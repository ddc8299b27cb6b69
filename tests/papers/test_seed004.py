"""Seed 004 Table 3's counts add up as the paper says (200 per group, 100 per label)."""

from fairbook.papers import seed004


def test_table_3_counts():
    for group in ("Female", "Male"):
        assert sum(sum(seed004.TABLE_3_COUNTS[(group, y)]) for y in ("Sport", "Cook")) == 200
    for key, row in seed004.TABLE_3_COUNTS.items():
        assert sum(row) == 100, key


def test_printed_findings_are_consistent_with_their_counts():
    multiple = sum(row[2] == "Y" for row in seed004.TABLE_5)
    assert len(seed004.TABLE_5) == seed004.FINDING_6["papers"] == 32
    assert multiple == seed004.FINDING_6["multiple runs"]
    assert round(100 * multiple / 32, 1) == seed004.FINDING_6["share %"]
    f4 = seed004.FINDING_4
    assert round(100 * f4["with a cost"] / f4["reduce bias"], 1) == f4["share with a cost"]
    assert round(100 * seed004.RANGES_OVERLAP / seed004.EXPERIMENTS, 1) == 22.1
    assert round(100 * seed004.SINGLE_RUN_REVERSAL / seed004.EXPERIMENTS, 1) == 9.1
    f5 = seed004.FINDING_5
    assert 100 * (f5["2020"] - f5["2017"]) / f5["2017"] == f5["growth %"]
    assert seed004.STUDY_SCALE["models"] == 27 * 16


def test_table_2_agrees_with_table_4_and_finding_1():
    for technique in ("S-GR", "A-L2", "C-Base", "C-A5"):
        row = seed004.TABLE_2[technique]
        di = tuple(row[(r, s)][1] for r in ("Overall", "Per-class") for s in ("MaxDiff", "STDEV"))
        assert di == seed004.TABLE_4_DI_BAR[technique]
    for metric, (technique, value, low, high) in seed004.FINDING_1.items():
        index = seed004.TABLE_2_METRICS.index(metric)
        assert seed004.TABLE_2[technique][("Overall", "MaxDiff")][index] == value
        assert round(high - low, 1) == value
