"""Replication of the chapter "Audit your own model": none.

The chapter applies the book's methods to predictions no paper audits in this form, so it
prints no paper numbers and adds no rows to the ledger; its checks are the audit's own tests
(``tests/audit``: fairlearn, enumeration and scipy cross-checks).

>>> PAPER_SOURCES
{}
"""

__all__ = ["PAPER_SOURCES"]

#: Paper constants the chapter uses, by ledger source: none.
PAPER_SOURCES: dict[str, str] = {}
