"""Tests of the seed-000 chapter's Key results: every number comes from the inputs."""

import re

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import uncertainty_fairness as uf
from fairbook.reading import KeyResults

_row = uf.replication._row
_table = uf.replication._with_interval_columns


def _sd1(*, acc=(0.95, 0.95), alea=3.633):
    """One run of SD1 by hand: accuracies of G0 and G1, and the aleatoric ratio."""
    groups = pd.DataFrame(
        {0: [40, acc[0], 0.02, 0.49], 1: [40, acc[1], 0.01, 0.49 / alea]},
        index=["n", "ACC", "U_e", "U_a"],
    )
    ratios = pd.Series(
        {"F_SP": 1.0, "F_EAcc": acc[0] / acc[1], "F_Epis": 2.0, "F_Alea": alea}, dtype=float
    )
    return uf.FairnessResult(groups, ratios)


def _patterns(holds=(1.0, 1 / 3, 0.0), seeds=3):
    index = pd.MultiIndex.from_tuples([("bnn", f"SD{k}") for k in (1, 2, 3)])
    return pd.DataFrame(
        {"seeds": seeds, "pattern holds (undefined ignored)": list(holds)}, index=index
    )


def _compas(alea_b=(0.42, 0.41)):
    rows = [
        _row("race (B/W) F_SP", 1.5, [1.6, 1.7], "ratio", source="seed 000 Tables 2-3"),
        _row("race (B/W) F_Alea", 1.3, [1.05, 1.1], "ratio", source="seed 000 Tables 2-3"),
        _row("sex (F/M) F_EAcc", 1.0, [1.01, 1.02], "ratio", source="seed 000 Tables 2-3"),
        _row("B U_a", 0.23, list(alea_b), "uncertainty", source="s", decimals=4),
        _row("W U_a", 0.5, [0.40, 0.41], "uncertainty", source="s", decimals=4),
        _row("B sample size", 3175, 3175, "count", source="seed 000 Tables 2-3"),
    ]
    return _table(rows)


def _counts(matching, differing):
    rows = [_row(f"n{i}", 10, 10, "count", source="s") for i in range(matching)]
    rows += [_row(f"m{i}", 10, 9, "count", source="s") for i in range(differing)]
    return _table(rows)


def _ordering(rho):
    frame = pd.DataFrame({"paper": [0.3, 0.2], "ours": [0.4, 0.3]})
    frame.attrs["spearman"] = rho
    return frame


def _robust(alea_holds=5, eacc_holds=9):
    index = pd.MultiIndex.from_product([["chapter", "paper"], range(5)], names=["cell", "seed"])
    columns = pd.MultiIndex.from_tuples(
        [
            ("Table 1", "SD1 F_SP is fair"),
            ("Table 1", "SD1 F_Alea is unfair"),
            ("Tables 2-3", "race (B/W) F_EOdd_y0 is unfair"),
            ("Prop. 4.1", "SD1: fair by every point-based ratio, unfair by F_Alea"),
        ],
        names=["source", "claim"],
    )
    runs = len(index)
    values = np.column_stack(
        [
            np.ones(runs, bool),
            np.arange(runs) < alea_holds,
            np.arange(runs) < eacc_holds,
            np.zeros(runs, bool),
        ]
    )
    return uf.robustness_table(pd.DataFrame(values, index, columns))


def _inputs(**changes):
    inputs = {
        "table1": {"SD1": _sd1()},
        "patterns": _patterns(),
        "table1_rep": _counts(3, 4),
        "compas_rep": _compas(),
        "ordering": _ordering(0.96),
        "adult_rep": _counts(1, 6),
        "adult_raw_rep": _counts(2, 5),
        "robust": _robust(),
    }
    inputs.update(changes)
    return inputs


def test_five_plain_sentences_with_the_inputs_numbers():
    box = uf.key_results(**_inputs())
    assert isinstance(box, KeyResults) and len(box.findings) == 5
    example, patterns, compas, tally, robust = box.findings
    # SD1 by hand: F_EAcc = 0.95 / 0.95 = 1 (fair), F_Alea = 3.633 (unfair)
    assert "about as accurate" in example and "(0.95 vs 0.95, F_EAcc = 1.00, fair)" in example
    assert "yet its aleatoric uncertainty about the minority is 3.63 times" in example
    assert "(F_Alea, unfair)" in example
    # shares 1, 1/3, 0 of 3 seeds
    assert "Over 3 seeds of the BNN" in patterns
    assert "3 of 3 runs on SD1" in patterns and "1 of 3 runs on SD2" in patterns
    assert "0 of 3 runs on SD3" in patterns
    # F_SP (1.5 vs 1.6-1.7: both unfair) and F_EAcc (both fair) agree, F_Alea does not
    assert "2 of 3 fairness ratios carry the paper's fair/unfair flag" in compas
    # B: 0.415 > 0.23, W: 0.405 < 0.5
    assert "higher than printed for 1 of 2 groups" in compas and ", and our" in compas
    assert "agrees closely with the paper's (Spearman 0.96)" in compas
    # of the six COMPAS rows only the count matches: the agreeing flags' printed values
    # (1.5, 1.0) lie outside our two-seed intervals [1.6, 1.7] and [1.01, 1.02]
    assert "3 of 7 replicate within their rule in Table 1, 1 of 6 in Tables 2–3" in tally
    assert "1 of 7 in Table 5 (2 of 7 with raw, unscaled Adult inputs)" in tally
    # robust claims: F_SP (10 of 10) and F_EOdd_y0 (9 of 10) are point flags, F_Alea (5 of
    # 10) an uncertainty flag; Prop. 4.1 is not a flag and is left out
    assert "10 runs over 2 readings" in robust
    assert "2 of 2 of the paper's fair/unfair flags on point-based ratios" in robust
    assert "at least 90 % of runs, but only 0 of 1 on uncertainty ratios" in robust
    for sentence in box.findings:
        assert not re.search(r"\de-\d|np\.|float64|\d\.\d{5,}", sentence), sentence


def test_changing_an_input_changes_its_sentence():
    base = uf.key_results(**_inputs()).findings
    lower = uf.key_results(**_inputs(table1={"SD1": _sd1(acc=(0.5, 1.0), alea=1.1)})).findings
    assert "less accurate for the minority group than for the majority" in lower[0]
    assert "(0.50 vs 1.00, F_EAcc = 0.50, unfair)" in lower[0]
    assert "1.10 times the majority's (F_Alea, fair)" in lower[0]
    patterns = uf.key_results(**_inputs(patterns=_patterns((0.5, 0.5, 1.0), seeds=4))).findings
    assert "2 of 4 runs on SD1" in patterns[1] and "4 of 4 runs on SD3" in patterns[1]
    higher = uf.key_results(**_inputs(compas_rep=_compas(alea_b=(0.1, 0.12)))).findings
    assert "higher than printed for 0 of 2 groups" in higher[2]
    order = uf.key_results(**_inputs(ordering=_ordering(0.3))).findings
    assert "does not agree with the paper's (Spearman 0.30)" in order[2]
    tally = uf.key_results(**_inputs(table1_rep=_counts(5, 0))).findings
    assert "5 of 5 replicate within their rule in Table 1" in tally[3]
    robust = uf.key_results(**_inputs(robust=_robust(alea_holds=10))).findings
    assert "and 1 of 1 on uncertainty ratios." in robust[4]
    strict = uf.key_results(**_inputs(), threshold=0.95).findings
    assert "1 of 2 of the paper's fair/unfair flags" in strict[4] and "95 %" in strict[4]
    assert base != lower


def test_an_undefined_ratio_is_said_so():
    result = _sd1(alea=3.0)
    result.ratios["F_Alea"] = np.nan
    sentence = uf.key_results(**_inputs(table1={"SD1": result})).findings[0]
    assert "its aleatoric-uncertainty ratio F_Alea is undefined" in sentence


def test_the_decomposition_table_is_eq_7_by_hand():
    # T = 2 samples of one input: (0.25, 0.75) and (0.75, 0.25); mean (0.5, 0.5)
    table = uf.decomposition_table([[[0.25, 0.75]], [[0.75, 0.25]]], labels=["applicant"])
    assert table.loc["applicant"].tolist() == pytest.approx([0.125, 0.375, 0.5])
    with pytest.raises(ValueError, match="labels name 2 inputs"):
        uf.decomposition_table([[[0.25, 0.75]]], labels=["a", "b"])


def test_the_chapter_float_format_never_prints_scientific_notation():
    assert uf.float_format(4.365e-05) == "0.00004365"
    assert uf.float_format(2.0e-17) == "0"
    assert uf.float_format(0.49166) == "0.4917"
