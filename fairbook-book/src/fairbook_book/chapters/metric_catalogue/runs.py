"""Runs of "Confusion matrices and the metric catalogue": none.

This module would hold the chapter's expensive computations. The chapter has none: every
table is read off the metric catalogue (:data:`fairbook.metrics.METRICS`) or computes the
18 metrics of a handful of confusion matrices, which is instant, so it lives in
:mod:`~fairbook_book.chapters.metric_catalogue.results`.
"""

__all__: list[str] = []
