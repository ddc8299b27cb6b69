"""Run by ``make wheel`` with the Python of a fresh virtual environment that holds only the
``fairbook`` wheel and its dependencies (no pytest here: plain asserts, exit status 1 on
failure). It checks what a practitioner gets from ``pip install fairbook``:

* ``import fairbook`` leaves the process's environment as it was;
* the book is not there: no ``fairbook_book``, no exercise keys, no recordings, and none of the
  book's or the tests' tools (pytest, sphinx, jupyter-book, papermill, nbval, torch);
* ``fairbook audit`` runs on a small file, as text and as JSON, and a book command says where
  it lives;

and prints the wheel's size and the installed size.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOOK_TOOLS = ("pytest", "sphinx", "jupyter-book", "papermill", "nbval", "torch", "jupyterlab")


def main(wheel: str) -> int:
    before = dict(os.environ)
    import fairbook
    import fairbook.audit  # noqa: F401

    assert dict(os.environ) == before, "import fairbook changed the environment"
    assert importlib.util.find_spec("fairbook_book") is None, "the book's package is installed"
    package = Path(importlib.util.find_spec("fairbook").origin).parent
    files = [p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()]
    leaked = [f for f in files if "exercise_keys" in f or "recorded" in f or "/build/" in f]
    assert not leaked, f"book files in the wheel: {leaked}"
    assert "py.typed" in files, "py.typed is not shipped"
    installed = {d.metadata["Name"].lower() for d in importlib.metadata.distributions()}
    tools = sorted(t for t in BOOK_TOOLS if t in installed)
    assert not tools, f"pip install fairbook brought the book's tools: {tools}"
    command = [sys.executable, "-m", "fairbook", "audit", str(HERE / "predictions.csv")]
    text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "SUMMARY" in text, text[:500]
    report = json.loads(
        subprocess.run([*command, "--json"], capture_output=True, text=True, check=True).stdout
    )
    assert report["settings"]["rows"] == 60, report["settings"]
    book = subprocess.run(
        [sys.executable, "-m", "fairbook", "record", "03"], capture_output=True, text=True
    )
    assert book.returncode == 2 and "fairbook-book record" in book.stderr, book.stderr
    site = package.parent
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    ours = sum(p.stat().st_size for p in package.rglob("*") if p.is_file())
    print(
        f"[wheel] {Path(wheel).name}: {Path(wheel).stat().st_size / 1024:.0f} KiB; installed: "
        f"fairbook {ours / 2**20:.1f} MiB, with its dependencies {size / 2**20:.0f} MiB "
        f"({len(installed)} distributions); audit ran on {report['settings']['rows']} rows"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
