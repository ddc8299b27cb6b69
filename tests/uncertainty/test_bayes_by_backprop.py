"""Tests of Bayes by Backprop: prior, KL estimate, vectorised sampling, training."""

import math

import numpy as np
import pytest
import torch
from scipy import integrate, stats

from fairbook.uncertainty import BayesianLinear, BNNClassifier, ScaleMixturePrior, decompose
from fairbook.uncertainty.bayes_by_backprop import BayesianMLP, validation_split


def blobs(n=100, seed=0, gap=3.0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-gap, 1, (n, 2)), rng.normal(gap, 1, (n, 2))]
    return X, np.r_[np.zeros(n, int), np.ones(n, int)]


def test_scale_mixture_density_matches_scipy():
    prior = ScaleMixturePrior()  # π = .5, σ1 = 1, σ2 = e^-6
    w = np.array([-2.0, -0.01, 0.0, 0.003, 1.5])
    expected = np.log(0.5 * stats.norm.pdf(w, 0, 1) + 0.5 * stats.norm.pdf(w, 0, math.exp(-6)))
    np.testing.assert_allclose(
        prior.log_prob(torch.tensor(w, dtype=torch.float64)).numpy(), expected, rtol=1e-10
    )
    assert not prior.is_gaussian and ScaleMixturePrior(pi=1.0).is_gaussian


def layer_with(mu, rho, prior):
    layer = BayesianLinear(1, 1, prior=prior, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        layer.weight_mu.fill_(mu[0])
        layer.bias_mu.fill_(mu[1])
        layer.weight_rho.fill_(rho[0])
        layer.bias_rho.fill_(rho[1])
    return layer


def test_monte_carlo_kl_matches_closed_form_for_a_gaussian_prior():
    prior = ScaleMixturePrior(pi=1.0, sigma1=0.5)
    layer = layer_with((0.3, -0.8), (-1.0, 0.5), prior)
    exact = float(layer.kl_closed_form().detach())
    by_hand = sum(
        math.log(0.5 / s) + (s**2 + m**2) / (2 * 0.25) - 0.5
        for m, s in ((0.3, math.log1p(math.exp(-1.0))), (-0.8, math.log1p(math.exp(0.5))))
    )
    assert exact == pytest.approx(by_hand, rel=1e-6)
    _, _, log_ratio = layer.sample(200_000, torch.Generator().manual_seed(1))
    estimate = log_ratio.detach().double()
    assert float(estimate.mean()) == pytest.approx(exact, abs=4 * float(estimate.std()) / 447)


def test_monte_carlo_kl_matches_quadrature_for_the_mixture_prior():
    prior = ScaleMixturePrior()
    mus, rhos = (0.2, -0.05), (-3.0, -4.0)
    layer = layer_with(mus, rhos, prior)
    exact = 0.0
    for m, r in zip(mus, rhos, strict=True):
        s = math.log1p(math.exp(r))

        def integrand(w, m=m, s=s):
            log_q = stats.norm.logpdf(w, m, s)
            log_p = np.log(0.5 * stats.norm.pdf(w, 0, 1) + 0.5 * stats.norm.pdf(w, 0, math.exp(-6)))
            return math.exp(log_q) * (log_q - log_p)

        exact += integrate.quad(integrand, m - 12 * s, m + 12 * s, points=[0.0], limit=200)[0]
    _, _, log_ratio = layer.sample(200_000, torch.Generator().manual_seed(2))
    estimate = log_ratio.detach().double()
    assert float(estimate.mean()) == pytest.approx(exact, abs=4 * float(estimate.std()) / 447)


def test_batched_forward_equals_a_loop_over_samples():
    generator = torch.Generator().manual_seed(0)
    net = BayesianMLP((3, 5, 2), prior=ScaleMixturePrior(), generator=generator, rho_init=-2.0)
    x = torch.randn(7, 3, generator=generator)
    weights, _ = net.sample(4, generator)
    batched = BayesianMLP.apply(x, weights)
    for s in range(4):
        single = [(w[s : s + 1], b[s : s + 1]) for w, b in weights]
        torch.testing.assert_close(batched[s], BayesianMLP.apply(x, single)[0])


def test_learns_a_separable_toy_with_and_without_hidden_layer():
    X, y = blobs()
    for hidden in ((), (16,)):
        model = BNNClassifier(hidden, epochs=20, batch_size=16, seed=0, mu_init_std="fan_in").fit(
            X, y
        )
        assert (model.predict(X) == y).mean() >= 0.97
        probs = model.predict_proba_samples(X, T=10)
        assert probs.shape == (10, 200, 2)
        np.testing.assert_allclose(probs.sum(axis=2), 1.0, atol=1e-12)


def test_same_seed_same_samples_and_different_seed_different():
    X, y = blobs(n=30)
    a = BNNClassifier(epochs=3, batch_size=8, seed=5).fit(X, y)
    b = BNNClassifier(epochs=3, batch_size=8, seed=5).fit(X, y)
    c = BNNClassifier(epochs=3, batch_size=8, seed=6).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba_samples(X), b.predict_proba_samples(X))
    np.testing.assert_array_equal(a.predict_proba_samples(X), a.predict_proba_samples(X))
    assert not np.array_equal(a.predict_proba_samples(X), c.predict_proba_samples(X))
    assert not np.array_equal(
        a.predict_proba_samples(X, seed=1), a.predict_proba_samples(X, seed=2)
    )


def test_chunked_prediction_uses_the_same_networks_for_every_row():
    X, y = blobs(n=30)
    model = BNNClassifier(epochs=2, batch_size=8, seed=0).fit(X, y)
    np.testing.assert_allclose(
        model.predict_proba_samples(X, chunk_size=7), model.predict_proba_samples(X), rtol=1e-12
    )


def test_early_stopping_keeps_the_best_epoch():
    X, y = blobs(n=60, gap=0.3)  # overlapping: validation loss stops improving
    model = BNNClassifier(epochs=40, batch_size=8, seed=0, patience=2, lr=0.05).fit(X, y)
    val = [h["val_nll"] for h in model.history_]
    assert model.n_epochs_ == len(val) <= 40
    assert model.best_epoch_ == int(np.argmin(val)) + 1
    assert model.n_epochs_ - model.best_epoch_ <= 2


def test_lambda_trades_likelihood_against_the_prior():
    X, y = blobs(n=50, gap=1.0)
    weak = BNNClassifier(epochs=15, batch_size=10, lam=5.0, seed=0, rho_init=-3).fit(X, y)
    strong = BNNClassifier(epochs=15, batch_size=10, lam=1e5, seed=0, rho_init=-3).fit(X, y)
    epistemic = [decompose(m.predict_proba_samples(X, T=30))[0].mean() for m in (weak, strong)]
    assert epistemic[0] > 5 * epistemic[1]


def test_kl_estimate_is_positive_after_fit():
    X, y = blobs(n=20)
    model = BNNClassifier(epochs=2, batch_size=8, seed=0).fit(X, y)
    assert model.kl_estimate(200) > 0


@pytest.mark.parametrize(
    "X, y, match",
    [
        (np.zeros(5), np.zeros(5), "2-D"),
        (np.full((4, 2), np.nan), [0, 1, 0, 1], "finite"),
        (np.zeros((4, 2)), [0, 1, 0], "one label per row"),
        (np.zeros((4, 2)), [1, 1, 1, 1], "two classes"),
        (np.zeros((0, 2)), [], "empty"),
    ],
)
def test_bad_training_data(X, y, match):
    with pytest.raises(ValueError, match=match):
        BNNClassifier(epochs=1).fit(X, y)


def test_bad_use_and_options():
    with pytest.raises(ValueError, match="not fitted"):
        BNNClassifier().predict_proba_samples(np.zeros((2, 2)))
    X, y = blobs(n=10)
    model = BNNClassifier(epochs=1, batch_size=8).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict_proba_samples(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="T must"):
        model.predict_proba_samples(X, T=0)
    for bad in (
        {"epochs": 0},
        {"hidden_sizes": (0,)},
        {"lam": 0},
        {"prior_pi": 2.0},
        {"mc_train": 0},
    ):
        with pytest.raises(ValueError):
            BNNClassifier(**bad)
    with pytest.raises(ValueError, match="validation_fraction"):
        validation_split(10, 1.5, 0)


def _weights(model):
    return [p.detach().clone() for p in model.network_.parameters()]


def test_reductions_default_is_the_mean_and_one_term_sums_equal_means():
    X, y = blobs(n=24)
    base = BNNClassifier(epochs=2, batch_size=1, mc_train=1, seed=3).fit(X, y)
    summed = BNNClassifier(
        epochs=2, batch_size=1, mc_train=1, seed=3, kl_reduction="sum", nll_reduction="sum"
    ).fit(X, y)
    # one sample and one row per step: a sum of one term is the mean of it, bit for bit
    for a, b in zip(_weights(base), _weights(summed), strict=True):
        assert torch.equal(a, b)
    assert base.kl_reduction == base.nll_reduction == "mean"


def test_summed_kl_and_nll_scale_the_recorded_terms():
    X, y = blobs(n=40)
    kwargs = dict(epochs=1, batch_size=8, mc_train=5, seed=0, lr=1e-12, validation_fraction=0)
    mean = BNNClassifier(**kwargs).fit(X, y).history_[0]
    kl_sum = BNNClassifier(kl_reduction="sum", **kwargs).fit(X, y).history_[0]
    nll_sum = BNNClassifier(nll_reduction="sum", **kwargs).fit(X, y).history_[0]
    # with a vanishing step the parameters stay put, so only the reduction differs
    assert kl_sum["kl"] == pytest.approx(5 * mean["kl"], rel=1e-4)
    assert kl_sum["nll"] == pytest.approx(mean["nll"], rel=1e-6)
    assert nll_sum["nll"] == pytest.approx(8 * mean["nll"], rel=1e-4)


def test_smaller_kl_weight_gives_less_epistemic_uncertainty():
    X, y = blobs(n=50, gap=1.0)
    kwargs = dict(epochs=15, batch_size=10, seed=0, rho_init=-3, lam=5.0, validation_fraction=0)
    mean = BNNClassifier(**kwargs).fit(X, y)
    summed = BNNClassifier(nll_reduction="sum", **kwargs).fit(X, y)
    epistemic = [decompose(m.predict_proba_samples(X, T=30))[0].mean() for m in (mean, summed)]
    assert epistemic[0] > 2 * epistemic[1]


@pytest.mark.parametrize("option", ["kl_reduction", "nll_reduction"])
def test_bad_reduction(option):
    with pytest.raises(ValueError, match=option):
        BNNClassifier(**{option: "median"})
