"""fairbook_book.chapters.fit_variance.key_results: the chapter's answers, from its runs."""

import math

import numpy as np
import pandas as pd
from scipy import stats

from fairbook_book import ledger
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import fit_variance as fv
from fairbook_book.replication import NotComparable, Rounding, Row, replication_table

#: The baseline's overall DI_BAR and DP in its four FIT runs (the other metrics follow DP).
BASE_DI = [0.30, 0.32, 0.35, 0.31]
BASE_DP = [0.10, 0.11, 0.10, 0.12]


def study(base_di=BASE_DI, *, shift=-0.1, strict_identical=True):
    """Four FIT runs of the baseline and of ``penalty`` (the baseline's values + ``shift``),
    and the baseline with every knob fixed; every run of the FIT setting has its own weights."""
    rows = []
    settings = [(fv.SETTINGS_FIT, "base"), (fv.SETTINGS_FIT, "penalty")]
    settings.append((fv.SETTINGS_STRICT, "base"))
    for setting, technique in settings:
        for run in range(4):
            values = {m: BASE_DP[run] for m in fv.METRICS}
            values["DI_BAR"] = base_di[run]
            values["accuracy"] = 0.8 + run / 1000
            if technique != "base":
                values = {m: v + (shift if m != "accuracy" else 0) for m, v in values.items()}
            if setting == fv.SETTINGS_STRICT:
                values = {m: v for m, v in values.items()}
            same = setting == fv.SETTINGS_STRICT and strict_identical
            for cls in ("0", "1", "overall"):
                for metric, value in values.items():
                    if metric == "accuracy" and cls != "overall":
                        continue
                    rows.append(
                        {
                            "task": "digits_s",
                            "technique": technique,
                            "setting": setting,
                            "run": run,
                            "class": cls,
                            "group": "all",
                            "metric": metric,
                            "value": value,
                            "pred_hash": "p" if same else f"p{run}",
                            "weights_hash": "w" if same else f"w{technique}{run}",
                        }
                    )
    return pd.DataFrame(rows)


def test_the_spread_of_identical_runs_is_the_range_of_the_runs():
    results = fv.key_results(study())
    assert isinstance(results, KeyResults) and len(results.findings) == 4
    assert results.replication is None
    first = results.findings[0]
    di_range = 100 * (max(BASE_DI) - min(BASE_DI))  # 5 pp
    dp_range = 100 * (max(BASE_DP) - min(BASE_DP))  # 2 pp
    di_stdev = 100 * np.std(BASE_DI)  # population, the paper's STDEV
    assert "4 FIT runs of the Digits-S baseline" in first
    assert "ended as 4 different models" in first
    assert f"ranges from {100 * min(BASE_DI):.2f} % to {100 * max(BASE_DI):.2f} %" in first
    assert f"{di_range:.2f} percentage points" in first
    assert f"standard deviation of {di_stdev:.2f}" in first
    assert f"(DP over {dp_range:.2f} points)" in first

    wider = [0.30, 0.32, 0.41, 0.31]
    moved = fv.key_results(study(wider)).findings[0]
    assert f"{100 * (0.41 - 0.30):.2f} percentage points" in moved


def test_the_largest_spread_and_the_strict_runs():
    second = fv.key_results(study(shift=0.0)).findings[1]
    # both techniques have the baseline's values: the first (base) is the largest
    assert "largest spread of any technique is 5.00 points of overall DI_BAR" in second
    assert "(base on Digits-S)" in second
    assert "bit-identical on 1 of 1 tasks, so the spread comes from" in second
    differing = fv.key_results(study(strict_identical=False)).findings[1]
    assert "bit-identical on 0 of 1 tasks." in differing


def test_separated_runs_are_a_significant_decrease_and_overlapping_ones_are_not():
    separated = fv.key_results(study(shift=-0.1)).findings[2]
    n = len(fv.METRICS)
    assert f"With 4 runs each, {n} of {n} technique × metric comparisons" in separated
    assert "(p < 0.05) and 0 a significant increase" in separated
    assert f"the exact test confirms {n} of these {n}" in separated
    # every comparison: the same shift, so |d| = 0.1 / the pooled sd of each metric's runs
    d = [0.1 / np.std(BASE_DI, ddof=1), 0.1 / np.std(BASE_DP, ddof=1)]
    median = np.median([d[0]] + [d[1]] * (n - 1))
    assert f"median |Cohen's d| of {median:.2f}" in separated
    assert "not to be trusted" not in separated
    overlapping = fv.key_results(study(shift=0.001)).findings[2]
    assert f"0 of {n} technique × metric comparisons" in overlapping
    assert f"in the other {n} comparisons the technique cannot be told apart" in overlapping


def _first_runs(frame, n):
    return frame[frame["run"] < n].reset_index(drop=True)


def test_with_three_runs_the_asymptotic_significance_is_not_to_be_trusted():
    """Qian et al.'s asymptotic U-test calls perfectly separated runs significant at 3 runs
    each, while the exact test cannot go below 1 / C(6, 3) = 0.05."""
    third = fv.key_results(_first_runs(study(shift=-0.1), 3)).findings[2]
    n = len(fv.METRICS)
    exact = stats.mannwhitneyu([4, 5, 6], [1, 2, 3], alternative="greater", method="exact")
    assert exact.pvalue == 1 / math.comb(6, 3) == 0.05
    asymptotic = stats.mannwhitneyu(
        [4, 5, 6], [1, 2, 3], alternative="greater", method="asymptotic"
    )
    assert asymptotic.pvalue < 0.05
    assert f"With 3 runs each, {n} of {n} technique × metric comparisons" in third
    assert "not to be trusted" in third
    assert "with fewer than 4 runs per group the exact test cannot reach significance" in third
    assert f"p = {exact.pvalue:.3g} (the asymptotic test {asymptotic.pvalue:.3g})" in third
    assert f"so 0 of the {n} survive it" in third


def test_with_two_runs_nothing_can_be_significant():
    third = fv.key_results(_first_runs(study(shift=-0.1), 2)).findings[2]
    exact = stats.mannwhitneyu([3, 4], [1, 2], alternative="greater", method="exact").pvalue
    assert exact == 1 / math.comb(4, 2)
    assert third.startswith("Does debiasing help beyond that variance? With 2 runs each, no")
    assert f"p-value of {exact:.3g} by the exact test" in third
    assert "at least 4 runs per group" in third


def test_reversals_are_counted_as_one_run_would_see_them():
    shift = 0.005  # worse on average, but its best run beats the baseline's worst
    fourth = fv.key_results(study(shift=shift)).findings[3]
    reversals = 0
    for metric in fv.METRICS:
        base = np.array(BASE_DI if metric == "DI_BAR" else BASE_DP)
        treated = base + shift
        reversals += int(treated.mean() > base.mean() and treated.min() < base.max())
    assert reversals == len(fv.METRICS)
    assert fourth.startswith(f"In {reversals} of {len(fv.METRICS)} comparisons")
    separated = fv.key_results(study(shift=0.1)).findings[3]
    assert separated.startswith(f"In 0 of {len(fv.METRICS)} comparisons")


def test_the_replication_line_is_the_ledgers_and_no_finding_counts_numbers():
    table = replication_table(
        [
            Row("DP (%)", 20, 20, rule=Rounding(decimals=1), source="seed 004 Table 3"),
            Row("BA (%)", 10.1, 10.1, rule=Rounding(decimals=1), source="seed 004 Table 3"),
            Row("papers", 11, 12, rule=Rounding(decimals=0), source="seed 004 Finding 5"),
            Row("spread", 12.6, 7.4, rule=NotComparable("stand-in"), source="seed 004 Finding 1"),
        ]
    )
    results = fv.key_results(study(), replications=[table, None], budget="full")
    assert len(results.findings) == 4
    # the ledger's own sentence for these rows: 2 agree, 1 differs, 1 has no verdict
    assert results.replication == ledger.replication_line(
        [table], chapter="06_fit_variance", budget="full"
    )
    line = results.replication
    assert "(full profile)" in line and "Qian et al. 2021 — of 4 results" in line
    assert "2 match the paper informatively" in line and "1 differs" in line
    assert "1 is not compared (not attempted: 1)" in line
    assert "{doc}`the replication ledger" in line
    for finding in results.findings:
        assert "replicat" not in finding.lower() and "seed 004" not in finding
