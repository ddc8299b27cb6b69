"""Tests of fairbook.audit on small files written here."""

import numpy as np
import pandas as pd
import pytest

from fairbook.audit import audit, audit_file
from fairbook.metrics import compare


def test_audit_by_hand():
    report = audit([1, 0, 1, 0, 1, 1], [1, 1, 0, 0, 1, 1], ["a", "a", "b", "b", "b", "b"])
    assert report.reference == "b"  # the largest group
    assert report.groups.loc["a", ["TP", "FN", "FP", "TN"]].tolist() == [1, 0, 1, 0]
    assert report.versus_reference.loc["a", "OFI"] == pytest.approx(
        compare("OFI", [1, 0, 1, 0], [2, 1, 0, 1])
    )
    assert "b" not in report.versus_reference.index
    assert "DP" in report.seven_metrics.columns
    text = report.to_text()
    assert "reference group: 'b'" in text and "OFI" in text


def test_undefined_rates_are_nan():
    report = audit([0, 0, 1], [0, 1, 1], ["a", "a", "b"])
    assert np.isnan(report.groups.loc["a", "TPR"])  # no actual positives in a


def test_audit_file_csv_and_string_options(tmp_path):
    path = tmp_path / "preds.csv"
    pd.DataFrame(
        {"label": [1, 0, 1, 0], "score_class": [1, 1, 0, 0], "sex": ["f", "f", "m", "m"]}
    ).to_csv(path, index=False)
    report = audit_file(
        path, y_true="label", y_pred="score_class", group="sex", positive="1", reference="m"
    )
    assert report.reference == "m"
    assert report.versus_reference.loc["f", "OFI"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (pd.DataFrame({"y_true": [1], "y_pred": [1]}), "missing column"),
        (
            pd.DataFrame({"y_true": [1, None], "y_pred": [1, 0], "group": ["a", "b"]}),
            "missing values",
        ),
    ],
)
def test_bad_files(tmp_path, frame, message):
    path = tmp_path / "bad.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(ValueError, match=message):
        audit_file(path)


def test_missing_file_and_unknown_reference(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        audit_file(tmp_path / "nope.csv")
    with pytest.raises(ValueError, match="reference='z' is not among the groups"):
        audit([1, 0], [1, 0], ["a", "b"], reference="z")
