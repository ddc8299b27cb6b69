"""Tests of :mod:`fairbook_book.reproduction.compare`: bits under one signature, a tolerance and
equal verdicts under another, flips never absorbed, structure always exact."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairbook_book.reproduction.compare import (
    UNDECIDED,
    Tolerance,
    compare_tables,
    ratio_sides,
    signs,
)

TOL = Tolerance(1e-3, 0.0, "test")


def _table(values, names=("a", "b", "c")):
    return pd.DataFrame({"metric": list(names), "value": values})


def _signs(t):
    return signs(t, "value", keys=["metric"], band=TOL.absolute)


def test_identical_tables_are_bit_identical_in_either_mode():
    t = _table([0.5, -0.25, 0.125])
    for same in (True, False):
        c = compare_tables(t, t.copy(), values=["value"], tolerance=TOL, same_signature=same)
        assert c.passed and c.status == "bit-identical" and c.max_abs == 0


def test_last_bits_fail_under_the_same_signature_and_pass_under_another():
    t = _table([0.5, -0.25, 0.125])
    moved = t.assign(value=np.nextafter(t["value"], 1.0))
    same = compare_tables(t, moved, values=["value"], tolerance=TOL, same_signature=True)
    other = compare_tables(t, moved, values=["value"], tolerance=TOL, same_signature=False)
    assert not same.passed and "same kernel signature" in same.status
    assert other.passed and other.status == "within tolerance"
    assert 0 < other.max_abs < 1e-15


def test_a_flip_fails_even_inside_the_tolerance():
    t = _table([0.0015, -0.25, 0.125])
    flipped = t.assign(value=[-0.0015, -0.25, 0.125])
    wide = Tolerance(0.01, 0.0, "wide")
    c = compare_tables(
        t,
        flipped,
        values=["value"],
        tolerance=wide,
        same_signature=False,
        verdicts=lambda x: signs(x, "value", keys=["metric"], band=0.001),
    )
    assert c.outside == 0 and not c.passed
    assert c.flips == ["a: + recorded, - here"] and "flip" in c.status


def test_moving_into_the_band_is_reported_not_failed():
    t = _table([0.0015, -0.25, 0.125])
    c = compare_tables(
        t,
        t.assign(value=[0.0009, -0.25, 0.125]),
        values=["value"],
        tolerance=TOL,
        same_signature=False,
        verdicts=_signs,
    )
    assert c.passed and c.weakened == [f"a: + recorded, {UNDECIDED} here"] and not c.flips


def test_outside_the_tolerance_fails_and_is_counted():
    t = _table([0.5, -0.25, 0.125])
    c = compare_tables(
        t,
        t.assign(value=[0.51, -0.25, 0.12]),
        values=["value"],
        tolerance=TOL,
        same_signature=False,
    )
    assert not c.passed and c.outside == 2 and c.max_abs == pytest.approx(0.01)


def test_structure_always_compares_exactly():
    t = _table([0.5, -0.25, 0.125])
    renamed = _table([0.5, -0.25, 0.125], names=("a", "b", "d"))
    c = compare_tables(t, renamed, values=["value"], tolerance=TOL, same_signature=False)
    assert not c.passed and "column 'metric' differs at row 2" in c.status
    short = compare_tables(t, t.head(2), values=["value"], tolerance=TOL, same_signature=False)
    assert short.structure == ["2 rows here, 3 recorded"]


def test_undefined_on_one_side_only_is_a_difference_of_structure():
    t = _table([0.5, np.nan, 0.125])
    c = compare_tables(
        t, t.assign(value=[0.5, 0.1, 0.125]), values=["value"], tolerance=TOL, same_signature=False
    )
    assert not c.passed and "undefined on one side only" in c.status
    both = compare_tables(t, t.copy(), values=["value"], tolerance=TOL, same_signature=True)
    assert both.passed


def test_digests_count_under_another_signature_and_fail_under_the_same():
    t = pd.DataFrame({"value": [0.5], "pred_hash": ["abc"]})
    other = t.assign(pred_hash=["abd"])
    kw = {"values": ["value"], "hashes": ["pred_hash"], "tolerance": TOL}
    assert not compare_tables(t, other, same_signature=True, **kw).passed
    c = compare_tables(t, other, same_signature=False, **kw)
    assert c.passed and (c.hashes_differ, c.hashes) == (1, 1)


def test_ratio_sides_judge_the_side_of_one():
    t = pd.DataFrame({"m": ["x", "y", "z"], "v": [1.5, 0.2, 1.0004]})
    assert ratio_sides(t, "v", keys=["m"], band=1e-3).tolist() == [">1", "<1", UNDECIDED]


@given(
    st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=20),
    st.floats(0, 1e-3),
)
def test_a_shift_within_the_tolerance_always_passes_without_flips(values, shift):
    t = pd.DataFrame({"metric": [f"m{i}" for i in range(len(values))], "value": values})
    wide = Tolerance(2e-3, 0.0, "property")
    c = compare_tables(
        t,
        t.assign(value=t["value"] + shift),
        values=["value"],
        tolerance=wide,
        same_signature=False,
        verdicts=lambda x: signs(x, "value", keys=["metric"], band=wide.absolute),
    )
    assert c.outside == 0 and not c.flips
