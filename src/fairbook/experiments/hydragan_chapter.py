"""Chapter "Conditional HydraGAN" (seed 003 sec. 3.5): every computation it shows.

CASAS (the paper's smart-home data) is not available offline, so the chapter uses a
**stand-in**: the Adult census file. Its pieces map onto the paper's as follows.

* **Individuals → who-cells.** ``who`` = sex × age band, four cells. The age band splits at
  the 75th percentile of age in the Adult training file (:data:`AGE_SPLIT`): "oldest 25 %"
  is ``age > AGE_SPLIT``. The protected classes (Female, Male; oldest 25 %, youngest 75 %)
  are unions of who-cells, so the condition that makes who uniform makes both attributes
  balanced too.
* **Activities → occupation** (14 categories), aggregated for the classifier into
  *sedentary* (desk work, :data:`SEDENTARY`; the **positive** class, as in the paper where
  a positive score is a bias toward "sedentary") and *active* (all other occupations).
* A multilayer perceptron predicts sedentary vs active from the other columns and the
  who-cell; it is trained on real rows or on generated rows (softmax outputs kept as
  features) and always tested on the held-out real Adult test file.
"""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import torch

from fairbook.confusion import confusion_counts
from fairbook.experiments.profiles import choose_settings
from fairbook.generative import ConditionalHydraGAN, divergences, improvement_percent
from fairbook.generative.divergence import rowwise_divergences
from fairbook.metrics import compare
from fairbook.papers import seed003
from fairbook.plots import figure_html
from fairbook.replication import replication_table

__all__ = [
    "AGE_SPLIT",
    "ATTRIBUTES",
    "CATEGORICAL",
    "CONTINUOUS",
    "IDEAL",
    "METRICS",
    "PROFILES",
    "SEDENTARY",
    "activity_mapping",
    "bias_boxplot",
    "bias_scores",
    "explorer",
    "improvement",
    "mitigation_grid",
    "prepare_data",
    "reading",
    "representation_plot",
    "run_experiment",
    "run_once",
    "seed_spread",
    "settings",
    "table_3_4",
    "table_3_4_beside_paper",
    "table_3_5",
    "table_3_5_beside_paper",
    "table_3_5_replication",
]

#: The 75th percentile of age in the Adult training file (rows with '?' dropped).
AGE_SPLIT = 47
#: Occupations counted as sedentary (desk work): the positive class.
SEDENTARY = ("Adm-clerical", "Exec-managerial", "Prof-specialty", "Sales", "Tech-support")
#: Columns the generator produces (occupation is the 'activity').
CONTINUOUS = ("age", "education-num", "hours-per-week")
CATEGORICAL = ("workclass", "marital-status", "relationship", "race", "income", "occupation")
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


def activity_mapping(categories) -> pd.DataFrame:
    """Each occupation, its binary class and whether it is the positive class.

    Examples
    --------
    >>> activity_mapping(["Sales", "Craft-repair"])["class"].tolist()
    ['sedentary', 'active']
    """
    cats = list(categories)
    return pd.DataFrame(
        {
            "occupation": cats,
            "class": ["sedentary" if c in SEDENTARY else "active" for c in cats],
            "positive": [c in SEDENTARY for c in cats],
        }
    )


# --------------------------------------------------------------------------- data
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
    :data:`SEDENTARY`). Test rows whose categories never occur in the training rows are
    dropped (the encoders cannot represent them); how many is in ``dropped_test``.

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


# --------------------------------------------------------------------------- metrics
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


# --------------------------------------------------------------------------- runs
def _features(encoder, x: np.ndarray, cond: np.ndarray) -> np.ndarray:
    keep = np.ones(x.shape[1], dtype=bool)
    keep[encoder.spec("occupation").slice] = False
    return np.hstack([x[:, keep], cond])


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
    enc, cenc = gan.encoder_, gan.condition_encoder_
    occ = enc.spec("occupation")
    sed = np.isin(np.asarray(occ.categories), SEDENTARY)
    p_sed = x_syn[:, occ.slice][:, sed].sum(axis=1)
    y_syn = (np.random.default_rng([seed, 3]).random(len(p_sed)) < p_sed).astype(int)
    x_real = enc.transform(train)
    f_real = _features(enc, x_real, cenc.transform(train))
    f_syn = _features(enc, x_syn, cenc.transform(cond_frame))
    f_test = _features(enc, enc.transform(test), cenc.transform(test))
    y_test = test["sedentary"].to_numpy()
    scores, accuracy = [], {}
    for name, (f, y) in {
        "real": (f_real, train["sedentary"].to_numpy()),
        "synthetic": (f_syn, y_syn),
    }.items():
        pred = _fit_predict(config, seed, f, y, f_test)
        accuracy[name] = float((pred == y_test).mean())
        scores.append(bias_scores(y_test, pred, test).assign(data=name))
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


# --------------------------------------------------------------------------- tables
def _class_order():
    return [c for _, (_, classes) in ATTRIBUTES.items() for c in classes]


def table_3_4(
    scores: pd.DataFrame, *, definition: str = "pair", as_text: bool = True
) -> pd.DataFrame:
    """Table 3.4 analogue: each metric for synthetic and real training data and the
    improvement row, per protected class, mean ± sd over seeds.

    The improvement is computed per seed (same seed for both) and then averaged.

    Parameters
    ----------
    scores : DataFrame
        ``run_experiment(...)["scores"]``.
    definition : {"pair", "cells"}
    as_text : bool
        ``"mean ± sd"`` strings (sd over seeds, ``ddof=1``); False gives a numeric frame
        with a (class, "mean"/"sd") column index.
    """
    if definition not in ("pair", "cells"):
        raise ValueError(f"definition must be 'pair' or 'cells', got {definition!r}")
    sel = scores[scores["definition"] == definition]
    wide = sel.pivot_table(
        index=["metric", "seed", "class"],
        columns="data",
        values="value",
        aggfunc="first",
        dropna=False,
    )
    ideal = np.array([IDEAL[m] for m in wide.index.get_level_values("metric")])
    wide["improves"] = improvement(wide["real"], wide["synthetic"], ideal)
    long = wide[["synthetic", "real", "improves"]].stack().rename("value").reset_index()
    stats = long.groupby(["metric", "data", "class"])["value"].agg(["mean", "std"])
    stats = stats.rename(columns={"std": "sd"}).unstack("class")
    stats = stats.reorder_levels([1, 0], axis=1)
    order = pd.MultiIndex.from_product(
        [list(METRICS), ["synthetic", "real", "improves"]], names=["metric", "data"]
    )
    columns = pd.MultiIndex.from_product([_class_order(), ["mean", "sd"]])
    stats = stats.reindex(index=order, columns=columns)
    if not as_text:
        return stats
    out = pd.DataFrame(index=order)
    for cls in _class_order():
        out[cls] = [
            f"{m:.3f} ± {s:.3f}" if np.isfinite(s) else f"{m:.3f}"
            for m, s in zip(stats[(cls, "mean")], stats[(cls, "sd")], strict=True)
        ]
    return out


def table_3_4_beside_paper(
    scores: pd.DataFrame, *, definition: str = "pair", decimals: int = 3
) -> pd.DataFrame:
    """Per metric and class: the paper's real, synthetic and improvement, ours (means over
    seeds, rounded to ``decimals``), and whether the improvement has the same sign.

    Columns are two-level — ``("paper", "real")`` … ``("ours", "improves")``,
    ``("verdict", "same sign")`` — so the table stays narrow enough for a book page. The
    paper's class names are in :data:`PAPER_CLASSES` (the chapter says which is which).
    """
    ours = table_3_4(scores, definition=definition, as_text=False)
    rows = {}
    for metric in METRICS:
        for cls in _class_order():
            paper = seed003.TABLE_3_4[metric][PAPER_CLASSES[cls]]
            mine = {
                d: ours.loc[(metric, d), (cls, "mean")] for d in ("real", "synthetic", "improves")
            }
            rows[(metric, cls)] = {
                ("paper", "real"): paper["Real"],
                ("paper", "synthetic"): paper["Synthetic"],
                ("paper", "improves"): paper["Improves"],
                ("ours", "real"): mine["real"],
                ("ours", "synthetic"): mine["synthetic"],
                ("ours", "improves"): mine["improves"],
                ("verdict", "same sign"): _same_sign(mine["improves"], paper["Improves"]),
            }
    table = pd.DataFrame.from_dict(rows, orient="index").round(decimals)
    table.index.names = ["metric", "class"]
    return table


def _same_sign(ours: float, paper: float) -> str:
    """'yes' / 'no'; 'paper ±0' where the paper printed (−)0.000 (no sign to compare)."""
    if paper == 0:
        return "paper ±0"
    if not np.isfinite(ours):
        return "ours undefined"
    return "yes" if np.sign(ours) == np.sign(paper) else "no"


def seed_spread(scores: pd.DataFrame, *, definition: str = "pair") -> pd.DataFrame:
    """Largest sd over seeds of each metric (over classes), beside the largest
    |mean improvement|: is the spread negligible, as the paper says?"""
    t = table_3_4(scores, definition=definition, as_text=False)
    sd = t.xs("sd", axis=1, level=1)
    mean = t.xs("mean", axis=1, level=1)
    out = pd.DataFrame(
        {
            "max sd (real)": sd.xs("real", level="data").max(axis=1),
            "max sd (synthetic)": sd.xs("synthetic", level="data").max(axis=1),
            "max sd (improves)": sd.xs("improves", level="data").max(axis=1),
            "max |mean improves|": mean.xs("improves", level="data").abs().max(axis=1),
        }
    )
    return out.reindex(list(METRICS))


def table_3_5(result: dict, *, ks_method: str = "cdf") -> pd.DataFrame:
    """Table 3.5 analogue: KS, KL and JS to the target for activities and individuals
    (who-cells), real training data vs generated data, improvement in %, mean over seeds.

    Activities compare the occupation *proportions* (real: label shares; synthetic: the
    mean softmax) with the diversity target; individuals compare the who-cell shares with
    uniform.
    """
    rows = {}
    for part in ("activities", "who"):
        frame = result[part]
        vals = {d: [] for d in ("real", "synthetic")}
        for _, f in frame.groupby(level="seed"):
            for d in vals:
                vals[d].append(
                    divergences(f[d].to_numpy(), f["target"].to_numpy(), ks_method=ks_method)
                )
        label = "Activities" if part == "activities" else "Individuals"
        for d in vals:
            rows[(label, d)] = pd.DataFrame(vals[d]).mean()
    out = pd.DataFrame(rows)
    for label in ("Activities", "Individuals"):
        out[(label, "improvement %")] = improvement_percent(
            out[(label, "real")], out[(label, "synthetic")]
        )
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out[
        [
            (lab, c)
            for lab in ("Activities", "Individuals")
            for c in ("synthetic", "real", "improvement %")
        ]
    ]


def table_3_5_beside_paper(ours: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table 3.5 beside ours, with whether the improvement has the same sign
    (two-level columns, as in :func:`table_3_4_beside_paper`)."""
    rows = {}
    for metric in ours.index:
        for label in ("Activities", "Individuals"):
            p = seed003.TABLE_3_5[metric][label]
            o = ours.loc[metric, label]
            rows[(metric, label)] = {
                ("paper", "real"): p["Real"],
                ("paper", "synthetic"): p["Synthetic"],
                ("paper", "improvement %"): p["Improvement %"],
                ("ours", "real"): o["real"],
                ("ours", "synthetic"): o["synthetic"],
                ("ours", "improvement %"): o["improvement %"],
                ("verdict", "same sign"): _same_sign(o["improvement %"], p["Improvement %"]),
            }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.names = ["metric", "part"]
    return table


def reading(
    scores: pd.DataFrame, *, data: str = "real", definition: str = "pair", tol: float = 0.02
) -> pd.DataFrame:
    """What OFI says that DI does not, per protected class (means over seeds).

    Seed 003 (sec. 3.6): OFI "identifies discriminatory selections", DI is a reparative
    measure "for identifying social disparities"; if OFI fails, correct the algorithm; if
    OFI shows no bias but DI does, that "suggests systematic disparity". A score counts as
    biased when it is more than ``tol`` from its ideal (DI: ``|DI − 1| > tol``).

    Examples
    --------
    >>> s = pd.DataFrame({"seed": 0, "data": "real", "definition": "pair",
    ...     "attribute": "sex", "class": "Female", "metric": ["OFI", "DI"],
    ...     "value": [0.0, 1.5]})
    >>> reading(s)["reading"].iloc[0]
    'systemic disparity (DI), no algorithmic bias (OFI ≈ 0)'
    """
    sel = scores[(scores["data"] == data) & (scores["definition"] == definition)]
    mean = sel.groupby(["class", "metric"])["value"].mean().unstack("metric")
    out = pd.DataFrame({"OFI": mean["OFI"], "DI": mean["DI"]})
    ofi_bias = (out["OFI"] - IDEAL["OFI"]).abs() > tol
    di_bias = (out["DI"] - IDEAL["DI"]).abs() > tol
    labels = np.select(
        [ofi_bias & di_bias, ofi_bias & ~di_bias, ~ofi_bias & di_bias],
        [
            "algorithmic bias (OFI) and disparity (DI)",
            "algorithmic bias (OFI) that DI misses",
            "systemic disparity (DI), no algorithmic bias (OFI ≈ 0)",
        ],
        default="neither",
    )
    out["OFI direction"] = np.where(
        ~ofi_bias, "—", np.where(out["OFI"] > 0, "toward the class", "against the class")
    )
    out["reading"] = labels
    order = [c for c in _class_order() if c in out.index]
    return out.reindex(order + [c for c in out.index if c not in order])


def table_3_5_replication(ours: pd.DataFrame) -> pd.DataFrame:
    """The parts of Table 3.5 that do not depend on the data, through
    :func:`fairbook.replication.replication_table`: the individuals' synthetic divergences
    and improvement (exact by construction of the conditional), and the real activity
    column read as the divergence of one one-hot row over 10 activities to uniform.

    Examples
    --------
    >>> t = pd.DataFrame({("Individuals", "synthetic"): [0.0] * 3,
    ...                   ("Individuals", "improvement %"): [100.0] * 3},
    ...                  index=["KS statistic", "KL divergence", "JS distance"])
    >>> set(table_3_5_replication(t)["verdict"])
    {'matches'}
    """
    one_hot = rowwise_divergences(np.eye(10), np.full(10, 0.1))
    rows = []
    for metric, parts in seed003.TABLE_3_5.items():
        rows.append(
            {
                "quantity": f"{metric}, individuals, synthetic",
                "paper": parts["Individuals"]["Synthetic"],
                "ours": ours.loc[metric, ("Individuals", "synthetic")],
                "decimals": 3,
            }
        )
        rows.append(
            {
                "quantity": f"{metric}, individuals, improvement %",
                "paper": parts["Individuals"]["Improvement %"],
                "ours": ours.loc[metric, ("Individuals", "improvement %")],
                "decimals": 0,
            }
        )
        truncated = metric == "KL divergence"  # ln 10 = 2.3026 is printed 2.302
        rows.append(
            {
                "quantity": f"{metric}, activities, real (one one-hot row, K = 10)",
                "paper": parts["Activities"]["Real"],
                "ours": one_hot[metric],
                "decimals": 3,
                "extra": 0.001 if truncated else 0.0,
                "note": "ln 10, printed truncated (2.302, not 2.303)"
                if truncated
                else "data-independent",
            }
        )
    return replication_table(rows)


# --------------------------------------------------------------------------- plots
def bias_boxplot(scores: pd.DataFrame, *, definition: str = "cells", ax=None):
    """Fig. 3.4 analogue: each metric's values over seeds, real vs synthetic, per class
    (distance from the ideal is what matters; DI is shown minus 1)."""
    fig_axes = ax if ax is not None else plt.subplots(1, len(METRICS), figsize=(16, 3.6))[1]
    sel = scores[scores["definition"] == definition]
    classes = _class_order()
    for a, metric in zip(np.ravel(fig_axes), METRICS, strict=True):
        s = sel[sel["metric"] == metric]
        shift = IDEAL[metric]
        for k, (name, colour) in enumerate((("real", "#b2182b"), ("synthetic", "#2166ac"))):
            d = s[s["data"] == name]
            vals = [d[d["class"] == c]["value"].to_numpy() - shift for c in classes]
            pos = np.arange(len(classes)) + (k - 0.5) * 0.35
            a.boxplot(
                vals,
                positions=pos,
                widths=0.3,
                patch_artist=True,
                boxprops={"facecolor": colour, "alpha": 0.5},
                medianprops={"color": colour},
            )
            a.plot([], [], color=colour, lw=6, alpha=0.5, label=name)
        a.axhline(0, color="k", lw=0.8)
        a.set_xticks(np.arange(len(classes)), classes, rotation=30, ha="right")
        a.set_title(f"{metric}{' − 1' if shift else ''} ({definition})")
    np.ravel(fig_axes)[0].legend(fontsize=8)
    return fig_axes


def representation_plot(frame: pd.DataFrame, *, title: str = "", ax=None):
    """Bars of real, synthetic and target proportions (one of ``result['activities']`` /
    ``result['who']`` for one seed, or their mean)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.4))
    frame[["real", "synthetic", "target"]].plot.bar(
        ax=ax, color=["#b2182b", "#2166ac", "#999999"], width=0.8
    )
    ax.set_ylabel("proportion")
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=60)
    return ax


# --------------------------------------------------------------------------- widget
def mitigation_grid(data: dict, config: dict) -> pd.DataFrame:
    """Small runs (seed ``seed``, ``grid_epochs`` epochs on ``grid_n_train`` rows) for every
    target × diversity weight of the profile: the widget's precomputed table.

    Columns: ``target, weight, class, metric, real, synthetic`` (pair definition) plus,
    per run, the JS distance of the activities to uniform and the sedentary share.
    """
    small = dict(
        config,
        epochs=config["grid_epochs"],
        n_seeds=1,
        n_synthetic=min(int(config["n_synthetic"]), int(config["grid_n_train"])),
    )
    n = min(int(config["grid_n_train"]), len(data["train"]))
    sub = {
        "train": data["train"].sample(n=n, random_state=int(config["seed"])).reset_index(drop=True),
        "test": data["test"],
    }
    rows = []
    for target in config["grid_targets"]:
        for weight in config["grid_weights"]:
            r = run_once(
                sub, small, seed=int(config["seed"]), target=target, diversity_weight=float(weight)
            )
            act = r["activities"]
            uniform = np.full(len(act), 1 / len(act))
            wide = (
                r["scores"][r["scores"]["definition"] == "pair"]
                .pivot_table(index=["class", "metric"], columns="data", values="value")
                .reset_index()
            )
            rows.append(
                wide.assign(
                    target=target,
                    weight=float(weight),
                    js_real=divergences(act["real"].to_numpy(), uniform)["JS distance"],
                    js_synthetic=divergences(act["synthetic"].to_numpy(), uniform)["JS distance"],
                    sedentary_real=r["sedentary_share"]["real"],
                    sedentary_synthetic=r["sedentary_share"]["synthetic"],
                    **{f"p_{c}": v for c, v in act["synthetic"].items()},
                )
            )
    return pd.concat(rows, ignore_index=True)


def _explorer_figure(grid: pd.DataFrame, target: str, weight: float):
    sel = grid[(grid["target"] == target) & (grid["weight"] == weight)]
    fig = plt.figure(figsize=(10, 7))
    grid_spec = fig.add_gridspec(2, len(METRICS), height_ratios=[1, 1.15])
    axes = [fig.add_subplot(grid_spec[0, :])]
    axes += [fig.add_subplot(grid_spec[1, i]) for i in range(len(METRICS))]
    first = sel.iloc[0]
    props = pd.Series({c[2:]: first[c] for c in grid.columns if c.startswith("p_")})
    props.plot.bar(ax=axes[0], color="#2166ac")
    axes[0].axhline(1 / len(props), color="k", ls="--", lw=0.8, label="uniform")
    axes[0].set_title(
        f"generated occupations (JS to uniform {first['js_synthetic']:.3f}; "
        f"real {first['js_real']:.3f})",
        fontsize=9,
    )
    axes[0].legend(fontsize=8)
    present = list(dict.fromkeys(sel["class"]))
    classes = [c for c in _class_order() if c in present]
    classes += [c for c in present if c not in classes]
    for ax, metric in zip(axes[1:], METRICS, strict=True):
        m = sel[sel["metric"] == metric].set_index("class").reindex(classes)
        m[["real", "synthetic"]].plot.bar(
            ax=ax, color=["#b2182b", "#2166ac"], legend=False, width=0.8
        )
        ax.axhline(IDEAL[metric], color="k", lw=0.8)
        ax.set_title(f"{metric} (ideal {IDEAL[metric]:g})", fontsize=9)
        ax.set_xlabel("")
        ax.tick_params(axis="x", labelrotation=60, labelsize=8)
    axes[1].legend(axes[1].containers, ["real", "synthetic"], fontsize=8)
    fig.tight_layout()
    return fig


def explorer(grid: pd.DataFrame):
    """Widget: pick the diversity target and weight; see the generated occupations and
    the four bias metrics (distance from their ideal) move. Slices :func:`mitigation_grid`
    (the figure is an image inside an HTML widget, so the static book shows the first state).

    Examples
    --------
    >>> import itertools
    >>> rows = [{"target": "uniform", "weight": w, "class": c, "metric": m, "real": 0.1,
    ...          "synthetic": 0.05, "js_real": 0.3, "js_synthetic": 0.2, "p_a": 0.5,
    ...          "p_b": 0.5} for w, c, m in itertools.product((0.0, 1.0), ("F", "M"), METRICS)]
    >>> w = explorer(pd.DataFrame(rows))
    >>> w.children[-1].value.startswith("<img")
    True
    """
    import ipywidgets as widgets

    targets = list(dict.fromkeys(grid["target"]))
    weights = sorted(set(grid["weight"]))
    target = widgets.Dropdown(options=targets, value=targets[0], description="target")
    weight = widgets.SelectionSlider(
        options=weights,
        value=weights[-1],
        description="diversity weight",
        style={"description_width": "initial"},
    )
    out = widgets.HTML()

    def refresh(_=None):
        out.value = figure_html(_explorer_figure(grid, target.value, weight.value))

    target.observe(refresh, names="value")
    weight.observe(refresh, names="value")
    refresh()
    return widgets.VBox([target, weight, out])
