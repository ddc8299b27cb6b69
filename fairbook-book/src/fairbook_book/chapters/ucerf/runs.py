"""Chapter 05 (seed 001, UCerF): sampling WinoBias pairs, building prompts and scoring them with
the language model.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np
import pandas as pd

from fairbook_book.recordings import Recordable

from .settings import FORMATS

__all__ = [
    "RECORDINGS",
    "WINOBIAS_CHUNK_PAIRS",
    "WINOBIAS_RECORDING",
    "build_prompts",
    "sample_pairs",
    "score_frame",
    "winobias_recorded_unit",
    "winobias_recorded_units",
]


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


# ------------------------------------------ every WinoBias sentence: `fairbook record 05 winobias`
#: Minimal pairs per recorded unit: the 1,584 pairs of WinoBias in 16 chunks (198 sentences,
#: about a minute of SmolLM2 on 2 cores per format).
WINOBIAS_CHUNK_PAIRS = 99


def _pair_chunks(frame: pd.DataFrame) -> list[np.ndarray]:
    ids = frame["pair_id"].drop_duplicates().to_numpy()
    return [ids[i : i + WINOBIAS_CHUNK_PAIRS] for i in range(0, len(ids), WINOBIAS_CHUNK_PAIRS)]


def winobias_recorded_units(config: dict, *, frame: pd.DataFrame | None = None) -> list[str]:
    """One unit per chunk of :data:`WINOBIAS_CHUNK_PAIRS` minimal pairs, in the data's order.

    Examples
    --------
    >>> f = pd.DataFrame({"pair_id": np.repeat(np.arange(200), 2)})
    >>> winobias_recorded_units({}, frame=f)
    ['w00', 'w01', 'w02']
    """
    if frame is None:
        from fairbook.data import load_winobias

        frame = load_winobias()
    return [f"w{i:02d}" for i in range(len(_pair_chunks(frame)))]


@functools.lru_cache(maxsize=1)
def _recording_model(threads: int, seed: int):
    from fairbook.lm import load_model

    return load_model("", threads=threads, seed=seed)


def winobias_recorded_unit(unit: str, config: dict) -> pd.DataFrame:
    """Score one chunk of WinoBias pairs (unit ``"wNN"``) with SmolLM2 in ``config``'s formats.

    The table is :func:`score_frame`'s for that chunk: every sentence in every format with
    the two options' log-probabilities, from which the chapter's tables
    (:func:`fairbook_book.chapters.ucerf.summary` …) are computed at full scale. The model is
    loaded once per process, with the chapter's threads and seed; a chunk's numbers depend on
    its batches (prefixes are sorted by length within the chunk), so the unit, not the whole
    data set, is what a re-run reproduces bit for bit.
    """
    from fairbook.data import load_winobias

    frame = load_winobias()
    chunks = _pair_chunks(frame)
    index = int(unit.removeprefix("w"))
    if not unit.startswith("w") or not 0 <= index < len(chunks):
        raise ValueError(f"no WinoBias unit {unit!r}: units are w00 to w{len(chunks) - 1:02d}")
    chunk = frame[frame["pair_id"].isin(chunks[index])].reset_index(drop=True)
    lm = _recording_model(int(config["threads"]), int(config["seed"]))
    return score_frame(
        lm, chunk, config["formats"], batch_size=int(config["batch_size"]), progress=False
    )


#: The chapter's recording: every WinoBias sentence (the full profile's ``n_pairs=None``).
WINOBIAS_RECORDING = Recordable(
    name="winobias",
    units=winobias_recorded_units,
    run=winobias_recorded_unit,
    depends=(
        "fairbook.lm",
        "fairbook.data.winobias",
        "fairbook_book.chapters.ucerf.runs",
        "fairbook_book.chapters.ucerf.settings",
    ),
    parameters=("seed", "threads", "batch_size", "formats"),
    description="SmolLM2 on all 3,168 WinoBias sentences, both formats, 99 pairs per unit",
)

#: Everything ``fairbook record 05`` can record, by name.
RECORDINGS = {WINOBIAS_RECORDING.name: WINOBIAS_RECORDING}
