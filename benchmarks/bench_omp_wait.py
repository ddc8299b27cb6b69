"""Benchmark: OpenMP's wait policy when two torch processes share the cores.

``make book`` and ``make test`` run chapters (and test workers) side by side, each a process
whose torch work may use several threads. OpenMP's default lets a waiting thread spin, which
on a shared machine steals the cores the other process's threads need. The candidate,
``OMP_WAIT_POLICY=PASSIVE`` (what the Makefile and ``fairbook-book build`` set), lets it sleep.
Baseline: ``OMP_WAIT_POLICY=ACTIVE``, in the same run.

Measured for each policy, with a competing process (a 2-thread torch matrix loop, same
policy) running beside it: a BNN fit of chapter 10's FIT runs on 2 threads and on 1 thread
(seed 000's Adult network on chapter 04's standardised Adult training rows), best of
``--repeats``; and, without the competitor, whether the two policies give the same
probabilities bit for bit.

Run ``python benchmarks/bench_omp_wait.py [--repeats 3]``; writes
``benchmarks/results/bench_omp_wait.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _harness import write_result

_COMPETITOR = """
import time, torch
torch.set_num_threads(2)
a = torch.randn(600, 600)
while True:
    for _ in range(50):
        a = torch.tanh(a @ a * 1e-3)
"""

_FIT = """
import hashlib, json, sys, time
import numpy as np
from fairbook_book.chapters import uncertainty_fairness as uf
threads, repeats = int(sys.argv[1]), int(sys.argv[2])
best = float("inf")
for _ in range(repeats):
    start = time.perf_counter()
    run = uf.tabular_run("adult", seed=0, config=uf.settings("fast"), n_threads=threads)
    best = min(best, time.perf_counter() - start)
digest = hashlib.sha256(np.ascontiguousarray(run.probs).tobytes()).hexdigest()
print(json.dumps({"seconds": best, "sha256": digest}))
"""


def _fit(policy: str, threads: int, repeats: int, *, competing: bool) -> dict:
    env = {**os.environ, "OMP_WAIT_POLICY": policy}
    competitor = (
        subprocess.Popen([sys.executable, "-c", _COMPETITOR], env=env) if competing else None
    )
    try:
        if competitor is not None:
            time.sleep(2)  # let it start spinning
        out = subprocess.run(
            [sys.executable, "-c", _FIT, str(threads), str(repeats)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        if competitor is not None:
            competitor.kill()
            competitor.wait()
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for threads in (2, 1):
        timed = {
            policy: _fit(policy, threads, args.repeats, competing=True)
            for policy in ("ACTIVE", "PASSIVE")
        }
        rows.append(
            {
                "threads": threads,
                "baseline ACTIVE s": timed["ACTIVE"]["seconds"],
                "candidate PASSIVE s": timed["PASSIVE"]["seconds"],
                "speed-up": timed["ACTIVE"]["seconds"] / timed["PASSIVE"]["seconds"],
            }
        )
        print(rows[-1], flush=True)
    alone = {policy: _fit(policy, 2, 1, competing=False) for policy in ("ACTIVE", "PASSIVE")}
    same = alone["ACTIVE"]["sha256"] == alone["PASSIVE"]["sha256"]
    print(f"same probabilities bit for bit under both policies: {same}")
    write_result(
        Path(__file__).parent / "results" / "bench_omp_wait.json",
        {
            "task": "BNN fit on Adult (chapter 04's setting) beside a busy 2-thread torch "
            "process, per OpenMP wait policy",
            "baseline": "OMP_WAIT_POLICY=ACTIVE",
            "candidate": "OMP_WAIT_POLICY=PASSIVE",
            "rows": rows,
            "bit_identical": same,
        },
    )


if __name__ == "__main__":
    main()
