"""Benchmark: the set-up step of a fresh machine, with and without byte-compiling on install.

``make setup`` creates ``.venv`` and runs ``pip install -e '.[dev,lm]'``; pip byte-compiles
every installed module (about 18,000 files, torch's most of them) although a build imports a
fraction of them. With ``--no-compile`` Python compiles a module when it is first imported
and writes the ``.pyc`` then. So the fair comparison is *install + first use*: in one run,
two fresh virtual environments in a temporary folder,

* **baseline** ``pip install -e '.[dev,lm]'`` (pip's default: compile everything),
* **candidate** ``pip install --no-compile -e '.[dev,lm]'``,

each followed (in an environment without ``PYTHONDONTWRITEBYTECODE``, as under ``make``, whose
Makefile unexports it) by the first import of what the build and the tests import (``fairbook``,
every chapter package, torch, sklearn, scipy, pandas, matplotlib, transformers, papermill,
jupyter_book's sphinx, pytest), timed in a new interpreter, and then a second import (the
``.pyc`` files written by the first). Both installs resolve from the same local wheel cache
(the machine's pip configuration), so the network is not part of it.

Run ``.venv/bin/python benchmarks/bench_setup.py`` (about 5 min on 2 cores); writes
``benchmarks/results/bench_setup.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _harness import write_result

ROOT = Path(__file__).resolve().parents[1]
FIRST_USE = (
    "import fairbook, fairbook.cli, fairbook_book.chapters.parallel_time_networks, "
    "fairbook_book.chapters.verdict_stability, fairbook_book.chapters.ucerf, "
    "fairbook_book.chapters.fit_variance, fairbook_book.chapters.uncertainty_fairness, "
    "fairbook_book.chapters.conditional_hydragan, fairbook_book.chapters.small_groups, "
    "fairbook_book.chapters.objective_fairness_index, fairbook_book.chapters.metric_catalogue, "
    "fairbook_book.chapters.audit_your_model, torch, sklearn.ensemble, scipy.stats, pandas, "
    "matplotlib.pyplot, transformers, papermill, sphinx.application, pytest, hypothesis"
)


def _timed(cmd: list[str], **kwargs) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True, **kwargs)
    return time.perf_counter() - start


def _one(folder: Path, *, compile_on_install: bool, extras: str) -> dict:
    venv = folder / ("compiled" if compile_on_install else "no-compile")
    python = str(venv / "bin" / "python")
    create = _timed([sys.executable, "-m", "venv", str(venv)])
    flags = [] if compile_on_install else ["--no-compile"]
    install = _timed(
        [python, "-m", "pip", "install", "-qq", *flags, "-e", f".[{extras}]"], cwd=ROOT
    )
    # as under make: the Makefile unexports PYTHONDONTWRITEBYTECODE, so the first use writes
    # the .pyc files of what it imports (with the variable set, a --no-compile install would
    # compile those modules again in every process)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    first = _timed([python, "-c", FIRST_USE], cwd=folder, env=env)
    second = _timed([python, "-c", FIRST_USE], cwd=folder, env=env)
    pyc = sum(1 for _ in venv.rglob("*.pyc"))
    return {
        "venv_seconds": create,
        "install_seconds": install,
        "first_import_seconds": first,
        "second_import_seconds": second,
        "install_plus_first_use_seconds": create + install + first,
        "pyc_files_after_first_use": pyc,
    }


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", default="dev,lm")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_setup.json"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fairbook-bench-setup-") as tmp:
        baseline = _one(Path(tmp), compile_on_install=True, extras=args.extras)
        candidate = _one(Path(tmp), compile_on_install=False, extras=args.extras)
    result = {
        "extras": args.extras,
        "PYTHONDONTWRITEBYTECODE_in_caller": os.environ.get("PYTHONDONTWRITEBYTECODE", ""),
        "baseline (pip default: compile on install)": baseline,
        "candidate (--no-compile)": candidate,
        "speedup_install_plus_first_use": baseline["install_plus_first_use_seconds"]
        / candidate["install_plus_first_use_seconds"],
    }
    write_result(args.out, result)
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
