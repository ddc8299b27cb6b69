"""Explorers of the chapter "How stable is a fairness verdict?": none.

The verdict rules and the sources are the chapter's parameters: rerun it with another
threshold or more runs (``fairbook-book run 10 -p gap_threshold 0.1 -p n_runs 6``) to explore;
a static grid over them would need one build of every unit per cell.
"""

__all__ = []
