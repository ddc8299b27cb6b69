"""The debiasing building blocks, each against a hand computation."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.variance import debiasing


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1)), min_size=1, max_size=40))
def test_rebalanced_cells_are_equal_and_keep_every_original(pairs):
    y = np.array([p[0] for p in pairs])
    g = np.array([p[1] for p in pairs])
    idx = debiasing.rebalanced_indices(y, g, seed=1)
    assert set(range(len(y))) <= set(idx.tolist())
    for cls in np.unique(y):
        present = np.unique(g[y == cls])
        counts = [int(((y[idx] == cls) & (g[idx] == grp)).sum()) for grp in present]
        assert len(set(counts)) == 1
        assert counts[0] == max(int(((y == cls) & (g == grp)).sum()) for grp in present)
    assert np.array_equal(idx, debiasing.rebalanced_indices(y, g, seed=1))


def test_rebalance_bad_input():
    with pytest.raises(ValueError):
        debiasing.rebalanced_indices([0, 1], [0])
    with pytest.raises(ValueError):
        debiasing.rebalanced_indices([], [])


def test_gradient_reversal_is_identity_forward_and_negated_backward():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3)
    out = debiasing.grad_reverse(x, 0.3)
    assert torch.equal(out, x)
    (out @ w).sum().backward()
    assert torch.allclose(x.grad, -0.3 * w.expand(4, 3))
    with pytest.raises(ValueError):
        debiasing.grad_reverse(x, -1.0)


def test_domain_independent_loss_uses_each_examples_own_head():
    logits = torch.randn(6, 2, 4)
    y = torch.tensor([0, 1, 2, 3, 0, 1])
    g = torch.tensor([0, 1, 0, 1, 1, 0])
    expected = torch.nn.functional.cross_entropy(logits[torch.arange(6), g], y)
    assert torch.allclose(debiasing.domain_independent_loss(logits, y, g), expected)
    with pytest.raises(ValueError):
        debiasing.domain_independent_loss(logits[:, 0], y, g)
    with pytest.raises(ValueError):
        debiasing.domain_independent_loss(logits, y, g + 5)


def test_domain_independent_predict_sum_and_conditional():
    logits = torch.randn(5, 2, 3)
    summed = debiasing.domain_independent_predict(logits)
    assert torch.allclose(summed, logits.softmax(-1)[:, 0] + logits.softmax(-1)[:, 1])
    g = torch.tensor([1, 0, 1, 0, 0])
    cond = debiasing.domain_independent_predict(logits, g, mode="conditional")
    assert torch.allclose(cond, logits[torch.arange(5), g].softmax(-1))
    with pytest.raises(ValueError):
        debiasing.domain_independent_predict(logits, mode="conditional")
    with pytest.raises(ValueError):
        debiasing.domain_independent_predict(logits, mode="max")


def test_group_gap_penalty_by_hand():
    p = torch.tensor([[0.9, 0.1], [0.7, 0.3], [0.5, 0.5], [0.2, 0.8], [0.4, 0.6]])
    y = torch.tensor([0, 0, 0, 1, 1])
    g = torch.tensor([0, 0, 1, 0, 1])
    # class 0: group 0 mean 0.8, group 1 mean 0.5; class 1: 0.8 vs 0.6
    assert float(debiasing.group_gap_penalty(p, y, g)) == pytest.approx(0.09 + 0.04)
    ppr = (p[g == 0].mean(0) - p[g == 1].mean(0)) ** 2
    assert float(debiasing.group_gap_penalty(p, y, g, condition="ppr")) == pytest.approx(
        float(ppr.sum())
    )
    # a class with one group only adds nothing; identical groups give 0
    assert float(debiasing.group_gap_penalty(p[:2], y[:2], g[:2])) == 0.0
    with pytest.raises(ValueError):
        debiasing.group_gap_penalty(p, y, g, condition="fpr")


def test_penalty_is_differentiable():
    logits = torch.randn(8, 2, requires_grad=True)
    y = torch.tensor([0, 1] * 4)
    g = torch.tensor([0, 0, 1, 1] * 2)
    debiasing.group_gap_penalty(logits.softmax(1), y, g).backward()
    assert logits.grad is not None and torch.isfinite(logits.grad).all()


def test_technique_registry():
    assert list(debiasing.TECHNIQUES) == [
        "base",
        "rebalance",
        "adversarial",
        "domain_independent",
        "penalty",
    ]
    assert debiasing.TECHNIQUES["base"].targets == ()
