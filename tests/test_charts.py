"""Tests of fairbook.charts (the drawing itself is checked in Chromium by
tests/build/test_pagecheck.py)."""

import json
import re

import altair as alt
import pandas as pd
import pytest

from fairbook.charts import VEGA_VENDOR, vega_chart


@pytest.fixture
def chart():
    k = alt.param(name="k", value=1, bind=alt.binding_range(min=1, max=2, step=1))
    data = pd.DataFrame({"k": [1, 2], "y": [0.5, 0.25]})
    return alt.Chart(data).mark_bar().encode(y="y").add_params(k).transform_filter("datum.k == k")


def test_the_output_serves_the_book_and_jupyterlab(chart):
    data, metadata = vega_chart(chart, title="a & b")._repr_mimebundle_()
    assert set(data) == {"text/html", "application/vnd.vegalite.v6+json", "text/plain"}
    assert data["application/vnd.vegalite.v6+json"] == chart.to_dict()
    assert "<strong>a &amp; b</strong>" in data["text/html"] and metadata == {}


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
