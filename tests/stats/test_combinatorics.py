"""Tests of fairbook.stats.combinatorics: Theorems 4.1–4.4 against brute-force enumeration."""

import itertools
import math

import numpy as np
import pytest

from fairbook.metrics import METRICS, compute
from fairbook.stats import combinatorics as comb


def brute_force(n):
    """Every CM of size n by itertools (independent of the vectorised enumeration)."""
    return np.array([c for c in itertools.product(range(n + 1), repeat=4) if sum(c) == n])


@pytest.fixture(scope="module")
def table():
    return comb.hole_count_table(60)


@pytest.mark.parametrize("n", range(0, 9))
def test_theorem_4_1_counts_every_matrix(n):
    expected = len(brute_force(n))
    assert comb.n_confusion_matrices(n) == expected == (n + 1) * (n + 2) * (n + 3) // 6


@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
def test_enumeration_equals_brute_force(n):
    cms = comb.enumerate_confusion_matrices(n)
    assert cms.dtype == np.int64
    assert cms.shape == (math.comb(n + 3, 3), 4)
    assert (cms >= 0).all() and (cms.sum(axis=1) == n).all()
    assert sorted(map(tuple, cms.tolist())) == sorted(map(tuple, brute_force(n).tolist()))


def test_enumeration_of_m1_and_m2_matches_equations_4_3_and_4_4():
    assert sorted(map(tuple, comb.enumerate_confusion_matrices(1).tolist())) == sorted(
        [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]
    )
    assert len(comb.enumerate_confusion_matrices(2)) == 10


def test_enumeration_is_fast_and_unique_for_larger_n():
    cms = comb.enumerate_confusion_matrices(60)
    assert len(np.unique(cms, axis=0)) == len(cms) == comb.n_confusion_matrices(60)


@pytest.mark.parametrize("n", [1, 2, 3, 6, 8])
def test_theorem_4_2_cell_value_count(n):
    cms = brute_force(n)
    for cell in range(4):
        for x in range(n + 1):
            assert comb.cell_value_count(x, n) == int((cms[:, cell] == x).sum())
    assert comb.cell_value_count(n + 1, n) == 0
    assert comb.cell_value_count(-1, n) == 0


def test_cell_value_count_is_triangular_and_vectorised():
    assert [comb.cell_value_count(x, 2) for x in (2, 1, 0)] == [1, 3, 6]  # Eq. 4.6
    assert comb.cell_value_count(np.arange(4), 3).tolist() == [10, 6, 3, 1]
    assert comb.cell_value_count(2.0, 3) == 3


def test_hole_count_by_enumeration_for_every_metric():
    n = 6
    cms = brute_force(n)
    for name in METRICS:
        assert comb.hole_count(name, n) == int(np.isnan(compute(name, cms)).sum())
    assert comb.hole_counts(0) == {name: 1 for name in METRICS}  # the empty matrix


def test_theorem_4_3_closed_forms_hold_up_to_60(table):
    assert set(table.n) == set(range(1, 61))
    exact = table[table.closed_form.notna()]
    assert set(exact.metric) == set(METRICS) - {"PT", "B"}
    assert exact.agrees.all()
    assert (exact.enumerated == exact.closed_form).all()
    b = table[table.metric == "B"]
    assert b.agrees.isna().all() and (b.enumerated == 0).all()


def test_mcc_holes_by_independent_inclusion_exclusion():
    for n in range(1, 10):
        cms = brute_force(n)
        tp, fn, fp, tn = cms.T
        margins = np.stack([tp + fp, tp + fn, tn + fp, tn + fn])
        assert comb.hole_count("MCC", n) == int((margins == 0).any(axis=0).sum()) == 4 * n


def test_pt_holes_are_the_rank_one_matrices_and_the_printed_bounds(table):
    for n in range(1, 12):
        cms = brute_force(n)
        tp, fn, fp, tn = cms.T
        assert comb.hole_count("PT", n) == int((tp * tn == fp * fn).sum())
    pt = table[table.metric == "PT"].set_index("n")
    # the lower bound 2n + 2 holds everywhere, loosely: PT is undefined on every MCC hole
    assert pt.holds_lower.all()
    assert (pt.enumerated >= 4 * pt.index.to_numpy()).all()
    # the upper bound (Robin's bound on σ(n)) is stated for n >= 3 only
    assert pt.loc[[1, 2], "upper_bound"].isna().all()
    assert bool(pt.loc[3, "holds_upper"])
    # ... and fails for every n from 4 to 60
    assert not pt.loc[4:, "holds_upper"].any()
    assert not pt.loc[4:, "agrees"].any()


def test_hole_count_summary(table):
    summary = comb.hole_count_summary(table).set_index("metric")
    assert summary.loc["PT", "first_disagreement"] == 4
    assert summary.loc["PT", "n_disagree"] == 57
    assert summary.loc["PT", "disagreements"] == "4–60"  # every n from 4 on, none left out
    assert (summary.drop(index=["PT"]).n_disagree == 0).all()
    assert summary.loc["B", "n_checked"] == 0
    assert summary.loc["MCC", "stated"] == "4n"


def test_closed_form_values():
    assert comb.hole_count_closed_form("ACC", 9) == 0
    assert comb.hole_count_closed_form("F1", 9) == 1
    assert comb.hole_count_closed_form("fdr", 9) == 10
    assert comb.hole_count_closed_form("MCC", 9) == 36
    assert comb.hole_count_closed_form("PT", 9) is None
    assert comb.hole_count_closed_form("B", 9) is None
    lower, upper = comb.pt_hole_bounds(3)
    assert lower == 8 and upper == pytest.approx(21.18, abs=0.01)


def test_treatment_equality_holes_count_pairs_not_the_printed_sum():
    t = comb.te_hole_table(4)
    assert t.agrees.all()
    assert not t.printed_agrees.any()
    assert comb.te_hole_count(2, 3) == comb.te_hole_count_closed_form(2, 3) == 160


def test_theorem_4_4_limits_depend_on_the_path():
    demo = comb.indeterminacy_demo("FPR", ratios=(0, 1, 3, math.inf), scales=(1, 1e-4, 1e-8))
    paths = demo[demo.path == "c_i = r c_j"]
    for r, group in paths.groupby("r"):
        limit = 1.0 if math.isinf(r) else r / (r + 1)
        assert np.allclose(group.value, limit)  # constant along the path, down to t = 1e-8
        assert group.t.min() <= 1e-8
    assert sorted(paths.groupby("r").limit.first().round(6).tolist()) == [0.0, 0.5, 0.75, 1.0]
    assert np.isnan(demo[demo.path == "at the hole"].value.iloc[0])
    conventions = demo[demo.path.str.startswith("convention")].value
    assert sorted(conventions.tolist()) == [0.0, 0.5, 1.0]
    with pytest.raises(ValueError, match="joint-ratio"):
        comb.indeterminacy_demo("ACC")
    with pytest.raises(ValueError, match="ratios"):
        comb.indeterminacy_demo("TPR", ratios=(-1,))


def test_mcc_corners_are_indeterminate():
    t = comb.mcc_corner_perturbations(6)
    assert len(t) == 12
    for _, group in t.groupby("corner"):
        values = group.MCC.to_numpy()
        assert np.isnan(values).sum() == 2
        assert set(np.abs(values[~np.isnan(values)])) == {1.0}


@pytest.mark.parametrize("bad", [-1, 2.5, "3", None, True])
def test_bad_sizes_raise(bad):
    with pytest.raises(ValueError):
        comb.n_confusion_matrices(bad)
    with pytest.raises(ValueError):
        comb.enumerate_confusion_matrices(bad)


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="unknown metric"):
        comb.hole_count("AUC", 3)
    with pytest.raises(ValueError, match="unknown metric"):
        comb.hole_count_closed_form("OFI", 3)
    with pytest.raises(ValueError, match=">= 1"):
        comb.hole_count_closed_form("TPR", 0)
    with pytest.raises(ValueError, match="integer"):
        comb.cell_value_count(1.5, 3)
    with pytest.raises(ValueError, match="n_max"):
        comb.hole_count_table(0)


def test_pt_hole_count_closed_form_matches_enumeration():
    table = comb.hole_count_table(60, metrics=["PT"])
    closed = [comb.pt_hole_count_closed_form(n) for n in table.n]
    assert closed == table.enumerated.tolist()


def test_pt_hole_count_closed_form_primes_and_bounds():
    for p in (2, 3, 5, 7, 97, 101):  # only the zero-margin (MCC) holes
        assert comb.pt_hole_count_closed_form(p) == 4 * p
    # n = 720720 (a highly composite number): far above Robin's bound
    n = 720720
    _, upper = comb.pt_hole_bounds(n)
    assert comb.pt_hole_count_closed_form(n) > 3 * upper
    with pytest.raises(ValueError):
        comb.pt_hole_count_closed_form(0)
