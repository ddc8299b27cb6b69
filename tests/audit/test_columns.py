"""Tests of fairbook.audit.columns: choosing columns by name or glob, and refusing bad ones."""

import numpy as np
import pandas as pd
import pytest

from fairbook.audit.columns import (
    check_present,
    coerce_option,
    expand_columns,
    no_missing,
    numeric_column,
    probability_columns,
)


def test_expand_columns_exact_first_then_glob_in_table_order():
    columns = ["y", "p_10", "p_2", "p_*", "q"]
    assert expand_columns(columns, "p_*", option="samples") == ["p_*"]  # the exact name wins
    assert expand_columns(columns, ["p_1*", "p_[0-9]"], option="samples") == ["p_10", "p_2"]
    assert expand_columns(columns, ["q", "q"], option="runs") == ["q"]
    assert expand_columns([0, 1, "x"], [1], option="runs") == [1]  # non-text column names


def test_expand_columns_refuses_a_pattern_matching_nothing():
    with pytest.raises(ValueError, match="runs pattern 'pred_\\*' matches no column"):
        expand_columns(["y", "pred"], ["pred", "pred_*"], option="runs")


def test_control_characters_in_names_are_escaped_in_messages():
    with pytest.raises(ValueError) as info:
        check_present(pd.DataFrame({"a\x1b[2J": [1]}), {"groups": ["b"]})
    assert "\x1b" not in str(info.value) and "\\x1b" in str(info.value)


def test_check_present_lists_every_missing_column_and_option():
    frame = pd.DataFrame({"y_true": [1]})
    with pytest.raises(ValueError, match=r"\['g', 's'\] \(groups, score\)"):
        check_present(frame, {"y_true": "y_true", "groups": ["g"], "score": "s"})


def test_no_missing_counts_per_column():
    frame = pd.DataFrame({"a": [1.0, np.nan, np.nan], "b": ["x", None, "y"], "c": [1, 2, 3]})
    with pytest.raises(ValueError, match=r"\{'a': 2, 'b': 1\}"):
        no_missing(frame, ["a", "b", "c", "a"])
    no_missing(frame, ["c"])


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([True, False], "holds booleans"),
        (["1", "2"], "holds text"),
        ([1.0, np.inf], "infinite"),
    ],
)
def test_numeric_column_refuses(values, message):
    with pytest.raises(ValueError, match=message):
        numeric_column(pd.DataFrame({"s": values}), "s", option="score")


def test_probability_columns_shape_and_bounds():
    frame = pd.DataFrame({"a": [0, 1], "b": [0.25, 0.75]})
    np.testing.assert_array_equal(
        probability_columns(frame, ["a", "b"], option="samples"), [[0, 1], [0.25, 0.75]]
    )
    with pytest.raises(ValueError, match=r"from -0.5 to 0.75"):
        probability_columns(frame.assign(b=[-0.5, 0.75]), ["b"], option="samples")


@pytest.mark.parametrize(
    ("value", "column", "expected"),
    [
        ("1", [0, 1], 1),
        (" 2 ", [0, 1], 2),
        ("0.5", [0.0, 1.0], 0.5),
        ("TRUE", [True, False], True),
        ("no", [True, False], False),
        ("x", ["x", "y"], "x"),
        (7, [0, 1], 7),
    ],
)
def test_coerce_option_reads_in_the_column_type(value, column, expected):
    got = coerce_option(value, pd.Series(column), option="positive")
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(
    ("value", "column", "message"),
    [
        ("1.5", [0, 1], "not a whole number"),
        ("yes", [0, 1], "not a number"),
        ("maybe", [True, False], "not true or false"),
    ],
)
def test_coerce_option_refuses(value, column, message):
    with pytest.raises(ValueError, match=message):
        coerce_option(value, pd.Series(column), option="positive")
