"""Projector versions of the chapters' figures, for the lecture decks.

A chapter's figure is drawn for the book's column: about 9 inches wide with 7–11 pt text. On a
1280 × 720 slide such a figure is shown at 0.8–1.6 times its PNG, and its legends come out at
7–17 px, too small for the back of a room. A PNG cannot be redrawn, so the figure itself is
kept as it was drawn:

* :func:`keep_figures` (called by :func:`fairbook_book.chapter_setup` when the book's build
  sets ``FAIRBOOK_FIGURE_DIR``) wraps matplotlib's ``print_figure`` so that every PNG drawn
  into memory (what the notebook stores) also pickles its figure, named by the SHA-256 of the
  PNG's bytes. The PNG is not changed: the chapters' outputs are the same with or without.
* :func:`stored_figure` finds the pickle of a notebook's PNG (by that hash, so it never pairs a
  figure with another chapter's or an older run's PNG), and :func:`projector_png` redraws it
  for a slide: every text raised to at least ``min_px`` pixels at the size it is shown, the
  layout redone, the figure fitted into the slide's figure box.

A figure that cannot be pickled (a lambda in a formatter) or whose pickle is missing keeps its
book PNG on the slide; the decks' check says which.

Examples
--------
>>> import io, matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots(figsize=(8.9, 6.4))
>>> _ = ax.plot([0, 1], [0, 1], label="a line"); _ = ax.legend(fontsize=7)
>>> shown = projector_png(fig, box=(1220, 590), min_px=18)
>>> shown.smallest_px >= 18, shown.width <= 1220, shown.height <= 590
(True, True, True)
>>> plt.close(fig)
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FIGURE_DIR_VARIABLE", "Projected", "keep_figures", "projector_png", "stored_figure"]

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


@dataclass(frozen=True)
class Projected:
    """A figure redrawn for a slide: its PNG, size (px), dpi and smallest text (px)."""

    png: bytes
    width: int
    height: int
    dpi: float
    smallest_px: float


def _texts(figure):
    from matplotlib.text import Text

    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]


def _render(figure, dpi: float) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=dpi, bbox_inches="tight")
    return out.getvalue()


def _size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def projector_png(
    figure,
    *,
    box: tuple[int, int] = (1220, 590),
    min_px: float = 18.0,
    max_scale: float = 1.6,
    rounds: int = 4,
) -> Projected:
    """Redraw `figure` (a matplotlib figure or the path of its pickle) to fit `box` with every
    text at least `min_px` pixels high.

    The dpi is chosen so that the drawn figure fits the box (at most `max_scale` times 100
    dpi); every text smaller than ``min_px`` at that dpi is raised to it, the layout is redone
    (``tight_layout`` unless the figure has a layout engine), and the figure drawn again; a
    larger text can make the figure larger, so the dpi is fitted again (`rounds` times at
    most; the text size is raised with it).

    Returns
    -------
    Projected
    """
    if isinstance(figure, (str, os.PathLike)):
        figure = pickle.loads(Path(figure).read_bytes())
    width, height = _size(_render(figure, 100.0))
    dpi = 100.0 * min(box[0] / width, box[1] / height, max_scale)
    png, fit = b"", 1.0
    for round_ in range(rounds):
        points = min_px * 72.0 / dpi
        for text in _texts(figure):
            if text.get_fontsize() < points:
                text.set_fontsize(points)
        for axes in figure.axes:
            axes.tick_params(labelsize=max(points, _tick_size(axes)))
        if figure.get_layout_engine() is None:
            try:
                figure.tight_layout()
            except Exception:  # tight_layout gives up on some layouts: keep the figure's own
                pass
        png = _render(figure, dpi)
        width, height = _size(png)
        fit = min(box[0] / width, box[1] / height)
        if fit >= 0.999 or round_ == rounds - 1:
            break
        dpi *= fit
    # the pixels of the smallest text where the slide shows it (scaled down if still too big)
    smallest = min((t.get_fontsize() for t in _texts(figure)), default=points) * dpi / 72.0
    return Projected(png, width, height, dpi, smallest * min(1.0, fit))


def _tick_size(axes) -> float:
    labels = axes.get_xticklabels() + axes.get_yticklabels()
    return max((t.get_fontsize() for t in labels), default=0.0)
