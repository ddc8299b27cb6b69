"""Tests of fairbook.audit.options: the constraints table, the options object, the flags.

The bad-parameter tests are generated from :data:`~fairbook.audit.options.CONSTRAINTS`, as
scikit-learn generates its own from ``_parameter_constraints``: for every option, the invalid
values of its kind must be refused with that kind's one wording, by the Python API and by the
command line (exit status 2, one line, no traceback); its default must be accepted; and every
option must be reachable as a flag.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairbook.audit import AuditOptions, audit
from fairbook.audit.options import CONSTRAINTS, KINDS, command_line_arguments, parse_text
from fairbook.cli import build_parser, main

#: Invalid values of each kind (a kind without any, e.g. a label, checks against the data) and
#: the wording every refusal of that kind shares.
INVALID = {
    "fraction": (
        [0, 1, 1.5, -0.1, math.nan, True, "0.05", None],
        "must be a number between 0 and 1",
    ),
    "non-negative": ([-1, math.inf, math.nan, True, "5", None], "must be a finite number >= 0"),
    "jobs": ([0, 1.5, True, "2", None], "must be a non-zero integer"),
    "limit": ([0, -3, 2.5, True, "10"], "must be a whole number >= 1, or None"),
    "switch": ([1, "yes", None], "must be True or False"),
    "column": ([True, ["a"], {"a": 1}], "must name one column"),
    "columns": ([[], [True]], "column"),
    "patterns": ([[True], ["a", "a"]], "column"),
    "metrics": ([["MCC"], [], "XYZ"], "metric"),
    "decision": (["maybe", "", 1], "decision must be 'punitive'"),
    "choice": (["bootstrap", "match_normal", "", 1, None, True], "must be one of"),
    "label": ([[1], {"a": 1}], "must be a single label"),
    "references": ([[1, 2]], "must be a single label"),
}

#: Invalid command-line strings of each kind that takes a number.
INVALID_TEXT = {
    "fraction": ["2", "abc", "nan", "-0.5"],
    "non-negative": ["-1", "inf", "abc"],
    "jobs": ["0", "1.5", "abc"],
    "limit": ["-3", "2.5", "abc"],
    "choice": ["bootstrap", "chi2", "FISHERS"],
}


def _cases():
    for constraint in CONSTRAINTS:
        values, wording = INVALID[constraint.kind]
        for value in values:
            yield pytest.param(constraint, value, wording, id=f"{constraint.name}={value!r}")


def test_every_kind_has_its_check_and_its_invalid_values():
    assert {c.kind for c in CONSTRAINTS} <= set(KINDS) == set(INVALID)


def test_the_options_object_has_exactly_the_constraints_fields_and_defaults():
    fields = AuditOptions.__dataclass_fields__
    assert list(fields) == [c.name for c in CONSTRAINTS]
    defaults = AuditOptions()
    for c in CONSTRAINTS:
        assert getattr(defaults, c.name) == (c.default if c.kind != "columns" else tuple(c.default))


@pytest.mark.parametrize(("constraint", "value", "wording"), list(_cases()))
def test_a_bad_value_is_refused_in_its_kinds_words(constraint, value, wording):
    with pytest.raises(ValueError, match=wording.replace("(", r"\(")) as info:
        AuditOptions(**{constraint.name: value})
    message = str(info.value)
    assert "\n" not in message
    if constraint.kind in {
        "fraction",
        "non-negative",
        "limit",
        "switch",
        "column",
        "label",
        "choice",
    }:
        assert message.startswith(constraint.name)


def test_an_unknown_option_is_named():
    with pytest.raises(TypeError, match="unknown audit option 'alfa'"):
        AuditOptions.from_keywords(alfa=0.1)
    frame = pd.DataFrame({"y_true": [1, 0], "y_pred": [1, 1], "group": ["a", "b"]})
    with pytest.raises(TypeError, match="unknown audit option 'min_gaps'"):
        audit(frame, min_gaps=0.1)


def test_options_are_frozen_and_replace_checks_again():
    options = AuditOptions()
    with pytest.raises(AttributeError):
        options.alpha = 0.5  # type: ignore[misc]
    assert options.replace(alpha=0.1).alpha == 0.1
    with pytest.raises(ValueError, match="alpha must be"):
        options.replace(alpha=2)


@given(st.floats(min_value=1e-300, max_value=1 - 1e-12))
def test_any_fraction_inside_the_open_interval_is_kept_exactly(value):
    assert AuditOptions(alpha=value, min_gap=value).min_gap == value


@given(st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0)))
def test_any_fraction_outside_is_refused(value):
    with pytest.raises(ValueError, match="min_gap must be a number between 0 and 1"):
        AuditOptions(min_gap=value)


# --------------------------------------------------------------------------- the flags
def test_every_option_is_a_flag_with_its_default_from_the_table():
    flags = {kwargs["dest"]: (names, kwargs) for names, kwargs in command_line_arguments()}
    assert list(flags) == [c.name for c in CONSTRAINTS]
    parser = build_parser()
    audit_parser = parser._subparsers._group_actions[0].choices["audit"]
    by_dest = {a.dest: a for a in audit_parser._actions}
    for c in CONSTRAINTS:
        assert c.name in by_dest, f"{c.name} has no flag"
        assert c.option in by_dest[c.name].option_strings
        if c.default not in (None, False):
            shown = " ".join(map(str, c.default)) if isinstance(c.default, tuple) else c.default
            assert f"(default {shown})" in by_dest[c.name].help


@pytest.fixture
def predictions(tmp_path):
    path = tmp_path / "p.csv"
    pd.DataFrame(
        {"y_true": [1, 0, 1, 0], "y_pred": [1, 1, 0, 0], "group": ["a", "a", "b", "b"]}
    ).to_csv(path, index=False)
    return path


def _text_cases():
    for constraint in CONSTRAINTS:
        for text in INVALID_TEXT.get(constraint.kind, []):
            yield pytest.param(constraint, text, id=f"{constraint.option} {text}")


@pytest.mark.parametrize(("constraint", "text"), list(_text_cases()))
def test_a_bad_flag_value_is_one_line_and_exit_2(predictions, capsys, constraint, text):
    with pytest.raises(SystemExit) as info:
        main(["audit", str(predictions), constraint.option, text])
    assert info.value.code == 2
    err = capsys.readouterr().err
    wording = INVALID[constraint.kind][1]
    assert err.count("\n") == 1 and wording in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("flags", "setting", "value"),
    [
        (["--min-gap", "0.1"], "min_gap", 0.1),
        (["--lam", "0"], "lam", 0.0),
        (["--alpha", "0.01"], "alpha", 0.01),
        (["--metric", "tpr", "--metric", "FPR"], "metrics", ["TPR", "FPR"]),
        (["--test", "Fisher"], "test", "fisher"),
        (["--test", "boschloo"], "test_name", "Boschloo's exact unconditional test"),
    ],
)
def test_the_flags_reach_the_report(predictions, capsys, flags, setting, value):
    import json

    assert main(["audit", str(predictions), "--json", *flags]) == 0
    assert json.loads(capsys.readouterr().out)["settings"][setting] == value


def test_n_jobs_and_max_groups_are_reachable(predictions, capsys):
    assert main(["audit", str(predictions), "--n-jobs", "2", "--max-groups", "0"]) == 0
    with pytest.raises(SystemExit):
        main(["audit", str(predictions), "--max-groups", "1"])
    assert "above max_groups=1" in capsys.readouterr().err


def test_text_is_parsed_by_kind_and_labels_stay_text():
    assert parse_text({"min_gap": " 0.2 ", "max_groups": "5", "positive": "yes"}) == {
        "min_gap": 0.2,
        "max_groups": 5,
        "positive": "yes",
    }


# --------------------------------------------------------------------------- the test
def test_the_test_option_offers_exactly_the_six_tests_and_defaults_to_match():
    (test,) = [c for c in CONSTRAINTS if c.name == "test"]
    assert test.choices == ("match", "wald", "score", "fisher", "boschloo", "bayes")
    assert AuditOptions().test == "match" == test.default
    for choice in test.choices:
        assert AuditOptions(test=choice.upper()).test == choice
    with pytest.raises(ValueError) as info:
        AuditOptions(test="bootstrap")  # a test of group_tests that is random: not offered
    assert str(info.value) == (
        "test must be one of match, wald, score, fisher, boschloo, bayes, got 'bootstrap'"
    )


def test_the_help_lists_test_with_its_choices(capsys):
    with pytest.raises(SystemExit) as info:
        main(["audit", "--help"])
    assert info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--test match|wald|score|fisher|boschloo|bayes" in out
    assert "fisher: Fisher's exact test" in out and "(default match)" in out
