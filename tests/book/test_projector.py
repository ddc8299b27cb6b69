"""Tests of :mod:`fairbook_book.projector`: a figure drawn as the notebook's PNG is kept by
that PNG's hash without changing it, and its projector version fits the slide's box with
every text at least 18 px."""

import base64
import io
import pickle

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import nbformat
import numpy as np
import pytest
from IPython.core.pylabtools import print_figure
from matplotlib.backend_bases import FigureCanvasBase
from matplotlib.ticker import FuncFormatter

from fairbook_book import projector
from fairbook_book.projector import keep_figures, stored_figure
from fairbook_book.tooling.projector_figures import projector_png


@pytest.fixture
def keeping(monkeypatch, tmp_path):
    """keep_figures into tmp_path, undone after the test."""
    monkeypatch.setattr(FigureCanvasBase, "print_figure", FigureCanvasBase.print_figure)
    monkeypatch.setattr(projector, "_ORIGINAL", None)
    assert keep_figures(tmp_path)
    return tmp_path


def _book_figure(*, legend_pt=6.5, panels=1, height=6.4):
    fig, axes = plt.subplots(1, panels, figsize=(8.9, height), squeeze=False)
    for k, ax in enumerate(axes.ravel()):
        ax.plot(np.arange(10), np.arange(10) ** (k + 1), label=f"curve {k}")
        ax.set_xlabel("group size n")
        ax.set_title(f"panel {k}", fontsize=9)
        ax.legend(fontsize=legend_pt)
    return fig


def test_without_a_folder_nothing_is_kept(monkeypatch):
    monkeypatch.delenv(projector.FIGURE_DIR_VARIABLE, raising=False)
    before = FigureCanvasBase.print_figure
    assert keep_figures() is False
    assert FigureCanvasBase.print_figure is before


def test_the_notebooks_png_is_unchanged_and_its_figure_kept_by_its_hash(keeping):
    fig = _book_figure()
    png = print_figure(fig, "png", bbox_inches="tight")  # what the inline backend stores
    stored = stored_figure(keeping, png)
    assert stored is not None
    again = pickle.loads(stored.read_bytes())
    assert [t.get_text() for t in again.axes[0].get_legend().get_texts()] == ["curve 0"]
    # the same figure drawn without the wrapper gives the same bytes
    plain = io.BytesIO()
    projector._ORIGINAL(fig.canvas, plain, format="png", bbox_inches="tight")
    assert plain.getvalue() == png
    plt.close(fig)


def test_a_figure_that_cannot_be_pickled_is_drawn_and_not_kept(keeping):
    fig = _book_figure()
    fig.axes[0].xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    png = print_figure(fig, "png", bbox_inches="tight")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and stored_figure(keeping, png) is None
    plt.close(fig)


def test_a_file_on_disk_is_not_kept(keeping, tmp_path):
    fig = _book_figure()
    fig.savefig(tmp_path / "on-disk.png")
    assert sorted(p.suffix for p in keeping.iterdir()) == [".png"]
    plt.close(fig)


@pytest.mark.parametrize(
    "build",
    [
        lambda: _book_figure(),
        lambda: _book_figure(legend_pt=5, panels=3, height=3.9),
        lambda: _book_figure(legend_pt=8, panels=2, height=7.4),
    ],
)
def test_the_projector_version_fits_the_box_with_every_text_18_px(build):
    fig = build()
    shown = projector_png(fig, box=(1220, 590), min_px=18)
    assert shown.width <= 1220 and shown.height <= 590
    assert shown.smallest_px >= 18 - 1e-9
    texts = [t for t in fig.findobj(matplotlib.text.Text) if t.get_text().strip()]
    assert min(t.get_fontsize() for t in texts) * shown.dpi / 72 >= 18 - 1e-9
    plt.close(fig)


def test_the_decks_show_the_projector_version_of_a_kept_figure(keeping):
    from fairbook_book.tooling import slides

    fig = _book_figure()
    png = print_figure(fig, "png", bbox_inches="tight")
    plt.close(fig)
    cell = nbformat.v4.new_code_cell("figure()")
    cell.metadata["mystnb"] = {"figure": {"caption": "A curve.", "name": "fig-test"}}
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"image/png": base64.b64encode(png).decode("ascii")}
        )
    ]
    book = slides._figures([cell])
    projected = slides._figures([cell], keeping)
    assert book[0].smallest_px == 0 and projected[0].smallest_px >= slides.PROJECTOR_TEXT_PX
    assert projected[0].png != book[0].png
    assert slides._figures([cell], keeping / "elsewhere")[0] == book[0]


def test_a_legend_inside_its_axes_moves_where_it_covers_least_and_one_outside_stays():
    fig, (inside, below) = plt.subplots(1, 2, figsize=(8.9, 4))
    for ax in (inside, below):
        ax.plot(np.arange(10), np.arange(10), label="a line")
    inside.legend(loc="upper left", fontsize=6)
    below.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=6)
    projector_png(fig, box=(1220, 590), min_px=18)
    assert inside.get_legend()._loc == 0  # "best"
    assert below.get_legend()._loc == 9  # "upper center", where the chapter put it
    plt.close(fig)
