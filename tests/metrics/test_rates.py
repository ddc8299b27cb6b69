"""Tests of fairbook.metrics.rates: every formula, NaN holes, bad input."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score, matthews_corrcoef

from fairbook.confusion import confusion_counts
from fairbook.metrics import METRICS, compute, compute_all, undefined_reason

CM = [3, 1, 2, 4]  # TP FN FP TN, n = 10

EXPECTED = {  # hand computed from the corrected Tables 2.2–2.4
    "ACC": 7 / 10,
    "PREV": 4 / 10,
    "PPR": 5 / 10,
    "INACC": 3 / 10,
    "NPREV": 6 / 10,
    "PNR": 5 / 10,
    "TPR": 3 / 4,
    "FPR": 2 / 6,
    "TNR": 4 / 6,
    "FNR": 1 / 4,
    "PPV": 3 / 5,
    "NPV": 4 / 5,
    "FDR": 2 / 5,
    "FOR": 1 / 5,
    "F1": 6 / 9,
    "MCC": (12 - 2) / np.sqrt(5 * 4 * 6 * 5),
    "B": (2 - 1) / 10,
    "PT": (np.sqrt(0.75 / 3) - 1 / 3) / (0.75 - 1 / 3),
}


def small_matrices(n_max=6):
    return np.array(
        [c for c in itertools.product(range(n_max + 1), repeat=4) if 0 < sum(c) <= n_max]
    )


def test_catalogue_and_formulas_agree():
    assert set(METRICS) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_metric_on_a_hand_computed_matrix(name):
    assert compute(name, CM) == pytest.approx(EXPECTED[name])


def test_names_are_case_insensitive():
    assert compute("tpr", CM) == compute("TPR", CM)


def test_batches_keep_leading_shape():
    batch = np.tile(CM, (2, 3, 1))
    out = compute("ACC", batch)
    assert out.shape == (2, 3)
    assert np.allclose(out, 0.7)


def test_real_valued_counts_are_accepted():
    assert compute("TPR", [0.5, 0.5, 0.0, 1.0]) == 0.5


def test_complements_over_all_small_matrices():
    cms = small_matrices()
    pairs = [
        ("ACC", "INACC"),
        ("PREV", "NPREV"),
        ("PPR", "PNR"),
        ("TPR", "FNR"),
        ("FPR", "TNR"),
        ("PPV", "FDR"),
        ("NPV", "FOR"),
    ]
    for a, b in pairs:
        total = compute(a, cms) + compute(b, cms)
        defined = ~np.isnan(total)
        assert np.allclose(total[defined], 1.0)


@pytest.mark.parametrize(
    ("name", "cm"),
    [
        ("TPR", [0, 0, 1, 1]),
        ("FNR", [0, 0, 1, 1]),
        ("FPR", [1, 1, 0, 0]),
        ("TNR", [1, 1, 0, 0]),
        ("PPV", [0, 1, 0, 1]),
        ("FDR", [0, 1, 0, 1]),
        ("NPV", [1, 0, 1, 0]),
        ("FOR", [1, 0, 1, 0]),
        ("F1", [0, 0, 0, 5]),
        ("MCC", [3, 0, 2, 0]),
        ("PT", [1, 1, 1, 1]),
        ("ACC", [0, 0, 0, 0]),
        ("B", [0, 0, 0, 0]),
    ],
)
def test_holes_are_nan_with_a_reason(name, cm):
    assert np.isnan(compute(name, cm))
    assert undefined_reason(name, cm) == METRICS[name].undefined_when != ""


def test_zero_rate_is_a_rate_not_a_hole():
    assert compute("TPR", [0, 3, 1, 1]) == 0.0
    assert undefined_reason("TPR", [0, 3, 1, 1]) == ""


def test_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, 500)
    y_pred = rng.integers(0, 2, 500)
    cm = confusion_counts(y_true, y_pred)
    assert compute("F1", cm) == pytest.approx(f1_score(y_true, y_pred))
    assert compute("MCC", cm) == pytest.approx(matthews_corrcoef(y_true, y_pred))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=4, max_size=4))
def test_ranges(cm):
    values = compute_all(cm)
    for name in ("ACC", "PREV", "PPR", "TPR", "FPR", "PPV", "NPV", "F1"):
        v = values[name]
        assert np.isnan(v) or 0 <= v <= 1
    for name in ("MCC", "B"):
        v = values[name]
        assert np.isnan(v) or -1 <= v <= 1
    assert np.isnan(values["B"]) == (sum(cm) == 0)


@pytest.mark.parametrize(
    ("cm", "message"),
    [
        ([1, 2, 3], "last axis of length 4"),
        (5, "last axis"),
        ([1, -1, 0, 0], "negative"),
        ([1, np.nan, 0, 0], "non-finite"),
        ([1, np.inf, 0, 0], "non-finite"),
        (["a", "b", "c", "d"], "numeric"),
        (np.zeros((2, 5)), "last axis"),
    ],
)
def test_bad_counts_raise(cm, message):
    with pytest.raises(ValueError, match=message):
        compute("ACC", cm)


def test_unknown_metric_names_the_choices():
    with pytest.raises(ValueError, match="unknown metric 'XYZ'.*ACC"):
        compute("XYZ", CM)


def test_undefined_reason_needs_one_matrix():
    with pytest.raises(ValueError, match="one confusion matrix"):
        undefined_reason("ACC", [CM, CM])


def _small_sklearn_case():
    y_true = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1])
    y_pred = np.array([1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0])
    cm = confusion_counts(y_true, y_pred)
    return cm, matthews_corrcoef(y_true, y_pred)


@pytest.mark.parametrize(
    "scale",
    [10**9, 10**10, 10**17, 1e77, 1e150, 1e300, 1e-80, 1e-300, 1e-320],
    ids=lambda s: f"{s:g}",
)
def test_mcc_is_scale_invariant_at_any_magnitude(scale):
    # MCC is homogeneous of degree 0 in the counts; the textbook denominator, the square
    # root of a product of four margins, overflows for counts of ~1e77 (MCC came out 0)
    # and underflows for tiny real-valued counts (NaN or a few significant digits).
    cm, expected = _small_sklearn_case()
    assert compute("MCC", cm) == pytest.approx(expected, rel=1e-12)
    scaled = np.asarray(cm) * scale  # integer scales stay int64 counts
    assert compute("MCC", scaled) == pytest.approx(expected, rel=1e-12)


def test_mcc_of_perfect_and_inverted_classifiers_with_extreme_class_sizes():
    # one class 1e300 times larger than the other: still a perfect (or perfectly wrong)
    # classifier, MCC = ±1 as for any perfect classification (sklearn: y against y)
    y = np.array([1, 0, 0])
    assert matthews_corrcoef(y, y) == 1.0
    assert matthews_corrcoef(y, 1 - y) == -1.0
    assert compute("MCC", [1e300, 0, 0, 1]) == pytest.approx(1.0, rel=1e-12)
    assert compute("MCC", [0, 1e300, 1, 0]) == pytest.approx(-1.0, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=4, max_size=4),
    st.integers(-300, 300),
)
def test_mcc_scale_invariance_property(cm, exponent):
    base = compute("MCC", cm)
    scaled = compute("MCC", np.array(cm, dtype=float) * 10.0**exponent)
    if np.isnan(base):  # a hole stays a hole at every scale
        assert np.isnan(scaled)
    else:
        assert scaled == pytest.approx(base, rel=1e-12, abs=1e-15)
