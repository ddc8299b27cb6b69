"""Second-order DARTS against the exact unrolled gradient (double backward), the first-order
trainer where the two must agree, and the state the unrolled step must leave untouched."""

import copy

import numpy as np
import pandas as pd
import pytest
import torch
from torch import nn
from torch.func import functional_call

from fairbook.forecasting.crps import ordered_crps
from fairbook.forecasting.darts import train_darts
from fairbook.forecasting.ptn import PTN, MixedOp, as_tensors
from fairbook.forecasting.space import Choice, make_space, sample
from fairbook.forecasting.unrolled import (
    train_darts_second_order,
    unrolled_architecture_gradient,
)

torch.set_num_threads(1)


def windows(n, *, seed):
    """``n`` random windows: 3 static, 4×2 history, 2×4×2 forecasts, 4 target steps."""
    rng = np.random.default_rng(seed)
    return as_tensors(
        {
            "static": rng.normal(size=(n, 3)),
            "history": rng.normal(size=(n, 4, 2)),
            "forecasts": rng.normal(size=(n, 2, 4, 2)),
            "target": rng.normal(size=(n, 4)),
        }
    )


class Toy(nn.Module):
    """Static inputs -> a mixed operation of two small nets -> 4 steps × 5 quantiles."""

    def __init__(self, *, dropout=0.0):
        super().__init__()
        torch.manual_seed(0)
        self.mix = MixedOp(
            {
                "linear": nn.Linear(3, 20),
                "tanh": nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 20)),
            }
        )
        self.drop = nn.Dropout(dropout)
        self.double()
        with torch.no_grad():
            self.mix.alpha.copy_(torch.tensor([0.3, -0.2], dtype=torch.float64))

    def forward(self, static, history, forecasts):
        return self.drop(self.mix(static.double())).reshape(-1, 4, 5)

    def architecture_parameters(self):
        return [self.mix.alpha]

    def weight_parameters(self):
        return [p for name, p in self.named_parameters() if name != "mix.alpha"]


def exact_unrolled_gradient(model, train, val, xi):
    """d/dα L_val(w − ξ ∇_w L_train(w, α), α) by double backward through the virtual step."""
    names = [n for n, _ in model.named_parameters() if n != "mix.alpha"]
    weights = model.weight_parameters()
    (alpha,) = model.architecture_parameters()

    def loss(params, batch):
        out = functional_call(model, params, (batch["static"], batch["history"], None))
        return ordered_crps(out, batch["target"].double())

    params = dict(zip(names, weights, strict=True)) | {"mix.alpha": alpha}
    grads = torch.autograd.grad(loss(params, train), weights, create_graph=True)
    unrolled = {n: w - xi * g for n, w, g in zip(names, weights, grads, strict=True)}
    (gradient,) = torch.autograd.grad(loss(unrolled | {"mix.alpha": alpha}, val), [alpha])
    return gradient


def test_xi_zero_is_the_first_order_gradient():
    model, train, val = Toy(), windows(32, seed=1), windows(32, seed=2)
    (gradient,), loss = unrolled_architecture_gradient(model, train, val, xi=0.0)
    out = model(val["static"], val["history"], val["forecasts"])
    expected_loss = ordered_crps(out, val["target"].double())
    (expected,) = torch.autograd.grad(expected_loss, [model.mix.alpha])
    assert torch.equal(gradient, expected)
    assert loss == pytest.approx(float(expected_loss.detach()), rel=1e-15)


@pytest.mark.parametrize("dropout", [0.0, 0.3])
@pytest.mark.parametrize("xi", [0.05, 0.5])
def test_matches_the_exact_unrolled_gradient(xi, dropout):
    """Central differences against double backward, in float64 with a step small enough not
    to cross the pinball loss's kinks. With dropout both see the same masks because both draw
    them in the same order from the same seed, and the finite difference replays the
    training batch's masks (otherwise it would be off by ~1/ε)."""
    model, train, val = Toy(dropout=dropout), windows(64, seed=3), windows(64, seed=4)
    model.train()
    torch.manual_seed(11)
    (gradient,), _ = unrolled_architecture_gradient(model, train, val, xi=xi, epsilon_scale=1e-4)
    torch.manual_seed(11)
    expected = exact_unrolled_gradient(model, train, val, xi).detach().numpy()
    np.testing.assert_allclose(gradient.numpy(), expected, rtol=1e-8)
    # Liu et al.'s step (0.01 / norm) crosses kinks: a truncation error of a few per cent
    torch.manual_seed(11)
    (coarse,), _ = unrolled_architecture_gradient(model, train, val, xi=xi)
    np.testing.assert_allclose(coarse.numpy(), expected, rtol=0.15)


def test_the_hessian_term_matters():
    """The second-order gradient differs from the first-order one by more than the finite
    difference's error (so the tests above could tell the two apart)."""
    model, train, val = Toy(), windows(64, seed=3), windows(64, seed=4)
    (second,), _ = unrolled_architecture_gradient(model, train, val, xi=0.5, epsilon_scale=1e-4)
    (first,), _ = unrolled_architecture_gradient(model, train, val, xi=0.0)
    expected = exact_unrolled_gradient(model, train, val, 0.5).detach()
    assert float((first - expected).abs().max()) > 50 * float((second - expected).abs().max())


def ptn(seed=0, **genes):
    agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(seed))
    agent.update(genes)
    return PTN.from_data(agent, windows(2, seed=0), n_quantiles=5, seed=seed)


def test_leaves_weights_and_buffers_as_they_were():
    model = ptn(normalisation="batch", dropout=0.2)
    model.train()
    before = copy.deepcopy(model.state_dict())
    unrolled_architecture_gradient(model, windows(32, seed=5), windows(32, seed=6), xi=0.1)
    after = model.state_dict()
    assert before.keys() == after.keys()
    for key in before:
        assert torch.equal(before[key], after[key]), key


def test_without_architecture_steps_it_is_the_first_order_trainer():
    """The warm start (no architecture step) trains the same way bit for bit."""
    train, val = windows(80, seed=7), windows(40, seed=8)
    first, second = ptn(3), ptn(3)
    h1 = train_darts(first, train, val, epochs=3, arch_steps=0, batch_size=16, seed=4)
    h2 = train_darts_second_order(second, train, val, epochs=3, arch_steps=0, batch_size=16, seed=4)
    pd.testing.assert_frame_equal(h1, h2)
    for key, value in first.state_dict().items():
        assert torch.equal(value, second.state_dict()[key]), key


def test_architecture_steps_move_alpha_and_record_finite_losses():
    model = ptn(1)
    alpha = [a.detach().clone() for a in model.architecture_parameters()]
    history = train_darts_second_order(
        model, windows(64, seed=9), windows(64, seed=10), epochs=2, batch_size=16, seed=0
    )
    assert list(history["epoch"]) == [1, 2]
    assert np.isfinite(history[["train_loss", "val_loss"]].to_numpy()).all()
    moved = [
        not torch.equal(a, b) for a, b in zip(alpha, model.architecture_parameters(), strict=True)
    ]
    assert all(moved)
    weights = history.filter(like="weight:").to_numpy()
    assert np.all(weights > 0) and np.all(weights < 1)


def test_seeded_training_is_deterministic():
    runs = []
    for _ in range(2):
        model = ptn(2, dropout=0.3)
        train_darts_second_order(
            model, windows(48, seed=1), windows(48, seed=2), epochs=2, batch_size=16, seed=5
        )
        runs.append([p.detach().clone() for p in model.parameters()])
    assert all(torch.equal(a, b) for a, b in zip(*runs, strict=True))


def test_errors():
    model = ptn()
    data = windows(8, seed=0)
    with pytest.raises(ValueError, match="xi"):
        unrolled_architecture_gradient(model, data, data, xi=-1.0)
    with pytest.raises(ValueError, match="xi"):
        unrolled_architecture_gradient(model, data, data, xi=float("nan"))
    with pytest.raises(ValueError, match="epsilon_scale"):
        unrolled_architecture_gradient(model, data, data, xi=0.1, epsilon_scale=0.0)
    with pytest.raises(ValueError, match="epochs"):
        train_darts_second_order(model, data, data, epochs=-1)
    with pytest.raises(ValueError, match="batch_size"):
        train_darts_second_order(model, data, data, batch_size=1)
    with pytest.raises(ValueError, match="agent"):
        train_darts_second_order(Toy(), data, data)
