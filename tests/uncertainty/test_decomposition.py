"""Tests of the Kwon et al. decomposition (seed 000 Eq. 7) and group aggregation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.uncertainty import decompose, group_means, uncertainty_ratios
from fairbook.uncertainty.decomposition import check_probs


def eq7_matrices(samples):
    """Eq. 7 for one input, literally: the two C × C matrices."""
    mean = samples.mean(axis=0)
    epistemic = np.mean([np.outer(p - mean, p - mean) for p in samples], axis=0)
    aleatoric = np.mean([np.diag(p) - np.outer(p, p) for p in samples], axis=0)
    return epistemic, aleatoric


def test_hand_computation_two_classes():
    e, a, p = decompose([[[0.25, 0.75]], [[0.75, 0.25]]])
    # mean (.5, .5); deviations ±.25 in both classes: (2 · .0625 + 2 · .0625) / 2
    assert e[0] == pytest.approx(0.125)
    # Σ p(1 − p) = 2 · .25 · .75 = .375 for each sample
    assert a[0] == pytest.approx(0.375)
    assert p[0] == pytest.approx(0.5)


def test_trace_of_eq7_matrices_three_classes():
    rng = np.random.default_rng(0)
    probs = rng.dirichlet([1.0, 2.0, 3.0], size=(7, 5))  # T=7, N=5, C=3
    e, a, p = decompose(probs)
    for i in range(5):
        epi, alea = eq7_matrices(probs[:, i, :])
        assert e[i] == pytest.approx(np.trace(epi))
        assert a[i] == pytest.approx(np.trace(alea))
        assert p[i] == pytest.approx(np.trace(epi + alea))


def test_identical_samples_have_zero_epistemic():
    probs = np.tile(np.array([[0.3, 0.7], [0.9, 0.1]]), (10, 1, 1))
    e, a, _ = decompose(probs)
    np.testing.assert_array_equal(e, 0.0)
    np.testing.assert_allclose(a, [0.42, 0.18])


def test_one_hot_samples_have_zero_aleatoric():
    probs = np.array([[[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 0.0]], [[1.0, 0.0]]])
    e, a, p = decompose(probs)
    assert a[0] == 0.0
    # mean (.75, .25): predictive = Σ p̄(1 − p̄) = 2 · .75 · .25
    assert e[0] == pytest.approx(0.375)
    assert p[0] == pytest.approx(0.375)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 4), st.integers(2, 5), st.integers(0, 10_000))
def test_properties(T, N, C, seed):
    probs = np.random.default_rng(seed).dirichlet(np.ones(C), size=(T, N))
    e, a, p = decompose(probs)
    assert (e >= -1e-15).all() and (a >= -1e-15).all()
    np.testing.assert_allclose(e + a, p)
    mean = probs.mean(axis=0)
    np.testing.assert_allclose(p, (mean * (1 - mean)).sum(axis=1))
    assert (p <= 1 - 1 / C + 1e-12).all()


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.full((2, 3), 0.5), "shape"),
        (np.zeros((0, 2, 2)), "empty"),
        (np.array([[[np.nan, 1.0]]]), "finite"),
        (np.array([[[-0.1, 1.1]]]), r"\[0, 1\]"),
        (np.array([[[0.5, 0.4]]]), "sum to 1"),
    ],
)
def test_bad_inputs(bad, match):
    with pytest.raises(ValueError, match=match):
        decompose(bad)


def test_float32_softmax_passes():
    logits = np.random.default_rng(1).normal(size=(3, 4, 2)).astype(np.float32)
    probs = np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)
    assert check_probs(probs).dtype == np.float64


def test_group_means_and_ratios_by_hand():
    assert group_means([1.0, 3.0, 5.0], ["a", "a", "b"]) == {"a": 2.0, "b": 5.0}
    probs = np.array([[[0.5, 0.5], [0.9, 0.1], [0.8, 0.2]]])
    r = uncertainty_ratios(probs, ["a", "b", "b"], protected="a", reference="b")
    assert r["U_a"] == pytest.approx((0.5, (0.18 + 0.32) / 2))
    assert r["F_Alea"] == pytest.approx(0.5 / 0.25)
    assert np.isnan(r["F_Epis"])  # one sample: zero epistemic in both groups, 0/0
    with pytest.raises(ValueError, match="not in groups"):
        uncertainty_ratios(probs, ["a", "b", "b"], protected="a", reference="c")
    with pytest.raises(ValueError, match="same length"):
        group_means([1.0, 2.0], ["a"])
