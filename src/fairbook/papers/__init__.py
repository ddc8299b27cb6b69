"""Numbers as printed in the seed papers: the oracles of replicated tables and tests.

Nothing here is a result of ours; each constant names its table.
"""

__all__ = ["names", "seed000", "seed001", "seed003", "seed004"]
