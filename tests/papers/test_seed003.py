"""The printed constants are internally consistent with the paper's own arithmetic."""

from fractions import Fraction

from fairbook.papers import seed003


def test_table_3_1_benefits_as_printed():
    # columns b, E[b], B of Table 3.1 for group i in scenario α: 1/7, 2/7, -1/7
    cm_i = seed003.TABLE_3_1["α"][0]
    tp, fn, fp, tn = cm_i
    n = sum(cm_i)
    assert Fraction(tp + fp, n) == Fraction(1, 7)
    assert Fraction(tp + fn, n) == Fraction(2, 7)
    assert Fraction(fp - fn, n) == Fraction(-1, 7)


def test_table_3_3_group_i_is_stagnant_and_j_gains_two_tns():
    # the text says "three more TNs"; the printed matrices (and the printed OFI) say two
    c, d = seed003.TABLE_3_3["C"], seed003.TABLE_3_3["D"]
    assert c[0] == d[0]
    assert [b - a for a, b in zip(c[1], d[1], strict=True)] == [0, 0, 0, 2]  # 2 → 4 TNs
