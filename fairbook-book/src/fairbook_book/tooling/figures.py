"""Export every figure of a chapter for slides: ``fairbook-book figures NN --out DIR``.

The chapter is executed with papermill (its parameters as for ``fairbook-book run``) in a kernel
whose IPython start-up file saves each matplotlib figure, as PNG at 300 dpi and as SVG,
before the notebook shows it: figures shown by the inline backend at the end of a cell, and
figures a chapter renders into an image itself (``fairbook_book.plots.figure_png`` and the like,
through ``Figure.savefig`` into a buffer). Files are named ``<chapter>-figNN.png/.svg`` in
the order the figures appear.

Examples
--------
>>> startup_script().startswith("# fairbook-book figures")
True
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["export_figures", "startup_script"]

_STARTUP = """# fairbook-book figures: save every matplotlib figure of this kernel
import io as _io
import os as _os

import matplotlib as _mpl

_mpl.use("module://matplotlib_inline.backend_inline")
import matplotlib.pyplot as _plt  # noqa: E402
from matplotlib.figure import Figure as _Figure  # noqa: E402

_OUT = _os.environ["FAIRBOOK_FIGURES_OUT"]
_STEM = _os.environ["FAIRBOOK_FIGURES_STEM"]
_SAVED = set()
_ORIGINAL_SAVEFIG = _Figure.savefig


def _fairbook_save(fig):
    if id(fig) in _SAVED or not fig.axes:
        return
    _SAVED.add(id(fig))
    base = _os.path.join(_OUT, f"{_STEM}-fig{len(_SAVED):02d}")
    _ORIGINAL_SAVEFIG(fig, base + ".png", dpi=300, bbox_inches="tight")
    _ORIGINAL_SAVEFIG(fig, base + ".svg", bbox_inches="tight")


def _fairbook_savefig(self, fname, *args, **kwargs):
    if isinstance(fname, _io.IOBase):  # rendered into the page by the chapter itself
        _fairbook_save(self)
    return _ORIGINAL_SAVEFIG(self, fname, *args, **kwargs)


_Figure.savefig = _fairbook_savefig


def _fairbook_save_open():
    for number in _plt.get_fignums():
        _fairbook_save(_plt.figure(number))


_ip = get_ipython()  # noqa: F821 - defined in IPython start-up files
from matplotlib_inline import backend_inline as _inline  # noqa: E402

try:  # run before the inline backend closes the cell's figures
    _ip.events.unregister("post_execute", _inline.flush_figures)
    _had_flush = True
except ValueError:
    _had_flush = False
_ip.events.register("post_execute", _fairbook_save_open)
if _had_flush:
    _ip.events.register("post_execute", _inline.flush_figures)
"""


def startup_script() -> str:
    """The IPython start-up file that saves the kernel's figures."""
    return _STARTUP


def export_figures(chapter: str, out, *, parameters=None, root=None, echo=print) -> list[Path]:
    """Execute `chapter` and save its figures into `out`; returns the files written.

    Parameters
    ----------
    chapter : str
        As for ``fairbook-book run``: ``"03"``, ``"03_small_groups"``, ``"small_groups"``.
    out : path
        Folder for the files (created).
    parameters : mapping, optional
        Parameters of the chapter's ``parameters`` cell (strings, as on the command line).

    Raises
    ------
    fairbook_book.tooling.chapters.ChapterError
        For an unknown chapter or parameter.
    RuntimeError
        If the chapter fails.
    """
    from fairbook_book.tooling import chapters

    target = chapters.resolve(chapter, chapters.discover(root))  # before making a folder
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    before = set(out.iterdir())
    saved_env = {k: os.environ.get(k) for k in ("IPYTHONDIR", "FAIRBOOK_FIGURES_OUT")}
    saved_env["FAIRBOOK_FIGURES_STEM"] = os.environ.get("FAIRBOOK_FIGURES_STEM")
    with tempfile.TemporaryDirectory(prefix="fairbook-figures-") as tmp:
        startup = Path(tmp) / "ipython" / "profile_default" / "startup"
        startup.mkdir(parents=True)
        (startup / "00-fairbook-figures.py").write_text(_STARTUP, encoding="utf-8")
        os.environ.update(
            IPYTHONDIR=str(Path(tmp) / "ipython"),
            FAIRBOOK_FIGURES_OUT=str(out),
            FAIRBOOK_FIGURES_STEM=target.slug,
        )
        try:
            result = chapters.run(
                target.slug, dict(parameters or {}), root=root, output=Path(tmp) / "run.ipynb"
            )
        finally:
            for key, value in saved_env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    if not result.ok:
        raise RuntimeError(f"{target.slug} failed: {result.error}")
    written = sorted(set(out.iterdir()) - before)
    echo(f"{len(written)} files ({len(written) // 2} figures) in {out}")
    return written
