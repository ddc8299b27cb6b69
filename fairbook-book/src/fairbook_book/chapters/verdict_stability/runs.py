"""The chapter's runs: models trained under each source of variation, and the metric values
of every group comparison in every variant.

* :func:`load_dataset` — COMPAS (ProPublica's filters, every race, sex and age class;
  positive = did not reoffend, predicted out of fold by 2-fold cross-fitting so every
  person, including the 11 Native American defendants, gets a prediction from a model that
  did not see them) or Adult (UCI's test file; positive = income above 50K; race, sex and
  their intersection).
* :func:`predictions` — one model family's predictions under each source: ``FIT:r`` (the
  same seed trained again; the MLP with seed 004's per-run summation order, the CPU
  stand-in for GPU nondeterminism of :mod:`fairbook.variance.determinism`; seed 000's BNN
  and deep ensemble on 1 or 2 torch threads, run ``r`` on ``1 + r mod 2``; logistic
  regression and the forest repeat exactly), ``seed:s``,
  ``setting:k`` (:data:`~.settings.TRAINING_SETTINGS`); ``seed:0`` is the base model.
* :func:`verdict_values` — DI, OFI and EOpp of every group against its reference
  (:func:`fairbook.variance.verdicts.comparison_table`) and seed 004's seven metrics
  (:func:`fairbook.metrics.bias_report`) per attribute, in every variant and in
  ``n_boot`` stratified bootstrap resamples of the base model's test set.
* :func:`size_curve` — the flip rate of a large group's verdicts when it is subsampled
  (:func:`fairbook.variance.verdicts.flip_rate_by_size`).
* :func:`run_unit` — one data set × model family, the unit of :data:`VERDICT_RECORDING`;
  :func:`build` runs every unit of a profile.
* :func:`uncertainty_values` — seed 000's ratio measures of its BNN (point and uncertainty
  ratios) under FIT runs, seeds and bootstrap resamples, trained as chapter 04 trains it; a
  data set is the unit of :data:`UNCERTAINTY_RECORDING`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.metrics import BIAS_REPORT_METRICS, bias_report
from fairbook_book.recordings import Recordable
from fairbook.variance.verdicts import (
    bootstrap_indices,
    comparison_table,
    flip_rate_by_size,
)

from .settings import ATTRIBUTES, MODELS, REFERENCES, TRAINING_SETTINGS, rules

__all__ = [
    "BASE",
    "Dataset",
    "RECORDINGS",
    "SIZE_GROUPS",
    "UNCERTAINTY_RECORDING",
    "VERDICT_RECORDING",
    "build",
    "load_dataset",
    "predictions",
    "run_unit",
    "size_curve",
    "uncertainty_table",
    "uncertainty_values",
    "units",
    "verdict_values",
]

#: The base model's prediction column: seed 0, base setting, fixed summation order.
BASE = "seed:0"

#: The large group subsampled for the size curve, and its reference, per data set.
SIZE_GROUPS = {
    "compas": ("race", "African-American", "Caucasian"),
    "adult": ("sex", "Female", "Male"),
}


@dataclass(frozen=True, eq=False)
class Dataset:
    """A data set ready to train on: ``splits`` of (training rows, evaluation rows) of
    ``x``/``y``; ``groups`` holds the attributes of every row."""

    name: str
    x: np.ndarray
    y: np.ndarray
    groups: pd.DataFrame
    splits: tuple[tuple[np.ndarray, np.ndarray], ...]
    evaluated: np.ndarray  # the rows predicted, in order


@functools.lru_cache(maxsize=4)
def load_dataset(name: str, *, adult_train_rows: int | None = None) -> Dataset:
    """COMPAS or Adult as arrays, with the group attributes of :data:`~.settings.ATTRIBUTES`.

    Examples
    --------
    >>> data = load_dataset("compas")
    >>> len(data.evaluated), int((data.groups["race"] == "Native American").sum())
    (6172, 11)
    """
    if name == "compas":
        from sklearn.model_selection import StratifiedKFold

        from fairbook.data import load_compas

        raw = load_compas(preprocess="zafar2017").reset_index(drop=True)
        x = np.column_stack(
            [
                raw["age"],
                raw["priors_count"],
                raw["juv_fel_count"],
                raw["juv_misd_count"],
                raw["juv_other_count"],
                (raw["c_charge_degree"] == "F").astype(float),
                (raw["sex"] == "Male").astype(float),
            ]
        ).astype(np.float64)
        y = 1 - raw["two_year_recid"].to_numpy(np.int64)  # 1 = did not reoffend
        groups = raw[["race", "sex", "age_cat"]].astype(str).reset_index(drop=True)
        folds = StratifiedKFold(n_splits=2, shuffle=True, random_state=0)
        splits = tuple((tr, te) for tr, te in folds.split(x, y * 10 + raw["race"].factorize()[0]))
        return Dataset(name, x, y, groups, splits, np.arange(len(y)))
    if name == "adult":
        from fairbook.data import load_adult
        from fairbook.data.designs import adult_design

        train = load_adult("train", drop_missing=True)
        test = load_adult("test", drop_missing=True)
        if adult_train_rows is not None and adult_train_rows < len(train):
            train = train.sample(n=adult_train_rows, random_state=0)
        m = adult_design("seed003_ofi", train, test)
        x = np.vstack([m.train, m.test]).astype(np.float64)
        y = np.concatenate(
            [
                (train["income"] == ">50K").to_numpy(np.int64),
                (test["income"] == ">50K").to_numpy(np.int64),
            ]
        )
        both = pd.concat([train[["race", "sex"]], test[["race", "sex"]]], ignore_index=True)
        groups = both.astype(str)
        groups["race & sex"] = groups["race"] + " & " + groups["sex"]
        n_tr = len(train)
        rows = np.arange(len(y))
        return Dataset(name, x, y, groups, ((rows[:n_tr], rows[n_tr:]),), rows[n_tr:])
    raise ValueError(f"unknown data set {name!r}; choose compas or adult")


def _standardised(x_tr, x_te):
    mean, std = x_tr.mean(axis=0), x_tr.std(axis=0)
    std[std == 0] = 1.0
    return ((x_tr - mean) / std).astype(np.float32), ((x_te - mean) / std).astype(np.float32)


def _fit_predict(model, x_tr, y_tr, x_te, *, seed, run, options, fit_runs, config, dataset):
    if model == "logistic":
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, **options))
        return clf.fit(x_tr, y_tr).predict(x_te).astype(np.int64)
    if model == "forest":
        from sklearn.ensemble import RandomForestClassifier

        params = {"n_estimators": config["n_estimators"], "min_samples_leaf": 2, **options}
        clf = RandomForestClassifier(random_state=seed, n_jobs=1, **params)
        return clf.fit(x_tr, y_tr).predict(x_te).astype(np.int64)
    if model == "mlp":
        from fairbook.variance.determinism import Knobs
        from fairbook.variance.tasks import TaskData, train_and_predict

        x_tr, x_te = _standardised(x_tr, x_te)
        task = TaskData(
            "verdicts",
            x_tr,
            y_tr.astype(np.int64),
            np.zeros(len(y_tr), dtype=np.int64),
            x_te,
            np.zeros(len(x_te), dtype=np.int64),
            np.zeros(len(x_te), dtype=np.int64),
            2,
            ("all",),
        )
        knobs = Knobs(sum_order="permuted") if fit_runs else Knobs()
        out = train_and_predict(
            task, "base", seed=seed, run=run, knobs=knobs, epochs=config["mlp_epochs"], **options
        )
        return np.asarray(out["y_pred"], dtype=np.int64)
    if model in ("bnn", "ensemble"):
        from fairbook_book.chapters.uncertainty_fairness.runs import make_estimator
        from fairbook.papers import seed000

        stated = seed000.SETTINGS[dataset]
        params = {
            "hidden_sizes": stated["hidden_sizes"],
            "epochs": stated["epochs"],
            "batch_size": stated["batch_size"],
            **options,
        }
        # FIT: the same seed on 1 or 2 torch threads (a real library switch; their training
        # loops have no emulated summation order like the MLP's)
        threads = 1 + run % 2 if fit_runs else 1
        clf = make_estimator(model, seed=seed, n_threads=threads, progress=False, **params)
        x_tr, x_te = _standardised(x_tr, x_te)
        return clf.fit(x_tr, y_tr).predict(x_te).astype(np.int64)
    raise ValueError(f"unknown model family {model!r}; choose one of {MODELS}")


def _predict(data: Dataset, model: str, *, seed, run, options, fit_runs, config) -> np.ndarray:
    out = np.empty(len(data.y), dtype=np.int64)
    for train_rows, test_rows in data.splits:
        out[test_rows] = _fit_predict(
            model,
            data.x[train_rows],
            data.y[train_rows],
            data.x[test_rows],
            seed=seed,
            run=run,
            options=options,
            fit_runs=fit_runs,
            config=config,
            dataset=data.name,
        )
    return out[data.evaluated]


def predictions(dataset: str, model: str, config: dict) -> pd.DataFrame:
    """The evaluated rows with ``y_true``, the group attributes and one prediction column
    per variant: ``FIT:r``, ``seed:s`` (``seed:0`` = :data:`BASE`) and ``setting:k``
    (``setting:0`` is the base setting, the same model as ``seed:0``).

    Examples
    --------
    >>> from fairbook_book.chapters.verdict_stability.settings import settings
    >>> frame = predictions("compas", "logistic", settings("fast", n_runs=2))
    >>> [c for c in frame.columns if ":" in c][:4]
    ['FIT:0', 'FIT:1', 'seed:0', 'seed:1']
    """
    data = load_dataset(dataset, adult_train_rows=config["adult_train_rows"])
    seed, n_runs = int(config["seed"]), int(config["n_runs"])
    if n_runs < 2:
        raise ValueError(f"n_runs must be at least 2 to see a flip, got {n_runs}")
    frame = data.groups.iloc[data.evaluated].reset_index(drop=True)
    frame.insert(0, "y_true", data.y[data.evaluated])

    def predict(**kw):
        return _predict(data, model, config=config, **kw)

    for r in range(n_runs):
        frame[f"FIT:{r}"] = predict(seed=seed, run=r, options={}, fit_runs=True)
    for s in range(n_runs):
        frame[f"seed:{s}"] = predict(seed=seed + s, run=0, options={}, fit_runs=False)
    for k, options in enumerate(TRAINING_SETTINGS[model]):
        frame[f"setting:{k}"] = (
            frame[BASE]
            if not options
            else predict(seed=seed, run=0, options=dict(options), fit_runs=False)
        )
    return frame


def _seven_rows(y_true, y_pred, groups, variant) -> list[dict]:
    report = bias_report(y_true, y_pred, groups, positive=1)
    row = report.iloc[0]
    return [
        {
            "variant": variant,
            "group": "all groups",
            "n": len(y_true),
            "metric": m,
            "value": float(row[m]),
        }
        for m in BIAS_REPORT_METRICS
    ]


def verdict_values(frame: pd.DataFrame, dataset: str, config: dict) -> pd.DataFrame:
    """Every metric value of every comparison in every variant and bootstrap resample.

    Returns
    -------
    pandas.DataFrame
        ``source, variant, attribute, group, n, metric, value``; sources ``FIT``, ``seed``,
        ``setting`` and ``bootstrap`` (resamples of :data:`BASE`, stratified by the
        attribute's groups); ``group`` is ``"all groups"`` for seed 004's seven metrics.
    """
    y = frame["y_true"].to_numpy()
    parts = []
    for attribute in ATTRIBUTES[dataset]:
        groups = frame[attribute].to_numpy()
        reference = REFERENCES[dataset][attribute]
        for source in ("FIT", "seed", "setting"):
            cols = [c for c in frame.columns if c.startswith(f"{source}:")]
            names = [c.split(":", 1)[1] for c in cols]
            preds = frame[cols].to_numpy().T
            table = comparison_table(y, preds, groups, reference=reference, variants=names)
            seven = [
                r
                for c, v in zip(cols, names, strict=True)
                for r in _seven_rows(y, frame[c].to_numpy(), groups, v)
            ]
            parts.append(
                pd.concat([table, pd.DataFrame(seven)], ignore_index=True).assign(
                    source=source, attribute=attribute
                )
            )
        idx = bootstrap_indices(groups, n_boot=int(config["n_boot"]), seed=int(config["seed"]))
        base = frame[BASE].to_numpy()
        names = [str(b) for b in range(idx.shape[0])]
        table = comparison_table(y, base, groups, reference=reference, index=idx, variants=names)
        seven = [
            r
            for b, rows in enumerate(idx)
            for r in _seven_rows(y[rows], base[rows], groups[rows], str(b))
        ]
        parts.append(
            pd.concat([table, pd.DataFrame(seven)], ignore_index=True).assign(
                source="bootstrap", attribute=attribute
            )
        )
    out = pd.concat(parts, ignore_index=True)
    return out[["source", "variant", "attribute", "group", "n", "metric", "value"]]


def size_curve(frame: pd.DataFrame, dataset: str, config: dict) -> pd.DataFrame:
    """Flip rate of :data:`SIZE_GROUPS`' group verdicts (DI, OFI, EOpp) against its size,
    across the seed runs and across subsets.

    Returns
    -------
    pandas.DataFrame
        ``attribute, group, size, metric, source`` (``"runs"``: over the seeds;
        ``"samples"``: over subsets of the base model's group), ``flip_rate``.
    """
    attribute, group, reference = SIZE_GROUPS[dataset]
    cols = [c for c in frame.columns if c.startswith("seed:")]
    chosen = {m: rule for m, rule in rules(config).items() if m in ("DI", "OFI", "EOpp")}
    curve = flip_rate_by_size(
        frame["y_true"].to_numpy(),
        frame[cols].to_numpy().T,
        frame[attribute].to_numpy(),
        group=group,
        reference=reference,
        sizes=[int(s) for s in config["sizes"]],
        n_draws=int(config["size_draws"]),
        rules=chosen,
        seed=int(config["seed"]),
    )
    curve.insert(0, "group", group)
    curve.insert(0, "attribute", attribute)
    return curve


def units(config: dict) -> list[str]:
    """The units of a recording: ``"<dataset>-<model>"``.

    Examples
    --------
    >>> units({"datasets": ("compas",), "models": ("logistic", "forest")})
    ['compas-logistic', 'compas-forest']
    """
    return [f"{d}-{m}" for d in config["datasets"] for m in config["models"]]


def run_unit(unit: str, config: dict) -> pd.DataFrame:
    """One data set × model family: its values (``kind = "value"``) and its size curve
    (``kind = "size"``: ``source`` is ``size:runs`` or ``size:samples``, ``variant`` the
    size, ``value`` the flip rate), with ``dataset`` and ``model`` columns."""
    dataset, model = unit.split("-")
    frame = predictions(dataset, model, config)
    values = verdict_values(frame, dataset, config).assign(kind="value")
    return _with_curve(values, size_curve(frame, dataset, config), dataset, model)


def build(config: dict, *, keep_predictions: bool = True) -> dict:
    """Every unit of ``config``: ``{"table": all units' rows, "predictions": {unit: frame}}``
    (the prediction frames feed the small-group audit)."""
    tables, frames = [], {}
    for unit in tqdm(units(config), desc="verdict units", disable=None):
        dataset, model = unit.split("-")
        frame = predictions(dataset, model, config)
        if keep_predictions:
            frames[unit] = frame
        values = verdict_values(frame, dataset, config).assign(kind="value")
        curve = size_curve(frame, dataset, config)
        tables.append(_with_curve(values, curve, dataset, model))
    return {"table": pd.concat(tables, ignore_index=True), "predictions": frames}


def _with_curve(values, curve, dataset, model) -> pd.DataFrame:
    curve = pd.DataFrame(
        {
            "source": "size:" + curve["source"],
            "variant": curve["size"].astype(str),
            "attribute": curve["attribute"],
            "group": curve["group"],
            "n": curve["size"],
            "metric": curve["metric"],
            "value": curve["flip_rate"],
            "kind": "size",
        }
    )
    out = pd.concat([values, curve], ignore_index=True)
    out.insert(0, "model", model)
    out.insert(0, "dataset", dataset)
    return out


VERDICT_RECORDING = Recordable(
    name="verdicts",
    units=units,
    run=run_unit,
    depends=(
        "fairbook.variance.verdicts",
        "fairbook.variance.tasks",
        "fairbook.uncertainty.bayes_by_backprop",
        "fairbook.uncertainty.ensemble",
        "fairbook.papers.seed000",
        "fairbook_book.chapters.uncertainty_fairness.runs",
        "fairbook.metrics.group",
        "fairbook.metrics.rates",
        "fairbook.data.designs",
        "fairbook_book.chapters.verdict_stability.runs",
        "fairbook_book.chapters.verdict_stability.settings",
    ),
    parameters=(
        "n_runs",
        "n_boot",
        "n_estimators",
        "mlp_epochs",
        "adult_train_rows",
        "sizes",
        "size_draws",
        "di_threshold",
        "gap_threshold",
        "seed",
    ),
    description="every verdict under FIT runs, seeds, settings and bootstrap, per data set "
    "and model family, at 16 runs and 500 resamples",
)


def _rows_subset(run, rows: np.ndarray):
    from fairbook_book.chapters.uncertainty_fairness.runs import Run

    groups = {a: np.asarray(g, dtype=object)[rows] for a, g in run.groups.items()}
    return Run(
        run.name,
        run.estimator,
        run.model,
        run.X_test[rows],
        run.y_test[rows],
        groups,
        run.probs[:, rows],
        run.seed,
    )


def uncertainty_values(dataset: str, config: dict) -> pd.DataFrame:
    """Seed 000's ratio measures of its BNN on COMPAS or Adult under three sources.

    The BNN is trained as chapter 04 trains it (:func:`~fairbook_book.chapters.
    uncertainty_fairness.tabular_run` with that chapter's setting: seed 000's stated
    epochs, λ, prior and network, COMPAS's 50/50 split drawn by the seed, Adult's own
    train/test files), and each of seed 000's pairs (COMPAS race B/W, sex F/M, age <25/>45;
    Adult race and sex) is compared by its point ratios (``F_SP``, ``F_EOpp``, …) and its
    uncertainty ratios (``F_Epis``, ``F_Alea``, ``F_Pred``):

    * ``FIT:r`` — the base seed trained again on ``1 + r mod 2`` torch threads;
    * ``seed:s`` — seed ``seed + s`` (``seed:0`` is ``FIT:0``, the base run);
    * ``bootstrap:b`` — the base run's test rows resampled, stratified by the attribute's
      groups (:func:`fairbook.variance.verdicts.bootstrap_indices`), the model unchanged.

    Parameters
    ----------
    dataset : {"compas", "adult"}
    config : dict
        The chapter's settings (``n_runs``, ``n_boot``, ``seed``).

    Returns
    -------
    pandas.DataFrame
        ``dataset, source, variant, attribute, measure, kind, value`` (``kind`` is
        ``"point"`` or ``"uncertainty"``).
    """
    from fairbook_book.chapters import uncertainty_fairness as uf

    if dataset not in ("compas", "adult"):
        raise ValueError(f"unknown data set {dataset!r}; choose compas or adult")
    name = {"compas": "COMPAS", "adult": "Adult"}[dataset]
    seed, n_runs = int(config["seed"]), int(config["n_runs"])
    if n_runs < 2:
        raise ValueError(f"n_runs must be at least 2 to see a flip, got {n_runs}")
    training = uf.settings("fast")  # chapter 04's training setting (the same in both profiles)
    kinds = {m: "point" for m in uf.POINT_RATIOS} | {
        m: "uncertainty" for m in uf.UNCERTAINTY_RATIOS
    }
    rows = []

    def add(source, variant, run, attributes=None):
        for attribute, (protected, reference) in uf.PAIRS[name].items():
            if attributes is not None and attribute not in attributes:
                continue
            ratios = uf.fairness_result(
                run, attribute, protected=protected, reference=reference
            ).ratios
            rows.extend(
                (source, str(variant), attribute, m, kinds[m], float(v)) for m, v in ratios.items()
            )

    def train(run_seed, threads):
        return uf.tabular_run(dataset, seed=run_seed, config=training, n_threads=threads)

    base = train(seed, 1)
    for r in range(n_runs):
        add("FIT", r, base if r == 0 else train(seed, 1 + r % 2))
    for s in range(n_runs):
        add("seed", s, base if s == 0 else train(seed + s, 1))
    for attribute in uf.PAIRS[name]:
        groups = np.asarray(base.groups[attribute], dtype=object)
        idx = bootstrap_indices(groups, n_boot=int(config["n_boot"]), seed=seed)
        for b, sample in enumerate(idx):
            add("bootstrap", b, _rows_subset(base, sample), attributes=(attribute,))
    frame = pd.DataFrame(
        rows, columns=["source", "variant", "attribute", "measure", "kind", "value"]
    )
    frame.insert(0, "dataset", name)
    return frame


def uncertainty_table(config: dict) -> pd.DataFrame:
    """:func:`uncertainty_values` of every data set of ``config`` in one frame."""
    return pd.concat([uncertainty_values(d, config) for d in config["datasets"]], ignore_index=True)


UNCERTAINTY_RECORDING = Recordable(
    name="uncertainty",
    units=lambda config: [d for d in config["datasets"]],
    run=uncertainty_values,
    depends=(
        "fairbook.uncertainty.bayes_by_backprop",
        "fairbook.uncertainty.decomposition",
        "fairbook.variance.verdicts",
        "fairbook.metrics.group",
        "fairbook.metrics.rates",
        "fairbook.confusion",
        "fairbook.labels",
        "fairbook.data.tabular",
        "fairbook.data.compas",
        "fairbook.data.adult",
        "fairbook.data.designs",
        "fairbook.papers.seed000",
        "fairbook_book.chapters.uncertainty_fairness.runs",
        "fairbook_book.chapters.uncertainty_fairness.settings",
        "fairbook_book.chapters.verdict_stability.runs",
    ),
    parameters=("n_runs", "n_boot", "seed"),
    description="seed 000's BNN ratio measures under FIT runs, seeds and bootstrap, per data "
    "set, at 16 runs and 500 resamples",
)

#: Everything ``fairbook record 10`` can record, by name.
RECORDINGS = {r.name: r for r in (VERDICT_RECORDING, UNCERTAINTY_RECORDING)}
