"""Tests of :mod:`fairbook_book.tooling.static_notebook`: what the static page drops and adds."""

import nbformat

from fairbook_book.charts import LAB_MIME, vega_chart
from fairbook_book.tooling.static_notebook import WIDGET_VIEW, alt_text, prepare_for_static


def _output(data, kind="display_data"):
    if kind == "stream":
        return nbformat.v4.new_output("stream", name="stdout", text=data)
    return nbformat.v4.new_output(kind, data=data)


def test_widget_outputs_go_and_cells_that_only_showed_widgets_are_removed():
    nb = nbformat.v4.new_notebook(
        metadata={"widgets": {"state": {}}, "language_info": {"name": "python"}}
    )
    widget = nbformat.v4.new_code_cell("explorer()")
    widget.outputs = [_output({WIDGET_VIEW: {"model_id": "m"}, "text/plain": "VBox()"})]
    mixed = nbformat.v4.new_code_cell("table(); explorer()")
    mixed.outputs = [
        _output({"text/html": "<table></table>"}),
        _output({WIDGET_VIEW: {"model_id": "n"}}),
    ]
    logged = nbformat.v4.new_code_cell("explorer()")
    logged.outputs = [_output("log\n", "stream"), _output({WIDGET_VIEW: {"model_id": "k"}})]
    plain = nbformat.v4.new_code_cell("1")
    plain.outputs = [_output({"text/plain": "1"}, "execute_result")]
    plain.outputs[0]["execution_count"] = 1
    nb.cells = [widget, mixed, logged, plain]
    report = prepare_for_static(nb)
    assert report == {
        "widget_outputs": 3,
        "removed_cells": 2,
        "alt_texts": 0,
        "split_figures": 0,
        "charts": 0,
    }
    assert "widgets" not in nb.metadata and "language_info" in nb.metadata
    assert widget.metadata["tags"] == ["remove-cell"] and widget.outputs == []
    assert [list(o["data"]) for o in mixed.outputs] == [["text/html"]]
    assert "tags" not in mixed.metadata
    assert logged.metadata["tags"] == ["remove-cell"]
    assert len(plain.outputs) == 1 and "tags" not in plain.metadata
    nbformat.validate(nb)


def test_a_caption_becomes_alt_text_unless_alt_text_is_given():
    nb = nbformat.v4.new_notebook()
    captioned = nbformat.v4.new_code_cell(
        "plot()", metadata={"mystnb": {"figure": {"caption": "The *OFI* of $k$ pairs."}}}
    )
    given = nbformat.v4.new_code_cell(
        "plot()",
        metadata={"mystnb": {"figure": {"caption": "c"}, "image": {"alt": "own", "width": "80%"}}},
    )
    nb.cells = [captioned, given]
    assert prepare_for_static(nb)["alt_texts"] == 1
    assert captioned.metadata["mystnb"]["image"] == {"alt": "The OFI of k pairs."}
    assert given.metadata["mystnb"]["image"] == {"alt": "own", "width": "80%"}


def test_alt_text_strips_markup():
    assert alt_text("A `code` {math}`x` **bold**\n caption") == "A code x bold caption"


def test_a_captioned_figure_keeps_only_its_images_and_the_rest_follows_it():
    nb = nbformat.v4.new_notebook()
    meta = {"mystnb": {"figure": {"caption": "A curve.", "name": "fig-x"}}}
    both = nbformat.v4.new_code_cell("plot(); table()", metadata=meta)
    both.outputs = [
        _output({"image/png": "iVBOR", "text/plain": "<Figure>"}),
        _output({"text/html": "<table></table>", "text/plain": "t"}),
        _output("note\n", "stream"),
    ]
    alone = nbformat.v4.new_code_cell("plot()", metadata=meta)
    alone.outputs = [_output({"image/png": "iVBOR"})]
    nb.cells = [both, alone]
    report = prepare_for_static(nb)
    assert report["split_figures"] == 1 and len(nb.cells) == 3
    assert [list(o["data"]) for o in nb.cells[0].outputs] == [["image/png", "text/plain"]]
    follower = nb.cells[1]
    assert follower.metadata["tags"] == ["remove-input"] and "mystnb" not in follower.metadata
    assert [o["output_type"] for o in follower.outputs] == ["display_data", "stream"]
    assert nb.cells[2] is alone and len(alone.outputs) == 1
    nbformat.validate(nb)


def test_charts_become_the_books_html_with_a_target_of_their_own():
    nb = nbformat.v4.new_notebook()
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.4.1.json", "mark": "point"}
    cells = []
    for title in ("first", "second"):
        data, metadata = vega_chart(spec, title=title)._repr_mimebundle_()
        cell = nbformat.v4.new_code_cell("chart()")
        cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=metadata)]
        cells.append(cell)
    nb.cells = cells
    assert prepare_for_static(nb)["charts"] == 2
    pages = [cell.outputs[0] for cell in cells]
    assert [sorted(o["data"]) for o in pages] == [["text/html", "text/plain"]] * 2
    assert 'id="fairbook-vega-0"' in pages[0]["data"]["text/html"]
    assert 'id="fairbook-vega-1"' in pages[1]["data"]["text/html"]
    assert "<strong>second</strong>" in pages[1]["data"]["text/html"]
    assert "v6.4.1.json" in pages[0]["data"]["text/html"] and LAB_MIME not in pages[0]["data"]
    assert pages[0]["metadata"] == {}
    nbformat.validate(nb)
