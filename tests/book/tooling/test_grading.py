"""Tests of :mod:`fairbook_book.tooling.grading` (``make grade``): a correct notebook gets full
marks; hostile ones (a patched checker, patched builtins, one that reads the keys where they
are, an endless loop, endless output) gain nothing and end within the time limit."""

import csv
import json
import time

import nbformat
import pytest

from fairbook_book.tooling import grading

RIGHT = "tpr = 2 / 5\nfpr = 1 / 7\nppv = 2 / 3\nbenefit = (1 - 3) / 12"
ZERO = "tpr = 0.0\nfpr = 0.0\nppv = 0.0\nbenefit = 0.0"
TIMEOUT = 8


def _submission(folder, name, *cells):
    init = "# Initialize Otter\nimport otter\ngrader = otter.Notebook('01_exercises.ipynb')"
    check = 'grader.check("ex_01_rates_by_hand")'
    sources = [init, *cells, check]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in sources])
    nbformat.write(notebook, folder / f"{name}.ipynb")


@pytest.fixture
def course(tmp_path):
    """Chapter 01's keys where make student writes them, and a folder of submissions."""
    editions = tmp_path / "editions"
    keys = editions / "instructor" / "assignments" / "01_keys.json"
    keys.parent.mkdir(parents=True)
    grading.write_keys("01", keys)
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    return editions, keys, submissions


def _grade(editions, submissions, out, capsys):
    started = time.monotonic()
    argv = ["--chapter", "01", "--submissions", str(submissions), "--timeout", str(TIMEOUT)]
    assert grading.main([*argv, "--editions", str(editions), "--out", str(out)]) == 0
    seconds = time.monotonic() - started
    with open(out / "gradebook.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    scores: dict[str, float] = {}
    for row in rows:
        scores[row["student"]] = scores.get(row["student"], 0.0) + float(row["points"])
    return scores, seconds, (out / "log.txt").read_text(), capsys.readouterr().out


def test_a_correct_and_an_endless_notebook_are_graded_within_the_limit(course, tmp_path, capsys):
    editions, _, submissions = course
    _submission(submissions, "ann", RIGHT)
    _submission(submissions, "bob", RIGHT, "while True:\n    pass")
    scores, seconds, log, out = _grade(editions, submissions, tmp_path / "grades", capsys)
    assert scores == {"ann": 4.0, "bob": 0.0}
    assert seconds < 2 * TIMEOUT + 20  # bob stopped at the limit
    assert f"stopped after {TIMEOUT} s (the time limit)" in log
    assert "2 notebooks graded" in out


def test_hostile_notebooks_gain_nothing(course, tmp_path, capsys):
    editions, keys, submissions = course
    if grading.isolation().kind != "namespaces":
        pytest.skip("this machine allows no namespaces: a submission could read the keys")
    _submission(
        submissions,
        "patched_builtins",
        "import builtins\nbuiltins.abs = lambda x: 0\nbuiltins.float = lambda x=0: 0.0\n" + ZERO,
    )
    _submission(
        submissions,
        "patched_checker",
        "import json, otter\notter.Notebook.check = lambda *a, **k: True\n"
        "_dump = json.dump\n"
        "json.dump = lambda o, f, **k: _dump({n: {'type': 'number', 'value': 0.0} for n in o}, f)\n"
        + ZERO,
    )
    # a student who knows exactly where the keys are, and the book's key module
    reader = (
        "import json, os\nfound = {}\n"
        f"for path in [{str(keys)!r}, os.path.expanduser('~/01_keys.json')]:\n"
        "    try:\n"
        "        for q in json.load(open(path)).values():\n"
        "            found.update({k: v['expected'] for k, v in q.items()})\n"
        "    except Exception as e:\n"
        "        print('cannot read', path, type(e).__name__)\n"
        "try:\n"
        "    from fairbook_book.tooling.exercise_keys import expected_values\n"
        "    found.update(expected_values('ex-01-rates-by-hand'))\n"
        "except Exception as e:\n"
        "    print('no key module:', type(e).__name__)\n"
        "import subprocess\n"
        "try:\n"
        f"    subprocess.run(['umount', {str(keys.parent.parent)!r}], check=True)\n"
        "    print('UNMOUNTED')\n"
        "except Exception as e:\n"
        "    print('cannot unmount', type(e).__name__)\n"
        "tpr, fpr = found.get('tpr', ...), found.get('fpr', ...)\n"
        "ppv, benefit = found.get('ppv', ...), found.get('benefit', ...)"
    )
    _submission(submissions, "reads_the_keys", reader)
    _submission(
        submissions, "huge_output", "import sys\nwhile True:\n    sys.stdout.write('x' * 10**6)"
    )
    _submission(submissions, "endless", ZERO, "while True:\n    pass")
    scores, seconds, log, _ = _grade(editions, submissions, tmp_path / "grades", capsys)
    assert scores == dict.fromkeys(
        ["endless", "huge_output", "patched_builtins", "patched_checker", "reads_the_keys"], 0.0
    )
    assert "cannot read" in log and "no key module: ModuleNotFoundError" in log
    assert "UNMOUNTED" not in log and "cannot unmount" in log
    assert "the output limit" in log
    assert seconds < 2 * TIMEOUT + 30


@pytest.mark.parametrize(
    ("kind", "expected", "given", "right", "reason"),
    [
        ("number", 0.4, {"type": "number", "value": 0.4004}, True, "right"),
        ("number", 0.4, {"type": "number", "value": 0.41}, False, "x is not right"),
        ("number", 0.4, {"type": "bool", "value": True}, False, "x is True or False, not a number"),
        ("number", 0.4, {"type": "number", "value": "nan"}, False, "x is not a finite number"),
        ("integer", 56, {"type": "number", "value": 56.0}, True, "right"),
        ("yes/no", True, {"type": "number", "value": 1.0}, False, "x is not True or False"),
        ("word", "j", {"type": "str", "value": " J "}, True, "right"),
        ("word", "j", {"type": "Ellipsis"}, False, "x is a Ellipsis, not a plain value"),
        ("number", 0.4, {"type": "missing"}, False, "x is not set"),
    ],
)
def test_values_are_judged_in_this_process(kind, expected, given, right, reason):
    keys = {"q": {"x": {"kind": kind, "expected": expected}}}
    (row,) = grading.check_values("s", keys, {"x": given})
    assert (row.points == 1.0, row.reason) == (right, reason)


def test_the_keys_are_the_librarys_values(tmp_path):
    keys = grading.write_keys("02", tmp_path / "k.json")
    assert json.loads((tmp_path / "k.json").read_text()) == keys
    assert keys["ex_02_ofi_by_hand"]["favoured"] == {"kind": "word", "expected": "j"}
    assert keys["ex_02_ofi_by_hand"]["ofi"]["expected"] == pytest.approx(-0.15)


def test_bad_arguments_are_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        grading.main(["--chapter", "x1", "--submissions", str(tmp_path)])
    assert stop.value.code == 2 and "two digits" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        grading.main(
            ["--chapter", "01", "--submissions", str(tmp_path), "--editions", str(tmp_path)]
        )
    assert "run make student first" in capsys.readouterr().err


def test_a_term_variants_keys_are_its_own(tmp_path):
    book = grading.write_keys("01", tmp_path / "book.json")
    term = grading.write_keys("01", tmp_path / "term.json", variant=7)
    for name in ("tpr", "fpr", "ppv", "benefit"):
        assert book["ex_01_rates_by_hand"][name] != term["ex_01_rates_by_hand"][name]


def test_a_folder_inside_a_covered_one_is_not_mounted_on(tmp_path, monkeypatch):
    monkeypatch.setattr(grading.tempfile, "gettempdir", lambda: "/elsewhere")
    inner = tmp_path / "build" / "grades" / "01"
    inner.mkdir(parents=True)
    script = grading._sandbox_script(tmp_path / "top", ["python"], [tmp_path / "build", inner])
    assert f"none '{tmp_path / 'build'}'" in script and str(inner) not in script


def test_a_sandbox_that_cannot_start_grades_no_one(course, tmp_path):
    _, _, submissions = course
    _submission(submissions, "ann", RIGHT)
    broken = grading.Isolation("namespaces", ("false",))
    with pytest.raises(grading.SandboxError, match="could not start"):
        grading.run_submission(submissions / "ann.ipynb", ["tpr"], how=broken)


def test_the_interpreters_folder_is_never_covered(tmp_path, monkeypatch):
    """A checkout under /tmp (as CI's) keeps its virtual environment in sight."""
    python = tmp_path / "checkout" / ".venv" / "bin" / "python"
    monkeypatch.setattr(grading.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(grading.sys, "executable", str(python))
    keys = tmp_path / "checkout" / "_build"
    keys.mkdir(parents=True)
    script = grading._sandbox_script(tmp_path / "top", [str(python)], [keys])
    assert f"none '{keys}'" in script and f"none '{tmp_path}'\n" not in script
