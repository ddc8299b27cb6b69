"""Tests of fairbook.audit.pipeline: audit() in both forms and audit_file(), against hand counts,
pandas group-bys and fairlearn's MetricFrame."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import MetricFrame, false_positive_rate, selection_rate, true_positive_rate
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from fairbook.audit import DEFAULT_METRICS, audit, audit_file
from fairbook.confusion import confusion_counts
from fairbook.metrics import bias_report, compare, compute


# ------------------------------------------------------------------ the original array form
def test_audit_by_hand():
    report = audit([1, 0, 1, 0, 1, 1], [1, 1, 0, 0, 1, 1], ["a", "a", "b", "b", "b", "b"])
    assert report.reference == "b"  # the largest group
    assert report.groups.loc["a", ["TP", "FN", "FP", "TN"]].tolist() == [1, 0, 1, 0]
    assert report.versus_reference.loc["a", "OFI"] == pytest.approx(
        compare("OFI", [1, 0, 1, 0], [2, 1, 0, 1])
    )
    assert "b" not in report.versus_reference.index
    assert "DP" in report.bias_metrics.columns
    text = report.to_text()
    assert "reference group: 'b'" in text and "OFI" in text


def test_undefined_rates_are_nan():
    report = audit([0, 0, 1], [0, 1, 1], ["a", "a", "b"])
    assert np.isnan(report.groups.loc["a", "TPR"])  # no actual positives in a


def test_array_form_equals_frame_form():
    y, p, g = [1, 0, 1, 0, 1, 1, 0], [1, 1, 0, 0, 1, 1, 1], list("aabbbcc")
    arrays = audit(y, p, g, reference="c")
    frame = audit(pd.DataFrame({"y_true": y, "y_pred": p, "group": g}), reference={"group": "c"})
    for name in ("groups", "rates", "comparisons"):
        pd.testing.assert_frame_equal(arrays.to_frame(name), frame.to_frame(name))


def test_missing_file_and_unknown_reference(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        audit_file(tmp_path / "nope.csv")
    with pytest.raises(ValueError, match="reference='z' is not among the groups"):
        audit([1, 0], [1, 0], ["a", "b"], reference="z")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: audit([1, 0], [1], ["a", "b"]), "differ in length"),
        (lambda: audit([1, 0], [1, 0]), "three arrays"),
        (lambda: audit(pd.DataFrame({"y_true": [1]}), [1]), "by keyword"),
    ],
)
def test_wrong_forms(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


# ------------------------------------------------------------------ the frame form
@pytest.fixture
def frame():
    rng = np.random.default_rng(3)
    n = 600
    race = rng.choice(["W", "B", "A"], n, p=[0.6, 0.35, 0.05])
    sex = rng.choice(["f", "m"], n)
    y = rng.random(n) < 0.4
    pred = (rng.random(n) < 0.3) | (y & (rng.random(n) < 0.5))
    return pd.DataFrame(
        {"label": y.astype(int), "pred": pred.astype(int), "race": race, "sex": sex}
    )


def test_counts_and_rates_match_pandas_group_by(frame):
    report = audit(frame, y_true="label", y_pred="pred", groups=["race", "sex"])
    groups = report.to_frame("groups")
    for attribute in ("race", "sex"):
        cells = (
            frame.assign(
                TP=(frame.label == 1) & (frame.pred == 1),
                FN=(frame.label == 1) & (frame.pred == 0),
                FP=(frame.label == 0) & (frame.pred == 1),
                TN=(frame.label == 0) & (frame.pred == 0),
            )
            .groupby(attribute)[["TP", "FN", "FP", "TN"]]
            .sum()
        )
        ours = groups[groups.attribute == attribute].set_index("group")[["TP", "FN", "FP", "TN"]]
        np.testing.assert_array_equal(ours.loc[cells.index].to_numpy(), cells.to_numpy())
        for rate in ("PPR", "TPR", "FPR", "ACC"):
            expected = compute(rate, cells.to_numpy())
            got = groups[groups.attribute == attribute].set_index("group").loc[cells.index, rate]
            np.testing.assert_allclose(got.to_numpy(dtype=float), expected)


def test_per_group_rates_difference_and_ratio_match_fairlearn(frame):
    report = audit(frame, y_true="label", y_pred="pred", groups=["race", "sex"], intersections=True)
    rates = report.to_frame("rates")
    overview = report.to_frame("overview").set_index(["attribute", "metric"])
    functions = {"PPR": selection_rate, "TPR": true_positive_rate, "FPR": false_positive_rate}
    for attribute, features in (
        ("race", frame["race"]),
        ("sex", frame["sex"]),
        ("race & sex", frame[["race", "sex"]]),
    ):
        mf = MetricFrame(
            metrics=functions, y_true=frame.label, y_pred=frame.pred, sensitive_features=features
        )
        by_group = mf.by_group
        if attribute == "race & sex":
            by_group.index = [f"{r} & {s}" for r, s in by_group.index]
        for metric in functions:
            ours = rates[(rates.attribute == attribute) & (rates.metric == metric)]
            ours = ours.set_index("group")["score"]
            np.testing.assert_allclose(ours.loc[by_group.index], by_group[metric].to_numpy())
            assert overview.loc[(attribute, metric), "difference"] == pytest.approx(
                mf.difference()[metric]
            )
            assert overview.loc[(attribute, metric), "ratio"] == pytest.approx(mf.ratio()[metric])


def test_fairlearn_differs_where_a_rate_is_undefined():
    """fairlearn's TPR (scikit-learn's recall) is 0 for a group without actual positives; the
    audit's is NaN (undefined, never a silent 0), so the between-group summaries differ."""
    y, p, g = [0, 0, 1, 1, 0], [1, 0, 1, 0, 0], ["a", "a", "b", "b", "b"]
    mf = MetricFrame(metrics=true_positive_rate, y_true=y, y_pred=p, sensitive_features=g)
    fairlearn_a = mf.by_group["a"]
    report = audit(y, p, g)
    rates = report.to_frame("rates").set_index(["group", "metric"])
    assert fairlearn_a == 0.0 and np.isnan(rates.loc[("a", "TPR"), "score"])


def test_seven_metrics_equal_bias_report(frame):
    report = audit(frame, y_true="label", y_pred="pred", groups=["race"])
    expected = bias_report(frame.label, frame.pred, frame.race, positive=1)
    pd.testing.assert_frame_equal(
        report.bias_metrics, expected, check_names=False, check_index_type=False
    )


def test_references_default_given_and_combined(frame):
    report = audit(
        frame,
        y_true="label",
        y_pred="pred",
        groups=["race", "sex"],
        reference={"sex": "m"},
        intersections=True,
    )
    assert report.references == {"race": "W", "sex": "m", "race & sex": "W & m"}
    assert report.settings["reference_rules"] == {
        "race": "largest",
        "sex": "given",
        "race & sex": "combination",
    }
    given = audit(
        frame,
        y_true="label",
        y_pred="pred",
        groups=["race", "sex"],
        intersections=True,
        reference={"race & sex": "B & f"},
    )
    assert given.references["race & sex"] == "B & f"


def test_intersection_falls_back_to_largest_when_the_combination_is_absent():
    frame = pd.DataFrame(
        {
            "y_true": [1, 0, 1, 0, 1, 0, 1],
            "y_pred": [1, 0, 0, 1, 1, 0, 1],
            "a": ["x", "x", "x", "y", "y", "y", "y"],
            "b": ["u", "u", "u", "v", "v", "v", "u"],
        }
    )
    report = audit(frame, groups=["a", "b"], reference={"a": "x", "b": "v"}, intersections=True)
    assert report.references["a & b"] == "x & u"  # "x & v" does not occur
    assert report.settings["reference_rules"]["a & b"] == "largest"


def test_comparisons_cover_every_group_and_metric(frame):
    report = audit(frame, y_true="label", y_pred="pred", groups=["race", "sex"])
    comparisons = report.to_frame("comparisons")
    assert len(comparisons) == (2 + 1) * len(DEFAULT_METRICS)
    assert set(comparisons.metric) == set(DEFAULT_METRICS)
    assert not ((comparisons.attribute == "race") & (comparisons.group == "W")).any()
    assert report.settings["metrics"] == list(DEFAULT_METRICS)


def test_y_pred_none_uses_the_first_run(frame):
    frame = frame.assign(run_a=frame.pred, run_b=1 - frame.pred)
    report = audit(frame, y_true="label", y_pred=None, groups=["race"], runs=["run_*"])
    plain = audit(frame, y_true="label", y_pred="run_a", groups=["race"])
    assert report.settings["y_pred"] == "run_a"
    pd.testing.assert_frame_equal(report.to_frame("groups"), plain.to_frame("groups"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"groups": ["nope"]}, r"missing column\(s\) \['nope'\] \(groups\)"),
        ({"runs": ["pred_*"]}, "runs pattern 'pred_\\*' matches no column"),
        ({"samples": ["p_*"]}, "samples pattern 'p_\\*' matches no column"),
        ({"score": "s"}, r"missing column\(s\) \['s'\] \(score\)"),
        ({"samples": ["race"]}, "holds text, not numbers"),
        ({"score": "race"}, "holds text, not numbers"),
        ({"runs": ["race"]}, "run column 'race':"),
        ({"reference": {"age": 3}}, "not a group column"),
        ({"reference": "W", "groups": ["race", "sex"]}, "give reference as"),
        ({"reference": {"race": 1}}, "is a number but the groups are text"),
        ({"groups": ["race", "race"]}, "named twice"),
        ({"groups": []}, "groups names no column; give at least one column"),
        ({"intersections": True}, "at least two group columns"),
        ({"metrics": ["MCC"]}, "no exact MATCH law"),
        ({"metrics": []}, "metrics is empty"),
        ({"alpha": 1.5}, r"alpha must be a number between 0 and 1 \(exclusive\)"),
        ({"alpha": True}, "alpha must be a number"),
        ({"min_gap": 0}, r"min_gap must be a number between 0 and 1 \(exclusive\)"),
        ({"lam": -1}, "lam must be a finite number >= 0"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"positive": 2}, "occurs in neither"),
        ({"y_pred": None}, "give runs"),
    ],
)
def test_bad_options_are_one_line_errors(frame, options, message):
    options = {"y_true": "label", "y_pred": "pred", "groups": ["race"], **options}
    with pytest.raises(ValueError, match=message) as info:
        audit(frame, **options)
    assert "\n" not in str(info.value)


def test_probabilities_outside_unit_interval_and_missing_samples_refused(frame):
    bad = frame.assign(p_1=0.5, p_2=np.linspace(-0.1, 0.9, len(frame)))
    with pytest.raises(ValueError, match=r"samples column 'p_2' holds values outside \[0, 1\]"):
        audit(bad, y_true="label", y_pred="pred", groups=["race"], samples=["p_*"])
    gap = frame.assign(p_1=0.5)
    gap.loc[3, "p_1"] = np.nan
    with pytest.raises(ValueError, match=r"missing values in \{'p_1': 1\}"):
        audit(gap, y_true="label", y_pred="pred", groups=["race"], samples=["p_1"])
    inf = frame.assign(s=np.inf)
    with pytest.raises(ValueError, match="infinite"):
        audit(inf, y_true="label", y_pred="pred", groups=["race"], score="s")


def test_run_with_a_third_label_is_named():
    frame = pd.DataFrame(
        {"y_true": [1, 0, 1], "y_pred": [1, 0, 0], "r1": [1, 0, 2], "group": ["a", "a", "b"]}
    )
    with pytest.raises(ValueError, match="run column 'r1': y_pred has labels other than"):
        audit(frame, runs=["r1"])


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


def test_audit_file_references_by_column_globs_and_typed_values(tmp_path):
    path = tmp_path / "p.csv"
    pd.DataFrame(
        {
            "y_true": [1, 0, 1, 0, 1, 0],
            "pred_1": [1, 1, 0, 0, 1, 0],
            "pred_2": [1, 0, 0, 0, 1, 1],
            "age": [20, 20, 30, 30, 30, 40],
            "sex": list("ffmmfm"),
        }
    ).to_csv(path, index=False)
    report = audit_file(
        path,
        groups=["age", "sex"],
        reference=["age=30", "sex=f"],
        runs=["pred_*"],
        intersections=True,
    )
    # a group column of a CSV is text, as written (issue 48: "007" and "7" are two groups)
    assert report.references["age"] == "30"
    assert report.references["sex"] == "f"
    assert report.settings["y_pred"] == "pred_1"  # no y_pred column: the first run
    assert report.settings["runs"] == ["pred_1", "pred_2"]
    with pytest.raises(ValueError, match="does not say which group column"):
        audit_file(path, groups=["age", "sex"], reference=["30"], runs=["pred_*"])
    with pytest.raises(ValueError, match="not among the groups"):
        audit_file(path, groups=["age"], reference=["age=old"], runs=["pred_*"])
    with pytest.raises(ValueError, match="either groups or group"):
        audit_file(path, groups=["age"], group="sex")


def test_counting_is_one_bincount_per_attribute_not_per_group(frame):
    """Every per-group number equals confusion_counts' on the same rows."""
    report = audit(frame, y_true="label", y_pred="pred", groups=["race"])
    counts, labels = confusion_counts(frame.label, frame.pred, frame.race, return_groups=True)
    ours = report.groups.loc[labels, ["TP", "FN", "FP", "TN"]].to_numpy()
    np.testing.assert_array_equal(ours, counts)


# ------------------------------------------------------------------ issue 37
def test_one_group_and_one_row_give_a_report():
    for report in (
        audit([1, 0, 1, 0], [1, 1, 0, 0], ["a"] * 4),
        audit([1], [1], ["a"]),
    ):
        assert report.tables["comparisons"].empty
        assert "Nothing to compare" in report.to_text()
        assert report.to_html() and report.to_json()


def test_one_group_with_runs_samples_and_score(table):
    report = audit(
        table.assign(one="x"), groups=["one"], score="score", runs=["pred_*"], samples=["p_*"]
    )
    assert report.tables["stability"].empty and "flips" in report.tables["stability"]
    assert report.to_text() and report.to_html()


def test_tiny_alpha_is_refused():
    with pytest.raises(ValueError, match="too small to test at"):
        audit([1, 0], [1, 0], ["a", "b"], alpha=1e-320)


def test_runs_glob_matching_y_true_is_refused(table):
    with pytest.raises(ValueError, match="also matches 'y_true'"):
        audit(table, groups=["race"], runs=["y_*"])


def test_stray_text_is_blamed_on_its_column():
    frame = pd.DataFrame({"y_true": ["1", "0", "?"], "y_pred": [1, 0, 1], "group": list("aab")})
    with pytest.raises(ValueError, match="y_true holds text among its numbers"):
        audit(frame)


def test_nul_in_a_group_is_refused():
    with pytest.raises(ValueError, match="NUL byte"):
        audit([1, 0], [1, 0], ["a", "b\x00c"])


def _backend(frame: pd.DataFrame, backend: str) -> pd.DataFrame:
    if backend == "numpy":
        return frame
    if backend == "category":
        return frame.astype({c: "category" for c in ("y_true", "group", "age")})
    return frame.convert_dtypes(dtype_backend=backend)


BACKENDS = ["numpy", "numpy_nullable", "pyarrow", "category"]


@settings(max_examples=12, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.booleans(), st.booleans(), st.sampled_from("abc"), st.integers(0, 2), st.floats(0, 1)
        ),
        min_size=2,
        max_size=40,
    )
)
def test_every_dtype_backend_gives_the_same_audit(rows):
    y, p, g, age, s = zip(*rows, strict=True)
    frame = pd.DataFrame(
        {
            "y_true": np.array(y, int),
            "y_pred": np.array(p, int),
            "group": list(g),
            "age": age,
            "score": s,
            "r_0": np.array(p, int),
            "r_1": np.array(y, int),
            "p_0": s,
        }
    )
    if not (frame["y_true"].any() or frame["y_pred"].any()):
        frame.loc[0, "y_true"] = 1
    options = {
        "groups": ["group", "age"],
        "intersections": True,
        "score": "score",
        "runs": ["r_*"],
        "samples": ["p_*"],
        "metrics": ("PPR", "TPR"),
    }
    expected = audit(frame, **options).to_json()
    for backend in BACKENDS[1:]:
        assert audit(_backend(frame, backend), **options).to_json() == expected, backend


def test_parquet_written_from_modern_dtypes_audits_alike(tmp_path, table):
    expected = audit(table, groups=["race", "sex"]).to_json()
    for backend in ("numpy_nullable", "pyarrow"):
        path = tmp_path / f"{backend}.parquet"
        table.convert_dtypes(dtype_backend=backend).to_parquet(path)
        got = audit_file(path, groups=["race", "sex"]).to_json()
        assert _without_times(got) == _without_times(expected), backend


def _without_times(text: str) -> str:
    import json

    data = json.loads(text)
    data.pop("created", None)
    return json.dumps(data, sort_keys=True)


def _compas_cached() -> bool:
    from fairbook.data import verify

    return verify("compas")["compas"] is True


@pytest.mark.skipif(not _compas_cached(), reason="COMPAS not in the data cache")
def test_pyarrow_compas_audits_to_the_numpy_numbers():
    from fairbook.data import load_compas

    raw = load_compas(preprocess="zafar2017")
    frame = pd.DataFrame(
        {
            "y_true": 1 - raw["two_year_recid"],
            "y_pred": (raw["decile_score"] < 5).astype(int),
            "race": raw["race"],
            "sex": raw["sex"],
            "score": (10 - raw["decile_score"]) / 9,
        }
    )
    options = {"groups": ["race", "sex"], "intersections": True, "score": "score"}
    expected = audit(frame, **options)
    arrow = frame.convert_dtypes(dtype_backend="pyarrow")
    assert all(isinstance(d, pd.ArrowDtype) for d in arrow.dtypes)
    got = audit(arrow, **options)
    assert got.to_json() == expected.to_json()
    assert got.tables["groups"]["n"].sum() == 3 * len(frame)


# ------------------------------------------------------------------ decision and favourable
def _tables_json(report) -> dict:
    import json

    return json.loads(report.to_json())["tables"]


@pytest.mark.parametrize(
    ("options", "decision"),
    [
        ({}, None),
        ({"decision": "punitive"}, "punitive"),
        ({"decision": "Assistive "}, "assistive"),
        ({"favourable": 1}, "assistive"),
        ({"favourable": 0}, "punitive"),
        ({"favourable": 0, "decision": "punitive"}, "punitive"),
        ({"positive": 0, "favourable": 0}, "assistive"),
        ({"positive": 0, "favourable": 1}, "punitive"),
    ],
)
def test_decision_and_favourable_set_the_direction_not_the_numbers(options, decision):
    y_true, y_pred, groups = [1, 0, 1, 0, 1, 1], [1, 1, 0, 0, 1, 0], list("aabbbb")
    report = audit(y_true, y_pred, groups, **options)
    assert report.settings["decision"] == decision
    assert report.settings["favourable"] == options.get("favourable")
    plain = audit(y_true, y_pred, groups, positive=options.get("positive", 1))
    assert _tables_json(report) == _tables_json(plain)  # only the reading changes


def test_favourable_on_text_and_boolean_labels():
    report = audit(
        ["yes", "no", "yes"], ["yes", "yes", "no"], list("aab"), positive="yes", favourable="no"
    )
    assert report.settings["decision"] == "punitive"
    flags = audit(
        [True, False, True], [True, True, False], list("aab"), positive=True, favourable=1
    )
    assert flags.settings["decision"] == "assistive"  # 1 stands for True


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"decision": "maybe"}, "decision must be 'punitive'"),
        ({"decision": 1}, "decision must be 'punitive'"),
        ({"decision": ""}, "decision must be 'punitive'"),
        ({"favourable": 2}, "favourable=2 is not among the labels: [0, 1]"),
        ({"favourable": "1"}, "favourable='1' is not a number"),
        ({"favourable": [1]}, "favourable must be a single label"),
        ({"favourable": 1, "decision": "punitive"}, "disagree"),
        ({"favourable": 0, "decision": "assistive"}, "disagree"),
    ],
)
def test_bad_decision_or_favourable_is_one_line(options, fragment):
    with pytest.raises(ValueError) as info:
        audit([1, 0, 1, 0], [1, 1, 0, 0], list("aabb"), **options)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_audit_file_reads_favourable_in_the_column_type(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred,group\n1,1,a\n0,1,a\n1,0,b\n0,0,b\n")
    assert audit_file(path, favourable="0").settings["decision"] == "punitive"
    assert audit_file(path, favourable="1").settings["favourable"] == 1
    assert audit_file(path, decision="assistive").settings["decision"] == "assistive"
    with pytest.raises(ValueError, match="favourable 'x' is not a number"):
        audit_file(path, favourable="x")


def test_json_settings_carry_the_direction():
    import json

    from fairbook.audit import JSON_SCHEMA

    jsonschema = pytest.importorskip("jsonschema")
    report = audit([1, 0, 1, 0], [1, 1, 0, 0], list("aabb"), favourable=0)
    document = json.loads(report.to_json())
    jsonschema.validate(document, JSON_SCHEMA)
    assert document["settings"]["decision"] == "punitive"
    assert document["settings"]["favourable"] == 0


def test_more_groups_than_the_limit_are_refused_with_the_limit_named():
    y = [1, 0] * 6
    groups = [f"g{i}" for i in range(12)]
    with pytest.raises(ValueError, match=r"'group' has 12 groups, above max_groups=11"):
        audit(y, y, groups, max_groups=11)
    assert audit(y, y, groups, max_groups=12).tables["rates"]["group"].nunique() == 12
    assert audit(y, y, groups, max_groups=None) is not None
    for bad in (0, True, 2.5):
        with pytest.raises(ValueError, match="max_groups must be"):
            audit(y, y, groups, max_groups=bad)


# ------------------------------------------------------------------ the choice of test
GOLDEN = Path(__file__).parent / "golden" / "default_match_report.json"

#: Hand-made counts [TP, FN, FP, TN]: group "a" (20 people) against the reference "b" (80).
HAND = {"a": (6, 4, 3, 7), "b": (30, 10, 8, 32)}


def frame_of(counts: dict) -> pd.DataFrame:
    """One row per person with the given confusion counts per group."""
    rows = []
    for group, cells in counts.items():
        for (truth, pred), k in zip(((1, 1), (1, 0), (0, 1), (0, 0)), cells, strict=True):
            rows += [(truth, pred, group)] * k
    return pd.DataFrame(rows, columns=["y_true", "y_pred", "group"])


def _without_new_keys(document: dict) -> dict:
    """The report as it was before the choice of test: no test, no sizes."""
    for key in ("test", "test_name"):
        document["settings"].pop(key)
    for entry in document["summary"]["small_groups"]:
        entry.pop("exact_sizes"), entry.pop("size_notes")
    for table in ("comparisons", "runs"):
        for record in document["tables"][table] or []:
            record.pop("exact_size"), record.pop("size_note")
    return document


def _assert_same(got, expected, where="report"):
    if isinstance(expected, dict):
        assert set(got) == set(expected), where
        for key in expected:
            _assert_same(got[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert len(got) == len(expected), where
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            _assert_same(g, e, f"{where}[{i}]")
    elif isinstance(expected, float) and not isinstance(got, bool):
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-300), where
    else:
        assert got == expected, where


def test_the_default_audit_is_the_one_of_before_the_choice_of_test():
    """The JSON of an audit recorded before ``test`` existed (tests/audit/golden), key by
    key and number by number: MATCH's p-values, Holm, verdicts, small groups, runs."""
    from .conftest import make_table

    frame = make_table(240, seed=3)
    default = audit(frame, groups=["race"], runs=["pred_0", "pred_1"])
    assert default.settings["test"] == "match"
    explicit = audit(frame, groups=["race"], runs=["pred_0", "pred_1"], test="match")
    assert default.to_json() == explicit.to_json()
    got = _without_new_keys(json.loads(default.to_json()))
    _assert_same(got, json.loads(GOLDEN.read_text(encoding="utf-8")))


def _by_metric(report) -> dict:
    table = report.to_frame("comparisons")
    return dict(zip(table["metric"], table["p_value"], strict=True))


#: (x, n, y, N) of each metric in HAND: the numerator over everyone (binomial metrics) or
#: over the metric's own denominator (joint-ratio metrics), for "a" and for "b".
HAND_TABLES = {
    "ACC": (13, 20, 62, 80),
    "PPR": (9, 20, 38, 80),
    "TPR": (6, 10, 30, 40),
    "FPR": (3, 10, 8, 40),
    "PPV": (6, 9, 30, 38),
    "NPV": (7, 11, 32, 42),
}


def _scipy_table(x, n, y, N):
    return [[x, y], [n - x, N - y]]  # scipy's layout: the columns are the two samples


@pytest.mark.parametrize(
    ("test", "oracle"),
    [
        ("fisher", lambda t: stats.fisher_exact(t).pvalue),
        ("boschloo", lambda t: stats.boschloo_exact(t).pvalue),
        ("score", lambda t: stats.chi2_contingency(t, correction=False).pvalue),
    ],
)
def test_each_rate_s_p_value_is_scipy_s(test, oracle):
    report = audit(frame_of(HAND), reference={"group": "b"}, test=test, metrics=list(HAND_TABLES))
    got = _by_metric(report)
    for metric, (x, n, y, N) in HAND_TABLES.items():
        assert got[metric] == pytest.approx(oracle(_scipy_table(x, n, y, N)), rel=1e-9), metric


def test_wald_is_the_unpooled_z_test_by_hand():
    got = _by_metric(audit(frame_of(HAND), reference={"group": "b"}, test="wald"))
    x, n, y, N = HAND_TABLES["TPR"]
    p1, p2 = x / n, y / N
    z = (p1 - p2) / math.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / N)
    assert got["TPR"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)


def test_every_test_agrees_with_group_tests_and_bayes_with_monte_carlo():
    from fairbook.stats import group_tests

    for test in ("wald", "score", "fisher", "boschloo", "bayes"):
        got = _by_metric(audit(frame_of(HAND), reference={"group": "b"}, test=test))
        for metric in ("ACC", "PPR", "TPR", "FPR", "PPV", "NPV"):
            if metric not in got:
                continue
            x, n, y, N = HAND_TABLES[metric]
            expected = group_tests.pvalue(test, x, n, y=y, N=N)
            tolerance = 1e-4 if test == "boschloo" else 1e-6  # its grid against scipy's optimiser
            assert got[metric] == pytest.approx(expected, abs=tolerance), (test, metric)
    # the Bayesian rule's tail by simulation: P(p_a <= p_b) with Beta(x + ½, n − x + ½)
    x, n, y, N = HAND_TABLES["TPR"]
    rng = np.random.default_rng(0)
    draws = 2_000_000
    below = np.mean(rng.beta(x + 0.5, n - x + 0.5, draws) <= rng.beta(y + 0.5, N - y + 0.5, draws))
    bayes = _by_metric(audit(frame_of(HAND), reference={"group": "b"}, test="bayes"))["TPR"]
    assert bayes == pytest.approx(2 * min(below, 1 - below), abs=4 * math.sqrt(0.25 / draws) * 2)


@pytest.mark.parametrize("test", ["wald", "score", "fisher", "boschloo", "bayes"])
def test_b_has_no_p_value_and_says_why_under_a_test_other_than_match(test):
    report = audit(frame_of(HAND), reference={"group": "b"}, test=test)
    table = report.to_frame("comparisons").set_index("metric")
    assert math.isnan(table.loc["B", "p_value"]) and math.isnan(table.loc["B", "p_holm"])
    assert "B is tested only by MATCH" in table.loc["B", "note"]
    assert not table.drop(index="B")["p_value"].isna().any()
    assert report.summary()["tests"] == len(DEFAULT_METRICS) - 1  # B is no test
    match_report = audit(frame_of(HAND), reference={"group": "b"})
    assert np.isfinite(match_report.to_frame("comparisons").set_index("metric").loc["B", "p_value"])


def test_holm_runs_over_the_chosen_test_s_p_values():
    from fairbook.stats.multiple_testing import holm

    table = audit(frame_of(HAND), reference={"group": "b"}, test="fisher").to_frame("comparisons")
    np.testing.assert_allclose(table["p_holm"], holm(table["p_value"].to_numpy()))


def test_an_undefined_rate_stays_nan_under_every_test():
    counts = {"a": (0, 0, 3, 7), "b": HAND["b"]}  # "a" has no actual positives: TPR undefined
    for test in ("wald", "score", "fisher", "boschloo", "bayes"):
        table = audit(frame_of(counts), reference={"group": "b"}, test=test).to_frame("comparisons")
        row = table.set_index("metric").loc["TPR"]
        assert math.isnan(row["p_value"]) and "TPR undefined for the group" in row["note"]


def test_large_groups_are_fast_and_boschloo_refuses_them():
    """n = N = 20000 people: closed forms and scipy's Fisher, never a table of every outcome."""
    import time

    big = {"a": (5000, 5000, 4000, 6000), "b": (5200, 4800, 4000, 6000)}
    frame = frame_of(big)
    for test in ("wald", "score", "fisher", "bayes"):
        start = time.perf_counter()
        table = audit(frame, reference={"group": "b"}, test=test).to_frame("comparisons")
        assert time.perf_counter() - start < 20, test
        assert table["p_value"].notna().sum() == len(DEFAULT_METRICS) - 1
    with pytest.raises(ValueError, match="group 'a' of 'group' \\(ACC\\) is too large for "):
        audit(frame, reference={"group": "b"}, test="boschloo")
