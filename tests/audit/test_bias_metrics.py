"""Tests of fairbook.audit.bias_metrics: the seven metrics from counts equal bias_report."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.audit.bias_metrics import DI_BAR_THRESHOLD, bias_metrics_table
from fairbook.confusion import confusion_counts
from fairbook.metrics import bias_report

rows = st.lists(
    st.tuples(st.booleans(), st.booleans(), st.sampled_from("pqrs")), min_size=2, max_size=60
)


@settings(max_examples=80, deadline=None)
@given(rows)
def test_equal_to_bias_report_on_the_rows(data):
    y, p, g = (np.array(c) for c in zip(*data, strict=True))
    if np.unique(g).size < 2 or not (y.any() or p.any()):
        return
    counts, labels = confusion_counts(y, p, g, positive=True, return_groups=True)
    ours = bias_metrics_table(counts, labels, positive=True)
    expected = bias_report(y, p, g, positive=True)
    pd.testing.assert_frame_equal(ours, expected, check_index_type=False)
    assert ours.attrs["groups"] == expected.attrs["groups"]


def test_one_group_and_the_threshold():
    assert bias_metrics_table(np.array([[1, 0, 0, 1]]), ["a"]).empty
    assert DI_BAR_THRESHOLD == 0.2
