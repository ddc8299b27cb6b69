"""Benchmark: chapter 08's independent PTN runs, one after another vs two processes at once.

Baseline: ``parallel_time_networks.run_study`` with ``n_jobs=1`` (the runs in turn, here).
Against it: the same call with ``n_jobs=2`` (joblib's loky processes, worker start-up and
the transfer of the windows to the workers included, as a reader pays them). Both at
``threads=1`` per run, on the same simulated data, in one process run, each timed once
(a call is minutes; the order alternates with ``--repeats`` > 1 and the best is kept).

Before reporting, it asserts that both calls gave the same CRPS for every test window of
every run, bit for bit: parallel runs must not change the chapter's numbers.

Run ``.venv/bin/python benchmarks/bench_ptn_runs.py [--runs 2] [--final-cycles 1]
[--repeats 1]``; writes ``benchmarks/results/bench_ptn_runs.json`` with the command,
date and machine. On a 2-core machine the ideal ratio is 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

import pandas as pd
from _harness import machine, write_result

from fairbook_book.chapters import parallel_time_networks as pc


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--final-cycles", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "bench_ptn_runs.json")
    )
    args = parser.parse_args(argv)
    config = pc.settings("fast", runs=args.runs, final_cycles=args.final_cycles, threads=1)
    data = pc.make_data(config, progress=False)
    best, results = {}, {}
    for repeat in range(args.repeats):
        order = (1, 2) if repeat % 2 == 0 else (2, 1)
        for n_jobs in order:
            start = time.perf_counter()
            runs = pc.run_study(data, {**config, "n_jobs": n_jobs}, progress=False)
            seconds = time.perf_counter() - start
            name = f"n_jobs={n_jobs}"
            best[name] = min(best.get(name, float("inf")), seconds)
            results[name] = runs
    for a, b in zip(results["n_jobs=1"], results["n_jobs=2"], strict=True):
        pd.testing.assert_frame_equal(a.crps, b.crps, check_exact=True)
    result = {
        "command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])]),
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "machine": machine(),
        "config": {
            k: config[k]
            for k in (
                "runs",
                "population",
                "generations",
                "epochs",
                "final_epochs",
                "final_cycles",
                "n_systems",
                "n_initial",
                "threads",
            )
        },
        "seconds_best": best,
        "speedup_n_jobs_2_vs_1": best["n_jobs=1"] / best["n_jobs=2"],
        "identical_crps": True,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, result)
    print(json.dumps({k: result[k] for k in ("seconds_best", "speedup_n_jobs_2_vs_1")}, indent=2))
    return result


if __name__ == "__main__":
    main()
