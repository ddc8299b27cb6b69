"""KS, KL and JS of categorical distributions: scipy cross-checks and the paper's values."""

import numpy as np
import pytest
from scipy.spatial.distance import jensenshannon
from scipy.stats import entropy, ks_2samp

from fairbook.generative import divergence as dv
from fairbook.papers import seed003


@pytest.mark.parametrize("k", [2, 5, 14])
def test_kl_js_ks_match_scipy(k):
    rng = np.random.default_rng(k)
    for _ in range(20):
        p, q = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
        assert dv.kl_divergence(p, q) == pytest.approx(entropy(p, q), rel=1e-10)
        assert dv.js_distance(p, q) == pytest.approx(jensenshannon(p, q), rel=1e-9)
        assert dv.ks_statistic(p, q, method="entries") == pytest.approx(
            ks_2samp(p, q, method="asymp").statistic
        )
        by_hand = max(abs(sum(p[: i + 1]) - sum(q[: i + 1])) for i in range(k))
        assert dv.ks_statistic(p, q) == pytest.approx(by_hand)


def test_kl_with_zeros():
    assert dv.kl_divergence([0.5, 0.5, 0], [0.25, 0.25, 0.5]) == pytest.approx(np.log(2))
    assert dv.kl_divergence([0.5, 0.5], [1.0, 0.0]) == np.inf
    # JS is always finite and at most sqrt(ln 2)
    assert dv.js_distance([1, 0], [0, 1]) == pytest.approx(np.sqrt(np.log(2)))


def test_identical_distributions_are_at_zero():
    p = [0.2, 0.3, 0.5]
    assert dv.divergences(p, p) == {"KS statistic": 0.0, "KL divergence": 0.0, "JS distance": 0.0}


def test_one_hot_over_ten_reproduces_the_papers_real_activity_column():
    printed = seed003.TABLE_3_5
    one_hot = np.eye(10)
    values = dv.rowwise_divergences(one_hot, np.full(10, 0.1))
    for metric, value in values.items():
        assert round(value, 3) == pytest.approx(printed[metric]["Activities"]["Real"], abs=1e-3)


def test_improvement_percent_reproduces_the_papers_row():
    for metric, parts in seed003.TABLE_3_5.items():
        for part in parts.values():
            ours = dv.improvement_percent(part["Real"], part["Synthetic"])
            assert ours == pytest.approx(part["Improvement %"], abs=0.06), metric
    assert np.isnan(dv.improvement_percent(0.0, 0.0))


def test_proportions():
    assert dv.proportions(["b", "b", "a", "c"], ["a", "b", "c", "d"]).tolist() == [
        0.25,
        0.5,
        0.25,
        0.0,
    ]
    with pytest.raises(ValueError, match="not among"):
        dv.proportions(["z"], ["a"])
    with pytest.raises(ValueError, match="empty"):
        dv.proportions([], ["a"])


@pytest.mark.parametrize(
    "p, q, message",
    [
        ([0.5, 0.6], [0.5, 0.5], "sum to 1"),
        ([-0.5, 1.5], [0.5, 0.5], "non-negative"),
        ([0.5, 0.5], [1 / 3] * 3, "same length"),
        ([[0.5, 0.5]], [0.5, 0.5], "1-D"),
    ],
)
def test_bad_input(p, q, message):
    with pytest.raises(ValueError, match=message):
        dv.divergences(p, q)


def test_bad_method_and_rows():
    with pytest.raises(ValueError, match="method"):
        dv.ks_statistic([1, 0], [0.5, 0.5], method="sup")
    with pytest.raises(ValueError, match="rows"):
        dv.rowwise_divergences([0.5, 0.5], [0.5, 0.5])
