"""Replication rows of "Confusion matrices and the metric catalogue": none.

This module would hold the chapter's ``<table>_replication`` functions. Seed 003's
chapter 2 prints formulas, not numbers: the chapter shows each corrected formula beside
the printed one (:func:`~fairbook_book.chapters.metric_catalogue.results.catalogue_table`,
column ``"printed in seed 003"``), and the corrections are listed on the errata page, so
there is no paper number to put beside ours. Table 2.4's two-group metrics (TE and OFI)
are named under the table and replicated in chapter 02.

Examples
--------
>>> PAPER_SOURCES
{}
"""

__all__ = ["PAPER_SOURCES"]

#: The chapter compares no printed number, so it uses no constant of ``fairbook.papers``.
PAPER_SOURCES: dict[str, str] = {}
