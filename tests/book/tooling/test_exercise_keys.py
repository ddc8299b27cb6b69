"""The exercise keys: every exercise is graded one way, the instructor's hand arithmetic agrees
with the library (the oracle), every typical wrong answer is caught, and the comparison rules
accept what a student may write and nothing else."""

import math
from pathlib import Path

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairbook_book.tooling.assignments import exercise_statements
from fairbook_book.tooling.exercise_keys import (
    GRADED,
    GUIDES,
    TOLERANCE,
    Answer,
    answer_has_kind,
    answer_is_right,
    check_answer,
    check_answers,
    expected_values,
    run_answer,
)

ROOT = Path(__file__).resolve().parents[3]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _labels():
    return [
        exercise.label
        for path in CHAPTERS
        for exercise in exercise_statements(nbformat.read(path, as_version=4))
    ]


def test_every_exercise_of_every_chapter_has_exactly_one_key_or_guide():
    labels = _labels()
    assert len(labels) == len(set(labels)) == 36
    assert set(GRADED) | set(GUIDES) == set(labels)
    assert not set(GRADED) & set(GUIDES)
    # every chapter has at least one exercise graded by machine
    assert {label[3:5] for label in GRADED} == {path.name[:2] for path in CHAPTERS}


@pytest.mark.parametrize("label", sorted(GRADED))
def test_the_instructors_arithmetic_agrees_with_the_library(label):
    key = GRADED[label]
    assert check_answers(key, run_answer(key, key.solution)) == {a.name: True for a in key.answers}


@pytest.mark.parametrize("label", sorted(GRADED))
def test_the_typical_wrong_answer_is_caught(label):
    key = GRADED[label]
    verdicts = check_answers(key, run_answer(key, key.wrong))
    assert not all(verdicts.values()), f"{label}: the wrong answer passes every check"
    # and it really is wrong, not a rounding of the right value
    expected = expected_values(label)
    namespace = run_answer(key, key.wrong)
    for answer in key.answers:
        if not verdicts[answer.name] and answer.kind == "number":
            assert (
                abs(float(namespace[answer.name]) - float(expected[answer.name])) > 10 * TOLERANCE
            )


@pytest.mark.parametrize("label", sorted(GRADED))
def test_a_blank_answer_cell_is_wrong_and_not_of_the_right_kind(label):
    key = GRADED[label]
    blank = run_answer(key, "\n".join(f"{a.name} = ..." for a in key.answers))
    assert not any(check_answers(key, blank).values())
    assert not any(answer_has_kind(label, a.name, blank[a.name]) for a in key.answers)
    assert not any(check_answers(key, {}).values())


@pytest.mark.parametrize("label", sorted(GRADED))
def test_the_right_values_have_the_right_kind(label):
    for name, value in expected_values(label).items():
        assert answer_has_kind(label, name, value), (label, name, value)


def test_the_oracles_give_the_closed_forms():
    # independent closed forms (the chapters' solutions), not the library
    assert expected_values("ex-03-holes-by-hand") == {"n_matrices": math.comb(8, 3), "tpr_holes": 6}
    assert expected_values("ex-03-match-by-hand")["p_value"] == pytest.approx(2 * 0.5**3)
    assert expected_values("ex-10-flip-rate-by-hand") == {
        "rate": pytest.approx(6 / 10),
        "largest": pytest.approx(6 / 10),
    }
    values = expected_values("ex-06-cohen-by-hand")
    sd = np.sqrt((2 * 0.03**2 + 2 * 0.01**2) / 3)
    assert values["d"] == pytest.approx(0.05 / sd) and values["label"] == "very large"


def test_a_student_cannot_move_the_oracle():
    key = GRADED["ex-09-small-group-by-hand"]
    right = expected_values(key.label)
    cheat = run_answer(key, "counts = None\nreport = None\nppr = 0.5\ntpr = 0.5")
    assert check_answers(key, cheat)["tpr"] == (abs(0.5 - right["tpr"]) <= TOLERANCE)
    assert expected_values(key.label) == right


def test_the_small_group_answer_is_the_native_american_row_of_the_chapter():
    key = GRADED["ex-09-small-group-by-hand"]
    counts = run_answer(key, "")["counts"]
    row = counts.loc["Native American"]
    assert row["n"] == row["TP"] + row["FN"] + row["FP"] + row["TN"]
    assert expected_values(key.label)["ppr"] == pytest.approx((row["TP"] + row["FP"]) / row["n"])


NUMBER = Answer("x", "a number", "0")


@given(
    st.floats(-10, 10, allow_nan=False),
    st.floats(0, 1).filter(lambda f: abs(f - 1) > 1e-6 and f > 1e-6),
    st.sampled_from([-1, 1]),
)
def test_a_number_is_right_within_the_tolerance_and_wrong_beyond_it(expected, share, sign):
    assert answer_is_right(NUMBER, expected + sign * share * TOLERANCE, expected)
    assert not answer_is_right(NUMBER, expected + sign * (1 + share) * TOLERANCE * 1.01, expected)


@pytest.mark.parametrize(
    "given_",
    ["0.75", b"0.75", True, np.True_, None, ..., float("nan"), float("inf"), [0.75], 0.75j],
)
def test_text_bools_containers_and_non_finite_values_are_not_numbers(given_):
    assert not answer_is_right(NUMBER, given_, 0.75)
    assert not answer_has_kind("ex-01-rates-by-hand", "tpr", given_)


@pytest.mark.parametrize("given_", [0.75, np.float32(0.75), np.float64(0.75), 3 / 4])
def test_python_and_numpy_numbers_are_numbers(given_):
    assert answer_is_right(NUMBER, given_, 0.75)
    assert answer_has_kind("ex-01-rates-by-hand", "tpr", given_)


def test_integers_are_exact_and_words_ignore_case_and_spaces():
    integer = Answer("n", "", "0", kind="integer")
    assert answer_is_right(integer, 56, 56) and answer_is_right(integer, np.int64(56), 56.0)
    assert not answer_is_right(integer, 56.0004, 56)
    word = Answer("w", "", "0", kind="word")
    assert answer_is_right(word, " Very Large ", "very large")
    assert not answer_is_right(word, "large", "very large") and not answer_is_right(word, 1, "1")


def test_yes_no_answers_are_bools_only():
    yes_no = Answer("b", "", "0", kind="yes/no")
    assert answer_is_right(yes_no, False, np.False_) and answer_is_right(yes_no, np.True_, True)
    assert not any(answer_is_right(yes_no, given_, True) for given_ in (1, "True", "yes", 1.0))


def test_unknown_exercises_answers_and_kinds_are_errors():
    with pytest.raises(KeyError, match="no graded exercise"):
        check_answer("ex-99-nothing", "x", 1)
    with pytest.raises(KeyError, match="has no answer 'nope'"):
        check_answer("ex-01-rates-by-hand", "nope", 1)
    with pytest.raises(ValueError, match="kind must be one of"):
        Answer("x", "", "0", kind="fraction")


def test_every_marking_guide_gives_points_for_stated_criteria():
    for guide in GUIDES.values():
        assert guide.points == sum(points for points, _ in guide.criteria) >= 2
        assert all(points > 0 and len(text) > 20 for points, text in guide.criteria)
        assert guide.question.isidentifier()
    assert all(
        key.question.isidentifier() and key.points == len(key.answers) for key in GRADED.values()
    )
