"""Settings of "Conditional HydraGAN" (seed 003 sec. 3.5): profiles and the stand-in's constants.

CASAS (the paper's smart-home data) is not available offline, so the chapter uses a
**stand-in**: the Adult census file. The constants below say how its pieces map onto the
paper's.

* **Individuals → who-cells.** ``who`` = sex × age band, four cells. The age band splits at
  the 75th percentile of age in the Adult training file (:data:`AGE_SPLIT`): "oldest 25 %"
  is ``age > AGE_SPLIT``. The protected classes (Female, Male; oldest 25 %, youngest 75 %)
  are unions of who-cells (:data:`ATTRIBUTES`), so the condition that makes who uniform
  makes both attributes balanced too.
* **Activities → occupation** (14 categories), aggregated for the classifier into
  *sedentary* (desk work, :data:`SEDENTARY`; the **positive** class, as in the paper where
  a positive score is a bias toward "sedentary") and *active* (all other occupations).
* The GAN generates the columns :data:`CONTINUOUS` and :data:`CATEGORICAL`; the classifier
  reads them (without the occupation, its label) in the named design :data:`DESIGN` of
  :mod:`fairbook.data.designs`.
* Table 3.4's metrics (:data:`METRICS`) and their no-bias values (:data:`IDEAL`); our
  classes beside the paper's columns (:data:`PAPER_CLASSES`).

:data:`PROFILES` and :func:`settings` give the parameters of the ``fast`` and ``full``
profiles. The paper's printed numbers are in :mod:`fairbook.papers.seed003`.
"""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = [
    "AGE_SPLIT",
    "ATTRIBUTES",
    "CATEGORICAL",
    "CONTINUOUS",
    "DESIGN",
    "IDEAL",
    "METRICS",
    "PAPER_CLASSES",
    "PROFILES",
    "SEDENTARY",
    "settings",
]

#: The 75th percentile of age in the Adult training file (rows with '?' dropped).
AGE_SPLIT = 47
#: Occupations counted as sedentary (desk work): the positive class.
SEDENTARY = ("Adm-clerical", "Exec-managerial", "Prof-specialty", "Sales", "Tech-support")
#: Columns the generator produces (occupation is the 'activity').
CONTINUOUS = ("age", "education-num", "hours-per-week")
CATEGORICAL = ("workclass", "marital-status", "relationship", "race", "income", "occupation")
#: The classifier's feature design (:mod:`fairbook.data.designs`): the generated columns
#: without the occupation (the label), then the who-cell.
DESIGN = "seed003_hydragan"
#: Protected attribute → (column, its two classes in the order of Table 3.4).
ATTRIBUTES = {
    "age": ("age_band", ("youngest 75 %", "oldest 25 %")),
    "sex": ("sex", ("Female", "Male")),
}
#: Table 3.4's metrics and their no-bias values.
METRICS = ("OFI", "DPPL", "DI", "DCA")
IDEAL = {"OFI": 0.0, "DPPL": 0.0, "DI": 1.0, "DCA": 0.0}
#: Our classes ↔ the paper's columns of Table 3.4.
PAPER_CLASSES = {
    "youngest 75 %": "Ages 63-90",
    "oldest 25 %": "Ages 90-95",
    "Female": "Female",
    "Male": "Male",
}

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "n_train": 5000,
        "n_synthetic": 5000,
        "epochs": 100,
        "hidden": (64, 64),
        "lr": 2e-3,
        "batch_size": 256,
        "n_critic": 5,
        "diversity_weight": 10.0,
        "target": "uniform",
        "critic_conditioned": True,
        "n_seeds": 3,
        "seed": 0,
        "mlp_hidden": (32,),
        "mlp_epochs": 60,
        "grid_targets": ("uniform", "empirical"),
        "grid_weights": (0.0, 10.0, 100.0),
        "grid_epochs": 20,
        "grid_n_train": 3000,
    },
    "full": {
        "n_train": None,
        "n_synthetic": 30162,
        "epochs": 300,
        "hidden": (128, 128),
        "lr": 1e-3,
        "batch_size": 256,
        "n_critic": 5,
        "diversity_weight": 10.0,
        "target": "uniform",
        "critic_conditioned": True,
        "n_seeds": 10,
        "seed": 0,
        "mlp_hidden": (64,),
        "mlp_epochs": 200,
        "grid_targets": ("uniform", "empirical"),
        "grid_weights": (0.0, 1.0, 10.0, 100.0),
        "grid_epochs": 100,
        "grid_n_train": 10000,
    },
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides are ignored.

    Parameters
    ----------
    profile : {"fast", "full"}
    **overrides
        Any key of :data:`PROFILES` (``None`` keeps the profile's value).

    Raises
    ------
    ValueError
        For fewer than one seed or a diversity target other than uniform or empirical.

    Examples
    --------
    >>> settings("full")["n_seeds"]
    10
    >>> settings("fast", diversity_weight=0.0)["diversity_weight"]
    0.0
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    if chosen["n_seeds"] < 1:
        raise ValueError(f"n_seeds must be at least 1, got {chosen['n_seeds']}")
    if chosen["target"] not in ("uniform", "empirical"):
        raise ValueError(f"target must be 'uniform' or 'empirical', got {chosen['target']!r}")
    return chosen
