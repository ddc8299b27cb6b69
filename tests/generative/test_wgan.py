"""Generator, critic and the gradient penalty, against hand-worked values."""

import numpy as np
import pytest
import torch

from fairbook.generative.wgan import Critic, Generator, gradient_penalty

torch.set_num_threads(1)


@pytest.mark.parametrize("w, expected", [([3.0, 4.0], 160.0), ([0.6, 0.8], 0.0), ([0.0, 0.5], 2.5)])
def test_linear_critic_penalty_is_lambda_norm_minus_one_squared(w, expected):
    w = torch.tensor(w)
    real, fake = torch.randn(7, 2), torch.randn(7, 2)
    gp = gradient_penalty(
        lambda x: x @ w, real, fake, lam=10.0, generator=torch.Generator().manual_seed(0)
    )
    assert float(gp.detach()) == pytest.approx(expected, abs=1e-5)


def test_penalty_gradient_for_a_linear_layer():
    # d/dw λ(‖w‖ − 1)² = 2λ(‖w‖ − 1) w / ‖w‖, whatever the points
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 1, bias=True)
    gp = gradient_penalty(
        lambda x: layer(x).squeeze(1), torch.randn(5, 3), torch.randn(5, 3), lam=4.0
    )
    gp.backward()
    w = layer.weight.detach()[0]
    norm = w.norm()
    assert torch.allclose(layer.weight.grad[0], 2 * 4.0 * (norm - 1) * w / norm, atol=1e-6)
    assert layer.bias.grad is None or float(layer.bias.grad) == pytest.approx(0.0, abs=1e-7)


def test_quadratic_critic_with_given_eps():
    # f(x) = ½‖x‖² → ∇f(x̂) = x̂ = ε real + (1 − ε) fake
    real = torch.tensor([[2.0, 0.0], [0.0, 0.0]])
    fake = torch.tensor([[0.0, 0.0], [0.0, 4.0]])
    eps = torch.tensor([[0.5], [0.25]])
    gp = gradient_penalty(lambda x: 0.5 * (x**2).sum(1), real, fake, lam=1.0, eps=eps)
    # x̂ = (1, 0) and (0, 3): ((1 − 1)² + (3 − 1)²) / 2 = 2
    assert float(gp.detach()) == pytest.approx(2.0)


def test_condition_is_passed_but_not_differentiated():
    w = torch.tensor([3.0, 4.0])

    def critic(x, c):
        return x @ w + 100 * c[:, 0]

    gp = gradient_penalty(critic, torch.zeros(4, 2), torch.ones(4, 2), torch.ones(4, 1), lam=1)
    assert float(gp.detach()) == pytest.approx(16.0)


def test_penalty_bad_input():
    with pytest.raises(ValueError, match="shapes"):
        gradient_penalty(lambda x: x.sum(1), torch.zeros(3, 2), torch.zeros(4, 2))
    with pytest.raises(ValueError, match="eps"):
        gradient_penalty(
            lambda x: x.sum(1), torch.zeros(3, 2), torch.zeros(3, 2), eps=torch.zeros(3)
        )
    with pytest.raises(ValueError, match="lam"):
        gradient_penalty(lambda x: x.sum(1), torch.zeros(3, 2), torch.zeros(3, 2), lam=-1)


def test_generator_output_layout():
    torch.manual_seed(1)
    blocks = [("continuous", 0, 2), ("categorical", 2, 5), ("categorical", 5, 7)]
    g = Generator(8, 3, blocks, hidden=(16,))
    out = g(torch.randn(50, 8) * 10, torch.eye(3)[np.arange(50) % 3])
    assert out.shape == (50, 7)
    assert (out[:, :2].abs() <= 1).all()
    assert torch.allclose(out[:, 2:5].sum(1), torch.ones(50))
    assert torch.allclose(out[:, 5:7].sum(1), torch.ones(50))
    assert (out[:, 2:] >= 0).all()
    with pytest.raises(ValueError, match="block"):
        Generator(8, 0, [])


def test_critic_with_and_without_condition():
    torch.manual_seed(0)
    assert Critic(4, 2, hidden=(8,))(torch.zeros(3, 4), torch.zeros(3, 2)).shape == (3,)
    assert Critic(4, hidden=(8,))(torch.zeros(3, 4)).shape == (3,)
