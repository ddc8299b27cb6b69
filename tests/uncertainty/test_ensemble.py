"""Tests of the deep ensemble."""

import numpy as np
import pytest

from fairbook.uncertainty import DeepEnsemble, decompose


def blobs(n=100, seed=0, gap=3.0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-gap, 1, (n, 2)), rng.normal(gap, 1, (n, 2))]
    return X, np.r_[np.zeros(n, int), np.ones(n, int)]


def test_learns_a_separable_toy():
    X, y = blobs()
    ens = DeepEnsemble(5, (8,), epochs=20, batch_size=16, seed=0).fit(X, y)
    assert (ens.predict(X) == y).mean() >= 0.97
    probs = ens.predict_proba_samples(X)
    assert probs.shape == (5, 200, 2)
    assert ens.predict_proba_samples(X, T=3).shape == (3, 200, 2)
    np.testing.assert_allclose(probs.sum(axis=2), 1.0, atol=1e-12)
    assert decompose(probs)[0].max() > 0  # members differ


def test_batched_training_equals_training_members_one_by_one():
    X, y = blobs(n=40, gap=1.0)
    together = DeepEnsemble(3, (4,), epochs=6, batch_size=8, seed=3, patience=2).fit(X, y)
    seeds = together.member_seeds()
    for m, member_seed in enumerate(seeds):
        alone = DeepEnsemble(1, (4,), epochs=6, batch_size=8, seed=3, patience=2)
        alone.member_seeds = lambda s=member_seed: [s]
        alone.fit(X, y)
        np.testing.assert_allclose(
            together.predict_proba_samples(X)[m], alone.predict_proba_samples(X)[0], atol=1e-5
        )
        assert together.best_epoch_[m] == alone.best_epoch_[0]


def test_same_seed_same_predictions():
    X, y = blobs(n=20)
    a = DeepEnsemble(3, epochs=3, batch_size=8, seed=1).fit(X, y)
    b = DeepEnsemble(3, epochs=3, batch_size=8, seed=1).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba_samples(X), b.predict_proba_samples(X))


def test_bad_inputs():
    X, y = blobs(n=10)
    with pytest.raises(ValueError, match="not fitted"):
        DeepEnsemble(2).predict_proba_samples(X)
    ens = DeepEnsemble(2, epochs=1, batch_size=8).fit(X, y)
    with pytest.raises(ValueError, match="T must"):
        ens.predict_proba_samples(X, T=3)
    with pytest.raises(ValueError, match="features"):
        ens.predict_proba_samples(np.zeros((2, 5)))
    with pytest.raises(ValueError, match="two classes"):
        DeepEnsemble(2).fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError):
        DeepEnsemble(0)
