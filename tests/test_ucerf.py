"""Tests of fairbook.ucerf: LSBP confidence and desirability, UCerF, the group-wise
variant and the accuracy gaps (oracles: printed end points, closed forms, scipy,
fairlearn, Monte Carlo, hypothesis properties)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.stats import entropy

from fairbook import ucerf as U

probs2 = st.floats(0.0, 1.0, allow_nan=False)
unit = st.floats(0.0, 1.0, allow_nan=False)
signed = st.floats(-1.0, 1.0, allow_nan=False)


# ---- confidence_from_perplexity ---------------------------------------------------------


def test_confidence_end_points_and_k():
    assert U.confidence_from_perplexity([1.0, 2.0], 2).tolist() == [1.0, 0.0]
    assert U.confidence_from_perplexity([1.0, 2.5, 4.0], 4).tolist() == [1.0, 0.5, 0.0]
    assert math.isnan(U.confidence_from_perplexity([np.nan], 2)[0])


def test_confidence_rejects_out_of_range_and_clips_noise():
    with pytest.raises(ValueError, match=r"\[1, k\] = \[1, 2\]"):
        U.confidence_from_perplexity([2.5], 2)
    with pytest.raises(ValueError, match="clip=True"):
        U.confidence_from_perplexity([0.5], 2)
    # floating-point noise just outside the range is clipped silently
    assert U.confidence_from_perplexity([1 - 1e-12, 2 + 1e-12], 2).tolist() == [1.0, 0.0]
    # on request, anything is clipped
    assert U.confidence_from_perplexity([0.2, 7.0], 2, clip=True).tolist() == [1.0, 0.0]


@pytest.mark.parametrize("k", [1, 0, 2.5, True, "2"])
def test_confidence_bad_k(k):
    with pytest.raises(ValueError, match="k"):
        U.confidence_from_perplexity([1.0], k)


@given(p=probs2)
def test_confidence_of_two_options_matches_entropy(p):
    ppl = U.option_perplexity([[p, 1 - p]])[0]
    assert ppl == pytest.approx(math.exp(entropy([p, 1 - p])), rel=1e-12)
    c = U.confidence_from_perplexity([ppl], 2)[0]
    assert 0.0 <= c <= 1.0
    assert c == pytest.approx(2 - ppl)


# ---- option_perplexity / softmax_options --------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    scores=hnp.arrays(
        float, st.tuples(st.integers(1, 4), st.integers(2, 5)), elements=st.floats(-30, 5)
    ),
    temperature=st.floats(0.05, 20),
)
def test_perplexity_bounds_and_temperature_keeps_argmax(scores, temperature):
    probs = U.softmax_options(scores, temperature=temperature)
    assert np.allclose(probs.sum(axis=1), 1.0)
    k = scores.shape[1]
    ppl = U.option_perplexity(probs)
    assert ((ppl >= 1 - 1e-9) & (ppl <= k + 1e-9)).all()
    # the most probable option never changes with T (ties aside)
    ordered = np.sort(scores, axis=1)
    unique_top = ordered[:, -1] - ordered[:, -2] > 1e-6
    assert (probs.argmax(1) == scores.argmax(1))[unique_top].all()


def test_softmax_and_perplexity_reject_bad_input():
    with pytest.raises(ValueError, match="k >= 2"):
        U.softmax_options([1.0])
    with pytest.raises(ValueError, match="temperature"):
        U.softmax_options([[0.0, 1.0]], temperature=0)
    with pytest.raises(ValueError, match="-inf"):
        U.softmax_options([[-np.inf, -np.inf]])
    with pytest.raises(ValueError, match="NaN"):
        U.softmax_options([[np.nan, 0.0]])
    assert U.softmax_options([[0.0, -np.inf]]).tolist() == [[1.0, 0.0]]
    with pytest.raises(ValueError, match="sum to 1"):
        U.option_perplexity([[0.5, 0.6]])
    with pytest.raises(ValueError, match="non-negative"):
        U.option_perplexity([[1.5, -0.5]])


def test_temperature_sharpens_and_flattens():
    base = U.softmax_options([[-1.0, -2.0]])[0, 0]
    assert U.softmax_options([[-1.0, -2.0]], temperature=0.5)[0, 0] > base
    assert U.softmax_options([[-1.0, -2.0]], temperature=4.0)[0, 0] < base
    assert U.softmax_options([[-1.0, -2.0]], temperature=1e6)[0, 0] == pytest.approx(0.5)


# ---- desirability and UCerF --------------------------------------------------------------


def test_desirability_signs_and_errors():
    assert U.desirability([0.25, 0.25], [1, 0]).tolist() == [0.25, -0.25]
    assert U.desirability([0.0], [False]).tolist() == [0.0]  # no negative zero
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        U.desirability([1.5], [True])
    with pytest.raises(ValueError, match="boolean"):
        U.desirability([0.5], [2])


def test_ucerf_printed_end_points():
    # "1 represents perfect fairness, 0 complete unfairness"
    assert U.ucerf([0.4, -0.7], [0.4, -0.7]) == 1.0
    assert U.ucerf([1.0], [-1.0]) == 0.0
    assert U.ucerf([1.0, 0.0], [-1.0, 0.0]) == 0.5
    assert math.isnan(U.ucerf([], []))


def test_ucerf_errors():
    with pytest.raises(ValueError, match="same shape"):
        U.ucerf([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match=r"\[-1, 1\]"):
        U.ucerf([1.5], [0.0])


@given(a=st.lists(signed, min_size=1, max_size=20), data=st.data())
def test_ucerf_properties(a, data):
    b = data.draw(st.lists(signed, min_size=len(a), max_size=len(a)))
    value = U.ucerf(a, b)
    assert 0.0 <= value <= 1.0
    assert value == pytest.approx(U.ucerf(b, a))  # symmetric in the two groups
    # flipping which option counts as "correct" flips both signs: UCerF is unchanged
    assert value == pytest.approx(U.ucerf(-np.array(a), -np.array(b)))
    assert U.ucerf(a, a) == 1.0


# ---- group-wise UCerF and accuracy gaps ---------------------------------------------------


def _random_classification(seed, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.7, y, 1 - y)
    group = rng.choice(["f", "m"], n)
    return y, pred, group


@pytest.mark.parametrize("seed", range(5))
def test_eo_gaps_match_fairlearn(seed):
    from fairlearn.metrics import MetricFrame, equalized_odds_difference
    from sklearn.metrics import accuracy_score

    y, pred, group = _random_classification(seed)
    ours = U.eo_gaps(y, pred, group, groups=("f", "m"))
    assert ours["eo_difference"] == pytest.approx(
        equalized_odds_difference(y, pred, sensitive_features=group)
    )
    by_group = MetricFrame(
        metrics=accuracy_score, y_true=y, y_pred=pred, sensitive_features=group
    ).by_group
    assert ours["accuracy_gap"] == pytest.approx(by_group["f"] - by_group["m"])


@pytest.mark.parametrize("seed", range(5))
def test_group_ucerf_of_a_certain_model_is_one_minus_equalized_odds(seed):
    from fairlearn.metrics import equalized_odds_difference

    y, pred, group = _random_classification(seed)
    d = U.desirability(np.ones(len(y)), pred == y)
    rates = U.desirability_rates(d, y, group, groups=("f", "m"))
    for g in ("f", "m"):
        member = group == g
        assert rates.loc[g, "TPD"] == pytest.approx(pred[member & (y == 1)].mean())
        assert rates.loc[g, "FPD"] == pytest.approx(pred[member & (y == 0)].mean())
    assert U.ucerf_group(d, y, group) == pytest.approx(
        1 - equalized_odds_difference(y, pred, sensitive_features=group)
    )
    assert U.ucerf_group(d, y, group, agg="mean") == pytest.approx(
        1 - equalized_odds_difference(y, pred, sensitive_features=group, agg="mean")
    )


def test_tpd_is_the_tpr_of_a_model_right_with_probability_one_plus_d_over_two():
    # Monte Carlo oracle: answer correctly with probability (1 + D)/2; the expected TPR
    # of that random model over a group is its TPD.
    rng = np.random.default_rng(0)
    n, draws = 40, 20_000
    d = rng.uniform(-1, 1, n)
    y = np.ones(n, dtype=int)
    group = np.array(["a"] * (n // 2) + ["b"] * (n // 2))
    right = rng.random((draws, n)) < (1 + d) / 2
    exact = U.desirability_rates(d, y, group).loc["a", "TPD"]
    assert right[:, group == "a"].mean() == pytest.approx(exact, abs=0.01)


def test_uncertain_model_is_group_fair_and_undefined_rates_are_nan():
    y = np.array([1, 0, 1, 0])
    g = np.array(["a", "a", "b", "b"])
    assert U.ucerf_group(np.zeros(4), y, g) == 1.0
    assert math.isnan(U.ucerf_group([0.5, 0.5], [1, 1], ["a", "b"]))
    r = U.eo_gaps([1, 1], [1, 0], ["a", "b"])
    assert math.isnan(r["fpr_gap"]) and math.isnan(r["eo_difference"])


def test_group_errors():
    with pytest.raises(ValueError, match="exactly two groups"):
        U.ucerf_group([0.1, 0.2, 0.3], [1, 0, 1], ["a", "b", "c"])
    with pytest.raises(ValueError, match="agg"):
        U.ucerf_group([0.1, 0.2], [1, 0], ["a", "b"], agg="max")
    with pytest.raises(ValueError, match="0/1"):
        U.desirability_rates([0.1, 0.2], [2, 0], ["a", "b"])
    with pytest.raises(ValueError, match="one entry per sample"):
        U.eo_gaps([1, 0], [1, 0], ["a"])
    with pytest.raises(ValueError, match="differ in length"):
        U.eo_gaps([1, 0], [1], ["a", "b"])


@pytest.mark.parametrize(
    "call",
    [
        lambda g, gs: U.ucerf_group([1, -1, 1, 1], [1, 0, 1, 0], g, groups=gs),
        lambda g, gs: U.desirability_rates([1, -1, 1, 1], [1, 0, 1, 0], g, groups=gs),
        lambda g, gs: U.eo_gaps([1, 0, 1, 0], [1, 0, 0, 0], g, groups=gs),
    ],
    ids=["ucerf_group", "desirability_rates", "eo_gaps"],
)
def test_an_unknown_group_label_raises_naming_it_and_the_groups_present(call):
    group = ["female", "female", "male", "male"]
    call(group, ("female", "male"))  # the right labels do not raise
    with pytest.raises(ValueError, match=r"unknown group 'femal'.*\['female', 'male'\]"):
        call(group, ("femal", "male"))
    with pytest.raises(ValueError, match=r"unknown groups 'f', 'm'.*\['female', 'male'\]"):
        call(group, ("f", "m"))
    with pytest.raises(ValueError, match="two different groups"):
        call(group, ("male", "male"))
    with pytest.raises(ValueError, match="two groups"):
        call(group, "fm")


def test_named_groups_may_be_two_of_several_and_of_any_type():
    d, y = [1, -1, 1, 1, 0, 0], [1, 0, 1, 0, 1, 0]
    # the third group is left out: same value as without its samples
    assert U.ucerf_group(d, y, [1, 1, 2, 2, 3, 3], groups=(1, 2)) == U.ucerf_group(
        d[:4], y[:4], [1, 1, 2, 2]
    )
    with pytest.raises(ValueError, match=r"unknown group '1'.*\[1, 2, 3\]"):
        U.ucerf_group(d, y, [1, 1, 2, 2, 3, 3], groups=("1", 2))
