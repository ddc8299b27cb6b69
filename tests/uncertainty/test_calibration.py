"""Tests of reliability-diagram data and ECE."""

import numpy as np
import pytest
from sklearn.calibration import calibration_curve

from fairbook.uncertainty import (
    aleatoric_temperature,
    decompose,
    expected_calibration_error,
    reliability_diagram,
    temper,
)


def test_hand_computation():
    probs = [[0.9, 0.1], [0.6, 0.4], [0.3, 0.7], [0.95, 0.05]]
    y = [0, 1, 1, 1]
    table = reliability_diagram(probs, y, n_bins=5)
    # confidences .9 (hit), .6 (miss), .7 (hit), .95 (miss) -> bins (.4,.6], (.6,.8], (.8,1]
    filled = table[table["count"] > 0]
    assert filled["count"].tolist() == [1, 1, 2]
    np.testing.assert_allclose(filled["confidence"], [0.6, 0.7, 0.925])
    np.testing.assert_allclose(filled["accuracy"], [0.0, 1.0, 0.5])
    expected = (0.6 + 0.3 + 2 * 0.425) / 4
    assert expected_calibration_error(probs, y, n_bins=5) == pytest.approx(expected)


def test_positive_mode_matches_scikit_learn():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=5000)
    y = (rng.uniform(size=5000) < p**1.5).astype(int)
    table = reliability_diagram(p, y, n_bins=10, mode="positive")
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10, strategy="uniform")
    filled = table[table["count"] > 0]
    np.testing.assert_allclose(filled["accuracy"], prob_true)
    np.testing.assert_allclose(filled["confidence"], prob_pred)


def test_calibrated_predictions_have_small_ece():
    rng = np.random.default_rng(1)
    p = rng.uniform(size=40_000)
    y = (rng.uniform(size=p.size) < p).astype(int)
    probs = np.column_stack([1 - p, p])
    assert expected_calibration_error(probs, y, n_bins=10) < 0.02
    overconfident = np.column_stack([1 - p**0.3, p**0.3])
    overconfident /= overconfident.sum(axis=1, keepdims=True)
    assert expected_calibration_error(overconfident, y, n_bins=10) > 0.1


@pytest.mark.parametrize(
    "probs, y, match",
    [
        (np.full((2, 2, 2), 0.5), [0, 1], "average Monte Carlo"),
        ([[0.5, 0.4]], [0], "sum to 1"),
        ([[0.5, 0.5]], [2], "class indices"),
        ([[0.5, 0.5]], [0, 1], "shape"),
        ([1.5], [1], r"\[0, 1\]"),
    ],
)
def test_bad_inputs(probs, y, match):
    with pytest.raises(ValueError, match=match):
        reliability_diagram(probs, y)


def test_bad_options():
    with pytest.raises(ValueError, match="n_bins"):
        reliability_diagram([[0.5, 0.5]], [0], n_bins=0)
    with pytest.raises(ValueError, match="mode"):
        reliability_diagram([[0.5, 0.5]], [0], mode="classwise")


@pytest.mark.parametrize(
    "n_bins", [10.0, 2.5, np.float64(5.0), True, False, np.bool_(True), "10", None]
)
@pytest.mark.parametrize("function", [reliability_diagram, expected_calibration_error])
def test_non_integer_n_bins_is_a_type_error_naming_n_bins(function, n_bins):
    with pytest.raises(TypeError, match="n_bins must be an integer"):
        function([[0.5, 0.5]], [0], n_bins=n_bins)


@pytest.mark.parametrize("n_bins", [0, -1, -10, np.int64(0), np.int32(-3)])
@pytest.mark.parametrize("function", [reliability_diagram, expected_calibration_error])
def test_n_bins_below_one_is_a_value_error(function, n_bins):
    with pytest.raises(ValueError, match="n_bins must be an integer >= 1"):
        function([[0.5, 0.5]], [0], n_bins=n_bins)


@pytest.mark.parametrize("n_bins", [np.int64(7), np.int32(7), np.uint8(7), 7])
def test_numpy_integer_n_bins_match_scikit_learn(n_bins):
    rng = np.random.default_rng(2)
    p = rng.uniform(size=2000)
    y = (rng.uniform(size=p.size) < p**2).astype(int)
    table = reliability_diagram(p, y, n_bins=n_bins, mode="positive")
    assert len(table) == 7
    prob_true, prob_pred = calibration_curve(y, p, n_bins=7, strategy="uniform")
    filled = table[table["count"] > 0]
    np.testing.assert_allclose(filled["accuracy"], prob_true)
    np.testing.assert_allclose(filled["confidence"], prob_pred)


def test_one_bin_ece_is_the_gap_of_the_means():
    # with a single bin, ECE = |mean accuracy − mean confidence| (closed form)
    probs = np.array([[0.9, 0.1], [0.6, 0.4], [0.3, 0.7], [0.95, 0.05]])
    y = np.array([0, 1, 1, 1])
    hits = probs.argmax(axis=1) == y
    expected = abs(hits.mean() - probs.max(axis=1).mean())
    assert expected_calibration_error(probs, y, n_bins=1) == pytest.approx(expected)


@pytest.mark.parametrize(
    "mode",
    ["classwise", "Top-Label", "", None, 1, ["top-label"], np.array(["top-label", "positive"])],
    ids=repr,
)
@pytest.mark.parametrize("function", [reliability_diagram, expected_calibration_error])
def test_unknown_mode_names_the_choices(function, mode):
    with pytest.raises(ValueError, match=r"mode must be one of \('top-label', 'positive'\)"):
        function([[0.5, 0.5]], [0], mode=mode)


# ----------------------------------------------------------------- temperature
def test_temper_is_logit_scaling_and_keeps_the_argmax():
    rng = np.random.default_rng(0)
    probs = rng.dirichlet([1.0, 2.0, 0.5], size=(4, 7))
    for tau in (0.3, 1.0, 2.5):
        out = temper(probs, tau)
        expected = np.exp(np.log(probs) / tau)
        np.testing.assert_allclose(out, expected / expected.sum(-1, keepdims=True), rtol=1e-12)
        np.testing.assert_array_equal(out.argmax(-1), probs.argmax(-1))
    np.testing.assert_allclose(temper(probs, 1.0), probs, rtol=1e-12)


def test_aleatoric_temperature_closed_form_for_one_binary_sample():
    # p = sigmoid(z); tempered p' = sigmoid(z / tau); aleatoric 2 p'(1 - p')
    z, tau = 1.3, 0.37
    p = 1 / (1 + np.exp(-z))
    q = 1 / (1 + np.exp(-z / tau))
    found = aleatoric_temperature(np.array([[[1 - p, p]]]), 2 * q * (1 - q))
    assert found == pytest.approx(tau, rel=1e-8)


def test_aleatoric_temperature_averages_group_means_and_reaches_the_target():
    rng = np.random.default_rng(1)
    probs = rng.dirichlet([2.0, 2.0], size=(5, 30))
    masks = [np.arange(30) < 5, np.arange(30) >= 5]
    tau = aleatoric_temperature(probs, 0.1, rows=masks)
    aleatoric = decompose(temper(probs, tau))[1]
    assert np.mean([aleatoric[m].mean() for m in masks]) == pytest.approx(0.1, abs=1e-8)
    assert tau < 1  # a lower level than the model's needs sharper samples


def test_aleatoric_temperature_unreachable_is_nan_and_bad_input_raises():
    probs = np.array([[[0.25, 0.75]]])
    assert np.isnan(aleatoric_temperature(probs, 0.6))  # above the binary maximum 0.5
    with pytest.raises(ValueError, match="temperature"):
        temper(probs, 0.0)
    with pytest.raises(ValueError, match="rows"):
        aleatoric_temperature(probs, 0.1, rows=[np.zeros(1, bool)])
    with pytest.raises(ValueError, match="bounds"):
        aleatoric_temperature(probs, 0.1, bounds=(2.0, 1.0))
