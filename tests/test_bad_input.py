"""The bad-input suite: every public counting entry point and ``fairbook audit``, tried as a
hostile or careless user would.

This module mirrors no single file of ``src``: it is the table of issue 14's "unusual inputs"
(booleans, text, absent labels, empty files, huge sparse values, spreadsheet formulas, control
characters, unreadable paths) with what each must give -- a value, or an error of a named type
whose message names the problem -- plus hypothesis properties shared by all counting paths.
The command line must never show a traceback: bad input ends with exit status 2 and one line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.audit import audit
from fairbook.confusion import confusion_counts, multiclass_counts
from fairbook.metrics import bias_report, compare, compute
from fairbook_book.cli import main  # the library's commands and the book's

# ------------------------------------------------------------------ the library, as a table
LIBRARY_ERRORS = [
    # (label, call, fragment of the ValueError's message)
    ("scalar labels", lambda: confusion_counts(1, 1), "one-dimensional"),
    ("2-D labels", lambda: confusion_counts([[1, 0]], [[1, 0]]), "one-dimensional"),
    ("lengths differ", lambda: confusion_counts([1, 0], [1]), "differ in length"),
    ("NaN label", lambda: confusion_counts([1.0, np.nan], [1.0, 0.0]), "missing value"),
    ("None group", lambda: confusion_counts([1, 0], [1, 0], [None, "a"]), "missing value"),
    ("three labels", lambda: confusion_counts([0, 1, 2], [0, 1, 1]), "labels other than"),
    ("absent positive", lambda: confusion_counts([0, 1], [0, 1], positive=2), "occurs in neither"),
    ("fractional positive", lambda: confusion_counts([0, 1], [0, 1], positive=0.5), "whole"),
    ("text positive, int labels", lambda: confusion_counts([0, 1], [0, 1], positive="1"), "number"),
    ("int positive, text labels", lambda: confusion_counts(["0", "1"], ["1", "1"]), "did you"),
    ("bool labels, positive 2", lambda: confusion_counts([True], [False], positive=2), "boolean"),
    ("list positive", lambda: confusion_counts([0, 1], [0, 1], positive=[1]), "single label"),
    (
        "unorderable groups",
        lambda: confusion_counts([0, 1], [0, 1], np.array([1, "a"], dtype=object)),
        "cannot be ordered",
    ),
    (
        "scores as classes",
        lambda: multiclass_counts(np.arange(12_000.0), np.zeros(12_000)),
        "scores",
    ),
    ("compute: 3 cells", lambda: compute("TPR", [1, 2, 3]), "length 4"),
    ("compute: negative", lambda: compute("TPR", [1, -2, 3, 4]), "negative"),
    ("compute: text", lambda: compute("TPR", ["a", "b", "c", "d"]), "numeric"),
    ("compute: NaN", lambda: compute("TPR", [np.nan, 1, 1, 1]), "non-finite"),
    ("compute: unknown", lambda: compute("XYZ", [1, 1, 1, 1]), "unknown metric"),
    ("compare: unknown", lambda: compare("NOPE", [1, 0, 0, 0], [1, 0, 0, 0]), "unknown"),
    ("compare: inf", lambda: compare("OFI", [np.inf, 1, 1, 1], [1, 1, 1, 1]), "non-finite"),
    ("bias_report: one group", lambda: bias_report([1, 0], [1, 0], ["a", "a"]), "two groups"),
    ("bias_report: empty", lambda: bias_report([], [], []), "two groups"),
    (
        "bias_report: absent positive",
        lambda: bias_report([1, 0], [1, 0], ["a", "b"], positive=7),
        "not among the labels",
    ),
    ("audit: empty", lambda: audit([], [], []), "no rows"),
    ("audit: absent positive", lambda: audit([0, 0], [0, 0], ["a", "b"]), "occurs in neither"),
    ("audit: bad reference", lambda: audit([1, 0], [1, 0], ["a", "b"], reference="z"), "'z'"),
    (
        "audit: reference of wrong type",
        lambda: audit([1, 0], [1, 0], [1, 2], reference="1"),
        "not a number",
    ),
]


@pytest.mark.parametrize(
    ("call", "fragment"),
    [case[1:] for case in LIBRARY_ERRORS],
    ids=[case[0] for case in LIBRARY_ERRORS],
)
def test_library_refuses_with_a_message(call, fragment):
    with pytest.raises(ValueError, match=fragment) as info:
        call()
    assert "np.int64" not in str(info.value) and "np.str_" not in str(info.value)


LIBRARY_VALUES = [
    # (label, call, expected) -- unusual but meaningful input gives the right answer
    ("bool labels", lambda: confusion_counts([True, False], [True, True]).tolist(), [1, 0, 1, 0]),
    (
        "bool, positive=True",
        lambda: confusion_counts([True], [True], positive=True).tolist(),
        [1, 0, 0, 0],
    ),
    (
        "constant, non-adjacent",
        lambda: confusion_counts([0, 0], [5, 5], positive=0).tolist(),
        [0, 2, 0, 0],
    ),
    ("all one negative label", lambda: confusion_counts([3, 3], [3, 3]).tolist(), [0, 0, 0, 2]),
    ("empty", lambda: confusion_counts([], []).tolist(), [0, 0, 0, 0]),
    (
        "huge sparse groups",
        lambda: confusion_counts([1, 0], [1, 1], [-(2**62), 2**62]).tolist(),
        [[1, 0, 0, 0], [0, 0, 1, 0]],
    ),
    (
        "formula-like labels",
        lambda: confusion_counts(["=1", "=0"], ["=1", "=1"], positive="=1").tolist(),
        [1, 0, 1, 0],
    ),
    (
        "bias_report on booleans",
        lambda: bias_report(
            [True, False, True, False],
            [True, True, False, False],
            ["a", "a", "b", "b"],
            positive=1,
        ).index.tolist(),
        [True],
    ),
    ("compute: undefined is NaN", lambda: bool(np.isnan(compute("TPR", [0, 0, 3, 4]))), True),
]


@pytest.mark.parametrize(
    ("call", "expected"),
    [case[1:] for case in LIBRARY_VALUES],
    ids=[case[0] for case in LIBRARY_VALUES],
)
def test_library_answers_unusual_input(call, expected):
    assert call() == expected


# ------------------------------------------------------------------ the command line, as a table
def _csv(text: str):
    return _bytes(text.encode("utf-8"))


def _bytes(data: bytes, suffix: str = ".csv"):
    def write(path):
        target = path.with_suffix(suffix)
        target.write_bytes(data)
        return target

    return write


def _folder(path):
    path.mkdir()
    return path


BINARY = "y_true,y_pred,group\n1,1,a\n0,1,a\n1,0,b\n0,0,b\n"

CLI_ERRORS = [
    # (label, make the input file, extra arguments, fragment of the one-line error)
    ("no such file", lambda p: p / "nope.csv", [], "not found"),
    ("a folder", _folder, [], "is a folder"),
    ("empty file", _bytes(b""), [], "is empty"),
    ("header only", _csv("y_true,y_pred,group\n"), [], "no rows"),
    ("missing column", _csv("y_true,y_pred\n1,1\n"), [], "missing column"),
    ("missing value", _csv("y_true,y_pred,group\n1,,a\n0,1,b\n"), [], "missing values"),
    ("not UTF-8", _bytes(b"y_true,y_pred,group\n1,1,\xff\xfe\n"), [], "not UTF-8"),
    ("ragged rows", _csv('y_true,y_pred,group\n1,1,a\n0,1,"b\n'), [], "CSV"),
    ("three labels", _csv("y_true,y_pred,group\n0,1,a\n2,1,b\n"), [], "labels other than"),
    ("probabilities", _csv("y_true,y_pred,group\n1,0.7,a\n0,0.2,b\n"), [], "labels other than"),
    ("--positive absent", _csv(BINARY), ["--positive", "2"], "occurs in neither"),
    ("--positive fraction", _csv(BINARY), ["--positive", "1.5"], "not a whole number"),
    ("--positive text", _csv(BINARY), ["--positive", "yes"], "not a number"),
    (
        "--positive on booleans",
        _csv("y_true,y_pred,group\nTrue,False,a\nFalse,False,b\n"),
        ["--positive", "maybe"],
        "not true or false",
    ),
    ("--reference absent", _csv(BINARY), ["--reference", "z"], "not among the groups"),
    (
        # group columns of a CSV are text (issue 48): "x" is simply not one of "1" and "2"
        "--reference of numeric-looking groups",
        _csv(BINARY.replace(",a", ",1").replace(",b", ",2")),
        ["--reference", "x"],
        "not among the groups",
    ),
    ("corrupt Parquet", _bytes(b"PAR1 not really", ".parquet"), [], "as Parquet"),
    (
        "--output folder missing",
        _csv(BINARY),
        ["--output", "{tmp}/no/such/out.csv"],
        "does not exist",
    ),
    ("--output is a folder", _csv(BINARY), ["--output", "{tmp}"], "is a folder"),
]


@pytest.mark.parametrize(
    ("make", "extra", "fragment"),
    [case[1:] for case in CLI_ERRORS],
    ids=[case[0] for case in CLI_ERRORS],
)
def test_cli_bad_input_exits_2_with_one_line(tmp_path, capsys, make, extra, fragment):
    path = make(tmp_path / "input")
    args = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    with pytest.raises(SystemExit) as info:
        main(["audit", str(path), *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert fragment in err, err


def test_cli_booleans_text_labels_and_na_groups(tmp_path, capsys):
    path = tmp_path / "bools.csv"
    path.write_text("y_true,y_pred,group\nTrue,True,NA\nFalse,True,NA\nTrue,False,b\n")
    assert main(["audit", str(path), "--positive", "true"]) == 0
    out = capsys.readouterr().out
    assert "Positive label: True" in out
    assert "NA" in out  # a group called NA is a group, not a missing value
    text = tmp_path / "text.csv"
    text.write_text("y_true,y_pred,group\nyes,yes,a\nno,yes,a\nyes,no,b\n")
    assert main(["audit", str(text), "--positive", "yes"]) == 0


def test_cli_formula_and_control_characters_in_group_names(tmp_path, capsys):
    path = tmp_path / "hostile.csv"
    pd.DataFrame(
        {
            "y_true": [1, 0, 1, 0],
            "y_pred": [1, 1, 0, 0],
            "group": ['=HYPERLINK("http://x")', '=HYPERLINK("http://x")', "ok\x1b[2J", "ok\x1b[2J"],
        }
    ).to_csv(path, index=False)
    out_csv = tmp_path / "out.csv"
    assert main(["audit", str(path), "--output", str(out_csv)]) == 0
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and "\\x1b" in shown  # escaped for the terminal
    written = pd.read_csv(out_csv, index_col=0)
    assert all(not str(g).startswith(("=", "+", "-", "@")) for g in written.index)
    assert '\'=HYPERLINK("http://x")' in written.index


@pytest.mark.parametrize("suffix", [".parquet", ".pq", ".PARQUET"])
def test_cli_reads_parquet_by_suffix_in_any_case(tmp_path, capsys, suffix):
    path = tmp_path / f"preds{suffix}"
    pd.DataFrame(
        {"y_true": [1, 0, 1, 0], "y_pred": [1, 1, 0, 0], "group": list("aabb")}
    ).to_parquet(path)
    assert main(["audit", str(path)]) == 0
    assert "OFI" in capsys.readouterr().out


# ------------------------------------------------------------------ properties of every path
rows_strategy = st.lists(
    st.tuples(st.booleans(), st.booleans(), st.integers(0, 5)), min_size=1, max_size=60
)


@settings(max_examples=60, deadline=None)
@given(rows_strategy, st.randoms(use_true_random=False))
def test_counts_sum_to_n_and_ignore_row_order_and_group_names(rows, rnd):
    y_true, y_pred, groups = (np.array(c) for c in zip(*rows, strict=True))
    counts, labels = confusion_counts(y_true, y_pred, groups, positive=True, return_groups=True)
    assert counts.sum() == len(rows) and (counts >= 0).all()
    order = np.array(rnd.sample(range(len(rows)), len(rows)))
    shuffled = confusion_counts(y_true[order], y_pred[order], groups[order], positive=True)
    np.testing.assert_array_equal(shuffled, counts)
    renamed = np.array([f"group {9 - g}" for g in groups])  # a bijection that reverses order
    counts_r, labels_r = confusion_counts(
        y_true, y_pred, renamed, positive=True, return_groups=True
    )
    by_name = dict(zip(labels_r.tolist(), counts_r.tolist(), strict=True))
    for label, row in zip(labels.tolist(), counts.tolist(), strict=True):
        assert by_name[f"group {9 - label}"] == row


DENOMINATORS = {
    "ACC": lambda tp, fn, fp, tn: tp + fn + fp + tn,
    "PREV": lambda tp, fn, fp, tn: tp + fn + fp + tn,
    "PPR": lambda tp, fn, fp, tn: tp + fn + fp + tn,
    "TPR": lambda tp, fn, fp, tn: tp + fn,
    "FNR": lambda tp, fn, fp, tn: tp + fn,
    "FPR": lambda tp, fn, fp, tn: fp + tn,
    "TNR": lambda tp, fn, fp, tn: fp + tn,
    "PPV": lambda tp, fn, fp, tn: tp + fp,
    "FDR": lambda tp, fn, fp, tn: tp + fp,
    "NPV": lambda tp, fn, fp, tn: fn + tn,
    "FOR": lambda tp, fn, fp, tn: fn + tn,
    "F1": lambda tp, fn, fp, tn: 2 * tp + fn + fp,
}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_nan_exactly_where_a_rate_is_undefined(cm):
    for name, denominator in DENOMINATORS.items():
        assert bool(np.isnan(compute(name, cm))) == (denominator(*cm) == 0), (name, cm)


# ------------------------------------------------------------------ issue 37: the audit's input
def _audit_cli(capsys, path, *options):
    status = main(["audit", str(path), *options])
    return status, capsys.readouterr()


AUDIT_FILES_REFUSED = [
    # (label, file text, options, fragment of the one-line error)
    ("y_pred twice", "y_true,y_pred,group,y_pred\n1,1,a,0\n0,0,b,1\n", [], "2 columns named"),
    ("group twice", "y_true,y_pred,group,group\n1,1,a,x\n0,0,b,y\n", [], "2 columns named"),
    (
        "runs glob takes y_true",
        "y_true,y_pred,group\n1,1,a\n0,0,b\n",
        ["--runs", "y_*"],
        "also matches 'y_true'",
    ),
    (
        "stray ? in y_true",
        "y_true,y_pred,group\n1,1,a\n?,0,b\n0,1,b\n",
        [],
        "y_true holds text among its numbers: '?'",
    ),
    (
        "stray text in y_pred",
        "y_true,y_pred,group\n1,1,a\n0,x,b\n0,1,b\n",
        [],
        "y_pred holds text among its numbers",
    ),
    ("NUL in y_true", "y_true,y_pred,group\n1,1,a\n0\x00,0,b\n", [], "NUL byte"),
    ("NUL in a group", "y_true,y_pred,group\n1,1,a\n0,0,b\x00c\n", [], "NUL byte"),
    (
        "alpha 1e-320",
        "y_true,y_pred,group\n1,1,a\n0,0,b\n",
        ["--alpha", "1e-320"],
        "too small to test at",
    ),
]


@pytest.mark.parametrize(
    ("text", "options", "fragment"),
    [case[1:] for case in AUDIT_FILES_REFUSED],
    ids=[case[0] for case in AUDIT_FILES_REFUSED],
)
def test_audit_refuses_ambiguous_input_in_one_line(tmp_path, capsys, text, options, fragment):
    path = tmp_path / "p.csv"
    path.write_bytes(text.encode())
    with pytest.raises(SystemExit) as info:
        _audit_cli(capsys, path, *options)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("rows", ["1,1,a\n", "1,1,a\n0,0,a\n1,0,a\n"], ids=["one row", "one group"])
def test_audit_one_row_or_one_group_reports(tmp_path, capsys, rows):
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred,group\n" + rows)
    status, out = _audit_cli(capsys, path)
    assert status == 0 and "Nothing to compare" in out.out


def test_audit_labels_near_2_64_with_positive(tmp_path, capsys):
    top = 2**64 - 1
    path = tmp_path / "p.csv"
    path.write_text(f"y_true,y_pred,group\n{top},{top},a\n{top - 1},{top},b\n{top},{top - 1},b\n")
    status, out = _audit_cli(capsys, path, "--positive", str(top))
    assert status == 0 and f"Positive label: {top}" in out.out


@pytest.mark.parametrize("suffix", ["gz", "bz2", "xz"])
def test_audit_truncated_compressed_file_is_one_line(tmp_path, capsys, suffix):
    import bz2
    import gzip
    import lzma

    module = {"gz": gzip, "bz2": bz2, "xz": lzma}[suffix]
    data = module.compress(("y_true,y_pred,group\n" + "1,0,a\n0,1,b\n" * 500).encode())
    path = tmp_path / f"p.csv.{suffix}"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SystemExit) as info:
        _audit_cli(capsys, path)
    assert info.value.code == 2 and "truncated or damaged" in capsys.readouterr().err


def test_audit_reads_a_fifo(tmp_path, capsys):
    import os
    import threading

    path = tmp_path / "pipe"
    os.mkfifo(path)
    writer = threading.Thread(
        target=path.write_text, args=("y_true,y_pred,group\n1,1,a\n0,0,b\n1,0,b\n",)
    )
    writer.start()
    status, out = _audit_cli(capsys, path)
    writer.join()
    assert status == 0 and "Fairness audit of 3 rows" in out.out


def test_audit_reads_standard_input():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "fairbook", "audit", "/dev/stdin"],
        input=b"y_true,y_pred,group\n1,1,a\n0,0,b\n1,0,b\n",
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"Fairness audit of 3 rows" in done.stdout


@pytest.mark.parametrize("backend", ["numpy_nullable", "pyarrow"])
def test_audit_modern_dtypes_match_numpy(backend):
    frame = pd.DataFrame(
        {
            "y_true": [1, 0, 1, 0, 1, 0],
            "y_pred": [1, 1, 0, 0, 1, 0],
            "group": list("aabbab"),
            "p_0": [0.9, 0.2, 0.4, 0.1, 0.8, 0.3],
            "flag": [True, False] * 3,
        }
    )
    frame["s"] = frame["p_0"] / 2
    options = {"groups": ["group", "flag"], "samples": ["p_*"], "score": "s"}
    expected = audit(frame, **options).to_json()
    assert audit(frame.convert_dtypes(dtype_backend=backend), **options).to_json() == expected


def test_audit_object_groups_mixing_ints_and_text_are_one_line():
    groups = np.array([1, "a", 1, "a"], dtype=object)
    with pytest.raises(ValueError, match="cannot be ordered together"):
        audit([1, 0, 1, 0], [1, 1, 0, 0], groups)


# ------------------------------- fairbook-book record / ledger / figures / run (issue 37)
def _cli(*argv):
    try:
        return main(list(argv))
    except SystemExit as exc:  # usage errors
        return int(exc.code or 0)


def _cps_folder(tmp_path):
    return tmp_path / "03_small_groups" / "cps"


def _provenance_without(key):
    def damage(folder):
        import json

        path = folder / "n005.json"
        record_ = json.loads(path.read_text())
        del record_[key]
        path.write_text(json.dumps(record_))

    return damage


RECORD_DAMAGES = [
    ("no parameters", _provenance_without("parameters"), "n005.json lacks parameters"),
    ("no fingerprint", _provenance_without("fingerprint"), "n005.json lacks fingerprint"),
    ("no seconds", _provenance_without("seconds"), "n005.json lacks seconds"),
    ("table gone", lambda f: (f / "n005.parquet").unlink(), "n005.parquet is gone"),
    (
        "table truncated",
        lambda f: (f / "n005.parquet").write_bytes((f / "n005.parquet").read_bytes()[:64]),
        "n005.parquet is truncated",
    ),
]


@pytest.fixture(scope="module")
def recorded_n005(tmp_path_factory):
    """One cheap unit of chapter 03's recording, recorded once for the module."""
    root = tmp_path_factory.mktemp("recorded")
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005", "--into", str(root))
    assert _cli(*argv) == 0
    return root


@pytest.mark.parametrize(
    ("damage", "problem"), [d[1:] for d in RECORD_DAMAGES], ids=[d[0] for d in RECORD_DAMAGES]
)
def test_record_damaged_unit_is_one_line_then_recorded_again(
    tmp_path, capsys, recorded_n005, damage, problem
):
    import shutil

    root = tmp_path / "r"
    shutil.copytree(recorded_n005, root)
    damage(_cps_folder(root))
    capsys.readouterr()
    assert _cli("record", "03", "--profile", "fast", "--into", str(root)) == 2  # listing
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    assert "unit n005 is damaged" in captured.err and problem in captured.err
    assert "recording it again fixes it" in captured.err and "Traceback" not in captured.err
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005", "--into", str(root))
    assert _cli(*argv) == 0  # recording: says so and records it again
    captured = capsys.readouterr()
    assert "unit n005 of 03_small_groups/cps is damaged" in captured.err
    assert "recording it again" in captured.err and "1 unit(s) written" in captured.out


def test_record_into_a_path_under_a_file_is_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005")
    assert _cli(*argv, "--into", str(tmp_path / "file" / "sub")) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'file'} is a file, not a folder; nothing was computed" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_record_unwritable_folder_is_refused_before_computing(tmp_path, capsys, monkeypatch):
    import fairbook_book.recordings as recordings

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path))

    def never(*args, **kwargs):  # pragma: no cover - the point is that it is not reached
        raise AssertionError("computed before checking the folder")

    monkeypatch.setattr(recordings.tempfile, "mkstemp", refuse)
    monkeypatch.setattr(recordings, "_record_unit", never)
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005")
    assert _cli(*argv, "--into", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "Permission denied" in err and "nothing was computed" in err and "Traceback" not in err


def _ledger_notebook(folder, content: bytes):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "01_x.ipynb").write_bytes(content)
    return folder


LEDGER_FILES = [
    ("not JSON", b"{truncated", "not JSON (line 1"),
    ("not UTF-8", '{"cells": ["caf\u00e9"]}'.encode("latin-1"), "not UTF-8 text"),
    ("a JSON list", b"[1, 2]", "not a notebook"),
    ("cells not a list", b'{"cells": 3}', "not a notebook"),
    ("a cell not an object", b'{"cells": [3]}', "cell 1 is not a notebook cell"),
    (
        "rows not a list",
        b'{"cells": [{"outputs": [{"metadata": {"fairbook_ledger": {"rows": "x"}}}]}]}',
        "without a list of rows",
    ),
    (
        "a row lacking fields",
        b'{"cells": [{"outputs": [{"metadata": {"fairbook_ledger": {"rows": [{"paper": 1}]}}}]}]}',
        "ledger row 1 of cell 1 lacks source",
    ),
]


@pytest.mark.parametrize(
    ("content", "fragment"), [c[1:] for c in LEDGER_FILES], ids=[c[0] for c in LEDGER_FILES]
)
def test_ledger_bad_executed_file_is_one_line_exit_2(tmp_path, capsys, content, fragment):
    folder = _ledger_notebook(tmp_path / "executed", content)
    assert _cli("ledger", "--executed", str(folder)) == 2
    err = capsys.readouterr().err
    assert "01_x.ipynb is not an executed chapter" in err and fragment in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("notebooks", [0, 1], ids=["no notebooks", "no rows"])
def test_ledger_empty_is_said_with_exit_2(tmp_path, capsys, notebooks):
    folder = tmp_path / "executed"
    folder.mkdir()
    if notebooks:
        _ledger_notebook(folder, b'{"cells": [], "metadata": {}, "nbformat": 4}')
    assert _cli("ledger", "--executed", str(folder)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "the ledger is empty" in captured.err
    assert ("carry no ledger rows" if notebooks else "hold no *.ipynb") in captured.err


def test_figures_refused_chapter_creates_no_folder(tmp_path, capsys):
    out = tmp_path / "figs"
    assert _cli("figures", "99", "--out", str(out)) == 2
    assert "unknown chapter '99'" in capsys.readouterr().err
    assert not out.exists()
    assert _cli("figures", "01", "-p", "nope", "1", "--out", str(out)) == 2
    assert "nope" in capsys.readouterr().err and not out.exists()


def test_run_output_under_a_file_is_one_line_exit_2(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert _cli("run", "01", "-o", str(tmp_path / "file" / "out.ipynb")) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'file'} is a file, not a folder" in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("output", "says"),
    [
        ("notebooks/01_metric_catalogue.ipynb", "is in the chapters' sources"),
        ("notebooks/my_copy.ipynb", "is in the chapters' sources"),
        (".", "is a folder; name the notebook to write"),
    ],
)
def test_run_refuses_to_replace_a_chapters_source_or_write_a_folder(capsys, output, says):
    """Issue 48, cause 4: `-o` naming a chapter's own source replaced the tracked notebook by
    its executed copy; a folder gave a misleading failure after the run. Both are refused
    before anything runs, and the source is untouched."""
    from fairbook_book.tooling.chapters import BookPaths, find_root

    source = BookPaths(find_root()).notebooks / "01_metric_catalogue.ipynb"
    before = source.read_bytes()
    root = find_root()
    assert _cli("run", "01", "-o", str(root / output)) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert source.read_bytes() == before


def test_group_codes_in_a_csv_are_text_as_written(tmp_path):
    """Issue 48, cause 1: "007" and "7" are two groups, "02134" keeps its zero, "1" and "1.0"
    are two spellings (read as numbers they merged silently into one group)."""
    from fairbook.audit import audit_file

    path = tmp_path / "codes.csv"
    path.write_text(
        "y_true,y_pred,group\n1,1,007\n0,1,7\n1,0,007\n0,0,7\n1,1,02134\n0,0,02134\n"
        "1,1,1\n0,0,1.0\n",
        encoding="utf-8",
    )
    groups = audit_file(path, y_true="y_true", y_pred="y_pred", groups="group")
    table = groups.to_frame("groups")
    assert sorted(table["group"]) == ["007", "02134", "1", "1.0", "7"]
    assert int(table["n"].sum()) == 8  # nobody lost or merged


# ---- issue 48, causes 2 and 3: outputs checked before the work, written whole or not at all --


def _predictions(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred,group\n1,1,a\n0,1,a\n1,0,b\n0,0,b\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("outputs", "fragment"),
    [
        (["--output", "{input}"], "is the input file"),
        (["--html", "{input}"], "is the input file"),
        (["--html", "{tmp}/./p.csv"], "is the input file"),
        (["--output", "{tmp}/r.txt", "--html", "{tmp}/r.txt"], "both name"),
        (["--output", "{tmp}/r.csv", "--html", "{tmp}/missing/r.html"], "does not exist"),
    ],
)
def test_an_audit_checks_every_output_before_writing_any(tmp_path, capsys, outputs, fragment):
    path = _predictions(tmp_path)
    before = path.read_bytes()
    args = [a.replace("{input}", str(path)).replace("{tmp}", str(tmp_path)) for a in outputs]
    assert _cli("audit", str(path), *args) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert path.read_bytes() == before  # the input is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv"]  # nothing was written


def test_the_input_through_a_link_is_still_the_input(tmp_path, capsys):
    path = _predictions(tmp_path)
    link = tmp_path / "link.csv"
    link.symlink_to(path)
    assert _cli("audit", str(path), "--output", str(link)) == 2
    assert "is the input file" in capsys.readouterr().err


def test_a_failed_write_leaves_the_previous_report_intact(tmp_path, capsys, monkeypatch):
    path = _predictions(tmp_path)
    report = tmp_path / "report.csv"
    report.write_text("yesterday's report", encoding="utf-8")

    def disk_full(self, *args, **kwargs):  # writes half, then the disk is full
        Path(args[0]).write_text("half a rep", encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", disk_full)
    assert _cli("audit", str(path), "--output", str(report)) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert report.read_text(encoding="utf-8") == "yesterday's report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.csv", "report.csv"]


def test_a_label_too_large_for_int64_is_found_as_written(tmp_path, capsys):
    """Round two's open case: labels 0 and 2**64 (read as Python ints, an object column) and
    --positive 2**64 used to say the label occurs in neither column."""
    big = 2**64
    path = tmp_path / "big.csv"
    path.write_text(
        f"y_true,y_pred,group\n0,{big},a\n{big},0,a\n0,0,b\n{big},{big},b\n", encoding="utf-8"
    )
    assert _cli("audit", str(path), "--positive", str(big)) == 0
    assert f"Positive label: {big}." in capsys.readouterr().out


def test_a_label_beyond_64_bits_is_found_and_audited(tmp_path, capsys):
    """Round two of issue 48: labels 0 and 2**64 (past numpy's integers) with --positive 2**64
    said the label "occurs in neither y_true nor y_pred"."""
    big = 2**64
    path = tmp_path / "big.csv"
    path.write_text(f"y_true,y_pred,group\n0,{big},a\n{big},0,b\n0,0,a\n{big},{big},b\n")
    assert _cli("audit", str(path), "--positive", str(big), "--json") == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["settings"]["positive"] == big and report["settings"]["rows"] == 4


def test_input_nested_too_deeply_is_one_line_not_a_traceback(capsys):
    """Issue 48's error boundary: a RecursionError (a JSON nested past Python's limit) ends any
    command with one line and exit status 2."""
    from fairbook.cli import CommandLine

    demo = CommandLine("demo", "a demonstration")

    @demo.subcommand("deep", help="recurse")
    def _deep(args):
        def down(n):
            return down(n + 1)

        return down(0)

    with pytest.raises(SystemExit) as info:
        demo.main(["deep"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == "demo deep: error: the input is nested too deeply to read\n"
