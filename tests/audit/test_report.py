"""Tests of fairbook.audit.report: the tables, their stable keys, JSON with NaN as null
against the documented JSON Schema, and the single-attribute views of the original API."""

import json
import math

import jsonschema
import numpy as np
import pandas as pd
import pytest

from fairbook.audit import JSON_SCHEMA, SCHEMA, TABLES, audit
from fairbook.audit.report import COLUMNS


def test_every_table_has_exactly_its_documented_columns(full_report):
    for name in TABLES:
        frame = full_report.to_frame(name)
        assert list(frame.columns) == list(COLUMNS[name]), name
        assert len(frame) > 0, name


def test_json_validates_against_the_schema_with_nan_as_null(full_report):
    text = full_report.to_json()
    document = json.loads(text)  # strict JSON: allow_nan=False when writing
    jsonschema.validate(document, JSON_SCHEMA)
    assert document["schema"] == SCHEMA
    assert "NaN" not in text and "Infinity" not in text
    comparisons = document["tables"]["comparisons"]
    b_rows = [r for r in comparisons if r["metric"] == "B"]
    assert b_rows and all(r["ratio"] is None for r in b_rows)  # NaN -> null
    assert all(r["note"] for r in b_rows)  # and the row says why


def test_json_keeps_label_types_and_settings(table):
    frame = table.assign(flag=table.sex == "F", year=np.where(table.sex == "F", 2020, 2021))
    report = audit(frame, groups=["flag", "year"], reference={"year": 2021})
    document = json.loads(report.to_json())
    jsonschema.validate(document, JSON_SCHEMA)
    groups = {(r["attribute"], r["group"]) for r in document["tables"]["groups"]}
    assert ("flag", True) in groups and ("year", 2020) in groups
    assert document["settings"]["references"] == {"flag": False, "year": 2021}
    for name in ("uncertainty", "stability", "runs", "scores", "stability_seven_metrics"):
        assert document["tables"][name] is None


def test_json_ascii_only_escapes_every_label():
    report = audit([1, 0, 1, 0], [1, 1, 0, 0], ["Zoë\x1b[2J", "Zoë\x1b[2J", "b", "b"])
    text = report.to_json(ascii_only=True)
    assert text.isascii() and "\\u001b" in text
    assert json.loads(text)["tables"]["groups"][0]["group"] == "Zoë\x1b[2J"


def test_to_frame_refuses_unknown_and_absent_tables():
    report = audit([1, 0, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="unknown table 'nope'"):
        report.to_frame("nope")
    with pytest.raises(ValueError, match="no samples"):
        report.to_frame("uncertainty")
    with pytest.raises(ValueError, match="no runs"):
        report.to_frame("stability")
    frame = report.to_frame()
    frame.loc[0, "n"] = -1  # a copy
    assert report.to_frame().loc[0, "n"] != -1


def test_views_of_the_first_attribute(full_report):
    groups = full_report.groups
    assert list(groups.columns) == [
        "TP",
        "FN",
        "FP",
        "TN",
        "n",
        "PPR",
        "PREV",
        "ACC",
        "TPR",
        "FPR",
        "PPV",
        "B",
    ]
    assert set(groups.index) == {"Asian", "Black", "Hispanic", "White"}
    assert full_report.reference == "White"
    assert "White" not in full_report.versus_reference.index
    assert list(full_report.bias_metrics.columns)[:2] == ["DP", "DI_BAR"]
    assert full_report.bias_metrics.attrs["groups"] == ("White", "Black")
    assert full_report.attributes == ["race", "sex", "race & sex"]


def test_groups_table_marks_small_groups_and_surviving_disparities(full_report):
    groups = full_report.to_frame("groups").set_index(["attribute", "group"])
    comparisons = full_report.to_frame("comparisons")
    asian = comparisons[(comparisons.attribute == "race") & (comparisons.group == "Asian")]
    assert groups.loc[("race", "Asian"), "small"]
    assert groups.loc[("race", "Asian"), "small_metrics"] == ", ".join(asian.metric[asian.small])
    black = comparisons[(comparisons.attribute == "race") & (comparisons.group == "Black")]
    survives = black.metric[black.verdict == "disparity survives"]
    assert groups.loc[("race", "Black"), "disparities"] == ", ".join(survives)
    assert math.isnan(groups.loc[("race", "White"), "OFI"])
    np.testing.assert_allclose(groups.groupby(level="attribute")["share"].sum(), 1.0)
    assert isinstance(groups, pd.DataFrame)
