"""The chapters' experiments: one package per chapter, built on the core modules.

Each package is named after its notebook's topic (``notebooks/NN_<slug>.ipynb`` ↔
``fairbook_book.chapters.<slug>``) and has the same role modules: ``settings`` (profiles),
``runs`` (the expensive computations, pure functions of settings), ``results`` (tables from
runs), ``replication`` (rows beside the paper), ``figures``, ``explorers`` (widgets) and
``key_results`` (the chapter's answers in plain sentences, :mod:`fairbook_book.chapter_summary`).
``profiles`` holds the one rule every chapter's ``settings()`` follows.
"""

__all__ = [
    "conditional_hydragan",
    "fit_variance",
    "metric_catalogue",
    "objective_fairness_index",
    "parallel_time_networks",
    "profiles",
    "small_groups",
    "ucerf",
    "uncertainty_fairness",
]
