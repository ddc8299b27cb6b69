"""Tests of fairbook.audit.small_groups: hole probabilities and the detectable-gap p-value
against brute-force enumeration, the mirror identity, and the reasons' sentences."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from fairbook.audit.small_groups import (
    hole_probability,
    min_gap_pvalue,
    mirror,
    small_group_reasons,
)
from fairbook.metrics import compute
from fairbook.stats import match
from fairbook.stats.combinatorics import BINOMIAL_CELLS, JRM_CELLS, hole_count

METRICS = [*BINOMIAL_CELLS, *JRM_CELLS, "B"]
P_REF = np.array([0.3, 0.1, 0.2, 0.4])


def law(metric, p_ref, n):
    """(values, probabilities) of every matrix of size n, holes left out, unnormalised."""
    values, probs = [], []
    for tp, fn, fp in itertools.product(range(n + 1), repeat=3):
        tn = n - tp - fn - fp
        if tn < 0:
            continue
        prob = math.factorial(n)
        for c, p in zip((tp, fn, fp, tn), p_ref, strict=True):
            prob *= p**c / math.factorial(c)
        values.append(compute(metric, np.array([tp, fn, fp, tn], dtype=float)))
        probs.append(prob)
    return np.array(values), np.array(probs)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("n", [1, 4, 9])
def test_hole_probability_equals_enumeration(metric, n):
    values, probs = law(metric, P_REF, n)
    assert hole_probability(metric, P_REF, n) == pytest.approx(probs[np.isnan(values)].sum())
    assert hole_probability(metric, P_REF, n) == pytest.approx(
        match.distribution(metric, P_REF, n).p_undefined
    )


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("n", [3, 8])
@pytest.mark.parametrize("gap", [0.05, 0.3])
def test_min_gap_pvalue_equals_enumeration(metric, n, gap):
    values, probs = law(metric, P_REF, n)
    defined = ~np.isnan(values)
    values, probs = values[defined], probs[defined] / probs[defined].sum()
    centre = compute(metric, P_REF)
    low_end = -1.0 if metric == "B" else 0.0
    candidates = []
    if centre - gap >= low_end:
        candidates.append(2 * probs[values <= centre - gap + 1e-12].sum())
    if centre + gap <= 1.0:
        candidates.append(2 * probs[values >= centre + gap - 1e-12].sum())
    expected = min(1.0, min(candidates))
    assert min_gap_pvalue(metric, P_REF, n, gap=gap) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("metric", METRICS)
def test_mirror_turns_the_upper_tail_into_a_lower_one(metric):
    other, q = mirror(metric, P_REF)
    for cm in ([3, 1, 2, 4], [0, 2, 5, 1], [4, 0, 0, 4]):
        s, t = (
            compute(metric, cm),
            compute(other, np.asarray(cm)[[0, 2, 1, 3]] if metric == "B" else np.asarray(cm)),
        )
        if not math.isnan(s):
            assert t == pytest.approx(-s if metric == "B" else 1 - s)


def test_min_gap_pvalue_falls_with_size_and_respects_the_range():
    p_values = [min_gap_pvalue("PPR", P_REF, n, gap=0.05) for n in (10, 100, 1000, 10_000)]
    assert p_values[0] > 0.05 > p_values[-1]
    assert p_values == sorted(p_values, reverse=True)
    # a reference rate of 0.02 cannot fall by 0.05: only the upward direction counts
    p = np.array([0.01, 0.49, 0.01, 0.49])
    upward = 2 * stats.binom.sf(13, 200, 0.02)  # P(PPR >= 0.07) = P(K >= 14)
    assert min_gap_pvalue("PPR", p, 200, gap=0.05) == pytest.approx(upward, rel=1e-9)
    assert math.isnan(min_gap_pvalue("PPR", P_REF, 10, gap=1.5))
    assert math.isnan(min_gap_pvalue("TPR", [0, 0, 0.5, 0.5], 10, gap=0.05))  # never defined


def test_reasons_for_an_undefined_a_spread_and_a_hole_group():
    reasons = small_group_reasons("TPR", [0, 0, 2, 3], P_REF)
    assert reasons["small"]
    text = " | ".join(reasons["reasons"])
    assert "TPR is undefined in this group: TP + FN = 0 (no actual positives)" in text
    assert "with 5 people a gap of 0.05 in TPR would not be significant" in text
    assert "undefined for 8% of groups of 5" in text  # (1 - 0.3 - 0.1) ** 5 = 0.078
    assert f"{hole_count('TPR', 5)} of the 56 confusion matrices of 5 people" in text


def test_a_large_group_is_not_small():
    reasons = small_group_reasons("ACC", [3000, 1000, 2000, 4000], P_REF)
    assert not reasons["small"] and reasons["reasons"] == []
    assert reasons["min_gap_p"] < 1e-10 and reasons["p_hole"] == 0.0


def test_small_group_table_equals_reasons_group_by_group():
    from fairbook.audit.small_groups import small_group_table

    p = [0.3, 0.1, 0.2, 0.4]
    counts = np.array(
        [[1, 0, 2, 8], [1, 0, 2, 8], [0, 0, 3, 4], [300, 100, 200, 400], [0, 1, 0, 0]]
    )
    for metric in ("TPR", "ACC", "B", "PPV"):
        table = small_group_table(metric, counts, p)
        for g, cm in enumerate(counts):
            want = small_group_reasons(metric, cm, p)
            assert table["small"][g] == want["small"]
            assert table["reasons"][g] == "; ".join(want["reasons"])
            assert table["p_hole"][g] == want["p_hole"]
            assert table["min_gap_p"][g] == pytest.approx(want["min_gap_p"], rel=1e-12, nan_ok=True)


# ------------------------------------------------------------------ the exact size beside a flag
@pytest.mark.parametrize("test", ["match", "wald", "score", "fisher", "boschloo", "bayes"])
def test_the_size_beside_each_flag_is_group_tests_exact_size(test):
    """Sizes from the audit's comparisons against ``group_tests.exact_size`` called with the
    counts read back from the per-group table: n of everyone for a binomial metric, the
    metric's own denominator (actual positives for TPR, predicted positives for PPV) else."""
    from fairbook.audit import audit
    from fairbook.stats import group_tests

    from .conftest import make_table

    report = audit(make_table(240, seed=3), groups=["race"], test=test, alpha=0.05)
    groups = report.to_frame("groups").set_index("group")
    table = report.to_frame("comparisons")
    ref = groups.loc[report.reference, ["TP", "FN", "FP", "TN"]].to_numpy()
    checked = 0
    for row in table[table["small"]].itertuples():
        cells = groups.loc[row.group, ["TP", "FN", "FP", "TN"]].to_numpy()
        if row.metric == "B":
            assert math.isnan(row.exact_size) and "not a rate" in row.size_note
            continue
        if row.metric in BINOMIAL_CELLS:
            i, j = BINOMIAL_CELLS[row.metric]
            n, y, N = cells.sum(), ref[i] + ref[j], ref.sum()
        else:
            i, j = JRM_CELLS[row.metric]
            n, y, N = cells[i] + cells[j], ref[i], ref[i] + ref[j]
        expected = group_tests.exact_size(test, int(n), p=y / N, N=int(N), alpha=0.05)
        assert row.exact_size == pytest.approx(expected, rel=1e-9, abs=1e-12)
        assert 0.0 <= row.exact_size <= 1.0 and row.size_note == ""
        checked += 1
    assert checked >= 12
    assert table.loc[~table["small"], "exact_size"].isna().all()  # only flags get a size


def test_a_hole_has_no_size_and_says_why():
    from fairbook.audit.small_groups import small_group_table

    t = small_group_table(
        "TPR", [[0, 0, 4, 6], [1, 1, 4, 4]], P_REF, test="score", reference=[30, 10, 20, 40]
    )
    assert t["small"].tolist() == [True, True]
    assert math.isnan(t["exact_size"][0])
    assert t["size_note"][0] == "size undefined: no denominator in the group"
    from fairbook.stats.group_tests import exact_size

    expected = exact_size("score", 2, p=0.75, N=40)  # 1 of 2 actual positives; 30 of 40
    assert t["exact_size"][1] == pytest.approx(expected)


def test_the_size_is_not_computed_beyond_its_limit_and_says_so():
    from fairbook.audit.rate_tests import exact_size

    size, note = exact_size("bayes", 30, rate=0.4, N=100_000, alpha=0.05)
    assert math.isnan(size) and note.startswith("size not computed")
