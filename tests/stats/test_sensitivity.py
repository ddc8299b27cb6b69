"""Tests of the factorial designs and the share-holding interval."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from fairbook.stats.sensitivity import fractional_factorial, resolution, share_holding


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_full_design_is_every_combination_once(k):
    design = fractional_factorial(k)
    assert design.shape == (2**k, k)
    assert {tuple(r) for r in design} == set(itertools.product((-1, 1), repeat=k))


def test_half_fraction_2_4_1_is_resolution_iv_and_balanced():
    design = fractional_factorial(3, {"D": (0, 1, 2)})
    assert design.shape == (8, 4)
    np.testing.assert_array_equal(design[:, 3], design[:, 0] * design[:, 1] * design[:, 2])
    assert resolution(design) == 4
    assert (design.sum(axis=0) == 0).all()  # every level equally often
    # orthogonal main effects (resolution >= 3)
    np.testing.assert_array_equal(design.T @ design, 8 * np.eye(4, dtype=int))


def test_2_7_3_design_with_three_factor_generators_is_resolution_iv():
    design = fractional_factorial(4, {"E": (0, 1, 2), "F": (1, 2, 3), "G": (0, 2, 3)})
    assert design.shape == (16, 7)
    assert resolution(design) == 4
    assert len({tuple(r) for r in design}) == 16
    assert (design[0] == -1).all()  # the all-low run is in this fraction


def test_resolution_of_a_two_factor_generator_is_three():
    assert resolution(fractional_factorial(2, {"C": (0, 1)})) == 3


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_bad_n_base(bad):
    with pytest.raises(ValueError, match="n_base"):
        fractional_factorial(bad)


@pytest.mark.parametrize("word", [(0,), (0, 0), (0, 5)])
def test_bad_generators(word):
    with pytest.raises(ValueError, match="generator"):
        fractional_factorial(3, {"X": word})


def test_resolution_rejects_non_pm1():
    with pytest.raises(ValueError, match="-1 and"):
        resolution([[0, 1]])


@given(st.integers(1, 60), st.data())
def test_share_interval_is_scipys_wilson(n, data):
    k = data.draw(st.integers(0, n))
    out = share_holding([True] * k + [False] * (n - k))
    expected = binomtest(k, n).proportion_ci(method="wilson")
    assert out["runs"] == n and out["holds"] == k and out["share"] == k / n
    assert out["low"] == pytest.approx(expected.low, abs=1e-12)
    assert out["high"] == pytest.approx(expected.high, abs=1e-12)


def test_share_leaves_out_undefined_runs_and_checks_input():
    out = share_holding([1.0, np.nan, 0.0])
    assert out["runs"] == 2 and out["share"] == 0.5
    assert np.isnan(share_holding([np.nan])["share"])
    with pytest.raises(ValueError, match="booleans"):
        share_holding([0.5])
    with pytest.raises(ValueError, match="confidence"):
        share_holding([True], confidence=1.0)
