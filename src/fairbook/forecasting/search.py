"""Genetic hyper-parameter and architecture search for PTN (seed 003, Algorithm 2).

:func:`genetic_search` evolves agents of a space (:mod:`fairbook.forecasting.space`). The
fitness ``f`` (genetic-training CRPS) and validation fitness ``f_v`` (genetic-validation
CRPS) come from a user-supplied ``evaluate(agent, seed)``, typically "build a PTN, train it
with DARTS, score it" (:mod:`fairbook.forecasting.darts`). Both are **minimised**.

Each generation:

1. evaluate every agent of the current population, add them to the archive ``A``;
2. stop if the archive's smallest ``f_v`` has not improved for ``patience`` generations;
3. every ``elite_every`` generations replace the ``n_elite`` worst agents (by ``f_v``) of the
   population by the ``n_elite`` best archived agents not already in it (the *parent pool*);
4. breed ``population`` children: two parents by tournament selection from the pool (each
   the smallest ``f_v`` of ``tournament_size`` agents drawn without replacement; the second
   tournament excludes the first winner), proportional crossover weighted by the parents'
   ``f_v`` (:func:`~fairbook.forecasting.space.crossover`), expected child fitness ``ê`` =
   mean ``f_v`` of the parents, and mutation with rate

   .. math:: r = 0.05 + 0.55 \\cdot \\operatorname{clip}\\Big(
             \\frac{ê - \\min f_v}{\\max f_v - \\min f_v}, 0, 1\\Big),

   min and max over the parent pool: the child of the two best agents mutates least (5 %),
   the child of the two worst most (60 %); 0.325 when the pool's ``f_v`` are all equal, 0.6
   when ``ê`` is not finite (a failed parent).

The result is the archive sorted by ``f² + f_v²`` **ascending** (best first). Seed 003
writes "descending" for a maximised fitness; with CRPS, smaller is better.

Every agent's evaluation seed is derived from ``(seed, agent id)`` alone, so it does not depend
on evaluation order; with ``checkpoint=`` the state after every generation (archive,
next population, RNG state, counters) is written to JSON and a later call resumes from it.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .space import crossover, mutate, sample, validate_agent, validate_space

__all__ = ["Individual", "SearchResult", "genetic_search", "mutation_rate", "search_history"]

_MIN_RATE, _MAX_RATE = 0.05, 0.6


@dataclass
class Individual:
    """One evaluated agent."""

    id: int
    generation: int
    agent: dict
    f: float
    f_v: float
    parents: tuple[int, ...] = ()
    mutation_rate: float = float("nan")

    @property
    def score(self) -> float:
        """``f² + f_v²``, the final ranking key (smaller is better)."""
        return self.f**2 + self.f_v**2


@dataclass
class SearchResult:
    """What :func:`genetic_search` returns.

    Attributes
    ----------
    archive : list of Individual
        Every evaluated agent, sorted by ``f² + f_v²`` ascending (best first).
    generations : int
        Generations evaluated.
    stopped_early : bool
        Whether the patience rule stopped the search.
    parent_pools : list of list of int
        For each generation, the ids in the parent pool after the elitism step.
    """

    archive: list[Individual]
    generations: int
    stopped_early: bool
    parent_pools: list[list[int]] = field(default_factory=list)

    @property
    def best(self) -> Individual:
        """The first agent of the archive."""
        return self.archive[0]


def _safe(x: float) -> float:
    x = float(x)
    return x if math.isfinite(x) else math.inf


def mutation_rate(
    expected: float, pool_fitness, *, low: float = _MIN_RATE, high: float = _MAX_RATE
) -> float:
    """Mutation rate for a child whose expected (minimised) fitness is ``expected``.

    Linear in the position of ``expected`` between the best and worst ``f_v`` of the parent
    pool, mapped to ``[low, high]``; see the module docstring.

    Examples
    --------
    >>> mutation_rate(1.0, [1.0, 3.0]), mutation_rate(3.0, [1.0, 3.0])
    (0.05, 0.6)
    >>> round(mutation_rate(2.0, [1.0, 3.0]), 3)
    0.325
    """
    finite = [x for x in map(float, pool_fitness) if math.isfinite(x)]
    expected = float(expected)
    if not math.isfinite(expected):
        return high
    if not finite or max(finite) == min(finite):
        return (low + high) / 2
    r = (expected - min(finite)) / (max(finite) - min(finite))
    return low + (high - low) * min(max(r, 0.0), 1.0)


def _tournament(pool: list[Individual], k: int, rng, exclude: int | None = None) -> Individual:
    candidates = [a for a in pool if a.id != exclude] or pool
    k = min(k, len(candidates))
    picks = rng.choice(len(candidates), size=k, replace=False)
    return min((candidates[i] for i in sorted(picks)), key=lambda a: (_safe(a.f_v), a.id))


def _evaluation_seed(seed: int, agent_id: int) -> int:
    return int(np.random.SeedSequence([int(seed), int(agent_id)]).generate_state(1)[0])


def _settings(space, population, n_elite, elite_every, tournament_size, seed):
    return {
        "space": {name: repr(domain) for name, domain in space.items()},
        "population": population,
        "n_elite": n_elite,
        "elite_every": elite_every,
        "tournament_size": tournament_size,
        "seed": seed,
    }


def _save(path: Path, state: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state))
    os.replace(tmp, path)


def genetic_search(
    space: Mapping,
    evaluate: Callable,
    *,
    population: int = 8,
    generations: int = 10,
    patience: int | None = 3,
    elite_every: int = 2,
    n_elite: int = 2,
    tournament_size: int = 2,
    seed: int = 0,
    checkpoint: str | os.PathLike | None = None,
    progress: bool | None = None,
) -> SearchResult:
    """Algorithm 2 of seed 003: genetic search with elitism, patience and dynamic mutation.

    Parameters
    ----------
    space : mapping of str to Choice or Range
        E.g. :data:`~fairbook.forecasting.space.PTN_SPACE`.
    evaluate : callable
        ``evaluate(agent, seed) -> (f, f_v)``, both non-negative and minimised.
    population : int, default 8
        ``n``, agents per generation (at least 2).
    generations : int, default 10
        Maximum number of generations.
    patience : int or None, default 3
        ``p``: stop when the archive's minimum ``f_v`` has not improved for this many
        generations; ``None`` never stops early.
    elite_every : int, default 2
        ``e_f``; 0 disables elitism.
    n_elite : int, default 2
        ``n_e`` (less than ``population``).
    tournament_size : int, default 2
        Agents per tournament (the paper does not give it).
    seed : int, default 0
    checkpoint : path, optional
        JSON file written after every generation; if it exists, the search resumes from it
        (its settings must match).
    progress : bool, optional
        Progress bar over generations (``None``: only on a terminal or notebook).

    Returns
    -------
    SearchResult

    Examples
    --------
    >>> from fairbook.forecasting.space import Range
    >>> space = {"x": Range(-1.0, 1.0), "y": Range(-1.0, 1.0)}
    >>> def evaluate(agent, seed):
    ...     f = (agent["x"] - 0.3) ** 2 + (agent["y"] + 0.2) ** 2
    ...     return f, f
    >>> result = genetic_search(space, evaluate, population=6, generations=5, seed=0,
    ...                         progress=False)
    >>> result.best.f_v <= min(a.f_v for a in result.archive)
    True
    """
    validate_space(space)
    for name, value, least in (
        ("population", population, 2),
        ("generations", generations, 0),
        ("elite_every", elite_every, 0),
        ("n_elite", n_elite, 0),
        ("tournament_size", tournament_size, 1),
    ):
        if int(value) != value or value < least:
            raise ValueError(f"{name} must be an integer >= {least}; got {value!r}")
    if n_elite >= population:
        raise ValueError(f"n_elite ({n_elite}) must be smaller than population ({population})")
    if patience is not None and (int(patience) != patience or patience < 1):
        raise ValueError(f"patience must be a positive integer or None; got {patience!r}")

    settings = _settings(
        space, int(population), int(n_elite), int(elite_every), int(tournament_size), int(seed)
    )
    path = Path(checkpoint) if checkpoint is not None else None
    if path is not None and path.exists():
        state = json.loads(path.read_text())
        if state.get("settings") != settings:
            raise ValueError(
                f"checkpoint {path} was written with other settings: "
                f"{state.get('settings')} != {settings}"
            )
        rng = np.random.default_rng()
        rng.bit_generator.state = state["rng"]
        archive = [Individual(**{**a, "parents": tuple(a["parents"])}) for a in state["archive"]]
        current = state["population"]
        done, next_id = state["generation"], state["next_id"]
        best_fv, stale, stopped = state["best_fv"], state["stale"], state["stopped"]
        pools = state["parent_pools"]
    else:
        rng = np.random.default_rng(int(seed))
        current = [
            {"agent": sample(space, rng), "parents": [], "mutation_rate": float("nan")}
            for _ in range(int(population))
        ]
        archive, done, next_id = [], 0, 0
        best_fv, stale, stopped, pools = math.inf, 0, False, []

    bar = tqdm(
        range(done + 1, int(generations) + 1),
        desc="generations",
        leave=False,
        disable=None if progress is None else not progress,
    )
    for generation in bar:
        if stopped:
            break
        evaluated = []
        for entry in current:
            validate_agent(entry["agent"], space)
            f, f_v = evaluate(dict(entry["agent"]), _evaluation_seed(seed, next_id))
            evaluated.append(
                Individual(
                    next_id,
                    generation,
                    dict(entry["agent"]),
                    float(f),
                    float(f_v),
                    tuple(entry["parents"]),
                    float(entry["mutation_rate"]),
                )
            )
            next_id += 1
        archive.extend(evaluated)
        generation_best = min(_safe(a.f_v) for a in evaluated)
        if generation_best < best_fv:
            best_fv, stale = generation_best, 0
        else:
            stale += 1
        bar.set_postfix(best_fv=best_fv)
        done = generation
        if patience is not None and stale >= patience:
            stopped = True
        else:
            pool = sorted(evaluated, key=lambda a: (_safe(a.f_v), a.id))
            if elite_every and n_elite and generation % elite_every == 0:
                in_pool = {a.id for a in pool[: len(pool) - n_elite]}
                outside = sorted(
                    (a for a in archive if a.id not in in_pool), key=lambda a: (_safe(a.f_v), a.id)
                )
                pool = pool[: len(pool) - n_elite] + outside[:n_elite]
            pools.append([a.id for a in pool])
            pool_fv = [a.f_v for a in pool]
            current = []
            for _ in range(int(population)):
                pa = _tournament(pool, int(tournament_size), rng)
                pb = _tournament(pool, int(tournament_size), rng, exclude=pa.id)
                child = crossover(
                    pa.agent, pb.agent, _safe(pa.f_v), _safe(pb.f_v), rng, space=space
                )
                rate = mutation_rate((pa.f_v + pb.f_v) / 2, pool_fv)
                current.append(
                    {
                        "agent": mutate(child, rate, space, rng),
                        "parents": [pa.id, pb.id],
                        "mutation_rate": rate,
                    }
                )
        if path is not None:
            _save(
                path,
                {
                    "settings": settings,
                    "generation": done,
                    "next_id": next_id,
                    "rng": rng.bit_generator.state,
                    "best_fv": best_fv,
                    "stale": stale,
                    "stopped": stopped,
                    "parent_pools": pools,
                    "population": current,
                    "archive": [{**asdict(a), "parents": list(a.parents)} for a in archive],
                },
            )
    ranked = sorted(archive, key=lambda a: (_safe(a.score), a.id))
    return SearchResult(ranked, done, stopped, pools)


def search_history(result: SearchResult) -> pd.DataFrame:
    """Tidy table of every evaluation, in evaluation order, for "how fitness evolved" plots.

    Columns: ``generation, id, f, f_v, score, rank, best_fv_so_far, parents, mutation_rate``
    and one column per gene.

    Examples
    --------
    >>> from fairbook.forecasting.space import Range
    >>> result = genetic_search({"x": Range(0.0, 1.0)}, lambda a, s: (a["x"], a["x"]),
    ...                         population=3, generations=2, progress=False)
    >>> search_history(result)[["generation", "id"]].values.tolist()
    [[1, 0], [1, 1], [1, 2], [2, 3], [2, 4], [2, 5]]
    """
    rows = []
    for rank, a in enumerate(result.archive, start=1):
        rows.append(
            {
                "generation": a.generation,
                "id": a.id,
                "f": a.f,
                "f_v": a.f_v,
                "score": a.score,
                "rank": rank,
                "parents": a.parents,
                "mutation_rate": a.mutation_rate,
                **a.agent,
            }
        )
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    frame = frame.sort_values("id", ignore_index=True)
    frame.insert(5, "best_fv_so_far", frame["f_v"].cummin())
    return frame
