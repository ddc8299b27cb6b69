"""Tests of fairbook.metrics.properties: enumeration, each verdict, the paper's table."""

import itertools
from math import comb

import numpy as np
import pytest

from fairbook.metrics import compute
from fairbook.metrics.properties import (
    PAPER_TABLE_3_2,
    PROPERTIES,
    all_confusion_matrices,
    check_properties,
    property_table,
)


@pytest.mark.parametrize("n_max", [1, 3, 7])
def test_enumeration_is_complete_and_unique(n_max):
    cms = all_confusion_matrices(n_max)
    expected = sum(comb(n + 3, 3) for n in range(1, n_max + 1))  # seed 003 Thm 4.1 per n
    assert len(cms) == expected
    assert len({tuple(c) for c in cms}) == expected
    assert cms.sum(axis=1).min() == 1 and cms.sum(axis=1).max() == n_max


def test_paper_table_3_2_is_reproduced_at_n_12():
    table = property_table(n_max=12)
    assert list(table.index) == list(PAPER_TABLE_3_2)
    mismatches = table.loc[~table.agree, "disagree_on"].to_dict()
    assert mismatches == {}, mismatches
    assert table.loc["OFI", "observed_min"] == -2 and table.loc["OFI", "observed_max"] == 2


def test_verdicts_are_stable_in_n():
    small = property_table(n_max=6)
    large = property_table(n_max=10)
    for prop in PROPERTIES:
        assert (small[prop] == large[prop]).all(), prop


def test_counterexamples_really_break_the_property():
    check = check_properties("DI", n_max=6)
    sym = check.counterexamples["SYM"]
    assert abs(sym["value_0"]) != abs(sym["value_1"])
    assert check.counterexamples["BND"]["max |score| with n <= 6"] == 6.0


def test_objective_testing_rejects_a_metric_blind_to_true_negatives():
    # seed 003 Table 3.3: DCA and TE do not move when group j gains three TNs; OFI does
    check_dca = check_properties("DCA", n_max=5)
    assert not check_dca.OBJ
    assert check_properties("OFI", n_max=5).OBJ


def test_marginal_benefit_satisfies_intra_group_objective_testing():
    # Eq. 3.11 on B itself: FP raises it, FN lowers it, TP/TN pull it toward 0
    cms = all_confusion_matrices(8).astype(float)
    base = compute("B", cms)
    step = np.eye(4)
    assert (compute("B", cms + step[2]) >= base - 1e-12).all()  # b ↑
    assert (compute("B", cms + step[1]) <= base + 1e-12).all()  # E[b] ↑
    for correct in (step[0], step[3]):
        assert (np.abs(compute("B", cms + correct)) <= np.abs(base) + 1e-12).all()


def test_pass_fail_checks_are_not_real_valued_or_directed():
    for name in ("EO", "SP"):
        check = check_properties(name, n_max=4)
        assert not check.R and not check.DIR and check.BND and check.SYM


def test_brute_force_symmetry_of_ofi_on_a_small_grid():
    cms = [list(c) for c in itertools.product(range(3), repeat=4) if sum(c) > 0]
    from fairbook.metrics import compare

    for ci, cj in itertools.product(cms[:20], cms[-20:]):
        assert compare("OFI", ci, cj) == pytest.approx(-compare("OFI", cj, ci))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: check_properties("XYZ"), "unknown comparison"),
        (lambda: all_confusion_matrices(0), "positive integer"),
        (lambda: all_confusion_matrices(2.5), "positive integer"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
