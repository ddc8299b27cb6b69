"""Chapter 04 (Kuzucu et al. 2024): the chapter's answers in plain sentences, from its runs.

:func:`key_results` reads what the chapter has computed — the synthetic data sets over seeds
(:func:`~.results.sd_seed_study`, at the paper's epochs and trained longer), the COMPAS runs
over seeds (:func:`~.runs.real_runs`) and the sensitivity study's robustness table
(:func:`~.replication.robustness_table`) — and says what they show: a model can be fair by
its predictions and unfair by its uncertainty, how large each ratio is and how much it
moves from seed to seed. How far the chapter replicates the paper is one computed line
below the findings (:func:`fairbook_book.ledger.replication_line`), not a finding. Every number
is computed from the inputs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

from ._names import group_name
from .results import uncertainty_text
from .runs import _flag, fairness_result
from .settings import PAIRS, PATTERN_POINT, UNCERTAINTY_RATIOS

__all__ = ["CHAPTER", "key_results"]

#: The chapter's notebook stem (its rows in the ledger).
CHAPTER = "04_uncertainty_fairness"


def _count(n: int, total: int) -> str:
    return f"{n} of {total}"


def _spread(values) -> str:
    """A ratio over seeds, to sit inside brackets: its median, and the range over seeds.

    Examples
    --------
    >>> _spread([3.633, 3.859, 2.521]), _spread([1.5]), _spread([1.0, 1.0])
    ('3.63, range 2.52–3.86', '1.50', '1.00 in every seed')
    >>> _spread([1.2, 1.3, float("nan")]), _spread([float("nan")])
    ('1.25, range 1.20–1.30, undefined in 1', 'undefined')
    """
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    undefined = int(values.size - finite.size)
    if finite.size == 0:
        return "undefined"
    low, high = f"{finite.min():.2f}", f"{finite.max():.2f}"
    text = f"{np.median(finite):.2f}"
    if finite.size > 1:
        text += " in every seed" if low == high and not undefined else f", range {low}–{high}"
    if undefined:
        text += f", undefined in {undefined}"
    return text


def _defendants(name: str) -> str:
    """A group of people as prose names it.

    Examples
    --------
    >>> _defendants("Black"), _defendants("younger than 25")
    ('Black defendants', 'defendants younger than 25')
    """
    if name.split(" ")[0] in ("younger", "older"):
        return f"defendants {name}"
    return f"{name} defendants"


def _pair(g0: str, g1: str) -> tuple[str, str]:
    """Two groups as prose compares them: ("Black", "White defendants"), or ("defendants
    younger than 25", "those older than 45")."""
    first, second = _defendants(g0), _defendants(g1)
    if first.endswith(" defendants") and second.endswith(" defendants"):
        return first.removesuffix(" defendants"), second
    return first, second.replace("defendants", "those", 1)


def _flags(values) -> list[str]:
    return [_flag(float(v)) for v in values]


def _median_flag(values) -> tuple[float, str]:
    """The median of the finite values and its flag (NaN and "undefined" if none)."""
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    median = float(np.median(finite)) if finite.size else float("nan")
    return median, _flag(median)


def _sd(study: pd.DataFrame, sd: str, estimator: str) -> pd.DataFrame:
    part = study[(study["estimator"] == estimator) & (study["SD"] == sd)]
    if part.empty:
        raise ValueError(f"the study has no {estimator} runs on {sd}")
    return part


def _sd1(study: pd.DataFrame, estimator: str) -> str:
    """SD1 over seeds: the accuracy ratio beside the aleatoric-uncertainty ratio."""
    part = _sd(study, "SD1", estimator)
    n = len(part)
    eacc, alea = part["F_EAcc"].to_numpy(float), part["F_Alea"].to_numpy(float)
    eacc_fair = _flags(eacc).count("fair")
    alea_unfair = _flags(alea).count("unfair")
    median_alea, alea_flag = _median_flag(alea)
    if eacc_fair == n:
        accuracy = "as accurate for the minority group as for the majority"
    else:
        accuracy = (
            f"about as accurate for the minority group as for the majority in "
            f"{_count(eacc_fair, n)} seeds"
        )
    if alea_flag == "unfair" and median_alea > 1:
        uncertainty = (
            f"yet its aleatoric uncertainty about the minority is {median_alea:.1f} times the "
            f"majority's (F_Alea {_spread(alea)}; unfair in {_count(alea_unfair, n)})"
        )
        tail = ": fair by its predictions, unfair by its uncertainty"
    else:
        uncertainty = (
            f"and its aleatoric-uncertainty ratio F_Alea is {_spread(alea)} (unfair in "
            f"{_count(alea_unfair, n)} seeds)"
        )
        tail = ""
    return (
        f"On SD1, a synthetic data set built so that the minority group sits where the two "
        f"classes meet, the {_estimator(estimator)} is {accuracy} (F_EAcc {_spread(eacc)}), "
        f"{uncertainty}{tail} (medians over {n} seeds)."
    )


def _sd2(study: pd.DataFrame, longer: pd.DataFrame, estimator: str) -> str:
    """SD2: the epistemic ratio at the paper's epochs and with longer training."""
    stated, trained = _sd(study, "SD2", estimator), _sd(longer, "SD2", estimator)
    e1, e2 = int(stated["epochs"].iloc[0]), int(trained["epochs"].iloc[0])
    f1, f2 = stated["F_Epis"].to_numpy(float), trained["F_Epis"].to_numpy(float)
    k1, k2 = _flags(f1).count("unfair"), _flags(f2).count("unfair")
    n1, n2 = len(f1), len(f2)
    if k2 / n2 > k1 / n1:
        lead = "the epistemic gap it is built to show needs a trained posterior"
    else:
        lead = "its epistemic ratio barely depends on how long the network trains"
    return (
        f"On SD2, where the minority is a sparse cloud of points, {lead}: after the paper's "
        f"{e1} epochs F_Epis is {_spread(f1)} ({n1} seeds, unfair in {k1}), after {e2} "
        f"epochs {_spread(f2)} ({n2} seeds, unfair in {k2})."
    )


def _estimator(estimator: str) -> str:
    return "BNN" if estimator == "bnn" else "deep ensemble"


#: The ratios the findings on real data read.
_REAL_RATIOS = ("F_EAcc", "F_Alea", "F_Epis")


def _ratios(runs, attribute: str, pair) -> tuple[list, dict]:
    """Each run's result for ``pair`` and, per ratio of :data:`_REAL_RATIOS`, its values."""
    results = [fairness_result(r, attribute, protected=pair[0], reference=pair[1]) for r in runs]
    values = {m: np.array([float(x.ratios[m]) for x in results]) for m in _REAL_RATIOS}
    return results, values


def _race(runs, dataset: str) -> str:
    """The first comparison (race on COMPAS): accuracy, aleatoric and epistemic ratios."""
    attribute, pair = next(iter(PAIRS[dataset].items()))
    g0, g1 = (group_name(g) for g in pair)
    results, values = _ratios(runs, attribute, pair)
    eacc, eacc_flag = _median_flag(values["F_EAcc"])
    alea, alea_flag = _median_flag(values["F_Alea"])
    epis, epis_flag = _median_flag(values["F_Epis"])
    first_words, second_words = _pair(g0, g1)
    if eacc_flag == "fair":
        accuracy = f"about as accurate for {first_words} as for {second_words}"
    else:
        accuracy = (
            f"{'less' if eacc < 1 else 'more'} accurate for {first_words} than for {second_words}"
        )
    if alea_flag == "fair":
        aleatoric = "about as unsure of the outcome for both groups"
    else:
        aleatoric = f"{'more' if alea > 1 else 'less'} unsure of the outcome for {_defendants(g0)}"
    if epis_flag == "fair":
        epistemic = "its sampled networks agree about as well on both"
    else:
        epistemic = (
            f"its sampled networks disagree {'more' if epis > 1 else 'less'} about "
            f"{_defendants(g0)}"
        )
    joint = "but" if epis_flag != alea_flag else "and"
    first = results[0].groups.loc["U_e"]
    unfair = _flags(values["F_Epis"]).count("unfair")
    return (
        f"On {dataset}, the BNN is {accuracy} (F_EAcc {_spread(values['F_EAcc'])}) and "
        f"{aleatoric} (F_Alea {_spread(values['F_Alea'])}), {joint} {epistemic} (F_Epis "
        f"{_spread(values['F_Epis'])}; unfair in {_count(unfair, len(runs))} seeds), a ratio "
        f"of two tiny means — {uncertainty_text(first[pair[0]])} against "
        f"{uncertainty_text(first[pair[1]])} in the first seed (ratios: medians over "
        f"{len(runs)} seeds)."
    )


def _others(runs, dataset: str) -> str:
    """The other comparisons of the data set: the two uncertainty ratios and their flags."""
    parts = []
    for attribute, pair in list(PAIRS[dataset].items())[1:]:
        _, values = _ratios(runs, attribute, pair)
        said = []
        for ratio in ("F_Alea", "F_Epis"):
            _, flag = _median_flag(values[ratio])
            said.append(f"{ratio} {_spread(values[ratio])}, {flag}")
        first_words, second_words = _pair(group_name(pair[0]), group_name(pair[1]))
        parts.append(f"{first_words} against {second_words}: {said[0]}; {said[1]}")
    listed = "; ".join(f"({chr(97 + i)}) {p}" for i, p in enumerate(parts))
    return (
        f"{dataset}'s other comparisons, by the two uncertainty ratios: {listed} (medians "
        f"over {len(runs)} seeds)."
    )


def _kind(claim: str) -> str | None:
    if any(m in claim for m in UNCERTAINTY_RATIOS):
        return "uncertainty"
    if any(m in claim for m in {p.removesuffix("_y0").removesuffix("_y1") for p in PATTERN_POINT}):
        return "point"
    return None


def _robustness(robust: pd.DataFrame, threshold: float) -> str:
    """The sensitivity study: which kind of the paper's flags survive its settings."""
    counts = {"point": [0, 0], "uncertainty": [0, 0]}
    for (source, claim), share in robust["share"].items():
        kind = _kind(claim)
        if not str(source).startswith("Table") or kind is None:
            continue
        counts[kind][1] += 1
        counts[kind][0] += bool(share >= threshold)
    (rp, np_), (ru, nu) = counts["point"], counts["uncertainty"]
    runs = int(robust["runs"].max())
    cells = sum(str(c).startswith("cell: ") for c in robust.columns)
    share_p = rp / np_ if np_ else np.nan
    share_u = ru / nu if nu else np.nan
    if share_u < share_p:
        tail = (
            f"but only {_count(ru, nu)} on uncertainty ratios, which move with training "
            "settings the paper does not state"
        )
    else:
        tail = f"and {_count(ru, nu)} on uncertainty ratios"
    return (
        f"Uncertainty ratios are fragile: in the sensitivity study ({runs} runs over {cells} "
        f"readings of the paper's unstated training settings), {_count(rp, np_)} of the "
        f"paper's fair/unfair flags on point-based ratios hold in at least "
        f"{threshold * 100:.0f} % of runs, {tail}."
    )


def key_results(
    *,
    study: pd.DataFrame,
    longer: pd.DataFrame,
    compas,
    robust: pd.DataFrame,
    tables,
    budget: str = "fast",
    chapter: str = CHAPTER,
    estimator: str = "bnn",
    dataset: str = "COMPAS",
    threshold: float = 0.9,
) -> KeyResults:
    """The chapter's Key results, from the runs and tables it has computed.

    Parameters
    ----------
    study, longer : DataFrame
        :func:`~.results.sd_seed_study` at the paper's epochs and with longer training (one
        row per estimator, data set and seed, with every ratio).
    compas : list of Run
        The BNN's runs on COMPAS, one per seed (:func:`~.runs.real_runs`).
    robust : DataFrame
        :func:`~.replication.robustness_table` of the sensitivity study.
    tables : mapping of str to DataFrame
        The chapter's replication tables, as its ledger cell collects them; they make the
        replication line (:func:`fairbook_book.ledger.replication_line`).
    budget : str, default "fast", keyword-only
        The profile the numbers come from.
    chapter : str, keyword-only
        The chapter's notebook stem.
    estimator : str, default "bnn", keyword-only
        Whose synthetic runs are reported.
    dataset : str, default "COMPAS", keyword-only
        The data set of ``compas`` (its comparisons, :data:`~.settings.PAIRS`).
    threshold : float, default 0.9, keyword-only
        The share of runs under which a claim counts as robust.

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
        Five findings — SD1 (fair by predictions, unfair by aleatoric uncertainty), SD2
        (epistemic uncertainty needs training), COMPAS race, COMPAS's other comparisons,
        and how fragile the uncertainty flags are — each with its spread over seeds; and
        the replication line.
    """
    return _box(
        _sd1(study, estimator),
        _sd2(study, longer, estimator),
        _race(compas, dataset),
        _others(compas, dataset),
        _robustness(robust, threshold),
        replication=replication_line(tables, chapter=chapter, budget=budget),
    )
