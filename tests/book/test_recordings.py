"""Tests of fairbook_book.recordings: record, resume, merge, provenance and staleness."""

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pandas as pd
import pytest

from fairbook_book.recordings import (
    DamagedRecording,
    Recordable,
    Recording,
    fingerprint,
    load,
    record,
    recorded_units,
)

CALLS = []


def _units(config):
    return [f"s{seed}" for seed in range(config["seeds"])]


def _run(unit, config):
    CALLS.append(unit)
    seed = int(unit[1:])
    return pd.DataFrame({"seed": [seed], "value": [seed * config["scale"] + 0.1]})


TOY = Recordable(
    name="toy",
    units=_units,
    run=_run,
    depends=("fairbook.stats.cps",),
    parameters=("seeds", "scale"),
    description="a toy",
)


def test_record_writes_units_with_provenance_and_load_merges_them(tmp_path):
    CALLS.clear()
    config = {"seeds": 3, "scale": 2.0, "n_jobs": 1}
    written = record("00_toy", TOY, config, root=tmp_path, progress=False, command="test")
    assert [p.name for p in written] == ["s0.parquet", "s1.parquet", "s2.parquet"]
    provenance = json.loads((tmp_path / "00_toy" / "toy" / "s1.json").read_text())
    for key in (
        "command",
        "parameters",
        "commit",
        "fingerprint",
        "packages",
        "cores",
        "instruction_set",
        "date",
    ):
        assert key in provenance
    assert provenance["parameters"] == {"seeds": 3, "scale": 2.0}
    assert 0 <= provenance["cpu_seconds"] and 0 <= provenance["seconds"]
    assert provenance["load_average"] is None or provenance["load_average"] >= 0
    assert provenance["fingerprint"] == fingerprint(["fairbook.stats.cps"])
    recording = load("00_toy", TOY, settings=config, root=tmp_path)
    assert not recording.stale and recording.expected == 3
    assert recording.frame["value"].tolist() == [0.1, 2.1, 4.1]  # exact round trip
    assert recording.frame["unit"].tolist() == ["s0", "s1", "s2"]
    assert "3 of 3 units recorded" in recording.describe()
    # the kernel signature is written, and the description names it and fairbook-book verify
    from fairbook_book.reproduction.signature import describe_signature, kernel_signature

    assert provenance["kernels"] == kernel_signature()
    assert describe_signature(kernel_signature()) in recording.describe()
    assert "`fairbook-book verify 00`" in recording.describe()
    # the provenance alone names the same units, and none under other parameters
    assert recorded_units("00_toy", TOY, settings=config, root=tmp_path) == ["s0", "s1", "s2"]
    other = {**config, "scale": 3.0}
    assert recorded_units("00_toy", TOY, settings=other, root=tmp_path) == []
    assert load("00_toy", TOY, settings=other, root=tmp_path).empty


def test_recording_resumes_and_keeps_parameters_apart(tmp_path):
    CALLS.clear()
    config = {"seeds": 4, "scale": 1.0, "n_jobs": 1}
    record("00_toy", TOY, config, units=["s0", "s1"], root=tmp_path, progress=False)
    record("00_toy", TOY, config, root=tmp_path, progress=False)  # resumes: s2, s3 only
    assert CALLS == ["s0", "s1", "s2", "s3"]
    other = {**config, "scale": 5.0}
    assert load("00_toy", TOY, settings=other, root=tmp_path).empty
    record("00_toy", TOY, other, units=["s0"], root=tmp_path, progress=False)
    assert CALLS[-1] == "s0"  # other parameters: recorded again
    assert len(load("00_toy", TOY, settings=other, root=tmp_path).provenance) == 1


def test_stale_when_the_code_changed(tmp_path):
    config = {"seeds": 1, "scale": 1.0, "n_jobs": 1}
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    path = tmp_path / "00_toy" / "toy" / "s0.json"
    provenance = json.loads(path.read_text())
    provenance["fingerprint"] = "0" * 64  # as if recorded by other code
    path.write_text(json.dumps(provenance))
    recording = load("00_toy", TOY, settings=config, root=tmp_path)
    assert recording.stale and recording.stale_units == ["s0"]
    assert "STALE" in recording.describe() and recording.budget.startswith("full (stale")
    CALLS.clear()
    record("00_toy", TOY, config, root=tmp_path, progress=False)  # re-recorded
    assert CALLS == ["s0"] and not load("00_toy", TOY, settings=config, root=tmp_path).stale


def test_units_run_side_by_side_give_the_same_tables(tmp_path):
    config = {"seeds": 3, "scale": 3.0, "n_jobs": 2}
    record("00_toy", TOY, config, root=tmp_path / "a", progress=False)
    record("00_toy", TOY, {**config, "n_jobs": 1}, root=tmp_path / "b", progress=False)
    a = load("00_toy", TOY, root=tmp_path / "a").frame
    b = load("00_toy", TOY, root=tmp_path / "b").frame
    pd.testing.assert_frame_equal(a, b)


def test_bad_requests_raise(tmp_path):
    with pytest.raises(ValueError, match="unknown unit"):
        record("00_toy", TOY, {"seeds": 2, "scale": 1.0}, units=["s9"], root=tmp_path)
    with pytest.raises(ValueError, match="lack the recording's parameters"):
        record("00_toy", TOY, {"seeds": 2}, root=tmp_path)
    with pytest.raises(ValueError, match="no module"):
        fingerprint(["fairbook.no_such_module"])


def test_empty_recording_describes_itself():
    empty = Recording("00_toy", "toy", pd.DataFrame(), expected=5)
    assert empty.empty and not empty.stale
    assert empty.describe() == "Recording 00_toy/toy: nothing recorded yet (0 of 5 units)."
    assert empty.budget == "full (not recorded)"


def test_a_table_without_provenance_is_an_unfinished_unit_recorded_again(tmp_path):
    config = {"seeds": 2, "scale": 1.0, "n_jobs": 1}
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    folder = tmp_path / "00_toy" / "toy"
    (folder / "s1.json").unlink()  # the table is written first: interrupted before this
    assert [p["unit"] for p in load("00_toy", TOY, root=tmp_path).provenance] == ["s0"]
    CALLS.clear()
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    assert CALLS == ["s1"]
    assert load("00_toy", TOY, root=tmp_path).frame["value"].tolist() == [0.1, 1.1]


def _drop(key):
    def damage(folder):
        path = folder / "s1.json"
        provenance = json.loads(path.read_text())
        del provenance[key]
        path.write_text(json.dumps(provenance))

    return damage


def _edit(key, value):
    def damage(folder):
        path = folder / "s1.json"
        provenance = json.loads(path.read_text())
        provenance[key] = value
        path.write_text(json.dumps(provenance))

    return damage


def _truncate(folder):
    path = folder / "s1.parquet"
    path.write_bytes(path.read_bytes()[:100])


DAMAGES = [
    ("no parameters", _drop("parameters"), "s1.json lacks parameters"),
    ("no fingerprint", _drop("fingerprint"), "s1.json lacks fingerprint"),
    ("no seconds", _drop("seconds"), "s1.json lacks seconds"),
    ("seconds as text", _edit("seconds", "12"), "s1.json has a bad seconds"),
    ("another unit's", _edit("unit", "s0"), "s1.json names unit 's0'"),
    ("wrong row count", _edit("rows", 7), "has 1 rows, its provenance says 7"),
    ("table gone", lambda f: (f / "s1.parquet").unlink(), "its table s1.parquet is gone"),
    ("table truncated", _truncate, "s1.parquet is truncated or not Parquet"),
    ("not JSON", lambda f: (f / "s1.json").write_text("{not json"), "s1.json is not JSON"),
    ("not UTF-8", lambda f: (f / "s1.json").write_bytes(b"\xff\xfe"), "s1.json is not JSON"),
    ("a JSON list", lambda f: (f / "s1.json").write_text("[1]"), "not a JSON object"),
]


@pytest.mark.parametrize(
    ("damage", "problem"), [d[1:] for d in DAMAGES], ids=[d[0] for d in DAMAGES]
)
def test_a_damaged_unit_is_named_and_recorded_again(tmp_path, damage, problem):
    config = {"seeds": 2, "scale": 1.0, "n_jobs": 1}
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    damage(tmp_path / "00_toy" / "toy")
    for read in (
        lambda: load("00_toy", TOY, settings=config, root=tmp_path),
        lambda: recorded_units("00_toy", TOY, settings=config, root=tmp_path),
    ):
        with pytest.raises(DamagedRecording) as info:
            read()
        message = str(info.value)
        assert message.startswith("00_toy/toy: unit s1 is damaged (") and problem in message
        assert "recording it again fixes it: fairbook-book record 00_toy toy --units s1" in message
        assert "\n" not in message and list(info.value.damaged) == ["s1"]
    CALLS.clear()
    said = []
    written = record("00_toy", TOY, config, root=tmp_path, progress=False, echo=said.append)
    assert CALLS == ["s1"] and [p.name for p in written] == ["s1.parquet"]
    assert said == [
        f"unit s1 of 00_toy/toy is damaged ({info.value.damaged['s1'].problem}): recording it again"
    ]
    assert load("00_toy", TOY, settings=config, root=tmp_path).frame["value"].tolist() == [0.1, 1.1]


def test_damage_that_recording_does_not_fix_is_refused_before_computing(tmp_path):
    config = {"seeds": 2, "scale": 1.0, "n_jobs": 1}
    folder = tmp_path / "00_toy" / "toy"
    (folder / "s1.json").mkdir(parents=True)  # a folder where the provenance goes
    CALLS.clear()
    with pytest.raises(DamagedRecording, match="recording again does not fix s1: remove"):
        record("00_toy", TOY, config, root=tmp_path, progress=False)
    assert CALLS == []


def test_a_folder_under_a_file_is_refused_before_computing(tmp_path):
    (tmp_path / "file").write_text("x")
    CALLS.clear()
    with pytest.raises(ValueError, match=r"file is a file, not a folder; nothing was computed"):
        record("00_toy", TOY, {"seeds": 1, "scale": 1.0}, root=tmp_path / "file" / "r")
    assert CALLS == []


def test_an_unwritable_folder_is_refused_before_computing(tmp_path, monkeypatch):
    import fairbook_book.recordings as recordings

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path))

    monkeypatch.setattr(recordings.tempfile, "mkstemp", refuse)
    CALLS.clear()
    with pytest.raises(ValueError, match="Permission denied.*nothing was computed"):
        record("00_toy", TOY, {"seeds": 1, "scale": 1.0}, root=tmp_path, progress=False)
    assert CALLS == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused_before_computing(tmp_path):
    folder = tmp_path / "00_toy" / "toy"
    folder.mkdir(parents=True)
    folder.chmod(0o555)
    CALLS.clear()
    try:
        with pytest.raises(ValueError, match="nothing was computed"):
            record("00_toy", TOY, {"seeds": 1, "scale": 1.0}, root=tmp_path, progress=False)
    finally:
        folder.chmod(0o755)
    assert CALLS == []


def test_a_unit_locked_by_another_recorder_is_skipped_and_a_stale_lock_is_taken(tmp_path):
    from fairbook_book.recordings import _unit_lock

    config = {"seeds": 2, "scale": 1.0, "n_jobs": 1}
    folder = tmp_path / "00_toy" / "toy"
    folder.mkdir(parents=True)
    (folder / ".s1.lock").write_text("999999999")  # left by a recorder that died: no flock
    CALLS.clear()
    said = []
    with _unit_lock(folder, "s0") as holder:  # as another process would hold it
        assert holder is None and (folder / ".s0.lock").read_text() == str(os.getpid())
        record("00_toy", TOY, config, root=tmp_path, progress=False, echo=said.append)
    assert CALLS == ["s1"]
    assert said == [
        f"unit s0 of 00_toy/toy is being recorded by another process "
        f"(pid {os.getpid()}): skipped here"
    ]
    assert sorted(p.name for p in folder.iterdir()) == ["s1.json", "s1.parquet"]  # no lock left
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    assert CALLS == ["s1", "s0"]


RECORDER = """
import os, sys, time
from pathlib import Path
import pandas as pd
from fairbook.parallel import ordered_map
from fairbook_book.recordings import Recordable, record

root, mode = Path(sys.argv[1]), sys.argv[2]

def spin(tag):
    # busy in Python until the time is up, in short slices that leave the cores to the other
    # tests (make unit runs beside other stages): a signal lands between any two of them
    (root / f"started-{tag}-{os.getpid()}").write_text("")
    end = time.time() + float(sys.argv[3])
    while time.time() < end:
        sum(range(1000))
        time.sleep(0.01)
    return tag

def run(unit, settings):
    if mode == "nested":  # the unit's own workers (fairbook.parallel.ordered_map)
        list(ordered_map(spin, [((f"{unit}-{i}",), {}) for i in range(2)], n_jobs=2))
    else:
        spin(unit)
    return pd.DataFrame({"unit": [unit]})

toy = Recordable("spin", lambda s: ["a", "b"], run, depends=("fairbook.stats.cps",),
                 parameters=())
n_jobs = 2 if mode == "units" else 1
record("00_toy", toy, {"n_jobs": n_jobs}, root=root, progress=False)
"""


def _start_recorder(tmp_path, mode, seconds=120):
    import subprocess
    import sys

    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    return subprocess.Popen(
        [sys.executable, str(script), str(tmp_path), mode, str(seconds)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _wait_for(predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
@pytest.mark.parametrize(
    ("mode", "signum"),
    [
        ("units", signal.SIGKILL),
        ("units", signal.SIGTERM),
        ("units", signal.SIGINT),
        ("nested", signal.SIGKILL),
        ("nested", signal.SIGTERM),
    ],
    ids=["units-kill9", "units-term", "units-int", "nested-kill9", "nested-term"],
)
def test_killing_a_recording_leaves_no_worker_computing(tmp_path, mode, signum):
    from fairbook.parallel import descendants

    recorder = _start_recorder(tmp_path, mode)
    try:
        assert _wait_for(lambda: len(list(tmp_path.glob("started-*"))) >= 2, 60), (
            recorder.stdout.read1().decode() if recorder.poll() is not None else "not started"
        )
        workers = descendants(recorder.pid)
        computing = {int(p.name.rsplit("-", 1)[1]) for p in tmp_path.glob("started-*")}
        assert computing and computing <= set(workers)
        recorder.send_signal(signum)
        recorder.wait(timeout=90)  # a loaded machine (make test runs stages side by side)
        assert _wait_for(lambda: not any(_alive(pid) for pid in workers), 10), [
            pid for pid in workers if _alive(pid)
        ]
        if signum == signal.SIGTERM:
            assert recorder.returncode == 128 + signal.SIGTERM or recorder.returncode == 1
        assert not list((tmp_path / "00_toy" / "spin").glob("*.json"))  # nothing half-written
    finally:
        for pid in [recorder.pid, *descendants(recorder.pid)]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        recorder.wait()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
def test_two_recorders_of_one_folder_compute_each_unit_once(tmp_path):
    first = _start_recorder(tmp_path, "single", seconds=12)
    assert _wait_for(lambda: any(tmp_path.glob("started-*")), 60)
    second = _start_recorder(tmp_path, "single", seconds=12)  # starts while "a" is computed
    out = [p.communicate(timeout=120)[0].decode() for p in (first, second)]
    assert first.returncode == second.returncode == 0, out
    started = sorted(p.name.split("-")[1] for p in tmp_path.glob("started-*"))
    assert started == ["a", "b"], out  # each unit computed by one recorder only
    assert "unit a of 00_toy/spin is being recorded by another process" in out[1]
    assert sorted(p.name for p in (tmp_path / "00_toy" / "spin").iterdir()) == [
        "a.json",
        "a.parquet",
        "b.json",
        "b.parquet",
    ]


# ---- configuration left out of the fingerprint, and re-attesting after its definition changes
def test_without_drops_named_top_level_assignments_and_their_comments():
    from fairbook_book.recordings import _without

    source = (
        '"""doc"""\n'
        "import os\n"
        "#: the profiles\n"
        "#: (two lines of comment)\n"
        "PROFILES = {\n"
        "    'fast': 1,\n"
        "}\n"
        "KEEP = 2  # kept\n"
        "\n"
        "# a comment that belongs to f\n"
        "def f():\n"
        "    PROFILES = 3  # not top level: kept\n"
        "    return PROFILES\n"
        "NOTES: dict = {}\n"
    )
    kept, found = _without(source, ["PROFILES", "NOTES", "ABSENT"])
    assert found == {"PROFILES", "NOTES"}
    assert kept == (
        '"""doc"""\n'
        "import os\n"
        "KEEP = 2  # kept\n"
        "\n"
        "# a comment that belongs to f\n"
        "def f():\n"
        "    PROFILES = 3  # not top level: kept\n"
        "    return PROFILES\n"
    )


def _variant(extra: str):
    """A reader of fairbook.stats.cps as if a past commit's file had ``extra`` appended."""
    from fairbook_book.recordings import _installed_source

    def read(name):
        return _installed_source(name) + extra.encode()

    return read


def test_configuration_leaves_the_named_assignments_out_of_the_fingerprint():
    modules = ["fairbook.stats.cps"]
    assert fingerprint(modules) == fingerprint(modules, source=_variant(""))
    assert fingerprint(modules) != fingerprint(modules, source=_variant("PAPER_METRICS = 1\n"))
    plain = fingerprint(modules, configuration=["__all__", "PAPER_METRICS"])
    assert plain == fingerprint(
        modules,
        configuration=["__all__", "PAPER_METRICS"],
        source=_variant("PAPER_METRICS = 1\n"),
    )
    changed_code = _variant("PAPER_METRICS = 1\nx = 2\n")
    assert plain != fingerprint(
        modules, configuration=["__all__", "PAPER_METRICS"], source=changed_code
    )
    with pytest.raises(ValueError, match="PROFILES"):  # not in the module: a typo
        fingerprint(modules, configuration=["PAPER_METRICS", "PROFILES"])


def _record_at(tmp_path, commit_source, *, dirty=False, fingerprint_override=None):
    """Record TOY's unit s0, then rewrite its provenance as if made at commit ``c1`` whose
    fairbook.stats.cps was ``commit_source``."""
    config = {"seeds": 1, "scale": 1.0, "n_jobs": 1}
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    path = tmp_path / "00_toy" / "toy" / "s0.json"
    provenance = json.loads(path.read_text())
    provenance.update(
        commit="c1",
        dirty=dirty,
        fingerprint=fingerprint_override or fingerprint(TOY.depends, source=commit_source),
    )
    path.write_text(json.dumps(provenance))
    return config, path


def test_refingerprint_re_attests_a_unit_whose_code_is_unchanged(tmp_path):
    from dataclasses import replace

    from fairbook_book.recordings import refingerprint

    then = _variant("PAPER_METRICS = {'fast': 1}\n")  # only configuration differed
    config, path = _record_at(tmp_path, then)
    narrowed = replace(TOY, configuration=("__all__", "PAPER_METRICS"))
    assert load("00_toy", narrowed, settings=config, root=tmp_path).stale
    outcome = refingerprint("00_toy", narrowed, root=tmp_path, source_at={"c1": then}.__getitem__)
    assert outcome == {"s0": "re-attested"}
    recording = load("00_toy", narrowed, settings=config, root=tmp_path)
    assert not recording.stale and "1 unit(s) re-attested" in recording.describe()
    provenance = json.loads(path.read_text())
    assert provenance["configuration"] == ["__all__", "PAPER_METRICS"]
    assert provenance["refingerprinted"][0]["fingerprint"] == fingerprint(TOY.depends, source=then)
    # a second pass has nothing to do; record() now skips the unit
    assert refingerprint("00_toy", narrowed, root=tmp_path, source_at={}.__getitem__) == {
        "s0": "current"
    }
    CALLS.clear()
    record("00_toy", narrowed, config, root=tmp_path, progress=False)
    assert CALLS == []


@pytest.mark.parametrize(
    ("extra", "dirty", "override", "reason"),
    [
        ("PAPER_METRICS = 1\nx = 2\n", False, None, "the code has changed since its commit"),
        ("PAPER_METRICS = 1\n", True, None, "uncommitted code"),
        ("PAPER_METRICS = 1\n", False, "0" * 64, "does not give the recorded fingerprint"),
        ("PAPER_METRICS = (\n", False, None, "not re-attested"),  # not Python at that commit
    ],
)
def test_refingerprint_leaves_a_unit_stale_when_it_cannot_show_the_code_unchanged(
    tmp_path, extra, dirty, override, reason
):
    from dataclasses import replace

    from fairbook_book.recordings import refingerprint

    then = _variant(extra)
    config, path = _record_at(tmp_path, then, dirty=dirty, fingerprint_override=override)
    before = path.read_text()
    narrowed = replace(TOY, configuration=("__all__", "PAPER_METRICS"))
    outcome = refingerprint("00_toy", narrowed, root=tmp_path, source_at={"c1": then}.__getitem__)
    assert reason in outcome["s0"] and outcome["s0"].startswith("not re-attested")
    assert path.read_text() == before
    assert load("00_toy", narrowed, settings=config, root=tmp_path).stale


def test_the_git_reader_reads_a_past_commit():
    import subprocess
    from pathlib import Path

    from fairbook_book.recordings import _git_source

    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not top:
        pytest.skip("not a git checkout")
    read = _git_source("HEAD", top=Path(top))
    assert b"def fingerprint" in read("fairbook_book.recordings")
    first = subprocess.run(
        ["git", "-C", top, "rev-list", "--max-parents=0", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()[0]
    with pytest.raises(ValueError, match="has no fairbook-book/src/fairbook_book/recordings.py"):
        _git_source(first, top=Path(top))("fairbook_book.recordings")


def test_without_docstrings_drops_only_docstrings_on_lines_of_their_own():
    from fairbook_book.recordings import _without

    source = (
        '"""Module doc,\n'
        'two lines."""\n'
        "import os\n"
        "def f(x):\n"
        '    """f doc."""\n'
        "    return x  # kept\n"
        "class C:\n"
        '    """C doc."""\n'
        "    def g(self):\n"
        '        """g doc\n'
        "        >>> 1\n"
        "        1\n"
        '        """\n'
        "        return 2\n"
        'def h(): """on the def line: kept"""\n'
        "def k():\n"
        '    """shares its line: kept"""; return 3\n'
        'X = "a string statement that is not a docstring"\n'
    )
    kept, _ = _without(source, [], docstrings=False)
    assert kept == (
        "import os\n"
        "def f(x):\n"
        "    return x  # kept\n"
        "class C:\n"
        "    def g(self):\n"
        "        return 2\n"
        'def h(): """on the def line: kept"""\n'
        "def k():\n"
        '    """shares its line: kept"""; return 3\n'
        'X = "a string statement that is not a docstring"\n'
    )
    assert _without(source, [])[0] == source


def test_a_docstring_edit_leaves_a_recording_without_docstrings_current():
    from fairbook_book.recordings import _installed_source

    def edited(name):  # the first docstring line of the module changed
        text = _installed_source(name).decode()
        return text.replace('"""', '"""Edited. ', 1).encode()

    modules = ["fairbook.stats.cps"]
    assert fingerprint(modules) != fingerprint(modules, source=edited)
    assert fingerprint(modules, docstrings=False) == fingerprint(
        modules, docstrings=False, source=edited
    )


def test_units_from_two_kernel_signatures_are_never_mixed_silently(tmp_path, monkeypatch):
    from fairbook_book.reproduction.signature import FORCE, describe_signature, kernel_signature

    config = {"seeds": 4, "scale": 1.0, "n_jobs": 1}
    lines = []
    record("00_toy", TOY, config, units=["s0", "s1"], root=tmp_path, progress=False,
           echo=lines.append)  # fmt: skip
    assert lines == []
    single = load("00_toy", TOY, settings=config, root=tmp_path).describe()
    assert f"Kernel signature: {describe_signature(kernel_signature())};" in single
    assert "MIXED" not in single and "Hosts:" not in single  # one host: not repeated
    monkeypatch.setenv(FORCE, "another machine")
    record("00_toy", TOY, config, root=tmp_path, progress=False, echo=lines.append)
    assert len(lines) == 1 and "holds units recorded under another kernel signature" in lines[0]
    assert (
        "forced another machine" in lines[0] and "`fairbook-book record 00` lists both" in lines[0]
    )
    recording = load("00_toy", TOY, settings=config, root=tmp_path)
    assert sorted(map(sorted, recording.signatures.values())) == [["s0", "s1"], ["s2", "s3"]]
    text = recording.describe()
    assert "MIXED kernel signatures: its units were recorded under 2" in text
    assert "(2 units: s0, s1)" in text and "(2 units: s2, s3)" in text
    assert "forced another machine" in text


def test_the_description_names_the_hosts_when_units_come_from_several():
    base = {"parameters": {}, "fingerprint": "f", "seconds": 1.0, "date": "2026-11-26T00:00",
            "commit": "abc", "cores": 2, "n_jobs": 1, "kernels": {"aten": "AVX2"}}  # fmt: skip
    provenance = [
        {**base, "unit": "a", "host": "node1"},
        {**base, "unit": "b", "host": "node2"},
        {**base, "unit": "c", "host": "node2"},
    ]
    recording = Recording("00_toy", "toy", pd.DataFrame(), provenance, "f", 3)
    assert recording.hosts == {"node1": ["a"], "node2": ["b", "c"]}
    assert recording.describe().endswith("Hosts: node1 (1 unit), node2 (2 units).")
    assert "MIXED" not in recording.describe()  # one signature on both hosts


# ---- 1.0.0's move: a moved module keeps its recordings' fingerprint -------------------------


def test_a_moved_module_is_fingerprinted_in_its_recorded_spelling():
    from fairbook_book.recordings import fingerprint, recorded_spelling

    assert (
        recorded_spelling("fairbook_book.chapters.ucerf.runs") == "fairbook.experiments.ucerf.runs"
    )
    assert recorded_spelling("fairbook_book.chapter_summary") == "fairbook.reading"
    assert recorded_spelling("fairbook.stats.between_runs") == "fairbook.stats.runs"
    assert recorded_spelling("fairbook.metrics.rates") == "fairbook.metrics.rates"
    old = b"from fairbook.recordings import R\nfrom fairbook import ledger\nx = 1\n"
    new = b"from fairbook_book.recordings import R\nfrom fairbook_book import ledger\nx = 1\n"
    then = fingerprint(["fairbook.experiments.demo.runs"], source=lambda name: old)
    now = fingerprint(["fairbook_book.chapters.demo.runs"], source=lambda name: new)
    assert then == now
    edited = fingerprint(["fairbook_book.chapters.demo.runs"], source=lambda name: new + b"y = 2\n")
    assert edited != then  # a move is forgiven, an edit is not


def test_every_recorded_unit_is_current_after_the_move():
    import json

    from fairbook_book.recordings import fingerprint, recorded_folder

    units = 0
    for path in sorted(recorded_folder("", "").rglob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if "depends" not in record:
            continue
        moved = [
            m.replace("fairbook.experiments", "fairbook_book.chapters") for m in record["depends"]
        ]
        today = fingerprint(
            moved,
            configuration=record.get("configuration", ()),
            docstrings=record.get("docstrings", True),
        )
        assert today == record["fingerprint"], f"{path.parent.name}/{path.name} is stale"
        units += 1
    assert units > 500


# ---- every unit's table has a digest; verify checks them all (#48, causes 5 and 6) ---------


def _recorded_toy(tmp_path):
    config = {"seeds": 3, "scale": 2.0, "n_jobs": 1}
    record("00_toy", TOY, config, root=tmp_path, progress=False, command="test")
    return tmp_path / "00_toy" / "toy"


def test_a_units_provenance_holds_its_tables_digest(tmp_path):
    from fairbook_book.recordings import check_digests, table_digest

    folder = _recorded_toy(tmp_path)
    for unit in ("s0", "s1", "s2"):
        provenance = json.loads((folder / f"{unit}.json").read_text())
        assert provenance["table_sha256"] == table_digest(folder / f"{unit}.parquet")
    assert check_digests("00_toy", "toy", root=tmp_path) == []


def test_a_hand_edit_in_any_unit_is_found_by_its_digest(tmp_path):
    from fairbook_book.recordings import check_digests

    folder = _recorded_toy(tmp_path)
    table = pd.read_parquet(folder / "s2.parquet")
    table.loc[0, "value"] *= 10  # the same rows, one number ten times larger
    table.to_parquet(folder / "s2.parquet", index=False)
    [problem] = check_digests("00_toy", "toy", root=tmp_path)
    assert problem.startswith("unit s2 of 00_toy/toy: its table is not the one recorded")
    assert "fairbook-book record 00_toy toy --units s2" in problem


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda f: (f / "s1.json").write_text('{"unit": "s1", "param'), "is not JSON"),
        (lambda f: (f / "s1.parquet").unlink(), "s1.parquet is gone"),
        (lambda f: pd.read_parquet(f / "s1.parquet").iloc[:0].to_parquet(f / "s1.parquet"), "rows"),
        (lambda f: (f / "stray.json").write_text("{}"), "unit stray is damaged"),
    ],
)
def test_verify_names_a_damaged_unit_in_one_line_and_fails(tmp_path, monkeypatch, damage, says):
    from fairbook_book import recordings
    from fairbook_book.tooling import verify

    folder = _recorded_toy(tmp_path)
    damage(folder)
    monkeypatch.setattr(
        recordings, "recorded_folder", lambda chapter, name, root=None: tmp_path / chapter / name
    )
    reruns = []
    check = verify.Check(
        "00_toy", "toy", "toy", lambda: reruns.append(1), values=("value",),
        tolerance=verify.Tolerance(1e-9, 0.0, "a test's own tolerance, stated here for the toy"),
    )  # fmt: skip
    outcome = verify.run_check(check)
    assert not outcome.passed and not reruns  # nothing re-run on a damaged recording
    [problem] = outcome.problems
    assert says in problem and "\n" not in problem
