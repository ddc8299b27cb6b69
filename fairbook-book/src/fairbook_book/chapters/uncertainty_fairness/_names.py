"""How a reader names the groups of chapter 04's data sets.

The runs keep the data's short labels (``"B"``, ``"<25"``); tables, figures and explorers
show these names instead. A module of its own: the chapter's recordings fingerprint
:mod:`~fairbook_book.chapters.uncertainty_fairness.settings`, and a display name is not
a setting.
"""

from __future__ import annotations

__all__ = ["GROUP_NAMES", "group_name"]

#: How a reader names each group label of the data.
GROUP_NAMES = {
    "B": "Black",
    "W": "White",
    "F": "female",
    "M": "male",
    "<25": "younger than 25",
    "25-45": "25 to 45",
    ">45": "older than 45",
    0: "G0",
    1: "G1",
}


def group_name(label) -> str:
    """The reader's name of a group label (the label itself when it has none).

    Examples
    --------
    >>> group_name("B"), group_name("<25"), group_name(0), group_name("Other")
    ('Black', 'younger than 25', 'G0', 'Other')
    """
    key = label.item() if hasattr(label, "item") else label
    try:
        return GROUP_NAMES.get(key, str(key))
    except TypeError:  # an unhashable label
        return str(key)
