"""Benchmark: exact MATCH CDFs, sums of O(√n) conditional terms vs the paper's O(n²) double sums.

Run ``python benchmarks/bench_match.py`` (add ``--quick`` to skip n = 10⁴ for the naive
sums). Prints a table and writes ``benchmarks/results/bench_match.json`` with the command,
date and machine.

Baselines (named, vectorised with NumPy/SciPy in blocks, so the comparison is about the
algorithm, not about Python loops):

* B: Eq. 4.27 — for every k <= k_obs, sum the multinomial pmf over all n_{-1} (O(n²) terms);
* JRM (TPR): Eq. 4.37 — for every m, sum the Binomial(m, θ) pmf up to ⌊s m⌋ (O(n²) terms).

The fast versions are :func:`fairbook.stats.match.cdf` (conditioning on m = FP + FN or
m = c_i + c_j, one binomial CDF per m, m restricted to the bulk of its law).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import numpy as np
from _harness import machine, write_result
from scipy import special, stats

from fairbook.stats import match

P_REF = np.array(match.FIG_4_3_P_REF)  # [TP, FN, FP, TN] = [.3, .1, .2, .4]
BLOCK = 2_000_000


def observed(n: int) -> np.ndarray:
    """A group near the reference's mean (the slow, central part of the CDF)."""
    cm = np.floor(P_REF * n).astype(np.int64)
    cm[3] += n - cm.sum()
    return cm


def naive_b(cm: np.ndarray, p: np.ndarray) -> float:
    """Eq. 4.27: Σ_{k <= k_obs} Σ_{n_-1} multinomial(k + n_-1, n_-1, n − k − 2 n_-1)."""
    n = int(cm.sum())
    k_obs = int(cm[2] - cm[1])
    p_plus, p_minus, p0 = p[2], p[1], p[0] + p[3]
    ks = np.arange(-n, k_obs + 1)
    lo = np.maximum(0, -ks)
    hi = (n - ks) // 2
    sizes = np.maximum(hi - lo + 1, 0)
    total = 0.0
    log_n = special.gammaln(n + 1)
    ends = np.cumsum(sizes)
    start = 0
    while start < ks.size:
        base = ends[start - 1] if start else 0
        stop = max(int(np.searchsorted(ends, base + BLOCK, side="right")), start + 1)
        k = np.repeat(ks[start:stop], sizes[start:stop])
        offsets = np.repeat(np.cumsum(sizes[start:stop]) - sizes[start:stop], sizes[start:stop])
        fn = np.repeat(lo[start:stop], sizes[start:stop]) + np.arange(k.size) - offsets
        fp, rest = k + fn, n - k - 2 * fn
        log_pmf = (
            log_n
            - special.gammaln(fp + 1)
            - special.gammaln(fn + 1)
            - special.gammaln(rest + 1)
            + special.xlogy(fp, p_plus)
            + special.xlogy(fn, p_minus)
            + special.xlogy(rest, p0)
        )
        total += np.exp(log_pmf).sum()
        start = stop
    return float(total)


def naive_jrm(cm: np.ndarray, p: np.ndarray, cells=(0, 1)) -> float:
    """Eq. 4.37 (conditioned on m >= 1): Σ_m P(m) Σ_{k_i <= ⌊s m⌋} P(k_i | m)."""
    i, j = cells
    n = int(cm.sum())
    s = cm[i] / (cm[i] + cm[j])
    p_sum = p[i] + p[j]
    theta = p[i] / p_sum
    m_all = np.arange(1, n + 1)
    k_max = np.floor(s * m_all + 1e-9).astype(np.int64)
    sizes = k_max + 1
    weights = stats.binom.pmf(m_all, n, p_sum)
    ends = np.cumsum(sizes)
    total, start = 0.0, 0
    while start < m_all.size:
        base = ends[start - 1] if start else 0
        stop = max(int(np.searchsorted(ends, base + BLOCK, side="right")), start + 1)
        m = np.repeat(m_all[start:stop], sizes[start:stop])
        offsets = np.repeat(np.cumsum(sizes[start:stop]) - sizes[start:stop], sizes[start:stop])
        k = np.arange(m.size) - offsets
        w = np.repeat(weights[start:stop], sizes[start:stop])
        total += float((w * stats.binom.pmf(k, m, theta)).sum())
        start = stop
    return total / (1 - (1 - p_sum) ** n)


def timed(function, *, repeat: int) -> tuple[float, float]:
    """(median seconds, value) over ``repeat`` runs."""
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), value


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="naive sums at n = 10³ only")
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "bench_match.json")
    )
    args = parser.parse_args(argv)

    rows = []
    sizes = (1_000,) if args.quick else (1_000, 10_000)
    for n in sizes:
        cm = observed(n)
        for metric, naive in (
            ("B", lambda c=cm: naive_b(c, P_REF)),
            ("TPR", lambda c=cm: naive_jrm(c, P_REF)),
        ):
            fast_t, fast_v = timed(lambda c=cm, m=metric: match.cdf(m, c, P_REF), repeat=21)
            naive_t, naive_v = timed(naive, repeat=3 if n <= 1_000 else 1)
            rows.append(
                {
                    "metric": metric,
                    "n": n,
                    "fast_ms": 1e3 * fast_t,
                    "naive_ms": 1e3 * naive_t,
                    "speedup": naive_t / fast_t,
                    "abs_diff": abs(fast_v - naive_v),
                }
            )
    absolute = []
    n = 100_000
    cm = observed(n)
    for metric in ("ACC", "B", "TPR", "PPV", "FOR"):
        t, value = timed(lambda m=metric: match.cdf(m, cm, P_REF), repeat=21)
        t_test, _ = timed(lambda m=metric: match.test(m, cm, P_REF), repeat=21)
        absolute.append(
            {
                "metric": metric,
                "n": n,
                "cdf_ms": 1e3 * t,
                "test_ms": 1e3 * t_test,
                "cdf": value,
                "goal_ms": 20.0,
                "meets_goal": bool(1e3 * t < 20.0),
            }
        )

    print(f"{'metric':>6} {'n':>7} {'fast ms':>9} {'naive ms':>10} {'speedup':>9} {'|diff|':>9}")
    for r in rows:
        print(
            f"{r['metric']:>6} {r['n']:>7} {r['fast_ms']:>9.3f} {r['naive_ms']:>10.1f} "
            f"{r['speedup']:>9.0f} {r['abs_diff']:>9.1e}"
        )
    print(f"\nabsolute time at n = {n:,} (median of 21; goal < 20 ms per CDF)")
    print(f"{'metric':>6} {'cdf ms':>8} {'test ms':>8} {'P(S<=s)':>9}")
    for r in absolute:
        print(f"{r['metric']:>6} {r['cdf_ms']:>8.2f} {r['test_ms']:>8.2f} {r['cdf']:>9.4f}")

    result = {
        "command": "python " + " ".join([sys.argv[0], *(argv or sys.argv[1:])]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "p_ref": P_REF.tolist(),
        "note": "observed group at the reference mean; fast = fairbook.stats.match.cdf",
        "naive_vs_fast": rows,
        "absolute": absolute,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, result)
    print(f"\nwrote {args.out}")
    return result


if __name__ == "__main__":
    main()
