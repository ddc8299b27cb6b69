"""Explorers of the chapter "Audit your own model": none.

The audit itself is the tool to explore with: ``fairbook audit FILE`` on other group
columns, references, metrics or α.
"""

__all__ = []
