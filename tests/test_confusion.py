"""Tests of fairbook.confusion against brute-force counting."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.confusion import confusion_counts, multiclass_counts, one_vs_rest


def brute_force(y_true, y_pred, positive=1):
    out = [0, 0, 0, 0]
    for t, p in zip(y_true, y_pred, strict=True):
        out[(0 if t == positive else 2) + (0 if p == positive else 1)] += 1
    return out


def test_single_matrix_order_is_tp_fn_fp_tn():
    assert confusion_counts([1, 1, 0, 0, 1], [1, 0, 1, 0, 1]).tolist() == [2, 1, 1, 1]


def test_groups_rows_follow_sorted_labels():
    counts, labels = confusion_counts(
        [1, 0, 1, 0], [1, 1, 0, 0], ["b", "a", "b", "a"], return_groups=True
    )
    assert labels.tolist() == ["a", "b"]
    assert counts.tolist() == [[0, 0, 1, 1], [1, 1, 0, 0]]


def test_string_labels_and_custom_positive():
    y_true = ["yes", "no", "no"]
    y_pred = ["yes", "yes", "no"]
    assert confusion_counts(y_true, y_pred, positive="yes").tolist() == [1, 0, 1, 1]


def test_all_negative_labels_count_as_negatives():
    assert confusion_counts([0, 0], [0, 0]).tolist() == [0, 0, 0, 2]


def test_sparse_integer_groups_drop_absent_values():
    counts, labels = confusion_counts([1, 1, 1], [1, 1, 0], [3, 7, 7], return_groups=True)
    assert labels.tolist() == [3, 7]
    assert counts.tolist() == [[1, 0, 0, 0], [1, 1, 0, 0]]


def test_huge_integer_group_ids_fall_back_to_unique():
    counts, labels = confusion_counts([1, 0], [1, 0], [0, 10**12], return_groups=True)
    assert labels.tolist() == [0, 10**12]
    assert counts.sum() == 2


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(-2, 3)), min_size=1, max_size=60
    )
)
def test_matches_brute_force_per_group(rows):
    y_true, y_pred, groups = map(np.array, zip(*rows, strict=True))
    for positive in (1, 0):
        for g in (groups, groups.astype(str)):  # integer fast path and sorting path
            counts, labels = confusion_counts(
                y_true, y_pred, g, positive=positive, return_groups=True
            )
            for label, row in zip(labels, counts, strict=True):
                mask = g == label
                assert row.tolist() == brute_force(y_true[mask], y_pred[mask], positive)
            assert counts.sum() == len(rows)  # nothing lost


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=50
    )
)
def test_one_vs_rest_matches_binary_counts(rows):
    y_true, y_pred, groups = map(np.array, zip(*rows, strict=True))
    classes, labels, matrices = multiclass_counts(y_true, y_pred, groups)
    ovr = one_vs_rest(matrices)
    for k, cls in enumerate(classes):
        binary = confusion_counts(y_true == cls, y_pred == cls, groups, positive=True)
        np.testing.assert_array_equal(ovr[:, k, :], binary)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "groups", "message"),
    [
        ([0, 1, 2], [0, 1, 1], None, "labels other than"),
        ([0, 1], [0, 1, 1], None, "differ in length"),
        ([0, 1], [0, 1], [0], "groups has length"),
        ([[0, 1]], [[0, 1]], None, "one-dimensional"),
        ([0.0, np.nan], [0.0, 1.0], None, "NaN"),
        ([0, 1], [0, 1], np.array(["a", None], dtype=object), "missing"),
        (["a", "b"], ["a", "c"], None, "labels other than"),
    ],
)
def test_bad_input_raises(y_true, y_pred, groups, message):
    with pytest.raises(ValueError, match=message):
        confusion_counts(y_true, y_pred, groups)


def test_one_vs_rest_rejects_non_square():
    with pytest.raises(ValueError, match="K, K"):
        one_vs_rest(np.zeros((2, 3)))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-1, 4), st.integers(-1, 4), st.integers(5, 9)),
        min_size=1,
        max_size=50,
    )
)
def test_integer_fast_path_equals_the_sorting_path(rows):
    y_true, y_pred, groups = map(np.array, zip(*rows, strict=True))
    fast = multiclass_counts(y_true, y_pred, groups)
    slow = multiclass_counts(y_true.astype(str), y_pred.astype(str), groups.astype(str))
    order = np.argsort(fast[0].astype(str))  # string sort order of the class labels
    assert fast[0].astype(str)[order].tolist() == slow[0].tolist()
    assert fast[1].astype(str).tolist() == slow[1].tolist()
    np.testing.assert_array_equal(fast[2][:, order][:, :, order], slow[2])
