"""Benchmark: the CRPS pair term from sorted quantiles vs the O(C²) pairwise sum of Eq. 5.6.

Run ``python benchmarks/bench_crps.py`` (about a minute on 2 cores; ``--quick`` for a
smoke run). Prints a table and writes ``benchmarks/results/bench_crps.json`` with the
command, date and machine.

Baseline (named, vectorised, so the comparison is about the algorithm): ``pairwise`` —
Eq. 5.6 as printed, ``|q[..., :, None] − q[..., None, :]|`` summed over both quantile axes,
in NumPy for scoring and in torch (forward + backward) for training; blocks of 256
forecasts keep its ``N·T·C²`` temporaries in memory. The fast version is
:func:`fairbook.forecasting.crps.crps` (``2 Σ_j (2j − C − 1) q_(j)`` after one sort).
Both give the same numbers (asserted before timing, rtol 1e-10 in float64).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import numpy as np
import torch
from _harness import machine, write_result

from fairbook.forecasting.crps import crps, ordered_crps, ordering_penalty

BLOCK = 256


def pairwise_crps(quantiles, y):
    """Eqs. 5.5–5.7 with the double sum of Eq. 5.6 as a broadcast, numpy or torch."""
    c = quantiles.shape[-1]
    t1 = abs(quantiles - y[..., None]).mean(-1)
    t2 = abs(quantiles[..., :, None] - quantiles[..., None, :]).sum((-2, -1)) / c**2
    return (t1 - 0.5 * t2).mean(-1)


def pairwise_blocks(quantiles, y):
    return np.concatenate(
        [
            pairwise_crps(quantiles[i : i + BLOCK], y[i : i + BLOCK])
            for i in range(0, len(quantiles), BLOCK)
        ]
    )


def pairwise_loss(quantiles, y, omega=0.0075):
    return (pairwise_crps(quantiles, y) + omega * ordering_penalty(quantiles)).mean()


def timed(fn, repeat):
    best, value = np.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def backward(loss_fn, q, y):
    def run():
        q.grad = None
        loss = loss_fn(q, y)
        loss.backward()
        return float(loss.detach())

    return run


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "bench_crps.json"))
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    repeat = 1 if args.quick else 5
    rows = []
    scoring_sizes = (1_000,) if args.quick else (1_000, 10_000)
    for n in scoring_sizes:
        for c in (11, 111):
            q, y = rng.normal(size=(n, 16, c)), rng.normal(size=(n, 16))
            np.testing.assert_allclose(crps(q, y), pairwise_blocks(q, y), rtol=1e-10)
            fast, _ = timed(lambda q=q, y=y: crps(q, y), repeat)
            slow, _ = timed(lambda q=q, y=y: pairwise_blocks(q, y), repeat)
            rows.append(
                {
                    "task": "score (numpy)",
                    "forecasts": n,
                    "quantiles": c,
                    "fast_ms": 1e3 * fast,
                    "pairwise_ms": 1e3 * slow,
                    "speedup": slow / fast,
                }
            )
    for batch in (64, 256):
        q = torch.tensor(rng.normal(size=(batch, 16, 111)), dtype=torch.float32, requires_grad=True)
        y = torch.tensor(rng.normal(size=(batch, 16)), dtype=torch.float32)
        assert abs(float(ordered_crps(q, y).detach()) - float(pairwise_loss(q, y).detach())) < 1e-4
        fast, _ = timed(backward(ordered_crps, q, y), 5 * repeat)
        slow, _ = timed(backward(pairwise_loss, q, y), 5 * repeat)
        rows.append(
            {
                "task": "loss + backward (torch)",
                "forecasts": batch,
                "quantiles": 111,
                "fast_ms": 1e3 * fast,
                "pairwise_ms": 1e3 * slow,
                "speedup": slow / fast,
            }
        )

    print(f"{'task':>24} {'N':>6} {'C':>4} {'sorted ms':>10} {'pairwise ms':>12} {'ratio':>6}")
    for r in rows:
        print(
            f"{r['task']:>24} {r['forecasts']:>6} {r['quantiles']:>4} {r['fast_ms']:>10.2f} "
            f"{r['pairwise_ms']:>12.2f} {r['speedup']:>6.1f}"
        )
    result = {
        "command": "python " + " ".join([sys.argv[0], *(argv or sys.argv[1:])]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "timing": f"best of {repeat} (torch: {5 * repeat})",
        "rows": rows,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, result)
    print(f"\nwrote {args.out}")
    return result


if __name__ == "__main__":
    main()
