"""Explorers of "The Objective Fairness Index": none of the chapter's own.

This module would hold the chapter's widgets. The chapter's explorer (pick two groups,
see the Table 3.2 metrics between them) is the generic :func:`fairbook.widgets.pair_explorer`
on the COMPAS counts of :func:`fairbook.data.predictions.compas_race_counts`; it serves any
per-group counts, so it lives in :mod:`fairbook.widgets`.
"""

__all__: list[str] = []
