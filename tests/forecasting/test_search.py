"""Algorithm 2 on an analytic fitness: improvement, elitism, patience, seeds, resuming."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from fairbook.forecasting.search import (
    genetic_search,
    mutation_rate,
    search_history,
)
from fairbook.forecasting.space import PTN_SPACE, Choice, Range, validate_agent

SPACE = {
    "x": Range(-1.0, 1.0),
    "lr": Range(1e-5, 1e-1, log=True),
    "k": Choice(tuple(range(1, 16, 2))),
    "norm": Choice(("layer", "batch", "none"), ordered=False),
}
OPTIMUM = {"x": 0.3, "lr": 1e-3, "k": 7, "norm": "batch"}


def distance(agent):
    return (
        (agent["x"] - OPTIMUM["x"]) ** 2
        + (math.log10(agent["lr"]) - math.log10(OPTIMUM["lr"])) ** 2 / 16
        + ((agent["k"] - OPTIMUM["k"]) / 14) ** 2
        + 0.1 * (agent["norm"] != OPTIMUM["norm"])
    )


class Evaluate:
    """f = distance to the optimum; f_v adds seed-dependent noise; records every call."""

    def __init__(self):
        self.calls = []

    def __call__(self, agent, seed):
        self.calls.append((dict(agent), seed))
        f = distance(agent)
        return f, f + np.random.default_rng(seed).uniform(0, 0.01)


def run(**kwargs):
    options = dict(
        population=10,
        generations=8,
        patience=None,
        elite_every=2,
        n_elite=2,
        seed=0,
        progress=False,
    )
    options.update(kwargs)
    evaluate = options.pop("evaluate", None) or Evaluate()
    return genetic_search(SPACE, evaluate, **options), evaluate


def test_the_search_improves_the_fitness():
    result, evaluate = run(generations=10)
    hist = search_history(result)
    by_gen = hist.groupby("generation")["f_v"]
    assert by_gen.mean().iloc[-1] < 0.5 * by_gen.mean().iloc[0]
    assert by_gen.min().iloc[-1] <= by_gen.min().iloc[0]
    assert result.best.f_v < 0.05
    assert len(evaluate.calls) == 100 == len(result.archive)


def test_the_archive_is_sorted_by_the_sum_of_squares():
    result, _ = run(generations=3)
    scores = [a.f**2 + a.f_v**2 for a in result.archive]
    assert scores == sorted(scores)
    assert result.best is result.archive[0]


def test_children_stay_in_the_space():
    result, evaluate = run(generations=6)
    for agent, _ in evaluate.calls:
        validate_agent(agent, SPACE)
    rates = [a.mutation_rate for a in result.archive if a.generation > 1]
    assert all(0.05 <= r <= 0.6 for r in rates)
    assert all(len(a.parents) == 2 for a in result.archive if a.generation > 1)


def test_elitism_puts_the_archive_best_into_every_elite_parent_pool():
    result, _ = run(generations=6, elite_every=1, n_elite=2)
    hist = search_history(result)
    for generation, pool in enumerate(result.parent_pools, start=1):
        so_far = hist[hist["generation"] <= generation]
        best_id = int(so_far.sort_values(["f_v", "id"])["id"].iloc[0])
        assert best_id in pool
        assert len(pool) == 10


def test_elite_rounds_follow_the_frequency():
    """Off elite rounds the pool is the generation itself; on them it holds older agents."""
    result, _ = run(generations=6, elite_every=3, n_elite=3)
    hist = search_history(result)
    for generation, pool in enumerate(result.parent_pools, start=1):
        own = set(hist.loc[hist["generation"] == generation, "id"])
        if generation % 3:
            assert set(pool) == own
        else:
            assert len(set(pool) - own) <= 3 and len(pool) == 10


def test_patience_stops_early():
    """A flat landscape: the best f_v never improves after generation 1."""

    def flat(agent, seed):
        return 1.0, 1.0

    result, _ = run(evaluate=flat, generations=20, patience=2, population=4)
    assert result.stopped_early and result.generations == 3
    assert len(result.archive) == 12
    result, _ = run(evaluate=flat, generations=5, patience=None, population=4)
    assert not result.stopped_early and result.generations == 5


def test_seeded_determinism_and_evaluation_seeds():
    a, ea = run(generations=4)
    b, eb = run(generations=4)
    c, _ = run(generations=4, seed=1)
    assert ea.calls == eb.calls
    pd.testing.assert_frame_equal(search_history(a), search_history(b))
    assert search_history(a)["f_v"].tolist() != search_history(c)["f_v"].tolist()
    seeds = [s for _, s in ea.calls]
    assert len(set(seeds)) == len(seeds)


def test_resume_equals_a_straight_run(tmp_path):
    path = tmp_path / "search.json"
    straight, _ = run(generations=4)
    first, e1 = run(generations=2, checkpoint=path)
    state = json.loads(path.read_text())
    assert state["generation"] == 2 and len(state["archive"]) == 20
    resumed, e2 = run(generations=4, checkpoint=path)
    assert len(e1.calls) == 20 and len(e2.calls) == 20  # nothing evaluated twice
    assert resumed.generations == 4
    pd.testing.assert_frame_equal(search_history(resumed), search_history(straight))
    assert resumed.parent_pools == straight.parent_pools
    again, e3 = run(generations=4, checkpoint=path)  # already complete: no new evaluations
    assert not e3.calls and len(again.archive) == 40
    with pytest.raises(ValueError, match="other settings"):
        run(generations=4, checkpoint=path, population=6)
    with pytest.raises(ValueError, match="other settings"):
        genetic_search(
            {**SPACE, "x": Range(-2.0, 2.0)},
            Evaluate(),
            population=10,
            generations=4,
            patience=None,
            elite_every=2,
            n_elite=2,
            seed=0,
            checkpoint=path,
            progress=False,
        )


def test_search_history_columns():
    result, _ = run(generations=3)
    hist = search_history(result)
    assert list(hist.columns[:6]) == ["generation", "id", "f", "f_v", "score", "best_fv_so_far"]
    assert set(SPACE) <= set(hist.columns)
    assert hist["id"].tolist() == list(range(30))
    assert (np.diff(hist["best_fv_so_far"]) <= 0).all()
    assert hist.loc[hist["rank"] == 1, "id"].item() == result.best.id


def test_mutation_rate_mapping():
    assert mutation_rate(1.0, [1.0, 2.0, 3.0]) == pytest.approx(0.05)
    assert mutation_rate(3.0, [1.0, 2.0, 3.0]) == pytest.approx(0.6)
    assert mutation_rate(1.5, [1.0, 3.0]) == pytest.approx(0.05 + 0.55 * 0.25)
    assert mutation_rate(2.0, [2.0, 2.0]) == pytest.approx(0.325)
    assert mutation_rate(math.inf, [1.0, 2.0]) == 0.6
    assert mutation_rate(2.0, [1.0, math.inf, 3.0]) == pytest.approx(0.325)


def test_failed_evaluations_do_not_break_the_search():
    def flaky(agent, seed):
        return (math.nan, math.nan) if agent["k"] > 9 else (distance(agent),) * 2

    result, _ = run(evaluate=flaky, generations=4)
    assert math.isfinite(result.best.f_v)
    assert all(math.isnan(a.f_v) for a in result.archive if a.agent["k"] > 9)


def test_bad_settings_are_errors():
    evaluate = Evaluate()
    with pytest.raises(ValueError, match="n_elite"):
        genetic_search(SPACE, evaluate, population=4, n_elite=4)
    with pytest.raises(ValueError, match="population"):
        genetic_search(SPACE, evaluate, population=1)
    with pytest.raises(ValueError, match="patience"):
        genetic_search(SPACE, evaluate, patience=0)
    with pytest.raises(ValueError, match="not divisible"):
        genetic_search({**PTN_SPACE, "hidden_size": Choice([20])}, evaluate)
