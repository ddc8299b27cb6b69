"""Batched MATCH p-values equal the one-group path, scipy and enumeration."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from fairbook.audit.fast_match import MatchBatch, match_pvalues_batch
from fairbook.audit.significance import EXACT_METRICS
from fairbook.audit.small_groups import min_gap_pvalue
from fairbook.stats import match


def _close(new, old, rtol=1e-12):
    new, old = np.asarray(new, float), np.asarray(old, float)
    assert np.array_equal(np.isnan(new), np.isnan(old))
    ok = ~np.isnan(old)
    np.testing.assert_allclose(new[ok], old[ok], rtol=rtol, atol=0)


@pytest.mark.parametrize("seed", range(8))
def test_equals_match_test_group_by_group(seed):
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, 60, 4) * rng.integers(0, 2, 4)
    ref[rng.integers(4)] += 1
    p = ref / ref.sum()
    counts = rng.integers(0, rng.choice([3, 20, 300, 4000]), (10, 4))
    counts[:3] = counts[3]  # groups of the same size share their law
    counts[counts.sum(axis=1) == 0, 3] = 1
    batch = MatchBatch(p)
    for metric in EXACT_METRICS:
        old = [match.test(metric, c, p) for c in counts]
        _close(batch.pvalues(metric, counts), old)


def test_binomial_metric_against_scipy():
    p = np.array([0.3, 0.1, 0.2, 0.4])
    counts = np.array([[30, 20, 10, 40], [5, 0, 0, 5], [0, 3, 3, 0]])
    k, n = counts[:, 0] + counts[:, 3], counts.sum(axis=1)
    lower, upper = stats.binom.cdf(k, n, 0.7), stats.binom.sf(k - 1, n, 0.7)
    expected = np.minimum(1, 2 * np.minimum(lower, upper))
    _close(match_pvalues_batch("ACC", counts, p), expected)


@pytest.mark.parametrize("metric", ["B", "TPR", "PPV", "FOR", "ACC"])
def test_every_matrix_of_small_groups_against_enumeration(metric):
    from fairbook.stats.combinatorics import enumerate_confusion_matrices

    p = np.array([0.35, 0.15, 0.2, 0.3])
    for n in (1, 2, 5, 9):
        counts = enumerate_confusion_matrices(n).astype(np.int64)
        got = MatchBatch(p).pvalues(metric, counts)
        for cm, value in zip(counts, got, strict=True):
            low = match.cdf(metric, cm, p, method="enumerate")
            high = match.sf(metric, cm, p, method="enumerate")
            want = math.nan if math.isnan(low) else min(1.0, 2 * min(low, high))
            if math.isnan(want):
                assert math.isnan(value)
            else:
                assert value == pytest.approx(want, rel=1e-9, abs=1e-13)


def test_undefined_and_empty_groups_are_nan():
    got = match_pvalues_batch("TPR", [[0, 0, 3, 4], [0, 0, 0, 0], [1, 1, 0, 0]], [0.25] * 4)
    assert np.isnan(got[:2]).all() and 0 <= got[2] <= 1


@pytest.mark.parametrize("metric", EXACT_METRICS)
def test_min_gap_pvalues_equal_the_one_size_path(metric):
    p = np.array([0.3, 0.1, 0.2, 0.4])
    sizes = np.array([1, 2, 7, 7, 40, 400, 3000])
    want = [min_gap_pvalue(metric, p, int(n), gap=0.05) for n in sizes]
    _close(MatchBatch(p).min_gap_pvalues(metric, sizes, gap=0.05), want)


def test_tail_equals_cdf_at():
    p = [0.3, 0.1, 0.2, 0.4]
    for metric in ("PPR", "B", "TPR"):
        x = np.array([-0.2, 0.1, 0.5, 0.75]) if metric == "B" else np.array([0.1, 0.5, 0.75])
        _close(MatchBatch(p).tail(metric, x, 50), match.cdf_at(metric, x, p, 50))
