"""First-order DARTS: phase separation, learning, plateau scheduling, seeds, evaluation."""

import copy

import numpy as np
import pandas as pd
import pytest
import torch
from scipy.stats import spearmanr

from fairbook.forecasting.crps import crps
from fairbook.forecasting.darts import (
    evaluate_crps,
    make_evaluate,
    scoring_subset,
    subset_rank_correlation,
    train_darts,
)
from fairbook.forecasting.ptn import PTN
from fairbook.forecasting.search import genetic_search
from fairbook.forecasting.space import Choice, make_space, sample

torch.set_num_threads(1)


def make_data(n=64, *, marker=0.0, seed=0, learnable=False):
    """Tiny windows: 3 static, 4×2 history, 2×4×2 forecasts, 4 target steps."""
    rng = np.random.default_rng(seed)
    static = rng.normal(size=(n, 3))
    static[:, 2] = marker
    history = rng.normal(size=(n, 4, 2))
    forecasts = rng.normal(size=(n, 2, 4, 2))
    target = rng.normal(size=(n, 4))
    if learnable:  # the target is the first forecast's first channel, plus a constant
        target = 3.0 + forecasts[:, 0, :, 0]
    return {"static": static, "history": history, "forecasts": forecasts, "target": target}


def make_net(seed=0, **genes):
    agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(seed))
    agent.update(
        dropout=0.0,
        first_dropout=0.0,
        noise_sd=0.0,
        normalisation="layer",
        weight_lr=3e-3,
        arch_lr=3e-3,
        weight_beta1=0.9,
        arch_beta1=0.9,
        weight_beta2=0.99,
        arch_beta2=0.99,
    )
    agent.update(genes)
    return PTN.from_data(agent, make_data(2), n_quantiles=5, seed=seed)


class Recorder(PTN):
    """Snapshots (data marker, arch params, weight params) before every forward."""

    def forward(self, static, history, forecasts):
        self.log.append(
            (
                float(static[0, 2]),
                [p.detach().clone() for p in self.architecture_parameters()],
                [p.detach().clone() for p in self.weight_parameters()],
            )
        )
        return super().forward(static, history, forecasts)


def _same(xs, ys):
    return all(torch.equal(x, y) for x, y in zip(xs, ys, strict=True))


def test_each_phase_moves_only_its_parameters():
    base = make_net()
    net = Recorder(base.agent, **base.shapes, seed=0)
    net.log = []
    train, val = make_data(48, marker=0.0, seed=1), make_data(48, marker=1.0, seed=2)
    train_darts(
        net, train, val, epochs=2, weight_steps=3, arch_steps=2, batch_size=16, progress=False
    )
    markers = [m for m, _, _ in net.log]
    assert markers == [0.0] * 3 + [1.0] * 2 + [0.0] * 3 + [1.0] * 2  # weights, then arch
    snaps = net.log + [
        (
            None,
            [p.detach() for p in net.architecture_parameters()],
            [p.detach() for p in net.weight_parameters()],
        )
    ]
    for (marker, arch, weights), (_, arch_next, weights_next) in zip(
        snaps[:-1], snaps[1:], strict=True
    ):
        if marker == 0.0:  # a weight step on neural-train data
            assert _same(arch, arch_next) and not _same(weights, weights_next)
        else:  # an architecture step on neural-validation data
            assert _same(weights, weights_next) and not _same(arch, arch_next)
    assert all(p.requires_grad for p in net.parameters())


@pytest.mark.heavy
def test_loss_decreases_on_a_learnable_problem():
    net = make_net()
    train, val = make_data(128, seed=1, learnable=True), make_data(64, seed=2, learnable=True)
    before = evaluate_crps(net, val).mean()
    hist = train_darts(
        net,
        train,
        val,
        epochs=12,
        weight_steps=10,
        arch_steps=5,
        batch_size=32,
        seed=0,
        progress=False,
    )
    after = evaluate_crps(net, val).mean()
    assert list(hist["epoch"]) == list(range(1, 13))
    assert hist["train_loss"].iloc[-3:].mean() < 0.5 * hist["train_loss"].iloc[:2].mean()
    assert after < 0.5 * before
    # the history carries the operation weights, each subspace summing to one
    cols = [c for c in hist.columns if c.startswith("weight:history/")]
    assert len(cols) == 3 and np.allclose(hist[cols].sum(axis=1), 1.0)


class Constant(torch.nn.Module):
    """A model whose loss never changes: the plateau scheduler must fire."""

    agent = {
        "weight_lr": 1e-3,
        "weight_beta1": 0.9,
        "weight_beta2": 0.99,
        "arch_lr": 2e-4,
        "arch_beta1": 0.9,
        "arch_beta2": 0.99,
    }

    def __init__(self):
        super().__init__()
        self.alpha = torch.nn.Parameter(torch.zeros(2))
        self.w = torch.nn.Parameter(torch.ones(3))

    def architecture_parameters(self):
        return [self.alpha]

    def weight_parameters(self):
        return [self.w]

    def operation_weights(self):
        return pd.DataFrame(
            {
                "subspace": ["s", "s"],
                "operation": ["a", "b"],
                "weight": torch.softmax(self.alpha, 0).tolist(),
            }
        )

    def forward(self, static, history, forecasts):
        zero = 0.0 * (self.alpha.sum() + self.w.sum())
        return torch.zeros(len(static), 4, 5) + zero


def test_plateau_divides_each_learning_rate_by_ten():
    """Patience 1: the rate drops after two epochs that fail to beat the best (epochs 2–3)."""
    data = {**make_data(32), "target": np.ones((32, 4))}  # every batch has loss exactly 1
    hist = train_darts(Constant(), data, data, epochs=6, batch_size=8, progress=False)
    assert hist["weight_lr"].to_numpy() == pytest.approx([1e-3] * 3 + [1e-4] * 2 + [1e-5])
    assert hist["arch_lr"].to_numpy() == pytest.approx([2e-4] * 3 + [2e-5] * 2 + [2e-6])
    assert hist["train_loss"].tolist() == [1.0] * 6


def test_seeded_training_is_deterministic():
    train, val = make_data(64, seed=1), make_data(32, seed=2)
    agent_genes = {"dropout": 0.2, "first_dropout": 0.1, "noise_sd": 0.1}
    nets = [make_net(**agent_genes) for _ in range(3)]
    torch.manual_seed(0)
    h0 = train_darts(nets[0], train, val, epochs=2, batch_size=16, seed=5, progress=False)
    torch.manual_seed(1)  # the global RNG state does not matter
    h1 = train_darts(nets[1], train, val, epochs=2, batch_size=16, seed=5, progress=False)
    h2 = train_darts(nets[2], train, val, epochs=2, batch_size=16, seed=6, progress=False)
    pd.testing.assert_frame_equal(h0, h1)
    for a, b in zip(nets[0].state_dict().values(), nets[1].state_dict().values(), strict=True):
        assert torch.equal(a, b)
    assert not h0["train_loss"].equals(h2["train_loss"])


def test_evaluate_crps_matches_the_score_of_the_outputs():
    net = make_net(noise_sd=0.3, dropout=0.3)
    data = make_data(10, seed=3)
    net.train()
    scores = evaluate_crps(net, data, batch_size=3)
    assert net.training  # mode restored
    assert scores.shape == (10,) and scores.dtype == np.float64
    net.eval()
    with torch.no_grad():
        out = net(
            *(
                torch.as_tensor(data[k], dtype=torch.float32)
                for k in ("static", "history", "forecasts")
            )
        )
    expected = crps(out.double().numpy(), data["target"])
    np.testing.assert_allclose(scores, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(evaluate_crps(net, data), scores, rtol=1e-5, atol=1e-6)


def test_errors():
    net = make_net()
    data = make_data(16)
    with pytest.raises(ValueError, match="batch_size"):
        train_darts(net, data, data, epochs=1, batch_size=1)
    with pytest.raises(ValueError, match="epochs"):
        train_darts(net, data, data, epochs=-1)
    bare = copy.deepcopy(net)
    bare.agent = {k: v for k, v in net.agent.items() if k != "arch_lr"}
    with pytest.raises(ValueError, match="'arch_lr'"):
        train_darts(bare, data, data, epochs=1, batch_size=8)
    with pytest.raises(ValueError, match="no 'target'"):
        evaluate_crps(net, {k: v for k, v in data.items() if k != "target"})


def test_make_evaluate_plugs_ptn_into_the_genetic_search():
    parts = [make_data(32, seed=s) for s in range(4)]
    evaluate = make_evaluate(
        *parts, n_quantiles=5, epochs=1, weight_steps=2, arch_steps=1, batch_size=16
    )
    space = make_space(hidden_size=Choice([24]))
    agent = sample(space, np.random.default_rng(0))
    f, f_v = evaluate(agent, 3)
    assert (f, f_v) == evaluate(agent, 3)  # seeded
    net = PTN.from_data(agent, parts[0], n_quantiles=5, seed=3)
    train_darts(
        net,
        parts[0],
        parts[1],
        epochs=1,
        weight_steps=2,
        arch_steps=1,
        batch_size=16,
        seed=3,
        progress=False,
    )
    assert f_v == pytest.approx(evaluate_crps(net, parts[3]).mean())
    result = genetic_search(
        space,
        evaluate,
        population=2,
        generations=2,
        n_elite=1,
        elite_every=1,
        seed=0,
        progress=False,
    )
    assert len(result.archive) == 4 and all(np.isfinite(a.f_v) for a in result.archive)


def test_scoring_subset_is_a_fixed_sorted_sample_without_replacement():
    a = scoring_subset(1000, 50, seed=3)
    assert len(a) == len(np.unique(a)) == 50 and np.all(np.diff(a) > 0)
    assert a.min() >= 0 and a.max() < 1000
    np.testing.assert_array_equal(a, scoring_subset(1000, 50, seed=3))
    assert not np.array_equal(a, scoring_subset(1000, 50, seed=4))
    np.testing.assert_array_equal(scoring_subset(7, None), np.arange(7))
    np.testing.assert_array_equal(scoring_subset(7, 7), np.arange(7))
    # every window is equally likely to be drawn (Monte Carlo vs size / n)
    hits = np.bincount(np.concatenate([scoring_subset(10, 3, seed=s) for s in range(4000)]))
    np.testing.assert_allclose(hits / 4000, 0.3, atol=0.03)
    for bad in (0, -1, 2.5):
        with pytest.raises(ValueError, match="size"):
            scoring_subset(10, bad)


def test_subset_rank_correlation_is_spearman_of_full_and_subset_means():
    rng = np.random.default_rng(0)
    scores = rng.gamma(2.0, size=(6, 300)) + np.linspace(0, 0.3, 6)[:, None]
    index = scoring_subset(300, 40, seed=2)
    expected = spearmanr(scores.mean(axis=1), scores[:, index].mean(axis=1)).statistic
    assert subset_rank_correlation(scores, 40, seed=2) == pytest.approx(expected, abs=1e-12)
    assert subset_rank_correlation(scores, 300) == 1.0  # the subset is every window
    assert np.isnan(subset_rank_correlation(scores[:1], 40))
    assert np.isnan(subset_rank_correlation(np.ones((3, 10)), 5))
    with pytest.raises(ValueError, match="shaped"):
        subset_rank_correlation(np.ones(5), 2)


def _subset(data, index):
    return {k: np.asarray(v)[index] for k, v in data.items()}


def test_make_evaluate_on_a_subset_scores_exactly_those_windows():
    parts = [make_data(40, seed=s) for s in range(4)]
    kwargs = {"n_quantiles": 5, "epochs": 1, "weight_steps": 2, "arch_steps": 1, "batch_size": 16}
    agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(0))
    full = make_evaluate(*parts, **kwargs)(agent, 5)
    # no subset, or a subset as large as the partition: today's numbers, bit for bit
    assert make_evaluate(*parts, **kwargs, score_windows=None)(agent, 5) == full
    assert make_evaluate(*parts, **kwargs, score_windows=40)(agent, 5) == full
    assert make_evaluate(*parts, **kwargs, device="cpu")(agent, 5) == full
    # a subset: the same as handing the search only those windows
    index = scoring_subset(40, 12, seed=9)
    on_subset = make_evaluate(*parts, **kwargs, score_windows=12, score_seed=9)(agent, 5)
    by_hand = make_evaluate(
        parts[0], parts[1], _subset(parts[2], index), _subset(parts[3], index), **kwargs
    )(agent, 5)
    assert on_subset == by_hand and on_subset != full
    with pytest.raises(ValueError, match="score_windows"):
        make_evaluate(*parts, **kwargs, score_windows=0)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_make_evaluate_trains_on_the_gpu_when_asked():
    parts = [make_data(32, seed=s) for s in range(4)]
    kwargs = {"n_quantiles": 5, "epochs": 1, "weight_steps": 2, "arch_steps": 1, "batch_size": 16}
    agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(0))
    cpu = make_evaluate(*parts, **kwargs)(agent, 1)
    gpu = make_evaluate(*parts, **kwargs, device="cuda")(agent, 1)
    np.testing.assert_allclose(gpu, cpu, rtol=1e-3)
