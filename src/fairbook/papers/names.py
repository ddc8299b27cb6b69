"""The papers' names as a reader sees them: author and year.

In code and in the ledger's ids a paper is ``"seed NNN"``, the number of its text in the
book's sources. A book about random seeds cannot call its papers "seeds" in prose, so every
reader-facing sentence names them with :func:`paper_name`.

Examples
--------
>>> paper_name("seed 003")
'Briscoe 2024'
>>> paper_name("Larson et al. 2016")
'Larson et al. 2016'
"""

from __future__ import annotations

__all__ = ["PAPER_NAMES", "PAPER_TITLES", "paper_name"]

#: ``"seed NNN"`` → the paper's author(s) and year, as the book's prose cites it.
PAPER_NAMES = {
    "seed 000": "Kuzucu et al. 2024",
    "seed 001": "Wang et al. 2025",
    "seed 003": "Briscoe 2024",
    "seed 004": "Qian et al. 2021",
}

#: ``"seed NNN"`` → the paper's short title.
PAPER_TITLES = {
    "seed 000": "Uncertainty as a Fairness Measure",
    "seed 001": "Is your model fairly certain? Uncertainty-aware fairness evaluation for LLMs",
    "seed 003": "The Art of Fairness (thesis)",
    "seed 004": "Are my deep learning systems fair? An empirical study of fixed-seed training",
}


def paper_name(paper: str) -> str:
    """The reader-facing name of `paper` (a ``"seed NNN"`` id, or a citation kept as is).

    Parameters
    ----------
    paper : str
        ``"seed 000"`` … ``"seed 004"``, or any other work's citation (returned unchanged).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        A ``"seed NNN"`` id the book does not know.

    Examples
    --------
    >>> paper_name("seed 000"), paper_name("seed 004")
    ('Kuzucu et al. 2024', 'Qian et al. 2021')
    """
    if not isinstance(paper, str):
        raise TypeError(f"a paper is named by a string, got {type(paper).__name__}")
    if paper.startswith("seed "):
        try:
            return PAPER_NAMES[paper]
        except KeyError:
            raise ValueError(
                f"unknown paper {paper!r}; the book's papers are {', '.join(PAPER_NAMES)}"
            ) from None
    return paper
