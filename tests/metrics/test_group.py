"""Tests of fairbook.metrics.group against the papers' printed values and fairlearn."""

import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import demographic_parity_difference, equalized_odds_difference
from hypothesis import given, settings
from hypothesis import strategies as st

from fairbook.metrics import COMPARISONS, bias_report, compare, ratio_measures

# seed 003 Table 3.1: (cm_i, cm_j, OFI, DI) in [TP, FN, FP, TN]
TABLE_3_1 = {
    "A": ([1, 0, 0, 5], [7, 0, 1, 10], -0.06, 0.38),
    "B": ([0, 1, 0, 5], [0, 7, 0, 11], 0.22, np.nan),  # DI printed "NaN or 1"
    "alpha": ([1, 1, 0, 5], [1, 7, 0, 11], 0.23, 2.71),
}
# seed 003 Table 3.3: (cm_i, cm_j, TE, DCA, OFI)
TABLE_3_3 = {
    "C": ([1, 2, 1, 1], [1, 1, 2, 2], 1.5, 0.83, -0.37),
    "D": ([1, 2, 1, 1], [1, 1, 2, 4], 1.5, 0.83, -0.33),
}


@pytest.mark.parametrize("scenario", sorted(TABLE_3_1))
def test_seed003_table_3_1(scenario):
    cm_i, cm_j, ofi, di = TABLE_3_1[scenario]
    assert round(compare("OFI", cm_i, cm_j), 2) == ofi
    if np.isnan(di):
        assert np.isnan(compare("DI", cm_i, cm_j))
    else:
        assert round(compare("DI", cm_i, cm_j), 2) == di


@pytest.mark.parametrize("scenario", sorted(TABLE_3_3))
def test_seed003_table_3_3(scenario):
    cm_i, cm_j, te, dca, ofi = TABLE_3_3[scenario]
    assert round(compare("TE", cm_i, cm_j), 2) == te
    assert round(compare("DCA", cm_i, cm_j), 2) == dca
    # the paper rounds -0.325 to -0.33 (half away from zero), not numpy's half-to-even
    assert compare("OFI", cm_i, cm_j) == pytest.approx(ofi, abs=0.005 + 1e-9)


def test_every_comparison_by_hand():
    ci = np.array([3, 1, 2, 4.0])  # P=4, P̂=5, N=6, N̂=5, n=10
    cj = np.array([1, 2, 1, 1.0])  # P=3, P̂=2, N=2, N̂=3, n=5
    mcc_i = (12 - 2) / np.sqrt(5 * 4 * 6 * 5)
    mcc_j = (1 - 2) / np.sqrt(2 * 3 * 2 * 3)
    expected = {
        "ACCD": 0.7 - 0.4,
        "MCCD": mcc_i - mcc_j,
        "DI": 0.5 / 0.4,
        "PP": 3 / 5 - 1 / 2,
        "TE": 1 / 2 - 2 / 1,
        "AAOD": 0.5 * (abs(2 / 6 - 1 / 2) + abs(3 / 4 - 1 / 3)),
        "DCA": 4 / 5 - 3 / 2,
        "DCR": 2 / 3 - 6 / 5,
        "DPPL": 0.5 - 0.4,
        "OFI": (2 - 1) / 10 - (1 - 2) / 5,
        "EO": 0.0,
        "SP": 0.0,
    }
    assert set(expected) == set(COMPARISONS)
    for name, value in expected.items():
        assert compare(name, ci, cj) == pytest.approx(value), name


def test_boolean_checks():
    assert compare("SP", [1, 0, 1, 2], [2, 0, 2, 4]) == 1.0
    assert compare("EO", [1, 1, 1, 1], [2, 2, 2, 2]) == 1.0
    assert np.isnan(compare("EO", [0, 0, 1, 1], [1, 1, 1, 1]))


def test_broadcasting():
    out = compare("OFI", np.array([[1, 0, 0, 5], [0, 1, 0, 5]]), [7, 0, 1, 10])
    assert out.shape == (2,)


cm_strategy = st.lists(st.integers(0, 30), min_size=4, max_size=4).filter(lambda c: sum(c) > 0)


@settings(max_examples=200, deadline=None)
@given(cm_strategy, cm_strategy)
def test_ofi_antisymmetric_bounded_defined(ci, cj):
    forward = compare("OFI", ci, cj)
    assert -2 <= forward <= 2
    assert forward == pytest.approx(-compare("OFI", cj, ci))


@settings(max_examples=200, deadline=None)
@given(cm_strategy, cm_strategy)
def test_difference_metrics_antisymmetric_where_defined(ci, cj):
    for name in ("ACCD", "MCCD", "PP", "TE", "DCA", "DCR", "DPPL"):
        a, b = compare(name, ci, cj), compare(name, cj, ci)
        assert np.isnan(a) == np.isnan(b)
        if not np.isnan(a):
            assert a == pytest.approx(-b, abs=1e-12)
    di, di_rev = compare("DI", ci, cj), compare("DI", cj, ci)
    if not np.isnan(di) and di != 0:
        assert di * di_rev == pytest.approx(1.0)


# seed 004 Table 3, the running example (Female/Male × Sport/Cook)
def seed004_example():
    rows = []
    for group, cells in (("Female", (80, 20, 10, 90)), ("Male", (60, 40, 70, 30))):
        s_s, s_c, c_s, c_c = cells
        rows += [("Sport", "Sport", group)] * s_s + [("Sport", "Cook", group)] * s_c
        rows += [("Cook", "Sport", group)] * c_s + [("Cook", "Cook", group)] * c_c
    return pd.DataFrame(rows, columns=["y_true", "y_pred", "group"])


def test_seed004_table_3_through_bias_report():
    df = seed004_example()
    report = bias_report(df.y_true, df.y_pred, df.group)
    printed = {
        "DP": 20.0,
        "DI_BAR": 33.6,
        "SPSF": 10.0,
        "FPSF": 20.0,
        "EOFP": 40.0,
        "EOTP": 40.0,
        "BA": 10.1,
    }
    for name, value in printed.items():
        assert round(100 * report.loc["overall", name], 1) == value, name
    assert list(report.index) == ["Cook", "Sport", "overall"]
    # the per-class numbers quoted in App. C
    assert report.loc["Sport", "BA"] == pytest.approx(130 / 220 - 0.5)
    assert report.loc["Cook", "EOTP"] == pytest.approx(0.6)


def test_bias_report_positive_row_only():
    df = seed004_example()
    report = bias_report(df.y_true, df.y_pred, df.group, positive="Sport")
    assert list(report.index) == ["Sport"]
    assert report.loc["Sport", "DP"] == pytest.approx(0.2)


def test_bias_report_invariant_to_row_order():
    df = seed004_example()
    shuffled = df.sample(frac=1.0, random_state=3)
    pd.testing.assert_frame_equal(
        bias_report(df.y_true, df.y_pred, df.group),
        bias_report(shuffled.y_true, shuffled.y_pred, shuffled.group),
    )


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from("abc")),
        min_size=2,
        max_size=80,
    )
)
def test_bias_report_ranges(rows):
    y_true, y_pred, groups = map(np.array, zip(*rows, strict=True))
    if len(set(groups)) < 2:
        return
    report = bias_report(y_true, y_pred, groups)
    values = report.to_numpy()
    defined = values[~np.isnan(values)]
    assert ((defined >= 0) & (defined <= 1)).all()


def test_bias_report_many_groups_uses_two_largest_for_pairwise():
    y_true = np.array([1, 0] * 10 + [1, 0] * 5 + [1])
    y_pred = np.array([1, 1] * 10 + [0, 0] * 5 + [1])
    groups = np.array(["big"] * 20 + ["mid"] * 10 + ["tiny"])
    report = bias_report(y_true, y_pred, groups)
    assert report.attrs["groups"] == ("big", "mid")
    assert report.loc[1, "DP"] == pytest.approx(1.0)
    share = np.array([20, 10, 1]) / 31
    ppr_all = 21 / 31
    spsf = share @ np.abs(ppr_all - np.array([1.0, 0.0, 1.0]))
    assert report.loc[1, "SPSF"] == pytest.approx(spsf)


def test_empty_rate_is_nan_not_zero():
    # group b has no actual negatives: its FPR is undefined, so FPSF/EOFP are NaN
    report = bias_report([1, 0, 1, 1], [1, 0, 1, 0], ["a", "a", "b", "b"], positive=1)
    assert np.isnan(report.loc[1, "EOFP"])
    assert np.isnan(report.loc[1, "FPSF"])
    assert report.loc[1, "DP"] == pytest.approx(0.0)  # a zero gap is a value


def test_agrees_with_fairlearn():
    rng = np.random.default_rng(42)
    n = 2000
    groups = rng.choice(["x", "y"], n, p=[0.3, 0.7])
    y_true = rng.integers(0, 2, n)
    y_pred = np.where(rng.random(n) < np.where(groups == "x", 0.3, 0.6), 1, 0)
    report = bias_report(y_true, y_pred, groups, positive=1)
    assert report.loc[1, "DP"] == pytest.approx(
        demographic_parity_difference(y_true, y_pred, sensitive_features=groups)
    )
    assert max(report.loc[1, "EOTP"], report.loc[1, "EOFP"]) == pytest.approx(
        equalized_odds_difference(y_true, y_pred, sensitive_features=groups)
    )
    assert compare("DPPL", *_two_group_cms(y_true, y_pred, groups)) == pytest.approx(
        -demographic_parity_difference(y_true, y_pred, sensitive_features=groups)
    )


def _two_group_cms(y_true, y_pred, groups):
    from fairbook.confusion import confusion_counts

    counts = confusion_counts(y_true, y_pred, groups)
    return counts[0], counts[1]


def test_ratio_measures_by_hand():
    y_true = [1, 1, 0, 0, 1, 1, 0, 0]
    y_pred = [1, 0, 1, 0, 1, 1, 0, 0]
    groups = ["g0"] * 4 + ["g1"] * 4
    r = ratio_measures(y_true, y_pred, groups, protected="g0", reference="g1")
    assert r["F_SP"] == pytest.approx(0.5 / 0.5)
    assert r["F_EOpp"] == pytest.approx(0.5 / 1.0)
    assert np.isnan(r["F_EOpp_FNR"])  # FNR of g1 is 0: the ratio is undefined
    assert np.isnan(r["F_EOdd_y0"])  # FPR of g1 is 0
    assert r["F_EOdd_y1"] == r["F_EOpp"]
    assert r["F_EAcc"] == pytest.approx(0.5 / 1.0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare("NOPE", [1, 0, 0, 0], [1, 0, 0, 0]), "unknown comparison"),
        (lambda: compare("OFI", [1, 0, 0], [1, 0, 0, 0]), "cm_i"),
        (lambda: compare("OFI", [1, 0, 0, 0], [-1, 0, 0, 0]), "cm_j contains negative"),
        (lambda: compare("OFI", np.ones((2, 4)), np.ones((3, 4))), "do not broadcast"),
        (lambda: bias_report([1, 0], [1, 0], ["a", "a"]), "at least two groups"),
        (
            lambda: bias_report([1, 0], [1, 0], ["a", "b"], positive=7),
            "positive=7 is not among the labels",
        ),
        (lambda: bias_report([1, 0], [1], ["a", "b"]), "differ in length"),
        (lambda: ratio_measures([1], [1], ["a"], protected="a", reference="z"), "'z' not in"),
    ],
)
def test_bad_input_raises(call, message):
    with pytest.raises(ValueError, match=message):
        call()
