"""Tests of :mod:`fairbook_book.tooling.folding` on docutils trees built by hand."""

from docutils import nodes
from docutils.utils import new_document

from fairbook_book.tooling import folding


def _section(name, *children):
    section = nodes.section(ids=[name], names=[name])
    section += nodes.title(text=name)
    for child in children:
        section += child
    return section


def test_a_labelled_section_folds_its_body_and_keeps_its_title():
    doc = new_document("test")
    table = nodes.table()
    inner = _section("inner", nodes.paragraph(text="deep"), nodes.image(uri="a.png"))
    raw = nodes.raw("", '<table></table><div class="fairbook-vega"></div>', format="html")
    doc += _section("fold-03-match", nodes.paragraph(text="evidence"), table, raw, inner)
    doc += _section("open", nodes.paragraph(text="teaching"))
    assert folding.fold_sections(doc) == 1
    folded, kept = doc.children
    assert isinstance(folded.children[0], nodes.title)
    assert len(folded.children) == 2 and isinstance(folded.children[1], folding.FoldedEvidence)
    fold = folded.children[1]
    assert fold["summary"] == "Show the evidence: 2 tables, 2 figures"
    assert not any(isinstance(c, folding.FoldedEvidence) for c in kept.findall())


def test_summary_text_counts_and_plurals():
    assert folding.summary_text(tables=0, figures=0) == "Show the evidence"
    assert folding.summary_text(tables=1, figures=3) == "Show the evidence: 1 table, 3 figures"


def test_an_empty_labelled_section_is_left_alone():
    doc = new_document("test")
    doc += _section("fold-x")
    assert folding.fold_sections(doc) == 0
