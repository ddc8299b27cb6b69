"""What an executed chapter becomes before Sphinx renders it as a static page.

The executed notebook keeps everything for JupyterLab; the static page shows only what works
without a kernel. :func:`prepare_for_static` (applied to the staged copy, never to the
executed one):

* **drops the ipywidget snapshots.** A widget's output in a static page looks live and does
  nothing (its callbacks need a kernel); the static explorers (:mod:`fairbook_book.charts`) are
  what responds there. Widget-view outputs are removed, a code cell whose outputs were all
  widgets is removed with its source (tag ``remove-cell``), and the notebook's widget state
  (``metadata.widgets``) is deleted, so myst-nb loads no widget JavaScript on that page;
* **keeps a captioned figure alone in its cell:** what else that cell shows (a table, a
  print-out) moves to a cell of its own right after it, source hidden (myst-nb would make each
  output a figure of the same name);
* **turns each chart into the book's HTML:** a :func:`fairbook_book.charts.vega_chart` output
  carries a Vega-Lite spec that JupyterLab draws itself; the static page gets
  :func:`fairbook_book.charts.static_html` instead, which draws it with the book's vendored scripts;
* **gives every figure real alt text:** a cell with a figure caption
  (``metadata.mystnb.figure.caption``) and no ``metadata.mystnb.image.alt`` gets the caption,
  markdown stripped, as the alt text (myst-nb otherwise writes the image's file path).

Examples
--------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook(metadata={"widgets": {"state": {}}})
>>> cell = nbformat.v4.new_code_cell("explorer()")
>>> cell.outputs = [nbformat.v4.new_output(
...     "display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "m"},
...                           "text/plain": "VBox()"})]
>>> nb.cells = [cell]
>>> report = prepare_for_static(nb)
>>> report["widget_outputs"], nb.cells[0].metadata["tags"], "widgets" in nb.metadata
(1, ['remove-cell'], False)
"""

from __future__ import annotations

import re

from fairbook_book.charts import LAB_MIME, static_html

__all__ = ["WIDGET_VIEW", "alt_text", "prepare_for_static"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_MARKUP = re.compile(r"[*_`]|\{[a-z:]+\}|\$")


def alt_text(caption: str) -> str:
    """A figure caption as alt text: MyST/markdown markup stripped, whitespace collapsed.

    Examples
    --------
    >>> alt_text("The *OFI* of each pair, `n = 10` ($k$ groups).")
    'The OFI of each pair, n = 10 (k groups).'
    """
    return " ".join(_MARKUP.sub("", str(caption)).split())


def _split_figure(cell):
    """For a captioned cell that also shows tables or text: a cell (source hidden) holding
    everything but its images, which are removed from `cell`; None for other cells. myst-nb
    makes every output of a captioned cell a figure with the cell's name, and two figures of
    one name break the build."""
    if cell.get("cell_type") != "code":
        return None
    figure = (cell.get("metadata", {}).get("mystnb") or {}).get("figure") or {}
    outputs = cell.get("outputs", [])
    images = [o for o in outputs if any(k.startswith("image/") for k in o.get("data", {}))]
    rest = [o for o in outputs if o not in images]
    if not figure or not images or not rest:
        return None
    import uuid

    cell["outputs"] = images
    extra = {
        "cell_type": "code",
        "execution_count": None,
        "id": uuid.uuid4().hex[:8],
        "metadata": {"tags": ["remove-input"]},
        "outputs": rest,
        "source": "",
    }
    try:
        from nbformat import from_dict

        return from_dict(extra)
    except ImportError:  # pragma: no cover - nbformat comes with the book's tooling
        return extra


def prepare_for_static(notebook) -> dict[str, int]:
    """Change `notebook` (an ``nbformat`` node, in place) for the static page; what changed.

    Returns
    -------
    dict
        ``widget_outputs`` removed, ``removed_cells`` (cells that only showed widgets),
        ``alt_texts`` set from captions, ``split_figures`` (captioned cells split in two),
        ``charts`` (chart outputs turned into the book's HTML).
    """
    report = {
        "widget_outputs": 0,
        "removed_cells": 0,
        "alt_texts": 0,
        "split_figures": 0,
        "charts": 0,
    }
    notebook.get("metadata", {}).pop("widgets", None)
    cells = notebook.get("cells", [])
    for position in range(len(cells) - 1, -1, -1):
        extra = _split_figure(cells[position])
        if extra is not None:
            cells.insert(position + 1, extra)
            report["split_figures"] += 1
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        outputs = cell.get("outputs", [])
        kept = [o for o in outputs if WIDGET_VIEW not in o.get("data", {})]
        dropped = len(outputs) - len(kept)
        if dropped:
            report["widget_outputs"] += dropped
            cell["outputs"] = kept
            # what is left of a widget cell is its print-outs (e.g. a log), never a result
            if not any(o.get("output_type") in ("display_data", "execute_result") for o in kept):
                tags = cell.setdefault("metadata", {}).setdefault("tags", [])
                if "remove-cell" not in tags:
                    tags.append("remove-cell")
                report["removed_cells"] += 1
        for output in kept:
            data = output.get("data", {})
            if LAB_MIME in data:
                target = f"fairbook-vega-{report['charts']}"
                output["data"] = {
                    "text/html": static_html(data, output.get("metadata"), target=target),
                    "text/plain": data.get("text/plain", "<interactive chart>"),
                }
                output["metadata"] = {}
                report["charts"] += 1
        mystnb = cell.get("metadata", {}).get("mystnb", {})
        caption = (mystnb.get("figure") or {}).get("caption")
        image = mystnb.get("image") or {}
        if caption and not image.get("alt"):
            mystnb["image"] = {**image, "alt": alt_text(caption)}
            report["alt_texts"] += 1
    return report
