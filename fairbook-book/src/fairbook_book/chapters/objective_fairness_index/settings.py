"""Settings of "The Objective Fairness Index" (seed 003 ch. 3): the two profiles.

:data:`PROFILES` and :func:`settings` give the parameters of the ``fast`` and ``full``
profiles: the largest group size the property checker enumerates (Table 3.2), and the
trees and training rows of the Adult random forest that stands in for the paper's
Folktables Fig. 3.3. The paper's printed numbers are in :mod:`fairbook.papers.seed003`.
"""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = ["PROFILES", "settings"]

#: Parameters of the two profiles; a chapter's explicit parameters override them.
#: ``recorded_seeds``: the forest's seeds in the recorded full-profile run
#: (``fairbook-book record 02 adult``, one unit per seed).
PROFILES = {
    "fast": {"n_max": 12, "n_estimators": 50, "max_train_rows": None, "recorded_seeds": 10},
    "full": {"n_max": 12, "n_estimators": 500, "max_train_rows": None, "recorded_seeds": 10},
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides are ignored.

    Parameters
    ----------
    profile : {"fast", "full"}
    **overrides
        Any key of :data:`PROFILES` (``None`` keeps the profile's value).

    Returns
    -------
    dict

    Examples
    --------
    >>> settings("full")["n_estimators"]
    500
    >>> settings("fast", n_estimators=7)["n_estimators"]
    7
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    return chosen
