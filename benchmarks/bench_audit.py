"""Time and peak memory of ``fairbook audit`` on large files, against named baselines.

What is measured, on one seeded table per size with a binary label, a binary prediction and
three group columns (``race`` 5 text values, ``sex`` 2 text values, ``age`` 3 integer values):

* ``read``        -- a baseline: :func:`fairbook.audit.read_predictions` alone;
* ``audit``       -- :func:`fairbook.audit.audit_file` with the three group columns (the file
  read, per-group counts and rates, OFI/DI, the seven metrics, exact MATCH p-values with
  Holm's adjustment, the small-group checks and CPS-smoothed rates);
* ``metricframe`` -- the named baseline of the per-group part: fairlearn ``MetricFrame``
  (selection rate, TPR, FPR, ``by_group``, ``difference()`` and ``ratio()``) for each of the
  three columns, on the frame read outside the timer;
* ``cli``         -- ``fairbook audit FILE --group race --group sex --group age`` as a user
  runs it (one process, start-up and printing included);
* ``bincount``    -- the floor: ``np.bincount`` of ``4 * group + cell`` on integer codes made
  outside the timer, for the three columns.

Each step runs in a fresh Python process, so that its peak resident memory (``ru_maxrss`` from
``os.wait4``) is its own; time is the wall time measured inside the process around the step
(start-up and imports excluded), except for ``cli``, timed around the whole process. The
ratios ``audit / metricframe``, ``audit / read`` and ``audit / bincount`` are reported from the
same run.

Run from the repository root::

    .venv/bin/python benchmarks/bench_audit.py                  # 10^6 and 10^7 rows
    .venv/bin/python benchmarks/bench_audit.py --sizes 1e5      # quick smoke run
    .venv/bin/python benchmarks/bench_audit.py --format csv     # CSV instead of Parquet

Results go to ``benchmarks/results/bench_audit.json`` (``--out`` to change).

``--groups 1e3 1e4 1e5 1e6`` measures the audit's cost in the number of groups instead (in
process, one seeded frame per size: 10 rows per group, a fifth of the rows in one large
reference group): ``batched`` (:func:`fairbook.audit.audit`, the batched MATCH p-values of
:mod:`fairbook.audit.fast_match`), ``text`` (``report.to_text()`` on it, up to
``--text-max`` groups, default 1e4), ``floor`` (the
per-group counts alone, :func:`fairbook.audit.groups.count_cells`) and, up to
``--rowwise-max`` groups (default 1e3), the named baseline ``rowwise``: the same comparisons
one group at a time through :func:`fairbook.stats.match.test` and
:func:`fairbook.audit.small_groups.small_group_reasons` (the path the audit took before).
Results go to ``benchmarks/results/bench_audit_groups.json``::

    .venv/bin/python benchmarks/bench_audit.py --groups 1e3 1e4 1e5 1e6
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _harness import machine, write_result

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "bench_audit.json"
SEED = 20261125
GROUP_COLUMNS = ("race", "sex", "age")

_STEP = {
    "read": """
        from fairbook.audit import read_predictions
        start = time.perf_counter()
        frame = read_predictions(PATH)
        seconds = time.perf_counter() - start
        rows = len(frame)
    """,
    "audit": """
        from fairbook.audit import audit_file
        start = time.perf_counter()
        report = audit_file(PATH, groups=["race", "sex", "age"])
        seconds = time.perf_counter() - start
        rows = int(report.groups["n"].sum())
    """,
    "metricframe": """
        from fairbook.audit import read_predictions
        from fairlearn.metrics import (
            MetricFrame, false_positive_rate, selection_rate, true_positive_rate,
        )
        frame = read_predictions(PATH)
        metrics = {"PPR": selection_rate, "TPR": true_positive_rate, "FPR": false_positive_rate}
        start = time.perf_counter()
        for column in ("race", "sex", "age"):
            mf = MetricFrame(metrics=metrics, y_true=frame["y_true"], y_pred=frame["y_pred"],
                             sensitive_features=frame[column])
            mf.by_group, mf.difference(), mf.ratio()
        seconds = time.perf_counter() - start
        rows = int(len(frame))
    """,
    "bincount": """
        from fairbook.audit import read_predictions
        frame = read_predictions(PATH)
        cell = (3 - 2 * frame["y_true"].to_numpy() - frame["y_pred"].to_numpy()).astype(np.intp)
        codes = [pd.factorize(frame[c])[0].astype(np.intp) for c in ("race", "sex", "age")]
        start = time.perf_counter()
        for code in codes:
            np.bincount(4 * code + cell)
        seconds = time.perf_counter() - start
        rows = int(cell.size)
    """,
}


def make_table(n: int, *, seed: int = SEED) -> pd.DataFrame:
    """A seeded table of ``n`` predictions with three group columns."""
    rng = np.random.default_rng(seed)
    race = np.array(["White", "Black", "Hispanic", "Asian", "Native American"])
    frame = pd.DataFrame(
        {
            "y_true": rng.integers(0, 2, n, dtype=np.int8),
            "y_pred": rng.integers(0, 2, n, dtype=np.int8),
            "race": race[rng.choice(5, n, p=[0.6, 0.2, 0.12, 0.06, 0.02])],
            "sex": np.where(rng.random(n) < 0.5, "Female", "Male"),
            "age": rng.integers(0, 3, n, dtype=np.int16),
        }
    )
    return frame


def _run_step(step: str, path: Path) -> dict:
    """Run one step in a fresh process; its seconds and peak resident memory (MiB)."""
    code = "import time, json\nimport numpy as np, pandas as pd\n"
    code += f"PATH = {str(path)!r}\n" + textwrap.dedent(_STEP[step])
    code += "\nprint(json.dumps({'seconds': seconds, 'rows': rows}))\n"
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    output = process.stdout.read()
    process.stdout.close()
    if status != 0:
        raise RuntimeError(f"step {step} failed with status {status}")
    result = json.loads(output.strip().splitlines()[-1])
    result["peak_mib"] = usage.ru_maxrss / 1024  # Linux: kibibytes
    return result


def _run_cli(path: Path) -> dict:
    fairbook = Path(sys.executable).with_name("fairbook")
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(fairbook), "audit", str(path), "--group", "race", "--group", "sex", "--group", "age"],
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"fairbook audit failed with status {status}")
    return {"seconds": seconds, "peak_mib": usage.ru_maxrss / 1024}


def bench(n: int, *, file_format: str, folder: Path) -> dict:
    """Write the table for ``n`` rows, run every step once, return the measurements."""
    path = folder / f"audit_{n}.{file_format}"
    table = make_table(n)
    if file_format == "parquet":
        table.to_parquet(path)
    else:
        table.to_csv(path, index=False)
    del table
    timed = ("read", "audit", "metricframe", "bincount")
    steps = {step: _run_step(step, path) for step in timed}
    steps["cli"] = _run_cli(path)
    for step in timed:
        if steps[step]["rows"] != n:
            raise RuntimeError(f"{step} saw {steps[step]['rows']} rows, expected {n}")
    return {
        "rows": n,
        "format": file_format,
        "file_mib": path.stat().st_size / 2**20,
        "steps": steps,
        "ratio_audit_to_metricframe": steps["audit"]["seconds"] / steps["metricframe"]["seconds"],
        "ratio_audit_to_read": steps["audit"]["seconds"] / steps["read"]["seconds"],
        "ratio_audit_to_bincount": steps["audit"]["seconds"] / steps["bincount"]["seconds"],
    }


def groups_frame(k: int, *, per: int = 10, seed: int = SEED) -> pd.DataFrame:
    """``per * k`` rows in ``k`` groups, a fifth of the rows in group ``g0`` (the reference)."""
    rng = np.random.default_rng(seed)
    n = k * per
    codes = rng.integers(0, k, n)
    codes[: n // 5] = 0
    return pd.DataFrame(
        {
            "y_true": rng.integers(0, 2, n, dtype=np.int8),
            "y_pred": rng.integers(0, 2, n, dtype=np.int8),
            "group": np.char.add("g", codes.astype(str)).astype(object),
        }
    )


def _rowwise(report) -> float:
    """The baseline: every comparison of the report one group at a time (the old path)."""
    from fairbook.audit.significance import match_pvalue
    from fairbook.audit.small_groups import small_group_reasons

    groups = report.tables["groups"]
    counts = groups[["TP", "FN", "FP", "TN"]].to_numpy(np.int64)
    ref = counts[groups["is_reference"].to_numpy(bool)][0]
    p_ref = ref / ref.sum()
    start = time.perf_counter()
    for metric in report.settings["metrics"]:
        for cm in counts:
            small_group_reasons(metric, cm, p_ref)
            match_pvalue(metric, cm, p_ref)
    return time.perf_counter() - start


def bench_groups(k: int, *, rowwise_max: int, text_max: int) -> dict:
    """Seconds of the batched audit, its text and the floor at ``k`` groups."""
    from fairbook.audit import audit
    from fairbook.audit.groups import count_cells, encode_attribute, outcome_cells

    frame = groups_frame(k)
    start = time.perf_counter()
    report = audit(frame, groups=["group"])
    batched = time.perf_counter() - start
    text, text_seconds = "", float("nan")
    if k <= text_max:
        start = time.perf_counter()
        text = report.to_text()
        text_seconds = time.perf_counter() - start
    start = time.perf_counter()
    attribute = encode_attribute(frame["group"], name="group")
    cells = outcome_cells(frame["y_true"].to_numpy() == 1, frame["y_pred"].to_numpy() == 1)
    count_cells(attribute, cells)
    floor = time.perf_counter() - start
    row = {
        "groups": int(report.tables["groups"].shape[0]),
        "rows": len(frame),
        "batched_s": batched,
        "text_s": text_seconds,
        "text_lines": text.count("\n") + 1 if text else 0,
        "floor_s": floor,
        "batched_over_floor": batched / floor,
    }
    if k <= rowwise_max:
        row["rowwise_s"] = _rowwise(report)
        row["rowwise_over_batched"] = row["rowwise_s"] / batched
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7])
    parser.add_argument("--format", choices=("parquet", "csv"), default="parquet")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--groups", nargs="+", type=float, default=None)
    parser.add_argument("--rowwise-max", type=float, default=1e3)
    parser.add_argument("--text-max", type=float, default=1e4)
    args = parser.parse_args(argv)
    if args.groups:
        rows = []
        for size in args.groups:
            row = bench_groups(
                int(size), rowwise_max=int(args.rowwise_max), text_max=int(args.text_max)
            )
            rows.append(row)
            print(json.dumps(row), flush=True)
        out = write_result(
            args.out or HERE / "results" / "bench_audit_groups.json",
            {"machine": machine("numpy", "scipy", "pandas"), "results": rows},
        )
        print(f"wrote {out}")
        return 0
    args.out = args.out or DEFAULT_OUT
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            row = bench(int(size), file_format=args.format, folder=Path(folder))
            results.append(row)
            steps = row["steps"]
            print(
                f"{row['rows']:>10,} rows ({row['format']}, {row['file_mib']:.0f} MiB): "
                + "  ".join(
                    f"{name} {s['seconds']:.2f} s / {s['peak_mib']:.0f} MiB"
                    for name, s in steps.items()
                )
                + f"  | audit/metricframe {row['ratio_audit_to_metricframe']:.2f}x"
                + f"  audit/read {row['ratio_audit_to_read']:.1f}x"
                + f"  audit/bincount {row['ratio_audit_to_bincount']:.0f}x",
                flush=True,
            )
    out = write_result(
        args.out, {"machine": machine("pandas", "pyarrow", "fairlearn"), "results": results}
    )
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
