"""Tests of :mod:`fairbook.experiments.conditional_hydragan.replication`: seed 003 Tables
3.4 and 3.5 beside ours.

Oracles: the printed values of :mod:`fairbook.papers.seed003`; the same-sign rule of
:class:`fairbook.replication.SameSign`.
"""

import pandas as pd

from fairbook.experiments import conditional_hydragan as hc
from fairbook.papers import seed003
from fairbook.replication import Rounding, SameSign


def test_table_3_4_beside_paper(fake_scores):
    scores = fake_scores()
    beside = hc.table_3_4_beside_paper(scores)
    sign = ("verdict", "same sign")
    assert set(beside[sign]) <= {"yes", "no", "paper ±0"} and len(beside) == 16
    assert beside.loc[("OFI", "Female"), sign] == "paper ±0"  # printed -0.000
    assert beside.loc[("DI", "Male"), sign] == "yes"
    assert list(beside.columns.get_level_values(0).unique()) == ["paper", "ours", "verdict"]
    assert beside.loc[("DI", "oldest 25 %"), ("paper", "real")] == 1.891


def test_verdicts_are_the_same_sign_rule(fake_scores):
    scores = fake_scores()
    ours = hc.table_3_4(scores, as_text=False)
    beside = hc.table_3_4_beside_paper(scores)
    for (metric, cls), row in beside.iterrows():
        paper = seed003.TABLE_3_4[metric][hc.PAPER_CLASSES[cls]]["Improves"]
        mine = ours.loc[(metric, "improves"), (cls, "mean")]
        assert row[("verdict", "same sign")] == SameSign().judge(paper, mine)


def test_table_3_5_beside_paper_and_replication(small_run):
    cfg, data, result = small_run
    t35 = hc.table_3_5(result)
    rep = hc.table_3_5_replication(t35)
    assert set(rep["verdict"]) == {"matches"} and len(rep) == 9
    rows = rep.attrs["rows"]
    assert {r.source for r in rows} == {"seed 003 Table 3.5"}
    assert {r.rule for r in rows} == {
        Rounding(decimals=3),
        Rounding(decimals=0),
        Rounding(decimals=3, extra=0.001),
    }
    beside = hc.table_3_5_beside_paper(t35)
    assert beside.loc[("KL divergence", "Activities"), ("paper", "real")] == 2.302
    assert set(beside[("verdict", "same sign")]) <= {"yes", "no", "paper ±0"}


def test_table_3_4_ledger_rows_judge_the_sign_and_name_the_spread(fake_scores):
    beside = hc.table_3_4_beside_paper(fake_scores(), definition="pair")
    rows = {r.quantity: r for r in beside.attrs["rows"]}
    assert len(rows) == len(beside)
    assert {r.source for r in rows.values()} == {"seed 003 Table 3.4 (pair)"}
    di_male = rows["DI, Male: improvement (pair)"]
    assert di_male.verdict == beside.loc[("DI", "Male"), ("verdict", "same sign")] == "yes"
    assert di_male.passed is True
    ofi_female = rows["OFI, Female: improvement (pair)"]  # the paper printed -0.000
    assert ofi_female.verdict == "paper ±0" and ofi_female.passed is None


def test_a_spread_as_large_as_the_effect_is_named():
    scores = pd.DataFrame(
        [
            {
                "seed": seed,
                "data": data,
                "definition": "pair",
                "class": cls,
                "metric": m,
                "value": hc.IDEAL[m] + (0.2 if data == "real" else 0.2 + (-0.1) ** seed),
            }
            for seed in (0, 1)
            for data in ("real", "synthetic")
            for m in hc.METRICS
            for _, classes in hc.ATTRIBUTES.values()
            for cls in classes
        ]
    )
    rows = hc.table_3_4_beside_paper(scores).attrs["rows"]
    assert all("as large as the effect" in r.note for r in rows)
