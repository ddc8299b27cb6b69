"""The top of a chapter: its answers in plain sentences, and the parameters it ran with.

A student opens a chapter to learn its answer, not to dig for it under forty tables. Every
chapter therefore shows, right after its learning goals,

* **Key results** (:class:`KeyResults`): the chapter's answers as a few plain sentences,
  each with its number, *computed* by the chapter's own runs. The cell that computes them
  sits where the numbers exist (after the runs); :func:`show_key_results` glues the box
  under the name :data:`GLUE_NAME` (myst-nb's ``glue``), and the chapter's second markdown
  cell places it near the top of the built page with ``{glue:md}``. In JupyterLab the
  computing cell shows the same box where it runs;
* **Parameters used** (:func:`parameters_used`): the profile and every parameter the
  chapter's results and exercises depend on (``alpha``, ``min_gap``, seeds, sizes), so an
  exercise that says "with the chapter's ``min_gap``" can be done by hand.

Examples
--------
>>> results = key_results(
...     "OFI and DI disagree on 3 of 10 pairs.",
...     "Every metric has a hole at n = 1.",
... )
>>> print(results.to_markdown().splitlines()[0])
```{admonition} Key results
>>> print(parameters_used(profile="fast", alpha=0.05, seeds=range(3)).to_markdown())
| parameter | value |
|---|---|
| profile | fast |
| alpha | 0.05 |
| seeds | 0, 1, 2 |
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from fairbook_book.formatting import plain

__all__ = [
    "GLUE_NAME",
    "KeyResults",
    "ParametersUsed",
    "key_results",
    "listed",
    "parameters_used",
    "show_key_results",
]

#: The myst-nb glue name under which a chapter's Key results are stored.
GLUE_NAME = "key-results"
#: CSS classes of the box (``key-results`` is what the page check looks for).
BOX_CLASSES = "tip key-results"


def _sentence(text: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a key result is a sentence (str), got {type(text).__name__}")
    text = " ".join(text.split())
    if not text:
        raise ValueError("a key result cannot be empty")
    if text[-1] not in ".?!)":
        raise ValueError(f"a key result is a whole sentence ending in '.': {text!r}")
    return text


#: Words that make a finding a tally of replicated numbers; findings say what the method
#: shows, and the one computed replication line (``replication=``) says how far the chapter
#: replicates its paper.
_TALLY_WORDS = re.compile(
    r"\breplicat\w*|\bnumbers? the paper prints\b|\bprinted numbers?\b", re.IGNORECASE
)


_DOC_ROLE = re.compile(r"\{doc\}`([^`<]*?)\s*<[^`>]+>`")


@dataclass(frozen=True)
class KeyResults:
    """A chapter's answers, one plain sentence each (see the module docstring), and the
    one computed line that says how far the chapter replicates its paper."""

    findings: tuple[str, ...]
    title: str = "Key results"
    replication: str | None = None

    def to_markdown(self) -> str:
        """The box as MyST markdown: a tip admonition with one bullet per finding, and the
        replication line below them."""
        bullets = "\n".join(f"- {finding}" for finding in self.findings)
        tail = f"\n\n{self.replication}" if self.replication else ""
        return f"```{{admonition}} {self.title}\n:class: {BOX_CLASSES}\n\n{bullets}{tail}\n```\n"

    def _repr_markdown_(self) -> str:
        # shown where the cell runs (JupyterLab), which resolves no Sphinx role: a link to a
        # book page becomes its text; the glued copy for the book keeps the role
        return _DOC_ROLE.sub(r"*\1* (a page of the built book)", self.to_markdown())

    def __repr__(self) -> str:
        lines = [self.title, *(f"- {finding}" for finding in self.findings)]
        return "\n".join(lines + ([self.replication] if self.replication else []))


def key_results(
    *findings: str, title: str = "Key results", replication: str | None = None
) -> KeyResults:
    """The Key results box of a chapter.

    Parameters
    ----------
    *findings : str
        One plain sentence per answer, with its number (formatted by the caller); at least
        one. Whitespace is collapsed. A finding says what the method shows on the data; it
        never counts replicated numbers (words such as "replicate" or "printed numbers" are
        refused): that is the `replication` line's job.
    title : str, keyword-only
        The box's title.
    replication : str, keyword-only
        The chapter's replication line, computed from its ledger rows
        (:func:`fairbook_book.ledger.replication_line`); shown below the findings.

    Returns
    -------
    KeyResults

    Raises
    ------
    ValueError
        No finding, an empty one, one that does not end a sentence, or one that counts
        replicated numbers.
    TypeError
        A finding that is not a string.

    Examples
    --------
    >>> key_results("Two of three claims hold.").findings
    ('Two of three claims hold.',)
    """
    if not findings:
        raise ValueError("key_results needs at least one finding")
    sentences = tuple(_sentence(f) for f in findings)
    for sentence in sentences:
        if _TALLY_WORDS.search(sentence):
            raise ValueError(
                "a key result says what the method shows, not how many numbers replicate "
                f"(pass that as replication=): {sentence!r}"
            )
    line = None if replication is None else _sentence(replication)
    return KeyResults(sentences, title=title, replication=line)


def listed(names) -> str:
    """Names as a sentence lists them: ``a``, ``a and b``, ``a, b and c`` (for key results).

    Examples
    --------
    >>> listed(["TPR"]), listed(["TPR", "FPR"]), listed(["TPR", "FPR", "MCC"]), listed([])
    ('TPR', 'TPR and FPR', 'TPR, FPR and MCC', '')
    """
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def show_key_results(results: KeyResults) -> KeyResults:
    """Glue `results` for the top of the built page and return them (shown in JupyterLab).

    The glued copy is MyST markdown under :data:`GLUE_NAME`; the chapter's top places it
    with ``{glue:md}`` and ``:format: myst``. Outside a kernel the glue is skipped.

    Examples
    --------
    >>> show_key_results(key_results("Two of three claims hold.")).findings
    ('Two of three claims hold.',)
    """
    if not isinstance(results, KeyResults):
        raise TypeError(f"show_key_results takes KeyResults, got {type(results).__name__}")
    from IPython import get_ipython

    if get_ipython() is not None:
        from IPython.display import Markdown
        from myst_nb import glue

        glue(GLUE_NAME, Markdown(results.to_markdown()), display=False)
    return results


def _value_text(value) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "none"
    if isinstance(value, (bool, np.bool_, int, float, np.integer, np.floating)):
        return plain(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} = {_value_text(v)}" for k, v in value.items())
    if isinstance(value, Iterable):
        items = [_value_text(v) for v in value]
        return ", ".join(items) if items else "none"
    return str(value)


@dataclass(frozen=True)
class ParametersUsed:
    """The parameters a chapter ran with, as a two-column table."""

    rows: tuple[tuple[str, str], ...]

    def to_markdown(self) -> str:
        """A markdown table (``|`` in a value is escaped)."""
        lines = ["| parameter | value |", "|---|---|"]
        for name, value in self.rows:
            lines.append(f"| {name} | {value.replace('|', chr(92) + '|')} |")
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        # folded: a reader meets the chapter's idea first, and opens the parameters when an
        # exercise or a rerun needs them
        return (
            f"```{{admonition}} Parameters used in this run ({len(self.rows)})\n"
            f":class: dropdown parameters-used\n\n{self.to_markdown()}\n```\n"
        )

    def __repr__(self) -> str:
        width = max(len(name) for name, _ in self.rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in self.rows)


def parameters_used(
    *, config: Mapping | None = None, keys: Iterable[str] = (), **parameters
) -> ParametersUsed:
    """The "parameters used" table shown at the top of a chapter.

    Parameters
    ----------
    config : mapping, keyword-only
        The chapter's settings; `keys` are read from it.
    keys : iterable of str, keyword-only
        Names of `config` shown after `parameters`, in this order, each with its value in
        `config` (a missing one is a ``KeyError``).
    **parameters
        Name → value, shown first, in the order given. Numbers print as the book prints them
        (:func:`fairbook_book.formatting.plain`), sequences and ranges as a comma list, mappings
        as ``key = value`` pairs, None as "none".

    Returns
    -------
    ParametersUsed

    Examples
    --------
    >>> parameters_used(profile="fast", min_group_size=100).rows
    (('profile', 'fast'), ('min_group_size', '100'))
    >>> parameters_used(profile="fast", config={"alpha": 0.05, "n": 3}, keys=["alpha"]).rows
    (('profile', 'fast'), ('alpha', '0.05'))
    """
    keys = list(keys)
    if keys and config is None:
        raise ValueError("parameters_used reads keys from a config: pass config=")
    shown = {**parameters, **{key: config[key] for key in keys}}
    if not shown:
        raise ValueError("parameters_used needs at least one parameter")
    return ParametersUsed(tuple((name, _value_text(v)) for name, v in shown.items()))
