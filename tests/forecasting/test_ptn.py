"""The PTN hypermodel: block shapes for odd sizes, causality, DARTS bookkeeping, seeds."""

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from fairbook.forecasting.ptn import PTN, CausalConv1d, MixedOp, as_tensors
from fairbook.forecasting.space import Choice, make_space, sample

torch.set_num_threads(1)

# deliberately odd, mutually distinct sizes so a swapped axis cannot go unnoticed
SHAPES = dict(
    static_channels=2,
    history_steps=5,
    history_channels=4,
    n_forecasts=3,
    forecast_steps=7,
    forecast_channels=6,
    target_steps=9,
    n_quantiles=11,
)
N = 4


def make_agent(**genes):
    agent = sample(make_space(hidden_size=Choice([24])), np.random.default_rng(0))
    agent.update(dropout=0.0, first_dropout=0.0, noise_sd=0.0)
    agent.update(genes)
    return agent


def inputs(seed=0, n=N):
    g = torch.Generator().manual_seed(seed)
    s = SHAPES
    return (
        torch.randn(n, s["static_channels"], generator=g),
        torch.randn(n, s["history_steps"], s["history_channels"], generator=g),
        torch.randn(n, s["n_forecasts"], s["forecast_steps"], s["forecast_channels"], generator=g),
    )


@pytest.mark.parametrize("heads", [2, 3, 4, 6, 8, 12])
@pytest.mark.parametrize("normalisation", ["layer", "batch", "none"])
def test_block_shapes(heads, normalisation):
    agent = make_agent(
        history_heads=heads,
        forecast_heads=heads,
        normalisation=normalisation,
        history_embed_kernel=15,
        forecast_collapse_height=15,
        forecast_collapse_width=3,
        forecast_embed_kernel=9,
        output_temporal_kernel=7,
        output_feature_kernel=15,
    )
    net = PTN(agent, **SHAPES, seed=0)
    static, history, forecasts = inputs()
    d = 24
    assert net.embed_static(static).shape == (N, d, d)
    assert net.embed_history(history).shape == (N, d, d)
    assert net.embed_forecasts(forecasts).shape == (N, d, d)
    assert net.forecast_collapse(forecasts).shape == (N, 3, 7)
    for op in net.forecast_collapse.ops:
        assert op(forecasts).shape == (N, 3, 7)
    x = torch.randn(N, d, d)
    for cell in (net.history_cell, net.forecast_cell):
        for op in cell.ops:  # attention, conv1d, bi-GRU keep (N, d, d)
            assert op(x).shape == (N, d, d)
    assert net.head(x).shape == (N, 9, 11)
    assert net(static, history, forecasts).shape == (N, 9, 11)


def test_bigru_has_half_width_each_way():
    net = PTN(make_agent(), **SHAPES, seed=0)
    gru = net.history_cell.ops[2].gru
    assert gru.bidirectional and gru.hidden_size == 12


@pytest.mark.parametrize("kernel", [1, 3, 7, 15])
def test_causal_conv1d(kernel):
    torch.manual_seed(0)
    conv = CausalConv1d(3, 5, kernel)
    x = torch.randn(2, 3, 20)
    y = conv(x)
    assert y.shape == (2, 5, 20)
    for t0 in (0, 7, 19):
        x2 = x.clone()
        x2[..., t0] += 10.0
        y2 = conv(x2)
        assert torch.equal(y2[..., :t0], y[..., :t0])  # the past does not see the future
        assert not torch.allclose(y2[..., t0], y[..., t0])
        # the perturbation reaches exactly kernel-1 steps ahead
        changed = (y2 - y).abs().amax(dim=(0, 1)) > 0
        assert changed.nonzero().flatten().tolist() == list(range(t0, min(t0 + kernel, 20)))


def test_convs_along_time_inside_the_model_are_causal():
    net = PTN(
        make_agent(history_conv_kernel=5, forecast_conv_kernel=3, output_feature_kernel=7),
        **SHAPES,
        seed=0,
    )
    net.eval()
    x = torch.randn(2, 24, 24)  # (N, time, channels)
    for conv in (net.history_cell.ops[1], net.forecast_cell.ops[1]):
        y = conv(x)
        x2 = x.clone()
        x2[:, 10] += 5.0
        y2 = conv(x2)
        assert torch.equal(y2[:, :10], y[:, :10]) and not torch.allclose(y2[:, 10], y[:, 10])
    # the output's conv over channels slides along the τ_t target steps
    h = torch.randn(2, 24, 9)
    y = net.out_features(h)
    h2 = h.clone()
    h2[..., 4] += 5.0
    assert torch.equal(net.out_features(h2)[..., :4], y[..., :4])


def test_parameter_split():
    net = PTN(make_agent(), **SHAPES, seed=0)
    arch, weights = net.architecture_parameters(), net.weight_parameters()
    ids_a, ids_w = {id(p) for p in arch}, {id(p) for p in weights}
    assert not ids_a & ids_w
    assert ids_a | ids_w == {id(p) for p in net.parameters()}
    assert [p.shape[0] for p in arch] == [3, 2, 3]
    assert any(p is net.scales for p in weights)


def test_mixed_op_is_the_softmax_weighted_sum():
    torch.manual_seed(0)
    ops = {"a": torch.nn.Linear(4, 4), "b": torch.nn.Tanh(), "c": torch.nn.Linear(4, 4)}
    mixed = MixedOp(ops)
    with torch.no_grad():
        mixed.alpha.copy_(torch.tensor([0.3, -1.0, 2.0]))
    x = torch.randn(5, 4)
    w = torch.softmax(torch.tensor([0.3, -1.0, 2.0]), 0)
    expected = sum(w[i] * op(x) for i, op in enumerate(ops.values()))
    torch.testing.assert_close(mixed(x), expected)
    assert float(mixed.weights().detach().sum()) == pytest.approx(1.0)
    mixed.prune(0.2)  # the weights are 0.148, 0.040, 0.811: only c stays
    assert mixed.active.tolist() == [False, False, True]
    torch.testing.assert_close(mixed(x), ops["c"](x))


def test_operation_weights_choose_and_derive():
    net = PTN(make_agent(), **SHAPES, seed=0)
    table = net.operation_weights()
    assert list(table.columns) == ["subspace", "operation", "weight", "active"]
    assert table.groupby("subspace")["weight"].sum().to_numpy() == pytest.approx(1.0)
    assert table["weight"].tolist() == pytest.approx([1 / 3] * 3 + [1 / 2] * 2 + [1 / 3] * 3)
    with torch.no_grad():
        net.history_cell.alpha.copy_(torch.tensor([0.0, 0.1, 2.0]))
        net.forecast_collapse.alpha.copy_(torch.tensor([1.0, 0.0]))
        net.forecast_cell.alpha.copy_(torch.tensor([3.0, 0.0, 0.0]))
    assert net.chosen_operations() == {
        "history": "bigru",
        "forecast_collapse": "conv2d",
        "forecasts": "attention",
    }
    table = net.operation_weights()
    assert table.groupby("subspace")["weight"].sum().to_numpy() == pytest.approx(1.0)
    net.derive()
    table = net.operation_weights()
    assert table.loc[table["active"], "operation"].tolist() == ["bigru", "conv2d", "attention"]
    assert table.loc[table["active"], "weight"].tolist() == [1.0, 1.0, 1.0]
    net.eval()
    static, history, forecasts = inputs()
    x = net.act(net.history_embed(net.history_dropout(net.act(net.history_in(history)))))
    torch.testing.assert_close(net.embed_history(history), net.history_cell.ops[2](x))
    assert net(static, history, forecasts).shape == (N, 9, 11)


def test_seeded_construction_is_deterministic_and_leaves_global_rng():
    agent = make_agent()
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    a = PTN(agent, **SHAPES, seed=7)
    assert torch.equal(torch.rand(1), before)
    b = PTN(agent, **SHAPES, seed=7)
    c = PTN(agent, **SHAPES, seed=8)
    for (name, pa), pb in zip(a.state_dict().items(), b.state_dict().values(), strict=True):
        assert torch.equal(pa, pb), name
    assert not torch.equal(a.static_in.weight, c.static_in.weight)
    a.eval()
    b.eval()
    x = inputs()
    assert torch.equal(a(*x), b(*x))


def test_noise_and_dropout_only_in_training():
    net = PTN(make_agent(noise_sd=0.2, dropout=0.3, first_dropout=0.3), **SHAPES, seed=0)
    x = inputs()
    net.eval()
    assert torch.equal(net(*x), net(*x))
    net.train()
    assert not torch.equal(net(*x), net(*x))
    quiet = PTN(make_agent(normalisation="layer"), **SHAPES, seed=0).train()
    assert torch.equal(quiet(*x), quiet(*x))


def test_bad_agents_and_inputs_are_errors():
    with pytest.raises(ValueError, match="history_heads = 5 does not divide hidden_size 24"):
        PTN(make_agent(history_heads=5), **SHAPES)
    with pytest.raises(ValueError, match="unknown gene"):
        PTN({**make_agent(), "colour": 1}, **SHAPES)
    with pytest.raises(ValueError, match="lacks gene"):
        PTN({k: v for k, v in make_agent().items() if k != "dropout"}, **SHAPES)
    with pytest.raises(ValueError, match="odd positive"):
        PTN(make_agent(history_conv_kernel=4), **SHAPES)
    with pytest.raises(ValueError, match="even integer"):
        PTN(make_agent(hidden_size=25, history_heads=5, forecast_heads=5), **SHAPES)
    with pytest.raises(ValueError, match="target_steps"):
        PTN(make_agent(), **{**SHAPES, "target_steps": 0})
    net = PTN(make_agent(), **SHAPES)
    static, history, forecasts = inputs()
    with pytest.raises(ValueError, match="history must be shaped"):
        net(static, history[:, :4], forecasts)
    with pytest.raises(ValueError, match="forecasts must be shaped"):
        net(static, history, forecasts[:2])


def test_as_tensors_and_from_data():
    static, history, forecasts = inputs()
    target = np.zeros((N, 9))
    data = SimpleNamespace(
        static=static.numpy(), history=history, forecasts=forecasts, target=target
    )
    t = as_tensors(data)
    assert all(v.dtype == torch.float32 for v in t.values())
    assert as_tensors(vars(data))["target"].shape == (N, 9)
    with pytest.raises(ValueError, match="no 'target'"):
        as_tensors({"static": static, "history": history, "forecasts": forecasts})
    with pytest.raises(ValueError, match="disagree on the number of windows"):
        as_tensors({**vars(data), "target": np.zeros((N + 1, 9))})
    with pytest.raises(ValueError, match="history must have 3 dimensions"):
        as_tensors({**vars(data), "history": np.zeros((N, 5))})
    net = PTN.from_data(make_agent(), data, n_quantiles=11, seed=0)
    assert net.shapes == SHAPES
