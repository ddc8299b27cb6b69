"""``make test``'s stages, side by side where one does not need another.

``make test`` used to run its stages one after another; several of them leave a core idle
most of the time (mypy, building the wheel's environment, the grader's environment,
Chromium's page checks), so running those beside the others shortens the whole without
changing what any stage checks. :data:`STAGES` says which stages each one waits for, so a
stage never reads what another is still writing:

* the unit tests run before the book is built, as on a fresh clone (their tests that need
  a built book are skipped), and the chapters' kernels then have every core;
* the PDFs, the decks, the editions and the JupyterLab check read the built book;
* the page check opens the PDFs and decks, so it waits for them (and for the editions,
  whose leak test reads the book's folder while the page check writes its probes there);
* the grader needs the assignments (``editions``) and its own environment.

Every stage runs even if one it waits for failed (as before: the summary names every failed
stage); each one is ``make <stage>``, so a stage run alone is the same as here. At most
``parallel`` stages run at once, ready ones in :data:`PRIORITY` order (the longest chain
first). Each stage's output is kept and printed whole when it ends, so the log reads stage by
stage; the last lines are a table of when each stage started and how long it took, and
``make test: all stages passed`` or ``make test: FAILED: <stages>``.

Examples
--------
>>> plan = schedule_order(STAGES, PRIORITY)
>>> plan.index("unit") < plan.index("html") < plan.index("pagecheck")
True
>>> sorted(STAGES["pagecheck"])
['editions', 'pdf', 'slides']
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

__all__ = ["PRIORITY", "STAGES", "StageResult", "run_stages", "schedule_order"]

#: Each stage of ``make test`` and the stages it waits for.
STAGES: dict[str, tuple[str, ...]] = {
    "lint": (),
    "typecheck": (),
    "wheel": (),
    "grader-venv": (),
    "data": (),
    "unit": ("data",),
    "html": ("data", "unit"),
    "nbval": ("html",),
    "nbval-changed": ("nbval",),
    "editions": ("html",),
    "grader": ("editions", "grader-venv"),
    "pdf": ("html",),
    "slides": ("html",),
    "pagecheck": ("pdf", "slides", "editions"),
    "labcheck": ("html", "editions"),
}

#: The order in which ready stages start: the longest chain (data, unit, html, the PDFs and
#: decks, the page check) first, then what fills the idle cores.
PRIORITY: tuple[str, ...] = (
    "lint",
    "data",
    "unit",
    "html",
    "pdf",
    "slides",
    "editions",
    "pagecheck",
    "typecheck",
    "wheel",
    "grader-venv",
    "nbval",
    "nbval-changed",
    "grader",
    "labcheck",
)


@dataclass
class StageResult:
    """How one stage ended."""

    name: str
    returncode: int
    started: float
    seconds: float
    output: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def schedule_order(stages: Mapping[str, Sequence[str]], priority: Sequence[str]) -> list[str]:
    """The stages in the order one at a time would run them: each after those it waits
    for, ties broken by `priority`.

    Raises
    ------
    ValueError
        If a stage waits for an unknown stage, or the waits form a cycle, or `priority` does
        not name every stage exactly once.

    Examples
    --------
    >>> schedule_order({"a": (), "b": ("a",), "c": ()}, ["b", "c", "a"])
    ['c', 'a', 'b']
    >>> schedule_order({"a": ("b",), "b": ("a",)}, ["a", "b"])
    Traceback (most recent call last):
    ...
    ValueError: the stages' waits form a cycle among: a, b
    """
    if sorted(priority) != sorted(stages) or len(set(priority)) != len(priority):
        raise ValueError("priority must name every stage exactly once")
    for name, waits in stages.items():
        unknown = sorted(set(waits) - set(stages))
        if unknown:
            raise ValueError(f"stage {name} waits for unknown stages: {', '.join(unknown)}")
    done: list[str] = []
    while len(done) < len(stages):
        ready = [s for s in priority if s not in done and set(stages[s]) <= set(done)]
        if not ready:
            left = sorted(set(stages) - set(done))
            raise ValueError(f"the stages' waits form a cycle among: {', '.join(left)}")
        done.append(ready[0])
    return done


def _make(name: str) -> tuple[int, str]:
    """``make <name>``, its output (stdout and stderr, in order) kept in a temporary file."""
    make = os.environ.get("MAKE", "make")
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
        code = subprocess.call([make, "--no-print-directory", name], stdout=log, stderr=log)
        log.seek(0)
        return code, log.read()


def run_stages(
    stages: Mapping[str, Sequence[str]] = STAGES,
    priority: Sequence[str] = PRIORITY,
    *,
    parallel: int = 3,
    run: Callable[[str], tuple[int, str]] = _make,
    echo: Callable[..., None] = print,
) -> list[StageResult]:
    """Run every stage, at most `parallel` at once, each once all it waits for ended.

    Parameters
    ----------
    stages, priority
        As :data:`STAGES` and :data:`PRIORITY`.
    parallel : int, default 3
        How many stages may run at once (1: one after another, in :func:`schedule_order`).
    run : callable
        ``run(name) -> (exit code, output)``; default ``make <name>``.
    echo : callable
        Where each stage's output goes when it ends.

    Returns
    -------
    list of StageResult
        In the order the stages ended.

    Examples
    --------
    >>> ran = run_stages({"a": (), "b": ("a",)}, ["a", "b"], run=lambda n: (0, n + " ok"),
    ...                  echo=lambda *a, **k: None)
    >>> [(r.name, r.ok) for r in ran]
    [('a', True), ('b', True)]
    """
    if not isinstance(parallel, int) or isinstance(parallel, bool) or parallel < 1:
        raise ValueError(f"parallel must be a whole number >= 1, got {parallel!r}")
    schedule_order(stages, priority)  # raises on a bad plan before anything runs
    t0 = time.perf_counter()
    ended: list[StageResult] = []
    running: dict[Future, tuple[str, float]] = {}

    def start(pool: ThreadPoolExecutor, name: str) -> None:
        started = time.perf_counter() - t0
        echo(f"[stages] {started:5.0f} s: {name} starts", flush=True)
        running[pool.submit(run, name)] = (name, started)

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        while len(ended) + len(running) < len(stages) or running:
            finished = {r.name for r in ended}
            busy = {name for name, _ in running.values()}
            for name in priority:
                if len(running) >= parallel:
                    break
                if name in finished or name in busy:
                    continue
                if set(stages[name]) <= finished:
                    start(pool, name)
                    busy.add(name)
            if not running:
                break
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in done:
                name, started = running.pop(future)
                try:
                    code, output = future.result()
                except Exception as exc:  # the stage could not even start
                    code, output = 1, f"{type(exc).__name__}: {exc}\n"
                seconds = time.perf_counter() - t0 - started
                ended.append(StageResult(name, code, started, seconds, output))
                echo(output, end="" if output.endswith("\n") or not output else "\n")
                status = "ok" if code == 0 else f"FAILED (exit {code})"
                echo(f"[stages] {name}: {status} after {seconds:.0f} s", flush=True)
    return ended


def summary(results: Sequence[StageResult], total: float) -> list[str]:
    """A table of when each stage started and how long it took, and the verdict line."""
    lines = ["[stages] stage            start     took  status"]
    for r in sorted(results, key=lambda r: r.started):
        lines.append(
            f"[stages] {r.name:15} {r.started:5.0f} s {r.seconds:6.0f} s  "
            + ("ok" if r.ok else f"FAILED (exit {r.returncode})")
        )
    lines.append(f"[stages] all stages in {total:.0f} s")
    failed = [r.name for r in results if not r.ok]
    lines.append(
        "make test: FAILED: " + " ".join(failed) if failed else "make test: all stages passed"
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.stages [--parallel N]`` (what ``make test`` runs)."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.stages",
        description="make test's stages, side by side where one does not need another.",
    )
    parser.add_argument(
        "--parallel", type=int, default=3, help="stages running at once (default 3; 1: in turn)"
    )
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        results = run_stages(parallel=args.parallel)
    except ValueError as exc:
        print(f"stages: {exc}", file=sys.stderr)
        return 2
    for line in summary(results, time.perf_counter() - t0):
        print(line, flush=True)
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
