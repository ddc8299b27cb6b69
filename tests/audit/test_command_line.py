"""Tests of ``fairbook audit`` (the ``_audit`` subcommand of fairbook.cli): every option,
and bad input as exit status 2 with one line, never a traceback."""

import json

import pandas as pd
import pytest

from fairbook.audit import JSON_SCHEMA, audit_file
from fairbook.cli import main

from .conftest import make_table


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "predictions.csv"
    make_table(400).to_csv(path, index=False)
    return path


def test_every_option_at_once(csv, tmp_path, capsys):
    html, out = tmp_path / "report.html", tmp_path / "groups.csv"
    arguments = [
        "audit",
        str(csv),
        "--group",
        "race",
        "--group",
        "sex",
        "--intersections",
        "--reference",
        "race=Black",
        "--reference",
        "sex=F",
        "--score",
        "score",
        "--runs",
        "pred_*",
        "--samples",
        "p_*",
        "--alpha",
        "0.01",
        "--metric",
        "PPR",
        "--metric",
        "TPR",
        "--html",
        str(html),
        "--output",
        str(out),
    ]
    assert main(arguments) == 0
    text = capsys.readouterr().out
    assert "reference group: 'Black' (as given)" in text
    assert "STABILITY OVER 3 RUNS" in text and "UNCERTAINTY (4 samples" in text
    assert html.read_text().startswith("<!DOCTYPE html>")
    written = pd.read_csv(out)
    assert list(written.columns[:2]) == ["group", "attribute"]
    assert set(written.attribute) == {"race", "sex", "race & sex"}
    report = audit_file(
        csv,
        groups=["race", "sex"],
        intersections=True,
        reference=["race=Black", "sex=F"],
        score="score",
        runs=["pred_*"],
        samples=["p_*"],
        alpha=0.01,
        metrics=["PPR", "TPR"],
    )
    assert report.references["race & sex"] == "Black & F"
    assert len(written) == len(report.to_frame("groups"))


def test_json_output(csv, capsys):
    import jsonschema

    assert main(["audit", str(csv), "--group", "race", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    jsonschema.validate(document, JSON_SCHEMA)
    assert document["settings"]["attributes"] == ["race"]
    assert document["settings"]["alpha"] == 0.05


CLI_ERRORS = [
    # (label, extra arguments, fragment of the one-line error)
    ("missing --group column", ["--group", "religion"], "missing column(s) ['religion']"),
    ("glob matching nothing", ["--group", "race", "--runs", "run_*"], "matches no column"),
    ("--samples glob matching nothing", ["--group", "race", "--samples", "q_*"], "matches no"),
    ("--samples of text", ["--group", "race", "--samples", "sex"], "holds text"),
    ("--score missing", ["--group", "race", "--score", "proba"], "missing column(s) ['proba']"),
    (
        "probabilities outside [0, 1]",
        ["--group", "race", "--samples", "y_pred", "--samples", "race"],
        "holds text",
    ),
    (
        "--reference without column",
        ["--group", "race", "--group", "sex", "--reference", "F"],
        "does not say which group column",
    ),
    (
        "--reference absent",
        ["--group", "race", "--reference", "race=Martian"],
        "not among the groups",
    ),
    (
        "--intersections with one group",
        ["--group", "race", "--intersections"],
        "at least two group columns",
    ),
    ("--alpha out of range", ["--group", "race", "--alpha", "2"], "alpha must be a number between"),
    ("--metric without exact law", ["--group", "race", "--metric", "MCC"], "no exact MATCH"),
    ("--html folder missing", ["--group", "race", "--html", "{tmp}/no/r.html"], "does not exist"),
    ("--html is a folder", ["--group", "race", "--html", "{tmp}"], "is a folder"),
]


@pytest.mark.parametrize(
    ("extra", "fragment"), [c[1:] for c in CLI_ERRORS], ids=[c[0] for c in CLI_ERRORS]
)
def test_bad_input_exits_2_with_one_line(csv, tmp_path, capsys, extra, fragment):
    args = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    with pytest.raises(SystemExit) as info:
        main(["audit", str(csv), *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert fragment in err, err


def test_probabilities_outside_unit_interval(tmp_path, capsys):
    frame = make_table(100)
    frame["p_1"] = frame["p_1"] + 0.5
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(SystemExit) as info:
        main(["audit", str(path), "--group", "race", "--samples", "p_*"])
    assert info.value.code == 2
    assert "samples column 'p_1' holds values outside [0, 1]" in capsys.readouterr().err


def test_a_run_with_a_third_label(tmp_path, capsys):
    frame = make_table(50)
    frame.loc[0, "pred_2"] = 7
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(SystemExit):
        main(["audit", str(path), "--group", "race", "--runs", "pred_*"])
    err = capsys.readouterr().err
    assert "run column 'pred_2'" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ --test
def test_a_bad_test_is_one_line_and_exit_2(csv, capsys):
    with pytest.raises(SystemExit) as info:
        main(["audit", str(csv), "--test", "t-test"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "fairbook audit: error: test must be one of match, wald, score, fisher, boschloo, "
        "bayes, got 't-test'\n"
    )


def test_boschloo_on_a_large_group_is_one_line_naming_the_group(tmp_path, capsys):
    path = tmp_path / "large.csv"
    make_table(2000).to_csv(path, index=False)  # about 600 Black people against 1200 White
    with pytest.raises(SystemExit) as info:
        main(["audit", str(path), "--group", "race", "--test", "boschloo"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "is too large for Boschloo's test" in err and "--test score" in err


@pytest.mark.parametrize(
    ("test", "name"),
    [("fisher", "Fisher's exact test"), ("score", "pooled score z test"), (None, "MATCH (seed")],
)
def test_the_text_and_json_name_the_test_and_print_sizes(csv, capsys, test, name):
    given = [] if test is None else ["--test", test]
    assert main(["audit", str(csv), "--group", "race", *given]) == 0
    text = capsys.readouterr().out
    header = text.split("\n\n", 1)[0]
    assert f"Test of each comparison: {name}" in header
    assert "exact size at n (" in text and "(exact, by enumeration; chapter 11)" in text
    assert main(["audit", str(csv), "--group", "race", "--json", *given]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["settings"]["test"] == (test or "match")
    assert document["settings"]["test_name"].startswith(name)
    small = document["summary"]["small_groups"][0]
    assert len(small["exact_sizes"]) == len(small["metrics"]) == len(small["size_notes"])
