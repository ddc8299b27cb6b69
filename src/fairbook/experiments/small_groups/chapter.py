"""Chapter-wide pieces of "Small groups" (seed 003 ch. 4): the profiles and the verdicts.

:data:`PROFILES` and :func:`settings` give the parameters of the ``fast`` and ``full``
profiles of every section; :func:`chapter_verdicts` gathers the rows of all the chapter's
replication tables (Secs. 4.3–4.6) that do not match or hold.
"""

from __future__ import annotations

import pandas as pd

from fairbook.experiments.profiles import choose_settings
from fairbook.stats import cps

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
        "cps_sizes": tuple(range(5, 150, 2)),  # paper: 5 … 149 (145 sizes)
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
        "cps_sizes": tuple(range(5, 150)),
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


def chapter_verdicts(tables: dict) -> pd.DataFrame:
    """Every row of the chapter's replication tables that does not match or hold.

    Parameters
    ----------
    tables : dict
        ``{section: replication table}``.

    Returns
    -------
    pandas.DataFrame
        ``section, quantity, paper, ours, verdict, note`` for the rows whose verdict is
        neither ``"matches"`` nor ``"… bound holds"``; ``attrs["counts"]`` has the verdict
        counts per section.

    Examples
    --------
    >>> from fairbook.replication import replication_table
    >>> t = replication_table([{"quantity": "a", "paper": 1, "ours": 1},
    ...                        {"quantity": "b", "paper": 1, "ours": 2}])
    >>> chapter_verdicts({"x": t}).quantity.tolist()
    ['b']
    """
    frames = [table.assign(section=section) for section, table in tables.items()]
    if not frames:
        raise ValueError("tables is empty")
    every = pd.concat(frames, ignore_index=True)
    fine = (every["verdict"] == "matches") | every["verdict"].str.endswith("bound holds")
    out = every.loc[~fine, ["section", "quantity", "paper", "ours", "verdict", "note"]]
    out = out.reset_index(drop=True)
    out.attrs["counts"] = pd.crosstab(every["section"], every["verdict"])
    return out
