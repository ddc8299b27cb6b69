"""Networks and losses of a conditional Wasserstein GAN with gradient penalty.

Gulrajani et al. (2017): the critic ``f`` minimises ``E f(fake) − E f(real) + GP`` with
``GP = λ E[(‖∇_x̂ f(x̂)‖₂ − 1)²]`` on points ``x̂`` drawn uniformly on the segments between
real and fake rows; the generator minimises ``−E f(fake)``. Conditions (one-hot vectors)
are concatenated to the generator's noise (Mirza & Osindero 2014) and, optionally, to
the critic's input; the penalty differentiates with respect to the data part only.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["Critic", "Generator", "gradient_penalty"]


def _mlp(n_in: int, hidden: tuple[int, ...], n_out: int) -> nn.Sequential:
    layers, width = [], n_in
    for h in hidden:
        layers += [nn.Linear(width, h), nn.LeakyReLU(0.2)]
        width = h
    layers.append(nn.Linear(width, n_out))
    return nn.Sequential(*layers)


class Generator(nn.Module):
    """Noise ⊕ condition → one row: ``tanh`` for continuous, softmax per categorical block.

    Parameters
    ----------
    noise_dim, cond_dim : int
    blocks : sequence of (kind, start, stop)
        The output layout (see :class:`fairbook.generative.tabular.ColumnSpec`).
    hidden : tuple of int

    Examples
    --------
    >>> import torch
    >>> g = Generator(4, 2, [("continuous", 0, 1), ("categorical", 1, 4)], hidden=(8,))
    >>> out = g(torch.zeros(3, 4), torch.zeros(3, 2))
    >>> tuple(out.shape), bool(torch.allclose(out[:, 1:].sum(1), torch.ones(3)))
    ((3, 4), True)
    """

    def __init__(self, noise_dim: int, cond_dim: int, blocks, *, hidden=(64, 64)):
        super().__init__()
        self.blocks = [(str(k), int(a), int(b)) for k, a, b in blocks]
        if not self.blocks:
            raise ValueError("the generator needs at least one output block")
        self.noise_dim, self.cond_dim = int(noise_dim), int(cond_dim)
        self.net = _mlp(self.noise_dim + self.cond_dim, tuple(hidden), self.blocks[-1][2])

    def forward(self, z: torch.Tensor, cond: torch.Tensor | None = None) -> torch.Tensor:
        h = self.net(z if cond is None or cond.shape[1] == 0 else torch.cat([z, cond], 1))
        parts = []
        for kind, a, b in self.blocks:
            parts.append(
                torch.tanh(h[:, a:b]) if kind == "continuous" else torch.softmax(h[:, a:b], dim=1)
            )
        return torch.cat(parts, 1)


class Critic(nn.Module):
    """Row (⊕ condition) → a real score (no sigmoid: a Wasserstein critic)."""

    def __init__(self, data_dim: int, cond_dim: int = 0, *, hidden=(64, 64)):
        super().__init__()
        self.data_dim, self.cond_dim = int(data_dim), int(cond_dim)
        self.net = _mlp(self.data_dim + self.cond_dim, tuple(hidden), 1)

    def forward(self, x: torch.Tensor, cond: torch.Tensor | None = None) -> torch.Tensor:
        if self.cond_dim:
            x = torch.cat([x, cond], 1)
        return self.net(x).squeeze(1)


def gradient_penalty(
    critic,
    real: torch.Tensor,
    fake: torch.Tensor,
    cond: torch.Tensor | None = None,
    *,
    lam: float = 10.0,
    eps: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """WGAN-GP penalty ``λ · mean_k (‖∇_x f(x̂_k)‖₂ − 1)²``, ``x̂ = ε·real + (1 − ε)·fake``.

    Parameters
    ----------
    critic : callable
        ``critic(x)`` or ``critic(x, cond)`` → scores of shape (n,).
    real, fake : Tensor of shape (n, d)
    cond : Tensor of shape (n, c), optional
        Passed to the critic; not differentiated.
    lam : float, default 10 (Gulrajani et al.)
    eps : Tensor of shape (n, 1), optional
        Interpolation weights; drawn uniformly on [0, 1] (with ``generator``) if omitted.

    Returns
    -------
    Tensor
        A scalar, differentiable with respect to the critic's parameters.

    Examples
    --------
    A linear critic ``f(x) = w·x`` has gradient ``w`` everywhere, so GP = λ(‖w‖ − 1)²:

    >>> import torch
    >>> w = torch.tensor([3.0, 4.0])
    >>> gp = gradient_penalty(lambda x: x @ w, torch.zeros(5, 2), torch.ones(5, 2), lam=10)
    >>> float(gp)
    160.0
    """
    if real.shape != fake.shape or real.ndim != 2:
        raise ValueError(
            f"real {tuple(real.shape)} and fake {tuple(fake.shape)} must be equal (n, d) shapes"
        )
    if lam < 0:
        raise ValueError(f"lam must be non-negative, got {lam}")
    n = real.shape[0]
    if eps is None:
        eps = torch.rand(n, 1, generator=generator, dtype=real.dtype)
    elif tuple(eps.shape) != (n, 1):
        raise ValueError(f"eps must have shape ({n}, 1), got {tuple(eps.shape)}")
    x_hat = (eps * real.detach() + (1 - eps) * fake.detach()).requires_grad_(True)
    scores = critic(x_hat) if cond is None else critic(x_hat, cond)
    (grad,) = torch.autograd.grad(scores.sum(), x_hat, create_graph=True)
    return lam * ((grad.norm(2, dim=1) - 1) ** 2).mean()
