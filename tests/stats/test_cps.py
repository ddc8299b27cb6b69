"""Tests of fairbook.stats.cps: Cross-Prior Smoothing (Algorithm 1) and the MSE protocol."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.metrics import compute
from fairbook.stats import cps

P_GROUP = np.array([0.3, 0.1, 0.2, 0.4])


def algorithm_1(cm, cm_ref, lam):
    """Algorithm 1 line by line (the oracle)."""
    ref = [c / sum(cm_ref) for c in cm_ref]
    alpha = [c + lam * r for c, r in zip(cm, ref, strict=True)]
    total = sum(alpha)
    return [a / total * sum(cm) for a in alpha]


counts = st.lists(st.integers(0, 1000), min_size=4, max_size=4)
real_counts = st.lists(st.floats(0, 1e4, allow_nan=False), min_size=4, max_size=4)
references = st.lists(st.integers(0, 1000), min_size=4, max_size=4).filter(lambda c: sum(c) > 0)


@settings(max_examples=100, deadline=None)
@given(cm=real_counts, ref=references, lam=st.floats(0, 1e3))
def test_cps_keeps_the_total(cm, ref, lam):
    out = cps.smooth(cm, ref, lam)
    assert out.sum() == pytest.approx(sum(cm), rel=1e-12, abs=1e-9)
    assert (out >= 0).all()


@settings(max_examples=50, deadline=None)
@given(cm=counts.filter(lambda c: sum(c) > 0), ref=references, lam=st.floats(0.01, 100))
def test_cps_equals_algorithm_1(cm, ref, lam):
    assert cps.smooth(cm, ref, lam) == pytest.approx(algorithm_1(cm, ref, lam), rel=1e-12)


def test_lambda_zero_is_the_identity_and_infinity_the_reference():
    cm = np.array([3, 0, 1, 6])
    ref = np.array([40, 10, 20, 30])
    assert cps.smooth(cm, ref, 0).tolist() == cm.tolist()
    expected = ref / ref.sum() * cm.sum()
    assert cps.smooth(cm, ref, 1e12) == pytest.approx(expected, rel=1e-9)
    assert cps.smooth(cm, ref, np.inf) == pytest.approx(expected)
    previous = np.inf
    for lam in (1, 10, 100, 1000):  # the distance to the limit shrinks as λ grows
        distance = np.abs(cps.smooth(cm, ref, lam) - expected).sum()
        assert distance < previous
        previous = distance


def test_reference_is_normalised_and_batches_broadcast():
    rng = np.random.default_rng(0)
    batch = rng.integers(0, 20, size=(3, 5, 4))
    ref = np.array([4, 1, 2, 3])
    a = cps.smooth(batch, ref, 5)
    b = cps.smooth(batch, ref * 1000, 5)
    assert a.shape == (3, 5, 4)
    assert np.allclose(a, b)
    assert np.allclose(a.sum(-1), batch.sum(-1))
    for index in np.ndindex(3, 5):
        assert np.allclose(a[index], algorithm_1(batch[index].tolist(), ref.tolist(), 5))
    lam = np.array([0, 5, 20])[:, None]  # one λ per row of the batch
    out = cps.smooth(batch, ref, lam)
    assert np.allclose(out[0], batch[0])
    assert np.allclose(out[2], cps.smooth(batch[2], ref, 20))


def test_empty_group_stays_empty():
    assert cps.smooth([0, 0, 0, 0], [1, 2, 3, 4], 5).tolist() == [0, 0, 0, 0]
    assert cps.smooth([0, 0, 0, 0], [1, 2, 3, 4], 0).tolist() == [0, 0, 0, 0]


def test_cps_fills_holes():
    cm = [0, 0, 2, 3]  # TPR undefined
    assert math.isnan(compute("TPR", cm))
    assert compute("TPR", cps.smooth(cm, P_GROUP, 5)) == pytest.approx(0.75)


def test_additive():
    assert cps.additive([0, 2, 0, 3], 1).tolist() == [1, 3, 1, 4]
    assert cps.additive([0, 2, 0, 3], 0).tolist() == [0, 2, 0, 3]
    assert compute("TPR", cps.additive([0, 0, 2, 3], 1e-10)) == pytest.approx(0.5)
    out = cps.additive(np.ones((2, 4)), np.array([0.0, 1.0]))
    assert out.tolist() == [[1, 1, 1, 1], [2, 2, 2, 2]]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cps.smooth([1, -1, 2, 3], [1, 1, 1, 1], 5), "negative"),
        (lambda: cps.smooth([1, 1, 2, 3], [0, 0, 0, 0], 5), "positive total"),
        (lambda: cps.smooth([1, 1, 2, 3], [1, 1, 1, 1], -1), "lam"),
        (lambda: cps.smooth([1, 1, 2, 3], [1, 1, 1, 1], np.nan), "lam"),
        (lambda: cps.smooth([1, 1, 2, 3], [1, 1, 1], 5), "length 4"),
        (lambda: cps.smooth(np.ones((2, 4)), np.ones((3, 4)), 5), "broadcast"),
        (lambda: cps.additive([1, 1, 2, 3], -0.5), "eps"),
        (lambda: cps.additive([1, 1, 2, 3], np.inf), "eps"),
        (lambda: cps.additive([1, 1, np.nan, 3], 1), "non-finite"),
    ],
)
def test_bad_inputs_raise(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------- protocol
@pytest.fixture(scope="module")
def protocol():
    return cps.smoothing_mse(
        P_GROUP, P_GROUP, [5, 8, 20], cps.PAPER_METRICS, n_draws=20_000, seed=7, progress=False
    )


def test_protocol_shape_and_columns(protocol):
    assert list(protocol.columns[:8]) == [
        "metric",
        "n",
        "method",
        "setting",
        "mse",
        "ci_low",
        "ci_high",
        "share_undefined",
    ]
    assert len(protocol) == 3 * 15 * 6
    assert set(protocol.method) == {"additive", "cps"}
    assert sorted(protocol[protocol.method == "additive"].setting.unique()) == [0, 1e-10, 1]
    assert sorted(protocol[protocol.method == "cps"].setting.unique()) == [5, 10, 20]
    defined = protocol.dropna(subset=["mse"])
    assert (defined.ci_low <= defined.mse).all() and (defined.mse <= defined.ci_high).all()


def test_protocol_counts_undefined_draws(protocol):
    raw = protocol[(protocol.method == "additive") & (protocol.setting == 0)]
    tpr = raw[raw.metric == "TPR"].set_index("n")
    for n in (5, 8, 20):  # TPR is undefined when TP + FN = 0: probability (1 − .4)^n
        expected = 0.6**n
        se = math.sqrt(expected * (1 - expected) / 20_000)
        assert abs(tpr.loc[n, "share_undefined"] - expected) < 5 * se + 1e-12
        assert tpr.loc[n, "n_defined"] == round((1 - tpr.loc[n, "share_undefined"]) * 20_000)
    bashful = protocol[(protocol.method == "additive") & (protocol.setting == 1e-10)]
    assert (bashful[bashful.metric != "PT"].share_undefined == 0).all()
    # PT is undefined where TPR = FPR, which ε does not remove (e.g. TP = FP, FN = TN)
    assert (bashful[bashful.metric == "PT"].share_undefined > 0).any()
    assert np.isnan(compute("PT", cps.additive([2, 3, 2, 3], 1e-10)))
    assert (raw[raw.metric == "ACC"].share_undefined == 0).all()


def test_cps_beats_raw_when_the_reference_is_right(protocol):
    raw = protocol[(protocol.method == "additive") & (protocol.setting == 0)]
    for lam in (5, 10, 20):
        smoothed = protocol[(protocol.method == "cps") & (protocol.setting == lam)]
        assert (smoothed.mse.to_numpy() < raw.mse.to_numpy()).all()
    lam5 = protocol[(protocol.method == "cps") & (protocol.setting == 5)].mse.to_numpy()
    lam20 = protocol[(protocol.method == "cps") & (protocol.setting == 20)].mse.to_numpy()
    assert (lam20 < lam5).all()


def test_protocol_matches_a_direct_computation():
    table = cps.smoothing_mse(
        P_GROUP,
        [1, 1, 1, 1],
        [6],
        ["PPV", "B"],
        n_draws=5000,
        lams=(10,),
        eps=(0,),
        seed=3,
        progress=False,
    )
    rng = np.random.default_rng(np.random.SeedSequence([3, 6]))
    draws = rng.multinomial(6, P_GROUP, size=5000)
    for metric in ("PPV", "B"):
        target = compute(metric, P_GROUP)
        for method, cms in (("additive", draws), ("cps", cps.smooth(draws, [1, 1, 1, 1], 10))):
            errors = (compute(metric, cms) - target) ** 2
            defined = ~np.isnan(errors)
            row = table[(table.metric == metric) & (table.method == method)].iloc[0]
            assert row.mse == pytest.approx(errors[defined].mean())
            assert row.share_undefined == pytest.approx(1 - defined.mean())
            half = 1.959963984540054 * errors[defined].std(ddof=1) / math.sqrt(defined.sum())
            assert row.ci_high - row.mse == pytest.approx(half, rel=1e-6)


def test_protocol_is_reproducible_and_independent_of_chunks_and_other_sizes():
    a = cps.smoothing_mse(
        P_GROUP, P_GROUP, [5, 9], ["TPR", "MCC"], n_draws=3000, seed=11, progress=False
    )
    b = cps.smoothing_mse(
        P_GROUP, P_GROUP, [9], ["TPR", "MCC"], n_draws=3000, seed=11, chunk_size=700, progress=False
    )
    assert np.allclose(a[a.n == 9].mse.to_numpy(), b.mse.to_numpy(), equal_nan=True)
    c = cps.smoothing_mse(
        P_GROUP, P_GROUP, [5, 9], ["TPR", "MCC"], n_draws=3000, seed=12, progress=False
    )
    assert not np.allclose(a.mse.to_numpy(), c.mse.to_numpy())


def test_protocol_in_parallel_gives_the_same_numbers():
    kwargs = {"n_draws": 2000, "lams": (5,), "eps": (0,), "seed": 4, "progress": False}
    a = cps.smoothing_mse(P_GROUP, P_GROUP, [5, 6, 7], ["FOR", "F1"], **kwargs)
    b = cps.smoothing_mse(P_GROUP, P_GROUP, [5, 6, 7], ["FOR", "F1"], n_jobs=2, **kwargs)
    assert a.equals(b)


def test_protocol_bad_inputs():
    good = {"n_draws": 10, "progress": False}
    with pytest.raises(ValueError, match="p_group"):
        cps.smoothing_mse([0.5, 0.5, 0.5, 0.5], P_GROUP, [5], ["ACC"], **good)
    with pytest.raises(ValueError, match="unknown metric"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [5], ["AUC"], **good)
    with pytest.raises(ValueError, match="sizes"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [0], ["ACC"], **good)
    with pytest.raises(ValueError, match="n_draws"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [5], ["ACC"], n_draws=1)
    with pytest.raises(ValueError, match="lams"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [5], ["ACC"], lams=(-1,), **good)
    with pytest.raises(ValueError, match="seed"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [5], ["ACC"], seed=-3, **good)
    with pytest.raises(ValueError, match="n_jobs"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [5], ["ACC"], n_jobs=0, **good)
    with pytest.raises(ValueError, match="at least one"):
        cps.smoothing_mse(P_GROUP, P_GROUP, [5], ["ACC"], lams=(), eps=(), **good)
