"""Chapter "Uncertainty as a fairness measure" (seed 000): every computation it shows.

A *run* trains one estimator (Bayes by Backprop or a deep ensemble) on one data set and
keeps its ``T`` Monte Carlo predictions on the test rows (:class:`Run`). From a run,
:func:`fairness_result` computes the rows of the paper's tables for a pair of groups:
performance per group, the Kwon et al. uncertainties per group (mean over the group), the
point-based ratios (Eqs. 23–26, from :func:`fairbook.metrics.ratio_measures`) and the
uncertainty ratios (Eq. 27). Everything else — Table 1 over many seeds, Tables 2–5 beside
the printed values, individual fairness, the capacity ablation, calibration, the D-Vlog
stand-in and the widget — is built on these two.

Choices the paper leaves open (all are parameters, see :data:`PROFILES`):

* Adam learning rate 0.01 (not stated);
* posterior means initialised from N(0, 1/fan_in) rather than the paper's N(0, 1): for
  COMPAS's 100-unit hidden layer N(0, 1) makes the first logits of size ~15 and ten
  epochs do not recover (:func:`init_sensitivity` shows both);
* synthetic features standardised by the training rows, and a test split stratified by
  (G, Y) cell so that F_SP measures the model rather than the split's base rates;
* COMPAS: Zafar et al.'s features and random 50/50 split; Adult: the authors' files with
  standardised numeric columns (``encoding="standard"``) or raw ones (``"raw"``), see
  :mod:`fairbook.data.tabular`.
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
from fairbook.experiments.profiles import choose_settings
from fairbook.metrics import compute, ratio_measures
from fairbook.metrics.individual import individual_fairness
from fairbook.papers import seed000
from fairbook.replication import replication_table
from fairbook.uncertainty import (
    BNNClassifier,
    DeepEnsemble,
    decompose,
    expected_calibration_error,
    reliability_diagram,
)

__all__ = [
    "BANDS",
    "FairnessResult",
    "GROUP_MEASURES",
    "PAIRS",
    "PATTERNS",
    "POINT_RATIOS",
    "PROFILES",
    "Run",
    "UNCERTAINTY_RATIOS",
    "ablation_table",
    "adult_replication",
    "capacity_ablation",
    "compas_replication",
    "dvlog_standin",
    "dvlog_summary",
    "estimator_comparison",
    "explorer",
    "fairness_result",
    "float_format",
    "format_tables",
    "group_ordering",
    "individual_table",
    "individual_tables",
    "init_sensitivity",
    "make_estimator",
    "paper_consistency",
    "pattern_summary",
    "plot_ablation",
    "plot_dvlog",
    "plot_individual",
    "plot_reliability",
    "plot_sd",
    "plot_seed_spread",
    "plot_uncertainty_distributions",
    "pool_sequences",
    "real_runs",
    "reliability",
    "results_for",
    "results_over",
    "sd_oracle",
    "sd_run",
    "sd_seed_study",
    "settings",
    "study_comparison",
    "table_1",
    "table_1_replication",
    "table_4_replication",
    "table_7_printed",
    "tabular_run",
    "verdict_summary",
]

GROUP_MEASURES = ("n", "ACC", "PPV", "NPV", "FPR", "FNR", "U_e", "U_a", "U_p")
POINT_RATIOS = ("F_SP", "F_EOpp", "F_EOpp_FNR", "F_EOdd_y0", "F_EOdd_y1", "F_EAcc")
UNCERTAINTY_RATIOS = ("F_Epis", "F_Alea", "F_Pred")
#: The ratios the paper's tables show and its patterns use (F_EOpp = TPR ratio, ERRATA).
PATTERN_POINT = ("F_SP", "F_EOpp", "F_EOdd_y0", "F_EOdd_y1", "F_EAcc")

#: Parameters of the two profiles; a chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "sd_seeds": 3,
        "real_seeds": 1,
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
    },
    "full": {
        "sd_seeds": 25,
        "real_seeds": 5,
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
    },
}

#: Tolerance bands of the replication verdicts, beyond the printed rounding (the paper's
#: numbers come from one stochastic training run on splits we cannot reproduce):
#: counts exact; rates (accuracy, PPV, NPV, FPR, FNR) ±0.05 absolute; ratios F ±20 %
#: of the printed value; group uncertainties ±50 % of the printed value.
BANDS = {"count": 0.0, "rate": 0.05, "ratio": 0.20, "uncertainty": 0.50}

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
    **kwargs,
):
    """A :class:`~fairbook.uncertainty.BNNClassifier` (``"bnn"``, seed 000's λ, prior and
    ``mc_train``) or a :class:`~fairbook.uncertainty.DeepEnsemble` (``"ensemble"``)."""
    common = seed000.SETTINGS["common"]
    if estimator == "bnn":
        return BNNClassifier(
            hidden_sizes,
            epochs=epochs,
            batch_size=batch_size,
            lam=common["lam"],
            mc_train=common["mc_train"],
            lr=lr,
            prior_pi=common["prior_pi"],
            prior_sigma1=common["prior_sigma1"],
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
    X, y, g = make_sd(
        k, n_per_cell=seed000.SETTINGS["common"]["n_per_cell"], seed=seed, orientation=orientation
    )
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
    encoding: str = "standard",
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
    encoding : {'standard', 'raw'}
        Standardise numeric columns or keep them raw.
    config : dict
        From :func:`settings`.
    **overrides
        Passed to :func:`make_estimator` (e.g. ``mu_init_std=1.0``, ``epochs=20``).
    """
    from fairbook.data.tabular import compas_data

    config = settings() if config is None else config
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


_DECIMALS = {"n": 0, "U_e": 4, "U_a": 4, "U_p": 4}


def float_format(value: float) -> str:
    """How the chapter prints floats: 4 significant digits, thousands as integers.

    Examples
    --------
    >>> float_format(0.99166), float_format(5.5e-05), float_format(25933.0)
    ('0.9917', '5.5e-05', '25,933')
    """
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def format_tables(results: dict, *, labels=("G0", "G1")) -> pd.DataFrame:
    """The paper's layout as text: one column pair per result, ratios flagged.

    Parameters
    ----------
    results : dict
        Title → :class:`FairnessResult` (e.g. ``{"SD1": ..., "SD2": ...}``).
    labels : names of the two columns of each pair (default G0, G1); ``None`` uses the
        group labels.

    Returns
    -------
    DataFrame of str
        Rows: ``GROUP_MEASURES`` then the ratios; a ratio sits in the G0 column with
        "unfair" or "undefined" beside it in the G1 column.
    """
    columns = {}
    for title, result in results.items():
        names = labels or tuple(str(c) for c in result.groups.columns)
        first, second = [], []
        for m in GROUP_MEASURES:
            digits = _DECIMALS.get(m, 2)
            for target, label in (
                (first, result.groups.columns[0]),
                (second, result.groups.columns[1]),
            ):
                value = result.groups.loc[m, label]
                target.append("NaN" if not np.isfinite(value) else f"{value:.{digits}f}")
        for value in result.ratios.to_numpy():
            first.append("NaN" if not np.isfinite(value) else f"{value:.2f}")
            flag = _flag(value)
            second.append("" if flag == "fair" else flag)
        columns[(title, names[0])] = first
        columns[(title, names[1])] = second
    index = list(GROUP_MEASURES) + list(POINT_RATIOS) + list(UNCERTAINTY_RATIOS)
    return pd.DataFrame(columns, index=pd.Index(index, name="measure"))


# =========================================================================== Table 1
def table_1(
    *,
    seed: int = 0,
    estimator: str = "bnn",
    config: dict | None = None,
    orientation: str = "corrected",
    epochs: int | None = None,
) -> dict:
    """SD1–SD3 with one seed: ``{"SD1": FairnessResult, ...}`` (G0 = 0, G1 = 1)."""
    return {
        f"SD{k}": fairness_result(
            sd_run(
                k,
                seed=seed,
                estimator=estimator,
                orientation=orientation,
                config=config,
                epochs=epochs,
            ),
            "G",
            protected=0,
            reference=1,
        )
        for k in (1, 2, 3)
    }


def sd_oracle() -> pd.DataFrame:
    """What the data allow: the Bayes-optimal classifier's per-group accuracy and aleatoric
    uncertainty on SD1–SD3 (true P(Y | x), group unseen), beside the paper's Table 1."""
    from fairbook.data.synthetic import sd_bayes

    rows = {}
    for k in (1, 2, 3):
        bayes = sd_bayes(k)
        paper = seed000.TABLE_1[f"SD{k}"]
        rows[f"SD{k}"] = {
            "Bayes ACC G0": bayes["ACC"][0],
            "Bayes ACC G1": bayes["ACC"][1],
            "paper ACC G0": paper["groups"][0]["ACC"],
            "paper ACC G1": paper["groups"][1]["ACC"],
            "Bayes U_a G0": bayes["U_a"][0],
            "Bayes U_a G1": bayes["U_a"][1],
            "Bayes F_Alea": bayes["F_Alea"],
            "paper F_Alea": paper["ratios"]["F_Alea"],
        }
    return pd.DataFrame(rows)


def _row(quantity, paper, ours, kind, *, note="", decimals=2, spread=None, n_seeds=1):
    if kind in ("ratio", "uncertainty"):
        extra = BANDS[kind] * abs(paper) if np.isfinite(paper) else 0.0
    else:
        extra = BANDS[kind]
    if spread is not None and n_seeds > 1 and np.isfinite(spread):
        note = (note + "; " if note else "") + f"sd {spread:.2g} over {n_seeds} seeds"
    return {
        "quantity": quantity,
        "paper": paper,
        "ours": ours,
        "decimals": decimals,
        "extra": extra,
        "note": note,
    }


def _ratio_note(paper: float, ours: float) -> str:
    p, o = _flag(paper), _flag(ours)
    return f"flag: paper {p}, ours {o}" + ("" if p == o else " ← differs")


def table_1_replication(results: dict) -> pd.DataFrame:
    """Table 1, paper beside ours (one seed, or means over seeds).

    Parameters
    ----------
    results : dict
        ``{"SD1": FairnessResult, ...}`` or ``{"SD1": [FairnessResult, ...], ...}``.
    """
    rows = []
    for sd, paper in seed000.TABLE_1.items():
        mean, spread, n = _mean_over(results[sd])
        for role, g in (("G0", 0), ("G1", 1)):
            for m, printed in paper["groups"][g].items():
                kind = "uncertainty" if m.startswith("U_") else "rate"
                rows.append(
                    _row(
                        f"{sd} {m} {role}",
                        printed,
                        mean[(m, role)],
                        kind,
                        decimals=_DECIMALS.get(m, 2),
                        spread=spread[(m, role)],
                        n_seeds=n,
                    )
                )
        for m, printed in paper["ratios"].items():
            keys = ("F_EOdd_y0", "F_EOdd_y1") if m == "F_EOdd" else (m,)
            for key in keys:
                ours = mean[(key, "ratio")]
                rows.append(
                    _row(
                        f"{sd} {key}",
                        printed,
                        ours,
                        "ratio",
                        note=_ratio_note(printed, ours),
                        spread=spread[(key, "ratio")],
                        n_seeds=n,
                    )
                )
    return replication_table(rows)


def _mean_over(results):
    if isinstance(results, FairnessResult):
        results = [results]
    frame = pd.DataFrame([r.flat() for r in results])
    return frame.mean(), frame.std(ddof=1) if len(frame) > 1 else frame.iloc[0] * np.nan, len(frame)


def _pattern(ratios: pd.Series, sd: str, *, ignore_undefined: bool) -> dict:
    spec = PATTERNS[sd]
    point = ratios[list(PATTERN_POINT)]
    if ignore_undefined:
        point = point[np.isfinite(point)]
    flags = point.map(_flag)
    points_fair = bool((flags == "fair").all()) and len(flags) > 0
    points_unfair = bool((flags == "unfair").any())
    unc = ratios[list(spec["uncertainty"])]
    if ignore_undefined:
        unc = unc[np.isfinite(unc)]
    unc_flags = unc.map(_flag)
    if spec["uncertainty_is"] == "unfair":
        unc_ok = bool((unc_flags == "unfair").all()) and len(unc_flags) > 0
    else:
        unc_ok = bool((unc_flags == "fair").all()) and len(unc_flags) > 0
    points_ok = points_fair if spec["points"] == "fair" else points_unfair
    return {
        "points as paper": points_ok,
        "uncertainty as paper": unc_ok,
        "pattern holds": points_ok and unc_ok,
    }


def sd_seed_study(
    seeds,
    *,
    estimators=("bnn",),
    config: dict | None = None,
    orientation: str = "corrected",
    epochs: int | None = None,
):
    """Table 1's ratios and group uncertainties for many seeds, both estimators.

    Returns
    -------
    study : DataFrame
        One row per (estimator, SD, seed) with every ratio, ``U_*`` per group, and the
        pattern checks (strict: an undefined ratio is not "fair"; and ignoring
        undefined ratios).
    results : dict
        ``results[estimator][sd]``: the :class:`FairnessResult` of every seed (for
        :func:`table_1_replication`).
    """
    records = []
    kept = {e: {f"SD{k}": [] for k in (1, 2, 3)} for e in estimators}
    jobs = [(e, s) for e in estimators for s in seeds]
    for estimator, seed in tqdm(jobs, desc="SD seeds", disable=None):
        for sd, result in table_1(
            seed=seed, estimator=estimator, config=config, orientation=orientation, epochs=epochs
        ).items():
            kept[estimator][sd].append(result)
            record = {
                "estimator": estimator,
                "SD": sd,
                "seed": seed,
                "epochs": epochs or seed000.SETTINGS["synthetic"]["epochs"],
            }
            record.update(result.ratios.to_dict())
            for role, label in zip(("G0", "G1"), result.groups.columns, strict=True):
                for m in ("ACC", "U_e", "U_a", "U_p"):
                    record[f"{m} {role}"] = result.groups.loc[m, label]
            strict = _pattern(result.ratios, sd, ignore_undefined=False)
            loose = _pattern(result.ratios, sd, ignore_undefined=True)
            record.update(strict)
            record["pattern holds (undefined ignored)"] = loose["pattern holds"]
            records.append(record)
    return pd.DataFrame(records), kept


def pattern_summary(study: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """How often Table 1's pattern holds, and each ratio's spread over seeds.

    Returns
    -------
    patterns : DataFrame
        Per (estimator, SD): seeds, shares of seeds where the point-based part, the
        uncertainty part and the whole pattern hold (strict and undefined-ignored), and
        the paper's reading.
    spreads : DataFrame
        Per (estimator, SD, ratio): mean, sd, median, share flagged unfair, share
        undefined, and the printed value.
    """
    checks = [
        "points as paper",
        "uncertainty as paper",
        "pattern holds",
        "pattern holds (undefined ignored)",
    ]
    grouped = study.groupby(["estimator", "SD"], sort=False)
    patterns = grouped[checks].mean()
    patterns.insert(0, "seeds", grouped.size())
    patterns["paper's reading"] = [seed000.TABLE_1_PATTERN[sd] for _, sd in patterns.index]
    rows = []
    for (estimator, sd), part in grouped:
        for m in PATTERN_POINT + UNCERTAINTY_RATIOS:
            values = part[m].to_numpy(float)
            finite = values[np.isfinite(values)]
            printed = seed000.TABLE_1[sd]["ratios"]["F_EOdd" if m.startswith("F_EOdd") else m]
            rows.append(
                {
                    "estimator": estimator,
                    "SD": sd,
                    "ratio": m,
                    "mean": finite.mean() if finite.size else np.nan,
                    "sd": finite.std(ddof=1) if finite.size > 1 else np.nan,
                    "median": np.median(finite) if finite.size else np.nan,
                    "share unfair": float(np.mean([_flag(v) == "unfair" for v in values])),
                    "share undefined": float(np.mean(~np.isfinite(values))),
                    "paper": printed,
                }
            )
    spreads = pd.DataFrame(rows).set_index(["estimator", "SD", "ratio"])
    return patterns, spreads


def study_comparison(studies: dict, *, estimator: str = "bnn") -> pd.DataFrame:
    """Several :func:`sd_seed_study` frames side by side (e.g. 5 vs 30 epochs).

    Returns, per SD and study: the share of seeds where the paper's pattern holds
    (undefined ratios ignored), and mean and share-unfair of F_Epis and F_Alea.
    """
    columns = {}
    for label, study in studies.items():
        part = study[study["estimator"] == estimator]
        grouped = part.groupby("SD")
        columns[(label, "pattern holds (undefined ignored)")] = grouped[
            "pattern holds (undefined ignored)"
        ].mean()
        for m in ("F_Epis", "F_Alea"):
            columns[(label, f"{m} mean")] = grouped[m].mean()
            columns[(label, f"{m} share unfair")] = grouped[m].apply(
                lambda v: float(np.mean([_flag(x) == "unfair" for x in v]))
            )
    return pd.DataFrame(columns)


# =========================================================================== Tables 2–5
def _real_replication(runs, paper_groups, paper_ratios, *, full_counts) -> pd.DataFrame:
    if isinstance(runs, Run):
        runs = [runs]
    rows = []
    n = len(runs)
    for label, printed in paper_groups.items():
        attribute = _attribute_of(label)
        values = pd.DataFrame(
            [
                _group_rows(
                    r.y_test,
                    r.y_pred,
                    r.uncertainty,
                    np.asarray(r.groups[attribute], dtype=object),
                    (label,),
                )[label]
                for r in runs
            ]
        )
        for m, p in printed.items():
            if m == "n":
                note = "whole data (COMPAS) / training file (Adult)"
                if paper_groups is seed000.TABLE_5_GROUPS and label == "F":
                    note += (
                        f"; ERRATA: printed {p:,}, correct "
                        f"{seed000.TABLE_5_F_SAMPLE_SIZE_CORRECTED:,}"
                    )
                rows.append(
                    _row(
                        f"{label} sample size",
                        p,
                        full_counts[label],
                        "count",
                        decimals=0,
                        note=note,
                    )
                )
                continue
            kind = "uncertainty" if m.startswith("U_") else "rate"
            rows.append(
                _row(
                    f"{label} {m}",
                    p,
                    values[m].mean(),
                    kind,
                    decimals=_DECIMALS.get(m, 2),
                    spread=values[m].std(ddof=1) if n > 1 else None,
                    n_seeds=n,
                )
            )
    for attribute, printed in paper_ratios.items():
        g0, g1 = printed["pair"]
        results = pd.DataFrame(
            [fairness_result(r, attribute, protected=g0, reference=g1).ratios for r in runs]
        )
        for m in ("F_SP", "F_EOpp", "F_EOdd", "F_EAcc", "F_Epis", "F_Alea", "F_Pred"):
            keys = ("F_EOdd_y0", "F_EOdd_y1") if m == "F_EOdd" else (m,)
            for key in keys:
                ours = results[key].mean()
                rows.append(
                    _row(
                        f"{attribute} ({g0}/{g1}) {key}",
                        printed[m],
                        ours,
                        "ratio",
                        note=_ratio_note(printed[m], ours),
                        spread=results[key].std(ddof=1) if n > 1 else None,
                        n_seeds=n,
                    )
                )
    return replication_table(rows)


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


def compas_replication(runs) -> pd.DataFrame:
    """Tables 2–3 (COMPAS): every printed cell beside ours (mean over the runs' seeds)."""
    return _real_replication(
        runs, seed000.TABLE_3_GROUPS, seed000.TABLE_3_RATIOS, full_counts=_full_counts("compas")
    )


def adult_replication(runs) -> pd.DataFrame:
    """Table 5 (Adult): every printed cell beside ours (mean over the runs' seeds)."""
    return _real_replication(
        runs, seed000.TABLE_5_GROUPS, seed000.TABLE_5_RATIOS, full_counts=_full_counts("adult")
    )


#: The comparisons of Tables 2–5: attribute → (G0, G1).
PAIRS = {
    "COMPAS": {"race": ("B", "W"), "age": ("<25", ">45"), "sex": ("F", "M")},
    "Adult": {"race": ("B", "W"), "sex": ("F", "M")},
}


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


def table_7_printed() -> pd.DataFrame:
    """Seed 000's Table 7 (D-Vlog) as printed, for the record (no data to rerun it)."""
    columns = {}
    for modality, entry in seed000.TABLE_7.items():
        for g in ("F", "M"):
            columns[(modality, g)] = {
                **entry["groups"][g],
                **(dict(entry["ratios"]) if g == "F" else {}),
            }
    return pd.DataFrame(columns)


def group_ordering(runs, *, measure: str = "U_a", dataset: str = "COMPAS") -> pd.DataFrame:
    """Each group's ``measure`` (mean over runs) beside the printed value, with ranks.

    Uncertainties of a differently trained network can differ in size yet order the
    groups the same way; ``attrs["spearman"]`` is the rank correlation of the two columns.
    """
    from scipy.stats import spearmanr

    paper = seed000.TABLE_3_GROUPS if dataset == "COMPAS" else seed000.TABLE_5_GROUPS
    if isinstance(runs, Run):
        runs = [runs]
    rows = {}
    for label, printed in paper.items():
        attribute = _attribute_of(label)
        ours = np.mean(
            [
                _group_rows(
                    r.y_test,
                    r.y_pred,
                    r.uncertainty,
                    np.asarray(r.groups[attribute], dtype=object),
                    (label,),
                ).loc[measure, label]
                for r in runs
            ]
        )
        rows[label] = {"paper": printed[measure], "ours": ours}
    frame = pd.DataFrame(rows).T
    frame["paper rank"] = frame["paper"].rank(ascending=False)
    frame["our rank"] = frame["ours"].rank(ascending=False)
    frame = frame.sort_values("paper", ascending=False)
    frame.attrs["spearman"] = float(spearmanr(frame["paper"], frame["ours"]).statistic)
    return frame


def table_4_replication() -> pd.DataFrame:
    """Table 4's counts per group and label from our loaders (exact)."""
    from fairbook.data.tabular import compas_data

    compas = compas_data(frame=_compas_frame())
    adult = _adult("standard")
    rows = []
    for name, data, part in (("COMPAS", compas, "all"), ("Adult", adult, "train")):
        for attribute in ("race", "sex"):
            counts = data.group_counts(attribute, part=part)
            for label in ("B", "W") if attribute == "race" else ("F", "M"):
                for y in (0, 1):
                    rows.append(
                        _row(
                            f"{name} {label} Y={y}",
                            seed000.TABLE_4[name][label][y],
                            counts.loc[label, y],
                            "count",
                            decimals=0,
                        )
                    )
    return replication_table(rows)


def paper_consistency() -> pd.DataFrame:
    """The paper's ratios recomputed from its own printed rates (no model involved).

    F_EOpp from the printed FNRs as a TPR ratio, F_EOdd from the printed FPRs (y = 0) and
    FNRs (y = 1), F_EAcc from the accuracies, F_SP from TPR, FPR and Table 4's base rates
    (COMPAS and Adult), F_u from the printed group uncertainties. Rounding of the printed
    inputs limits the agreement to a few per cent.
    """
    rows = []

    def add(table, pair, printed, groups, base=None):
        g0, g1 = (groups[p] for p in pair)
        tpr = [1 - g0["FNR"], 1 - g1["FNR"]]
        implied = {
            "F_EOpp": tpr[0] / tpr[1],
            "F_EOdd (y=0)": g0["FPR"] / g1["FPR"],
            "F_EOdd (y=1)": tpr[0] / tpr[1],
            "F_EAcc": g0["ACC"] / g1["ACC"],
            "F_Epis": g0["U_e"] / g1["U_e"],
            "F_Alea": g0["U_a"] / g1["U_a"],
            "F_Pred": g0["U_p"] / g1["U_p"],
        }
        if base is not None:
            ppr = [
                t * b + f * (1 - b)
                for t, f, b in zip(tpr, (g0["FPR"], g1["FPR"]), base, strict=True)
            ]
            implied["F_SP"] = ppr[0] / ppr[1]
        for name, value in implied.items():
            key = "F_EOdd" if name.startswith("F_EOdd") else name
            rows.append(
                {
                    "table": table,
                    "pair": "/".join(map(str, pair)),
                    "ratio": name,
                    "printed": printed[key],
                    "from printed rates": value,
                    "relative gap": value / printed[key] - 1,
                }
            )

    for sd, entry in seed000.TABLE_1.items():
        add(f"1 ({sd})", (0, 1), entry["ratios"], entry["groups"])
    for entry in seed000.TABLE_3_RATIOS.values():
        pair = entry["pair"]
        base = None
        if all(p in seed000.TABLE_4["COMPAS"] for p in pair):
            base = [
                seed000.TABLE_4["COMPAS"][p][1] / sum(seed000.TABLE_4["COMPAS"][p]) for p in pair
            ]
        add("3 (COMPAS)", pair, entry, seed000.TABLE_3_GROUPS, base)
    for entry in seed000.TABLE_5_RATIOS.values():
        pair = entry["pair"]
        base = [seed000.TABLE_4["Adult"][p][1] / sum(seed000.TABLE_4["Adult"][p]) for p in pair]
        add("5 (Adult)", pair, entry, seed000.TABLE_5_GROUPS, base)
    return pd.DataFrame(rows)


def verdict_summary(tables: dict) -> pd.DataFrame:
    """Per replication table: rows, matches, flag agreements (of the ratio rows).

    Parameters
    ----------
    tables : dict
        Title → table from :func:`fairbook.replication.replication_table`.
    """
    rows = []
    for title, table in tables.items():
        ratio_rows = table["note"].str.startswith("flag:")
        rows.append(
            {
                "table": title,
                "rows": len(table),
                "matches": int((table["verdict"] == "matches").sum()),
                "ratio rows": int(ratio_rows.sum()),
                "same flag as paper": int(
                    (ratio_rows & ~table["note"].str.contains("differs")).sum()
                ),
            }
        )
    return pd.DataFrame(rows).set_index("table")


def estimator_comparison(results_by_estimator: dict) -> pd.DataFrame:
    """Ratios of the same comparisons under each estimator, side by side.

    Parameters
    ----------
    results_by_estimator : dict
        Estimator → {title → FairnessResult or list of them (averaged over seeds)}.

    Returns
    -------
    DataFrame
        Rows: the ratios; columns: (title, estimator).
    """
    titles = list(dict.fromkeys(t for results in results_by_estimator.values() for t in results))
    columns = {}
    for title in titles:
        for estimator, results in results_by_estimator.items():
            if title in results:
                mean, _, _ = _mean_over(results[title])
                columns[(title, estimator)] = {
                    m: mean[(m, "ratio")] for m in PATTERN_POINT + UNCERTAINTY_RATIOS
                }
    return pd.DataFrame(columns)


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


# =========================================================================== Figs. 4–6
def individual_table(
    run: Run, attribute: str, labels, *, k: int = 10, scale: str = "none"
) -> pd.DataFrame:
    """Figs. 4–5: point and uncertainty consistency per group × true outcome.

    Neighbours are found among the test rows of the two groups in the encoded feature
    space (``scale="none"``: the encoding already standardises numeric columns).
    """
    groups = np.asarray(run.groups[attribute], dtype=object)
    keep = np.isin(groups, list(labels))
    uncertainty = {u: v[keep] for u, v in run.uncertainty.items()}
    return individual_fairness(
        run.X_test[keep],
        run.y_pred[keep],
        uncertainty,
        groups[keep],
        run.y_test[keep],
        k=k,
        scale=scale,
        keep=list(labels),
    )


def individual_tables(run: Run, *, k: int = 10, attributes=("race", "sex")) -> dict:
    """:func:`individual_table` for the paper's pairs of ``attributes`` (Figs. 4–5 show
    race and gender), keyed ``"COMPAS race"`` etc."""
    pairs = PAIRS[run.name.split(" ")[0]]
    return {f"{run.name} {a}": individual_table(run, a, pairs[a], k=k) for a in attributes}


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


def ablation_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6 as numbers: mean accuracy, U_a and U_e per hidden size and group."""
    return (
        frame.groupby(["hidden", "group"], sort=False)[["ACC", "U_a", "U_e"]]
        .mean()
        .unstack("group")
    )


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


def dvlog_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per cut and group: means over seeds, and the F/M ratios of those means.

    Returns a table indexed by ``t_max`` with, per group, the share of test recordings
    whose evidence was cut, accuracy, FNR, U_e and U_a, then ``F_EAcc, F_Epis, F_Alea``.
    """
    measures = ["evidence cut", "ACC", "FNR", "U_e", "U_a"]
    means = frame.groupby(["t_max", "group"], sort=False)[measures].mean().unstack("group")
    means.columns = [f"{m} {g}" for m, g in means.columns]
    for ratio, m in (("F_EAcc", "ACC"), ("F_Epis", "U_e"), ("F_Alea", "U_a")):
        means[ratio] = means[f"{m} F"] / means[f"{m} M"]
    return means


# =========================================================================== plots
def _axes(ax, figsize=(5, 4)):
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_sd(k: int, *, seed: int = 0, orientation: str = "corrected", ax=None):
    """Fig. 3: one synthetic data set, coloured by label, marked by group."""
    import seaborn as sns

    ax = _axes(ax)
    X, y, g = make_sd(k, seed=seed, orientation=orientation)
    frame = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1], "Y": y, "G": g})
    sns.scatterplot(
        data=frame,
        x="x1",
        y="x2",
        hue="Y",
        style="G",
        palette="coolwarm",
        s=14,
        ax=ax,
        markers={0: "o", 1: "X"},
    )
    ax.set_title(f"SD{k}" + (" (as printed)" if orientation == "printed" else ""))
    return ax


def plot_seed_spread(study: pd.DataFrame, *, estimator: str = "bnn", ax=None):
    """Each ratio of Table 1 over seeds (log scale), the fair band shaded, paper marked."""
    import seaborn as sns

    ax = _axes(ax, figsize=(10, 4))
    part = study[study["estimator"] == estimator]
    ratios = list(PATTERN_POINT + UNCERTAINTY_RATIOS)
    long = (
        part.melt(id_vars=["SD", "seed"], value_vars=ratios, var_name="ratio", value_name="F")
        .replace([np.inf, -np.inf], np.nan)
        .dropna()
    )
    long = long[long["F"] > 0]
    sns.stripplot(
        data=long, x="ratio", y="F", hue="SD", dodge=True, size=3, alpha=0.7, ax=ax, order=ratios
    )
    for i, ratio in enumerate(ratios):
        for j, sd in enumerate(("SD1", "SD2", "SD3")):
            key = "F_EOdd" if ratio.startswith("F_EOdd") else ratio
            ax.plot(
                i + (j - 1) * 0.27,
                seed000.TABLE_1[sd]["ratios"][key],
                marker="_",
                color="black",
                markersize=12,
            )
    ax.axhspan(1 - seed000.FLAG_THRESHOLD, 1 + seed000.FLAG_THRESHOLD, color="0.9", zorder=0)
    ax.set_yscale("log")
    ax.set_ylabel("F = G0 / G1 (log)")
    ax.set_title(
        f"Table 1 ratios over {part['seed'].nunique()} seeds ({estimator}); "
        "black dash = paper, grey = fair band"
    )
    ax.tick_params(axis="x", rotation=30)
    return ax


def plot_uncertainty_distributions(run: Run, attribute: str, labels, *, axes=None):
    """Per-group distributions of aleatoric and epistemic uncertainty (not only means)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    groups = np.asarray(run.groups[attribute], dtype=object)
    keep = np.isin(groups, list(labels))
    frame = pd.DataFrame(
        {
            "group": groups[keep],
            "U_a": run.uncertainty["U_a"][keep],
            "U_e": np.maximum(run.uncertainty["U_e"][keep], 1e-12),
        }
    )
    for ax, kind in zip(axes, ("U_a", "U_e"), strict=True):
        sns.boxenplot(
            data=frame,
            x="group",
            y=kind,
            order=list(labels),
            ax=ax,
            hue="group",
            hue_order=list(labels),
            legend=False,
        )
        ax.set_title(
            f"{run.name}: {'aleatoric' if kind == 'U_a' else 'epistemic'} ({run.estimator})"
        )
        if kind == "U_e":
            ax.set_yscale("log")
    return axes


def plot_reliability(table: pd.DataFrame, *, title: str = "", ax=None):
    """Fig. 2: accuracy against confidence per bin, with the diagonal of calibration."""
    ax = _axes(ax, figsize=(4.5, 4.5))
    filled = table[table["count"] > 0]
    centers = (filled["lower"] + filled["upper"]) / 2
    ax.bar(
        centers,
        filled["accuracy"],
        width=filled["upper"] - filled["lower"],
        edgecolor="black",
        color="#4c72b0",
        alpha=0.8,
        label="accuracy",
    )
    ax.bar(
        centers,
        filled["confidence"] - filled["accuracy"],
        bottom=filled["accuracy"],
        width=filled["upper"] - filled["lower"],
        color="#dd8452",
        alpha=0.5,
        label="gap",
    )
    ax.plot([0, 1], [0, 1], "k--", lw=1)
    ax.set_xlabel("confidence")
    ax.set_ylabel("accuracy")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left")
    ax.set_title(title)
    return ax


def plot_individual(tables: dict, *, axes=None):
    """Figs. 4–5: bars of consistency per group × outcome, one row per attribute."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    measures = ("F_y", "F_U_a", "F_U_e")
    if axes is None:
        _, axes = plt.subplots(len(tables), 3, figsize=(11, 3 * len(tables)), squeeze=False)
    for row, (title, table) in enumerate(tables.items()):
        for col, m in enumerate(measures):
            ax = axes[row][col]
            values = table[m]
            sns.barplot(x=list(values.index), y=values.to_numpy(), ax=ax, color="#4c72b0")
            low = float(values.min())
            ax.set_ylim(max(0.0, low - (1 - low) * 0.5 - 1e-6), 1.0)
            ax.set_title(f"{title}: {m}")
    return axes


def plot_ablation(frame: pd.DataFrame, *, axes=None):
    """Fig. 6: accuracy, aleatoric and epistemic uncertainty against hidden size."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(13, 3.5))
    for ax, m in zip(axes, ("ACC", "U_a", "U_e"), strict=True):
        sns.lineplot(
            data=frame,
            x="hidden",
            y=m,
            hue="group",
            marker="o",
            ax=ax,
            errorbar="sd" if frame["seed"].nunique() > 1 else None,
        )
        ax.set_xscale("log")
        ax.set_xlabel("hidden units")
    return axes


def plot_dvlog(frame: pd.DataFrame, *, axes=None):
    """Stand-in for Table 7: each group's U_a, U_e and evidence cut against t_max."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(13, 3.5))
    for ax, m in zip(axes, ("evidence cut", "U_a", "U_e"), strict=True):
        sns.pointplot(
            data=frame,
            x="t_max",
            y=m,
            hue="group",
            ax=ax,
            errorbar="sd" if frame["seed"].nunique() > 1 else None,
        )
        ax.set_xlabel("truncated at")
    return axes


# =========================================================================== widget
_DATASETS = ("SD1", "SD2", "SD3", "COMPAS", "Adult")
_PAIRS = {"race": ("B", "W"), "sex": ("F", "M"), "age": ("<25", ">45"), "G": (0, 1)}


def _attributes(dataset: str) -> list:
    return ["G"] if dataset.startswith("SD") else ["race", "sex", "age"]


def _train_for_explorer(dataset, estimator, hidden, config):
    if dataset.startswith("SD"):
        run = sd_run(int(dataset[2]), estimator=estimator, config=config)
        if hidden:
            raise ValueError("the synthetic sets use no hidden layer in this explorer")
        return run
    return tabular_run(
        dataset.lower(),
        estimator=estimator,
        config=config,
        hidden_sizes=(hidden,) if hidden else (),
    )


def explorer(runs=None, *, config: dict | None = None, initial=("COMPAS", "race", "bnn", 10, 100)):
    """Choose data set, attribute, estimator, T and hidden size; see the table and the
    per-group uncertainty distributions.

    ``runs`` are fitted :class:`Run` objects (or a dict keyed ``(dataset, estimator,
    hidden)``); a missing combination is trained on demand (a live kernel; the static
    book shows a snapshot of the first state). ``T`` re-draws the BNN's samples or takes
    the first T members.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    config = settings() if config is None else config
    if isinstance(runs, dict):
        cache = dict(runs)
    else:
        cache = {(r.name, r.estimator, (r.model.hidden_sizes or (0,))[0]): r for r in (runs or [])}
    dataset = widgets.Dropdown(options=list(_DATASETS), value=initial[0], description="data")
    busy = {"now": False}
    attribute = widgets.Dropdown(
        options=_attributes(initial[0]), value=initial[1], description="attribute"
    )
    estimator = widgets.Dropdown(
        options=["bnn", "ensemble"], value=initial[2], description="estimator"
    )
    T = widgets.IntSlider(value=initial[3], min=2, max=50, description="T")
    hidden = widgets.Dropdown(options=[0, 10, 100, 200], value=initial[4], description="hidden")
    table, plots = widgets.HTML(), widgets.Output()

    def refresh(_=None):
        if busy["now"]:
            return
        key = (
            dataset.value,
            estimator.value,
            0 if dataset.value.startswith("SD") else hidden.value,
        )
        if key not in cache:
            table.value = "<i>training…</i>"
            cache[key] = _train_for_explorer(*key, config)
        run = cache[key].with_T(T.value) if T.value != config["T"] else cache[key]
        labels = _PAIRS[attribute.value]
        result = fairness_result(run, attribute.value, protected=labels[0], reference=labels[1])
        table.value = format_tables({run.name: result}, labels=None).to_html()
        plots.clear_output(wait=True)
        with plots:
            _, axes = plt.subplots(1, 2, figsize=(9, 3.2))
            plot_uncertainty_distributions(run, attribute.value, labels, axes=axes)
            plt.tight_layout()
            plt.show()

    def on_dataset(_=None):
        busy["now"] = True
        attribute.options = _attributes(dataset.value)
        busy["now"] = False
        refresh()

    on_dataset()
    dataset.observe(on_dataset, names="value")
    for control in (attribute, estimator, T, hidden):
        control.observe(refresh, names="value")
    return widgets.VBox(
        [
            widgets.HBox([dataset, attribute, estimator]),
            widgets.HBox([T, hidden]),
            widgets.HBox([table, plots]),
        ]
    )
