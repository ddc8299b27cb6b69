"""Helpers shared by the role modules of "Conditional HydraGAN".

Private to :mod:`fairbook_book.chapters.conditional_hydragan`: the order in which the
protected classes are shown (Table 3.4's columns).
"""

from __future__ import annotations

from .settings import ATTRIBUTES

__all__: list[str] = []  # private helpers, imported by name by the role modules


def _class_order() -> list[str]:
    """The protected classes in the order of Table 3.4's columns.

    Examples
    --------
    >>> _class_order()
    ['youngest 75 %', 'oldest 25 %', 'Female', 'Male']
    """
    return [c for _, (_, classes) in ATTRIBUTES.items() for c in classes]
