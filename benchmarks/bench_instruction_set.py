"""Benchmark: what capping PyTorch's CPU kernels at AVX2 costs, and what it buys.

``fairbook.instruction_set.pin()`` (the book's first call) caps ATen's and oneDNN's kernels
(and MKL's) at AVX2 on x86-64, so that the book's recordings, made on an AVX2 machine,
reproduce bit for bit on a machine with AVX-512. Baseline (named): the cap, as the book runs.
Candidate: the processor's own kernels (``FAIRBOOK_NATIVE_ISA=1``), in the same run.

Two workloads, each in a fresh process per setting (PyTorch fixes its kernels at its first
operation), best of ``--repeats``:

- ``bnn``: chapter 04's Bayes-by-Backprop network fitted on Adult (one thread);
- ``lm``: chapter 05's SmolLM2-135M scoring ``--pairs`` WinoBias minimal pairs (one thread).

For each it writes the seconds, the ratio (native / capped: below 1 means the processor's own
kernels are faster), PyTorch's kernel level in each process, and whether the two settings give
the same numbers bit for bit (on an AVX2-only machine they must; on AVX-512 they need not).

Run ``python benchmarks/bench_instruction_set.py [--repeats 3] [--pairs 40]`` from the
repository root with the project venv (the ``lm`` workload needs ``fairbook data fetch``);
writes ``benchmarks/results/bench_instruction_set.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from _harness import write_result

_BNN = """
import hashlib, json, sys, time
import numpy as np
import torch
from fairbook.instruction_set import pin
pin()
from fairbook_book.chapters import uncertainty_fairness as uf
repeats = int(sys.argv[1])
best = float("inf")
for _ in range(repeats):
    start = time.perf_counter()
    run = uf.tabular_run("adult", seed=0, config=uf.settings("fast"), n_threads=1)
    best = min(best, time.perf_counter() - start)
digest = hashlib.sha256(np.ascontiguousarray(run.probs).tobytes()).hexdigest()
print(json.dumps({"seconds": best, "sha256": digest,
                  "capability": torch.backends.cpu.get_cpu_capability()}))
"""

_LM = """
import hashlib, json, sys, time
import numpy as np
import torch
from fairbook.instruction_set import pin
pin()
from fairbook.data import load_winobias
from fairbook_book.chapters import ucerf as uc
from fairbook.lm import load_model, score_options
repeats, pairs = int(sys.argv[1]), int(sys.argv[2])
lm = load_model(threads=1, seed=0)
sample = uc.sample_pairs(load_winobias(), pairs, seed=0)
prefixes, options = uc.build_prompts(sample, "intrinsic")
best = float("inf")
for _ in range(repeats):
    start = time.perf_counter()
    scores = score_options(lm, prefixes, options, groups=list(sample["pair_id"]),
                           progress=False)
    best = min(best, time.perf_counter() - start)
digest = hashlib.sha256(np.ascontiguousarray(scores.logprob, dtype=float).tobytes()).hexdigest()
print(json.dumps({"seconds": best, "sha256": digest,
                  "capability": torch.backends.cpu.get_cpu_capability()}))
"""


def _measure(script: str, *args: str, native: bool) -> dict:
    from fairbook.instruction_set import OPT_OUT, PINNED

    env = {k: v for k, v in os.environ.items() if k not in PINNED and k != OPT_OUT}
    if native:
        env[OPT_OUT] = "1"
    out = subprocess.run(
        [sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=40)
    args = parser.parse_args()
    from fairbook.instruction_set import describe

    workloads = {
        "bnn": (_BNN, str(args.repeats)),
        "lm": (_LM, str(args.repeats), str(args.pairs)),
    }
    rows = []
    for name, (script, *script_args) in workloads.items():
        capped = _measure(script, *script_args, native=False)
        native = _measure(script, *script_args, native=True)
        rows.append(
            {
                "workload": name,
                "baseline (AVX2 cap) s": capped["seconds"],
                "candidate (native) s": native["seconds"],
                "native / capped": native["seconds"] / capped["seconds"],
                "capped kernels": capped["capability"],
                "native kernels": native["capability"],
                "bit_identical": capped["sha256"] == native["sha256"],
            }
        )
        print(rows[-1], flush=True)
    write_result(
        Path(__file__).parent / "results" / "bench_instruction_set.json",
        {
            "task": "chapter 04's BNN fit on Adult and chapter 05's LM scoring, one thread, "
            "with PyTorch's CPU kernels capped at AVX2 and with the processor's own",
            "baseline": "the AVX2 cap (fairbook.instruction_set.pin)",
            "candidate": "FAIRBOOK_NATIVE_ISA=1",
            "processor": describe()["cpu"],
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
