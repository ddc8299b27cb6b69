"""Tests of :mod:`fairbook_book.chapters.small_groups.settings`: the chapter's profiles and
constants (seed 003 ch. 4).

Oracles: the printed values of :mod:`fairbook.papers.seed003`.
"""

import pytest

from fairbook.papers import seed003
from fairbook.stats import cps, match
from fairbook_book.chapters import small_groups as sg


def test_settings_profiles_and_overrides():
    fast, full = sg.settings("fast"), sg.settings("full")
    assert fast["cps_draws"] <= 10_000 < full["cps_draws"] == seed003.CPS_PROTOCOL["n_draws"]
    # Sec. 4.6.2: "from n = 5 to n = 150", both ends included: 146 sizes
    protocol = seed003.CPS_PROTOCOL
    assert list(full["cps_sizes"]) == list(range(protocol["n_min"], protocol["n_max"] + 1))
    assert len(full["cps_sizes"]) == 146
    assert set(fast["cps_sizes"]) < set(full["cps_sizes"])
    assert set(full["cps_metrics"]) == set(cps.PAPER_METRICS) and len(cps.PAPER_METRICS) == 15
    assert sg.settings("fast", cps_draws=None)["cps_draws"] == fast["cps_draws"]
    assert sg.settings("fast", cps_draws=7)["cps_draws"] == 7
    with pytest.raises(ValueError, match="profile"):
        sg.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        sg.settings("fast", draws=3)


def test_printed_constants_are_consistent():
    # Fig. 4.1's printed 0.23 is 1365/5956; the published COMPAS "all" matrix is n = 6454
    fig = seed003.FIG_4_1_PPR
    assert round(fig["predicted_positive"] / fig["n"], 2) == fig["printed"]
    assert sum(seed003.COMPAS_CPS_MATRICES["all"]) == 6454
    assert sum(seed003.PROPUBLICA_GENERAL_ALL) == 7214
    ex = seed003.EXAMPLE_4_5_1
    assert ex["k"] == round(ex["n"] * ex["s_obs"])


def test_chapter_constants():
    # MATCH is applied to the metrics with an exact law only
    assert all("exact" in match.methods_for(m) for m in sg.MATCH_METRICS)
    assert set(sg.COMPAS_DEFINITIONS) >= {"general", "general_zafar", "violent_population"}
