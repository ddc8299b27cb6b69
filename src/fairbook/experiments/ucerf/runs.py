"""Chapter 05 (seed 001, UCerF): sampling WinoBias pairs, building prompts and scoring them with
the language model.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from .settings import FORMATS

__all__ = ["build_prompts", "sample_pairs", "score_frame"]


def sample_pairs(frame: pd.DataFrame, n_pairs: int | None, *, seed: int = 0) -> pd.DataFrame:
    """Keep ``n_pairs`` minimal pairs, half from each type (seeded); None keeps all.

    Examples
    --------
    >>> f = pd.DataFrame({"pair_id": list("aabbccdd"), "type": [1] * 4 + [2] * 4})
    >>> sorted(sample_pairs(f, 2).pair_id.unique().tolist())
    ['b', 'd']
    """
    if n_pairs is None:
        return frame.reset_index(drop=True)
    if n_pairs < 1:
        raise ValueError(f"n_pairs must be positive or None, got {n_pairs}")
    types = sorted(frame["type"].unique())
    rng = np.random.default_rng(seed)
    keep = []
    for index, type_ in enumerate(types):
        share = n_pairs // len(types) + (1 if index < n_pairs % len(types) else 0)
        ids = frame.loc[frame["type"] == type_, "pair_id"].dropna().unique()
        keep.extend(rng.choice(ids, size=min(share, len(ids)), replace=False).tolist())
    return frame[frame["pair_id"].isin(keep)].reset_index(drop=True)


def build_prompts(frame: pd.DataFrame, fmt: str) -> tuple[list[str], list[list[str]]]:
    """Prefixes and options of every row in one of :data:`FORMATS`.

    Examples
    --------
    >>> row = pd.DataFrame({"sentence": ["The nurse met the cook."], "pronoun": ["she"],
    ...                     "occupation_1": ["nurse"], "occupation_2": ["cook"]})
    >>> build_prompts(row, "intrinsic")
    (['The nurse met the cook. Here, "she" refers to the'], [[' nurse', ' cook']])
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")
    spec = FORMATS[fmt]
    records = frame[["sentence", "pronoun", "occupation_1", "occupation_2"]].to_dict("records")
    prefixes = [spec["prefix"].format(**r) for r in records]
    options = [[o.format(**r) for o in spec["options"]] for r in records]
    return prefixes, options


def score_frame(
    lm,
    frame: pd.DataFrame,
    formats: Iterable[str] = ("intrinsic", "mcq"),
    *,
    gold: str = "referent",
    batch_size: int = 32,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Score every sentence of ``frame`` in each format with ``lm``.

    Parameters
    ----------
    lm : fairbook.lm.LanguageModel
    frame : DataFrame
        WinoBias (:func:`fairbook.data.load_winobias`) or SynthBias rows: ``sentence``,
        ``pronoun``, ``occupation_1``, ``occupation_2``, ``pair_id`` and the ``gold``
        column.
    gold : str, default 'referent'
        Column naming the option a prediction is scored against (SynthBias type 1 has
        no referent: use ``'reference'``).

    Returns
    -------
    DataFrame
        ``frame``'s columns for each format, plus ``format``, ``gold_position`` (1/2),
        ``male_position`` (which candidate is the male-stereotyped occupation; 0 when
        not exactly one is), ``logprob_1``, ``logprob_2`` (summed log-probabilities of
        the two options).
    """
    from fairbook.data.winobias import MALE_OCCUPATIONS
    from fairbook.lm import score_options

    male_1 = frame["occupation_1"].isin(MALE_OCCUPATIONS).to_numpy()
    male_2 = frame["occupation_2"].isin(MALE_OCCUPATIONS).to_numpy()
    male_position = np.where(male_1 & ~male_2, 1, np.where(male_2 & ~male_1, 2, 0))

    gold_position = np.where(frame[gold].to_numpy() == frame["occupation_1"].to_numpy(), 1, 2)
    other = frame[gold].to_numpy() != frame["occupation_2"].to_numpy()
    if (other & (gold_position == 2)).any():
        raise ValueError(f"column {gold!r} names neither candidate in some rows")
    parts = []
    for fmt in formats:
        prefixes, options = build_prompts(frame, fmt)
        scores = score_options(
            lm,
            prefixes,
            options,
            groups=list(frame["pair_id"]),
            batch_size=batch_size,
            progress=progress,
        )
        part = frame.copy()
        part.insert(0, "format", fmt)
        part["gold_position"] = gold_position
        part["male_position"] = male_position
        part["logprob_1"], part["logprob_2"] = scores.logprob[:, 0], scores.logprob[:, 1]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)
