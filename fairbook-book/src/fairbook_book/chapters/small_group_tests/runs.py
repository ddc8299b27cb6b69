"""Runs of "How small is too small?": the reference rates, and every test's size and power.

Everything here is an exact finite sum (:mod:`fairbook.stats.group_tests`) except the
bootstrap, which is simulated with its Monte Carlo standard error. The reference rates come
from the book's data: COMPAS with ProPublica's predictions (positive = predicted low risk;
the reference is white defendants) and Adult with Gaussian naive Bayes trained on its
training file and scored on its test file (positive = predicted income above 50K; the
reference is white people).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from fairbook.confusion import confusion_counts
from fairbook.data import compas_propublica_predictions, load_compas
from fairbook.data.predictions import adult_race_predictions
from fairbook.stats import group_tests

from .settings import DATASETS, METRICS

__all__ = ["base_rates", "size_power", "TEST_NAMES"]

#: How the tables name each test.
TEST_NAMES = {
    "match": "MATCH",
    "match_normal": "MATCH (normal)",
    "wald": "Wald",
    "score": "score",
    "fisher": "Fisher",
    "boschloo": "Boschloo",
    "bayes": "Bayes",
    "bootstrap": "bootstrap",
}


def _predictions(dataset: str):
    if dataset == "compas":
        return compas_propublica_predictions(load_compas(preprocess="zafar2017"))
    if dataset == "adult":
        return adult_race_predictions("nb")
    raise ValueError(f"dataset must be one of {sorted(DATASETS)}, got {dataset!r}")


def base_rates() -> pd.DataFrame:
    """The reference group's PPR, prevalence and TPR in each data set.

    Returns
    -------
    pandas.DataFrame
        One row per data set: ``reference``, its size ``N in data``, ``PPR``,
        ``prevalence`` (share of actual positives, TPR's denominator) and ``TPR``.
    """
    rows = []
    for dataset, reference in DATASETS.items():
        y_true, y_pred, race = _predictions(dataset)
        keep = np.asarray(race) == reference
        tp, fn, fp, tn = confusion_counts(y_true[keep], y_pred[keep]).tolist()
        n = tp + fn + fp + tn
        rows.append(
            {
                "dataset": dataset,
                "reference": reference,
                "N in data": n,
                "PPR": (tp + fp) / n,
                "prevalence": (tp + fn) / n,
                "TPR": tp / (tp + fn),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")


def _references(config: dict) -> tuple:
    return (config["reference_size"], None)


def size_power(rates: pd.DataFrame, config: dict, *, progress: bool = True) -> pd.DataFrame:
    """Exact size and power of every test, per data set, metric, reference and group size.

    The group's rate is the reference's (size) or ``effect`` below it (power at each of
    ``config["effects"]``). For PPR the sum runs over the group's and the reference's counts;
    for TPR over the group's actual positives ``m`` too (given ``m >= 1``; ``hole`` is
    ``P(m = 0)``). ``reference`` is ``"N = …"`` (a reference sample, the audit's case) or
    ``"known"`` (its rate known exactly, MATCH's assumption; Fisher and Boschloo need a sample
    and are left out). The bootstrap's rows are simulated: ``mc_se`` is the standard error of
    its size (NaN for the exact tests).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset metric reference n test size power … hole mc_se``.

    Examples
    --------
    >>> rates = pd.DataFrame({"PPR": [0.5], "prevalence": [0.5], "TPR": [0.8]},
    ...                      index=pd.Index(["toy"], name="dataset"))
    >>> config = {"alpha": 0.05, "effects": (0.2,), "reference_size": 100, "sizes": (10,),
    ...           "ratio_sizes": (10,), "n_boot": 50, "n_datasets": 50, "seed": 0}
    >>> grid = size_power(rates, config, progress=False)
    >>> wald = grid.query("metric == 'PPR' and test == 'wald' and reference == 'known'")
    >>> round(wald["size"].item(), 4)
    0.1094
    """
    alpha, effects = config["alpha"], tuple(config["effects"])
    cells = [
        (dataset, metric, reference, n)
        for dataset in rates.index
        for metric in METRICS
        for reference in _references(config)
        for n in (config["sizes"] if metric == "PPR" else config["ratio_sizes"])
    ]
    rows = []
    for dataset, metric, reference, n in tqdm(cells, desc="size and power", disable=not progress):
        rate = float(rates.loc[dataset, metric])
        prevalence = float(rates.loc[dataset, "prevalence"])
        groups = [rate] + [max(0.0, rate - effect) for effect in effects]
        label = "known" if reference is None else f"N = {reference:,}"
        for test in group_tests.TESTS:
            if reference is None and test in group_tests.TWO_SAMPLE_TESTS:
                continue
            hole, se = (1.0 - prevalence) ** n if metric == "TPR" else 0.0, np.nan
            if test == "bootstrap":
                probabilities = []
                for k, group in enumerate(groups):
                    estimate, error = group_tests.bootstrap_rejection_probability(
                        n,
                        p_group=group,
                        p_ref=rate,
                        N=reference,
                        prevalence=prevalence if metric == "TPR" else None,
                        alpha=alpha,
                        n_boot=config["n_boot"],
                        n_datasets=config["n_datasets"],
                        seed=config["seed"] + k,
                    )
                    probabilities.append(estimate)
                    se = error if k == 0 else se
            elif metric == "PPR":
                probabilities = group_tests.rejection_probability(
                    test, n, p_group=groups, p_ref=rate, N=reference, alpha=alpha
                )
            else:
                probabilities, hole = group_tests.ratio_rejection_probability(
                    test,
                    n,
                    prevalence=prevalence,
                    p_group=groups,
                    p_ref=rate,
                    N=reference,
                    alpha=alpha,
                )
            row = {
                "dataset": dataset,
                "metric": metric,
                "reference": label,
                "n": n,
                "test": test,
                "size": float(probabilities[0]),
            }
            row.update(
                {
                    f"power at −{e:g}": float(p)
                    for e, p in zip(effects, probabilities[1:], strict=True)
                }
            )
            row.update({"hole": hole, "mc_se": se})
            rows.append(row)
    return pd.DataFrame(rows)
