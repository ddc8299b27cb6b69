"""fairbook.experiments.fit_variance.key_results: the chapter's answers, computed from its runs."""

import numpy as np
import pandas as pd

from fairbook.experiments import fit_variance as fv
from fairbook.reading import KeyResults
from fairbook.replication import NotComparable, Rounding, Row, replication_table

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
    first = results.findings[0]
    di_range = 100 * (max(BASE_DI) - min(BASE_DI))  # 5 pp
    dp_range = 100 * (max(BASE_DP) - min(BASE_DP))  # 2 pp
    assert "4 FIT runs of the Digits-S baseline" in first
    assert "ended as 4 different models" in first
    assert f"overall DI_BAR varies over {di_range:.2f} percentage points" in first
    assert f"(DP over {dp_range:.2f})" in first

    wider = [0.30, 0.32, 0.41, 0.31]
    moved = fv.key_results(study(wider)).findings[0]
    assert f"varies over {100 * (0.41 - 0.30):.2f} percentage points" in moved


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
    assert "p < 0.05) and 0 a significant increase" in separated
    overlapping = fv.key_results(study(shift=0.001)).findings[2]
    assert f"0 of {n} technique × metric comparisons" in overlapping
    assert f"in the other {n} the technique cannot be told apart" in overlapping


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


def test_the_replication_sentence_counts_the_verdicts():
    table = replication_table(
        [
            Row("DP (%)", 20, 20, rule=Rounding(decimals=1), source="seed 004 Table 3"),
            Row("BA (%)", 10.1, 10.1, rule=Rounding(decimals=1), source="seed 004 Table 3"),
            Row("papers", 11, 12, rule=Rounding(decimals=0), source="seed 004 Finding 5"),
            Row("spread", 12.6, 7.4, rule=NotComparable("stand-in"), source="seed 004 Finding 1"),
        ]
    )
    results = fv.key_results(study(), replications=[table, None])
    last = results.findings[-1]
    assert len(results.findings) == 5
    assert last.startswith("Of the paper's 4 numbers compared here, 2 replicated (Table 3 in full)")
    assert "1 did not, and 1 have no verdict" in last
