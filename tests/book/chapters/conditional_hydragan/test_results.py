"""Tests of :mod:`fairbook_book.chapters.conditional_hydragan.results`: the analogues of
Tables 3.4 and 3.5, the spread over seeds and the reading of OFI beside DI."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import conditional_hydragan as hc


def test_activity_mapping_covers_adult_occupations():
    from fairbook.data import load_adult

    occupations = sorted(load_adult("train", drop_missing=True)["occupation"].unique())
    mapping = hc.activity_mapping(occupations)
    assert set(mapping.loc[mapping.positive, "occupation"]) == set(hc.SEDENTARY)
    assert set(hc.SEDENTARY) <= set(occupations)


def test_table_3_4_improvement_and_spread(fake_scores):
    scores = fake_scores()
    t = hc.table_3_4(scores, as_text=False)
    imp = t.xs("improves", level="data").xs("mean", axis=1, level=1)
    # |0.2 + s/100| − |0.1 + s/100| = 0.1 for the first class; for the second
    # |−0.2 + s/100| − |−0.1 + s/100| = 0.1 as well (s/100 < 0.1)
    assert np.allclose(imp.to_numpy(), 0.1)
    assert t.loc[("OFI", "real"), ("Female", "sd")] == pytest.approx(
        np.std([0, 0.01, 0.02], ddof=1)
    )
    text = hc.table_3_4(scores)
    assert "±" in text.loc[("DI", "real"), "Male"]
    spread = hc.seed_spread(scores)
    assert list(spread.index) == list(hc.METRICS)
    with pytest.raises(ValueError, match="definition"):
        hc.table_3_4(scores, definition="rest")


def test_table_3_5_individuals_are_exact(small_run):
    cfg, data, result = small_run
    t35 = hc.table_3_5(result)
    assert (t35[("Individuals", "synthetic")] == 0).all()
    assert (t35[("Individuals", "improvement %")] == 100).all()


def test_reading_labels_each_case():
    rows = []
    for cls, ofi, di in (
        ("Female", 0.1, 1.5),
        ("Male", 0.1, 1.0),
        ("oldest 25 %", 0.0, 1.5),
        ("youngest 75 %", -0.001, 1.01),
    ):
        rows += [
            {"seed": 0, "data": "real", "definition": "pair", "class": cls, "metric": m, "value": v}
            for m, v in (("OFI", ofi), ("DI", di))
        ]
    r = hc.reading(pd.DataFrame(rows))
    assert r.loc["Female", "reading"].startswith("algorithmic bias (OFI) and")
    assert r.loc["Male", "reading"] == "algorithmic bias (OFI) that DI misses"
    assert r.loc["oldest 25 %", "reading"].startswith("systemic disparity")
    assert r.loc["youngest 75 %", "reading"] == "neither"
    assert r.loc["Female", "OFI direction"] == "toward the class"


def test_recording_cost_is_the_mean_seed_times_the_profiles_seeds():
    from fairbook_book.recordings import Recording

    provenance = [
        {"unit": "seed00", "seconds": 1000.0, "cpu_seconds": 500.0},
        {"unit": "seed01", "seconds": 2000.0, "cpu_seconds": 700.0},
    ]
    recording = Recording("07", "seeds", pd.DataFrame(), provenance, expected=10)
    cost = hc.recording_cost(recording).loc["seeds"]
    assert cost["profile hours (extrapolated)"] == pytest.approx(1500.0 * 10 / 3600)
    assert cost["recorded hours"] == pytest.approx(3000.0 / 3600)
    assert cost["profile CPU hours (extrapolated)"] == pytest.approx(600.0 * 10 / 3600)
    empty = hc.recording_cost(Recording("07", "seeds", pd.DataFrame(), expected=10)).loc["seeds"]
    assert empty["units recorded"] == 0 and np.isnan(empty["profile hours (extrapolated)"])
