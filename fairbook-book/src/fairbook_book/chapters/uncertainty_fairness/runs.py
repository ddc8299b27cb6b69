"""Chapter 04 (seed 000): training the BNNs and ensembles on SD1-SD3, COMPAS, Adult and the D-Vlog
stand-in; the fairness results they give.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.confusion import confusion_counts
from fairbook.data.synthetic import make_sd, make_truncated_sequences, split_train_test
from fairbook.metrics import compute, ratio_measures
from fairbook.papers import seed000
from fairbook_book.recordings import Recordable
from fairbook.uncertainty import (
    BNNClassifier,
    DeepEnsemble,
    aleatoric_temperature,
    decompose,
    expected_calibration_error,
    reliability_diagram,
)

from .settings import GROUP_MEASURES, PAIRS, POINT_RATIOS, UNCERTAINTY_RATIOS, settings

__all__ = [
    "FairnessResult",
    "RECORDINGS",
    "Run",
    "STUDY_EXTRA_CELLS",
    "STUDY_FACTORS",
    "STUDY_GENERATORS",
    "STUDY_RECORDING",
    "capacity_ablation",
    "dvlog_standin",
    "fairness_result",
    "init_sensitivity",
    "make_estimator",
    "pool_sequences",
    "real_runs",
    "real_summary",
    "reliability",
    "results_for",
    "results_over",
    "sd_run",
    "sensitivity_study",
    "study_cells",
    "study_config",
    "study_unit",
    "study_units",
    "tabular_run",
    "training_options",
]


# =========================================================================== runs
def make_estimator(
    estimator: str,
    *,
    hidden_sizes=(),
    epochs: int,
    batch_size: int,
    seed: int,
    lr: float = 0.01,
    mu_init_std="fan_in",
    n_members: int = 5,
    prior_sigma1: float | None = None,
    **kwargs,
):
    """A :class:`~fairbook.uncertainty.BNNClassifier` (``"bnn"``, seed 000's λ, prior and
    ``mc_train``; ``prior_sigma1`` replaces the prior's wide spread σ₁ when given) or a
    :class:`~fairbook.uncertainty.DeepEnsemble` (``"ensemble"``, which has no prior)."""
    common = seed000.SETTINGS["common"]
    if prior_sigma1 is None:
        prior_sigma1 = common["prior_sigma1"]
    if estimator == "bnn":
        return BNNClassifier(
            hidden_sizes,
            epochs=epochs,
            batch_size=batch_size,
            lam=common["lam"],
            mc_train=common["mc_train"],
            lr=lr,
            prior_pi=common["prior_pi"],
            prior_sigma1=float(prior_sigma1),
            prior_sigma2=common["prior_sigma2"],
            mu_init_std=mu_init_std,
            seed=seed,
            **kwargs,
        )
    if estimator == "ensemble":
        return DeepEnsemble(
            n_members,
            hidden_sizes,
            epochs=epochs,
            batch_size=batch_size,
            lr=lr,
            seed=seed,
            **kwargs,
        )
    raise ValueError(f"estimator must be 'bnn' or 'ensemble', got {estimator!r}")


@dataclass
class Run:
    """One trained estimator and its ``T`` predictions on a test set."""

    name: str
    estimator: str
    model: object = field(repr=False)
    X_test: np.ndarray = field(repr=False)
    y_test: np.ndarray = field(repr=False)
    groups: dict = field(repr=False)
    probs: np.ndarray = field(repr=False)
    seed: int = 0

    @property
    def y_pred(self) -> np.ndarray:
        """Class of the largest mean probability (over the ``T`` samples)."""
        return self.probs.mean(axis=0).argmax(axis=1)

    @functools.cached_property
    def uncertainty(self) -> dict:
        """``{"U_e", "U_a", "U_p"}`` per test row (:func:`~fairbook.uncertainty.decompose`)."""
        e, a, p = decompose(self.probs)
        return {"U_e": e, "U_a": a, "U_p": p}

    def with_T(self, T: int) -> Run:
        """The same model with ``T`` predictions (BNN: new draws; ensemble: first T)."""
        if self.estimator == "bnn":
            probs = self.model.predict_proba_samples(self.X_test, T=T)
        else:
            probs = self.model.predict_proba_samples(self.X_test, T=min(T, self.model.n_members))
        return Run(
            self.name,
            self.estimator,
            self.model,
            self.X_test,
            self.y_test,
            self.groups,
            probs,
            self.seed,
        )


def training_options(config: dict, stated_epochs: int) -> dict:
    """The BNN options the paper leaves unstated, from ``config`` (absent keys: the
    chapter's defaults, which are :class:`~fairbook.uncertainty.BNNClassifier`'s).

    ``rho_init`` (initial posterior spread), ``kl_reduction`` and ``nll_reduction`` (Eq. 22
    averaged or summed), ``early_stopping`` (10 % held out, or training to the epochs),
    ``epochs_factor`` (times the stated epochs), ``prior_sigma1`` (the prior's wide spread
    σ₁; seed 000 states it, ERRATA, and a reader may try another).

    Examples
    --------
    >>> options = training_options({}, 5)
    >>> options["epochs"], options["rho_init"], options["validation_fraction"]
    (5, -5.0, 0.1)
    >>> training_options({"early_stopping": False, "epochs_factor": 4}, 5)["epochs"]
    20
    >>> [training_options(c, 5)["prior_sigma1"] for c in ({}, {"prior_sigma1": 0.1})]
    [1.0, 0.1]
    """
    sigma1 = float(config.get("prior_sigma1", seed000.SETTINGS["common"]["prior_sigma1"]))
    if not (math.isfinite(sigma1) and sigma1 > 0):
        raise ValueError(f"prior_sigma1 must be a positive number, got {sigma1!r}")
    factor = int(config.get("epochs_factor", 1))
    if factor < 1:
        raise ValueError(f"epochs_factor must be an integer >= 1, got {factor!r}")
    return {
        "epochs": int(stated_epochs) * factor,
        "rho_init": float(config.get("rho_init", -5.0)),
        "kl_reduction": config.get("kl_reduction", "mean"),
        "nll_reduction": config.get("nll_reduction", "mean"),
        "validation_fraction": 0.1 if config.get("early_stopping", True) else 0.0,
        "prior_sigma1": sigma1,
    }


def _fit_run(name, estimator, data_split, groups, *, T, seed, **model_kwargs) -> Run:
    X_train, X_test, y_train, y_test = data_split
    model_kwargs.setdefault("progress", False)  # the experiment loops show one bar each
    model = make_estimator(estimator, seed=seed, **model_kwargs).fit(X_train, y_train)
    T = T if estimator == "bnn" else model.n_members
    probs = model.predict_proba_samples(X_test, T=T)
    return Run(name, estimator, model, X_test, y_test, groups, probs, seed)


def sd_run(
    k: int,
    *,
    seed: int = 0,
    estimator: str = "bnn",
    orientation: str = "corrected",
    config: dict | None = None,
    epochs: int | None = None,
) -> Run:
    """Train on synthetic set SD``k`` (seed 000 Sec. 5.1) and predict its 20 % test split.

    ``seed`` draws the data, the split and the model; ``epochs`` defaults to the paper's 5.
    Groups: ``{"G": 0/1}``.

    Examples
    --------
    >>> run = sd_run(1, seed=0)
    >>> run.probs.shape
    (10, 80, 2)
    """
    config = settings() if config is None else config
    n_per_cell = config.get("sd_n_per_cell", seed000.SETTINGS["common"]["n_per_cell"])
    X, y, g = make_sd(k, n_per_cell=n_per_cell, seed=seed, orientation=orientation)
    X_tr, X_te, y_tr, y_te, _, g_te = split_train_test(
        X,
        y,
        g,
        test_size=seed000.SETTINGS["common"]["synthetic_test_share"],
        seed=seed,
        stratify=2 * g + y if config["stratify"] else None,
    )
    if config["standardize"]:
        mean, sd = X_tr.mean(axis=0), X_tr.std(axis=0)
        X_tr, X_te = (X_tr - mean) / sd, (X_te - mean) / sd
    name = f"SD{k}" + (" (printed)" if orientation == "printed" else "")
    model_kwargs = dict(seed000.SETTINGS["synthetic"])
    if estimator == "bnn":
        model_kwargs.update(training_options(config, model_kwargs["epochs"]))
    if epochs is not None:
        model_kwargs["epochs"] = int(epochs)
    return _fit_run(
        name,
        estimator,
        (X_tr, X_te, y_tr, y_te),
        {"G": g_te},
        T=config["T"],
        seed=seed,
        lr=config["lr"],
        mu_init_std=config["mu_init_std"],
        n_members=config["n_members"],
        **model_kwargs,
    )


@functools.lru_cache(maxsize=4)
def _adult(encoding: str):
    from fairbook.data.tabular import adult_data

    return adult_data(scale="none" if encoding == "raw" else "standard")


@functools.lru_cache(maxsize=1)
def _compas_frame():
    from fairbook.data.compas import load_compas

    return load_compas(preprocess="zafar2017")


def tabular_run(
    dataset: str,
    *,
    seed: int = 0,
    estimator: str = "bnn",
    hidden_sizes=None,
    encoding: str | None = None,
    config: dict | None = None,
    **overrides,
) -> Run:
    """Train on COMPAS (Tables 2–4) or Adult (Table 5) with the paper's settings.

    Parameters
    ----------
    dataset : {'compas', 'adult'}
    seed : int
        Seeds the model (and COMPAS's 50/50 split).
    estimator : {'bnn', 'ensemble'}
    hidden_sizes : tuple, optional
        Default: the paper's ((100,) for COMPAS, () for Adult).
    encoding : {'standard', 'raw'}, optional
        Standardise numeric columns or keep them raw (default: ``config["encoding"]``,
        else standard).
    config : dict
        From :func:`settings`.
    **overrides
        Passed to :func:`make_estimator` (e.g. ``mu_init_std=1.0``, ``epochs=20``).
    """
    from fairbook.data.tabular import compas_data

    config = settings() if config is None else config
    encoding = config.get("encoding", "standard") if encoding is None else encoding
    if encoding not in ("standard", "raw"):
        raise ValueError(f"encoding must be 'standard' or 'raw', got {encoding!r}")
    if dataset == "compas":
        data = compas_data(
            seed=seed, frame=_compas_frame(), scale="none" if encoding == "raw" else "standard"
        )
    elif dataset == "adult":
        data = _adult(encoding)
    else:
        raise ValueError(f"dataset must be 'compas' or 'adult', got {dataset!r}")
    model_kwargs = dict(seed000.SETTINGS[dataset])
    if hidden_sizes is not None:
        model_kwargs["hidden_sizes"] = tuple(hidden_sizes)
    model_kwargs.update(
        lr=config["lr"], mu_init_std=config["mu_init_std"], n_members=config["n_members"]
    )
    if estimator == "bnn":
        model_kwargs.update(training_options(config, model_kwargs["epochs"]))
    model_kwargs.update(overrides)
    name = {"compas": "COMPAS", "adult": "Adult"}[dataset] + (" (raw)" if encoding == "raw" else "")
    return _fit_run(
        name,
        estimator,
        (data.X_train, data.X_test, data.y_train, data.y_test),
        data.groups_test,
        T=config["T"],
        seed=seed,
        **model_kwargs,
    )


def real_runs(
    dataset: str, *, seeds, estimator: str = "bnn", config: dict | None = None, **kwargs
) -> list[Run]:
    """:func:`tabular_run` for every seed (a progress bar on a terminal)."""
    return [
        tabular_run(dataset, seed=s, estimator=estimator, config=config, **kwargs)
        for s in tqdm(list(seeds), desc=f"{dataset} {estimator}", disable=None)
    ]


# =========================================================================== measures
def _group_rows(y_true, y_pred, uncertainty: dict, groups, labels) -> pd.DataFrame:
    counts, found = confusion_counts(y_true, y_pred, groups, return_groups=True)
    columns = {}
    for label in labels:
        hits = np.flatnonzero(found == label)
        if hits.size == 0:
            raise ValueError(f"group {label!r} not among {list(found)}")
        cm = counts[hits[0]].astype(float)
        mask = np.asarray(groups) == label
        column = {"n": float(mask.sum())}
        column.update({m: float(compute(m, cm)) for m in ("ACC", "PPV", "NPV", "FPR", "FNR")})
        column.update({u: float(values[mask].mean()) for u, values in uncertainty.items()})
        columns[label] = column
    return pd.DataFrame(columns).loc[list(GROUP_MEASURES)]


@dataclass
class FairnessResult:
    """Seed 000's rows for one pair of groups: per-group measures and the ratios."""

    groups: pd.DataFrame  # GROUP_MEASURES × (protected, reference)
    ratios: pd.Series  # POINT_RATIOS + UNCERTAINTY_RATIOS

    @property
    def flags(self) -> pd.Series:
        """``unfair`` (|F − 1| > 0.2), ``fair`` or ``undefined`` per ratio."""
        return self.ratios.map(_flag)

    def flat(self) -> dict:
        """``{(measure, "G0"|"G1"|"ratio"): value}`` for averaging over seeds."""
        out = {}
        for role, label in zip(("G0", "G1"), self.groups.columns, strict=True):
            out.update({(m, role): self.groups.loc[m, label] for m in self.groups.index})
        out.update({(m, "ratio"): v for m, v in self.ratios.items()})
        return out


def _flag(value: float) -> str:
    if not np.isfinite(value):
        return "undefined"
    return "unfair" if abs(value - 1.0) > seed000.FLAG_THRESHOLD + 1e-12 else "fair"


def fairness_result(run: Run, attribute: str, *, protected, reference) -> FairnessResult:
    """Per-group measures and all ratios of one run for ``protected`` vs ``reference``.

    Rows of the test set outside the two groups are left out.

    Examples
    --------
    >>> r = fairness_result(sd_run(1, seed=0), "G", protected=0, reference=1)
    >>> list(r.groups.columns), r.ratios.index[-1]
    ([0, 1], 'F_Pred')
    """
    groups = np.asarray(run.groups[attribute], dtype=object)
    keep = np.isin(groups, [protected, reference])
    y_true, y_pred = run.y_test[keep], run.y_pred[keep]
    uncertainty = {k: v[keep] for k, v in run.uncertainty.items()}
    rows = _group_rows(y_true, y_pred, uncertainty, groups[keep], (protected, reference))
    point = ratio_measures(y_true, y_pred, groups[keep], protected=protected, reference=reference)
    ratios = {m: point[m] for m in POINT_RATIOS}
    for name, key in zip(UNCERTAINTY_RATIOS, ("U_e", "U_a", "U_p"), strict=True):
        num, den = rows.loc[key, protected], rows.loc[key, reference]
        ratios[name] = num / den if den > 0 else math.nan
    return FairnessResult(rows, pd.Series(ratios, dtype=float))


def _attribute_of(label: str) -> str:
    if label in ("B", "W"):
        return "race"
    if label in ("F", "M"):
        return "sex"
    return "age"


def _full_counts(dataset: str) -> dict:
    if dataset == "compas":
        frame = _compas_frame()
        race = frame["race"].map({"African-American": "B", "Caucasian": "W"})
        sex = frame["sex"].map({"Female": "F", "Male": "M"})
        age = frame["age_cat"].map(
            {"Less than 25": "<25", "25 - 45": "25-45", "Greater than 45": ">45"}
        )
        series = [race, sex, age]
    else:
        data = _adult("standard")
        series = [pd.Series(data.groups_train[a]) for a in ("race", "sex")]
    counts = {}
    for s in series:
        counts.update(s.value_counts().to_dict())
    return counts


def results_for(run: Run, *, suffix: str = "") -> dict:
    """``{"COMPAS race (B/W)": FairnessResult, ...}`` for the paper's pairs of ``run``'s
    data set (``suffix`` is appended to every title)."""
    dataset = run.name.split(" ")[0]
    return {
        f"{dataset} {a} ({g0}/{g1}){suffix}": fairness_result(run, a, protected=g0, reference=g1)
        for a, (g0, g1) in PAIRS[dataset].items()
    }


def results_over(runs) -> dict:
    """:func:`results_for` of every run, as ``{title: [FairnessResult per run]}``."""
    out = {}
    for run in runs:
        for title, result in results_for(run).items():
            out.setdefault(title, []).append(result)
    return out


# =========================================================================== calibration
def reliability(run: Run, *, n_bins: int = 10, attribute: str | None = None) -> dict:
    """Reliability-diagram data (Fig. 2) and ECE, overall and per group of ``attribute``."""
    probs = run.probs.mean(axis=0)
    out = {
        "table": reliability_diagram(probs, run.y_test, n_bins=n_bins),
        "ece": {"all": expected_calibration_error(probs, run.y_test, n_bins=n_bins)},
    }
    if attribute is not None:
        groups = np.asarray(run.groups[attribute], dtype=object)
        for label in pd.unique(pd.Series(groups)):
            mask = groups == label
            if mask.sum() >= 50:
                out["ece"][label] = expected_calibration_error(
                    probs[mask], run.y_test[mask], n_bins=n_bins
                )
    return out


def init_sensitivity(*, seeds=(0,), config: dict | None = None) -> pd.DataFrame:
    """COMPAS BNN with the paper's N(0, 1) posterior-mean initialisation and with ours.

    Returns accuracy, mean aleatoric and epistemic uncertainty, ECE and the race ratios
    (means over ``seeds``).
    """
    config = settings() if config is None else config
    rows = []
    for label, init in (("N(0, 1) (paper)", 1.0), ("N(0, 1/fan_in) (ours)", "fan_in")):
        for seed in seeds:
            run = tabular_run("compas", seed=seed, config=config, mu_init_std=init)
            ratios = fairness_result(run, "race", protected="B", reference="W").ratios
            rows.append(
                {
                    "initialisation": label,
                    "seed": seed,
                    "accuracy": float((run.y_pred == run.y_test).mean()),
                    "mean U_a": float(run.uncertainty["U_a"].mean()),
                    "mean U_e": float(run.uncertainty["U_e"].mean()),
                    "ECE": reliability(run)["ece"]["all"],
                    **{f"race {m}": ratios[m] for m in ("F_SP", "F_EOpp", "F_Epis", "F_Alea")},
                }
            )
    return (
        pd.DataFrame(rows)
        .groupby("initialisation", sort=False)
        .mean(numeric_only=True)
        .drop(columns="seed")
    )


def capacity_ablation(
    hidden_grid, *, seeds=(0,), estimator: str = "bnn", config: dict | None = None
) -> pd.DataFrame:
    """Fig. 6: COMPAS with one hidden layer of each size; accuracy, U_a, U_e per group.

    Returns a long table: ``hidden, seed, group, ACC, U_a, U_e`` for B, W, F, M.
    """
    records = []
    jobs = [(h, s) for h in hidden_grid for s in seeds]
    for hidden, seed in tqdm(jobs, desc="capacity", disable=None):
        run = tabular_run(
            "compas", seed=seed, estimator=estimator, hidden_sizes=(hidden,), config=config
        )
        for attribute, labels in (("race", ("B", "W")), ("sex", ("F", "M"))):
            rows = _group_rows(
                run.y_test,
                run.y_pred,
                run.uncertainty,
                np.asarray(run.groups[attribute], dtype=object),
                labels,
            )
            for label in labels:
                records.append(
                    {
                        "hidden": hidden,
                        "seed": seed,
                        "group": label,
                        **{m: rows.loc[m, label] for m in ("ACC", "U_a", "U_e")},
                    }
                )
    return pd.DataFrame(records)


# =========================================================================== D-Vlog
def pool_sequences(X, lengths) -> np.ndarray:
    """Masked mean, max and min over the kept time steps: ``(N, L, d)`` → ``(N, 3d)``.

    Examples
    --------
    >>> X = np.array([[[1.0], [3.0], [0.0]]])
    >>> pool_sequences(X, [2]).tolist()
    [[2.0, 3.0, 1.0]]
    """
    X = np.asarray(X, dtype=np.float64)
    lengths = np.asarray(lengths)
    if X.ndim != 3 or lengths.shape != (X.shape[0],):
        raise ValueError(f"X must be (N, L, d) and lengths (N,); got {X.shape}, {lengths.shape}")
    if (lengths < 1).any() or (lengths > X.shape[1]).any():
        raise ValueError("lengths must lie between 1 and the padded length")
    mask = np.arange(X.shape[1])[None, :, None] < lengths[:, None, None]
    mean = np.where(mask, X, 0.0).sum(axis=1) / lengths[:, None]
    high = np.where(mask, X, -np.inf).max(axis=1)
    low = np.where(mask, X, np.inf).min(axis=1)
    return np.hstack([mean, high, low])


def dvlog_standin(
    t_max_values,
    *,
    seeds=(0,),
    n_members: int = 5,
    hidden_sizes=(32,),
    epochs: int = 50,
    batch_size: int = 32,
    lr: float = 0.003,
    scale: float = 1.0,
    test_size: float = 0.3,
    **sequence_kwargs,
) -> pd.DataFrame:
    """A labelled stand-in for Table 7: truncated sequences and a deep ensemble of 5.

    For each seed the *same* recordings
    (:func:`fairbook.data.synthetic.make_truncated_sequences`) are cut at every
    ``t_max`` (None = not cut), pooled (:func:`pool_sequences`) and classified by a deep
    ensemble of ``n_members`` MLPs, trained on a stratified split and scored on the rest.

    Returns
    -------
    DataFrame
        Per (t_max, seed, group F/M): ``n, ACC, FNR, FPR, U_e, U_a, U_p``, the share of
        test recordings whose evidence was cut, and the F/M ratios ``F_*``.
    """
    records = []
    jobs = [(t, s) for s in seeds for t in t_max_values]
    for t_max, seed in tqdm(jobs, desc="D-Vlog stand-in", disable=None):
        data = make_truncated_sequences(t_max=t_max, scale=scale, seed=seed, **sequence_kwargs)
        features = pool_sequences(data["X"], data["lengths"])
        cell = np.where(data["g"] == "F", 2, 0) + data["y"]
        X_tr, X_te, y_tr, y_te, _, g_te, _, lost_te = split_train_test(
            features,
            data["y"],
            data["g"],
            data["episode_lost"],
            test_size=test_size,
            seed=seed,
            stratify=cell,
        )
        mean, sd = X_tr.mean(axis=0), X_tr.std(axis=0)
        model = DeepEnsemble(
            n_members,
            hidden_sizes,
            epochs=epochs,
            batch_size=batch_size,
            lr=lr,
            seed=seed,
            progress=False,
        ).fit((X_tr - mean) / sd, y_tr)
        run = Run(
            "D-Vlog stand-in",
            "ensemble",
            model,
            (X_te - mean) / sd,
            y_te,
            {"sex": g_te},
            model.predict_proba_samples((X_te - mean) / sd),
            seed,
        )
        result = fairness_result(run, "sex", protected="F", reference="M")
        label = "none" if t_max is None else f"{t_max:g} s"
        for g in ("F", "M"):
            records.append(
                {
                    "t_max": label,
                    "seed": seed,
                    "group": g,
                    **result.groups[g].to_dict(),
                    "evidence cut": float(lost_te[g_te == g].mean()),
                    **{
                        f"{m}": result.ratios[m]
                        for m in ("F_SP", "F_EOpp", "F_EAcc", "F_Epis", "F_Alea", "F_Pred")
                    },
                }
            )
    return pd.DataFrame(records)


def _attributes(dataset: str) -> list:
    return ["G"] if dataset.startswith("SD") else ["race", "sex", "age"]


# =========================================================================== the study
#: The settings seed 000 leaves unstated (or states ambiguously), two levels each:
#: (low = the chapter's setting, high). ``epochs``: the stated epochs, or
#: ``study_long_factor`` times them; ``sd_size``: 100 per (group, label) cell (400 rows,
#: 80 for test) or the paper's 320 rows (64 for test).
STUDY_FACTORS = {
    "rho_init": (-5.0, -12.0),
    "kl_reduction": ("mean", "sum"),
    "nll_reduction": ("mean", "sum"),
    "early_stopping": (True, False),
    "epochs": ("stated", "long"),
    "scaling": ("scaled", "raw"),
    "sd_size": ("ours", "paper"),
}

#: A 2^(7-4) screening design of resolution III (8 cells): the first three factors in
#: full, the other four as products of them (early_stopping = AB, epochs = AC,
#: scaling = BC, sd_size = ABC); main effects are clear of each other, not of two-factor
#: interactions. (The 2^(7-3) of resolution IV, generators ABC, BCD, ACD, has 16 cells;
#: see the chapter for what it would cost.)
STUDY_GENERATORS = {
    "early_stopping": (0, 1),
    "epochs": (0, 2),
    "scaling": (1, 2),
    "sd_size": (0, 1, 2),
}

#: Cells added to the fraction: the chapter's setting (every factor low), the paper as
#: written (Eq. 22's summed KL, its 320 SD rows, its N(0, 1) posterior means; early
#: stopping, as Sec. 5.2 says) and the settings that make a network over-confident (no
#: early stopping, many epochs, NLL summed over the batch, i.e. a small KL weight, raw
#: inputs).
STUDY_EXTRA_CELLS = {
    "chapter": {},
    "paper": {"kl_reduction": "sum", "sd_size": "paper", "mu_init_std": 1.0},
    "overconfident": {
        "early_stopping": False,
        "epochs": "long",
        "nll_reduction": "sum",
        "scaling": "raw",
    },
}


def study_cells() -> dict:
    """Every cell of the study: ``{name: {factor: level, ...}}``.

    ``"f00"`` … ``"f07"`` are the 2^(7-4) fraction's runs (:data:`STUDY_GENERATORS`),
    then :data:`STUDY_EXTRA_CELLS` (``"chapter"``: every factor low).

    Examples
    --------
    >>> cells = study_cells()
    >>> len(cells), cells["chapter"]["rho_init"], cells["overconfident"]["scaling"]
    (11, -5.0, 'raw')
    """
    from fairbook.stats.sensitivity import fractional_factorial

    base = [f for f in STUDY_FACTORS if f not in STUDY_GENERATORS]
    names = [*base, *STUDY_GENERATORS]
    design = fractional_factorial(len(base), STUDY_GENERATORS)
    cells = {}
    for i, row in enumerate(design):
        levels = {f: STUDY_FACTORS[f][int(v > 0)] for f, v in zip(names, row, strict=True)}
        cells[f"f{i:02d}"] = levels
    low = {f: levels[0] for f, levels in STUDY_FACTORS.items()}
    for name, changes in STUDY_EXTRA_CELLS.items():
        cells[name] = {**low, **changes}
    return cells


def study_config(config: dict, cell) -> dict:
    """``config`` with one study cell's settings (a name of :func:`study_cells` or a dict).

    Examples
    --------
    >>> c = study_config(settings("full"), "overconfident")
    >>> c["early_stopping"], c["epochs_factor"] == c["study_long_factor"], c["encoding"]
    (False, True, 'raw')
    """
    levels = study_cells()[cell] if isinstance(cell, str) else dict(cell)
    unknown = set(levels) - set(STUDY_FACTORS) - {"mu_init_std"}
    if unknown:
        raise ValueError(f"unknown study factor(s) {sorted(unknown)}")
    out = dict(config)
    for factor in ("rho_init", "kl_reduction", "nll_reduction", "early_stopping"):
        if factor in levels:
            out[factor] = levels[factor]
    if "epochs" in levels:
        out["epochs_factor"] = 1 if levels["epochs"] == "stated" else config["study_long_factor"]
    if "scaling" in levels:
        out["standardize"] = levels["scaling"] == "scaled"
        out["encoding"] = "standard" if levels["scaling"] == "scaled" else "raw"
    if "sd_size" in levels:
        n = seed000.SETTINGS["common"]["n_per_cell"]
        out["sd_n_per_cell"] = n if levels["sd_size"] == "ours" else _PAPER_SD_ROWS // 4
    if "mu_init_std" in levels:
        out["mu_init_std"] = levels["mu_init_std"]
    return out


#: Seed 000 Sec. 5.1: "Each synthetic dataset has 320 samples with 20% reserved for testing."
_PAPER_SD_ROWS = 320


def real_summary(run: Run, paper_groups: dict, paper_ratios: dict) -> dict:
    """What Tables 2–3 or 5 compare, from one run: ``{(measure, group): value}`` for every
    printed group and ``{(ratio, attribute): value}`` for every printed pair (F_EOdd as
    ``F_EOdd_y0`` and ``F_EOdd_y1``)."""
    out = {}
    for label, printed in paper_groups.items():
        attribute = _attribute_of(label)
        column = _group_rows(
            run.y_test,
            run.y_pred,
            run.uncertainty,
            np.asarray(run.groups[attribute], dtype=object),
            (label,),
        )[label]
        out.update({(m, label): float(column[m]) for m in printed if m != "n"})
    for attribute, printed in paper_ratios.items():
        g0, g1 = printed["pair"]
        ratios = fairness_result(run, attribute, protected=g0, reference=g1).ratios
        out.update({(m, attribute): float(v) for m, v in ratios.items()})
    return out


def _real_temperature(run: Run, paper_groups: dict) -> float:
    """The temperature that brings our mean of group aleatoric levels to the paper's."""
    masks = [
        np.asarray(run.groups[_attribute_of(label)], dtype=object) == label
        for label in paper_groups
    ]
    target = float(np.mean([printed["U_a"] for printed in paper_groups.values()]))
    return aleatoric_temperature(run.probs, target, rows=masks)


def study_units(config: dict) -> list[str]:
    """The study's units, ``"<cell>-s<seed>"``, seed by seed (so a partial recording has
    every cell at its first seeds).

    Examples
    --------
    >>> study_units({"study_cells": ("chapter", "paper"), "study_seeds": 2})
    ['chapter-s00', 'paper-s00', 'chapter-s01', 'paper-s01']
    """
    return [
        f"{cell}-s{seed:02d}"
        for seed in range(int(config["study_seeds"]))
        for cell in config["study_cells"]
    ]


def study_unit(unit: str, config: dict) -> pd.DataFrame:
    """One (cell, seed) of the study: SD1–SD3, COMPAS and Adult trained under the cell's
    settings, and what Tables 1, 2–3 and 5 compare, as a long table.

    Returns
    -------
    DataFrame
        ``cell, seed, dataset, measure, role, value``: SD rows as
        :meth:`FairnessResult.flat` (role G0, G1, ratio), COMPAS and Adult rows as
        :func:`real_summary` (role = group or attribute), and per data set the epochs
        trained (``measure="epochs trained"``) and, for COMPAS and Adult, the diagnostic
        temperature that calibrates our aleatoric level to the paper's
        (``measure="temperature"``).
    """
    cell, _, seed_text = unit.rpartition("-s")
    if cell not in study_cells() or not seed_text.isdigit():
        raise ValueError(f"unit must be '<cell>-s<seed>' with a cell of study_cells(): {unit!r}")
    seed = int(seed_text)
    cfg = study_config(config, cell)
    rows = []
    for k in (1, 2, 3):
        run = sd_run(k, seed=seed, config=cfg)
        result = fairness_result(run, "G", protected=0, reference=1)
        rows += [(f"SD{k}", m, role, v) for (m, role), v in result.flat().items()]
        rows.append((f"SD{k}", "epochs trained", "model", float(run.model.n_epochs_)))
    tables = (
        ("compas", "COMPAS", seed000.TABLE_3_GROUPS, seed000.TABLE_3_RATIOS),
        ("adult", "Adult", seed000.TABLE_5_GROUPS, seed000.TABLE_5_RATIOS),
    )
    for dataset, name, groups, ratios in tables:
        run = tabular_run(dataset, seed=seed, config=cfg)
        rows += [(name, m, role, v) for (m, role), v in real_summary(run, groups, ratios).items()]
        rows.append((name, "epochs trained", "model", float(run.model.n_epochs_)))
        rows.append((name, "temperature", "U_a", _real_temperature(run, groups)))
    frame = pd.DataFrame(rows, columns=["dataset", "measure", "role", "value"])
    frame["value"] = frame["value"].astype(float)
    frame.insert(0, "seed", seed)
    frame.insert(0, "cell", cell)
    return frame


def sensitivity_study(config: dict, *, cells=None, seeds=None) -> pd.DataFrame:
    """:func:`study_unit` for every unit (default: ``config``'s ``study_cells`` and
    ``study_seeds``), in one frame with a ``unit`` column, as a recording loads it."""
    chosen = {
        "study_cells": config["study_cells"] if cells is None else tuple(cells),
        "study_seeds": config["study_seeds"] if seeds is None else int(seeds),
    }
    frames = []
    for unit in tqdm(study_units(chosen), desc="sensitivity study", disable=None):
        table = study_unit(unit, config)
        table.insert(0, "unit", unit)
        frames.append(table)
    return pd.concat(frames, ignore_index=True)


#: The study as a recording: one unit per (cell, seed); ``fairbook record 04 study``.
STUDY_RECORDING = Recordable(
    name="study",
    units=study_units,
    run=study_unit,
    depends=(
        "fairbook.uncertainty.bayes_by_backprop",
        "fairbook.uncertainty.decomposition",
        "fairbook.uncertainty.calibration",
        "fairbook.stats.sensitivity",
        "fairbook.data.synthetic",
        "fairbook.data.tabular",
        "fairbook.data.compas",
        "fairbook.data.adult",
        "fairbook.data.designs",
        "fairbook.labels",
        "fairbook.confusion",
        "fairbook.metrics.rates",
        "fairbook.metrics.group",
        "fairbook_book.chapters.uncertainty_fairness.runs",
    ),
    parameters=(
        "T",
        "lr",
        "mu_init_std",
        "n_members",
        "stratify",
        "study_long_factor",
        "prior_sigma1",
    ),
    description="seed 000's unstated settings: a 2^(7-4) design + 3 cells, per (cell, seed)",
)

#: Everything ``fairbook record 04`` can record, by name.
RECORDINGS = {STUDY_RECORDING.name: STUDY_RECORDING}
