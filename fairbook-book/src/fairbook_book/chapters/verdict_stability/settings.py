"""Profiles of the chapter "How stable is a fairness verdict?", its verdict rules and the
training-setting variations it tries.

The verdict rules are parameters, not facts: DI is judged by the four-fifths rule (unfair
outside ``[di_threshold, 1/di_threshold]``), OFI and equal opportunity by a gap
(``|value| > gap_threshold``), seed 004's DI_BAR by its paper's 20 % and the other six of
seed 004's metrics by the same gap threshold.
"""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = [
    "ATTRIBUTES",
    "MODELS",
    "PROFILES",
    "REFERENCES",
    "SEVEN_RULES",
    "SOURCES",
    "TRAINING_SETTINGS",
    "rules",
    "settings",
]

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "datasets": ("compas", "adult"),  # data sets
        "models": ("logistic", "forest", "mlp", "bnn", "ensemble"),  # model families
        "n_runs": 3,  # FIT runs and seeds per model
        "n_boot": 40,  # bootstrap resamples of the test set
        "n_estimators": 30,  # trees per forest
        "mlp_epochs": 3,  # epochs of the MLP
        "adult_train_rows": 4_000,  # a seeded sample of Adult's training rows (None: all)
        "sizes": (10, 25, 50, 100, 200, 400),  # group sizes of the subsampling curve
        "size_draws": 20,  # subsets drawn per size
        "di_threshold": 0.8,  # DI is unfair outside [t, 1/t]
        "gap_threshold": 0.05,  # OFI, EOpp and six seed-004 metrics: unfair when |v| > t
        "small_n": 1_000,  # groups below this size are "small" in section 2
        "alpha": 0.05,  # significance level of MATCH after Holm's adjustment
        "seed": 0,  # the base seed
    },
    "full": {
        "datasets": ("compas", "adult"),
        "models": ("logistic", "forest", "mlp", "bnn", "ensemble"),
        "n_runs": 16,
        "n_boot": 500,
        "n_estimators": 200,
        "mlp_epochs": 15,
        "adult_train_rows": None,
        "sizes": (10, 25, 50, 100, 200, 400, 800, 1600),
        "size_draws": 200,
        "di_threshold": 0.8,
        "gap_threshold": 0.05,
        "small_n": 1_000,
        "alpha": 0.05,
        "seed": 0,
    },
}

#: The group attributes of each data set (Adult's third is the race × sex intersection).
ATTRIBUTES = {
    "compas": ("race", "sex", "age_cat"),
    "adult": ("race", "sex", "race & sex"),
}

#: The reference group of each attribute (ProPublica's white defendants; Adult's largest).
REFERENCES = {
    "compas": {"race": "Caucasian", "sex": "Male", "age_cat": "25 - 45"},
    "adult": {"race": "White", "sex": "Male", "race & sex": "White & Male"},
}

#: The model families: seed 004's MLP, and seed 000's BNN and deep ensemble.
MODELS = ("logistic", "forest", "mlp", "bnn", "ensemble")

#: The sources of variation, in the heat map's order; "metric" is the choice of metric.
SOURCES = ("FIT", "seed", "setting", "bootstrap", "metric")

#: Training-setting variations per family: the first is the base setting.
TRAINING_SETTINGS = {
    "logistic": (
        {},
        {"C": 0.1},
        {"C": 0.01},
        {"class_weight": "balanced"},
    ),
    "forest": (
        {},
        {"min_samples_leaf": 10},
        {"max_depth": 6},
        {"max_features": 0.5},
    ),
    "mlp": (
        {},
        {"lr": 0.01},
        {"batch_size": 128},
        {"momentum": 0.0},
    ),
    # seed 000's stated epochs, batch size, λ, prior and hidden layers (COMPAS: one of 100
    # units; Adult: none) with chapter 04's initialisation; then three settings the paper
    # leaves unstated (chapter 04's sensitivity study)
    "bnn": (
        {},
        {"lr": 0.001},
        {"kl_reduction": "sum"},
        {"nll_reduction": "sum"},
    ),
    "ensemble": (
        {},
        {"lr": 0.001},
        {"n_members": 10},
        {"batch_size": 128},
    ),
}

#: Seed 004's seven metrics: the rule of each (threshold ``None``: the gap threshold).
SEVEN_RULES = {
    "DP": ("above", None),
    "DI_BAR": ("above", 0.2),
    "SPSF": ("above", None),
    "FPSF": ("above", None),
    "EOFP": ("above", None),
    "EOTP": ("above", None),
    "BA": ("above", None),
}


def rules(config: dict) -> dict[str, tuple[str, float]]:
    """Every metric's verdict rule under the settings ``config``.

    Examples
    --------
    >>> r = rules(settings("fast"))
    >>> r["DI"], r["OFI"], r["DI_BAR"]
    (('ratio', 0.8), ('difference', 0.05), ('above', 0.2))
    """
    gap = float(config["gap_threshold"])
    out = {
        "DI": ("ratio", float(config["di_threshold"])),
        "OFI": ("difference", gap),
        "EOpp": ("difference", gap),
    }
    for metric, (rule, threshold) in SEVEN_RULES.items():
        out[metric] = (rule, gap if threshold is None else threshold)
    return out


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile`` with ``overrides`` (``None`` keeps the profile's).

    Examples
    --------
    >>> settings("full")["n_runs"]
    16
    >>> settings("fast", n_runs=5)["n_runs"]
    5
    """
    return choose_settings(PROFILES, profile, overrides)
