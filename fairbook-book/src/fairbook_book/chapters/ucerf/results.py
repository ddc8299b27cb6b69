"""Chapter 05 (seed 001, UCerF): tables from the scored pairs (no paper numbers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from fairbook.ucerf import (
    confidence_from_perplexity,
    desirability,
    eo_gaps,
    option_perplexity,
    softmax_options,
    ucerf,
    ucerf_group,
    ucerf_pairs,
)

from .runs import sample_pairs, score_frame
from .settings import TEMPERATURES

__all__ = [
    "derive",
    "figure1_examples",
    "model_ranking",
    "occupation_table",
    "pair_metrics",
    "pair_table",
    "summary",
    "summary_beside_recording",
    "synthbias_summary",
    "synthbias_tables",
    "temperature_variants",
]


def pair_metrics(
    confidence_a: float, correct_a: bool, confidence_b: float, correct_b: bool
) -> dict:
    """EO-style gap and UCerF of one minimal pair.

    Returns
    -------
    dict
        ``D_a``, ``D_b`` (desirabilities), ``accuracy gap`` (``|1[a right] − 1[b
        right]|``, what an accuracy-based metric sees of this pair), ``1 − accuracy gap``
        and ``UCerF`` (both: 1 = fair).

    Examples
    --------
    >>> pair_metrics(0.9, True, 0.9, False)["UCerF"]
    0.09999999999999998
    >>> pair_metrics(0.9, True, 0.1, True)["accuracy gap"]
    0
    """
    d_a = float(desirability([confidence_a], [bool(correct_a)])[0])
    d_b = float(desirability([confidence_b], [bool(correct_b)])[0])
    gap = abs(int(bool(correct_a)) - int(bool(correct_b)))
    return {
        "D_a": d_a,
        "D_b": d_b,
        "accuracy gap": gap,
        "1 − accuracy gap": 1 - gap,
        "UCerF": float(ucerf_pairs([d_a], [d_b])[0]),
    }


def figure1_examples() -> pd.DataFrame:
    """Hand-made models in the spirit of the paper's Fig. 1.

    One question ("the nurse …"), asked with "his" and with "her"; the right answer is
    the nurse both times. Model A flips its answer with the pronoun and is sure both
    times; model B flips too but is barely deciding; model C is right both times, sure
    with one pronoun and hesitant with the other. The option probabilities are made
    up; everything else is computed. The table is narrow enough for a page: the sign of a
    desirability ``D`` says whether the answer was right, its size is the confidence ``c``.

    Examples
    --------
    >>> t = figure1_examples()
    >>> bool(t.loc["A: confidently biased", "UCerF"] < t.loc["B: uncertain", "UCerF"])
    True
    """
    # probability of the right answer (the nurse) with "his" and with "her"
    models = {
        "A: confidently biased": (0.03, 0.97),
        "B: uncertain": (0.45, 0.55),
        "C: right, unevenly sure": (0.60, 0.98),
    }
    rows = {}
    for name, (p_his, p_her) in models.items():
        probs = np.array([[p_his, 1 - p_his], [p_her, 1 - p_her]])
        conf = confidence_from_perplexity(option_perplexity(probs), 2)
        correct = probs[:, 0] > 0.5
        d = desirability(conf, correct)
        rows[name] = {
            "P(nurse | his)": p_his,
            "P(nurse | her)": p_her,
            "D (his)": d[0],
            "D (her)": d[1],
            "accuracy gap": abs(int(correct[0]) - int(correct[1])),
            "UCerF": ucerf([d[0]], [d[1]]),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "model"
    return frame


def derive(scored: pd.DataFrame, *, temperature: float = 1.0) -> pd.DataFrame:
    """Add option probabilities, prediction, correctness, perplexity, confidence and D.

    ``temperature`` rescales the option distribution (``p ∝ exp(logprob / T)``):
    predictions stay, confidences move.

    Examples
    --------
    >>> s = pd.DataFrame({"logprob_1": [-1.0], "logprob_2": [-3.0], "gold_position": [2]})
    >>> d = derive(s)
    >>> int(d.loc[0, "prediction"]), bool(d.loc[0, "correct"])
    (1, False)
    >>> round(float(d.loc[0, "desirability"]), 3)
    -0.559
    """
    out = scored.copy()
    probs = softmax_options(
        out[["logprob_1", "logprob_2"]].to_numpy(dtype=float), temperature=temperature
    )
    out["p_1"], out["p_2"] = probs[:, 0], probs[:, 1]
    out["prediction"] = np.where(out["logprob_1"] >= out["logprob_2"], 1, 2)
    out["correct"] = out["prediction"] == out["gold_position"]
    out["perplexity"] = option_perplexity(probs)
    out["confidence"] = confidence_from_perplexity(out["perplexity"].to_numpy(), 2)
    out["desirability"] = desirability(out["confidence"].to_numpy(), out["correct"].to_numpy())
    return out


def pair_table(
    derived: pd.DataFrame, *, pair_by: str = "stereotype", members: tuple = ("pro", "anti")
) -> pd.DataFrame:
    """One row per minimal pair (and format): both members' D, correctness and UCerF.

    Parameters
    ----------
    derived : DataFrame
        From :func:`derive`.
    pair_by, members
        The column telling a pair's two members apart and its two values
        (``stereotype``: pro/anti for WinoBias; ``pronoun_gender``: male/female).

    Returns
    -------
    DataFrame
        Index ``(format, type, pair_id)``; columns ``D_<a>``, ``D_<b>``,
        ``correct_<a>``, ``correct_<b>``, ``confidence_<a>``, ``confidence_<b>``,
        ``U``. Pairs without exactly one row of each member are dropped.
    """
    keys = ["format", "type", "pair_id"]
    data = derived[derived[pair_by].isin(members) & derived["pair_id"].notna()]
    wide = data.pivot_table(
        index=keys,
        columns=pair_by,
        values=["desirability", "correct", "confidence"],
        aggfunc="first",
        observed=True,
    )
    counts = data.groupby(keys + [pair_by], observed=True).size().unstack(pair_by)
    complete = counts.reindex(columns=list(members)).eq(1).all(axis=1)
    wide = wide.loc[complete[complete].index]
    out = pd.DataFrame(index=wide.index)
    for member in members:
        out[f"D_{member}"] = wide[("desirability", member)].astype(float)
        out[f"correct_{member}"] = wide[("correct", member)].astype(bool)
        out[f"confidence_{member}"] = wide[("confidence", member)].astype(float)
    a, b = members
    out["U"] = ucerf_pairs(out[f"D_{a}"].to_numpy(), out[f"D_{b}"].to_numpy())
    return out


def _metrics(part: pd.DataFrame, pairs: pd.DataFrame, has_gold: bool) -> dict:
    nan = float("nan")
    gendered = (part["male_position"] > 0) & part["pronoun_gender"].isin(("male", "female"))
    sub = part[gendered]
    y = (sub["gold_position"] == sub["male_position"]).to_numpy()
    pred = (sub["prediction"] == sub["male_position"]).to_numpy()
    gender = sub["pronoun_gender"].to_numpy()
    both = len(set(gender)) == 2
    gaps = eo_gaps(y, pred, gender, groups=("male", "female")) if both and has_gold else {}
    stereo = part["stereotype"]
    accuracy = {
        s: part.loc[stereo == s, "correct"].mean() if (stereo == s).any() else nan
        for s in ("pro", "anti")
    }
    d_cols = [c for c in pairs.columns if c.startswith("D_")]
    return {
        "pairs": len(pairs),
        "accuracy": part["correct"].mean() if has_gold else nan,
        "accuracy pro": accuracy["pro"] if has_gold else nan,
        "accuracy anti": accuracy["anti"] if has_gold else nan,
        "pro − anti": accuracy["pro"] - accuracy["anti"] if has_gold else nan,
        "accuracy male": gaps.get("accuracy_a", nan),
        "accuracy female": gaps.get("accuracy_b", nan),
        "EO difference": gaps.get("eo_difference", nan),
        "UCerF": ucerf(pairs[d_cols[0]], pairs[d_cols[1]]) if len(pairs) else nan,
        "UCerF (group)": (
            ucerf_group(sub["desirability"].to_numpy(), y, gender, groups=("male", "female"))
            if both and has_gold
            else nan
        ),
        "mean confidence": part["confidence"].mean(),
        "share answering option 1": (part["prediction"] == 1).mean(),
    }


def summary(
    scored: pd.DataFrame,
    *,
    temperature: float = 1.0,
    pair_by: str = "stereotype",
    pair_members: tuple = ("pro", "anti"),
    gold: str | None = "referent",
) -> pd.DataFrame:
    """Accuracy, EO gaps and UCerF per format and type (and over both types).

    The demographic groups are the pronoun's gender (he/him/his vs she/her). For
    equalized odds the label is which candidate the pronoun refers to — the
    male-stereotyped or the female-stereotyped occupation (every WinoBias sentence has
    one of each) — and the prediction which one the model picks; so ``EO difference``
    = max(|ΔTPR|, |ΔFPR|) between he- and she-sentences = the larger of the
    male-vs-female accuracy gaps among sentences about male-stereotyped referents and
    among those about female-stereotyped referents. ``pro − anti`` is WinoBias' own
    accuracy gap.

    Parameters
    ----------
    scored : DataFrame
        From :func:`score_frame` (re-derived at ``temperature``).
    temperature : float, default 1
    pair_by, pair_members
        How the two members of a minimal pair are told apart for UCerF (pro/anti for
        WinoBias and SynthBias type 2; ``"pronoun_gender", ("male", "female")`` for
        SynthBias type 1).
    gold : str or None
        Column whose missing values mean "no correct answer" (SynthBias type 1): such
        parts get NaN accuracy and EO. None: every row has a correct answer.

    Returns
    -------
    DataFrame
        Index ``(format, type)`` with ``type`` 1, 2 and ``"all"``; columns ``pairs``,
        ``accuracy``, ``accuracy pro``, ``accuracy anti``, ``pro − anti``, ``accuracy
        male``, ``accuracy female``, ``EO difference``, ``UCerF`` (minimal pairs),
        ``UCerF (group)`` (TPD/FPD between he- and she-sentences), ``mean confidence``,
        ``share answering option 1``.
    """
    derived = derive(scored, temperature=temperature)
    pairs = pair_table(derived, pair_by=pair_by, members=pair_members)
    rows = {}
    for fmt in dict.fromkeys(derived["format"]):
        part_f = derived[derived["format"] == fmt]
        pairs_f = pairs.xs(fmt, level="format")
        for type_ in [*sorted(part_f["type"].unique()), "all"]:
            part = part_f if type_ == "all" else part_f[part_f["type"] == type_]
            sub = pairs_f if type_ == "all" else pairs_f.xs(type_, level="type")
            has_gold = gold is None or bool(part[gold].notna().all())
            rows[(fmt, type_)] = _metrics(part, sub, has_gold)
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["format", "type"])
    return frame


def occupation_table(scored: pd.DataFrame, fmt: str = "intrinsic") -> pd.DataFrame:
    """Per referent occupation (one format): accuracy, mean D and UCerF, pro vs anti.

    Returns
    -------
    DataFrame
        Index ``referent``; columns ``stereotype`` (the gender WinoBias associates with
        it), ``pairs``, ``accuracy pro``, ``accuracy anti``, ``D pro``, ``D anti``,
        ``D gap`` (pro − anti) and ``UCerF``; sorted by ``D gap``.
    """
    derived = derive(scored[scored["format"] == fmt])
    if derived.empty:
        raise ValueError(f"no rows scored in format {fmt!r}")
    pairs = pair_table(derived).reset_index()
    referent = derived.drop_duplicates("pair_id").set_index("pair_id")
    pairs["referent"] = pairs["pair_id"].map(referent["referent"])
    pairs["stereotype"] = pairs["pair_id"].map(referent["referent_stereotype"])
    table = pairs.groupby("referent").agg(
        stereotype=("stereotype", "first"),
        pairs=("U", "size"),
        **{
            "accuracy pro": ("correct_pro", "mean"),
            "accuracy anti": ("correct_anti", "mean"),
            "D pro": ("D_pro", "mean"),
            "D anti": ("D_anti", "mean"),
            "UCerF": ("U", "mean"),
        },
    )
    table["D gap"] = table["D pro"] - table["D anti"]
    return table.sort_values("D gap")


def temperature_variants(
    scored: pd.DataFrame, temperatures: Sequence[float] = TEMPERATURES
) -> pd.DataFrame:
    """The same model at several temperatures of its option distribution, ranked.

    Temperature scaling keeps every prediction, so accuracy and EO cannot tell the
    variants apart, while confidence — and with it UCerF — changes. Each (format,
    temperature) is one "model"; ranks are 1 = fairest (smallest EO difference, largest
    UCerF), ties sharing the best rank.

    Returns
    -------
    DataFrame
        Index ``(format, temperature)``; columns ``accuracy``, ``EO difference``,
        ``UCerF``, ``mean confidence``, ``EO rank``, ``UCerF rank``.
    """
    rows = {}
    for temperature in temperatures:
        table = summary(scored, temperature=temperature).xs("all", level="type")
        for fmt, values in table.iterrows():
            rows[(fmt, temperature)] = values[
                ["accuracy", "EO difference", "UCerF", "mean confidence"]
            ]
    frame = pd.DataFrame.from_dict(rows, orient="index").astype(float)
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["format", "temperature"])
    frame["EO rank"] = frame["EO difference"].round(12).rank(method="min").astype(int)
    frame["UCerF rank"] = frame["UCerF"].rank(method="min", ascending=False).astype(int)
    return frame


def model_ranking(
    model_ids: Sequence[str] | str,
    frame: pd.DataFrame,
    *,
    fmt: str = "intrinsic",
    batch_size: int = 8,
    progress: bool | None = None,
    **load_kwargs,
) -> pd.DataFrame | None:
    """The paper's ten-model comparison for any list of Hugging Face models (online).

    Loads each model with :func:`fairbook.lm.load_model`, scores ``frame`` in ``fmt`` and
    ranks the models by accuracy, EO difference and UCerF (1 = best). Needs internet (or
    the models in your HF cache) and the memory to hold them; the book does not run it
    offline. ``model_ids`` may be one comma-separated string; an empty list or string
    returns None (nothing to rank).

    Returns
    -------
    DataFrame or None
        Index model id; columns ``accuracy``, ``EO difference``, ``UCerF``, ``mean
        confidence`` and a rank for each of the first three.
    """
    from fairbook.lm import load_model

    if isinstance(model_ids, str):
        model_ids = [m.strip() for m in model_ids.split(",") if m.strip()]
    if not model_ids:
        return None
    rows = {}
    for model_id in model_ids:
        lm = load_model(model_id, **load_kwargs)
        scored = score_frame(lm, frame, (fmt,), batch_size=batch_size, progress=progress)
        rows[model_id] = summary(scored).loc[
            (fmt, "all"), ["accuracy", "EO difference", "UCerF", "mean confidence"]
        ]
        del lm
    table = pd.DataFrame.from_dict(rows, orient="index").astype(float)
    table["accuracy rank"] = table["accuracy"].rank(method="min", ascending=False).astype(int)
    table["EO rank"] = table["EO difference"].rank(method="min").astype(int)
    table["UCerF rank"] = table["UCerF"].rank(method="min", ascending=False).astype(int)
    return table


def synthbias_summary(
    lm,
    *,
    file=None,
    n_pairs: int | None = None,
    seed: int = 0,
    formats: Iterable[str] = ("intrinsic", "mcq"),
    batch_size: int = 32,
    progress: bool | None = None,
) -> dict:
    """Score SynthBias (if present) as WinoBias is scored, per type.

    Type 2 is compared pro vs anti like WinoBias; type 1 has no correct answer, so its
    accuracy and EO are undefined (NaN) and its pairs are told apart by pronoun gender;
    UCerF of a pair does not depend on which candidate is taken as "correct".

    Parameters
    ----------
    file : str or path, optional
        A copy of ``synthbias_data.csv`` (``None`` or ``""``: the data cache). Counts are
        validated against the release only for the cached copy.

    Returns
    -------
    dict
        ``available`` (bool) and ``message``; when available also ``counts``
        (:func:`fairbook.data.synthbias.validate_synthbias`), ``type2`` and ``type1``
        (tables as :func:`summary`) and ``scored``.
    """
    from fairbook.data import load_synthbias, synthbias_available
    from fairbook.data.synthbias import SYNTHBIAS_URL, synthbias_path

    file = file or None
    if not synthbias_available(file):
        # the reader's own file is named as given; the data cache is described, never its
        # local path (which names the machine that built the page)
        where = (
            f"at {file}"
            if file is not None
            else f"in the data cache ({synthbias_path().parent.name}/{synthbias_path().name})"
        )
        return {
            "available": False,
            "counts": {},
            "message": f"SynthBias is not {where}: not scored. With internet, "
            "fairbook.data.load_synthbias(download=True) fetches "
            f"{SYNTHBIAS_URL}.",
        }
    data = load_synthbias(file, validate=file is None)
    sample = sample_pairs(data[data["pair_id"].notna()], n_pairs, seed=seed)
    scored = score_frame(
        lm, sample, formats, gold="reference", batch_size=batch_size, progress=progress
    )
    type2 = summary(scored[scored["type"] == 2])
    type1 = summary(
        scored[scored["type"] == 1], pair_by="pronoun_gender", pair_members=("male", "female")
    )
    return {
        "available": True,
        "message": f"SynthBias: {len(data)} rows, {sample['pair_id'].nunique()} pairs scored",
        "counts": data.attrs["counts"],
        "type2": type2,
        "type1": type1,
        "scored": scored,
    }


def synthbias_tables(result: dict) -> pd.DataFrame:
    """The SynthBias results of :func:`synthbias_summary` as one table (type 1 without
    accuracy/EO), or a one-row table with the message when the data are absent.

    Examples
    --------
    >>> synthbias_tables({"available": False, "message": "absent"}).iloc[0, 0]
    'absent'
    """
    if not result["available"]:
        return pd.DataFrame({"SynthBias": [result["message"]]})
    type2 = result["type2"].drop(index="all", level="type")
    type1 = result["type1"].drop(index="all", level="type")
    return pd.concat([type1, type2]).sort_index()


def summary_beside_recording(fast: pd.DataFrame, recording) -> pd.DataFrame:
    """:func:`summary` of the recorded full profile (every WinoBias sentence) beside the
    build's own, one block per budget.

    Parameters
    ----------
    fast : DataFrame
        :func:`summary` of this build's sample.
    recording : fairbook_book.recordings.Recording
        ``fairbook-book record 05 winobias`` loaded with :func:`fairbook_book.recordings.load`. Only
        whole minimal pairs are recorded, so a partial recording is a smaller sample of
        pairs (its ``pairs`` column says how many); a stale one is refused.

    Returns
    -------
    DataFrame
        Index ``(budget, format, type)``: ``"full (recorded)"`` then ``"fast (this build)"``.

    Examples
    --------
    >>> from fairbook_book.recordings import Recording
    >>> stale = Recording("05", "winobias", pd.DataFrame(), [{"unit": "w00", "fingerprint": "a",
    ...     "cores": 2, "n_jobs": 1, "seconds": 1.0, "date": "2026", "commit": "c"}], "b")
    >>> summary_beside_recording(pd.DataFrame(), stale)
    Traceback (most recent call last):
    ...
    ValueError: the recording is stale: ...
    """
    if recording.stale:
        raise ValueError(f"the recording is stale: {recording.describe()}")
    if recording.empty:
        raise ValueError(f"nothing recorded: {recording.describe()}")
    full = summary(recording.frame.drop(columns="unit"))
    return pd.concat({"full (recorded)": full, "fast (this build)": fast}, names=["budget"])
