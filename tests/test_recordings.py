"""Tests of fairbook.recordings: record, resume, merge, provenance and staleness."""

import json

import pandas as pd
import pytest

from fairbook.recordings import Recordable, Recording, fingerprint, load, record, recorded_units

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
    # the kernel signature is written, and the description names it and fairbook verify
    from fairbook.reproduction.signature import describe_signature, kernel_signature

    assert provenance["kernels"] == kernel_signature()
    assert describe_signature(kernel_signature()) in recording.describe()
    assert "`fairbook verify 00`" in recording.describe()
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


def test_an_interrupted_unit_is_not_recorded_and_a_corrupt_one_is_named(tmp_path):
    config = {"seeds": 2, "scale": 1.0, "n_jobs": 1}
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    folder = tmp_path / "00_toy" / "toy"
    (folder / "s1.parquet").unlink()  # provenance without its table
    assert [p["unit"] for p in load("00_toy", TOY, root=tmp_path).provenance] == ["s0"]
    CALLS.clear()
    record("00_toy", TOY, config, root=tmp_path, progress=False)
    assert CALLS == ["s1"]
    (folder / "s0.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a recording's provenance"):
        load("00_toy", TOY, root=tmp_path)


# ---- configuration left out of the fingerprint, and re-attesting after its definition changes
def test_without_drops_named_top_level_assignments_and_their_comments():
    from fairbook.recordings import _without

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
    from fairbook.recordings import _installed_source

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

    from fairbook.recordings import refingerprint

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

    from fairbook.recordings import refingerprint

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

    from fairbook.recordings import _git_source

    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not top:
        pytest.skip("not a git checkout")
    read = _git_source("HEAD", top=Path(top))
    assert b"def fingerprint" in read("fairbook.recordings")
    first = subprocess.run(
        ["git", "-C", top, "rev-list", "--max-parents=0", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()[0]
    with pytest.raises(ValueError, match="has no src/fairbook/recordings.py"):
        _git_source(first, top=Path(top))("fairbook.recordings")


def test_without_docstrings_drops_only_docstrings_on_lines_of_their_own():
    from fairbook.recordings import _without

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
    from fairbook.recordings import _installed_source

    def edited(name):  # the first docstring line of the module changed
        text = _installed_source(name).decode()
        return text.replace('"""', '"""Edited. ', 1).encode()

    modules = ["fairbook.stats.cps"]
    assert fingerprint(modules) != fingerprint(modules, source=edited)
    assert fingerprint(modules, docstrings=False) == fingerprint(
        modules, docstrings=False, source=edited
    )
