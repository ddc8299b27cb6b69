"""Tests of fairbook.audit.groups: codes, intersections and bincount sums against pandas."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.audit.groups import (
    count_cells,
    encode_attribute,
    group_sums,
    intersect,
    outcome_cells,
)
from fairbook.confusion import confusion_counts


def test_text_fast_path_and_general_path_agree():
    values = ["b", "a", "NA", "b"]
    fast = encode_attribute(pd.Series(values, dtype="str"), name="g")
    slow = encode_attribute(np.array(values, dtype=object), name="g")
    assert fast.labels.tolist() == slow.labels.tolist() == ["NA", "a", "b"]
    np.testing.assert_array_equal(fast.codes, slow.codes)


def test_missing_values_and_mixed_types_are_refused():
    with pytest.raises(ValueError, match="missing value"):
        encode_attribute(pd.Series(["a", None], dtype="str"), name="g")
    with pytest.raises(ValueError, match="missing value"):
        encode_attribute([1.0, np.nan], name="g")
    with pytest.raises(ValueError, match="cannot be ordered"):
        encode_attribute(np.array([1, "a"], dtype=object), name="g")


rows = st.lists(
    st.tuples(st.booleans(), st.booleans(), st.sampled_from("xyz"), st.integers(0, 3)),
    min_size=1,
    max_size=80,
)


@settings(max_examples=60, deadline=None)
@given(rows)
def test_counts_equal_confusion_counts_and_intersections_equal_a_group_by(data):
    y, p, a, b = (np.array(c) for c in zip(*data, strict=True))
    cells = outcome_cells(y, p)
    first = encode_attribute(a, name="a")
    counts = count_cells(first, cells)
    np.testing.assert_array_equal(counts, confusion_counts(y, p, a, positive=True))
    both = intersect([first, encode_attribute(b, name="b")])
    frame = pd.DataFrame({"a": a, "b": b, "cell": cells})
    expected = frame.groupby(["a", "b"])["cell"].value_counts().unstack(fill_value=0)
    expected = expected.reindex(columns=range(4), fill_value=0)
    assert both.labels.tolist() == [f"{i} & {j}" for i, j in expected.index]
    np.testing.assert_array_equal(count_cells(both, cells), expected.to_numpy())
    weights = np.arange(len(data), dtype=float)
    np.testing.assert_allclose(
        group_sums(both, weights), frame.assign(w=weights).groupby(["a", "b"])["w"].sum()
    )


def test_ambiguous_intersection_labels_are_refused():
    left = encode_attribute(["a & b", "a"], name="x")
    right = encode_attribute(["c", "b & c"], name="y")
    with pytest.raises(ValueError, match="ambiguous"):
        intersect([left, right])
    with pytest.raises(ValueError, match="at least two"):
        intersect([left])


def test_three_way_intersection_orders_by_each_attribute():
    a = encode_attribute([2, 1, 2, 1], name="a")
    b = encode_attribute([True, True, False, True], name="b")
    c = encode_attribute(["u", "v", "u", "u"], name="c")
    abc = intersect([a, b, c])
    assert abc.name == "a & b & c" and abc.columns == ("a", "b", "c")
    assert abc.labels.tolist() == ["1 & True & u", "1 & True & v", "2 & False & u", "2 & True & u"]
    assert abc.codes.tolist() == [3, 1, 2, 0]
