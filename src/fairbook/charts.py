"""Interactive charts that respond in the static book, without a kernel.

An ipywidgets explorer needs a running kernel: in the built HTML its controls move and
nothing changes. A *static explorer* instead precomputes the grid of results it spans (in
the chapter's ``explorers`` module) and hands it to a Vega-Lite chart (built with Altair)
whose parameters are bound to sliders and dropdowns; the browser redraws the chart when a
control moves. :func:`vega_chart` wraps such a chart for a notebook cell:

* in the built book, the cell's HTML loads Vega, Vega-Lite and vega-embed from the files
  the book serves itself (``make vendor`` copies them from npm into ``_static/vendor/vega``),
  so the page works offline; the page check moves each control and requires the drawing to
  change;
* in JupyterLab the same output carries the Vega-Lite spec, which JupyterLab draws itself.

Examples
--------
>>> import altair as alt, pandas as pd
>>> chart = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x")
>>> html = vega_chart(chart, title="two points")._repr_mimebundle_()[0]["text/html"]
>>> 'class="fairbook-vega"' in html and "vega-embed.min.js" in html
True
"""

from __future__ import annotations

import html
import itertools
import json

__all__ = ["VEGA_VENDOR", "VegaChart", "vega_chart"]

#: Where the built pages find the vendored scripts (relative to a chapter's page).
VEGA_VENDOR = "../_static/vendor/vega"

_SCRIPTS = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
_counter = itertools.count()

# Load the three scripts once per page, then embed. Pages that show ipywidgets also load
# require.js, whose `define` would capture the UMD bundles as anonymous AMD modules; the
# loader hides `define` while the bundles run so that they set their globals instead.
_LOADER = """
(function () {
  var base = %(base)s, spec = %(spec)s, target = %(target)s;
  function embed() {
    window.vegaEmbed("#" + target, spec, {renderer: "svg", actions: false})
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
        """The cell's HTML: a titled container and the script that draws into it."""
        script = _LOADER % {
            "base": json.dumps(self.vendor),
            "spec": json.dumps(self.spec, sort_keys=True, allow_nan=False),
            "target": json.dumps(self.target),
            "scripts": json.dumps(list(_SCRIPTS)),
        }
        caption = f"<p><strong>{html.escape(self.title)}</strong></p>" if self.title else ""
        return (
            f'<div class="fairbook-vega-figure">{caption}'
            f'<div class="fairbook-vega" id="{self.target}"></div>'
            f"<script>{script}</script></div>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        schema = self.spec.get("$schema", "")
        major = schema.split("/v")[-1].split(".")[0] if "/v" in schema else "6"
        return {
            "text/html": self.to_html(),
            f"application/vnd.vegalite.v{major}+json": self.spec,
            "text/plain": f"<interactive chart: {self.title or 'Vega-Lite'}>",
        }, {}


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
