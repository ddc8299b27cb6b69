"""Tests of fairbook.audit.summary: what the report says first."""

import pytest

from fairbook.audit import audit


def test_summary_lists_what_the_tables_hold(full_report):
    summary = full_report.summary()
    comparisons = full_report.to_frame("comparisons")
    assert summary["tests"] == comparisons.p_value.notna().sum()
    assert (
        "Holm" in summary["adjustment"]
        and f"{summary['tests']} comparisons" in (summary["adjustment"])
    )
    survives = comparisons[comparisons.verdict == "disparity survives"]
    assert len(summary["significant"]) == len(survives)
    small = {(r["attribute"], r["group"]) for r in summary["small_groups"]}
    assert ("race", "Asian") in small
    assert small == set(
        zip(*comparisons[comparisons.small][["attribute", "group"]].values.T, strict=True)
    )
    asian = next(r for r in summary["small_groups"] if r["group"] == "Asian")
    assert asian["n"] == 11
    assert any(reason.startswith("sampling spread: with 11 people") for reason in asian["reasons"])
    unfair = full_report.to_frame("uncertainty")
    flagged = sum((unfair[f"{m}_flag"] == "unfair").sum() for m in ("F_Epis", "F_Alea", "F_Pred"))
    assert len(summary["uncertainty_unfair"]) == flagged
    assert len(summary["flips"]) == full_report.to_frame("stability").flips.sum()


def test_undefined_and_small_reference_are_reported():
    report = audit([1, 1, 0, 0, 1], [1, 1, 0, 0, 0], ["a", "a", "b", "b", "b"])
    summary = report.summary()
    assert summary["small_references"][0]["group"] == "b"
    undefined = {(r["group"], r["metric"]) for r in summary["undefined"]}
    assert ("a", "FPR") in undefined  # group a has no actual negatives
    note = next(r["note"] for r in summary["undefined"] if r["metric"] == "FPR")
    assert "FP + TN = 0" in note


@pytest.mark.parametrize("runs", [None, ["pred_*"]])
def test_flip_lists_exist_with_and_without_runs(table, runs):
    report = audit(table, groups=["race"], runs=runs)
    assert isinstance(report.summary()["flips"], list)


def test_summary_is_computed_once_per_report():
    report = audit([1, 0] * 20 + [1, 1, 0], [1, 0] * 20 + [0, 0, 1], ["a"] * 40 + ["b"] * 3)
    first, second = report.summary(), report.summary()
    assert first == second and first["small_groups"] is second["small_groups"]
    first["tests"] = -1  # the returned dict is the caller's own
    assert report.summary()["tests"] != -1


def test_small_groups_listed_in_order_with_their_reasons():
    import numpy as np

    rng = np.random.default_rng(0)
    groups = np.array(["big"] * 400 + [f"s{i}" for i in range(30) for _ in range(4)], dtype=object)
    rng.shuffle(groups)
    y_true, y_pred = rng.integers(0, 2, groups.size), rng.integers(0, 2, groups.size)
    report = audit(y_true, y_pred, groups)
    comparisons = report.to_frame("comparisons")
    small = comparisons[comparisons["small"]]
    listed = report.summary()["small_groups"]
    assert [g["group"] for g in listed] == list(dict.fromkeys(small["group"]))
    for entry in listed:
        part = small[small["group"] == entry["group"]]
        assert entry["metrics"] == part["metric"].tolist()
        assert entry["n"] == 4 and any("sampling spread" in r for r in entry["reasons"])
