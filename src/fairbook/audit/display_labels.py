"""Group names as every human-readable output shows them: distinct whenever the names are.

Two groups can look identical on a page while their names differ: ``café`` composed (NFC)
and decomposed (NFD), ``a`` and ``a `` (a trailing space), a no-break space for a space, a
zero-width character, or two long names cut to the same first characters. :func:`shown_names`
gives each group of an attribute a text that is safe to print and differs from every other
group's text, also once an HTML page has collapsed runs of spaces:

* control, format and invisible characters, and every space other than U+0020, are escaped
  (``\\x1b``, ``\\u200b``, ``\\xa0``); a run of spaces keeps one and escapes the rest;
* a name with a leading or trailing space (or an empty name) is quoted: ``'a '``;
* a name not in Unicode normal form NFC is marked `` [not NFC]``;
* a name longer than ``width`` is cut with ``…``; where two cuts coincide, the cut keeps the
  beginning and a window around the first character where the names differ
  (``Hispani…ino, born abroad``);
* any collision left (a name that *reads* like another's escaped form) gets `` #2``, ``#3``.

The JSON report keeps the exact names; only the text report, the HTML page and the figures'
labels go through here.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

__all__ = ["NOT_NFC", "shown_names"]

#: Appended to a name that is not in Unicode normal form NFC (e.g. ``café`` decomposed).
NOT_NFC = " [not NFC]"

_ELLIPSIS = "…"


def _escape(ch: str) -> str:
    return ch.encode("unicode_escape").decode("ascii")


def _visible(label) -> str:
    if isinstance(label, np.generic):
        label = label.item()
    text = str(label)
    out = []
    previous = ""
    for ch in text:
        category = unicodedata.category(ch)
        if ch == " ":
            out.append("\\x20" if previous == " " else " ")
        elif category[0] == "C" or category[0] == "Z":
            out.append(_escape(ch))
        else:
            out.append(ch)
        previous = ch
    shown = "".join(out)
    if text == "" or text[0] == " " or text[-1] == " ":
        shown = f"'{shown}'"
    if not unicodedata.is_normalized("NFC", text):
        shown += NOT_NFC
    return shown


def _key(text: str) -> str:
    """What a reader can tell apart: NFC, runs of spaces as one (as HTML shows them)."""
    return re.sub(" +", " ", unicodedata.normalize("NFC", text))


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + _ELLIPSIS


def _cut_at(text: str, width: int, at: int) -> str:
    """``text`` in ``width`` characters: its beginning, ``…``, and a window that shows
    position ``at`` (where it differs from a name that would otherwise look the same)."""
    if len(text) <= width or at < width - 1:
        return _cut(text, width)
    head = max(1, (width - 1) // 3)
    room = width - head - 1
    start = max(head, min(at - 4, len(text) - room))  # a little context before ``at``
    tail = text[start : start + room]
    if start + room < len(text):
        tail = tail[:-1] + _ELLIPSIS
    return text[:head] + _ELLIPSIS + tail


def _first_difference(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def _collisions(shown: list[str]) -> list[list[int]]:
    clusters: dict[str, list[int]] = {}
    for i, text in enumerate(shown):
        clusters.setdefault(_key(text), []).append(i)
    return [members for members in clusters.values() if len(members) > 1]


def shown_names(labels, *, width: int | None = None) -> list[str]:
    """Printable, pairwise distinct texts for the group labels of one attribute.

    Parameters
    ----------
    labels : sequence
        The distinct labels of one attribute (text, numbers, booleans).
    width : int, optional
        The most characters a text may take (at least 8); None: never cut.

    Returns
    -------
    list of str
        One text per label, in order; distinct labels give texts that differ even after
        Unicode NFC normalisation and collapsing runs of spaces.

    Examples
    --------
    >>> names = shown_names(["caf\\u00e9", "cafe\\u0301", "a", "a "])
    >>> names[0] == "caf\\u00e9", names[1].endswith(" [not NFC]"), names[2:]
    (True, True, ['a', "'a '"])
    >>> shown_names(["Hispanic or Latino, born in the USA", "Hispanic or Latino, born abroad"],
    ...             width=24)
    ['Hispani… born in the USA', 'Hispani…ino, born abroad']
    >>> shown_names(["x\\x1b[2J", 3, "no\\u00a0break"])
    ['x\\\\x1b[2J', '3', 'no\\\\xa0break']
    """
    labels = list(labels)
    if width is not None and width < 8:
        raise ValueError(f"width must be at least 8, got {width}")
    full = [_visible(label) for label in labels]
    shown = list(full)
    if width is not None:
        shown = [_cut(text, width) for text in full]
        for members in _collisions(shown):
            for i in members:
                others = [full[j] for j in members if full[j] != full[i]]
                at = max((_first_difference(full[i], o) for o in others), default=0)
                shown[i] = _cut_at(full[i], width, at)
    for members in _collisions(shown):  # what is left: number the later ones
        taken = {_key(text) for text in shown}
        for k, i in enumerate(members[1:], start=2):
            candidate, extra = f"{shown[i]} #{k}", k
            while _key(candidate) in taken:
                extra += 1
                candidate = f"{shown[i]} #{extra}"
            if width is not None and len(candidate) > width:
                suffix = candidate[len(shown[i]) :]
                candidate = _cut(full[i], width - len(suffix)) + suffix
            taken.add(_key(candidate))
            shown[i] = candidate
    return shown
