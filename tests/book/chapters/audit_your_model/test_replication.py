"""Tests of the chapter "Audit your own model": it compares no paper numbers."""

from fairbook_book.chapters.audit_your_model import replication


def test_no_paper_constants_and_an_empty_tally():
    from fairbook_book import ledger

    assert replication.PAPER_SOURCES == {}
    tally = ledger.chapter_ledger([], chapter="09_audit_your_model")
    assert tally.frame.empty
    assert "No paper numbers" in tally.to_markdown()
