"""Projector versions of the chapters' figures, for the lecture decks
(:mod:`fairbook_book.tooling.slides`).

A chapter's figure is drawn for the book's column: about 9 inches wide with 7–11 pt text. On a
1280 × 720 slide its PNG is shown at 0.8–1.6 times its size, and its legends come out at 7–17
px. The book's build keeps each figure it draws (:mod:`fairbook_book.projector`);
:func:`projector_png` redraws one for a slide: every text raised to at least ``min_px`` pixels
at the size it is shown, the layout redone (constrained layout), the figure fitted into the
slide's figure box. Text placed at data coordinates (an annotation beside a point) keeps its
place and can now overlap a neighbour; the decks' screenshots are where to look.

Examples
--------
>>> import matplotlib
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

import io
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Projected", "projector_png"]


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
        points = min_px * 1.01 * 72.0 / dpi  # 1 % to spare: the last fit may shrink it
        for text in _texts(figure):
            if text.get_fontsize() < points:
                text.set_fontsize(points)
        for axes in figure.axes:
            axes.tick_params(labelsize=max(points, _tick_size(axes)))
        _relayout(figure)
        _legends_where_they_cover_least(figure)
        png = _render(figure, dpi)
        width, height = _size(png)
        fit = min(box[0] / width, box[1] / height)
        if fit >= 0.999 or round_ == rounds - 1:
            break
        dpi *= fit
    # the pixels of the smallest text where the slide shows it (scaled down if still too big)
    smallest = min((t.get_fontsize() for t in _texts(figure)), default=points) * dpi / 72.0
    return Projected(png, width, height, dpi, smallest * min(1.0, fit))


def _legends_where_they_cover_least(figure) -> None:
    """A legend inside its axes is moved to matplotlib's "best" place (the one that covers
    the fewest data points): the larger text makes it larger than its chosen corner had
    room for. A legend anchored elsewhere (below the axes, beside the figure) stays."""
    for axes in figure.axes:
        legend = axes.get_legend()
        if legend is not None and legend.get_bbox_to_anchor() == axes.bbox:
            legend.set_loc("best")


def _relayout(figure) -> None:
    """Room for the larger text: constrained layout (which spaces titles, labels and
    legends), where the figure has no live layout engine (an unpickled figure has a
    placeholder); else tight_layout; else the figure's own layout."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = figure.get_layout_engine()
    if engine is not None and not isinstance(engine, PlaceHolderLayoutEngine):
        return  # constrained or tight already: it runs again when the figure is drawn
    try:
        figure.set_layout_engine("constrained")
    except Exception:  # a colorbar made for another engine
        try:
            figure.tight_layout()
        except Exception:  # some layouts defeat tight_layout: keep the figure's own
            pass


def _tick_size(axes) -> float:
    labels = axes.get_xticklabels() + axes.get_yticklabels()
    return max((t.get_fontsize() for t in labels), default=0.0)
