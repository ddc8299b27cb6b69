"""Tests of fairbook.audit.significance: MATCH p-values against brute-force enumeration of
every confusion matrix of a tiny group, and Holm's adjustment against the textbook
procedure."""

import itertools
import math

import numpy as np
import pytest

from fairbook.audit.significance import (
    EXACT_METRICS,
    check_metrics,
    holm,
    match_pvalue,
    match_pvalues,
)
from fairbook.metrics import compute
from fairbook.stats import match, multiple_testing


def brute_force_pvalue(metric, cm, p_ref):
    """Two-sided MATCH p-value by summing the multinomial pmf over every matrix of size n,
    conditional on the metric being defined (the oracle, written independently)."""
    n = int(sum(cm))
    observed = compute(metric, np.asarray(cm, dtype=float))
    if math.isnan(observed):
        return math.nan
    low = high = total = 0.0
    for tp, fn, fp in itertools.product(range(n + 1), repeat=3):
        tn = n - tp - fn - fp
        if tn < 0:
            continue
        cells = (tp, fn, fp, tn)
        prob = math.factorial(n)
        for c, p in zip(cells, p_ref, strict=True):
            prob *= p**c / math.factorial(c)
        value = compute(metric, np.asarray(cells, dtype=float))
        if math.isnan(value):
            continue
        total += prob
        low += prob if value <= observed + 1e-12 else 0.0
        high += prob if value >= observed - 1e-12 else 0.0
    return min(1.0, 2 * min(low, high) / total)


@pytest.mark.parametrize("metric", EXACT_METRICS)
def test_exact_pvalues_equal_enumeration_on_tiny_groups(metric):
    rng = np.random.default_rng(sum(map(ord, metric)))
    for _ in range(3):
        n = int(rng.integers(1, 7))
        p_ref = rng.dirichlet(np.ones(4))
        cm = rng.multinomial(n, rng.dirichlet(np.ones(4)))
        expected = brute_force_pvalue(metric, cm, p_ref)
        got = match_pvalue(metric, cm, p_ref)
        if math.isnan(expected):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(expected, abs=1e-9)
            enumerated = match.test(metric, cm, p_ref, method="enumerate")
            assert got == pytest.approx(enumerated, abs=1e-9)


def test_match_pvalues_keeps_order_and_runs_in_processes():
    p = [0.3, 0.1, 0.2, 0.4]
    jobs = [("ACC", [5, 1, 2, 2], p), ("TPR", [0, 0, 4, 6], p), ("B", [1, 3, 0, 6], p)]
    serial = match_pvalues(jobs)
    assert np.isnan(serial[1])  # TPR undefined: no actual positives
    np.testing.assert_allclose(match_pvalues(jobs, n_jobs=2), serial, equal_nan=True)
    assert match_pvalue("ACC", [0, 0, 0, 0], p) != match_pvalue("ACC", [0, 0, 0, 1], p)


def test_holm_is_the_statistics_modules_own():
    # the audit re-exports it (part of its API); the one implementation is tested in
    # tests/stats/test_multiple_testing.py
    assert holm is multiple_testing.holm


def test_check_metrics():
    assert check_metrics("b") == ("B",)
    for bad in (["F1"], ["PT"], [3]):
        with pytest.raises(ValueError, match="no exact MATCH law"):
            check_metrics(bad)
