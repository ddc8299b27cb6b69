"""Settings of "Confusion matrices and the metric catalogue" (seed 003 ch. 2).

The chapter computes nothing expensive: its tables are read off the metric catalogue
(:data:`fairbook.metrics.METRICS`), so the ``fast`` and ``full`` profiles are the same and
empty. :func:`settings` exists so that the chapter follows the same rule as every other
(``settings(profile, **overrides)``). :data:`FAMILY_TITLES` names the paper's three tables
of metrics, one per family.
"""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = ["FAMILY_TITLES", "PROFILES", "settings"]

#: Parameters of the two profiles: none, the chapter is the same in both.
PROFILES = {"fast": {}, "full": {}}

#: Metric family → the title of its table in seed 003 (Tables 2.2–2.4).
FAMILY_TITLES = {
    "binomial": "Table 2.2 — binomial metrics",
    "joint ratio": "Table 2.3 — joint-ratio metrics",
    "other": "Table 2.4 — other metrics",
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile`` (empty in both profiles).

    Parameters
    ----------
    profile : {"fast", "full"}
    **overrides
        Any key of :data:`PROFILES` (there are none).

    Returns
    -------
    dict

    Examples
    --------
    >>> settings("full")
    {}
    """
    return choose_settings(PROFILES, profile, overrides)
