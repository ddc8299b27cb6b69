"""Tests of fairbook_book.charts (the drawing itself is checked in Chromium by
tests/book/tooling/test_pagecheck.py)."""

import json
import re

import altair as alt
import pandas as pd
import pytest

from fairbook_book.charts import LAB_MIME, VEGA_VENDOR, static_html, vega_chart


@pytest.fixture
def chart():
    k = alt.param(name="k", value=1, bind=alt.binding_range(min=1, max=2, step=1))
    data = pd.DataFrame({"k": [1, 2], "y": [0.5, 0.25]})
    return alt.Chart(data).mark_bar().encode(y="y").add_params(k).transform_filter("datum.k == k")


def test_the_output_is_a_spec_jupyterlab_draws_itself(chart):
    data, metadata = vega_chart(chart, title="a & b")._repr_mimebundle_()
    # no text/html: JupyterLab ranks HTML above Vega and would show the book's loader
    assert set(data) == {LAB_MIME, "text/plain"}
    expected = {**chart.to_dict(), "title": "a & b"}
    expected["$schema"] = "https://vega.github.io/schema/vega-lite/v5.json"
    assert data[LAB_MIME] == expected
    assert metadata[LAB_MIME] == {"embed_options": {"renderer": "svg", "actions": False}}
    assert metadata["fairbook"] == {
        "title": "a & b",
        "vendor": VEGA_VENDOR,
        "schema": chart.to_dict()["$schema"],
    }


def test_a_chart_with_its_own_title_keeps_it(chart):
    data, _ = vega_chart(chart.properties(title="own"), title="caption")._repr_mimebundle_()
    assert data[LAB_MIME]["title"] == "own"


def test_the_book_html_is_made_from_the_output(chart):
    data, metadata = vega_chart(chart, title="a & b")._repr_mimebundle_()
    html = static_html(data, metadata, target="t-1")
    assert "<strong>a &amp; b</strong>" in html and 'id="t-1"' in html
    assert json.dumps(chart.to_dict()["$schema"]) in html  # the spec's own schema is back
    assert '"title": "a & b"' not in html  # the caption, not a second title in the chart
    # the same page as the chart's own to_html: the original spec, caption outside it
    made = vega_chart(chart, title="a & b")
    assert html == made.to_html().replace(made.target, "t-1")


def test_static_html_refuses_other_outputs():
    with pytest.raises(ValueError, match="holds"):
        static_html({"text/plain": "x"}, {}, target="t")


def test_the_page_loads_only_the_vendored_scripts(chart):
    html = vega_chart(chart).to_html()
    assert json.dumps(VEGA_VENDOR) in html
    assert not re.search(r"https?://(?!vega\.github\.io/schema)", html)  # nothing from a CDN


def test_each_chart_gets_its_own_container(chart):
    first, second = vega_chart(chart), vega_chart(chart)
    assert first.target != second.target
    assert f'id="{second.target}"' in second.to_html()


def test_the_spec_is_embedded_as_json(chart):
    html = vega_chart(chart).to_html()
    assert '"name": "k"' in html or '"name":"k"' in html


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="not int"):
        vega_chart(42)
    with pytest.raises(ValueError, match="NaN or infinity"):
        vega_chart({"data": {"values": [{"y": float("nan")}]}})
