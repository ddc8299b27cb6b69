"""Settings of "Small groups" (seed 003 ch. 4): the two profiles and the chapter's constants.

:data:`PROFILES` and :func:`settings` give the parameters of the ``fast`` and ``full``
profiles of every section; the constants below name the choices the chapter makes (which
metrics MATCH is applied to, which COMPAS definitions are tried). The paper's printed
numbers are in :mod:`fairbook.papers.seed003`.
"""

from __future__ import annotations

from fairbook.stats import cps
from fairbook_book.chapters.profiles import choose_settings

__all__ = ["COMPAS_DEFINITIONS", "MATCH_METRICS", "PROFILES", "settings"]

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "fig41_draws": 5_000,  # Monte Carlo draws per size in Fig. 4.1
        "fig41_sizes": tuple(range(1, 151)),
        "fig42_sizes": (2, 5, 10, 25, 50, 100),
        "thm43_n_max": 60,  # Theorem 4.3 checked for n = 1 … thm43_n_max
        "te_n_max": 6,  # treatment equality: all pairs of groups up to this size
        "moment_sizes": tuple(range(2, 201)),
        "moment_draws": 10_000,  # Monte Carlo check of the exact moments (paper: 10⁶)
        "error_sizes": (5, 10, 20, 50, 100, 300),
        "cps_draws": 10_000,  # paper: 10⁶
        "cps_sizes": tuple(range(5, 150, 2)),  # every other size of the paper's 5 … 150
        "cps_metrics": cps.PAPER_METRICS,
        "n_estimators": 50,  # Adult random forest
        "n_jobs": 1,
        "widget_draws": 2_000,
    },
    "full": {
        "fig41_draws": 100_000,
        "fig41_sizes": tuple(range(1, 151)),
        "fig42_sizes": (2, 5, 10, 25, 50, 100),
        "thm43_n_max": 100,
        "te_n_max": 8,
        "moment_sizes": tuple(range(2, 201)),
        "moment_draws": 1_000_000,
        "error_sizes": (5, 10, 20, 50, 100, 300, 1000),
        "cps_draws": 1_000_000,
        "cps_sizes": tuple(range(5, 151)),  # Sec. 4.6.2: n = 5 to n = 150, 146 sizes
        "cps_metrics": cps.PAPER_METRICS,
        "n_estimators": 500,
        "n_jobs": -1,
        "widget_draws": 10_000,
    },
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
    >>> settings("full")["cps_draws"]
    1000000
    >>> settings("fast", cps_draws=500)["cps_draws"]
    500
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    return chosen


# ------------------------------------------------------------- Sec. 4.5: MATCH on real groups
#: Metrics of the MATCH tables: the ones with an exact law that sums O(√n) terms.
MATCH_METRICS = ("ACC", "PPR", "B", "TPR", "FPR", "PPV", "NPV")

# ------------------------------------------------------- Sec. 4.6: which COMPAS matrices
#: Candidate definitions for the published COMPAS matrices (positive = recidivist,
#: predicted positive = score 5 or more, i.e. Medium or High).
COMPAS_DEFINITIONS = {
    "general": "two-year general recidivism (two_year_recid), decile_score ≥ 5, "
    "whole two-year file (7214)",
    "general_zafar": "two-year general recidivism, decile_score ≥ 5, zafar2017 filter (6172)",
    "violent": "violent offence ≤ 730 days after screening, v_decile_score ≥ 5, whole "
    "two-year file",
    "violent_zafar": "violent offence ≤ 730 days, v_decile_score ≥ 5, zafar2017 filter",
    "violent_population": "violent offence ≤ 730 days, v_decile_score ≥ 5, two-year file "
    "without the non-violent recidivists who cannot have 730 days of "
    "follow-up by 2016-04-01 (an approximation of ProPublica's violent "
    "population)",
}
