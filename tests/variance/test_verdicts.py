"""Tests of fairbook.variance.verdicts: flip rates against enumeration of pairs and closed
forms, Monte Carlo against 2p(1 − p), bootstrap variance against the binomial one, the
favoured-group agreement by enumeration, and counts against fairbook.confusion."""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.confusion import confusion_counts
from fairbook.metrics import compare, compute
from fairbook.variance.verdicts import (
    bootstrap_indices,
    comparison_table,
    comparison_values,
    disagreement,
    favoured,
    flip_rate,
    flip_rate_by_size,
    flip_rates,
    group_counts,
    pairwise_disagreement,
    verdicts,
)

verdict_lists = st.lists(st.sampled_from([0.0, 1.0, np.nan]), min_size=0, max_size=12)


def _pairs_disagreeing(values):
    defined = [v for v in values if not np.isnan(v)]
    pairs = list(itertools.combinations(defined, 2))
    return np.mean([a != b for a, b in pairs]) if pairs else np.nan


def test_constant_verdicts_never_flip_and_alternating_ones_flip_exactly():
    for r in range(2, 10):
        assert flip_rate([1] * r) == 0.0 and flip_rate([0] * r) == 0.0
    for r in (2, 4, 6, 10):  # k = r / 2: (r/2)^2 / C(r, 2) = r / (2 (r - 1))
        alternating = [1, 0] * (r // 2)
        assert flip_rate(alternating) == pytest.approx(r / (2 * (r - 1)))
    assert np.isnan(flip_rate([1])) and np.isnan(flip_rate([np.nan, 1, np.nan]))


@given(verdict_lists)
@settings(max_examples=200, deadline=None)
def test_flip_rate_is_the_share_of_disagreeing_pairs(values):
    got = flip_rate(values) if values else flip_rate(np.empty(0))
    expected = _pairs_disagreeing(values)
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected)
        swapped = [1 - v if not np.isnan(v) else v for v in values]
        assert flip_rate(swapped) == pytest.approx(got)  # symmetric in fair / unfair
        assert flip_rate(values[::-1]) == pytest.approx(got)  # order does not matter


@given(verdict_lists, st.sampled_from([0.0, 1.0]))
@settings(max_examples=100, deadline=None)
def test_flip_rate_against_a_reference_is_the_share_that_differs(values, ref):
    defined = [v for v in values if not np.isnan(v)]
    got = flip_rate(np.asarray(values, dtype=float), reference=ref)
    if not defined:
        assert np.isnan(got)
    else:
        assert got == pytest.approx(np.mean([v != ref for v in defined]))


def test_flip_rate_along_an_axis_and_bad_input():
    v = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [0, 1, np.nan, np.nan]])
    np.testing.assert_allclose(flip_rate(v), [4 / 6, 0.0, 1.0])
    np.testing.assert_allclose(flip_rate(v.T, axis=0), [4 / 6, 0.0, 1.0])
    with pytest.raises(ValueError, match="must be 0, 1 or NaN"):
        flip_rate([0.5, 1.0])


def test_flip_rate_is_unbiased_for_two_p_one_minus_p():
    rng = np.random.default_rng(0)
    for p in (0.1, 0.3, 0.5):
        draws = (rng.random((20_000, 5)) < p).astype(float)  # 5 variants, many verdicts
        rates = flip_rate(draws)
        se = rates.std() / np.sqrt(rates.size)
        assert abs(rates.mean() - 2 * p * (1 - p)) < 4 * se


def test_verdict_rules():
    np.testing.assert_array_equal(
        verdicts([0.79, 0.8, 1.0, 1.25, 1.26], rule="ratio", threshold=0.8), [1, 0, 0, 0, 1]
    )
    np.testing.assert_array_equal(
        verdicts([-0.06, 0.05, 0.0], rule="difference", threshold=0.05), [1, 0, 0]
    )
    np.testing.assert_array_equal(verdicts([0.21, 0.2], rule="above", threshold=0.2), [1, 0])
    assert np.isnan(verdicts([np.nan], rule="above", threshold=0.2)[0])
    with pytest.raises(ValueError, match="unknown rule"):
        verdicts([1.0], rule="ratios", threshold=0.8)
    with pytest.raises(ValueError, match="0 < threshold < 1"):
        verdicts([1.0], rule="ratio", threshold=1.25)
    with pytest.raises(ValueError, match="threshold >= 0"):
        verdicts([1.0], rule="difference", threshold=-0.1)


def test_flip_rates_of_a_long_table_with_and_without_reference():
    t = pd.DataFrame(
        {
            "metric": ["DI"] * 4 + ["OFI"] * 3,
            "unfair": [1, 0, 1, np.nan, 1, 1, 0],
            "base": [True, False, False, False, True, False, False],
        }
    )
    out = flip_rates(t, by=["metric"]).set_index("metric")
    assert out.loc["DI", "variants"] == 3 and out.loc["DI", "share_unfair"] == pytest.approx(2 / 3)
    assert out.loc["DI", "flip_rate"] == pytest.approx(2 / 3)
    assert out.loc["OFI", "flip_rate"] == pytest.approx(2 / 3)
    ref = flip_rates(t, by=["metric"], reference="base").set_index("metric")
    assert ref.loc["DI", "flip_rate"] == pytest.approx(0.5)  # 0 differs from 1, 1 agrees
    assert ref.loc["OFI", "flip_rate"] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="no column"):
        flip_rates(t, by=["group"])
    with pytest.raises(ValueError, match="exactly one reference"):
        flip_rates(t.assign(base=False), by=["metric"], reference="base")


def test_disagreement_by_enumeration_of_directions():
    for combo in itertools.product([-1.0, 0.0, 1.0, np.nan], repeat=3):
        defined = [c for c in combo if not np.isnan(c)]
        got = disagreement(np.array(combo))
        if len(defined) < 2:
            assert np.isnan(got)
        else:
            assert got == float(len(set(defined)) > 1)
    np.testing.assert_array_equal(favoured([0.5, 0.0, -0.1], pivot=0.0), [1, 0, -1])


def test_pairwise_disagreement_by_enumeration():
    rows = list(itertools.product([-1.0, 1.0, np.nan], repeat=3))
    d = pd.DataFrame(rows, columns=["DI", "OFI", "EOpp"])
    out = pairwise_disagreement(d).set_index("pair")
    # of the 9 rows with DI and OFI both defined, 4 disagree (±1 vs ∓1, 2 × 2 of them)
    assert out.loc["DI vs OFI", "n"] == 3 * 4 and out.loc["DI vs OFI", "share"] == 0.5


def test_group_counts_match_confusion_counts_for_runs_and_resamples():
    rng = np.random.default_rng(1)
    n = 300
    y = rng.integers(0, 2, n)
    runs = rng.integers(0, 2, (3, n))
    g = rng.choice(["x", "y", "z"], n)
    counts, labels = group_counts(y, runs, g)
    assert counts.shape == (3, 3, 4) and labels.tolist() == ["x", "y", "z"]
    for r in range(3):
        np.testing.assert_array_equal(counts[r], confusion_counts(y, runs[r], g))
    idx = bootstrap_indices(g, n_boot=4, seed=2)
    boot, _ = group_counts(y, runs[0], g, index=idx)
    for b in range(4):
        np.testing.assert_array_equal(
            boot[b], confusion_counts(y[idx[b]], runs[0][idx[b]], g[idx[b]])
        )
        np.testing.assert_array_equal(boot[b].sum(axis=1), counts[0].sum(axis=1))  # stratified
    with pytest.raises(ValueError, match="only 0 and 1"):
        group_counts([0, 2], [0, 1], ["a", "a"])
    with pytest.raises(ValueError, match="share length"):
        group_counts([0, 1], [0, 1, 1], ["a", "a"])


def test_bootstrap_variance_of_a_rate_is_binomial():
    n, p = 200, 0.3
    y_pred = np.zeros(n, dtype=int)
    y_pred[: int(p * n)] = 1
    idx = bootstrap_indices(np.zeros(n), n_boot=4000, seed=3)
    counts, _ = group_counts(np.ones(n, dtype=int), y_pred, np.zeros(n), index=idx)
    rates = compute("PPR", counts[:, 0, :])
    var = p * (1 - p) / n
    # the variance of a sample variance of normal-ish draws: 2 var^2 / (B - 1)
    assert abs(rates.var() - var) < 4 * np.sqrt(2 / 3999) * var


def test_comparison_values_equal_compare_and_tpr_gap():
    rng = np.random.default_rng(5)
    cm = rng.integers(0, 20, (6, 3, 4))
    vals = comparison_values(cm, reference=2)
    for r in range(6):
        for g in range(3):
            assert vals[r, g, 0] == pytest.approx(compare("DI", cm[r, g], cm[r, 2]), nan_ok=True)
            assert vals[r, g, 1] == pytest.approx(compare("OFI", cm[r, g], cm[r, 2]))
            eo = compute("TPR", cm[r, g]) - compute("TPR", cm[r, 2])
            assert vals[r, g, 2] == pytest.approx(eo, nan_ok=True)
    with pytest.raises(ValueError, match="not a group position"):
        comparison_values(cm, reference=3)
    with pytest.raises(ValueError, match="unknown metrics"):
        comparison_values(cm, reference=0, metrics=["SPD"])


def test_comparison_table_leaves_out_the_reference():
    t = comparison_table(
        [1, 0, 1, 0, 1, 0],
        [[1, 1, 0, 0, 1, 1], [1, 0, 0, 0, 1, 1]],
        list("aabbcc"),
        reference="b",
        variants=["r0", "r1"],
    )
    assert set(t["group"]) == {"a", "c"} and set(t["variant"]) == {"r0", "r1"}
    assert len(t) == 2 * 2 * 3 and (t["n"] == 2).all()
    with pytest.raises(ValueError, match="not a group"):
        comparison_table([1, 0], [1, 0], ["a", "b"], reference="z")


def test_flip_rate_by_size_at_the_full_size_has_no_sampling_flips():
    rng = np.random.default_rng(6)
    n = 400
    y = rng.integers(0, 2, n)
    g = np.where(np.arange(n) < 100, "small", "big")
    runs = np.stack([np.where(rng.random(n) < 0.2, 1 - y, y) for _ in range(3)])
    rules = {"DI": ("ratio", 0.8), "EOpp": ("difference", 0.05)}
    t = flip_rate_by_size(
        y, runs, g, group="small", reference="big", sizes=[10, 100], n_draws=20, rules=rules, seed=0
    )
    full = t[(t["size"] == 100) & (t["source"] == "samples")]
    assert (full["flip_rate"] == 0.0).all()  # every draw is the whole group
    # a group predicted positive always against a reference never: DI is infinite or NaN,
    # EOpp = 1 whenever defined, so nothing flips at any size
    y2 = np.ones(n, dtype=int)
    pred = np.stack([np.where(g == "small", 1, 0)] * 2)
    t2 = flip_rate_by_size(
        y2,
        pred,
        g,
        group="small",
        reference="big",
        sizes=[5, 50],
        n_draws=10,
        rules={"EOpp": ("difference", 0.05)},
    )
    assert (t2["flip_rate"] == 0.0).all()
    with pytest.raises(ValueError, match="outside"):
        flip_rate_by_size(
            y, runs, g, group="small", reference="big", sizes=[101], n_draws=2, rules=rules
        )
