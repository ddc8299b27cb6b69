"""Replication of the chapter "How stable is a fairness verdict?": none.

The chapter is the book's own contribution: it puts the four papers' threats to a fairness
verdict side by side on the same models, and no paper prints these flip rates, so it adds
no rows to the ledger. Its checks are the tests of :mod:`fairbook.variance.verdicts`
(enumeration of pairs, closed forms, Monte Carlo against ``2p(1 − p)``, bootstrap against
the binomial variance).

>>> PAPER_SOURCES
{}
"""

__all__ = ["PAPER_SOURCES"]

#: Paper constants the chapter uses, by ledger source: none.
PAPER_SOURCES: dict[str, str] = {}
