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
        ([1, 2], [1, 3], None, "labels other than"),
        (["a", "b"], ["a", "b"], None, "labels are text"),
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


@pytest.mark.parametrize(
    ("y_true", "y_pred", "positive", "expected"),
    [
        ([0, 0], [5, 5], 0, [0, 2, 0, 0]),  # were counted as FP by the old integer fast path
        ([0, 0], [5, 5], 5, [0, 0, 2, 0]),
        ([2, 2, 2], [0, 0, 0], 2, [0, 3, 0, 0]),
        ([True, False, True], [True, True, False], 1, [1, 1, 1, 0]),  # 1 stands for True
        ([True, False, True], [True, True, False], False, [0, 1, 1, 1]),
    ],
)
def test_regressions_of_the_integer_fast_path(y_true, y_pred, positive, expected):
    assert confusion_counts(y_true, y_pred, positive=positive).tolist() == expected
    grouped = confusion_counts(y_true, y_pred, np.zeros(len(y_true), int), positive=positive)
    assert grouped.tolist() == [expected]


label_kinds = st.sampled_from(["bool", "int", "sparse_int", "uint", "float", "str", "object"])


def _as_kind(bits, kind):
    bits = np.asarray(bits, dtype=bool)
    values = {
        "bool": (False, True),
        "int": (0, 1),
        "sparse_int": (-(10**15), 10**12),
        "uint": (np.uint64(7), np.uint64(2**63 + 5)),
        "float": (-0.5, 2.25),
        "str": ("no", "yes"),
        "object": ("no", "yes"),
    }[kind]
    out = np.where(bits, values[1], values[0])
    return out.astype(object) if kind == "object" else out


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.booleans(), st.integers(0, 4)), max_size=40),
    label_kinds,
    st.booleans(),
)
def test_every_label_type_counts_like_brute_force(rows, kind, positive_bit):
    """The fast path (integers, booleans) and the generic one (text, objects) agree."""
    columns = list(zip(*rows, strict=True)) or [(), (), ()]
    true_bits, pred_bits, groups = (np.array(c, dtype=int) for c in columns)
    y_true, y_pred = _as_kind(true_bits, kind), _as_kind(pred_bits, kind)
    positive = _as_kind([positive_bit], kind)[0]
    counts, labels = confusion_counts(y_true, y_pred, groups, positive=positive, return_groups=True)
    assert counts.sum() == len(rows)
    for label, row in zip(labels, counts, strict=True):
        mask = groups == label
        assert row.tolist() == brute_force(y_true[mask], y_pred[mask], positive)


def test_sparse_labels_cost_memory_by_rows_not_by_value():
    """Two rows once asked for groups x K^2 dense cells from the label values (gigabytes)."""
    import tracemalloc

    tracemalloc.start()
    classes, groups, counts = multiclass_counts([0, 1000], [1000, 0], [0, 1030])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert classes.tolist() == [0, 1000] and groups.tolist() == [0, 1030]
    assert counts.tolist() == [[[0, 1], [0, 0]], [[0, 0], [1, 0]]]
    assert peak < 2**20  # under a megabyte


def test_multiclass_counts_refuses_too_many_cells():
    scores = np.linspace(0, 1, 12_000)  # probabilities passed as labels: 12,000 "classes"
    with pytest.raises(ValueError, match="scores rather than predicted classes"):
        multiclass_counts(scores, scores)


def test_boolean_labels_keep_their_type_in_multiclass_counts():
    classes, _, counts = multiclass_counts([True, False], [True, True])
    assert classes.dtype == bool and classes.tolist() == [False, True]
    assert counts.tolist() == [[0, 1], [0, 1]]


@pytest.mark.parametrize(
    ("matrices", "message"),
    [
        ([[1, -1], [0, 2]], "negative counts"),
        ([[1.0, np.nan], [0, 2]], "NaN"),
        ([["a", "b"], ["c", "d"]], "counts"),
    ],
)
def test_one_vs_rest_refuses_impossible_counts(matrices, message):
    with pytest.raises(ValueError, match=message):
        one_vs_rest(np.array(matrices))
