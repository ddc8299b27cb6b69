"""Tests of the seed-000 chapter's computations — the runs module."""

import numpy as np
import pytest

from fairbook.experiments import uncertainty_fairness as uf


def test_flag_threshold_is_the_papers():
    assert uf.runs._flag(1.2) == "fair" and uf.runs._flag(0.8) == "fair"
    assert uf.runs._flag(1.2001) == "unfair" and uf.runs._flag(np.nan) == "undefined"


def test_settings():
    assert uf.settings("full")["sd_seeds"] >= 20
    with pytest.raises(ValueError, match="profile"):
        uf.settings("huge")
    with pytest.raises(ValueError, match="unknown"):
        uf.settings(bogus=1)
    with pytest.raises(ValueError, match="estimator"):
        uf.make_estimator("svm", epochs=1, batch_size=1, seed=0)
