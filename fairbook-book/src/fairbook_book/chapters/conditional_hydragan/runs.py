"""Runs of "Conditional HydraGAN" (seed 003 sec. 3.5): data, GAN, classifiers, scores.

:func:`prepare_data` loads the stand-in (Adult with who-cells and the sedentary label);
:func:`run_once` trains the Conditional HydraGAN with one seed, trains the sedentary/active
classifier on real rows and on generated rows, and scores both on the real test rows with
:func:`bias_scores`; :func:`run_experiment` repeats it over seeds. :func:`improvement` is
Table 3.4's improvement row. The classifier reads real rows in the named design
``"seed003_hydragan"`` of :mod:`fairbook.data.designs` and generated rows in the GAN's own
encoding of the same columns (checked by name).

The experiment of the ``full`` profile (all 30,162 training rows, 300 epochs) is *recorded*
(``fairbook record 07 seeds``, :data:`SEEDS_RECORDING`): one unit per seed
(:func:`seed_units`, :func:`seed_unit`), each :func:`run_once`'s result as one long table
(:func:`flatten_run`); :func:`recorded_experiment` merges the units back into
:func:`run_experiment`'s result, and :func:`real_half` recomputes a seed's classifier on the
real rows alone (the cheap part of a unit that CI re-runs).
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
import torch

from fairbook.confusion import confusion_counts
from fairbook.data.designs import adult_design
from fairbook.generative import ConditionalHydraGAN
from fairbook.generative.divergence import rowwise_divergences
from fairbook.metrics import compare
from fairbook_book.recordings import Recordable, Recording

from .settings import (
    AGE_SPLIT,
    ATTRIBUTES,
    CATEGORICAL,
    CONTINUOUS,
    DESIGN,
    METRICS,
    SEDENTARY,
)

__all__ = [
    "RECORDINGS",
    "SEEDS_RECORDING",
    "bias_scores",
    "flatten_run",
    "improvement",
    "prepare_data",
    "real_half",
    "recorded_experiment",
    "run_experiment",
    "run_once",
    "seed_unit",
    "seed_units",
]


def _annotate(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    old = df["age"].to_numpy() > AGE_SPLIT
    df["age_band"] = np.where(old, "oldest 25 %", "youngest 75 %")
    df["who"] = df["sex"].astype(str) + ", " + np.where(old, "old", "young")
    df["sedentary"] = df["occupation"].isin(SEDENTARY).astype(int)
    return df


def prepare_data(
    config: dict, *, train: pd.DataFrame | None = None, test: pd.DataFrame | None = None
) -> dict:
    """The stand-in data: Adult train (subsampled to ``n_train``) and test, annotated.

    Adds ``age_band``, ``who`` (sex × age band) and ``sedentary`` (1 for
    :data:`~fairbook_book.chapters.conditional_hydragan.settings.SEDENTARY`). Test rows whose
    categories never occur in the training rows are dropped (the encoders cannot represent
    them); how many is in ``dropped_test``.

    Returns
    -------
    dict with ``train``, ``test`` (DataFrames) and ``dropped_test`` (int).
    """
    from fairbook.data import load_adult

    train = load_adult("train", drop_missing=True) if train is None else train
    test = load_adult("test", drop_missing=True) if test is None else test
    n = config.get("n_train")
    if n is not None and n < len(train):
        train = train.sample(n=int(n), random_state=int(config["seed"]))
    train = _annotate(train).reset_index(drop=True)
    test = _annotate(test)
    keep = np.ones(len(test), dtype=bool)
    for col in CATEGORICAL:
        keep &= test[col].isin(set(train[col])).to_numpy()
    return {
        "train": train,
        "test": test[keep].reset_index(drop=True),
        "dropped_test": int((~keep).sum()),
    }


def bias_scores(y_true, y_pred, frame: pd.DataFrame) -> pd.DataFrame:
    """OFI, DPPL, DI and DCA per protected class, two ways.

    * ``pair``: the class against its complement, ``compare(m, cm_class, cm_other)``
      (so Female's OFI is −Male's and Female's DI is 1 / Male's).
    * ``cells``: each who-cell of the class against all other rows, averaged over the
      class's cells (Fig. 3.4's box plots are per individual; our individuals are cells).

    Parameters
    ----------
    y_true, y_pred : array-like of 0/1 (1 = sedentary, the positive class)
    frame : DataFrame with ``age_band``, ``sex`` and ``who`` per row

    Returns
    -------
    DataFrame with columns ``attribute, class, definition, metric, value``.

    Examples
    --------
    >>> f = pd.DataFrame({"sex": ["Female"] * 2 + ["Male"] * 2,
    ...                   "age_band": ["oldest 25 %", "youngest 75 %"] * 2})
    >>> f["who"] = f.sex + f.age_band
    >>> s = bias_scores([1, 0, 1, 0], [1, 1, 1, 0], f)
    >>> s.query("definition == 'pair' and metric == 'OFI'")["value"].round(2).tolist()
    [0.5, -0.5, 0.5, -0.5]
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    who_cm, who = confusion_counts(
        y_true, y_pred, frame["who"].to_numpy(), positive=1, return_groups=True
    )
    total = who_cm.sum(axis=0)
    rows = []
    for attribute, (column, classes) in ATTRIBUTES.items():
        labels = frame[column].to_numpy()
        cms = {
            c: confusion_counts(y_true[labels == c], y_pred[labels == c], positive=1)
            if (labels == c).any()
            else np.zeros(4, dtype=int)
            for c in classes
        }
        for cls in classes:
            other = classes[1] if cls == classes[0] else classes[0]
            cells = [
                i
                for i, w in enumerate(who)
                if (frame.loc[frame["who"].to_numpy() == w, column] == cls).all()
            ]
            for metric in METRICS:
                rows.append(
                    {
                        "attribute": attribute,
                        "class": cls,
                        "definition": "pair",
                        "metric": metric,
                        "value": compare(metric, cms[cls], cms[other]),
                    }
                )
                values = [compare(metric, who_cm[i], total - who_cm[i]) for i in cells]
                rows.append(
                    {
                        "attribute": attribute,
                        "class": cls,
                        "definition": "cells",
                        "metric": metric,
                        "value": float(np.mean(values)) if values else np.nan,
                    }
                )
    return pd.DataFrame(rows)


def improvement(real, synthetic, ideal):
    """``|real − ideal| − |synthetic − ideal|``: positive when synthetic is less biased.

    Examples
    --------
    >>> round(float(improvement(1.891, 1.778, 1.0)), 3)  # seed 003 Table 3.4, DI, 90-95
    0.113
    """
    return np.abs(np.asarray(real) - ideal) - np.abs(np.asarray(synthetic) - ideal)


def _generated_features(gan, x: np.ndarray, conditions: pd.DataFrame, names) -> np.ndarray:
    """Generated rows as the classifier reads them: the GAN's encoding without the
    occupation block (the label), then the condition one-hot — the columns of design
    ``settings.DESIGN``, in its order (checked against the design's ``names``)."""
    encoder, condition_encoder = gan.encoder_, gan.condition_encoder_
    keep = np.ones(x.shape[1], dtype=bool)
    keep[encoder.spec("occupation").slice] = False
    generated = [n for n, k in zip(encoder.feature_names(), keep, strict=True) if k]
    generated += condition_encoder.feature_names()
    if generated != list(names):
        raise ValueError(
            f"the GAN's columns {generated} are not those of design {DESIGN!r}: {list(names)}"
        )
    return np.hstack([x[:, keep], condition_encoder.transform(conditions)])


def _mlp(config: dict, seed: int):
    from sklearn.neural_network import MLPClassifier

    return MLPClassifier(
        hidden_layer_sizes=tuple(config["mlp_hidden"]),
        max_iter=int(config["mlp_epochs"]),
        random_state=int(seed),
    )


def _fit_predict(config, seed, x_train, y_train, x_test):
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = _mlp(config, seed).fit(x_train, y_train)
    return model.predict(x_test)


def _classify(config, seed, f_train, y_train, f_test, test):
    """Train the classifier on one training set; its accuracy and :func:`bias_scores` on the
    real test rows."""
    y_test = test["sedentary"].to_numpy()
    pred = _fit_predict(config, seed, f_train, y_train, f_test)
    return float((pred == y_test).mean()), bias_scores(y_test, pred, test)


def real_half(data: dict, config: dict, *, seed: int) -> dict:
    """The part of :func:`run_once` that does not depend on the GAN: the classifier trained
    on the real rows, scored on the real test rows (about a minute at full size, where the
    whole seed takes tens of minutes).

    Returns
    -------
    dict with ``accuracy`` (float) and ``scores`` (:func:`bias_scores` rows with
    ``data = "real"``), equal to the real rows of :func:`run_once` with the same seed.
    """
    train, test = data["train"], data["test"]
    f_real, f_test, _ = adult_design(DESIGN, train, test)
    accuracy, table = _classify(config, seed, f_real, train["sedentary"].to_numpy(), f_test, test)
    return {"accuracy": accuracy, "scores": table.assign(data="real")}


def _gan(config: dict, seed: int, **overrides) -> ConditionalHydraGAN:
    opts = {
        "continuous": CONTINUOUS,
        "categorical": CATEGORICAL,
        "epochs": config["epochs"],
        "hidden": tuple(config["hidden"]),
        "lr": config["lr"],
        "batch_size": config["batch_size"],
        "n_critic": config["n_critic"],
        "diversity_weight": config["diversity_weight"],
        "critic_conditioned": config["critic_conditioned"],
        "seed": seed,
    }
    opts.update(overrides)
    return ConditionalHydraGAN(**opts)


def run_once(data: dict, config: dict, *, seed: int, **gan_overrides) -> dict:
    """Train the GAN and both classifiers with one seed; score them on real test rows.

    The classifier (a multilayer perceptron) reads real rows in the named design
    :data:`~fairbook_book.chapters.conditional_hydragan.settings.DESIGN` and generated rows in
    the GAN's encoding of the same columns (softmax outputs kept as features).

    Returns
    -------
    dict with ``scores`` (:func:`bias_scores` rows with a ``data`` column, real or
    synthetic), ``accuracy`` (dict), ``activities`` (DataFrame: real, synthetic and
    target proportions of each occupation), ``who`` (same for the who-cells),
    ``rowwise`` (the paper's per-row reading of Table 3.5) and ``model``.
    """
    train, test = data["train"], data["test"]
    target = gan_overrides.pop("target", config["target"])
    threads = torch.get_num_threads()
    try:  # one thread: the same numbers on every CPU run (restored afterwards)
        torch.set_num_threads(1)
        gan = _gan(config, seed, **gan_overrides).fit(
            train, conditions=["who"], diversity_column="occupation", target=target
        )
        x_syn, cond_frame = gan.sample_encoded(int(config["n_synthetic"]), seed=seed)
    finally:
        torch.set_num_threads(threads)
    enc = gan.encoder_
    occ = enc.spec("occupation")
    sed = np.isin(np.asarray(occ.categories), SEDENTARY)
    p_sed = x_syn[:, occ.slice][:, sed].sum(axis=1)
    y_syn = (np.random.default_rng([seed, 3]).random(len(p_sed)) < p_sed).astype(int)
    x_real = enc.transform(train)
    f_real, f_test, names = adult_design(DESIGN, train, test)
    f_syn = _generated_features(gan, x_syn, cond_frame, names)
    scores, accuracy = [], {}
    for name, (f, y) in {
        "real": (f_real, train["sedentary"].to_numpy()),
        "synthetic": (f_syn, y_syn),
    }.items():
        accuracy[name], table = _classify(config, seed, f, y, f_test, test)
        scores.append(table.assign(data=name))
    cats = list(occ.categories)
    activities = pd.DataFrame(
        {
            "real": train["occupation"].value_counts(normalize=True).reindex(cats, fill_value=0),
            "synthetic": gan.generated_proportions(x_syn).to_numpy(),
            "target": gan.target_,
        },
        index=pd.Index(cats, name="occupation"),
    )
    cells = [c[0] for c in gan.condition_categories_]
    who = pd.DataFrame(
        {
            "real": train["who"].value_counts(normalize=True).reindex(cells, fill_value=0),
            "synthetic": cond_frame["who"]
            .value_counts(normalize=True)
            .reindex(cells, fill_value=0),
            "target": np.full(len(cells), 1 / len(cells)),
        },
        index=pd.Index(cells, name="who"),
    )
    uniform = np.full(len(cats), 1 / len(cats))
    rowwise = {
        "real": rowwise_divergences(x_real[:, occ.slice], uniform),
        "synthetic": rowwise_divergences(x_syn[:, occ.slice], uniform),
    }
    return {
        "scores": pd.concat(scores, ignore_index=True),
        "accuracy": accuracy,
        "activities": activities,
        "who": who,
        "rowwise": rowwise,
        "model": gan,
        "sedentary_share": {
            "real": float(train["sedentary"].mean()),
            "synthetic": float(y_syn.mean()),
        },
    }


def run_experiment(data: dict, config: dict) -> dict:
    """:func:`run_once` for seeds ``seed, seed + 1, …`` (``n_seeds`` of them).

    Returns
    -------
    dict with ``scores`` (long table with a ``seed`` column), ``accuracy``,
    ``activities``, ``who`` and ``rowwise`` (one row per seed and data), and ``runs``.
    """
    runs = {}
    for k in range(int(config["n_seeds"])):
        runs[int(config["seed"]) + k] = run_once(data, config, seed=int(config["seed"]) + k)
    return _assemble(runs)


def _assemble(runs: dict) -> dict:
    """:func:`run_experiment`'s result from ``{seed: run_once(...)}``."""
    scores = pd.concat([r["scores"].assign(seed=s) for s, r in runs.items()], ignore_index=True)
    accuracy = pd.DataFrame({s: r["accuracy"] for s, r in runs.items()}).T
    accuracy.index.name = "seed"
    rowwise = pd.concat(
        {s: pd.DataFrame(r["rowwise"]).T for s, r in runs.items()}, names=["seed", "data"]
    )
    return {
        "scores": scores,
        "accuracy": accuracy,
        "rowwise": rowwise,
        "runs": runs,
        "activities": pd.concat({s: r["activities"] for s, r in runs.items()}, names=["seed"]),
        "who": pd.concat({s: r["who"] for s, r in runs.items()}, names=["seed"]),
    }


# ---------------------------------- the experiment at full size: `fairbook record 07 seeds`
#: The columns of a flattened run (:func:`flatten_run`).
_FLAT_COLUMNS = (
    "part",
    "data",
    "attribute",
    "class",
    "definition",
    "metric",
    "category",
    "dtype",
    "value",
)


def flatten_run(result: dict) -> pd.DataFrame:
    """One :func:`run_once` result (without its model) as one long table, the unit of the
    recording: column ``part`` is ``scores``, ``accuracy``, ``sedentary_share``,
    ``activities``, ``who`` or ``rowwise``; the other columns are those parts' keys, and
    ``dtype`` the original dtype of a column of ``activities`` and ``who`` (the generated
    proportions are float32), restored on loading so the recorded tables are those of the
    run bit for bit.

    Examples
    --------
    >>> scores = pd.DataFrame({"attribute": ["sex"], "class": ["Male"], "definition": ["pair"],
    ...                        "metric": ["OFI"], "value": [0.1], "data": ["real"]})
    >>> t = flatten_run({"scores": scores, "accuracy": {"real": 0.8},
    ...                  "sedentary_share": {"real": 0.4},
    ...                  "activities": pd.DataFrame({"real": [1.0]}, index=["Sales"]),
    ...                  "who": pd.DataFrame({"real": [1.0]}, index=["Male, old"]),
    ...                  "rowwise": {"real": {"KL divergence": 2.0}}})
    >>> t["part"].tolist()
    ['scores', 'accuracy', 'sedentary_share', 'activities', 'who', 'rowwise']
    """
    frames = [result["scores"].assign(part="scores", category="")]
    for part in ("accuracy", "sedentary_share"):
        frames.append(
            pd.DataFrame(
                {"part": part, "data": list(result[part]), "value": list(result[part].values())}
            )
        )
    for part in ("activities", "who"):
        wide = result[part]
        long = (
            wide.rename_axis("category")
            .reset_index()
            .melt(id_vars="category", var_name="data", value_name="value")
        )
        dtypes = {column: str(dtype) for column, dtype in wide.dtypes.items()}
        frames.append(long.assign(part=part, dtype=long["data"].map(dtypes)))
    frames.append(
        pd.DataFrame(
            [
                {"part": "rowwise", "data": data, "metric": metric, "value": value}
                for data, values in result["rowwise"].items()
                for metric, value in values.items()
            ]
        )
    )
    table = pd.concat(frames, ignore_index=True).reindex(columns=list(_FLAT_COLUMNS))
    for column in _FLAT_COLUMNS[:-1]:
        table[column] = table[column].fillna("").astype(str)
    table["value"] = table["value"].astype(float)  # float32 values are exact in float64
    return table


def _unflatten(table: pd.DataFrame) -> dict:
    """:func:`flatten_run`'s inverse (the parts that :func:`_assemble` reads)."""
    part = {name: rows for name, rows in table.groupby("part", sort=False)}
    scores = part["scores"][["attribute", "class", "definition", "metric", "value", "data"]]
    out = {"scores": scores.reset_index(drop=True)}
    for name in ("accuracy", "sedentary_share"):
        rows = part[name]
        out[name] = dict(zip(rows["data"], rows["value"].astype(float), strict=True))
    for name, index in (("activities", "occupation"), ("who", "who")):
        rows = part[name]
        wide = rows.pivot(index="category", columns="data", values="value")
        wide = wide.reindex(index=pd.unique(rows["category"]), columns=pd.unique(rows["data"]))
        wide.index.name = index
        wide.columns.name = None
        dtypes = dict(zip(rows["data"], rows["dtype"], strict=False))
        out[name] = wide.astype({c: d for c, d in dtypes.items() if d})
    rows = part["rowwise"]
    out["rowwise"] = {
        data: dict(zip(r["metric"], r["value"].astype(float), strict=True))
        for data, r in rows.groupby("data", sort=False)
    }
    return out


def seed_units(config: dict) -> list[str]:
    """One unit per seed of :func:`run_experiment`: ``"seed00"``, ``"seed01"`` …

    Examples
    --------
    >>> seed_units({"seed": 0, "n_seeds": 3})
    ['seed00', 'seed01', 'seed02']
    """
    first = int(config["seed"])
    return [f"seed{first + k:02d}" for k in range(int(config["n_seeds"]))]


@functools.lru_cache(maxsize=2)
def _full_data(n_train, seed: int) -> dict:
    return prepare_data({"n_train": n_train, "seed": seed})


def seed_unit(unit: str, config: dict) -> pd.DataFrame:
    """One seed of :func:`run_experiment` (a unit of :func:`seed_units`): :func:`run_once`
    on :func:`prepare_data`'s rows, flattened (:func:`flatten_run`).

    Raises
    ------
    ValueError
        For a unit id that is not ``"seed<NN>"``.
    """
    if not unit.startswith("seed") or not unit[4:].isdigit():
        raise ValueError(f"unit {unit!r} is not 'seed<NN>' (see seed_units)")
    data = _full_data(config.get("n_train"), int(config["seed"]))
    return flatten_run(run_once(data, config, seed=int(unit[4:])))


def recorded_experiment(recording: Recording) -> dict:
    """The recorded seeds merged into :func:`run_experiment`'s result (without ``runs``);
    an empty dict when nothing is recorded.

    Examples
    --------
    >>> recorded_experiment(Recording("07_conditional_hydragan", "seeds", pd.DataFrame()))
    {}
    """
    if recording.empty:
        return {}
    runs = {
        int(unit[4:]): _unflatten(rows.drop(columns="unit"))
        for unit, rows in sorted(recording.frame.groupby("unit", sort=False))
    }
    result = _assemble(runs)
    result.pop("runs")
    return result


#: The chapter's recording: the ``full`` profile's experiment, one unit per seed.
SEEDS_RECORDING = Recordable(
    name="seeds",
    units=seed_units,
    run=seed_unit,
    depends=(
        "fairbook.generative.hydragan",
        "fairbook.generative.tabular",
        "fairbook.generative.wgan",
        "fairbook.generative.divergence",
        "fairbook.data.designs",
        "fairbook.metrics.group",
        "fairbook.metrics.rates",
        "fairbook.confusion",
        "fairbook_book.chapters.conditional_hydragan.settings",
        "fairbook_book.chapters.conditional_hydragan.runs",
    ),
    parameters=(
        "seed",
        "n_train",
        "n_synthetic",
        "epochs",
        "hidden",
        "lr",
        "batch_size",
        "n_critic",
        "diversity_weight",
        "target",
        "critic_conditioned",
        "mlp_hidden",
        "mlp_epochs",
    ),
    description="Tables 3.4 and 3.5 at full size (all 30,162 training rows, 300 epochs), "
    "one unit per seed",
)

#: Everything ``fairbook record 07`` can record, by name.
RECORDINGS = {SEEDS_RECORDING.name: SEEDS_RECORDING}
