"""Table 5.1 as data, and the genetic operators: domains, interpolation oracles, Monte Carlo."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.forecasting.space import (
    PTN_SPACE,
    Choice,
    Range,
    crossover,
    make_space,
    mutate,
    parent_weights,
    sample,
    validate_agent,
    validate_space,
)

KERNELS = (1, 3, 5, 7, 9, 11, 13, 15)
seeds = st.integers(0, 2**32 - 1)
fitness = st.floats(1e-3, 10.0)


def test_table_5_1_rows():
    s = PTN_SPACE
    assert len(s) == 22
    assert s["hidden_size"] == Choice((72, 96, 120, 144, 168, 192, 216, 240), ordered=True)
    for gene in ("history_heads", "forecast_heads"):
        assert s[gene] == Choice((2, 3, 4, 6, 8, 12))
    for gene in ("dropout", "first_dropout"):
        assert s[gene] == Range(0.0, 0.5)
    assert s["lrelu_slope"] == Range(0.0, 0.3)
    assert s["noise_sd"] == Range(0.0, 0.25)
    for prefix in ("arch", "weight"):
        assert s[f"{prefix}_lr"] == Range(1e-5, 1e-3, log=True)
        assert s[f"{prefix}_beta1"] == Range(0.5, 0.99)
        assert s[f"{prefix}_beta2"] == Range(0.95, 0.999)
    assert s["normalisation"] == Choice(("layer", "batch", "none"), ordered=False)
    for gene in (
        "history_embed_kernel",
        "history_conv_kernel",
        "forecast_collapse_width",
        "forecast_collapse_height",
        "forecast_conv_kernel",
        "output_temporal_kernel",
        "output_feature_kernel",
    ):
        assert s[gene].values == KERNELS and s[gene].ordered
    assert s["forecast_embed_kernel"].values == (1, 3, 5, 7, 9)
    with pytest.raises(TypeError):
        s["hidden_size"] = Choice([24])  # read-only


def test_every_hidden_size_divisible_by_every_head_count():
    for d in PTN_SPACE["hidden_size"].values:
        for h in PTN_SPACE["history_heads"].values + PTN_SPACE["forecast_heads"].values:
            assert d % h == 0
    validate_space(PTN_SPACE)


def test_make_space_and_its_errors():
    small = make_space(hidden_size=Choice([24, 48]))
    assert small["hidden_size"].values == (24, 48)
    assert PTN_SPACE["hidden_size"].values[0] == 72  # the original is untouched
    with pytest.raises(ValueError, match="unknown gene 'hiden_size'"):
        make_space(hiden_size=Choice([24]))
    with pytest.raises(ValueError, match="not divisible by history_heads 8"):
        make_space(hidden_size=Choice([36]))
    with pytest.raises(ValueError, match="even integer"):
        make_space(hidden_size=Choice([25]), history_heads=Choice([5]), forecast_heads=Choice([5]))
    with pytest.raises(ValueError, match="expected a Choice or Range"):
        validate_space({"x": (0, 1)})


def test_domain_errors():
    with pytest.raises(ValueError, match="low <= high"):
        Range(1.0, 0.0)
    with pytest.raises(ValueError, match="low > 0"):
        Range(0.0, 1.0, log=True)
    with pytest.raises(ValueError, match="distinct"):
        Choice([1, 1])
    with pytest.raises(ValueError, match="at least one"):
        Choice([])


def test_validate_agent_names_the_problem():
    agent = sample(PTN_SPACE, np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown gene"):
        validate_agent({**agent, "colour": 1}, PTN_SPACE)
    with pytest.raises(ValueError, match="missing gene"):
        validate_agent({k: v for k, v in agent.items() if k != "dropout"}, PTN_SPACE)
    with pytest.raises(ValueError, match="'hidden_size' = 100"):
        validate_agent({**agent, "hidden_size": 100}, PTN_SPACE)


@settings(max_examples=50, deadline=None)
@given(seed=seeds)
def test_sample_is_inside_and_json_native(seed):
    agent = sample(PTN_SPACE, np.random.default_rng(seed))
    validate_agent(agent, PTN_SPACE)
    assert json.loads(json.dumps(agent)) == agent
    assert agent == sample(PTN_SPACE, np.random.default_rng(seed))


def test_sample_log_range_is_log_uniform():
    rng = np.random.default_rng(1)
    lr = np.array([sample(PTN_SPACE, rng)["arch_lr"] for _ in range(2000)])
    u = (np.log(lr) - np.log(1e-5)) / (np.log(1e-3) - np.log(1e-5))
    assert stats.kstest(u, "uniform").pvalue > 1e-3


@settings(max_examples=60, deadline=None)
@given(seed=seeds, fa=fitness, fb=fitness)
def test_crossover_child_inside_and_interpolates(seed, fa, fb):
    rng = np.random.default_rng(seed)
    a, b = sample(PTN_SPACE, rng), sample(PTN_SPACE, rng)
    child = crossover(a, b, fa, fb, rng)
    validate_agent(child, PTN_SPACE)
    wa, wb = fb / (fa + fb), fa / (fa + fb)
    for name, domain in PTN_SPACE.items():
        va, vb, vc = a[name], b[name], child[name]
        if isinstance(domain, Range):
            assert min(va, vb) <= vc <= max(va, vb)
            if domain.log:
                assert math.log(vc) == pytest.approx(
                    wa * math.log(va) + wb * math.log(vb), abs=1e-12
                )
            else:
                assert vc == pytest.approx(wa * va + wb * vb, abs=1e-12)
        elif domain.ordered:
            target = wa * va + wb * vb
            assert min(va, vb) <= vc <= max(va, vb)
            assert all(abs(vc - target) <= abs(v - target) + 1e-9 for v in domain.values)
        else:
            assert vc in (va, vb)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, f=fitness)
def test_equal_fitness_gives_the_midpoint(seed, f):
    rng = np.random.default_rng(seed)
    a, b = sample(PTN_SPACE, rng), sample(PTN_SPACE, rng)
    child = crossover(a, b, f, f, rng)
    for name, domain in PTN_SPACE.items():
        if isinstance(domain, Range) and domain.log:
            assert child[name] == pytest.approx(math.sqrt(a[name] * b[name]), rel=1e-12)
        elif isinstance(domain, Range):
            assert child[name] == pytest.approx((a[name] + b[name]) / 2, abs=1e-12)


def test_hand_cases():
    s = {"lr": Range(1e-5, 1e-3, log=True), "d": PTN_SPACE["hidden_size"], "p": Range(0.0, 0.5)}
    rng = np.random.default_rng(0)
    child = crossover(
        {"lr": 1e-5, "d": 72, "p": 0.0}, {"lr": 1e-3, "d": 120, "p": 0.4}, 2.0, 2.0, rng, space=s
    )
    assert child == {"lr": pytest.approx(1e-4), "d": 96, "p": pytest.approx(0.2)}
    # a three times better parent a gets weight 3/4
    child = crossover(
        {"lr": 1e-5, "d": 72, "p": 0.0}, {"lr": 1e-3, "d": 240, "p": 0.4}, 1.0, 3.0, rng, space=s
    )
    assert child["p"] == pytest.approx(0.1)
    assert child["lr"] == pytest.approx(10 ** (-5 + 0.25 * 2))
    assert child["d"] == 120  # 0.75*72 + 0.25*240 = 114 -> nearest 120
    # exact ties go to the better parent: 7/8·72 + 1/8·168 = 84, halfway between 72 and 96
    lo, hi = {"lr": 1e-5, "d": 72, "p": 0.0}, {"lr": 1e-5, "d": 168, "p": 0.0}
    assert crossover(lo, hi, 1.0, 7.0, rng, space=s)["d"] == 72
    assert crossover(lo, hi, 7.0, 1.0, rng, space=s)["d"] == 168  # 156: 144 or 168
    # ... and to a fair coin when the fitnesses are equal
    draws = [crossover(lo, {**lo, "d": 96}, 1.0, 1.0, rng, space=s)["d"] for _ in range(400)]
    assert set(draws) == {72, 96} and abs(draws.count(72) / 400 - 0.5) < 4 * 0.025


def test_parent_weights():
    assert parent_weights(1.0, 3.0) == (0.75, 0.25)
    assert parent_weights(0.0, 2.0) == (1.0, 0.0)
    assert parent_weights(0.0, 0.0) == (0.5, 0.5)
    assert parent_weights(math.inf, 1.0) == (0.0, 1.0)
    assert parent_weights(math.nan, 1.0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        parent_weights(-1.0, 1.0)


def test_unordered_choice_follows_the_weights():
    """Monte Carlo: with fitness 1 vs 3 the better parent's value comes 3/4 of the time."""
    s = {"norm": PTN_SPACE["normalisation"]}
    rng = np.random.default_rng(5)
    n = 4000
    hits = sum(
        crossover({"norm": "layer"}, {"norm": "none"}, 1.0, 3.0, rng, space=s)["norm"] == "layer"
        for _ in range(n)
    )
    assert abs(hits / n - 0.75) < 4 * math.sqrt(0.75 * 0.25 / n)


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_mutation_rate_zero_keeps_the_agent(seed):
    rng = np.random.default_rng(seed)
    agent = sample(PTN_SPACE, rng)
    assert mutate(agent, 0.0, PTN_SPACE, rng) == agent


def test_mutation_rate_one_resamples_every_gene():
    """Rate 1: every gene is a fresh draw from its domain, whatever the parent's value."""
    rng = np.random.default_rng(2)
    agent = sample(PTN_SPACE, rng)
    children = [mutate(agent, 1.0, PTN_SPACE, rng) for _ in range(1500)]
    for name, domain in PTN_SPACE.items():
        values = [c[name] for c in children]
        if isinstance(domain, Range):
            assert all(v in domain and v != agent[name] for v in values)
            x = np.log(values) if domain.log else np.asarray(values)
            lo, hi = (
                (np.log(domain.low), np.log(domain.high))
                if domain.log
                else (domain.low, domain.high)
            )
            assert stats.kstest((x - lo) / (hi - lo), "uniform").pvalue > 1e-4, name
        else:
            counts = [values.count(v) for v in domain.values]
            assert stats.chisquare(counts).pvalue > 1e-4, name


def test_mutation_rate_is_the_per_gene_probability():
    s = {f"x{i}": Range(0.0, 1.0) for i in range(50)}
    rng = np.random.default_rng(3)
    agent = {k: 0.5 for k in s}
    changed = sum(sum(v != 0.5 for v in mutate(agent, 0.3, s, rng).values()) for _ in range(100))
    assert abs(changed / 5000 - 0.3) < 4 * math.sqrt(0.3 * 0.7 / 5000)


def test_mutate_errors():
    agent = sample(PTN_SPACE, np.random.default_rng(0))
    with pytest.raises(ValueError, match="mutation rate"):
        mutate(agent, 1.5, PTN_SPACE, np.random.default_rng(0))
    with pytest.raises(ValueError, match="needs an rng"):
        mutate(agent, 0.5, PTN_SPACE)
    with pytest.raises(ValueError, match="unknown gene"):
        mutate({**agent, "x": 1}, 0.5, PTN_SPACE, np.random.default_rng(0))
