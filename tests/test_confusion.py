"""Tests of fairbook.confusion against brute-force counting."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairbook import confusion
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


# ------------------------------------------------------------------------ the dense path
# confusion_counts counts 0/1 labels with small non-negative integer groups by blocks
# (fairbook.confusion._dense_counts); everything else goes through fairbook.labels. The tests
# below shrink the blocks so that a few rows cross block boundaries, odd last blocks and the
# pair count, and hold the dense path to brute force and to the general path.


@pytest.fixture(params=[3, 4], ids=["odd-blocks", "even-blocks"])
def tiny_blocks(monkeypatch, request):
    """Blocks of 3 or 4 rows, pairs up to 3 groups (12 cells), dense up to 8 group codes."""
    monkeypatch.setattr(confusion, "DENSE_BLOCK", request.param)
    monkeypatch.setattr(confusion, "DENSE_GROUPS", 8)
    monkeypatch.setattr(confusion, "DENSE_PAIR_GROUPS", 3)
    monkeypatch.setattr(confusion, "DENSE_PAIR_CELLS", 12)


def _general(y_true, y_pred, groups, positive):
    """The general path's answer: the same rows with groups as text (sorted like integers
    below 10) and labels as floats, which the dense path refuses."""
    text = None if groups is None else np.array([str(int(g)) for g in groups])
    counts, labels = confusion_counts(
        np.asarray(y_true, dtype=float),
        np.asarray(y_pred, dtype=float),
        text,
        positive=float(positive),
        return_groups=True,
    )
    return counts, None if labels is None else labels.astype(int)


def test_dense_path_equals_brute_force_on_every_short_sequence(tiny_blocks):
    """Exhaustive: every sequence of up to 3 rows of (true, pred, group in 0..3), both
    positives, with and without groups; 4 groups (16 cells) count without pairs, 3 with."""
    rows = [(t, p, g) for t in (0, 1) for p in (0, 1) for g in range(4)]
    checked = 0
    for length in (1, 2, 3):
        for combo in np.ndindex(*(len(rows),) * length):
            y_true, y_pred, groups = (
                np.array(c) for c in zip(*(rows[i] for i in combo), strict=True)
            )
            for positive in (0, 1):
                assert confusion.confusion_counts(y_true, y_pred, positive=positive).tolist() == (
                    brute_force(y_true, y_pred, positive)
                )
                counts, labels = confusion.confusion_counts(
                    y_true, y_pred, groups, positive=positive, return_groups=True
                )
                assert labels.tolist() == sorted(set(groups.tolist()))
                for label, row in zip(labels, counts, strict=True):
                    mask = groups == label
                    assert row.tolist() == brute_force(y_true[mask], y_pred[mask], positive)
                checked += 1
    assert checked == 2 * (16 + 16**2 + 16**3)


@settings(  # the fixture only sets constants, the same for every example
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 7)), min_size=1, max_size=41
    ),
    dtypes=st.tuples(*[st.sampled_from(["bool", "int8", "int64", "uint16", "uint64"])] * 3),
    positive=st.sampled_from([0, 1, True, False, np.int64(1), np.uint8(0)]),
    grouped=st.booleans(),
)
def test_dense_path_equals_general_path_for_every_integer_type(
    tiny_blocks, rows, dtypes, positive, grouped
):
    y_true, y_pred, groups = (np.array(c) for c in zip(*rows, strict=True))
    if dtypes[2] == "bool":
        groups = groups % 2
    y_true, y_pred, groups = (
        a.astype(d) for a, d in zip((y_true, y_pred, groups), dtypes, strict=True)
    )
    groups = groups if grouped else None
    assert confusion._dense_counts(y_true, y_pred, groups, positive=positive) is not None
    counts, labels = confusion.confusion_counts(
        y_true, y_pred, groups, positive=positive, return_groups=True
    )
    expected_counts, expected_labels = _general(y_true, y_pred, groups, positive)
    assert counts.dtype == np.int64
    np.testing.assert_array_equal(counts, expected_counts)
    if grouped:
        assert labels.dtype == groups.dtype
        assert labels.astype(int).tolist() == expected_labels.tolist()
    else:
        assert labels is None


@pytest.mark.parametrize(
    ("y_true", "y_pred", "groups", "positive"),
    [
        ([0, 1, 0, 1, 0, 2], [0] * 6, None, 1),  # a third label in the second block
        ([0, 1, 0, 1, 0, 1], [0, 1, 0, 1, -1, 0], None, 1),  # -1: huge when read unsigned
        ([0, 1, 0, 1, 0, 1], [0] * 6, [0, 1, 2, 3, 4, 8], 1),  # group code 8 > DENSE_GROUPS - 1
        ([0, 1, 0, 1, 0, 1], [0] * 6, [0, 1, 2, 3, 4, -1], 1),  # a negative group
        ([0, 1, 0, 1, 0, 1], [0] * 6, None, 2),  # positive outside 0/1
        ([0, 1, 0, 1, 0, 1], [0] * 6, None, 1.0),  # positive not an integer
        ([], [], None, 1),  # no rows
    ],
)
def test_dense_path_hands_everything_else_to_the_general_path(
    tiny_blocks, y_true, y_pred, groups, positive
):
    """None from the dense path, then the general path's answer or message."""
    y_true, y_pred = np.array(y_true, dtype=int), np.array(y_pred, dtype=int)
    groups = None if groups is None else np.array(groups)
    assert confusion._dense_counts(y_true, y_pred, groups, positive=positive) is None
    try:
        got = confusion.confusion_counts(y_true, y_pred, groups, positive=positive)
    except ValueError as error:
        assert "labels other than" in str(error) or "occurs in neither" in str(error)
    else:
        assert got.sum() == y_true.size


def test_dense_path_refuses_non_native_byte_order():
    big_endian = np.array([1, 0, 1], dtype=">i8")
    assert confusion._dense_counts(big_endian, big_endian, None, positive=1) is None
    assert confusion_counts(big_endian, big_endian).tolist() == [2, 0, 0, 1]


def test_dense_path_at_full_block_size_equals_bincount():
    """Real block sizes: 3 blocks and an odd tail, with pairs (8 groups) and without (40)."""
    rng = np.random.default_rng(7)
    n = 2 * confusion.DENSE_BLOCK + 1001
    y_true, y_pred = rng.integers(0, 2, n), rng.integers(0, 2, n)
    for n_groups in (8, 40):
        groups = rng.integers(1, n_groups, n)  # code 0 absent: dropped from the rows
        counts, labels = confusion_counts(y_true, y_pred, groups, return_groups=True)
        floor = np.bincount(4 * groups + 3 - 2 * y_true - y_pred, minlength=4 * n_groups)
        np.testing.assert_array_equal(counts, floor.reshape(n_groups, 4)[1:])
        assert labels.tolist() == list(range(1, n_groups))
