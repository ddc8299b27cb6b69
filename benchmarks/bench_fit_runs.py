"""Benchmark: FIT runs — deterministic-mode overhead and parallel dispatch.

Two ratios, each measured inside one process run (so they are fair on a shared machine):

1. **Deterministic mode** (seed 004 App. E.2 reports +17.8 % training time for S-Base on a
   GPU): one Digits-S baseline run with ``Knobs()`` against ``Knobs(deterministic=True)``,
   the two taking turns, best of ``--repeats``. Also ``sum_order="permuted"`` (the book's
   emulated scheduling), whose extra cost is one ``randperm`` per minibatch. On a GPU add
   ``--device cuda`` (cuDNN benchmark mode is then timed too).
2. **Dispatch**: ``fit_runs`` of ``--runs`` runs with ``backend="sequential"`` against
   ``backend="loky", n_jobs=2`` (worker start-up included, as a reader pays it once).

Run ``.venv/bin/python benchmarks/bench_fit_runs.py [--repeats 5] [--runs 4]
[--epochs 10] [--device cpu]``; writes ``benchmarks/results/bench_fit_runs.json`` with the
command, date and machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

from _harness import machine, write_result

from fairbook.variance import fit_runs
from fairbook.variance.determinism import Knobs
from fairbook.variance.tasks import RunSpec, load_task, train_and_predict


def time_knobs(variants: dict, *, epochs: int, repeats: int) -> dict:
    task = load_task("digits_s")
    for knobs in variants.values():  # warm-up: first calls initialise oneDNN / kernels
        train_and_predict(task, epochs=1, knobs=knobs)
    best = {name: float("inf") for name in variants}
    hashes = {}
    for _ in range(repeats):
        for name, knobs in variants.items():
            start = time.perf_counter()
            out = train_and_predict(task, epochs=epochs, knobs=knobs)
            best[name] = min(best[name], time.perf_counter() - start)
            hashes[name] = out["weights_hash"]
    return {"seconds": best, "weights_hash": hashes}


def time_dispatch(*, runs: int, epochs: int) -> dict:
    spec = RunSpec("digits_s", "base", epochs=epochs)
    out = {}
    for backend, n_jobs in (("sequential", 1), ("loky", 2)):
        start = time.perf_counter()
        fit_runs(spec, n_runs=runs, backend=backend, n_jobs=n_jobs)
        out[f"{backend} (n_jobs={n_jobs})"] = time.perf_counter() - start
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--device", default="cpu")
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "bench_fit_runs.json")
    )
    args = parser.parse_args(argv)
    variants = {
        "default": Knobs(device=args.device),
        "deterministic": Knobs(device=args.device, deterministic=True),
        "sum_order=permuted": Knobs(device=args.device, sum_order="permuted"),
    }
    if args.device.startswith("cuda"):  # pragma: no cover - needs a GPU
        variants["cudnn_benchmark"] = Knobs(device=args.device, cudnn_benchmark=True)
        variants["deterministic + cudnn_deterministic"] = Knobs(
            device=args.device, deterministic=True, cudnn_deterministic=True
        )
    knobs = time_knobs(variants, epochs=args.epochs, repeats=args.repeats)
    base = knobs["seconds"]["default"]
    overhead = {name: 100 * (s / base - 1) for name, s in knobs["seconds"].items()}
    dispatch = time_dispatch(runs=args.runs, epochs=args.epochs)
    result = {
        "command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])]),
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "machine": machine(),
        "train_seconds_best": knobs["seconds"],
        "overhead_percent_vs_default": overhead,
        "paper_overhead_percent": {"S-Base": 17.8, "ResNet101": 20.8, "DenseNet121": 14.1},
        "weights_hash": knobs["weights_hash"],
        "dispatch_seconds": dispatch,
        "speedup_loky_vs_sequential": dispatch["sequential (n_jobs=1)"]
        / dispatch["loky (n_jobs=2)"],
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, result)
    print(
        json.dumps(
            {k: result[k] for k in ("overhead_percent_vs_default", "speedup_loky_vs_sequential")},
            indent=2,
        )
    )
    return result


if __name__ == "__main__":
    main()
