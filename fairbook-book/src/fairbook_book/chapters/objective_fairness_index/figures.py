"""Figures of "The Objective Fairness Index": none of the chapter's own.

This module would hold the chapter's ``plot_*`` functions. The chapter's only figures are
heat maps of a metric over every pair of groups (Figs. 3.2–3.3), drawn by the generic
:func:`fairbook_book.plots.pairwise_heatmap` from
:func:`~fairbook_book.chapters.objective_fairness_index.results.pairwise_scores`; other
chapters draw the same kind of map, so the helper lives in :mod:`fairbook_book.plots`.
"""

__all__: list[str] = []
