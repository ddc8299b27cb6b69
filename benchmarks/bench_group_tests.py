"""Benchmark: every table's p-value at once vs one scipy call per table (Fisher, Boschloo).

Run ``python benchmarks/bench_group_tests.py`` (about 30 s; ``--boschloo-sample 4`` for a
smoke run). Prints a table and writes ``benchmarks/results/bench_group_tests.json``.

What is timed, for a group of ``n = 30`` against a reference of ``N = 1000`` (31 × 1001 =
31,031 tables):

* candidate: ``fairbook.stats.group_tests.pvalue_table(test, 30, N=1000)``, its cache
  cleared before every call (best of ``--repeats``);
* named baseline "one scipy call per table": ``scipy.stats.fisher_exact`` /
  ``scipy.stats.boschloo_exact`` (two-sided) on a seeded uniform sample of the tables, each
  call timed once, the mean time per table scaled to all 31,031 tables (a Boschloo call
  takes a fraction of a second, so all of them would take hours).

Checked before the timings are reported: on the sampled tables the candidate equals
scipy within 1e-9 (Fisher: ~2e-12 from summation order) and 5e-4 (Boschloo: the module's
supremum is taken on a 401-point grid, scipy's by an optimiser, and at N = 1000 either may
be the lower one).
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from _harness import best_of, machine, write_result
from scipy import stats

from fairbook.stats import group_tests

N_GROUP, N_REF = 30, 1000
SCIPY = {"fisher": stats.fisher_exact, "boschloo": stats.boschloo_exact}
# Fisher: ~2e-12 from summation order at N = 1000. Boschloo: both sides approximate the
# supremum from below; at N = 1000 scipy's optimiser falls short by up to 1.4e-4 (the grid
# is the higher one, e.g. x, y = 20, 676) and the grid by up to 3e-5.
TOLERANCE = {"fisher": 1e-9, "boschloo": 5e-4}


def candidate(test: str) -> np.ndarray:
    """Every table's p-value, from nothing cached."""
    group_tests._table_pvalues.cache_clear()
    group_tests._hypergeometric_tables.cache_clear()
    return group_tests.pvalue_table(test, N_GROUP, N=N_REF)


def baseline(test: str, cells: np.ndarray) -> tuple[float, np.ndarray]:
    """(mean seconds per table, p-values) of one scipy call per sampled table."""
    function = SCIPY[test]
    values = np.empty(len(cells))
    start = time.perf_counter()
    for i, (x, y) in enumerate(cells):
        values[i] = function([[x, y], [N_GROUP - x, N_REF - y]]).pvalue
    return (time.perf_counter() - start) / len(cells), values


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fisher-sample", type=int, default=2000, help="scipy calls timed")
    parser.add_argument("--boschloo-sample", type=int, default=40, help="scipy calls timed")
    parser.add_argument("--repeats", type=int, default=3, help="best of, for the candidate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", default=str(Path(__file__).parent / "results" / "bench_group_tests.json")
    )
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", RuntimeWarning)  # scipy's optimiser on extreme tables
    tables = (N_GROUP + 1) * (N_REF + 1)
    rng = np.random.default_rng(args.seed)
    rows = []
    for test, sample in (("fisher", args.fisher_sample), ("boschloo", args.boschloo_sample)):
        flat = rng.choice(tables, size=min(sample, tables), replace=False)
        cells = np.column_stack(np.unravel_index(flat, (N_GROUP + 1, N_REF + 1)))
        fast_s, pvalues = best_of(lambda t=test: candidate(t), repeat=args.repeats)
        per_table_s, reference = baseline(test, cells)
        difference = float(np.abs(pvalues[cells[:, 0], cells[:, 1]] - reference).max())
        if difference > TOLERANCE[test]:
            raise AssertionError(f"{test}: max |Δp| = {difference:.3g} against scipy")
        scaled_s = per_table_s * tables
        rows.append(
            {
                "test": test,
                "n": N_GROUP,
                "N": N_REF,
                "tables": tables,
                "pvalue_table_s": fast_s,
                "scipy_tables_timed": len(cells),
                "scipy_per_table_ms": 1e3 * per_table_s,
                "scipy_all_tables_s (scaled)": scaled_s,
                "ratio": scaled_s / fast_s,
                "max_abs_diff": difference,
                "tolerance": TOLERANCE[test],
            }
        )

    print(f"(n, N) = ({N_GROUP}, {N_REF}): {tables:,} tables")
    print(
        f"{'test':>9} {'pvalue_table':>13} {'scipy/table':>12} {'scipy, all':>11} "
        f"{'ratio':>9} {'max|Δp|':>9}"
    )
    for r in rows:
        print(
            f"{r['test']:>9} {r['pvalue_table_s']:>11.3f} s {r['scipy_per_table_ms']:>9.3f} ms "
            f"{r['scipy_all_tables_s (scaled)']:>9.1f} s {r['ratio']:>8.0f}× "
            f"{r['max_abs_diff']:>9.1e}"
        )
    result = {
        "machine": machine("numpy", "scipy"),
        "baseline": "one scipy call per table (fisher_exact / boschloo_exact, two-sided), "
        "timed on a seeded sample of the tables and scaled to all of them",
        "candidate": "fairbook.stats.group_tests.pvalue_table(test, 30, N=1000), cache cleared",
        "rows": rows,
    }
    write_result(args.out, result)
    print(f"\nwrote {args.out}")
    return result


if __name__ == "__main__":
    main()
