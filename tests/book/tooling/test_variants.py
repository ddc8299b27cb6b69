"""Tests of :mod:`fairbook_book.tooling.variants`: a term variant changes the numbers of every
autograded exercise and nothing else; its solution is right and its typical wrong answer is
caught, with keys the library computes."""

from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import variants
from fairbook_book.tooling.assignments import exercise_statements, master_notebook
from fairbook_book.tooling.exercise_keys import GRADED, answer_is_right, run_answer, values_of

ROOT = Path(__file__).resolve().parents[3]
STATEMENTS = {
    e.label: e.body
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for e in exercise_statements(nbformat.read(path, as_version=4))
}


def test_every_autograded_exercise_has_a_variant():
    assert set(variants.VARIANTS) == set(GRADED)


@pytest.mark.parametrize("label", sorted(GRADED))
def test_with_the_books_numbers_the_templates_are_the_books_key(label):
    spec, key = variants.VARIANTS[label], GRADED[label]
    for answer in key.answers:
        assert spec.oracles[answer.name].format(**spec.book) == answer.oracle
    meanings = " ".join(a.meaning for a in key.answers)
    for fragment, template in spec.statement:
        assert fragment in STATEMENTS[label] or fragment in meanings
        assert template.format(**spec.book) == fragment


def _graded(key):
    expected = values_of(key)

    def right(code):
        scope = run_answer(key, code)
        return [
            a.name in scope and answer_is_right(a, scope[a.name], expected[a.name])
            for a in key.answers
        ]

    return right(key.solution), right(key.wrong)


@pytest.mark.parametrize("label", sorted(GRADED))
def test_each_variants_solution_is_right_and_its_wrong_answer_caught(label):
    for variant in range(1, 13):
        key = variants.varied_key(label, variant)
        solution, wrong = _graded(key)
        assert all(solution), (variant, variants.varied_numbers(label, variant))
        assert not all(wrong), (variant, variants.varied_numbers(label, variant))


ZEROS = {"number": 0.0, "integer": 0, "yes/no": False, "word": ""}


@pytest.mark.parametrize("label", sorted(GRADED))
def test_no_key_is_the_zero_a_zeroed_notebook_would_give(label):
    for variant in range(13):
        key = variants.varied_key(label, variant)
        expected = values_of(key)
        zeros = [a.name for a in key.answers if answer_is_right(a, ZEROS[a.kind], expected[a.name])]
        assert not zeros, (variant, zeros)


@pytest.mark.parametrize("label", sorted(GRADED))
def test_two_variants_give_other_numbers_than_each_other_and_the_book(label):
    book = variants.VARIANTS[label].book
    for first, second in ((1, 2), (2, 3), (7, 8)):
        one, two = variants.varied_numbers(label, first), variants.varied_numbers(label, second)
        assert one != book and two != book
        assert one != two
        statement = variants.varied_statement(label, STATEMENTS[label], first)
        for fragment, template in variants.VARIANTS[label].statement:
            if fragment in STATEMENTS[label]:  # each number-carrying fragment is the variant's
                assert template.format(**one) in statement
        assert statement != STATEMENTS[label]


def test_the_variant_is_said_and_its_numbers_are_in_the_assignment():
    chapter = nbformat.read(ROOT / "notebooks" / "01_metric_catalogue.ipynb", as_version=4)
    master = master_notebook("01_metric_catalogue", chapter, variant=7)
    text = "\n".join(cell.source for cell in master.cells)
    numbers = variants.varied_numbers("ex-01-rates-by-hand", 7)
    assert "term variant 7" in text
    assert f"[{numbers['tp']}, {numbers['fn']}, {numbers['fp']}, {numbers['tn']}]" in text
    assert "[2, 3, 1, 6]" not in text
    book = master_notebook("01_metric_catalogue", chapter)
    assert "[2, 3, 1, 6]" in "\n".join(cell.source for cell in book.cells)


@pytest.mark.parametrize("variant", [-1, 2**31, True, 1.5])
def test_a_variant_is_a_positive_whole_number(variant):
    with pytest.raises(ValueError, match="whole number"):
        variants.varied_numbers("ex-01-rates-by-hand", variant)
