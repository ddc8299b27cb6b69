"""Tests of :mod:`fairbook.experiments.small_groups._common`: the input checks every
section of the small-groups chapter shares, through the public functions that use them.
"""

import pandas as pd
import pytest

from fairbook.experiments import small_groups as sg


def test_bad_count_frames_raise(toy_counts):
    with pytest.raises(ValueError, match="lacks column"):
        sg.match_table(pd.DataFrame({"TP": [1]}))
    with pytest.raises(ValueError, match="unknown group"):
        sg.match_table(toy_counts(), groups=["nobody"])
    with pytest.raises(ValueError, match="DataFrame"):
        sg.cps_groups(adult_counts=[[1, 2, 3, 4]], compas_definition=None)
    with pytest.raises(ValueError, match="unknown metric"):
        sg.space_cdfs(["AUC"], [3])
    with pytest.raises(ValueError, match="sizes"):
        sg.space_table([-1])
