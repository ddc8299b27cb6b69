"""Tests of fairbook.labels: the one validated encoding every counting function shares."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.labels import (
    binary_indicators,
    encode_values,
    label_array,
    label_position,
    show_value,
    show_values,
)


def test_show_value_prints_python_scalars_and_escapes_control_characters():
    assert show_value(np.int64(1)) == "1"
    assert show_value(np.bool_(True)) == "True"
    assert "np." not in show_values(np.array([1, 2], dtype=np.int64))
    assert "\x1b" not in show_value("a\x1bb")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (3, "got a single value"),
        ([[0, 1]], "shape"),
        ([0.0, np.nan], "1 missing value"),
        (np.array(["a", None], dtype=object), "missing value"),
        (np.array([1 + 2j]), "cannot be used as labels"),
    ],
)
def test_label_array_refuses(values, message):
    with pytest.raises(ValueError, match=message):
        label_array(values, "y_true")


@settings(max_examples=80, deadline=None)
@given(
    st.one_of(
        st.lists(st.booleans(), max_size=40),
        st.lists(st.integers(-3, 3), max_size=40),
        st.lists(st.integers(-(2**62), 2**62), max_size=40),
        st.lists(st.sampled_from([0, 10**6, 10**12]), max_size=40),
        st.lists(st.text(max_size=3), max_size=40),
        st.lists(st.floats(-5, 5, allow_nan=False), max_size=40),
    )
)
def test_encode_values_agrees_with_numpy_unique(values):
    array = np.array(values)
    uniques, codes = encode_values(array)
    expected_uniques, expected_codes = np.unique(array, return_inverse=True)
    assert uniques.dtype == array.dtype
    np.testing.assert_array_equal(uniques, expected_uniques)
    np.testing.assert_array_equal(codes, expected_codes.reshape(-1))
    np.testing.assert_array_equal(uniques[codes], array)  # nothing lost


def test_encode_values_memory_follows_rows_not_magnitudes():
    uniques, codes = encode_values(np.array([0, 1023, 1023]))
    assert uniques.tolist() == [0, 1023] and codes.tolist() == [0, 1, 1]
    uniques, _ = encode_values(np.array([np.iinfo(np.uint64).max, 0], dtype=np.uint64))
    assert uniques.tolist() == [0, 2**64 - 1]


def test_encode_values_refuses_unorderable_mixtures():
    with pytest.raises(ValueError, match="cannot be ordered"):
        encode_values(np.array([1, "a"], dtype=object), name="groups")


@pytest.mark.parametrize(
    ("y_true", "y_pred", "positive", "expected"),
    [
        ([True, False], [True, True], True, ([1, 0], [1, 1])),
        ([True, False], [True, True], 1, ([1, 0], [1, 1])),  # 1 stands for True
        ([True, False], [True, True], 0, ([0, 1], [0, 0])),
        ([0, 0], [5, 5], 0, ([1, 1], [0, 0])),  # constant arrays, non-adjacent labels
        ([0, 0], [5, 5], 5, ([0, 0], [1, 1])),
        ([3, 3], [3, 3], 1, ([0, 0], [0, 0])),  # one label, not positive: all negatives
        ([1.0, 0.0], [1.0, 1.0], 1, ([1, 0], [1, 1])),
        (["y", "n"], ["n", "n"], "y", ([1, 0], [0, 0])),
    ],
)
def test_binary_indicators(y_true, y_pred, positive, expected):
    t, p = binary_indicators(np.array(y_true), np.array(y_pred), positive=positive)
    assert (t.astype(int).tolist(), p.astype(int).tolist()) == (expected[0], expected[1])


@pytest.mark.parametrize(
    ("y_true", "y_pred", "positive", "message"),
    [
        ([0, 1], [1, 1], 2, "occurs in neither y_true nor y_pred, whose labels are \\[0, 1\\]"),
        ([0, 1], [1, 1], 1.5, "not a whole number"),
        ([0, 1], [1, 1], "1", "not a number but the y_true labels are numbers"),
        (["0", "1"], ["1", "1"], 1, "did you mean positive='1'"),
        ([True, False], [True, True], 2, "cannot be a boolean label"),
        ([0, 1, 2], [0, 1, 1], 1, "labels other than the positive label 1 and the negative"),
        ([0, 1], [1, 1], [1], "single label"),
    ],
)
def test_binary_indicators_refuses(y_true, y_pred, positive, message):
    with pytest.raises(ValueError, match=message):
        binary_indicators(np.array(y_true), np.array(y_pred), positive=positive)


def test_label_position():
    assert label_position(np.array([False, True]), 1, what="positive", name="classes") == 1
    assert label_position(np.array([2, 7]), 7.0, what="positive", name="classes") == 1
    with pytest.raises(ValueError, match="is not among the groups: \\['a', 'b'\\]"):
        label_position(np.array(["a", "b"]), "c", what="reference", name="groups")
    with pytest.raises(ValueError, match="is a number but the groups are text"):
        label_position(np.array(["1", "2"]), 1, what="reference", name="groups")
