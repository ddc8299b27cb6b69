"""The figures a chapter draws, kept for the lecture decks' projector versions.

A chapter's figure is drawn for the book's column: about 9 inches wide with 7–11 pt text. On a
1280 × 720 slide such a figure is shown at 0.8–1.6 times its PNG, and its legends come out at
7–17 px, too small for the back of a room. A PNG cannot be redrawn, so the figure itself is
kept as it was drawn:

* :func:`keep_figures` (called by :func:`fairbook_book.chapter_setup` when the book's build
  sets ``FAIRBOOK_FIGURE_DIR``) wraps matplotlib's ``print_figure`` so that every PNG drawn
  into memory (what the notebook stores) also pickles its figure, named by the SHA-256 of the
  PNG's bytes. The PNG is not changed: the chapters' outputs are the same with or without.
* :func:`stored_figure` finds the pickle of a notebook's PNG (by that hash, so it never pairs a
  figure with another chapter's or an older run's PNG), and
  :func:`fairbook_book.tooling.projector_figures.projector_png` redraws it for a slide: every
  text raised to at least ``min_px`` pixels at the size it is shown, the layout redone, the
  figure fitted into the slide's figure box. (That part lives with the decks' tooling: this
  module is imported by every chapter, and its source is part of their cache keys.)

A figure that cannot be pickled (a lambda in a formatter) or whose pickle is missing keeps its
book PNG on the slide; the decks' check says which.

Examples
--------
>>> import io, tempfile, matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> from IPython.core.pylabtools import print_figure
>>> folder = tempfile.mkdtemp()
>>> keep_figures(folder)
True
>>> fig, ax = plt.subplots()
>>> png = print_figure(fig, "png")  # what the inline backend stores in the notebook
>>> stored_figure(folder, png).suffix
'.pickle'
>>> plt.close(fig)
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from pathlib import Path

__all__ = ["FIGURE_DIR_VARIABLE", "keep_figures", "stored_figure"]

#: The environment variable naming the folder for the pickled figures (set by the build).
FIGURE_DIR_VARIABLE = "FAIRBOOK_FIGURE_DIR"

_ORIGINAL = None  # matplotlib's print_figure, while keep_figures has it wrapped


def _png_name(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest() + ".pickle"


def keep_figures(directory: str | os.PathLike[str] | None = None) -> bool:
    """Pickle every figure drawn as a PNG into memory, beside its PNG's hash, in `directory`.

    Parameters
    ----------
    directory : path, optional
        Default: ``$FAIRBOOK_FIGURE_DIR``; with neither, nothing is kept.

    Returns
    -------
    bool
        Whether figures are kept from now on (calling it again changes the folder only).
    """
    global _ORIGINAL
    folder = directory if directory is not None else os.environ.get(FIGURE_DIR_VARIABLE)
    if not folder:
        return False
    from matplotlib.backend_bases import FigureCanvasBase

    target = Path(folder)
    original = _ORIGINAL or FigureCanvasBase.print_figure

    def print_figure(self, filename, *args, **kwargs):
        result = original(self, filename, *args, **kwargs)
        # IPython's print_figure (what the inline backend stores) passes format="png"
        if isinstance(filename, io.BytesIO) and str(kwargs.get("format")).lower() == "png":
            try:
                blob = pickle.dumps(self.figure)
            except Exception:  # a lambda, a generator: the slide keeps the book's PNG
                return result
            target.mkdir(parents=True, exist_ok=True)
            path = target / _png_name(filename.getvalue())
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_bytes(blob)
            os.replace(temporary, path)
        return result

    FigureCanvasBase.print_figure = print_figure
    _ORIGINAL = original
    return True


def stored_figure(directory: str | os.PathLike[str], png: bytes) -> Path | None:
    """The pickle kept for the PNG `png` in `directory`, or None.

    Examples
    --------
    >>> stored_figure("/nonexistent", b"png bytes") is None
    True
    """
    path = Path(directory) / _png_name(png)
    return path if path.is_file() else None
