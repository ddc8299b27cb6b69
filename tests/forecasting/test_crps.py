"""CRPS, ordering penalty and loss against brute force, closed forms and hand cases."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from fairbook.forecasting.crps import crps, ordered_crps, ordering_penalty, quantile_levels


def brute_crps(quantiles, y):
    """Eqs. 5.5–5.7 with explicit loops, for one forecast shaped (T, C)."""
    quantiles = np.asarray(quantiles, float)
    t_steps, c = quantiles.shape
    t1 = sum(abs(quantiles[t, j] - y[t]) for t in range(t_steps) for j in range(c)) / (t_steps * c)
    t2 = sum(
        abs(quantiles[t, j] - quantiles[t, k])
        for t in range(t_steps)
        for j in range(c)
        for k in range(c)
    ) / (t_steps * c * c)
    return t1 - 0.5 * t2


def integral_crps(values, y):
    """∫ (F(x) − 1{x ≥ y})² dx for the empirical CDF of ``values``, exactly (piecewise constant)."""
    values = np.sort(np.asarray(values, float))
    knots = np.sort(np.append(values, y))
    total = 0.0
    for left, right in zip(knots[:-1], knots[1:], strict=True):
        mid = (left + right) / 2
        f = np.mean(values <= mid)
        total += (f - (mid >= y)) ** 2 * (right - left)
    return total


finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 4), st.integers(1, 9)), elements=finite), st.data())
def test_crps_equals_the_double_loop(quantiles, data):
    n_steps = quantiles.shape[0]
    y = np.array(data.draw(st.lists(finite, min_size=n_steps, max_size=n_steps)))
    assert crps(quantiles, y) == pytest.approx(brute_crps(quantiles, y), abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(arrays(float, st.integers(1, 12), elements=finite), finite)
def test_crps_is_the_integral_form_of_the_empirical_distribution(values, y):
    assert crps(values[None, :], np.array([y])) == pytest.approx(integral_crps(values, y), abs=1e-8)
    assert crps(values[None, :], np.array([y])) >= -1e-12


def test_point_forecast_on_target_scores_zero_and_off_target_scores_the_distance():
    assert crps(np.full((3, 5), 0.7), np.full(3, 0.7)) == pytest.approx(0.0, abs=1e-15)
    assert crps(np.full((1, 5), 0.7), np.array([0.2])) == pytest.approx(0.5)


def test_hand_case_two_quantiles():
    # T1 = (0 + 1)/2, T2 = (0 + 1 + 1 + 0)/4 → 0.5 − 0.25
    assert crps([[0.0, 1.0]], [0.0]) == pytest.approx(0.25)


def test_order_of_quantiles_does_not_change_crps():
    rng = np.random.default_rng(0)
    q, y = rng.normal(size=(4, 16, 11)), rng.normal(size=(4, 16))
    assert np.allclose(crps(q, y), crps(rng.permuted(q, axis=-1), y))


@pytest.mark.parametrize("mu, sigma, y", [(0.0, 1.0, 0.3), (2.0, 0.5, 1.0), (-1.0, 3.0, 4.0)])
def test_normal_quantiles_approach_the_closed_form(mu, sigma, y):
    z = (y - mu) / sigma
    exact = sigma * (z * (2 * stats.norm.cdf(z) - 1) + 2 * stats.norm.pdf(z) - 1 / np.sqrt(np.pi))
    errors = []
    for c in (11, 111, 1111):
        q = stats.norm.ppf(quantile_levels(c), loc=mu, scale=sigma)
        errors.append(abs(crps(q[None, :], np.array([y])) - exact))
    assert errors[0] > errors[1] > errors[2]
    assert errors[1] < 0.01 * sigma and errors[2] < 0.002 * sigma


def test_batch_dimensions_and_per_step():
    rng = np.random.default_rng(1)
    q, y = rng.normal(size=(2, 3, 5, 7)), rng.normal(size=(2, 3, 5))
    out = crps(q, y)
    assert out.shape == (2, 3)
    assert out[1, 2] == pytest.approx(brute_crps(q[1, 2], y[1, 2]))
    assert crps(q, y, per_step=True).shape == (2, 3, 5)
    assert np.allclose(crps(q, y, per_step=True).mean(-1), out)


def test_torch_matches_numpy_and_is_differentiable():
    rng = np.random.default_rng(2)
    q, y = rng.normal(size=(4, 16, 9)), rng.normal(size=(4, 16))
    tq = torch.tensor(q, requires_grad=True)
    loss = ordered_crps(tq, torch.tensor(y))
    loss.backward()
    assert float(loss.detach()) == pytest.approx(ordered_crps(q, y))
    assert torch.isfinite(tq.grad).all() and tq.grad.abs().sum() > 0


def test_ordering_penalty_hand_cases_and_sorted_zero():
    assert ordering_penalty([[0.0, 2.0, 1.0]]) == pytest.approx(0.5)
    assert ordering_penalty([[3.0, 2.0, 1.0], [0.0, 0.0, 0.0]]) == pytest.approx(2 / 4)
    rng = np.random.default_rng(3)
    assert ordering_penalty(np.sort(rng.normal(size=(5, 16, 111)), axis=-1)).max() == 0.0


def test_loss_is_crps_plus_weighted_penalty():
    q, y = np.array([[[0.0, 2.0, 1.0]]]), np.array([[1.0]])
    assert ordered_crps(q, y) == pytest.approx(crps(q, y)[0] + 0.0075 * 0.5)


def test_levels():
    assert np.allclose(quantile_levels(111)[[0, 55, 110]], [0.5 / 111, 0.5, 110.5 / 111])
    with pytest.raises(ValueError, match="positive integer"):
        quantile_levels(0)


@pytest.mark.parametrize(
    "q, y, match",
    [
        (np.zeros(3), np.zeros(3), "shaped"),
        (np.zeros((2, 3)), np.zeros(3), "shaped like"),
    ],
)
def test_bad_shapes(q, y, match):
    with pytest.raises(ValueError, match=match):
        crps(q, y)


def test_bad_penalty_inputs():
    with pytest.raises(ValueError, match="two quantiles"):
        ordering_penalty(np.zeros((2, 1)))
    with pytest.raises(ValueError, match="omega"):
        ordered_crps(np.zeros((1, 2)), np.zeros(1), omega=-1)
