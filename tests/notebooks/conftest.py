"""Checks on the executed chapters before nbval re-runs them (``make nbval-rerun``).

Loaded because ``make nbval-rerun`` passes ``tests/notebooks`` as the first path (see
pytest.ini). nbval passes trivially on a notebook without stored outputs, so every notebook
given on the command line must be an *executed copy* (papermill metadata, every code cell
run, no exception recorded); otherwise the session stops with a clear message.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from fairbook_book.tooling.outputs import executed_problems


def _problems(path: Path) -> list[str]:
    try:
        nb = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        return [f"cannot read: {exc}"]
    return executed_problems(nb)


def pytest_sessionstart(session: pytest.Session) -> None:
    # the kernel nbval starts (--nbval-current-env) is this interpreter; keep set/dict order
    # of str keys the same as in the build (Makefile exports PYTHONHASHSEED=0 for both)
    os.environ.setdefault("PYTHONHASHSEED", "0")
    bindir = str(Path(sys.executable).parent)
    if not os.environ.get("PATH", "").startswith(bindir):
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
    notebooks = [Path(a) for a in session.config.args if a.endswith(".ipynb")]
    if not notebooks:
        return
    bad = {str(p): _problems(p) for p in notebooks}
    bad = {k: v for k, v in bad.items() if v}
    if bad:
        lines = [f"{k}: {'; '.join(v)}" for k, v in bad.items()]
        raise pytest.UsageError("not executed chapters given to nbval:\n  " + "\n  ".join(lines))
