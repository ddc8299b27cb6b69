"""Figures of the chapter "Audit your own model": none here.

The audit draws its own figures (rates with intervals per group and the disparity against
the reference) in the report that ``fairbook audit --html`` writes; the chapter shows its
tables and summary.
"""

__all__ = []
