"""Benchmark: one generation of chapter 08's search - where its time goes, and scoring on a subset.

Three measurements on the ``fast`` profile's data (3 systems x 3 starts per partition,
``threads=1``), in one process:

1. **Where the time goes.** One generation of today's search (``genetic_search`` over the
   fast space, ``population`` candidates, ``epochs`` DARTS epochs each, every window of both
   genetic partitions scored) under ``cProfile``: the cumulative seconds of building the
   networks (``PTN.__init__``), training (``train_darts``; inside it the minibatch gathering
   ``_Batches.next`` and the optimiser steps ``_step``), scoring (``evaluate_crps``; inside
   it the CRPS itself) and, outside the search, making the data (simulation, NVAR, windows).
2. **Speed-up at the same budget.** The same generation, untimed by the profiler, with
   today's scoring (``score_windows=None``: every window) and with candidates scored on a
   fixed random subset of ``--score-windows`` windows of each genetic partition; the same
   agents and the same training, so the ratio is what the subset saves. Asserted: the
   profiled and the plain run of today's search give identical ``f, f_v`` (the profiler
   changes nothing), and the subset run's candidates are the same agents.
3. **What the subset costs in ranking.** ``--candidates`` agents sampled from the fast
   space are trained as in the search; each scores every genetic-validation window; for
   every subset size and ``--subset-seeds`` subsets, the Spearman correlation between the
   candidates' mean CRPS on the subset and on all windows, and how often the subset picks
   the same best candidate.

4. **Could a generation train as one batched model?** ``torch.func.stack_module_state`` +
   ``vmap`` needs candidates whose parameters have the same shapes. ``--draws`` populations
   of ``population`` agents are drawn from the profile's space (the first generation of a
   search is such a draw; later ones mix their parents' genes) and each agent's network is
   built on the ``meta`` device (no memory): how many distinct parameter-shape signatures a
   population has, and the largest group of candidates that share one.

Run ``.venv/bin/python benchmarks/bench_ptn_search.py`` (a few minutes on 2 cores); writes
``benchmarks/results/bench_ptn_search.json``. ``--profile decisive`` measures at the decisive
profile's data and epochs (6 x 6 starts per partition, 30 DARTS epochs) and writes
``bench_ptn_search_decisive.json``; ``--candidates 0`` skips measurement 3.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from pathlib import Path

import numpy as np
from _harness import write_result

from fairbook.forecasting.darts import (
    evaluate_crps,
    make_evaluate,
    scoring_subset,
    subset_rank_correlation,
    train_darts,
)
from fairbook.forecasting.ptn import PTN
from fairbook.forecasting.search import genetic_search
from fairbook.forecasting.space import sample
from fairbook.papers.seed003 import LORENZ_PROTOCOL
from fairbook_book.chapters import parallel_time_networks as pc

#: (file suffix, function) -> the stage it stands for, in the profile.
STAGES = {
    ("ptn.py", "__init__"): "build networks (PTN.__init__)",
    ("darts.py", "train_darts"): "training (train_darts)",
    ("darts.py", "next"): "  of which minibatch gathering (_Batches.next)",
    ("darts.py", "_step"): "  of which forward + backward + AdamW (_step)",
    ("darts.py", "evaluate_crps"): "scoring (evaluate_crps)",
    ("crps.py", "crps"): "  of which the CRPS (crps.crps, scoring and training)",
    ("ptn.py", "as_tensors"): "tensors from windows (as_tensors)",
}


def _cumulative(stats: pstats.Stats) -> dict:
    out = dict.fromkeys(STAGES.values(), 0.0)
    for (filename, _, function), (_, _, _, cumulative, _) in stats.stats.items():
        for (suffix, name), stage in STAGES.items():
            if filename.endswith(suffix) and function == name:
                out[stage] += cumulative
    return out


def _generation(config, data, *, population, score_windows, seed=0):
    w = data["windows"]
    evaluate = make_evaluate(
        w["neural_train"],
        w["neural_val"],
        w["genetic_train"],
        w["genetic_val"],
        n_quantiles=config["n_quantiles"],
        epochs=config["epochs"],
        batch_size=LORENZ_PROTOCOL["batch_size"],
        score_windows=score_windows,
        score_seed=seed,
    )
    return genetic_search(
        pc.search_space(config),
        evaluate,
        population=population,
        generations=1,
        patience=None,
        elite_every=0,
        n_elite=0,
        seed=seed,
        progress=False,
    )


def _shape_groups(config, data, *, population, draws, seed=0) -> dict:
    """Measurement 4: parameter-shape signatures of random populations (``meta`` device)."""
    import torch

    w = data["windows"]
    rng = np.random.default_rng(seed)
    distinct, largest = [], []
    for _ in range(draws):
        signatures = []
        for _ in range(population):
            agent = sample(pc.search_space(config), rng)
            with torch.device("meta"):
                net = PTN.from_data(agent, w["neural_train"], n_quantiles=config["n_quantiles"])
            signatures.append(tuple((k, tuple(v.shape)) for k, v in net.state_dict().items()))
        counts = {s: signatures.count(s) for s in set(signatures)}
        distinct.append(len(counts))
        largest.append(max(counts.values()))
    return {
        "population": population,
        "draws": draws,
        "distinct_signatures_mean": float(np.mean(distinct)),
        "largest_shared_group_mean": float(np.mean(largest)),
        "largest_shared_group_max": int(np.max(largest)),
    }


def _fitness(result):
    return sorted((a.id, a.f, a.f_v) for a in result.archive)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", type=int, default=4)
    parser.add_argument("--score-windows", type=int, default=256)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--subset-sizes", type=int, nargs="+", default=[64, 128, 256, 512, 1024])
    parser.add_argument("--subset-seeds", type=int, default=50)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--profile", default="fast", choices=("fast", "decisive"))
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    suffix = "" if args.profile == "fast" else f"_{args.profile}"
    out = args.out or str(Path(__file__).parent / "results" / f"bench_ptn_search{suffix}.json")
    config = pc.settings(args.profile, threads=1)
    import torch

    torch.set_num_threads(1)

    start = time.perf_counter()
    data = pc.make_data(config, progress=False)
    data_seconds = time.perf_counter() - start
    sizes = {name: len(w) for name, w in data["windows"].items()}

    # 1. where the time goes
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    profiled = _generation(config, data, population=args.population, score_windows=None)
    profiler.disable()
    profiled_seconds = time.perf_counter() - start
    stages = _cumulative(pstats.Stats(profiler))

    # 2. today's scoring vs a fixed subset, same generation
    start = time.perf_counter()
    today = _generation(config, data, population=args.population, score_windows=None)
    today_seconds = time.perf_counter() - start
    start = time.perf_counter()
    subset = _generation(config, data, population=args.population, score_windows=args.score_windows)
    subset_seconds = time.perf_counter() - start
    assert _fitness(profiled) == _fitness(today), "the profiler changed the search"
    assert [a.agent for a in sorted(today.archive, key=lambda a: a.id)] == [
        a.agent for a in sorted(subset.archive, key=lambda a: a.id)
    ], "the subset run trained other agents"

    # 3. the subset's error on the ranking
    w = data["windows"]
    rng = np.random.default_rng(1)
    scores = []
    start = time.perf_counter()
    for k in range(args.candidates):
        agent = sample(pc.search_space(config), rng)
        model = PTN.from_data(agent, w["neural_train"], n_quantiles=config["n_quantiles"], seed=k)
        train_darts(
            model,
            w["neural_train"],
            w["neural_val"],
            epochs=config["epochs"],
            seed=k,
            progress=False,
        )
        scores.append(evaluate_crps(model, w["genetic_val"]))
    ranking_seconds = time.perf_counter() - start
    scores = np.asarray(scores)
    agreement = {}
    for size in args.subset_sizes if args.candidates > 1 else ():
        full_best = int(np.argmin(scores.mean(axis=1)))
        rhos, same = [], []
        for s in range(args.subset_seeds):
            rhos.append(subset_rank_correlation(scores, size, seed=s))
            part = scores[:, scoring_subset(scores.shape[1], size, seed=s)].mean(axis=1)
            same.append(int(np.argmin(part)) == full_best)
        agreement[str(size)] = {
            "spearman_mean": float(np.nanmean(rhos)),
            "spearman_min": float(np.nanmin(rhos)),
            "same_best_share": float(np.mean(same)),
        }

    profile_total = profiled_seconds
    result = {
        "config": {
            k: config[k]
            for k in ("n_systems", "n_initial", "stride", "epochs", "hidden_sizes", "threads")
        },
        "profile_name": args.profile,
        "population": args.population,
        "windows": sizes,
        "data_seconds": data_seconds,
        "profile": {
            "generation_seconds_profiled": profiled_seconds,
            "cumulative_seconds": stages,
            "share_of_generation": {k: v / profile_total for k, v in stages.items()},
        },
        "speedup": {
            "score_windows": args.score_windows,
            "today_seconds": today_seconds,
            "subset_seconds": subset_seconds,
            "today_over_subset": today_seconds / subset_seconds,
            "f_v_today": [a[2] for a in _fitness(today)],
            "f_v_subset": [a[2] for a in _fitness(subset)],
        },
        "ranking": {
            "candidates": args.candidates,
            "scored_windows": int(scores.shape[1]) if scores.ndim == 2 else 0,
            "subset_seeds": args.subset_seeds,
            "seconds": ranking_seconds,
            "spread_of_mean_crps": float(np.ptp(scores.mean(axis=1))) if len(scores) else None,
            "by_subset_size": agreement,
        },
        "shape_groups": _shape_groups(
            config, data, population=pc.settings(args.profile)["population"], draws=args.draws
        ),
        "identical_fitness_profiled_vs_plain": True,
    }
    write_result(out, result)
    print(json.dumps({k: result[k] for k in ("data_seconds", "profile", "speedup")}, indent=2))
    print(json.dumps({k: result[k] for k in ("ranking", "shape_groups")}, indent=2))
    return result


if __name__ == "__main__":
    main()
