"""What every benchmark shares: the machine it ran on, a best-of timer, one result writer.

Each ``bench_*.py`` measures a candidate against a named baseline *in one run* and writes
one JSON file (``benchmarks/results/<name>.json``) through :func:`write_result`, which adds
the same provenance to every result: the command, the date, the git commit and
:func:`machine`. Run a benchmark from the repository root, ``python benchmarks/bench_x.py``
(the script's folder is on ``sys.path``, so ``from _harness import ...`` works).
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["best_of", "machine", "write_result"]

_LIBRARIES = ("numpy", "scipy", "pandas", "torch", "fairlearn")


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:  # pragma: no cover - git missing
        return ""


def machine(*libraries: str) -> dict:
    """Platform, cores, Python, the versions of the given (or the usual) libraries that are
    installed, and the load average when the benchmark started."""
    versions = {}
    for name in libraries or _LIBRARIES:
        try:
            versions[name] = importlib.import_module(name).__version__
        except ImportError:
            continue
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
        **versions,
        "load_average_at_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def best_of(function: Callable[[], object], *, repeat: int = 3) -> tuple[float, object]:
    """The least wall-clock seconds of ``repeat`` calls, and the last call's result."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def write_result(path, result: dict) -> Path:
    """Write one benchmark's result as JSON with its provenance; returns the path.

    The provenance keys ``benchmark``, ``command``, ``date``, ``commit`` and ``machine`` are
    added where the result does not already hold them.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "benchmark": path.stem,
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "machine": machine(),
    }
    record.update(result)
    path.write_text(json.dumps(record, indent=2, default=str) + "\n", encoding="utf-8")
    return path
