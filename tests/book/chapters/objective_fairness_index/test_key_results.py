"""Tests of :mod:`fairbook_book.chapters.objective_fairness_index.key_results`: the sentences
carry numbers worked out by hand from small tables, and move when the tables move."""

import pandas as pd
import pytest

from fairbook_book.chapters import objective_fairness_index as ofi
from fairbook_book.chapters.objective_fairness_index.key_results import _properties


def _counts(c_tp: int = 5) -> pd.DataFrame:
    # a: n 100, B = (0 - 10)/100 = -0.10, PPR 0.10
    # b: n 100, B = (10 - 0)/100 = 0.10, PPR 0.30
    # c: n 100, B = 0, PPR c_tp/100 (0.05 by default)
    return pd.DataFrame(
        {
            "TP": [10, 20, c_tp],
            "FN": [10, 0, 0],
            "FP": [0, 10, 0],
            "TN": [80, 70, 100 - c_tp],
        },
        index=["a", "b", "c"],
    )


@pytest.fixture(scope="module")
def properties():
    return ofi.table_3_2_replication(n_max=4)  # n ≤ 3 is too small to reach BND


def _findings(properties, counts=None, **kwargs):
    counts = _counts() if counts is None else counts
    options = {"adult": {"rf": counts, "nb": counts}, "group": "c"} | kwargs
    return ofi.key_results(properties=properties, compas=counts, n_max=4, **options).findings


def test_four_findings_none_a_tally(properties):
    findings = _findings(properties)
    assert len(findings) == 4
    assert not any("replicat" in f.lower() or "numbers the paper" in f for f in findings)


def test_firefighters_by_hand(properties):
    sentence = _findings(properties)[0]
    # scenario A: B_i = 0, B_j = (1 - 0)/18, OFI = -1/18; DI = (1/6) / (8/18) = 0.375
    assert "biased (0.38, below 4/5)" in sentence
    assert "OFI is only -0.06" in sentence
    # scenario B: nobody predicted positive → DI 0/0; OFI = -1/6 + 7/18 = 0.22, favours i
    assert "DI is undefined (0/0) while OFI is 0.22: bias toward group i" in sentence


def test_properties_sentence_counts_the_ticks(properties):
    sentence = _findings(properties)[1]
    assert "up to 4 people per group" in sentence
    assert "only OFI, of 12 bias metrics, has all six" in sentence
    # the paper's Table 3.2 (which the enumeration agrees with): only OFI tests objectively
    assert "the property missed most often is objective testing (11 of 12 metrics)" in sentence
    broken = properties.copy()
    broken.loc["OFI", "OBJ"] = "✗ (✓) ← differs"
    broken.loc["OFI", "verdict"] = "differs: OBJ"
    sentence = _findings(broken)[1]
    assert "none of the 12 bias metrics has all six" in sentence
    assert "objective testing (12 of 12 metrics)" in sentence


def test_properties_sentence_by_hand():
    ticks = {  # M1 has all six; M2 misses OBJ and ALL; M3 misses OBJ, BND and ALL
        "M1": dict.fromkeys(("OBJ", "R", "DIR", "SYM", "BND", "ALL"), "✓ (✓)"),
        "M2": {"OBJ": "✗", "R": "✓", "DIR": "✓", "SYM": "✓", "BND": "✓", "ALL": "✗"},
        "M3": {"OBJ": "✗", "R": "✓", "DIR": "✓", "SYM": "✓", "BND": "✗", "ALL": "✗"},
    }
    sentence = _properties(pd.DataFrame.from_dict(ticks, orient="index"), n_max=5)
    assert "up to 5 people per group, only M1, of 3 bias metrics, has all six" in sentence
    assert sentence.endswith(
        "the property missed most often is objective testing (2 of 3 metrics), then defined "
        "everywhere (2) and bounded (1)."
    )
    perfect = pd.DataFrame.from_dict({"M1": ticks["M1"]}, orient="index")
    assert _properties(perfect, n_max=5).endswith("only M1, of 1 bias metrics, has all six.")


def test_compas_sentence_by_hand(properties):
    sentence = _findings(properties)[2]
    # pairs: (a, b) OFI -0.2, DI 1/3: agree; (a, c) OFI -0.1, DI 2: disagree;
    # (b, c) OFI 0.1, DI 6: agree
    assert "favour the same group in 2 of 3 pairs" in sentence
    assert "the a group has the lowest marginal benefit (-0.10" in sentence
    assert "OFI finds bias against it in 2 and DI in 1 of its 2 comparisons" in sentence
    # c with 15 positives: DI(a, c) = 0.10 / 0.15 < 1 agrees with OFI now; B(c) still 0
    sentence = _findings(properties, _counts(c_tp=15))[2]
    assert "favour the same group in 3 of 3 pairs" in sentence
    assert "DI in 2 of its 2 comparisons" in sentence


def test_adult_sentence_by_hand(properties):
    sentence = _findings(properties)[3]
    assert "2 of 3 pairs for the random forest and 2 of 3 pairs for naive Bayes" in sentence
    # c: DI(c, a) = 0.5, DI(c, b) = 1/6 → favoured by DI in 0; OFI(c, a) = 0.1 > 0 → 1
    assert "DI favours c in 0 of 2 comparisons and OFI in 1 of 2" in sentence
    assert "7 of 8 and 2 of 8" in sentence  # the paper's claim, from seed003
    sentence = _findings(properties, adult={"nb": _counts(c_tp=15)})[3]
    assert "3 of 3 pairs for naive Bayes" in sentence
    assert "random forest" not in sentence


def _over_seeds(forest):
    """fig_3_3_over_seeds's layout: the paper, one column per seed, median, min, max."""
    seeds = {f"s{i}": [share, 0.75] for i, share in enumerate(forest)}
    frame = pd.DataFrame(
        {"paper": [1.0, 0.875], **seeds},
        index=["RF: share of pairs where OFI and DI agree", "NB: share DI favours"],
    )
    values = frame.drop(columns="paper")
    return frame.assign(
        median=values.median(axis=1), min=values.min(axis=1), max=values.max(axis=1)
    )


def test_adult_sentence_gives_the_forest_spread_over_recorded_seeds(properties):
    sentence = _findings(properties, over_seeds=_over_seeds([0.6, 0.7, 0.6]))[3]
    # three seeds: 0.6, 0.7, 0.6 → 60 % to 70 %, median 60 %
    assert (
        "over the 3 recorded seeds of the full profile's random forest, they agree in 60 % to "
        "70 % of the pairs (median 60 %); for naive Bayes" in sentence
    )
    same = _findings(properties, over_seeds=_over_seeds([0.5, 0.5]))[3]
    assert "over the 2 recorded seeds" in same and "in 50 % of the pairs for every seed" in same
    assert "recorded seeds" not in _findings(properties)[3]


def test_adult_group_must_exist(properties):
    with pytest.raises(ValueError, match="nobody"):
        _findings(properties, group="nobody")


def test_the_replication_line_counts_the_ledger_rows(properties):
    results = ofi.key_results(
        properties=properties,
        compas=_counts(),
        n_max=4,
        adult={"rf": _counts(), "nb": _counts()},
        group="c",
        budget="full",
    )
    # every printed number once (fairbook.papers.printed): 155 = 54 + 72 + 25 + 1 + 3, of
    # which only Figs. 3.2 and 3.3 are results: Fig. 3.2's share (2/3 against the paper's 1:
    # differs) and Fig. 3.3's three shares on the Adult stand-in (not compared: Folktables is
    # not offline). The rest are checks: Tables 3.1 and 3.3's inputs (43) and the arithmetic
    # on them (36, DI of scenario B undefined on both sides), Table 3.2's 72 ticks
    line = results.replication
    assert line.startswith(
        "Beside the paper (full profile): Briscoe 2024 — of 4 results, 1 differs and 3 are "
        "not compared (data not offline: 3); besides, 151 checks (36 arithmetic, "
        "72 mathematics, 43 input): 150 hold."
    )
    assert "../book/ledger" in line
    line = ofi.key_results(
        properties=properties,
        compas=_counts(c_tp=15),
        n_max=4,
        adult={"rf": _counts(), "nb": _counts()},
        group="c",
    ).replication
    assert "(fast profile)" in line and "of 4 results, 1 matches the paper informatively" in line
    assert "differs" not in line
