"""Tests of the `fairbook` command line: exit codes, error messages, outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from fairbook_book import cli


def make_notebook(
    path: Path,
    params: str = 'profile: str = "fast"  # fast | full\nseed: int = 0  # random seed\n',
    body: str = "print(profile, seed)",
    title: str = "A tiny chapter",
) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_markdown_cell(f"# {title}"),
        nbformat.v4.new_code_cell(params, metadata={"tags": ["parameters", "remove-cell"]}),
        nbformat.v4.new_code_cell(body),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture
def book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_notebook(tmp_path / "notebooks" / "01_tiny.ipynb")
    make_notebook(
        tmp_path / "notebooks" / "02_other_topic.ipynb",
        params='profile: str = "fast"  # fast | full\nn: int = 3  # size\n',
        body="print('n is', n)",
        title="Another chapter",
    )
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n")
    monkeypatch.setenv("FAIRBOOK_ROOT", str(tmp_path))
    return tmp_path


def run_cli(*argv: str) -> int:
    try:
        return cli.main(list(argv))
    except SystemExit as exc:  # argparse and usage errors
        return int(exc.code or 0)


def test_help_lists_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("--help") == 0
    out = capsys.readouterr().out
    for name in ("build", "run", "chapters", "data"):
        assert name in out


def test_no_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli() == 2
    assert "COMMAND" in capsys.readouterr().err


def test_chapters_lists_chapters_and_parameters(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli("chapters") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "01  01_tiny  A tiny chapter"
    assert lines[1].startswith("    run time: fast ? on the build machine; full: not recorded")
    assert lines[1].endswith("profiles: fast, full")
    assert '      profile: str = "fast"  # fast | full' in lines
    assert "      seed: int = 0  # random seed" in lines
    assert "02  02_other_topic  Another chapter" in lines
    assert "      n: int = 3  # size" in lines


def test_chapters_json(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("chapters", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in data] == ["01_tiny", "02_other_topic"]
    assert data[1]["parameters"][1] == {
        "name": "n",
        "type": "int",
        "default": "3",
        "help": "size",
        "allowed": None,  # a toy chapter: no range declared (tooling.parameter_ranges)
    }


def test_run_unknown_chapter_exits_2_listing_chapters(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli("run", "07") == 2
    err = capsys.readouterr().err
    assert "fairbook-book run: error: unknown chapter '07'" in err
    assert "01 (01_tiny), 02 (02_other_topic)" in err


def test_run_unknown_parameter_exits_2_listing_parameters(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli("run", "02", "-p", "m", "4") == 2
    err = capsys.readouterr().err
    assert "unknown parameter 'm' for chapter 02_other_topic" in err
    assert "n: int = 3  # size" in err
    assert not (book / "_build").exists()


def test_run_bad_value_exits_2(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("run", "02", "-p", "n", "many") == 2
    assert "bad value for parameter n" in capsys.readouterr().err


def test_run_bad_profile_exits_2(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("run", "02", "--profile", "medium") == 2
    assert run_cli("run", "02", "-p", "profile", "medium") == 2
    err = capsys.readouterr().err
    assert err.count("chapter 02_other_topic has the profiles fast, full") == 2
    assert "Traceback" not in err
    assert not (book / "_build").exists()


def test_status_lists_every_chapter_and_where_its_times_come_from(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli("status") == 0
    out = capsys.readouterr().out
    assert "01_tiny  A tiny chapter\n    last execution: not executed on this machine" in out
    assert "kernel signature of the last build: unknown (no build here yet)" in out


def test_run_repeated_or_conflicting_parameters_exit_2(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli("run", "02", "-p", "n", "1", "-p", "n", "2") == 2
    assert "given twice" in capsys.readouterr().err
    assert run_cli("run", "02", "-p", "profile", "fast", "--profile", "full") == 2
    assert "disagree" in capsys.readouterr().err


def test_run_executes_with_papermill(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("run", "02_other_topic", "-p", "n", "5", "--profile", "full") == 0
    out = capsys.readouterr().out
    expected = book / "_build" / "runs" / "02_other_topic-n=5-profile=full.ipynb"
    assert str(expected) in out and f"open it with: jupyter lab {expected}" in out
    nb = json.loads(expected.read_text())
    assert nb["metadata"]["papermill"]["parameters"] == {"n": 5, "profile": "full"}
    text = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "n is 5" in text


def test_run_failing_chapter_exits_1(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_notebook(book / "notebooks" / "03_broken.ipynb", body="1 / 0")
    out = book / "broken.ipynb"
    assert run_cli("run", "3", "-o", str(out)) == 1
    err = capsys.readouterr().err
    assert "03_broken failed: ZeroDivisionError" in err
    assert out.exists()


# ---- data ----------------------------------------------------------------------------------


class FakeData:
    """Stands in for fairbook.data (no network, no cache)."""

    def __init__(self, verified: dict) -> None:
        self.verified = verified
        self.calls: list[tuple] = []

    def fetch(self, name=None):
        self.calls.append(("fetch", name))
        if name == "nope":
            raise ValueError("unknown data source(s) 'nope'; valid names: a, b")
        return {"a": Path("/cache/a.csv"), "b": Path("/cache/b.csv")}

    def verify(self, name=None):
        self.calls.append(("verify", name))
        return self.verified

    def cache_dir(self):
        return Path("/cache")


@pytest.fixture
def fake_data(monkeypatch: pytest.MonkeyPatch):
    import fairbook

    def install(verified: dict) -> FakeData:
        fake = FakeData(verified)
        monkeypatch.setitem(sys.modules, "fairbook.data", fake)
        monkeypatch.setattr(fairbook, "data", fake, raising=False)
        return fake

    return install


def test_data_verify_ok(fake_data, capsys: pytest.CaptureFixture[str]) -> None:
    fake = fake_data({"a": True, "b": True})
    assert run_cli("data", "verify") == 0
    assert capsys.readouterr().out.split() == ["a", "ok", "b", "ok"]
    assert fake.calls == [("verify", None)]


def test_data_verify_failure_exits_1(fake_data, capsys: pytest.CaptureFixture[str]) -> None:
    fake_data({"a": True, "b": "missing: run fairbook data fetch"})
    assert run_cli("data", "verify", "b") == 1
    assert "b  FAILED: missing: run fairbook data fetch" in capsys.readouterr().out


def test_data_fetch_and_where(fake_data, capsys: pytest.CaptureFixture[str]) -> None:
    fake = fake_data({})
    assert run_cli("data", "fetch", "a") == 0
    assert "a  /cache/a.csv" in capsys.readouterr().out
    assert fake.calls == [("fetch", "a")]
    assert run_cli("data", "where") == 0
    assert capsys.readouterr().out.strip() == "/cache"


def test_data_unknown_name_exits_2(fake_data, capsys: pytest.CaptureFixture[str]) -> None:
    fake_data({})
    assert run_cli("data", "fetch", "nope") == 2
    assert "unknown data source" in capsys.readouterr().err


def test_data_bad_action_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("data", "download") == 2


# ---- structure -----------------------------------------------------------------------------


def test_a_subcommand_is_one_function(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli.COMMAND_LINE, "commands", dict(cli.COMMAND_LINE.commands))

    @cli.subcommand("hello", help="say hello", arguments=[cli.arg("--name", default="you")])
    def _hello(args):
        """Greets."""
        print(f"hello {args.name}")
        return 0

    assert run_cli("hello", "--name", "book") == 0
    assert capsys.readouterr().out == "hello book\n"


def test_python_dash_m_fairbook_book(book: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "fairbook_book", "chapters"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "01_tiny" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "fairbook_book", "run", "zz"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "unknown chapter 'zz'" in proc.stderr


def test_audit_subcommand(tmp_path, capsys):
    import pandas as pd

    from fairbook.cli import main

    path = tmp_path / "p.csv"
    pd.DataFrame(
        {
            "y_true": [1, 0, 1, 0, 1, 0],
            "y_pred": [1, 1, 0, 0, 1, 0],
            "group": ["a", "a", "b", "b", "b", "b"],
        }
    ).to_csv(path, index=False)
    out = tmp_path / "groups.csv"
    assert main(["audit", str(path), "--output", str(out)]) == 0
    text = capsys.readouterr().out
    assert "reference group: 'b'" in text and "OFI" in text
    assert list(pd.read_csv(out)["group"]) == ["a", "b"]


def test_audit_subcommand_bad_column_exits_2(tmp_path):
    import pandas as pd
    import pytest

    from fairbook.cli import main

    path = tmp_path / "p.csv"
    pd.DataFrame({"label": [1, 0]}).to_csv(path, index=False)
    with pytest.raises(SystemExit) as exc:
        main(["audit", str(path)])
    assert exc.value.code == 2


# ---- fairbook-book ledger and fairbook-book figures ---------------------------------------


def _executed_chapter_with_rows(folder: Path) -> None:
    from IPython.core.formatters import DisplayFormatter

    from fairbook_book.ledger import chapter_ledger
    from fairbook_book.replication import Row, replication_table

    table = replication_table(
        [
            Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1"),
            Row("OFI (B)", 0.1, 0.3, source="seed 003 Table 3.1"),
        ]
    )
    data, metadata = DisplayFormatter().format(chapter_ledger([table], chapter="02_x"))
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("ledger")
    cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=metadata)]
    nb.cells = [cell]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / "02_x.ipynb")


def test_ledger_prints_tallies_rows_and_writes_files(tmp_path, capsys):
    executed = tmp_path / "executed"
    _executed_chapter_with_rows(executed)
    out_csv, out_json = tmp_path / "l.csv", tmp_path / "l.json"
    status = run_cli(
        "ledger",
        "--executed",
        str(executed),
        "--rows",
        "differs",
        "--csv",
        str(out_csv),
        "--json",
        str(out_json),
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "Table 3.1" in out and "OFI (B)" in out and "OFI (A)" not in out.split("\n\n")[-1]
    assert out_csv.read_text().count("\n") == 3 and json.loads(out_json.read_text())[0]["paper"]


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        ("missing", "no executed chapters"),
        ("empty", "the ledger is empty"),
        ("bad-suffix", "cannot write"),
    ],
)
def test_ledger_errors_exit_2_with_one_line(tmp_path, capsys, setup, fragment):
    executed = tmp_path / "executed"
    if setup == "empty":
        executed.mkdir()
        nbformat.write(nbformat.v4.new_notebook(), executed / "01_x.ipynb")
    elif setup == "bad-suffix":
        _executed_chapter_with_rows(executed)
    argv = ["ledger", "--executed", str(executed)]
    if setup == "bad-suffix":
        argv += ["--csv", str(tmp_path / "ledger.xlsx")]
    assert run_cli(*argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_figures_unknown_chapter_is_a_usage_error(book, capsys):
    assert run_cli("figures", "09", "--out", str(book / "figs")) == 2
    assert "unknown chapter" in capsys.readouterr().err


def test_record_lists_records_resumes_and_refuses(tmp_path, capsys):
    into = str(tmp_path / "recorded")
    assert run_cli("record", "03", "--into", into) == 0
    assert "nothing recorded yet (0 of 146 units)" in capsys.readouterr().out
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005", "--into", into)
    assert run_cli(*argv) == 0
    assert "1 unit(s) written" in capsys.readouterr().out
    assert run_cli(*argv) == 0  # already recorded by today's code: skipped
    assert "0 unit(s) written. Recording 03_small_groups/cps: 1 of 73" in capsys.readouterr().out
    assert (tmp_path / "recorded" / "03_small_groups" / "cps" / "n005.json").is_file()
    for bad, fragment in [
        (("record", "03", "nope"), "has no recording 'nope'"),
        (("record", "03", "cps", "--units", "n999", "--into", into), "unknown unit"),
        (("record", "03", "cps", "--n-jobs", "0", "--into", into), "--n-jobs"),
        (("record", "99"), "unknown chapter"),
        (("record", "03", "--profile", "decisive"), "profile must be one of"),
        (("record", "08", "--profile", "nope"), "'fast', 'decisive', 'full'"),
    ]:
        assert run_cli(*bad) == 2
        err = capsys.readouterr().err
        assert fragment in err and "Traceback" not in err


def test_record_refingerprint_runs_nothing_and_reports_each_unit(tmp_path, capsys):
    into = str(tmp_path / "recorded")
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005", "--into", into)
    assert run_cli(*argv) == 0
    capsys.readouterr()
    again = ("record", "03", "cps", "--profile", "fast", "--refingerprint", "--into", into)
    assert run_cli(*again) == 0
    out = capsys.readouterr().out
    assert "n005: current" in out and "1 unit(s) checked" in out
    assert run_cli("record", "03", "cps", "--refingerprint", "--into", str(tmp_path / "x")) == 0
    assert "no unit(s) checked" in capsys.readouterr().out
    # it checks every unit: naming some is refused, not silently ignored
    assert run_cli(*again, "--units", "n005") == 2
    err = capsys.readouterr().err
    assert "leave out --units" in err and "Traceback" not in err


def test_record_takes_a_profile_the_chapter_defines(tmp_path, capsys):
    assert run_cli("record", "08", "--profile", "decisive", "--into", str(tmp_path)) == 0
    out = capsys.readouterr().out
    assert "08_parallel_time_networks/decisive: nothing recorded yet (0 of 14 units)" in out


def test_record_listing_points_to_units_recorded_at_another_profile(tmp_path, capsys):
    into = str(tmp_path / "recorded")
    argv = ("record", "03", "cps", "--profile", "fast", "--units", "n005", "--into", into)
    assert run_cli(*argv) == 0
    capsys.readouterr()
    assert run_cli("record", "03", "--into", into) == 0  # the full profile: none of its units
    out = capsys.readouterr().out
    assert out.startswith("03_small_groups at profile 'full', seed 0:\n")
    assert "nothing recorded yet (0 of 146 units)" in out
    assert "(1 unit(s) recorded at profile 'fast': fairbook-book record 03 --profile fast)" in out
    assert run_cli("record", "03", "--profile", "fast", "--into", into) == 0
    out = capsys.readouterr().out
    assert "1 of 73 units" in out and "recorded at profile" not in out


def test_record_with_a_corrupt_provenance_is_one_line(tmp_path, capsys):
    folder = tmp_path / "03_small_groups" / "cps"
    folder.mkdir(parents=True)
    (folder / "n005.parquet").write_bytes(b"")
    (folder / "n005.json").write_text("{not json")
    assert run_cli("record", "03", "--into", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "unit n005 is damaged (its provenance n005.json is not JSON)" in err
    assert "recording it again fixes it" in err and "Traceback" not in err


# ---- fairbook audit --decision / --favourable -----------------------------------------------
_AUDIT_CSV = "y_true,y_pred,group\n1,1,a\n0,1,a\n1,0,b\n0,0,b\n1,1,b\n"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ([], "Direction not given"),
        (["--decision", "punitive"], "A positive prediction (label 1) harms the person"),
        (["--decision", "assistive"], "A positive prediction (label 1) helps the person"),
        (["--favourable", "0"], "harms the person (favourable label 0, as given)"),
        (["--favourable", "1", "--decision", "assistive"], "helps the person (favourable label"),
    ],
)
def test_audit_decision_option(tmp_path, capsys, options, says):
    from fairbook.cli import main

    path = tmp_path / "p.csv"
    path.write_text(_AUDIT_CSV)
    assert main(["audit", str(path), *options]) == 0
    out = capsys.readouterr().out
    header = " ".join(line.strip() for line in out.split("\n\n")[0].splitlines())
    assert says in header and "beneficial" not in out


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        (["--decision", "maybe"], "decision must be 'punitive'"),
        (["--decision", ""], "decision must be 'punitive'"),
        (["--favourable", "yes"], "favourable 'yes' is not a number"),
        (["--favourable", "7"], "favourable=7 is not among the labels"),
        (["--favourable", "1", "--decision", "punitive"], "disagree"),
    ],
)
def test_audit_hostile_decision_is_one_line_exit_2(tmp_path, capsys, options, fragment):
    from fairbook.cli import main

    path = tmp_path / "p.csv"
    path.write_text(_AUDIT_CSV)
    with pytest.raises(SystemExit) as info:
        main(["audit", str(path), *options])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err, err


def test_version_is_the_installed_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert run_cli("--version") == 0
    assert capsys.readouterr().out.strip() == f"fairbook-book {version('fairbook')}"


def test_data_where_a_name_prints_its_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fairbook import data

    monkeypatch.setattr(data, "path", lambda name: Path("/cache") / f"{name}.csv")
    assert run_cli("data", "where", "compas") == 0
    assert capsys.readouterr().out.strip() == "/cache/compas.csv"
    assert run_cli("data", "where", "nope") == 2
    assert "unknown data set 'nope'; choose one of compas" in capsys.readouterr().err
    assert run_cli("data", "verify", "compas", "extra.csv") == 2
    assert "takes no output file" in capsys.readouterr().err


def test_data_export_writes_a_lab_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pandas as pd

    from fairbook.data import labs

    table = pd.DataFrame({"y_true": [1, 0], "y_pred": [1, 1], "race": ["a", "=b"]})
    monkeypatch.setitem(labs.LAB_TABLES, "compas-lab", lambda: table)
    out = tmp_path / "lab.csv"
    assert run_cli("data", "export", "compas-lab", str(out)) == 0
    assert capsys.readouterr().out.strip() == f"wrote 2 rows to {out}"
    lines = out.read_text().splitlines()
    assert lines[0] == "y_true,y_pred,race" and lines[2].endswith("'=b")  # no formula
    assert run_cli("data", "export", "nope", str(out)) == 2
    assert "unknown lab table 'nope'" in capsys.readouterr().err
    assert run_cli("data", "export") == 2
    assert "needs a table and a file" in capsys.readouterr().err


def test_student_writes_both_editions(book: Path, tmp_path: Path, capsys) -> None:
    assert run_cli("student", "--out", str(tmp_path / "s")) == 0
    out = capsys.readouterr().out
    assert "[student] 2 chapters in" in out
    assert sorted(p.name for p in (tmp_path / "s").glob("*.ipynb")) == [
        "01_tiny.ipynb",
        "02_other_topic.ipynb",
    ]
    assert "student edition" in (tmp_path / "s" / "EDITION.md").read_text()
    assert run_cli("student", "--out", str(tmp_path / "i"), "--edition", "instructor") == 0
    assert (tmp_path / "i" / "01_tiny.ipynb").read_bytes() == (
        book / "notebooks" / "01_tiny.ipynb"
    ).read_bytes()
    blocked = tmp_path / "file"
    blocked.write_text("x")
    assert run_cli("student", "--out", str(blocked / "x")) == 2
    assert "cannot write" in capsys.readouterr().err


def test_ledger_compare_lists_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pandas as pd

    from fairbook_book import ledger

    now = pd.DataFrame(
        {"paper": ["p", "p"], "source": ["T"] * 2, "quantity": ["a", "b"],
         "chapter": ["01"] * 2, "budget": ["fast"] * 2, "ours": [1.0, 2.0],
         "outcome": ["matches", "differs"]}
    )  # fmt: skip
    monkeypatch.setattr(ledger, "read_executed", lambda folder: now)
    (tmp_path / "executed").mkdir()
    old = ledger.write_ledger(now.assign(outcome=["matches", "matches"]), tmp_path / "old.csv")
    argv = ["ledger", "--executed", str(tmp_path / "executed"), "--compare", str(old)]
    assert run_cli(*argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 rows then, 2 now: 1 verdicts changed, 0 kinds changed")
    assert "verdict" in out and "differs" in out
    # a row whose kind changed (a result now counted as a check) is listed as such
    checked = now.assign(kind=["result", "arithmetic"])
    monkeypatch.setattr(ledger, "read_executed", lambda folder: checked)
    old = ledger.write_ledger(now.assign(kind=["result", "result"]), tmp_path / "old2.csv")
    argv = ["ledger", "--executed", str(tmp_path / "executed"), "--compare", str(old)]
    assert run_cli(*argv) == 0
    out = capsys.readouterr().out
    assert "0 verdicts changed, 1 kinds changed with the same verdict" in out
    assert "arithmetic" in out
    assert run_cli("ledger", "--executed", str(tmp_path / "executed"), "--compare", "nope.csv") == 2
    assert "no ledger at nope.csv" in capsys.readouterr().err


def test_the_ledger_command_offers_every_outcome() -> None:
    from fairbook_book.cli import LEDGER_OUTCOMES
    from fairbook_book.replication import OUTCOMES

    assert LEDGER_OUTCOMES == OUTCOMES


def _ledger_of_this_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A one-row ledger read from an (empty) executed folder: what --compare compares with."""
    import pandas as pd

    from fairbook_book import ledger

    now = pd.DataFrame(
        {"paper": ["p"], "source": ["T"], "quantity": ["a"], "chapter": ["01"],
         "budget": ["fast"], "ours": [1.0], "outcome": ["matches"]}
    )  # fmt: skip
    monkeypatch.setattr(ledger, "read_executed", lambda folder: now)
    (tmp_path / "executed").mkdir()
    return now


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("null", "not a list of rows"),
        ("42", "not a list of rows"),
        ('[{"paper": {"nested": 1}}]', "not a list of rows"),
        ("[" * 100_000 + "]" * 100_000, "is not a ledger"),
    ],
    ids=["null", "number", "nested", "deep"],
)
def test_ledger_compare_refuses_json_that_is_not_a_ledger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, content, fragment
) -> None:
    """Issue 48, cause 9: null was an empty ledger ("1225 rows added"), deep nesting a
    traceback."""
    _ledger_of_this_build(tmp_path, monkeypatch)
    old = tmp_path / "old.json"
    old.write_text(content)
    argv = ["ledger", "--executed", str(tmp_path / "executed"), "--compare", str(old)]
    assert run_cli(*argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_ledger_compare_escapes_terminal_characters_of_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from fairbook_book import ledger

    now = _ledger_of_this_build(tmp_path, monkeypatch)
    hostile = now.assign(quantity=["\x1b[31mred\x1b[0m"], outcome=["differs"])
    old = ledger.write_ledger(hostile, tmp_path / "old.csv")
    argv = ["ledger", "--executed", str(tmp_path / "executed"), "--compare", str(old)]
    assert run_cli(*argv) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[31mred" in out


def test_a_reader_that_stops_early_ends_the_command_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `fairbook-book ledger | head -1`: the pipe closes while the command still prints

    class ClosedPipe:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert cli.main(["chapters"]) == 141


# ---- the library's command: audit and data only --------------------------------------------


def test_the_library_command_has_only_its_own_commands(capsys: pytest.CaptureFixture[str]):
    from fairbook.cli import BOOK_COMMANDS, build_parser

    choices = build_parser()._subparsers._group_actions[0].choices
    assert set(choices) == {"audit", "data"}
    assert set(BOOK_COMMANDS) == set(cli.COMMAND_LINE.commands) - {"audit", "data"}


@pytest.mark.parametrize("command", ["build", "record", "verify", "ledger", "student"])
def test_a_book_command_of_the_library_says_where_it_is(command, capsys):
    from fairbook.cli import main

    assert main([command, "03"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"fairbook-book {command}" in err and "checkout" in err


def test_the_library_command_starts_without_importing_the_audit():
    # the audit's flags are built from its options table only when `audit` is the command
    code = (
        "import sys, fairbook.cli; print('pandas' in sys.modules, 'fairbook.audit' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
