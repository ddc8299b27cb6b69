"""Replication of the chapter "How stable is a fairness verdict?": none.

The chapter is the book's own contribution: it puts the four papers' threats to a fairness
verdict side by side on the same models, and no paper prints these flip rates, so it adds
no rows to the ledger. Its checks are the tests of :mod:`fairbook.variance.verdicts`
(enumeration of pairs, closed forms, Monte Carlo against ``2p(1 − p)``, bootstrap against
the binomial variance). The paper constants it uses are seed 000's fair/unfair threshold,
for the BNN's ratio verdicts, and seed 000's training settings, to train the BNN and the
deep ensemble.

>>> sorted(PAPER_SOURCES)
['seed000.FLAG_THRESHOLD', 'seed000.SETTINGS']
"""

__all__ = ["PAPER_SOURCES"]

#: Paper constants the chapter uses, by ledger source (none adds a ledger row).
PAPER_SOURCES: dict[str, str] = {
    "seed000.FLAG_THRESHOLD": "not in ledger: seed 000's |F − 1| threshold, for the BNN's "
    "ratio verdicts (uncertainty_flip_table, bnn_flip_table)",
    "seed000.SETTINGS": "not in ledger: the paper's training settings (epochs, batch size, "
    "hidden layers), used to train the BNN and the deep ensemble",
}
