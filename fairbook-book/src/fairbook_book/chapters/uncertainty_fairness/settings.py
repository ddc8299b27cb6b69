"""Chapter 04 (seed 000): the profiles, the measures and patterns the chapter compares, the
printed-value decimals.
"""

from __future__ import annotations

from fairbook.papers import seed000
from fairbook_book.chapters.profiles import choose_settings

__all__ = [
    "GROUP_MEASURES",
    "PAIRS",
    "PATTERNS",
    "PATTERN_POINT",
    "POINT_RATIOS",
    "PROFILES",
    "UNCERTAINTY_RATIOS",
    "settings",
]


GROUP_MEASURES = ("n", "ACC", "PPV", "NPV", "FPR", "FNR", "U_e", "U_a", "U_p")


POINT_RATIOS = ("F_SP", "F_EOpp", "F_EOpp_FNR", "F_EOdd_y0", "F_EOdd_y1", "F_EAcc")


UNCERTAINTY_RATIOS = ("F_Epis", "F_Alea", "F_Pred")


#: The ratios the paper's tables show and its patterns use (F_EOpp = TPR ratio, ERRATA).
PATTERN_POINT = ("F_SP", "F_EOpp", "F_EOdd_y0", "F_EOdd_y1", "F_EAcc")


#: The training settings the paper leaves unstated, at the chapter's levels (the low level
#: of each factor of the sensitivity study, :data:`.runs.STUDY_FACTORS`): initial ρ, KL and
#: NLL averaged (not summed), early stopping on 10 % of the training rows, the stated
#: epochs, SD with 100 rows per (group, label) cell, standardised COMPAS / Adult features;
#: the prior's wide spread σ₁ is seed 000's (ERRATA), a parameter a reader may change.
_TRAINING = {
    "prior_sigma1": seed000.SETTINGS["common"]["prior_sigma1"],
    "rho_init": -5.0,
    "kl_reduction": "mean",
    "nll_reduction": "mean",
    "early_stopping": True,
    "epochs_factor": 1,
    "sd_n_per_cell": 100,
    "encoding": "standard",
}

#: The study's cells in the full profile (:func:`.runs.study_cells`).
_STUDY_CELLS = ("chapter", "paper", "overconfident", *(f"f{i:02d}" for i in range(8)))

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "sd_seeds": 3,
        "real_seeds": 3,
        "T": 10,
        "k": 10,
        "lr": 0.01,
        "mu_init_std": "fan_in",
        "n_members": 5,
        "stratify": True,
        "standardize": True,
        "hidden_grid": (10, 50, 100, 200),
        "ablation_seeds": 1,
        "dvlog_t_max": (None, 596, 450),
        "dvlog_seeds": 1,
        "dvlog_scale": 1.0,
        "long_epochs": 30,
        "long_epochs_seeds": 2,
        **_TRAINING,
        "study_cells": ("chapter", "paper"),
        "study_seeds": 2,
        "study_long_factor": 3,
    },
    "full": {
        "sd_seeds": 25,
        "real_seeds": 10,
        "T": 10,
        "k": 10,
        "lr": 0.01,
        "mu_init_std": "fan_in",
        "n_members": 5,
        "stratify": True,
        "standardize": True,
        "hidden_grid": (10, 25, 50, 100, 200, 400),
        "ablation_seeds": 3,
        "dvlog_t_max": (None, 596, 500, 400, 300),
        "dvlog_seeds": 5,
        "dvlog_scale": 1.0,
        "long_epochs": 30,
        "long_epochs_seeds": 10,
        **_TRAINING,
        "study_cells": _STUDY_CELLS,
        "study_seeds": 10,
        "study_long_factor": 3,
    },
}


#: Seed 000's Table 1 reading, as checks on the ratios of one run (see :func:`_pattern`).
PATTERNS = {
    "SD1": {"points": "fair", "uncertainty": ("F_Alea",), "uncertainty_is": "unfair"},
    "SD2": {"points": "fair", "uncertainty": ("F_Epis",), "uncertainty_is": "unfair"},
    "SD3": {"points": "unfair", "uncertainty": UNCERTAINTY_RATIOS, "uncertainty_is": "fair"},
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides are ignored.

    Examples
    --------
    >>> settings("full")["sd_seeds"]
    25
    >>> settings("fast", sd_seeds=7)["sd_seeds"]
    7
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    return chosen


_DECIMALS = {"n": 0, "U_e": 4, "U_a": 4, "U_p": 4}


#: The comparisons of Tables 2–5: attribute → (G0, G1).
PAIRS = {
    "COMPAS": {"race": ("B", "W"), "age": ("<25", ">45"), "sex": ("F", "M")},
    "Adult": {"race": ("B", "W"), "sex": ("F", "M")},
}


# =========================================================================== widget
_DATASETS = ("SD1", "SD2", "SD3", "COMPAS", "Adult")


_PAIRS = {"race": ("B", "W"), "sex": ("F", "M"), "age": ("<25", ">45"), "G": (0, 1)}
