"""Speed of fairbook's per-group rates against fairlearn's MetricFrame and a bare bincount.

What is timed, on the same seeded data (8 integer groups, binary int labels):

* ``fairbook``    -- ``confusion_counts(y_true, y_pred, groups)`` then ``compute`` of
  PPR (selection rate), TPR and FPR over the [n_groups, 4] batch;
* ``fairbook_rows`` -- the same, with the dense path counting one row per bincount key
  (``fairbook.confusion.DENSE_PAIR_GROUPS`` set to 0 for the call): what counting rows in
  pairs saves;
* ``fairbook_general`` -- the same, with the dense path turned off for the call, so that
  every input takes the general (``fairbook.labels``) path, the only path before it: what the
  dense path saves;
* ``bias_report`` -- ``fairbook.metrics.bias_report(y_true, y_pred, groups)``;
* ``metricframe`` -- fairlearn ``MetricFrame`` with selection_rate / true_positive_rate /
  false_positive_rate, reading ``.by_group``;
* ``bincount``    -- the floor: ``np.bincount(4 * groups + cell, minlength=32)`` on
  precomputed int arrays (``cell`` in [TP, FN, FP, TN] order is built outside the timer).

The numbers are checked to agree before anything is timed. Timing is ``time.perf_counter``,
best of k repeats, the methods taking turns inside each repeat so that load from other jobs
hits all of them alike. The MetricFrame call that is checked is also its first timed repeat
(at 10^7 rows it is the only one).

Run from the repository root::

    .venv/bin/python benchmarks/bench_metrics.py              # 10^6 and 10^7 rows, ~4 min
    .venv/bin/python benchmarks/bench_metrics.py --sizes 1e5  # quick smoke run
    .venv/bin/python benchmarks/bench_metrics.py --profile    # line profile (line_profiler)

Results go to ``benchmarks/results/bench_metrics.json`` (``--out`` to change).
"""

from __future__ import annotations

import argparse
import datetime as dt
import linecache
import os
import platform
import shlex
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import fairlearn
import numpy as np
import pandas as pd
from _harness import write_result
from fairlearn.metrics import (
    MetricFrame,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)

from fairbook import confusion
from fairbook.confusion import confusion_counts
from fairbook.metrics import bias_report, compute

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_metrics.json"
N_GROUPS = 8
SEED = 20240601
RATES = ("PPR", "TPR", "FPR")  # fairbook names of selection rate, TPR, FPR
MF_METRICS = {
    "selection_rate": selection_rate,
    "tpr": true_positive_rate,
    "fpr": false_positive_rate,
}
GOAL_MF_OVER_FAIRBOOK = 30.0  # MetricFrame / fairbook >= this
GOAL_COUNTING_OVER_FLOOR = 1.5  # fairbook / bincount <= this: the counting core (issue #50)
GOAL_REPORT_OVER_FLOOR = 3.0  # bias_report / bincount <= this
METHODS = (
    "bincount",
    "fairbook",
    "fairbook_rows",
    "fairbook_general",
    "bias_report",
    "metricframe",
)


# --------------------------------------------------------------------------- workloads
def make_data(n: int, seed: int = SEED):
    """Seeded int64 arrays: y_true, y_pred in {0, 1} and groups in 0..7."""
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, N_GROUPS, n, dtype=np.int64)
    y_true = rng.integers(0, 2, n, dtype=np.int64)
    y_pred = rng.integers(0, 2, n, dtype=np.int64)
    return y_true, y_pred, groups


def floor_cell(y_true, y_pred) -> np.ndarray:
    """Cell index TP=0, FN=1, FP=2, TN=3 (positive label 1); built outside the timer."""
    return (2 * (1 - y_true) + (1 - y_pred)).astype(np.intp)


def run_bincount(groups, cell):
    return np.bincount(4 * groups + cell, minlength=4 * N_GROUPS)


def run_fairbook(y_true, y_pred, groups):
    cm = confusion_counts(y_true, y_pred, groups)
    return np.column_stack([compute(name, cm) for name in RATES])


@contextmanager
def _confusion_set(**values):
    """``fairbook.confusion``'s names set to ``values`` for the duration of a call."""
    saved = {name: getattr(confusion, name) for name in values}
    for name, value in values.items():
        setattr(confusion, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(confusion, name, value)


def run_fairbook_rows(y_true, y_pred, groups):
    with _confusion_set(DENSE_PAIR_GROUPS=0):
        return run_fairbook(y_true, y_pred, groups)


def run_fairbook_general(y_true, y_pred, groups):
    with _confusion_set(_dense_counts=lambda *args, **kwargs: None):
        return run_fairbook(y_true, y_pred, groups)


def run_bias_report(y_true, y_pred, groups):
    return bias_report(y_true, y_pred, groups)


def run_metricframe(y_true, y_pred, groups):
    frame = MetricFrame(metrics=MF_METRICS, y_true=y_true, y_pred=y_pred, sensitive_features=groups)
    return frame.by_group[list(MF_METRICS)]


# --------------------------------------------------------------------------- checks
def check_agreement(y_true, y_pred, groups, cell, by_group: pd.DataFrame) -> dict:
    """Assert fairbook, the bincount floor and MetricFrame agree; return what was checked."""
    floor = run_bincount(groups, cell).reshape(N_GROUPS, 4)
    cm = confusion_counts(y_true, y_pred, groups)
    np.testing.assert_array_equal(cm, floor, err_msg="confusion_counts != bare bincount")

    ours = run_fairbook(y_true, y_pred, groups)
    for variant in (run_fairbook_rows, run_fairbook_general):
        np.testing.assert_array_equal(
            variant(y_true, y_pred, groups), ours, err_msg=f"{variant.__name__} != fairbook"
        )
    np.testing.assert_array_equal(by_group.index.to_numpy(), np.arange(N_GROUPS))
    theirs = by_group.to_numpy(dtype=np.float64)
    np.testing.assert_allclose(
        ours, theirs, rtol=1e-12, atol=0, err_msg="fairbook PPR/TPR/FPR != MetricFrame.by_group"
    )

    # bias_report's positive-class row: its pairwise gaps must match MetricFrame's rates
    report = run_bias_report(y_true, y_pred, groups)
    a, b = report.attrs["groups"]
    gap = (by_group.loc[a] - by_group.loc[b]).abs()
    row = report.loc[1]
    np.testing.assert_allclose(
        [row["DP"], row["EOTP"], row["EOFP"]],
        [gap["selection_rate"], gap["tpr"], gap["fpr"]],
        rtol=1e-9,
        atol=1e-15,
        err_msg="bias_report DP/EOTP/EOFP != gaps of MetricFrame.by_group",
    )
    return {
        "confusion_counts_equals_bincount": True,
        "fairbook_rows_and_general_equal_fairbook": True,
        "fairbook_allclose_metricframe_rtol": 1e-12,
        "bias_report_pair": [int(a), int(b)],
        "bias_report_DP_EOTP_EOFP_allclose_metricframe_rtol": 1e-9,
    }


# --------------------------------------------------------------------------- timing
def repeats_for(n: int) -> tuple[int, int]:
    """(k for bincount/fairbook/bias_report, k for MetricFrame)."""
    if n >= 10**7:
        return 3, 1
    return 5, 5


def bench_size(n: int) -> dict:
    print(f"\n== n = {n:,} rows, {N_GROUPS} groups", flush=True)
    y_true, y_pred, groups = make_data(n)
    cell = floor_cell(y_true, y_pred)
    k, k_mf = repeats_for(n)

    # First MetricFrame call: it is the reference for the check and also timed (repeat 1).
    start = time.perf_counter()
    by_group = run_metricframe(y_true, y_pred, groups)
    mf_first = time.perf_counter() - start
    checks = check_agreement(y_true, y_pred, groups, cell, by_group)  # also warms up ours
    print(f"   numbers agree (MetricFrame first call {mf_first:.2f} s)", flush=True)

    calls = {
        "bincount": lambda: run_bincount(groups, cell),
        "fairbook": lambda: run_fairbook(y_true, y_pred, groups),
        "fairbook_rows": lambda: run_fairbook_rows(y_true, y_pred, groups),
        "fairbook_general": lambda: run_fairbook_general(y_true, y_pred, groups),
        "bias_report": lambda: run_bias_report(y_true, y_pred, groups),
        "metricframe": lambda: run_metricframe(y_true, y_pred, groups),
    }
    times: dict[str, list[float]] = {m: [] for m in METHODS}
    times["metricframe"].append(mf_first)
    for rep in range(k):  # round-robin: every method sees the same background load
        for method in METHODS:
            if method == "metricframe" and len(times[method]) >= k_mf:
                continue
            start = time.perf_counter()
            calls[method]()
            times[method].append(time.perf_counter() - start)
        print(f"   repeat {rep + 1}/{k} done", flush=True)

    best = {m: min(v) for m, v in times.items()}
    ratios = {
        "metricframe_over_fairbook": best["metricframe"] / best["fairbook"],
        "fairbook_over_bincount": best["fairbook"] / best["bincount"],
        "fairbook_rows_over_bincount": best["fairbook_rows"] / best["bincount"],
        "fairbook_general_over_bincount": best["fairbook_general"] / best["bincount"],
        "bias_report_over_bincount": best["bias_report"] / best["bincount"],
        "metricframe_over_bias_report": best["metricframe"] / best["bias_report"],
    }
    goals = {
        "metricframe_over_fairbook >= 30": ratios["metricframe_over_fairbook"]
        >= GOAL_MF_OVER_FAIRBOOK,
        "fairbook_over_bincount <= 1.5": ratios["fairbook_over_bincount"]
        <= GOAL_COUNTING_OVER_FLOOR,
        "bias_report_over_bincount <= 3": ratios["bias_report_over_bincount"]
        <= GOAL_REPORT_OVER_FLOOR,
    }
    return {
        "n": n,
        "repeats": {m: len(v) for m, v in times.items()},
        "best_seconds": best,
        "all_seconds": times,
        "ratios": ratios,
        "goals": goals,
        "checks": checks,
    }


# --------------------------------------------------------------------------- report
def print_table(results: list[dict]) -> None:
    print("\nBest-of-k wall time (s); 'x floor' = time / bincount time")
    header = f"{'n':>12} {'method':<16} {'k':>2} {'best s':>10} {'x floor':>9}"
    print(header)
    print("-" * len(header))
    for res in results:
        for m in METHODS:
            best = res["best_seconds"][m]
            print(
                f"{res['n']:>12,} {m:<16} {res['repeats'][m]:>2} {best:>10.5f} "
                f"{best / res['best_seconds']['bincount']:>8.1f}x"
            )
    print("\nRatios vs goals")
    header = f"{'n':>12} {'MF/fairbook':>12} {'fairbook/bincount':>18} {'bias_report/bincount':>21}"
    print(header)
    print("-" * len(header))
    for res in results:
        r, g = res["ratios"], res["goals"]
        flags = ["ok" if v else "MISS" for v in g.values()]
        print(
            f"{res['n']:>12,} {r['metricframe_over_fairbook']:>8.0f}x {flags[0]:<3}"
            f"{r['fairbook_over_bincount']:>14.2f}x {flags[1]:<3}"
            f"{r['bias_report_over_bincount']:>17.2f}x {flags[2]:<3}"
        )
    print(
        f"(goals: MF/fairbook >= {GOAL_MF_OVER_FAIRBOOK:.0f}x, fairbook/bincount <= "
        f"{GOAL_COUNTING_OVER_FLOOR:g}x, bias_report/bincount <= {GOAL_REPORT_OVER_FLOOR:g}x)"
    )


def git_revision() -> str:
    try:
        root = HERE.parent
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=root,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "src"],
            cwd=root,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        return rev + ("+modified-src" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def profile(n: int, calls: int = 20) -> None:
    """Line-by-line profile of the fairbook paths (needs ``line_profiler`` importable)."""
    try:
        from line_profiler import LineProfiler
    except ImportError:
        sys.exit(
            "--profile needs line_profiler, e.g.\n  python -m pip install --target "
            "/tmp/lp line_profiler && PYTHONPATH=/tmp/lp python "
            "benchmarks/bench_metrics.py --profile"
        )
    import fairbook.labels as labels
    import fairbook.metrics.group as group

    y_true, y_pred, groups = make_data(n)
    profiler = LineProfiler()
    for func in (
        confusion.confusion_counts,
        confusion._dense_counts,
        labels.binary_indicators,
        labels.encode_values,
        confusion.multiclass_counts,
        group.bias_report,
    ):
        profiler.add_function(func)
    for _ in range(3):  # warm-up, not recorded
        run_fairbook(y_true, y_pred, groups)
        run_bias_report(y_true, y_pred, groups)
    with profiler:
        for _ in range(calls):
            run_fairbook(y_true, y_pred, groups)
            run_bias_report(y_true, y_pred, groups)
    stats = profiler.get_stats()
    print(f"line profile, n = {n:,}: ms per call, lines with >= 2% of their function")
    for (filename, _, funcname), lines in stats.timings.items():
        total = sum(t for _, _, t in lines)
        if not total:
            continue
        print(f"\n{Path(filename).name}:{funcname}  {total * stats.unit * 1e3 / calls:.2f} ms")
        for lineno, hits, t in lines:
            if t >= 0.02 * total:
                source = linecache.getline(filename, lineno).strip()
                print(
                    f"  {lineno:>4} {t * stats.unit * 1e3 / calls:>7.2f} ms "
                    f"{100 * t / total:>4.0f}%  x{hits // calls:<2} {source[:70]}"
                )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", nargs="+", type=float, default=[1e6, 1e7], help="row counts (default: 1e6 1e7)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results path")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="line-profile fairbook at the first size instead of timing",
    )
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes]
    if args.profile:
        profile(sizes[0])
        return

    command = " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv])
    load_before = os.getloadavg()
    wall = time.perf_counter()
    results = [bench_size(n) for n in sizes]
    wall = time.perf_counter() - wall
    print_table(results)

    record = {
        "benchmark": "bench_metrics",
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "loadavg_before": load_before,
        "loadavg_after": os.getloadavg(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "fairlearn": fairlearn.__version__,
        "fairbook_git": git_revision(),
        "command": command,
        "total_wall_seconds": wall,
        "n_groups": N_GROUPS,
        "seed": SEED,
        "timer": "time.perf_counter, best of k; methods round-robin within each repeat",
        "notes": (
            "MetricFrame's first (checked) call is its first timed repeat; at >= 1e7 "
            "rows it runs once only. bincount times 4*groups+cell and np.bincount on "
            "precomputed int arrays."
        ),
        "goals": {
            "metricframe_over_fairbook_min": GOAL_MF_OVER_FAIRBOOK,
            "fairbook_over_bincount_max": GOAL_COUNTING_OVER_FLOOR,
            "bias_report_over_bincount_max": GOAL_REPORT_OVER_FLOOR,
        },
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, record)
    print(f"\nwrote {args.out} ({wall:.0f} s)")


if __name__ == "__main__":
    main()
