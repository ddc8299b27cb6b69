"""Figures of "Confusion matrices and the metric catalogue": none.

This module would hold the chapter's ``plot_*`` functions. The chapter shows tables
(Markdown and DataFrames) and one widget, and draws no matplotlib figure.
"""

__all__: list[str] = []
