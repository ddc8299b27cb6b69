"""SynthBias (seed 001): 31,728 gender-occupation coreference sentences, online only.

The data live only in the ``apple/ml-synthbias`` repository (``data/synthbias_data.csv``,
CC BY-NC-ND 4.0: read-only use; the book neither ships nor modifies the file — the
derived columns below are computed in memory). :func:`load_synthbias` reads a copy
you already have, or with ``download=True`` fetches the file of a pinned commit into
the data cache. Its SHA-256 is not pinned (it could not be fetched where the book was
written); :func:`validate_synthbias` checks its schema and counts instead.

The CSV has the columns ``type`` (``type1``: ambiguous even for people, no correct
answer; ``type2``: resolvable), ``sample`` (the sentence), ``occ_1`` (the referent in
type 2, arbitrary in type 1), ``occ_2``, ``pronoun`` (he, she, his, her, him, himself,
herself — sometimes capitalised) and ``is_stereotypical`` (``True``/``False`` in type 2,
``ambiguous`` in type 1). Every sentence was generated with a counterpart whose pronoun
has the other gender; :func:`synthbias_pairs` finds these minimal pairs again.

Counts (repository README, update of 3 July 2025, after removing 28 duplicates from
the paper's 31,756): 31,728 rows; type 1: 14,120; type 2: 8,804 pro- and 8,804
anti-stereotypical.
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .cache import cache_dir, write_atomic
from .errors import DataSourceError
from .winobias import PRONOUN_GENDER

__all__ = [
    "SYNTHBIAS_COLUMNS",
    "SYNTHBIAS_COMMIT",
    "SYNTHBIAS_COUNTS",
    "SYNTHBIAS_EXPECTED_PAIRS",
    "SYNTHBIAS_RAW_COLUMNS",
    "SYNTHBIAS_URL",
    "load_synthbias",
    "read_synthbias",
    "synthbias_available",
    "synthbias_pairs",
    "synthbias_path",
    "validate_synthbias",
]

#: Commit of ``apple/ml-synthbias`` whose CSV :func:`load_synthbias` downloads.
SYNTHBIAS_COMMIT = "6db30ffb573178f578df60c5a604a205e47f8d56"
#: Where the CSV of that commit is.
SYNTHBIAS_URL = (
    "https://raw.githubusercontent.com/apple/ml-synthbias/"
    f"{SYNTHBIAS_COMMIT}/data/synthbias_data.csv"
)
#: Columns of the CSV, in order.
SYNTHBIAS_RAW_COLUMNS = ("type", "sample", "occ_1", "occ_2", "pronoun", "is_stereotypical")
#: Expected counts of the released file (README, 3 July 2025).
SYNTHBIAS_COUNTS = {"rows": 31_728, "type1": 14_120, "type2_pro": 8_804, "type2_anti": 8_804}
#: Minimal pairs expected in the release (the issue's count; not in the README). The
#: pairing rule is ours, so a count more than 1 % away only warns.
SYNTHBIAS_EXPECTED_PAIRS = 15_858

#: Columns of :func:`read_synthbias` (shared with :func:`fairbook.data.load_winobias`
#: where they mean the same).
SYNTHBIAS_COLUMNS = (
    "pair_id", "type", "stereotype", "row", "sentence", "occupation_1", "occupation_2",
    "referent", "reference", "referent_position", "pronoun", "pronoun_gender",
)  # fmt: skip

_WORD = re.compile(r"\w+|[^\w\s]")


def synthbias_path() -> Path:
    """Where :func:`load_synthbias` looks for the CSV: ``<data cache>/synthbias/...``.

    Examples
    --------
    >>> synthbias_path().name
    'synthbias_data.csv'
    """
    return cache_dir() / "synthbias" / "synthbias_data.csv"


def synthbias_available(file: str | Path | None = None) -> bool:
    """Whether a SynthBias CSV is at ``file`` (default :func:`synthbias_path`).

    Examples
    --------
    >>> synthbias_available("/nonexistent.csv")
    False
    """
    return Path(file if file is not None else synthbias_path()).is_file()


def _mention(sentence: str, occupation: str) -> int:
    found = re.search(r"\b" + re.escape(occupation) + r"s?\b", sentence, re.IGNORECASE)
    return found.start() if found else -1


def _neutral(sentence: str) -> str:
    words = _WORD.findall(sentence.lower())
    return " ".join("<pronoun>" if w in PRONOUN_GENDER else w for w in words)


def synthbias_pairs(frame: pd.DataFrame) -> pd.Series:
    """Recover the minimal pairs: same type, same two occupations, same sentence once
    gendered pronouns are masked, opposite pronoun gender.

    Rows of one key are paired male-with-female in file order; a row without a partner
    (e.g. when a duplicate was removed from one side only) gets ``<NA>``.

    Parameters
    ----------
    frame : DataFrame
        With ``type``, ``sentence``, ``occupation_1``, ``occupation_2``,
        ``pronoun_gender`` (as from :func:`read_synthbias`).

    Returns
    -------
    Series of str (``"sb-00001"`` …) or ``<NA>``, aligned with ``frame``.

    Examples
    --------
    >>> f = pd.DataFrame({"type": [2, 2, 2], "sentence": ["The nurse met the cook; he sat.",
    ...     "The nurse met the cook; she sat.", "The cook met the nurse; he sat."],
    ...     "occupation_1": ["nurse"] * 3, "occupation_2": ["cook"] * 3,
    ...     "pronoun_gender": ["male", "female", "male"]})
    >>> synthbias_pairs(f).tolist()
    ['sb-00001', 'sb-00001', <NA>]
    """
    keys = list(
        zip(
            frame["type"],
            frame["sentence"].map(_neutral),
            [
                tuple(sorted(p))
                for p in zip(frame["occupation_1"], frame["occupation_2"], strict=True)
            ],
            strict=True,
        )
    )
    queues: dict = {}
    for position, (key, gender) in enumerate(zip(keys, frame["pronoun_gender"], strict=True)):
        queues.setdefault(key, {"male": [], "female": []})[gender].append(position)
    pair = np.full(len(frame), None, dtype=object)
    number = 0
    for key in dict.fromkeys(keys):  # first-appearance order
        males, females = queues[key]["male"], queues[key]["female"]
        for a, b in zip(males, females, strict=False):
            number += 1
            pair[a] = pair[b] = f"sb-{number:05d}"
    return pd.Series(pair, index=frame.index, dtype="string", name="pair_id")


def read_synthbias(file) -> pd.DataFrame:
    """Parse a file in the SynthBias CSV format into the book's columns.

    Parameters
    ----------
    file : str, path or file-like
        CSV with the header :data:`SYNTHBIAS_RAW_COLUMNS`.

    Returns
    -------
    DataFrame
        Columns :data:`SYNTHBIAS_COLUMNS`: ``type`` (1 or 2), ``stereotype`` (``'pro'``,
        ``'anti'``, or ``'ambiguous'`` for type 1), ``row`` (line in the file, from 0),
        ``sentence``, ``occupation_1``/``occupation_2`` (the two candidates in order of
        mention), ``referent`` (type 2: ``occ_1``; type 1: ``<NA>``), ``reference`` (the
        option a prediction is scored against: the referent in type 2; in type 1, which
        has no correct answer, the alphabetically first candidate — UCerF of a pair does
        not depend on this choice, since flipping it flips both members' sign),
        ``referent_position`` (1/2 or ``<NA>``), ``pronoun`` (lower case),
        ``pronoun_gender`` and the recovered ``pair_id``.

    Raises
    ------
    ValueError
        Naming the first problem: missing columns, an unknown type, pronoun or
        ``is_stereotypical`` value, or a type/stereotype mismatch.

    Examples
    --------
    >>> import io
    >>> csv = ("type,sample,occ_1,occ_2,pronoun,is_stereotypical\\n"
    ...        "type2,The cook thanked the nurse for her help.,nurse,cook,her,True\\n")
    >>> read_synthbias(io.StringIO(csv)).loc[0, ["stereotype", "referent", "pronoun"]].tolist()
    ['pro', 'nurse', 'her']
    """
    raw = pd.read_csv(file, dtype=str, keep_default_na=False)
    missing = [c for c in SYNTHBIAS_RAW_COLUMNS if c not in raw.columns]
    if missing:
        raise ValueError(
            f"not a SynthBias file: missing columns {missing}; expected "
            f"{list(SYNTHBIAS_RAW_COLUMNS)}"
        )
    types = raw["type"].str.strip().str.lower()
    bad = sorted(set(types) - {"type1", "type2"})
    if bad:
        raise ValueError(f"unknown type values {bad[:5]}; expected 'type1' or 'type2'")
    pronoun = raw["pronoun"].str.strip().str.lower()
    bad = sorted(set(pronoun) - set(PRONOUN_GENDER))
    if bad:
        raise ValueError(f"unknown pronouns {bad[:5]}; expected one of {sorted(PRONOUN_GENDER)}")
    stereo = (
        raw["is_stereotypical"]
        .str.strip()
        .str.lower()
        .map({"true": "pro", "false": "anti", "ambiguous": "ambiguous"})
    )
    if stereo.isna().any():
        bad = sorted(set(raw.loc[stereo.isna(), "is_stereotypical"]))[:5]
        raise ValueError(
            f"unknown is_stereotypical values {bad}; expected True, False or ambiguous"
        )
    type_ = types.str[-1].astype(int)
    mismatch = (type_ == 1) != (stereo == "ambiguous")
    if mismatch.any():
        row = int(np.flatnonzero(mismatch.to_numpy())[0])
        raise ValueError(
            f"row {row}: type1 rows must be 'ambiguous' and type2 rows "
            f"True/False, got {raw.loc[row, 'type']!r} with "
            f"{raw.loc[row, 'is_stereotypical']!r}"
        )
    sentence = raw["sample"].str.strip()
    occ_1, occ_2 = raw["occ_1"].str.strip(), raw["occ_2"].str.strip()
    first_1 = [_mention(s, o) for s, o in zip(sentence, occ_1, strict=True)]
    first_2 = [_mention(s, o) for s, o in zip(sentence, occ_2, strict=True)]
    swap = np.array([b >= 0 and (a < 0 or b < a) for a, b in zip(first_1, first_2, strict=True)])
    frame = pd.DataFrame(
        {
            "type": type_,
            "stereotype": stereo,
            "row": np.arange(len(raw)),
            "sentence": sentence,
            "occupation_1": np.where(swap, occ_2, occ_1),
            "occupation_2": np.where(swap, occ_1, occ_2),
            "referent": occ_1.where(type_ == 2).astype("string"),
            "pronoun": pronoun,
            "pronoun_gender": pronoun.map(PRONOUN_GENDER),
        }
    )
    alphabetical = [min(a, b) for a, b in zip(occ_1, occ_2, strict=True)]
    frame["reference"] = np.where(type_ == 2, occ_1, alphabetical)
    position = np.where(frame["reference"] == frame["occupation_1"], 1, 2)
    frame["referent_position"] = pd.array(np.where(type_ == 2, position, 0), dtype="Int64")
    frame.loc[type_ == 1, "referent_position"] = pd.NA
    frame["pair_id"] = synthbias_pairs(frame)
    return frame[list(SYNTHBIAS_COLUMNS)]


def validate_synthbias(frame: pd.DataFrame, expected: dict | None = None) -> dict:
    """Check the counts of a loaded SynthBias table.

    Parameters
    ----------
    frame : DataFrame
        From :func:`read_synthbias`.
    expected : dict, optional
        Counts to require (default :data:`SYNTHBIAS_COUNTS`); ``{}`` checks nothing.

    Returns
    -------
    dict
        The observed ``rows``, ``type1``, ``type2_pro``, ``type2_anti``, ``pairs`` and
        ``unpaired``.

    Raises
    ------
    ValueError
        Listing every count that differs from ``expected``.

    Warns
    -----
    UserWarning
        With the release counts, when the recovered pairs are more than 1 % away from
        :data:`SYNTHBIAS_EXPECTED_PAIRS`.

    Examples
    --------
    >>> f = pd.DataFrame({"type": [2, 2], "stereotype": ["pro", "anti"],
    ...                   "pair_id": ["sb-00001", "sb-00001"]})
    >>> validate_synthbias(f, expected={"rows": 2})["pairs"]
    1
    """
    expected = SYNTHBIAS_COUNTS if expected is None else expected
    observed = {
        "rows": len(frame),
        "type1": int((frame["type"] == 1).sum()),
        "type2_pro": int(((frame["type"] == 2) & (frame["stereotype"] == "pro")).sum()),
        "type2_anti": int(((frame["type"] == 2) & (frame["stereotype"] == "anti")).sum()),
        "pairs": int(frame["pair_id"].nunique()),
        "unpaired": int(frame["pair_id"].isna().sum()),
    }
    wrong = {k: (observed.get(k), v) for k, v in expected.items() if observed.get(k) != v}
    if wrong:
        raise ValueError(
            "SynthBias counts differ from the release: "
            + ", ".join(f"{k} = {got} (expected {want})" for k, (got, want) in wrong.items())
        )
    if expected is SYNTHBIAS_COUNTS and abs(observed["pairs"] - SYNTHBIAS_EXPECTED_PAIRS) > (
        0.01 * SYNTHBIAS_EXPECTED_PAIRS
    ):
        warnings.warn(
            f"recovered {observed['pairs']} SynthBias minimal pairs, expected about "
            f"{SYNTHBIAS_EXPECTED_PAIRS}",
            stacklevel=2,
        )
    return observed


def load_synthbias(
    file: str | Path | None = None, *, download: bool = False, validate: bool = True
) -> pd.DataFrame:
    """Load SynthBias from a local copy (or download it once with ``download=True``).

    Parameters
    ----------
    file : str or path, optional
        A copy of ``synthbias_data.csv``. Default :func:`synthbias_path` (the data cache).
    download : bool, default False
        If the file is missing, download :data:`SYNTHBIAS_URL` (needs internet) into
        :func:`synthbias_path`. The book never downloads it on its own.
    validate : bool, default True
        Require the release counts (:func:`validate_synthbias`).

    Returns
    -------
    DataFrame
        As :func:`read_synthbias`; ``attrs["counts"]`` holds the observed counts.

    Raises
    ------
    DataSourceError
        When the file is missing (and not downloaded) or the download fails.
    ValueError
        When the file is not in the SynthBias format or its counts differ.

    Examples
    --------
    >>> from fairbook.data import load_synthbias
    >>> sb = load_synthbias(download=True)  # doctest: +SKIP
    >>> sb.attrs["counts"]["rows"]  # doctest: +SKIP
    31728
    """
    target = Path(file) if file is not None else synthbias_path()
    if not target.is_file():
        if not download or file is not None:
            raise DataSourceError(
                f"SynthBias is not at {target}. It is not on PyPI; with internet, "
                f"load_synthbias(download=True) fetches {SYNTHBIAS_URL} (CC BY-NC-ND "
                "4.0: read-only, non-commercial use), or save the file there yourself."
            )
        from . import url

        data = url.download_url(SYNTHBIAS_URL)
        read_synthbias(io.BytesIO(data))  # refuse to cache something that is not SynthBias
        write_atomic(target, data)
    frame = read_synthbias(target)
    counts = validate_synthbias(frame, expected=None if validate else {})
    frame.attrs["counts"] = counts
    return frame
