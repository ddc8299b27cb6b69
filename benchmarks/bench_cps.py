"""Benchmark: the CPS protocol (seed 003 Sec. 4.6.2) at the paper's scale.

The paper's scale for one group and one smoothing setting is 10⁶ draws × 145 sizes
(n = 5 … 149) × 15 metrics; the goal is under 2 minutes on 2 cores. By default this script
runs a *fraction* — every ``--step``-th size at the full 10⁶ draws — and extrapolates to
145 sizes by the mean time per size (the cost per size grows slowly with n, so the sampled
sizes span the whole range); ``--full`` runs all 145 sizes. It also times the paper's six
settings (ε = 0, 1e-10, 1; λ = 5, 10, 20) on the same sampled sizes.

Sizes can run in worker processes (``n_jobs``; numbers do not change). Run
``python benchmarks/bench_cps.py [--full] [--step 12] [--draws 1000000] [--n-jobs 1 2]``;
writes
``benchmarks/results/bench_cps.json`` with the command, date and machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

from _harness import machine, write_result

from fairbook.stats import cps

P_GROUP = (0.3, 0.1, 0.2, 0.4)  # [TP, FN, FP, TN], seed 003 Fig. 4.3's law
P_REF = (0.35, 0.1, 0.15, 0.4)
ALL_SIZES = list(range(5, 150))  # 145 sizes


def run(sizes, *, draws: int, lams, eps, n_jobs: int) -> float:
    """Wall-clock seconds of one protocol call over ``sizes``."""
    start = time.perf_counter()
    cps.smoothing_mse(
        P_GROUP,
        P_REF,
        sizes,
        cps.PAPER_METRICS,
        n_draws=draws,
        lams=lams,
        eps=eps,
        seed=0,
        progress=False,
        n_jobs=n_jobs,
    )
    return time.perf_counter() - start


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="all 145 sizes (slow)")
    parser.add_argument("--step", type=int, default=12, help="sample every step-th size")
    parser.add_argument("--draws", type=int, default=1_000_000)
    parser.add_argument(
        "--n-jobs",
        type=int,
        nargs="+",
        default=[1, 2],
        help="process counts to time (default: 1 and 2)",
    )
    parser.add_argument("--skip-six", action="store_true", help="skip the six-setting run")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "bench_cps.json"))
    args = parser.parse_args(argv)
    sizes = ALL_SIZES if args.full else ALL_SIZES[:: args.step]
    configs = [("one setting (CPS λ=5)", (5,), ())]
    if not args.skip_six:
        configs.append(("paper's six settings", (5, 10, 20), (0, 1e-10, 1)))
    results = []
    for label, lams, eps in configs:
        for n_jobs in args.n_jobs:
            total = run(sizes, draws=args.draws, lams=lams, eps=eps, n_jobs=n_jobs)
            estimate = total / len(sizes) * len(ALL_SIZES) * 1e6 / args.draws
            extrapolated = not (args.full and args.draws == 1_000_000)
            results.append(
                {
                    "config": label,
                    "lams": list(lams),
                    "eps": list(eps),
                    "n_jobs": n_jobs,
                    "draws": args.draws,
                    "sizes_run": sizes,
                    "n_metrics": 15,
                    "seconds_run": total,
                    "extrapolated": extrapolated,
                    "seconds_full_scale": estimate,
                    "goal_seconds": 120.0,
                    "meets_goal": bool(estimate < 120.0),
                }
            )
            kind = "extrapolated" if extrapolated else "measured"
            print(
                f"{label}, n_jobs={n_jobs}: {len(sizes)} sizes × {args.draws:,} draws × "
                f"15 metrics in {total:.1f} s -> full scale (145 sizes × 10⁶ draws), "
                f"{kind}: {estimate:.0f} s (goal 120 s: "
                f"{'met' if estimate < 120 else 'missed'})"
            )
    result = {
        "command": "python " + " ".join([sys.argv[0], *(argv or sys.argv[1:])]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "p_group": P_GROUP,
        "p_ref": P_REF,
        "note": (
            "extrapolation = wall seconds / sampled sizes × 145 (× 10⁶/draws); "
            "n_jobs = worker processes over sizes (joblib); the machine is "
            "shared, so timings carry load from other work"
        ),
        "results": results,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, result)
    print(f"wrote {args.out}")
    return result


if __name__ == "__main__":
    main()
