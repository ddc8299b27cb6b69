"""Tests of fairbook.audit.columns: choosing columns by name or glob, and refusing bad ones."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from fairbook.audit.columns import (
    DUPLICATES_ATTR,
    check_labels,
    check_present,
    check_unique,
    coerce_option,
    expand_columns,
    no_missing,
    numeric_column,
    numpy_columns,
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


# ------------------------------------------------------------------ issue 37
def test_a_glob_that_takes_another_role_is_refused():
    columns = ["y_true", "y_pred", "y_1", "group"]
    roles = {"y_true": "y_true", "y_pred": "y_pred", "group": "group"}
    with pytest.raises(ValueError, match="also matches 'y_true', the y_true column"):
        expand_columns(columns, "y_*", option="runs", reserved=roles)
    assert expand_columns(columns, ["y_pred", "y_1"], option="runs", reserved=roles) == [
        "y_pred",
        "y_1",
    ]  # named exactly: meant


def test_repeated_columns_are_refused_where_used():
    frame = pd.DataFrame([[1, 0, 1]], columns=["y", "y", "g"])
    with pytest.raises(ValueError, match="2 columns named 'y'"):
        check_unique(frame, ["y", "g"])
    check_unique(frame, ["g"])
    read = pd.DataFrame({"y_pred": [1], "y_pred.1": [0]})
    read.attrs[DUPLICATES_ATTR] = {"y_pred": 2}
    for column in ("y_pred", "y_pred.1"):
        with pytest.raises(ValueError, match="renamed the other 'y_pred.1'"):
            check_unique(read, [column])


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        (["1", "0", "?"], "text among its numbers: '?'"),
        ([1, 0, "yes"], "text among its numbers: 'yes'"),
        (["0\x00", "1"], "NUL byte"),
    ],
)
def test_labels_with_stray_text_or_nul_are_refused(values, fragment):
    with pytest.raises(ValueError, match=fragment):
        check_labels(pd.Series(values, dtype=object), option="y_true")


def test_plain_labels_pass():
    for values in (["yes", "no"], [1, 0], ["1", "0"], [True, False]):
        check_labels(pd.Series(values), option="y_true")


def test_integers_near_2_64_are_read_exactly():
    column = pd.Series(np.array([2**64 - 1, 2**64 - 2], dtype=np.uint64))
    assert coerce_option(str(2**64 - 1), column, option="--positive") == 2**64 - 1
    assert coerce_option("1e3", pd.Series([0, 1]), option="--positive") == 1000


@pytest.mark.parametrize(
    "dtype", ["Int64", "boolean", "Float64", "int64[pyarrow]", "bool[pyarrow]", "category"]
)
def test_numpy_columns_turn_extension_dtypes_into_numpy(dtype):
    values = [True, False, True] if "bool" in dtype else [3, 1, 3]
    frame = pd.DataFrame({"c": pd.Series(values).astype(dtype)})
    got = numpy_columns(frame, ["c"])["c"]
    assert isinstance(got.dtype, np.dtype)
    assert got.tolist() == values


def test_numpy_columns_keep_text_as_text():
    frame = pd.DataFrame(
        {
            "t": pd.Series(["a", "b"], dtype="string[pyarrow]"),
            "u": pd.Series(["a", "b"]).astype(pd.ArrowDtype(pa.string())),
        }
    )
    got = numpy_columns(frame, ["t", "u"])
    assert got["t"].tolist() == got["u"].tolist() == ["a", "b"]
