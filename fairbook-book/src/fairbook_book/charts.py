"""Interactive charts that respond in the static book and in JupyterLab, without a kernel.

An ipywidgets explorer needs a running kernel: in the built HTML its controls move and
nothing changes. A *static explorer* instead precomputes the grid of results it spans (in
the chapter's ``explorers`` module) and hands it to a Vega-Lite chart (built with Altair)
whose parameters are bound to sliders and dropdowns; the browser redraws the chart when a
control moves. :func:`vega_chart` wraps such a chart for a notebook cell, and the cell's
output serves two renderers:

* **JupyterLab** draws the output itself: it carries the spec under
  ``application/vnd.vegalite.v5+json`` (:data:`LAB_MIME`), the newest Vega-Lite JupyterLab 4
  renders (Altair 6 writes v6 specs, whose features the charts of this book do not use beyond
  v5; the browser check :mod:`fairbook_book.tooling.labcheck` draws every chapter's chart there and
  moves its controls). There is deliberately no ``text/html`` beside it: JupyterLab ranks
  HTML above Vega, and HTML with scripts would need files only the built book serves;
* **the built book** gets HTML: when a chapter is staged for Sphinx,
  :func:`fairbook_book.tooling.static_notebook.prepare_for_static` replaces that output with
  :func:`static_html`, whose script loads Vega, Vega-Lite and vega-embed from the files the
  book serves itself (``make vendor`` copies them from npm into ``_static/vendor/vega``), so
  the page works offline; the page check moves each control and requires the drawing to
  change.

Examples
--------
>>> import altair as alt, pandas as pd
>>> chart = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x")
>>> data, metadata = vega_chart(chart, title="two points")._repr_mimebundle_()
>>> sorted(data)
['application/vnd.vegalite.v5+json', 'text/plain']
>>> html = static_html(data, metadata, target="fig-1")
>>> 'class="fairbook-vega"' in html and "vega-embed.min.js" in html and "two points" in html
True
"""

from __future__ import annotations

import html
import itertools
import json

__all__ = ["LAB_MIME", "VEGA_VENDOR", "VegaChart", "static_html", "vega_chart"]

#: Where the built pages find the vendored scripts (relative to a chapter's page).
VEGA_VENDOR = "../_static/vendor/vega"

#: The output's media type: the newest Vega-Lite that JupyterLab 4 draws itself.
LAB_MIME = "application/vnd.vegalite.v5+json"
#: The schema JupyterLab is told (its vega-embed warns on another major version); the book's
#: page gets the spec's own back, or :data:`BOOK_SCHEMA` (the vendored Vega-Lite's major).
LAB_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
BOOK_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
#: vega-embed's options in both renderers: SVG (its text is readable and testable), no menu
EMBED_OPTIONS = {"renderer": "svg", "actions": False}

_SCRIPTS = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
_counter = itertools.count()

# Load the three scripts once per page, then embed. Pages that show ipywidgets also load
# require.js, whose `define` would capture the UMD bundles as anonymous AMD modules; the
# loader hides `define` while the bundles run so that they set their globals instead.
_LOADER = """
(function () {
  var base = %(base)s, spec = %(spec)s, target = %(target)s;
  function embed() {
    window.vegaEmbed("#" + target, spec, %(options)s)
      .catch(function (err) {
        document.getElementById(target).textContent = "chart failed: " + err;
      });
  }
  if (window.vegaEmbed) { embed(); return; }
  window.__fairbookVega = window.__fairbookVega || {queue: [], loading: false};
  var state = window.__fairbookVega;
  state.queue.push(embed);
  if (state.loading) { return; }
  state.loading = true;
  var names = %(scripts)s, saved = window.define;
  function next(i) {
    if (i === names.length) {
      window.define = saved;
      state.queue.splice(0).forEach(function (f) { f(); });
      return;
    }
    var s = document.createElement("script");
    s.src = base + "/" + names[i];
    s.onload = function () { next(i + 1); };
    s.onerror = function () {
      window.define = saved;
      document.getElementById(target).textContent =
        "the chart's scripts did not load (" + s.src + "): run `make vendor`";
    };
    document.head.appendChild(s);
  }
  window.define = undefined;
  next(0);
})();
"""


class VegaChart:
    """A Vega-Lite spec shown as an interactive chart (see the module docstring)."""

    def __init__(self, spec: dict, *, title: str = "", vendor: str = VEGA_VENDOR):
        self.spec = spec
        self.title = title
        self.vendor = vendor
        self.target = f"fairbook-vega-{next(_counter)}"

    def to_html(self) -> str:
        """The static book's HTML: a titled container and the script that draws into it."""
        return _html(self.spec, title=self.title, target=self.target, vendor=self.vendor)

    def _repr_mimebundle_(self, include=None, exclude=None):
        spec = {**self.spec, "$schema": LAB_SCHEMA}
        if self.title and "title" not in spec:
            spec["title"] = self.title  # JupyterLab shows no caption: the chart carries it
        return {
            LAB_MIME: spec,
            "text/plain": f"<interactive chart: {self.title or 'Vega-Lite'}>",
        }, {
            LAB_MIME: {"embed_options": dict(EMBED_OPTIONS)},
            # what the book's page needs back: its caption, scripts and the spec's own schema
            "fairbook": {
                "title": self.title,
                "vendor": self.vendor,
                "schema": self.spec.get("$schema", BOOK_SCHEMA),
            },
        }


def _html(spec: dict, *, title: str, target: str, vendor: str) -> str:
    script = _LOADER % {
        "base": json.dumps(vendor),
        "spec": json.dumps(spec, sort_keys=True, allow_nan=False),
        "target": json.dumps(target),
        "scripts": json.dumps(list(_SCRIPTS)),
        "options": json.dumps(EMBED_OPTIONS, sort_keys=True),
    }
    caption = f"<p><strong>{html.escape(title)}</strong></p>" if title else ""
    return (
        f'<div class="fairbook-vega-figure">{caption}'
        f'<div class="fairbook-vega" id="{html.escape(target)}"></div>'
        f"<script>{script}</script></div>"
    )


def static_html(data: dict, metadata: dict | None = None, *, target: str) -> str:
    """The built book's HTML for a chart output that :func:`vega_chart` made.

    Parameters
    ----------
    data : dict
        The output's ``data`` (it holds :data:`LAB_MIME`).
    metadata : dict, optional
        The output's ``metadata``: the caption and the scripts' folder (``fairbook``).
    target : str
        The id of the element the chart draws into; unique on its page.

    Returns
    -------
    str

    Examples
    --------
    >>> data, metadata = vega_chart({"mark": "point"}, title="T")._repr_mimebundle_()
    >>> html = static_html(data, metadata, target="c1")
    >>> '<p><strong>T</strong></p>' in html and 'id="c1"' in html and '"title"' not in html
    True
    """
    if LAB_MIME not in data:
        raise ValueError(f"a chart output holds {LAB_MIME}; this one holds {sorted(data)}")
    own = (metadata or {}).get("fairbook", {})
    title = own.get("title", "")
    spec = {**data[LAB_MIME], "$schema": own.get("schema", BOOK_SCHEMA)}
    if title and spec.get("title") == title:
        del spec["title"]  # the page shows it as the caption instead
    return _html(spec, title=title, target=target, vendor=own.get("vendor", VEGA_VENDOR))


def vega_chart(chart, *, title: str = "", vendor: str = VEGA_VENDOR) -> VegaChart:
    """Wrap an Altair chart (or a Vega-Lite spec as a dict) for a notebook cell.

    Parameters
    ----------
    chart : altair.Chart or dict
        The chart; its data is inlined, so keep the precomputed grid small (thousands of
        rows, not millions).
    title : str, default ""
        A caption above the chart.
    vendor : str, default :data:`VEGA_VENDOR`
        Where the page finds ``vega.min.js``, ``vega-lite.min.js`` and
        ``vega-embed.min.js``.

    Returns
    -------
    VegaChart

    Examples
    --------
    >>> vega_chart({"$schema": "https://vega.github.io/schema/vega-lite/v6.json",
    ...             "mark": "point"}).target.startswith("fairbook-vega-")
    True
    """
    if isinstance(chart, dict):
        spec = chart
    elif hasattr(chart, "to_dict"):
        spec = chart.to_dict()
    else:
        raise ValueError(
            f"vega_chart takes an Altair chart or a spec dict, not {type(chart).__name__}"
        )
    try:
        json.dumps(spec, allow_nan=False)
    except ValueError:
        raise ValueError(
            "the chart's data holds NaN or infinity, which Vega-Lite cannot carry: "
            "replace them with None (shown as missing) before charting"
        ) from None
    return VegaChart(spec, title=title, vendor=vendor)
