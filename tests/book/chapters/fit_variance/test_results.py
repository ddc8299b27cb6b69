"""fairbook_book.chapters.fit_variance.results: Table 3, the survey file, tables of a study."""

import numpy as np
import pandas as pd
import pytest

from fairbook.papers import seed004
from fairbook_book.chapters import fit_variance as fv


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


def test_recording_cost_extrapolates_each_task_from_its_own_runs():
    from fairbook_book.recordings import Recording

    provenance = [
        {"unit": "a.base.fit.r00", "seconds": 2.0},
        {"unit": "a.base.fit.r01", "seconds": 4.0},
        {"unit": "b.base.fit.r00", "seconds": 10.0},
    ]
    for record, cpu in zip(provenance, (1.0, 3.0, 5.0), strict=True):
        record["cpu_seconds"] = cpu
    recording = Recording("06_fit_variance", "study", pd.DataFrame(), provenance, expected=12)
    config = {"tasks": ("a", "b"), "techniques": ("base",), "n_runs": 2}
    cost = fv.recording_cost(recording, config)
    # 6 units per task (FIT, strict, seed x 2 runs): a at 3 s, b at 10 s
    assert cost.loc["a", "units in the profile"] == 6
    assert cost.loc["all", "profile hours (extrapolated)"] * 3600 == pytest.approx(6 * 3 + 6 * 10)
    assert cost.loc["all", "recorded hours"] * 3600 == pytest.approx(16.0)
    cpu = cost.loc["all", "profile CPU hours (extrapolated)"] * 3600
    assert cpu == pytest.approx(6 * 2 + 6 * 5)
    assert cost.loc["all", "units recorded"] == 3
    # a task with no recorded run: its cost, and so the total, is unknown (NaN)
    config = {"tasks": ("a", "b", "c"), "techniques": ("base",), "n_runs": 2}
    assert np.isnan(fv.recording_cost(recording, config).loc["all", "profile hours (extrapolated)"])
    assert fv.recording_cost(Recording("06", "study", pd.DataFrame())).empty


def test_two_runs_shows_both_runs_and_their_difference(synthetic_study):
    table = fv.two_runs(synthetic_study, "t", runs=(0, 3))
    rows = synthetic_study[
        (synthetic_study["technique"] == "base")
        & (synthetic_study["setting"] == fv.SETTINGS_FIT)
        & (synthetic_study["class"] == "overall")
        & (synthetic_study["metric"] == "DP")
    ].set_index("run")["value"]
    assert table.index.tolist() == ["run 0", "run 3", "difference (pp)"]
    assert table.loc["run 3", "DP"] == pytest.approx(100 * rows[3])
    assert table.loc["difference (pp)", "DP"] == pytest.approx(100 * (rows[3] - rows[0]))
    with pytest.raises(ValueError, match="two runs"):
        fv.two_runs(synthetic_study, "t", runs=(0, 99))


def test_comparison_table_is_compare_runs_in_one_row():
    from fairbook.stats.between_runs import compare_runs

    base, treated = [0.10, 0.12, 0.08, 0.11], [0.07, 0.09, 0.12, 0.08]
    table = fv.comparison_table(base, treated)
    expected = compare_runs(base, treated)
    assert len(table) == 1
    assert table.iloc[0]["Cohen's d"] == pytest.approx(expected["cohen_d"])
    assert table.iloc[0]["U-test p"] == pytest.approx(expected["mw_p"])
    assert table.iloc[0]["direction"] == "not significant"


def test_smallest_p_values_are_one_over_the_binomial_coefficient():
    from math import comb

    table = fv.smallest_p_values((3, 4, 8), alpha=0.02)
    for n in (3, 4, 8):
        assert table.loc[n, "smallest exact p"] == pytest.approx(1 / comb(2 * n, n))
    assert table["below 0.02"].tolist() == [False, True, True]  # 1/20, 1/70, 1/12870


def test_effects_table_shows_the_tests_in_percent_with_p_value_names(synthetic_study):
    from fairbook_book.formatting import is_p_value_column

    table = fv.effects_table(synthetic_study)
    effects = fv.effects(synthetic_study, "t")
    assert table.index.names == ["task", "technique", "metric"]
    assert list(table.columns) == [
        "mean base (%)",
        "mean technique (%)",
        "U-test p",
        "exact U-test p",
        "Cohen's d",
        "effect",
        "direction",
        "target",
    ]
    row = table.loc[("t", "penalty", "DP")]
    mean = effects.loc[("penalty", "DP"), "mean_baseline"]
    np.testing.assert_allclose(row["mean base (%)"], 100 * mean)
    assert row["U-test p"] == effects.loc[("penalty", "DP"), "mw_p"]
    assert row["exact U-test p"] == effects.loc[("penalty", "DP"), "mw_p_exact"]
    # the book's formatter prints these two as p-values, never rounded to 0.00
    assert is_p_value_column("U-test p") and is_p_value_column("exact U-test p")
