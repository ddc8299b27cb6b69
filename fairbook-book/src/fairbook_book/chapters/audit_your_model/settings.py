"""Profiles of the chapter "Audit your own model"."""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = ["COMPAS_REFERENCES", "PROFILES", "settings"]

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "adult_seeds": 5,  # forests trained with seeds 0 … adult_seeds − 1
        "n_estimators": 30,  # trees per forest
        "max_train_rows": 10_000,  # a seeded sample of Adult's 30,162 training rows
        "alpha": 0.05,  # significance level after Holm's adjustment
        "min_gap": 0.05,  # smallest gap a group must be large enough to detect
    },
    "full": {
        "adult_seeds": 10,
        "n_estimators": 200,
        "max_train_rows": None,
        "alpha": 0.05,
        "min_gap": 0.05,
    },
}

#: The reference group of each COMPAS attribute (ProPublica compare with white defendants).
COMPAS_REFERENCES = {"race": "Caucasian", "sex": "Male", "age_cat": "25 - 45"}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile`` with ``overrides`` (``None`` keeps the profile's).

    Examples
    --------
    >>> settings("full")["adult_seeds"]
    10
    >>> settings("fast", adult_seeds=3)["adult_seeds"]
    3
    """
    return choose_settings(PROFILES, profile, overrides)
