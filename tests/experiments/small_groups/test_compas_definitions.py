"""Tests of :mod:`fairbook.experiments.small_groups.compas_definitions` (Sec. 4.6, which
COMPAS matrices the published ones are).

Oracles: a six-person file counted by hand, ProPublica's printed rates
(:mod:`fairbook.papers.seed003`); the real COMPAS file only if cached. No network.
"""

import pandas as pd
import pytest

from fairbook.experiments import small_groups as sg
from fairbook.metrics import compute
from fairbook.papers import seed003


def fake_compas():
    """Six people covering every branch of the definitions."""
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


def test_compas_definition_counts_by_hand():
    frame = fake_compas()
    general = sg.compas_definition_counts("general", frame=frame)
    assert general["African-American"].tolist() == [1, 0, 0, 1]
    assert general["Caucasian"].tolist() == [1, 1, 1, 0]
    assert general["all"].tolist() == [2, 1, 1, 2]
    violent = sg.compas_definition_counts("violent", frame=frame)
    # the Caucasian violent offence is > 730 days after screening: not a positive
    assert violent["Caucasian"].tolist() == [0, 0, 2, 1]
    assert violent["African-American"].tolist() == [1, 0, 0, 1]
    zafar = sg.compas_definition_counts("general_zafar", frame=frame)
    assert zafar["all"].sum() == 5
    population = sg.compas_definition_counts("violent_population", frame=frame)
    # the Caucasian general recidivist screened in Nov 2014 has < 730 days by 2016-04-01
    assert population["Caucasian"].sum() == 2
    with pytest.raises(ValueError, match="unknown definition"):
        sg.compas_definition_counts("sometimes", frame=frame)


def test_published_matrices_have_propublicas_violent_rates():
    for group, rates in seed003.PROPUBLICA_VIOLENT_RATES.items():
        cm = seed003.COMPAS_CPS_MATRICES[group]
        for name, value in rates.items():
            assert round(100 * compute(name, cm), 2) == value
    table = sg.compas_definition_table(frame=fake_compas())
    assert table.loc[("published", "all"), "n"] == 6454
    assert table.loc[("published", "all"), "tv_distance"] == 0


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_real_compas_general_table_is_propublicas():
    table = sg.propublica_rates_replication()
    assert set(table.verdict) == {"matches"}
    defs = sg.compas_definition_table()
    tv = defs.xs("all", level="group")["tv_distance"]
    assert tv["violent_population"] < tv["violent"] < tv["general"]
