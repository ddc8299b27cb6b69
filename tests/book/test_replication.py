"""Tests of fairbook_book.replication: the named rules, the Row type and the table layout."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fairbook_book.replication import (
    COLUMNS,
    INFORMATIVE_WIDTH,
    KINDS,
    NOT_COMPARABLE_WHY,
    OUTCOMES,
    RESULT_OUTCOMES,
    Bound,
    Exact,
    Flag,
    Interval,
    LogScale,
    NotComparable,
    ReadingCheck,
    Rounding,
    Row,
    SameSign,
    Words,
    passes,
    replication_table,
    verdict,
)


@pytest.mark.parametrize(
    ("paper", "ours", "decimals", "expected"),
    [
        (-0.06, -0.0556, 2, "matches"),
        (-0.33, -0.325, 2, "matches"),  # half away from zero, as the paper rounds
        (0.38, 0.386, 2, "differs"),
        (2.71, 2.714, 2, "matches"),
        (10.1, 10.14, 1, "matches"),
        (10.1, 10.16, 1, "differs"),
        (np.nan, np.nan, 2, "both undefined"),
        (np.nan, 1.0, 2, "paper undefined"),
        (1.0, np.nan, 2, "ours undefined"),
    ],
)
def test_rounding_rule(paper, ours, decimals, expected):
    assert Rounding(decimals=decimals).judge(paper, ours) == expected
    assert verdict(paper, ours, decimals=decimals) == expected


def test_extra_tolerance_widens_the_match():
    assert Rounding(decimals=2).judge(0.5, 0.52) == "differs"
    assert Rounding(decimals=2, extra=0.02).judge(0.5, 0.52) == "matches"


@pytest.mark.parametrize(
    ("kind", "paper", "ours", "expected"),
    [
        ("upper", 22.6, 48.0, "upper bound fails"),
        ("upper", 22.6, 22.6, "upper bound fails"),  # strict: the bound itself is not below
        ("upper", 22.6, 10.0, "upper bound holds"),
        ("lower", 5.0, 5.0, "lower bound holds"),
        ("lower", 5.0, 4.0, "lower bound fails"),
        ("lower", 5.0, np.nan, "ours undefined"),
    ],
)
def test_bound_rule(kind, paper, ours, expected):
    assert Bound(kind).judge(paper, ours) == expected


def test_bound_names_its_side():
    with pytest.raises(ValueError, match="'upper' or 'lower'"):
        Bound("above")


@pytest.mark.parametrize(
    ("paper", "ours", "expected"),
    [
        (0.04, 0.2, "yes"),
        (-0.04, -1e-9, "yes"),
        (0.04, -0.2, "no"),
        (0.0, 0.3, "paper ±0"),
        (-0.0, 0.3, "paper ±0"),
        (0.1, np.nan, "ours undefined"),
    ],
)
def test_same_sign_rule(paper, ours, expected):
    assert SameSign().judge(paper, ours) == expected


def test_table_columns_difference_sign_and_rows_kept():
    rows = [Row("x", 1.0, 1.5, note="n", source="seed 003 Table 3.1")]
    table = replication_table(rows)
    assert tuple(table.columns) == COLUMNS
    assert table.loc[0, "difference"] == 0.5
    assert table.loc[0, "verdict"] == "differs"
    assert table.attrs["rows"] == tuple(rows)


def test_each_row_uses_its_own_rule():
    table = replication_table(
        [Row("a", 22.6, 48.0, rule=Bound("upper")), Row("b", 0.1, 0.3, rule=SameSign())]
    )
    assert table["verdict"].tolist()[0] == "upper bound fails"
    assert table["verdict"].tolist()[1].startswith("yes; uninformative")


def test_the_table_takes_rows_only():
    with pytest.raises(TypeError, match="Row objects, not dict"):
        replication_table([{"quantity": "x", "paper": 1.0, "ours": 1.0}])


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"quantity": "", "paper": 1.0, "ours": 1.0}, "non-empty string"),
        ({"quantity": "x", "paper": "one", "ours": 1.0}, "paper must be a number"),
        ({"quantity": "x", "paper": 1.0, "ours": None}, "ours must be a number"),
        ({"quantity": "x", "paper": 1.0, "ours": 1.0, "rule": "rounding"}, "named rule"),
        ({"quantity": "x", "paper": 1.0, "ours": 1.0, "kind": "finding"}, "kind is one of"),
        ({"quantity": "x", "paper": 1.0, "ours": 1.0, "derived": 3}, "derived must be text"),
    ],
)
def test_bad_rows_name_the_problem(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        Row(**kwargs)


def test_empty_table_keeps_its_columns():
    table = replication_table([])
    assert isinstance(table, pd.DataFrame) and tuple(table.columns) == COLUMNS and table.empty


# ---- the rules that keep verdicts from flattering (issue 15) ---------------------------------


def test_a_ratio_within_twenty_percent_can_still_flip_its_flag():
    # seed 000 Table 1 SD2 F_Alea-like case: a ±20 % band would call 1.15 vs 1.25 a match
    row = Row("F_Alea", 1.15, 1.25, rule=(Flag(), Interval()), low=1.21, high=1.3, n=10)
    assert row.verdicts[0] == "flag differs: paper fair, ours unfair (> 1.2)"
    assert row.passed is False


def test_a_tiny_uncertainty_is_judged_on_its_printed_precision_not_a_fifty_percent_band():
    # a printed 0.0001 with a ±50 % band accepted 0 … 0.0002; 2–2.4× too low must differ
    assert passes(LogScale(significant=1).judge(0.0001, 0.0001 / 2.2)) is False
    assert passes(LogScale(significant=1).judge(0.0001, 0.00014)) is True
    assert LogScale(significant=2).judge(0.0023, 0.00236) == "differs (+0.01 decades)"


def test_one_seed_has_no_interval_and_so_no_match():
    row = Row.from_samples("U_e", 0.01, [0.0101], rule=Interval())
    assert row.verdict == "no interval (1 seed)" and row.passed is None


def test_seed_summaries_use_the_median_so_one_outlier_cannot_dominate():
    samples = [17.0, 18.0, 18.6, 19.0, 20.0, 42_000.0]
    row = Row.from_samples("SD1 F_Alea", 18.0, samples, rule=Interval(decimals=1))
    assert row.ours == pytest.approx(np.median(samples))
    assert row.iqr == tuple(np.quantile(samples, [0.25, 0.75]))
    assert np.mean(samples) > 1000 > row.ours


def test_undefined_samples_are_counted_not_dropped_silently():
    row = Row.from_samples("x", 1.0, [1.0, np.nan, 1.1, np.inf], rule=Interval())
    assert row.n == 2 and "2 of 4 undefined" in row.note


def test_a_number_from_another_experiment_is_never_a_match():
    row = Row("Finding 4 Levene p", 5e-4, 4.9e-4, rule=NotComparable("different networks"))
    assert row.verdict == "not comparable" and row.passed is None


def test_interval_allows_for_the_papers_own_rounding():
    # paper prints 0.55 (any of 0.545 … 0.555); our interval ends at 0.547
    assert Interval(decimals=2).judge(0.55, 0.5, low=0.45, high=0.547, n=10).startswith("in ")
    assert Interval(decimals=3).judge(0.55, 0.5, low=0.45, high=0.547, n=10).startswith("out")


@pytest.mark.parametrize(
    ("paper", "ours", "expected"),
    [(6172, 6172, "matches"), (127, 126, "differs"), (0.1 + 0.2, 0.3, "matches")],
)
def test_exact_rule(paper, ours, expected):
    assert Exact().judge(paper, ours) == expected


def test_several_rules_pass_only_together():
    both = Row("F", 1.5, 1.6, rule=(Flag(), Interval()), low=1.4, high=1.7, n=10)
    assert both.passed is True and both.rule_names == "flag + interval"
    one_fails = Row("F", 1.5, 1.6, rule=(Flag(), Interval()), low=1.55, high=1.7, n=10)
    assert one_fails.passed is False


def test_low_and_high_come_together():
    with pytest.raises(ValueError, match="both low and high"):
        Row("x", 1.0, 1.0, low=0.5)


@pytest.mark.parametrize(
    ("verdict_text", "expected"),
    [
        ("matches", True),
        ("differs", False),
        ("matches (+0.08 decades)", True),
        ("upper bound holds", True),
        ("lower bound fails", False),
        ("yes", True),
        ("no", False),
        ("paper ±0", None),
        ("both undefined", None),
        ("not comparable", None),
        ("no interval (1 seed)", None),
        ("in 95 % interval [1, 2] (10 seeds)", True),
        ("outside 95 % interval [1, 2] (10 seeds)", False),
        ("flag agrees (fair)", True),
        ("flag differs: paper fair, ours unfair", False),
    ],
)
def test_passes_reads_every_verdict(verdict_text, expected):
    assert passes(verdict_text) is expected


def test_at_recorded_budget_keeps_rows_and_refuses_stale_ones():
    from fairbook_book.replication import STALE, at_recorded_budget

    table = replication_table(
        [Row("a", 0.5, 0.5, note="by hand"), Row("b", 1.0, 2.0, rule=Exact())]
    )
    fresh = at_recorded_budget(table, note="3 of 10 seeds recorded", stale=False)
    assert fresh["verdict"].tolist() == table["verdict"].tolist()
    assert fresh["note"].tolist() == ["by hand; 3 of 10 seeds recorded", "3 of 10 seeds recorded"]
    stale = at_recorded_budget(table, note="3 of 10 seeds recorded", stale=True)
    assert stale["verdict"].tolist() == ["not comparable", "not comparable"]
    assert all(row.rule is STALE for row in stale.attrs["rows"])
    assert stale["ours"].tolist() == table["ours"].tolist()  # the numbers stay, for context


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (7.4, "7.4"),
        (0.0011, "0.0011"),
        (100.0, "100"),
        (9999.4, "9999"),
        (10_000.0, "10,000"),
        (-123456.7, "-123,457"),
        (2.2204e-16, "2.22e-16"),
        (float("inf"), "inf"),
        (float("nan"), "nan"),
    ],
)
def test_float_format_prints_four_significant_digits(value, printed):
    from fairbook_book.replication import float_format

    assert float_format(value) == printed


# ---- round two (issue 36): direction, informativeness, words, checks of our reading --------

_MAGNITUDE = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False)
_SIGN = st.sampled_from((-1.0, 1.0))

#: Every numerical rule with the parameters the chapters use (a bound and the words are a
#: side, not a value; they are tested on their own below).
_VALUE_RULES = (
    Exact(),
    Rounding(decimals=0),
    Rounding(decimals=2),
    Rounding(decimals=3, extra=0.001),
    Rounding(decimals=1, extra=100.0),  # a tolerance wider than the value itself
    LogScale(significant=1),
    LogScale(significant=3),
    SameSign(),
    Interval(decimals=0),
    Interval(decimals=2),
    Interval(decimals=4),
    Interval(decimals=1, what="experiments"),
)


@settings(max_examples=300, deadline=None)
@given(
    rule=st.sampled_from(_VALUE_RULES),
    paper=_MAGNITUDE,
    ours=_MAGNITUDE,
    sign=_SIGN,
    spread=st.floats(min_value=0, max_value=1e7),
)
def test_no_rule_passes_a_value_of_the_wrong_sign(rule, paper, ours, sign, spread):
    # ours on the other side of 0 than the printed value, with an interval as wide as we
    # like around it (even one that holds the paper's value): never a pass
    paper, ours = sign * paper, -sign * ours
    low, high = min(ours, paper) - spread, max(ours, paper) + spread
    row = Row("x", paper, ours, rule=rule, low=low, high=high, n=10)
    assert row.passed is not True, (rule, row.verdict)
    assert row.outcome in ("differs", "no verdict")
    assert passes(ReadingCheck(rule, "why").judge(paper, ours, low=low, high=high, n=10)) is None


@settings(max_examples=300, deadline=None)
@given(
    paper=st.floats(min_value=-1e3, max_value=1e3, allow_nan=False),
    ours=st.floats(min_value=-1e3, max_value=1e3, allow_nan=False),
    pivot=st.sampled_from((1.0, 0.0)),
    threshold=st.sampled_from((0.2, 0.1)),
)
def test_a_flag_passes_only_on_the_same_side_of_the_pivot(paper, ours, pivot, threshold):
    flag = Flag(pivot=pivot, threshold=threshold)

    def side(v):
        return 0 if abs(v - pivot) <= threshold else (1 if v > pivot else -1)

    agrees = passes(flag.judge(paper, ours))
    assert agrees is (side(paper) == side(ours))


def test_a_flag_on_the_other_side_of_one_is_a_different_verdict():
    # seed 000 Table 5: F_Epis printed 151 (far above 1), ours 0.67 (below 0.8)
    assert Flag().judge(151.0, 0.67) == "flag differs: paper unfair (> 1.2), ours unfair (< 0.8)"
    assert passes(Flag().judge(2.65, 0.47)) is False
    assert passes(Flag().judge(2.65, 3.1)) is True


@settings(max_examples=200, deadline=None)
@given(
    claim=st.sampled_from(("most", "a majority", "some")),
    paper=st.floats(min_value=0, max_value=100),
    ours=st.floats(min_value=0, max_value=100),
)
def test_words_pass_only_when_ours_satisfies_them(claim, paper, ours):
    threshold = 0.0 if claim == "some" else 50.0
    assert passes(Words(claim).judge(paper, ours)) is (ours > threshold)


def test_most_is_not_matched_by_one_of_four():
    # seed 004 Finding 3: "Most of (15 out of 22)"; a sign rule passed 1 of 4
    row = Row.from_count(
        "increase", 68.2, 1, 4, rule=(Words("most"), Interval(decimals=1, what="techniques"))
    )
    assert row.passed is False and row.outcome == "differs"
    many = Row.from_count(
        "increase", 68.2, 3, 4, rule=(Words("most"), Interval(decimals=1, what="techniques"))
    )
    # consistent, but an exact interval over 4 techniques says little
    assert many.passed is True and many.outcome == "uninformative"


@settings(max_examples=200, deadline=None)
@given(
    paper=st.floats(min_value=0.01, max_value=100),
    low=st.floats(min_value=-10, max_value=100),
    width=st.floats(min_value=0, max_value=300),
)
def test_an_interval_match_is_informative_only_when_narrow_and_away_from_zero(paper, low, width):
    rule = Interval(decimals=2)
    high = low + width
    ours = min(max(paper, low), high)
    assume(ours != 0)
    row = Row("x", paper, ours, rule=rule, low=low, high=high, n=10)
    if row.passed is not True:
        return
    wide = (high - low + 2 * rule.half_unit) > INFORMATIVE_WIDTH * paper + 1e-12
    holds_zero = low - rule.half_unit <= 0 <= high + rule.half_unit
    assert row.informative is (not (wide or holds_zero))
    assert row.outcome == ("uninformative" if (wide or holds_zero) else "matches")


def test_every_rule_states_its_widening_in_its_text():
    assert "±0.005" in Interval(decimals=2).text
    assert "extra tolerance 0.001" in Rounding(decimals=3, extra=0.001).text
    assert "half a unit at 2 decimals" in Rounding().text
    assert "[0.8, 1.2]" in Flag().text
    assert "ours < paper" in Bound("upper").text
    assert "'most'" in Words("most").text and "50 %" in Words("most").text
    assert NotComparable("why", why="data on request").text == (
        "not comparable (data on request; why)"
    )
    check = ReadingCheck(Rounding(decimals=3, extra=0.001), "from np.eye(10)")
    assert "np.eye(10)" in check.text and "extra tolerance 0.001" in check.text
    row = Row("x", 1.0, 1.0, rule=(Flag(), Interval()), low=0.9, high=1.1, n=5)
    assert row.rule_text == f"{Flag().text} + {Interval().text}"
    assert row.outcome in OUTCOMES


def test_a_check_of_our_reading_is_never_a_match():
    row = Row("KL", 2.302, np.log(10), rule=ReadingCheck(Rounding(3, extra=0.001), "np.eye"))
    assert row.verdict == "check of our reading: matches"
    assert row.passed is None and row.outcome == "no verdict"


def test_words_reject_unknown_claims():
    with pytest.raises(ValueError, match="the paper's words are one of"):
        Words("nearly all")


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(("upper", "lower")),
    paper=st.floats(min_value=-1e6, max_value=1e6),
    ours=st.floats(min_value=-1e6, max_value=1e6),
)
def test_a_bound_passes_only_on_its_side(kind, paper, ours):
    holds = passes(Bound(kind).judge(paper, ours))
    assert holds is (ours < paper if kind == "upper" else ours >= paper)


# --- kinds, stand-ins and the reasons a result is not compared (#46) ---------------------


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "result"])
@pytest.mark.parametrize(
    ("paper", "ours", "rule", "expected"),
    [
        (0.5, 0.5, Exact(), "check holds"),
        (0.5, 0.7, Exact(), "check fails"),
        (-0.06, -0.0556, Rounding(), "check holds"),
        (0.5, float("nan"), Exact(), "no verdict"),
        (2.302, np.log(10), ReadingCheck(Rounding(3, extra=0.001), "np.eye"), "check holds"),
    ],
)
def test_a_row_that_is_not_a_result_is_a_check_never_a_match(kind, paper, ours, rule, expected):
    row = Row("x", paper, ours, rule=rule, kind=kind)
    assert row.outcome == expected
    assert row.verdict.startswith(f"{kind} check: ")
    assert row.outcome not in RESULT_OUTCOMES


@pytest.mark.parametrize(
    ("ours", "low", "high", "expected"),
    [(0.25, 0.21, 0.29, "in kind"), (-0.25, -0.29, -0.21, "not in kind")],
)
def test_a_stand_in_agrees_in_kind_never_matches(ours, low, high, expected):
    row = Row(
        "gap", 0.2, ours, rule=SameSign(), low=low, high=high, n=10, stand_in="Adult for CASAS"
    )
    assert row.outcome == expected
    assert "on a stand-in (Adult for CASAS)" in row.verdict


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (None, None, "uninformative"),  # no window: one number could fall either side
        (-0.01, 0.3, "uninformative"),  # holds 0
        (0.02, 0.3, "uninformative"),  # wider than half the printed 0.2
        (0.15, 0.24, "matches"),  # excludes 0, 0.09 ≤ 0.1 wide
    ],
)
def test_a_same_sign_match_needs_a_narrow_window_that_excludes_zero(low, high, expected):
    row = Row("gap", 0.2, 0.2, rule=SameSign(), low=low, high=high, n=None if low is None else 10)
    assert row.outcome == expected


def test_every_same_sign_match_has_a_window_no_wider_than_half_the_printed_value():
    rng = np.random.default_rng(46)
    for _ in range(500):
        paper = rng.choice([-1, 1]) * rng.uniform(0.01, 2)
        low, high = np.sort(rng.normal(paper, 1.0, size=2))
        row = Row("x", paper, (low + high) / 2, rule=SameSign(), low=low, high=high, n=10)
        if row.outcome == "matches":
            assert high - low <= INFORMATIVE_WIDTH * abs(paper) + 1e-12
            assert not (low <= 0 <= high)


@pytest.mark.parametrize("why", NOT_COMPARABLE_WHY)
def test_a_result_not_compared_carries_its_reason(why):
    row = Row("x", 1.0, 1.0, rule=NotComparable("another data set", why=why))
    assert row.outcome == "not comparable"
    assert row.not_comparable_why == why


def test_a_value_printed_in_scientific_notation_is_judged_at_its_own_precision():
    # 6e-7 stands for 5.5e-7 to 6.5e-7; at four decimals it would accept anything below 5e-5
    narrow = Interval(decimals=4, significant=1)
    assert narrow.judge(6e-7, 6.2e-7, low=6.4e-7, high=7e-7, n=10).startswith("in ")
    assert narrow.judge(6e-7, 8e-7, low=7e-7, high=9e-7, n=10).startswith("outside ")
    assert Interval(decimals=4).judge(6e-7, 8e-6, low=7e-6, high=9e-6, n=10).startswith("in ")
    assert "significant digit" in narrow.text
