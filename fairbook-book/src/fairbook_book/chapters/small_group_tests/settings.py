"""Profiles of the chapter "How small is too small?": group sizes, reference sizes, effects.

The fast profile computes every exact size and power of the chapter's tables in well under
a minute on two cores; the full profile adds larger groups and references and more bootstrap
draws. Both are exact sums except the bootstrap, which is simulated and carries its Monte
Carlo standard error.
"""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = ["DATASETS", "METRICS", "PROFILES", "settings"]

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "sizes": (5, 10, 20, 30, 50, 100, 200),  # group sizes n (PPR)
        "ratio_sizes": (5, 10, 20, 50, 100),  # group sizes n (TPR: denominators vary)
        "reference_size": 1_000,  # the reference's size N (None: its rate known exactly)
        "effects": (0.1, 0.2),  # the group's rate below the reference's, for power
        "alpha": 0.05,  # the level every test is judged at
        "n_boot": 400,  # bootstrap resamples per simulated data set
        "n_datasets": 1_000,  # simulated data sets per bootstrap cell
        "n_sims": 2_000,  # simulated audits of many groups (section 2)
        "seed": 0,
    },
    "full": {
        "sizes": (5, 10, 20, 30, 50, 100, 200, 500),
        "ratio_sizes": (5, 10, 20, 30, 50, 100, 200, 500),
        "reference_size": 1_000,
        "effects": (0.1, 0.2),
        "alpha": 0.05,
        "n_boot": 1_000,
        "n_datasets": 4_000,
        "n_sims": 20_000,
        "seed": 0,
    },
}

#: The data sets whose reference rates the chapter uses, and their reference groups.
DATASETS = {"compas": "Caucasian", "adult": "White"}

#: The two metrics: a binomial one (no holes) and a joint-ratio one (holes at m = 0).
METRICS = ("PPR", "TPR")


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for a profile, with explicit parameters applied.

    Examples
    --------
    >>> settings("fast")["reference_size"], settings("fast", alpha=0.01)["alpha"]
    (1000, 0.01)
    """
    return choose_settings(PROFILES, profile, overrides)
