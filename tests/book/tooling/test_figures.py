"""Tests of fairbook_book.tooling.figures: a chapter's figures exported at 300 dpi and as SVG."""

from __future__ import annotations

import struct
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import chapters
from fairbook_book.tooling.figures import export_figures

BODY_SHOWN = """
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 1))
ax.plot([0, 1], [0, seed])
"""
BODY_EMBEDDED = """
import matplotlib.pyplot as plt
from fairbook_book.plots import figure_png
fig, ax = plt.subplots(figsize=(2, 1))
ax.bar([0, 1], [1, 2])
png = figure_png(fig)
"""


def _chapter(root: Path, name: str, *cells: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    params = nbformat.v4.new_code_cell(
        'profile: str = "fast"  # fast | full\nseed: int = 1  # a seed',
        metadata={"tags": ["parameters", "remove-cell"]},
    )
    nb.cells = [nbformat.v4.new_markdown_cell("# Figures"), params]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, root / "notebooks" / f"{name}.ipynb")


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    _chapter(tmp_path, "01_figs", BODY_SHOWN, BODY_EMBEDDED, "print('no figure here')")
    return tmp_path


def _png_dpi(path: Path) -> float:
    data = path.read_bytes()
    at = data.index(b"pHYs")
    per_metre = struct.unpack(">I", data[at + 4 : at + 8])[0]
    return per_metre * 0.0254


def test_every_figure_is_exported_as_png_and_svg(book, tmp_path):
    out = tmp_path / "figures"
    files = export_figures("01", out, root=book, parameters={"seed": "3"}, echo=lambda *a: None)
    names = [f.name for f in files]
    assert names == [
        "01_figs-fig01.png",
        "01_figs-fig01.svg",
        "01_figs-fig02.png",
        "01_figs-fig02.svg",
    ]
    assert _png_dpi(out / "01_figs-fig01.png") == pytest.approx(300, abs=1)
    assert (out / "01_figs-fig02.svg").read_text().lstrip().startswith("<?xml")


def test_unknown_chapters_and_failures_are_reported(book, tmp_path):
    with pytest.raises(chapters.ChapterError, match="unknown chapter"):
        export_figures("09", tmp_path / "x", root=book, echo=lambda *a: None)
    assert not (tmp_path / "x").exists()  # a refused chapter leaves no folder behind
    _chapter(book, "02_broken", "1 / 0")
    with pytest.raises(RuntimeError, match="02_broken failed"):
        export_figures("02", tmp_path / "y", root=book, echo=lambda *a: None)
