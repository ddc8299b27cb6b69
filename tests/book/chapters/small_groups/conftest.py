"""Fixtures shared by the tests of :mod:`fairbook_book.chapters.small_groups` (seed 003 ch. 4).

Figures are drawn with the Agg backend and closed after every test; ``toy_counts`` gives
per-group counts of three groups (small, big, mid); ``fake_compas`` a six-person COMPAS
file covering every branch of the recidivism definitions; ``toy_cps_run`` a small run of
the CPS protocol on two Adult-like groups.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def toy_counts():
    """A function returning a fresh frame of ``TP FN FP TN`` for groups small, big, mid."""

    def toy_counts():
        return pd.DataFrame(
            {"TP": [5, 400, 30], "FN": [5, 100, 10], "FP": [0, 100, 10], "TN": [10, 400, 50]},
            index=["small", "big", "mid"],
        )

    return toy_counts


@pytest.fixture
def fake_compas():
    """A function returning six people covering every branch of the definitions."""

    def fake_compas():
        return pd.DataFrame(
            {
                "race": [
                    "African-American",
                    "African-American",
                    "Caucasian",
                    "Caucasian",
                    "Caucasian",
                    "Hispanic",
                ],
                "two_year_recid": [1, 0, 1, 0, 1, 0],
                "decile_score": [8, 2, 3, 6, 9, 1],
                "v_decile_score": [7, 1, 2, 5, 6, 1],
                "is_violent_recid": [1, 0, 1, 0, 0, 0],
                "compas_screening_date": [
                    "2013-01-01",
                    "2013-02-01",
                    "2013-03-01",
                    "2014-12-01",
                    "2014-11-01",
                    "2013-01-05",
                ],
                "vr_offense_date": ["2013-06-01", None, "2016-01-01", None, None, None],
                # zafar2017 columns: the last person is filtered out
                "days_b_screening_arrest": [0, 1, -1, 0, 2, 45],
                "is_recid": [1, 0, 1, 0, 1, 0],
                "c_charge_degree": ["F", "M", "F", "F", "M", "F"],
                "score_text": ["High", "Low", "Low", "Medium", "High", "Low"],
            }
        )

    return fake_compas


@pytest.fixture
def toy_cps_run():
    """A function returning ``(groups, run)``: two Adult-like groups (big, small) and the
    CPS protocol on them (sizes 5 and 15, TPR and PPR, 3000 draws, seed 4)."""
    from fairbook_book.chapters import small_groups as sg

    def toy_cps_run():
        adult = pd.DataFrame(
            {"TP": [50.0, 5], "FN": [10, 1], "FP": [10, 2], "TN": [130, 12]},
            index=["big", "small"],
        )
        groups = sg.cps_groups(adult_counts=adult, compas_definition=None)
        run = sg.cps_experiment(groups, sizes=[5, 15], metrics=["TPR", "PPR"], n_draws=3000, seed=4)
        return groups, run

    return toy_cps_run
