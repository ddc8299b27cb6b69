"""Tests of :mod:`fairbook_book.tooling.stages`: make test's stages run side by side, none
before what it waits for, never more than allowed at once, every one even after a failure."""

import re
import threading
import time
from pathlib import Path

import pytest

from fairbook_book.tooling import stages

ROOT = Path(__file__).resolve().parents[3]


def test_every_stage_is_a_make_target_and_make_test_runs_them_all():
    makefile = (ROOT / "Makefile").read_text("utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, flags=re.MULTILINE))
    assert set(stages.STAGES) <= targets
    recipe = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    assert "fairbook_book.tooling.stages" in recipe
    # what make test checked one stage after another before, it checks now
    assert set(stages.STAGES) == {
        "lint", "typecheck", "wheel", "grader-venv", "data", "unit", "html", "nbval",
        "nbval-changed", "editions", "grader", "pdf", "slides", "pagecheck", "labcheck",
    }  # fmt: skip


def test_the_waits_keep_readers_after_writers():
    order = stages.schedule_order(stages.STAGES, stages.PRIORITY)
    before = {name: i for i, name in enumerate(order)}
    for name, waits in stages.STAGES.items():
        assert all(before[w] < before[name] for w in waits), name
    # the unit tests see no built book (as on a fresh clone); readers of the book wait for it
    assert before["unit"] < before["html"]
    for reader in ("nbval", "editions", "pdf", "slides", "pagecheck", "labcheck", "grader"):
        assert before["html"] < before[reader]


def test_a_bad_plan_is_refused_before_anything_runs():
    ran = []

    def run(name):
        ran.append(name)
        return 0, ""

    with pytest.raises(ValueError, match="unknown stages: z"):
        stages.run_stages({"a": ("z",)}, ["a"], run=run)
    with pytest.raises(ValueError, match="cycle among: a, b"):
        stages.run_stages({"a": ("b",), "b": ("a",)}, ["a", "b"], run=run)
    with pytest.raises(ValueError, match="every stage exactly once"):
        stages.run_stages({"a": (), "b": ()}, ["a"], run=run)
    with pytest.raises(ValueError, match="parallel"):
        stages.run_stages({"a": ()}, ["a"], run=run, parallel=0)
    assert ran == []


@pytest.mark.parametrize("parallel", [1, 2, 3, 5])
def test_no_stage_starts_before_its_waits_end_nor_more_than_allowed_at_once(parallel):
    plan = dict(stages.STAGES)
    lock = threading.Lock()
    events: list[tuple[float, str, str]] = []
    now = {"running": 0, "most": 0}

    def run(name):
        with lock:
            now["running"] += 1
            now["most"] = max(now["most"], now["running"])
            events.append((time.perf_counter(), "start", name))
        time.sleep(0.01 * (1 + len(name) % 3))
        with lock:
            now["running"] -= 1
            events.append((time.perf_counter(), "end", name))
        return (1 if name == "unit" else 0), f"{name} says hello\n"

    printed: list[str] = []
    results = stages.run_stages(
        plan, stages.PRIORITY, parallel=parallel, run=run, echo=lambda *a, **k: printed.append(a[0])
    )
    assert sorted(r.name for r in results) == sorted(plan)  # every stage ran once
    assert now["most"] <= parallel and (parallel == 1 or now["most"] > 1)
    when = {(kind, name): t for t, kind, name in events}
    for name, waits in plan.items():
        for w in waits:
            assert when[("end", w)] <= when[("start", name)], (w, name)
    # a failed stage stops nothing that waits for it, and is named in the summary
    assert [r.name for r in results if not r.ok] == ["unit"]
    assert any("html says hello" in line for line in printed)
    lines = stages.summary(results, 1.0)
    assert lines[-1] == "make test: FAILED: unit"
    assert sum(line.startswith("[stages] ") for line in lines) == len(plan) + 2


def test_a_stage_that_cannot_start_fails_alone():
    def run(name):
        if name == "b":
            raise OSError("no make here")
        return 0, ""

    results = stages.run_stages(
        {"a": (), "b": (), "c": ("b",)}, ["a", "b", "c"], run=run, echo=lambda *a, **k: None
    )
    assert {r.name: r.ok for r in results} == {"a": True, "b": False, "c": True}
    assert "OSError: no make here" in next(r.output for r in results if r.name == "b")
    assert stages.summary(results, 0.0)[-1] == "make test: FAILED: b"
