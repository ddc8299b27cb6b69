"""fairbook.experiments.fit_variance.results: Table 3, the survey file, tables of a study."""

import pandas as pd
import pytest

from fairbook.experiments import fit_variance as fv
from fairbook.papers import seed004


def test_table_3_labels_round_trip():
    y, p, g = fv.table_3_labels()
    assert len(y) == 400
    for (group, true), (sport, cook) in seed004.TABLE_3_COUNTS.items():
        rows = (g == group) & (y == true)
        assert int((p[rows] == "Sport").sum()) == sport
        assert int((p[rows] == "Cook").sum()) == cook
    with pytest.raises(ValueError):
        fv.table_3_labels({("F", "a"): (1, 2), ("F", "b"): (1, 2), ("F", "c"): (1, 1)})


def test_survey_file_is_table_5():
    survey = fv.load_survey()
    assert len(survey) == 32
    printed = pd.DataFrame(
        seed004.TABLE_5, columns=["paper", "ref", "multiple_runs", "mean", "stdev", "range"]
    )
    pd.testing.assert_frame_equal(
        survey[["paper", "ref", "multiple_runs", "mean", "stdev", "range"]],
        printed,
        check_dtype=False,
    )


def test_load_survey_reads_a_given_file_and_checks_its_columns(tmp_path):
    good = tmp_path / "survey.csv"
    fv.load_survey().head(3).to_csv(good, index=False)
    assert list(fv.load_survey(good).columns) == fv.SURVEY_COLUMNS
    bad = tmp_path / "bad.csv"
    bad.write_text("# a comment\npaper,ref,year\nA,1,2020\n", encoding="utf-8")
    with pytest.raises(ValueError, match="columns"):
        fv.load_survey(bad)


def test_effects_and_single_run_table_on_a_known_study(synthetic_study):
    study = synthetic_study
    table = fv.effects(study, "t")
    assert set(table.loc["penalty", "direction"]) == {"increase"}
    assert set(table.loc["rebalance", "direction"]) == {"decrease"}
    assert table.loc[("penalty", "EOTP"), "target"]
    runs = fv.single_run_table(study, "t")
    assert not runs["ranges overlap"].any()
    assert (runs["single-run pairs contradicting"] == 0).all()
    costs = fv.costs(study, "t")
    assert costs.loc["rebalance", "experiments reducing bias"] == 7
    assert costs.loc["penalty", "metrics increased"].startswith("DP")


def test_tables_on_a_known_study(synthetic_study):
    study = synthetic_study
    t2 = fv.table_2(study, "t")
    assert t2.loc[("base", "Overall", "MaxDiff"), "DP"] > 0
    strict = fv.spread_contrast(study, "t")
    assert (strict.loc[fv.SETTINGS_STRICT] == 0).all()
    identity = fv.strict_identity(study)
    assert identity["bit-identical"].all()  # the synthetic runs share one hash
