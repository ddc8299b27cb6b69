"""Grade a folder of submissions safely: ``make grade CHAPTER=NN SUBMISSIONS=DIR``.

``otter run`` executes a student's notebook *and* its tests in one kernel, as the marker, with
no time limit: a notebook that patches the checker or ``builtins.abs`` scores full marks, one
that reads the hidden tests copies the answers, ``while True: pass`` never ends. Here the
two steps are apart:

1. **Run** (untrusted). Each submission's code cells run, in order, in a process of their own
   (:data:`RUNNER`), with a wall-clock limit (the process group is killed), a CPU-time, memory
   and file-size limit (``resource``), a fresh empty home and working folder, no network, and
   no view of the keys: where Linux lets an unprivileged process make its own namespaces
   (``unshare``), the keys' folder, the submissions folder, the book's package (its exercise
   keys) and the tests are covered by empty folders and the network is gone. The process ends
   by writing the values of the graded variables (numbers, yes/no and words only) to a file.
   An otter ``grader.check`` call does nothing there.
2. **Check** (trusted). This process compares those values with the keys, which the
   library computed when the assignment was built (``NN_keys.json`` in the instructor's
   assignments folder), using its own ``abs`` and comparisons: whatever the student's code
   patched died with its process.

The result is a gradebook (``gradebook.csv``: student, question, answer, points, possible,
reason) and a log of what failed (``log.txt``), in ``_build/grades/NN/``.

Examples
--------
>>> keys = {"q1": {"x": {"kind": "number", "expected": 0.5}}}
>>> [row.points for row in check_values("ann", keys, {"x": {"type": "number", "value": 0.5002}})]
[1.0]
>>> check_values("bob", keys, {"x": {"type": "str", "value": "0.5"}})[0].reason
'x is text, not a number'
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "MEMORY",
    "RUNNER",
    "SandboxError",
    "TIMEOUT",
    "GradeRow",
    "Isolation",
    "check_make_grade",
    "check_values",
    "grade_folder",
    "isolation",
    "main",
    "run_submission",
    "write_keys",
]

#: Seconds a submission may run, by default.
TIMEOUT = 60
#: Bytes of memory (address space) a submission may use, by default.
MEMORY = 4 * 2**30
#: Bytes a submission may write to a file (its output included).
FILE_SIZE = 16 * 2**20
#: Characters of a submission's output kept in the log.
LOG_CHARS = 1000

#: What runs a submission, in its own process: every code cell in order (IPython magics and
#: shell lines left out; an error is reported and the next cell runs), then the graded
#: variables' values, if plain, to the file named by the last argument.
RUNNER = r"""
import json, math, sys, types
notebook, names, out = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
open(out + ".started", "w").close()
otter = types.ModuleType("otter")
class Notebook:
    def __init__(self, *args, **kwargs):
        pass
    def __getattr__(self, name):
        return lambda *args, **kwargs: None
otter.Notebook = Notebook
sys.modules["otter"] = otter
with open(notebook, encoding="utf-8") as f:
    cells = json.load(f).get("cells", [])
scope = {"__name__": "__main__"}
for index, cell in enumerate(cells):
    if cell.get("cell_type") != "code":
        continue
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else str(source)
    lines = [l for l in source.splitlines() if not l.lstrip().startswith(("%", "!"))]
    try:
        exec(compile("\n".join(lines), f"<cell {index}>", "exec"), scope)
    except BaseException as error:
        print(f"cell {index}: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
values = {}
for name in names:
    if name not in scope:
        values[name] = {"type": "missing"}
        continue
    value = scope[name]
    kind = type(value).__name__
    try:
        if kind in ("bool", "bool_"):
            values[name] = {"type": "bool", "value": bool(value)}
        elif isinstance(value, str):
            values[name] = {"type": "str", "value": value[:200]}
        elif kind in ("int", "float") or getattr(value, "shape", None) == ():
            number = float(value)
            shown = number if math.isfinite(number) else str(number)
            values[name] = {"type": "number", "value": shown}
        else:
            values[name] = {"type": kind}
    except BaseException as error:
        values[name] = {"type": kind, "error": f"{type(error).__name__}"}
with open(out, "w", encoding="utf-8") as f:
    json.dump(values, f)
"""


# ---------------------------------------------------------------------------------------------
# the keys


def write_keys(
    chapter: str, path: str | os.PathLike[str], *, variant: int = 0
) -> dict[str, dict[str, dict]]:
    """Write the keys of chapter `chapter`'s graded questions to `path` (JSON): for each
    question, each answer's kind and the value the library computes
    (:func:`~fairbook_book.tooling.exercise_keys.expected_values`). The instructor's outputs
    hold this file; nothing a student installs does.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> keys = write_keys("03", pathlib.Path(tempfile.mkdtemp()) / "03_keys.json")
    >>> keys["ex_03_holes_by_hand"]["n_matrices"]
    {'kind': 'integer', 'expected': 56}
    """
    from fairbook_book.tooling.exercise_keys import GRADED, values_of
    from fairbook_book.tooling.variants import varied_key

    keys: dict[str, dict[str, dict]] = {}
    for label in GRADED:
        if label[3:5] != chapter[:2]:
            continue
        key = varied_key(label, variant)
        values = values_of(key)
        keys[key.question] = {
            answer.name: {"kind": answer.kind, "expected": _plain(values[answer.name])}
            for answer in key.answers
        }
    from fairbook.atomic import write_atomic

    text = json.dumps(keys, indent=1) + "\n"
    write_atomic(Path(path), lambda tmp: tmp.write_text(text, "utf-8"))
    return keys


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (JSON writes only those)."""
    if type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    if isinstance(value, str):
        return value
    number = float(value)
    return int(number) if float(number).is_integer() and not isinstance(value, float) else number


# ---------------------------------------------------------------------------------------------
# checking (trusted)


@dataclass(frozen=True)
class GradeRow:
    """One answer of one student: its points and why."""

    student: str
    question: str
    answer: str
    points: float
    possible: float
    reason: str


_TOLERANCE = 5e-4  # exercise_keys.TOLERANCE: numbers count when correct to three decimals


def _judge(kind: str, expected: Any, given: Mapping[str, Any], name: str) -> tuple[bool, str]:
    got = given.get("type")
    if got == "missing":
        return False, f"{name} is not set"
    if got not in ("number", "bool", "str"):
        detail = f" ({given['error']})" if "error" in given else ""
        return False, f"{name} is a {got}{detail}, not a plain value"
    value = given.get("value")
    if kind == "word":
        if got != "str":
            return False, f"{name} is not text"
        right = value.strip().lower() == str(expected).strip().lower()
        return right, "right" if right else f"{name} is not right"
    if kind == "yes/no":
        if got != "bool":
            return False, f"{name} is not True or False"
        right = value == bool(expected)
        return right, "right" if right else f"{name} is not right"
    if got == "str":
        return False, f"{name} is text, not a number"
    if got == "bool":
        return False, f"{name} is True or False, not a number"
    if not isinstance(value, float) or not math.isfinite(value):
        return False, f"{name} is not a finite number"
    right = (
        value == float(expected)
        if kind == "integer"
        else abs(value - float(expected)) <= _TOLERANCE
    )
    return right, "right" if right else f"{name} is not right"


def check_values(
    student: str,
    keys: Mapping[str, Mapping[str, Mapping]],
    values: Mapping[str, Mapping] | None,
    *,
    failure: str = "",
) -> list[GradeRow]:
    """The gradebook rows of one student from the values their run exported (None when it
    exported none: every answer gets 0 with `failure` as the reason)."""
    rows = []
    for question, answers in keys.items():
        for name, key in answers.items():
            if values is None:
                right, reason = False, failure or "the notebook exported no answers"
            else:
                right, reason = _judge(
                    key["kind"], key["expected"], values.get(name, {"type": "missing"}), name
                )
            rows.append(GradeRow(student, question, name, 1.0 if right else 0.0, 1.0, reason))
    return rows


# ---------------------------------------------------------------------------------------------
# running (untrusted)


@dataclass(frozen=True)
class Isolation:
    """How a submission is kept from the keys: ``"namespaces"`` (its own user, mount, PID
    and network namespaces: the hidden folders covered by empty ones it cannot unmount, no
    network, no privileges, no process of the marker's in sight), or ``"none"`` (only a fresh
    home and working folder: its code could read what the marker can)."""

    kind: str
    prefix: tuple[str, ...] = ()


def isolation() -> Isolation:
    """The strongest isolation this machine allows (tried once: ``unshare`` making a mount
    and a network namespace, as this user)."""
    unshare = shutil.which("unshare")
    if unshare and sys.platform.startswith("linux"):
        base = [
            unshare,
            "--user",
            "--map-root-user",
            "--mount",
            "--net",
            "--pid",
            "--fork",
            "--propagation",
            "private",
        ]
        try:
            probe = subprocess.run(
                [*base, "sh", "-c", f"exec {unshare} --user --mount true"],
                capture_output=True,
                timeout=10,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            probe = None
        if probe is not None and probe.returncode == 0:
            return Isolation("namespaces", tuple(base))
    return Isolation("none")


class SandboxError(RuntimeError):
    """The sandbox could not run a submission at all (not the submission's fault): grading
    stops rather than give anyone 0."""


def _limits(timeout: float, memory: int):
    def apply() -> None:
        import resource

        cpu = int(math.ceil(timeout)) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


#: Where the sandbox's own folder appears inside its mount namespace (it exists on every
#: Linux system); ``/tmp`` and the hidden folders are covered by empty ones.
MOUNT_POINT = Path("/mnt")


def _sandbox_script(top: Path, command: list[str], hide: Sequence[str | os.PathLike[str]]) -> str:
    """The shell script that, inside new mount and network namespaces, shows the sandbox
    folder `top` at :data:`MOUNT_POINT`, covers ``/tmp`` and every folder of `hide` (and the
    marker's home, unless the interpreter lives there) with empty ones, and runs `command`
    (its paths under `top` rewritten to the mount point)."""
    covers = [Path(p).resolve() for p in hide if Path(p).exists()]
    covers.append(Path(tempfile.gettempdir()).resolve())
    home = Path.home().resolve()
    if not Path(sys.executable).resolve().is_relative_to(home) and not Path(
        sys.prefix
    ).resolve().is_relative_to(home):
        covers.append(home)
    # never the interpreter, its environment or the library it imports (a checkout under
    # /tmp keeps /tmp in sight then; the keys inside the checkout are covered on their own)
    needed = [Path(sys.executable).resolve(), Path(sys.prefix).resolve(), Path(sys.executable)]
    spec = importlib.util.find_spec("fairbook")
    if spec and spec.submodule_search_locations:
        needed += [Path(p).resolve() for p in spec.submodule_search_locations]
    covers = [p for p in covers if not any(n == p or n.is_relative_to(p) for n in needed)]
    # a folder inside another covered one is hidden with it (and could not be mounted on)
    covers = [p for p in covers if not any(p != q and p.is_relative_to(q) for q in covers)]
    lines = ["set -e", f"mount --bind {_shell_quote(str(top))} {MOUNT_POINT}"]
    lines += [
        f"mount -t tmpfs -o size=1m,mode=755 none {_shell_quote(str(p))}"
        for p in dict.fromkeys(covers)
        if p != MOUNT_POINT
    ]
    inside = [part.replace(str(top), str(MOUNT_POINT)) for part in command]
    lines.append(f"cd {MOUNT_POINT / 'work'}")
    # a second user and mount namespace: there the covering mounts are locked (they cannot
    # be unmounted to show what they cover) and the code runs without privileges
    unshare = shutil.which("unshare") or "unshare"
    lines.append(
        f"exec {unshare} --user --mount " + " ".join(_shell_quote(part) for part in inside)
    )
    return "\n".join(lines)


def run_submission(
    notebook: str | os.PathLike[str],
    names: Sequence[str],
    *,
    timeout: float = TIMEOUT,
    memory: int = MEMORY,
    hide: Sequence[str | os.PathLike[str]] = (),
    how: Isolation | None = None,
) -> tuple[dict | None, str]:
    """Run one submission's code cells in a sandbox and return the values it left in
    `names` (None if it exported none) and a short log (why it failed, its errors).

    Parameters
    ----------
    notebook : path
    names : sequence of str
        The graded variables.
    timeout : float
        Seconds of wall-clock time (and of CPU time) it may take.
    memory : int
        Bytes of address space.
    hide : sequence of paths
        Folders its code must not see (covered by empty ones where namespaces are allowed).
    how : Isolation, optional
        Default: :func:`isolation`.
    """
    how = how or isolation()
    with tempfile.TemporaryDirectory(prefix="fairbook-sandbox-") as top:
        top = Path(top)
        work, home = top / "work", top / "home"
        work.mkdir()
        home.mkdir()
        shutil.copyfile(notebook, work / "submission.ipynb")
        (top / "runner.py").write_text(RUNNER, "utf-8")
        out = top / "values.json"
        command = [
            sys.executable,
            "-I",
            str(top / "runner.py"),
            str(work / "submission.ipynb"),
            json.dumps(list(names)),
            str(out),
        ]
        # the sandbox's folder as its code sees it: top itself, or the mount point
        seen = top
        if how.kind == "namespaces":
            command = [*how.prefix, "sh", "-c", _sandbox_script(top, command, hide)]
            seen = MOUNT_POINT
        environment = {
            "HOME": str(seen / "home"),
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
            "LANG": "C.UTF-8",
            "MPLBACKEND": "Agg",
            "OMP_NUM_THREADS": "1",
            "PYTHONHASHSEED": "0",
            "TMPDIR": str(seen / "work"),
        }
        started = time.monotonic()
        with open(top / "output.txt", "wb") as output:
            process = subprocess.Popen(
                command,
                cwd=work,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_limits(timeout, memory),
            )
            try:
                process.wait(timeout=timeout)
                why = None
            except subprocess.TimeoutExpired:
                why = f"stopped after {timeout:g} s (the time limit)"
            finally:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
        seconds = time.monotonic() - started
        text = (top / "output.txt").read_bytes()[:LOG_CHARS].decode("utf-8", "replace")
        if not Path(f"{out}.started").exists():  # the sandbox itself failed: grade no one
            raise SandboxError(
                f"the sandbox could not start a submission ({how.kind}): "
                + " ".join(text.split())[:300]
            )
        if why is None and (top / "output.txt").stat().st_size >= FILE_SIZE:
            why = f"stopped: it wrote more than {FILE_SIZE // 2**20} MiB (the output limit)"
            text = text[:200] + " ..."
        if why is None and process.returncode != 0:
            code = process.returncode
            named = {
                -signal.SIGXCPU: "the CPU-time limit",
                -signal.SIGKILL: "killed",
                -signal.SIGXFSZ: "the output limit",
                1: "an error",
            }
            why = f"ended by {named.get(code, f'exit status {code}')}"
        values = None
        if why is None:
            try:
                values = json.loads(out.read_text("utf-8"))
                if not isinstance(values, dict):
                    values, why = None, "its exported answers are not a table"
            except (OSError, ValueError):
                why = "it exported no answers"
        log = f"{seconds:.1f} s; isolation: {how.kind}"
        if why:
            log += f"; {why}"
        if text.strip():
            log += "\n" + text.strip()
        return values, log


def grade_folder(
    keys: Mapping[str, Mapping[str, Mapping]],
    submissions: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    timeout: float = TIMEOUT,
    memory: int = MEMORY,
    hide: Sequence[str | os.PathLike[str]] = (),
    echo=print,
) -> list[GradeRow]:
    """Grade every ``*.ipynb`` in `submissions` against `keys`; write ``gradebook.csv`` and
    ``log.txt`` into `out` (created). The student is the notebook's file name."""
    submissions, out = Path(submissions), Path(out)
    notebooks = sorted(submissions.glob("*.ipynb"))
    if not notebooks:
        raise ValueError(f"no notebooks (*.ipynb) in {submissions}")
    out.mkdir(parents=True, exist_ok=True)
    names = [name for answers in keys.values() for name in answers]
    how = isolation()
    hidden = [*hide, submissions, out]
    rows: list[GradeRow] = []
    logs = []
    for notebook in notebooks:
        values, log = run_submission(
            notebook, names, timeout=timeout, memory=memory, hide=hidden, how=how
        )
        first = log.splitlines()[0]
        failure = first.split("; ", 2)[2] if first.count("; ") >= 2 else ""
        mine = check_values(notebook.stem, keys, values, failure=failure)
        rows += mine
        total = sum(r.points for r in mine)
        echo(f"[grade] {notebook.name}: {total:g} of {len(mine)} ({first})", flush=True)
        logs.append(f"== {notebook.name}: {total:g} of {len(mine)}\n{log}\n")
    import pandas as pd

    from fairbook.safe_csv import write_csv

    # a file name is the student: one that starts like a formula is written as text
    table = pd.DataFrame(
        [(r.student, r.question, r.answer, r.points, r.possible, r.reason) for r in rows],
        columns=["student", "question", "answer", "points", "possible", "reason"],
    )
    write_csv(table, out / "gradebook.csv", index=False)
    from fairbook.atomic import write_atomic

    write_atomic(out / "log.txt", lambda tmp: tmp.write_text("\n".join(logs), "utf-8"))
    return rows


def check_make_grade(root: str | os.PathLike[str] | None = None, *, timeout: float = 10) -> str:
    """What ``make test`` asks of ``make grade``: chapter 01's instructor solution and a copy
    that ends in an endless loop, graded as ``make grade`` grades them, give full marks and 0,
    within the time limit. Returns one line; raises ``AssertionError`` otherwise."""
    import nbformat

    from fairbook_book.tooling.chapters import BookPaths, find_root

    paths = BookPaths(find_root(root))
    solution = paths.build / "editions" / "instructor" / "assignments" / "01_exercises.ipynb"
    folder = paths.build / "grade-check"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shutil.copyfile(solution, folder / "correct.ipynb")
    endless = nbformat.read(solution, as_version=4)
    endless.cells.append(nbformat.v4.new_code_cell("while True:\n    pass"))
    nbformat.write(endless, folder / "endless.ipynb")
    out = paths.build / "grades" / "01-check"
    started = time.monotonic()
    argv = ["--chapter", "01", "--submissions", str(folder), "--timeout", str(timeout)]
    assert main([*argv, "--out", str(out)]) == 0
    seconds = time.monotonic() - started
    import pandas as pd

    book = pd.read_csv(out / "gradebook.csv").groupby("student")[["points", "possible"]].sum()
    assert book.loc["correct", "points"] == book.loc["correct", "possible"] > 0, book
    assert book.loc["endless", "points"] == 0, book
    assert seconds < timeout + 30, f"make grade took {seconds:.0f} s with TIMEOUT={timeout:g}"
    return (
        f"make grade: the solution {book.loc['correct', 'points']:g} of "
        f"{book.loc['correct', 'possible']:g}, the endless notebook 0, in {seconds:.0f} s "
        f"(TIMEOUT={timeout:g}; isolation: {isolation().kind})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.grading --chapter NN --submissions DIR``."""
    from fairbook_book.tooling.chapters import BookPaths, find_root

    parser = argparse.ArgumentParser(
        prog="make grade",
        description="Grade a folder of submitted notebooks of one chapter's assignment: each "
        "runs alone with time and memory limits and no view of the keys; the answers are "
        "checked afterwards, in this process.",
    )
    parser.add_argument("--chapter", required=True, help="the chapter number (01 to 10)")
    parser.add_argument("--submissions", required=True, help="folder of submitted .ipynb files")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per notebook")
    parser.add_argument("--memory-gb", type=float, default=MEMORY / 2**30, help="GiB per notebook")
    parser.add_argument("--editions", default="_build/editions", help="where make student wrote")
    parser.add_argument("--out", help="where the gradebook goes (default _build/grades/NN)")
    args = parser.parse_args(argv)
    number = args.chapter.strip()[:2]
    if not (number.isdigit() and len(number) == 2):
        parser.exit(
            2, f"make grade: CHAPTER={args.chapter}: give the chapter's two digits, e.g. 01\n"
        )
    if not (0 < args.timeout <= 3600) or not (0.25 <= args.memory_gb <= 256):
        parser.exit(2, "make grade: TIMEOUT must be 1 to 3600 s and the memory 0.25 to 256 GiB\n")
    paths = BookPaths(find_root())
    editions = Path(args.editions)
    keys_file = editions / "instructor" / "assignments" / f"{number}_keys.json"
    try:
        keys = json.loads(keys_file.read_text("utf-8"))
    except (OSError, ValueError):
        parser.exit(2, f"make grade: no keys at {keys_file}: run make student first\n")
    if not keys:
        parser.exit(2, f"make grade: chapter {number} has no autograded question\n")
    out = Path(args.out) if args.out else paths.build / "grades" / number
    # the keys (instructor's editions), everything built (_build), the book's package (its
    # exercise keys) and the tests: a submission needs the library only
    hide = [
        editions / "instructor",
        paths.build,
        paths.root / "fairbook-book",
        paths.root / "tests",
    ]
    try:
        rows = grade_folder(
            keys,
            args.submissions,
            out,
            timeout=args.timeout,
            memory=int(args.memory_gb * 2**30),
            hide=hide,
        )
    except (ValueError, OSError, SandboxError) as exc:
        parser.exit(2, f"make grade: {exc}\n")
    students = len({r.student for r in rows})
    print(
        f"[grade] {students} notebooks graded: {out / 'gradebook.csv'}; "
        f"what failed: {out / 'log.txt'}"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--check-make-grade"]:
        print(check_make_grade())
        sys.exit(0)
    sys.exit(main())
