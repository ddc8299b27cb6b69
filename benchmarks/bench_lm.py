"""Benchmark: scoring WinoBias minimal pairs with SmolLM2-135M, batched vs one at a time.

Baseline (named): ``score_options_unbatched`` with the stock model — one forward pass per
(sentence, option), no padding, no cache, PyTorch's default linear layers: the loop a
first implementation writes (the issue measured it at 396 pairs in 85 s). Measured: the
chapter's path, ``score_options`` — prefixes batched and padded, the part of a pair
shared by its two sentences run once and its key/value cache continued for each sentence
and option, logits only where needed — on the model as ``load_model`` returns it, with
its linear layers run through oneDNN (``use_onednn_linear``). The two other cells
(batched + stock layers, unbatched + oneDNN) show what each change brings. All four give
the same scores (checked: |Δ log p| < 1e-3, identical predictions). One process, one
model, the same pairs; methods take turns.

Pairs per second = minimal pairs (2 sentences × 2 options each) per wall second, in the
chapter's intrinsic format; the multiple-choice format (prompts about twice as long) is
timed batched. Goal: ≥ 15 pairs/s on 2 cores.

Run from the repository root with the project venv (needs the ``lm`` extra and the
``smollm2`` and WinoBias data in the cache: ``fairbook data fetch``)::

    .venv/bin/python benchmarks/bench_lm.py                    # 60 pairs, 1 and 2 threads
    .venv/bin/python benchmarks/bench_lm.py --pairs 20 --threads 1 --out /tmp/x.json

Writes ``benchmarks/results/bench_lm.json`` with the command, date, machine, library
versions and the load average before and after (the machine is shared: timings carry
other jobs' load; ratios within one run are the fair comparison).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from _harness import machine, write_result

GOAL_PAIRS_PER_S = 15.0


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=60, help="minimal pairs (half per type)")
    parser.add_argument(
        "--threads", type=int, nargs="+", default=[1, 2], help="torch thread counts to time"
    )
    parser.add_argument("--repeats", type=int, default=3, help="batched runs (best is kept)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "bench_lm.json"))
    args = parser.parse_args(argv)

    import torch

    from fairbook.data import load_winobias
    from fairbook.lm import (
        load_model,
        score_options,
        score_options_unbatched,
        use_onednn_linear,
    )
    from fairbook_book.chapters import ucerf as uc

    info = machine()
    started = time.perf_counter()
    lm = load_model(threads=args.threads[0], seed=args.seed, onednn=False)
    load_seconds = time.perf_counter() - started
    sample = uc.sample_pairs(load_winobias(), args.pairs, seed=args.seed)
    n_pairs = sample["pair_id"].nunique()
    groups = list(sample["pair_id"])
    prompts = {fmt: uc.build_prompts(sample, fmt) for fmt in ("intrinsic", "mcq")}
    prefixes, options = prompts["intrinsic"]
    tokens = [len(lm.start_ids) + len(lm.encode(p)) for p in prefixes]

    def unbatched():
        t0 = time.perf_counter()
        scores = score_options_unbatched(lm, prefixes, options, progress=False)
        return time.perf_counter() - t0, scores

    def batched(fmt):
        t0 = time.perf_counter()
        scores = score_options(
            lm, *prompts[fmt], groups=groups, batch_size=args.batch_size, progress=False
        )
        return time.perf_counter() - t0, scores

    def check(scores, reference):
        gap = float(np.abs(scores.logprob - reference.logprob).max())
        if gap > 1e-3 or (scores.prediction != reference.prediction).any():
            raise AssertionError(f"scores differ from the baseline's (max |d log p| {gap})")
        return gap

    timings = {threads: {} for threads in args.threads}
    gaps = []
    for layers in ("stock", "onednn"):
        if layers == "onednn":
            replaced = use_onednn_linear(lm.model)
            if not replaced:
                print("oneDNN unavailable: the 'onednn' rows repeat the stock layers")
        for threads in args.threads:
            torch.set_num_threads(threads)
            seconds, scores = unbatched()
            if layers == "stock" and threads == args.threads[0]:
                reference = scores
            gaps.append(check(scores, reference))
            runs = {"intrinsic": [], "mcq": []}
            for _ in range(args.repeats):
                for fmt in runs:
                    took, got = batched(fmt)
                    runs[fmt].append(took)
                    if fmt == "intrinsic":
                        gaps.append(check(got, reference))
            timings[threads][layers] = {"unbatched": seconds, **runs}
            print(
                f"threads={threads}, {layers} layers: unbatched {n_pairs / seconds:.2f} "
                f"pairs/s, batched {n_pairs / min(runs['intrinsic']):.2f} pairs/s "
                f"(mcq {n_pairs / min(runs['mcq']):.2f})",
                flush=True,
            )

    results = []
    for threads, cells in timings.items():
        baseline = cells["stock"]["unbatched"]
        best = min(cells["onednn"]["intrinsic"])
        row = {
            "threads": threads,
            "pairs": n_pairs,
            "baseline_unbatched_stock_pairs_per_s": n_pairs / baseline,
            "unbatched_onednn_pairs_per_s": n_pairs / cells["onednn"]["unbatched"],
            "batched_stock_pairs_per_s": n_pairs / min(cells["stock"]["intrinsic"]),
            "batched_onednn_pairs_per_s": n_pairs / best,
            "batched_onednn_pairs_per_s_median": n_pairs
            / statistics.median(cells["onednn"]["intrinsic"]),
            "speedup_vs_baseline": baseline / best,
            "mcq_batched_onednn_pairs_per_s": n_pairs / min(cells["onednn"]["mcq"]),
            "seconds": cells,
            "goal_pairs_per_s": GOAL_PAIRS_PER_S,
            "meets_goal": bool(n_pairs / best >= GOAL_PAIRS_PER_S),
        }
        results.append(row)
        print(
            f"threads={threads}: baseline {row['baseline_unbatched_stock_pairs_per_s']:.2f} "
            f"pairs/s -> chapter path {row['batched_onednn_pairs_per_s']:.2f} pairs/s "
            f"(median {row['batched_onednn_pairs_per_s_median']:.2f}), "
            f"{row['speedup_vs_baseline']:.1f}x; goal {GOAL_PAIRS_PER_S:g}: "
            f"{'met' if row['meets_goal'] else 'missed'}"
        )
    info["loadavg_after"] = list(os.getloadavg())
    result = {
        "command": "python " + " ".join([sys.argv[0], *(argv or sys.argv[1:])]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": info,
        "model": lm.name,
        "model_load_seconds": load_seconds,
        "format": "intrinsic (cloze); mcq timed batched only",
        "max_abs_logprob_difference": max(gaps),
        "tokens_per_sentence_mean": float(np.mean(tokens)),
        "note": (
            "pairs/s = minimal pairs (2 sentences x 2 options) per wall second; "
            "baseline = score_options_unbatched on the stock model (one forward per "
            "sentence and option); chapter path = score_options (batched, shared pair "
            "prefix cached) with oneDNN linear layers; batched: best of repeats; the "
            "machine is shared, see loadavg"
        ),
        "results": results,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, result)
    print(f"wrote {args.out}")
    return result


if __name__ == "__main__":
    main()
