"""Fold a chapter's replication evidence in the static book (a small Sphinx extension).

A chapter's reading path (question, idea, Key results, explorer, exercises) stays open; the
evidence behind it (paper against ours, recorded against this build, study tables) is
complete but folded. A section is folded when its heading is preceded by a MyST target
whose name starts with :data:`PREFIX`::

    (fold-03-match)=
    ### MATCH on real small groups

In the HTML its heading stays where it was (and in the page's table of contents); what
follows the heading, subsections included, moves into a closed ``<details>`` whose summary
says what is inside (how many tables and figures). Opening a link to an anchor inside a
folded section opens the section. Other builders (LaTeX) show the section unfolded, and
JupyterLab, which ignores targets, shows the notebook as it is.

The fold is applied at ``doctree-resolved``, after Sphinx has collected the page's table of
contents, so the folded subsections keep their entries.

Examples
--------
>>> is_fold_name("fold-03-match"), is_fold_name("ex-03-holes")
(True, False)
>>> summary_text(tables=2, figures=1)
'Show the evidence: 2 tables, 1 figure'
"""

from __future__ import annotations

from docutils import nodes

__all__ = ["PREFIX", "FoldedEvidence", "fold_sections", "is_fold_name", "setup", "summary_text"]

#: A target whose name starts with this folds the section it labels.
PREFIX = "fold-"

# Opens the folded section that holds the URL's anchor (on load and on every hash change).
_OPEN_TARGET_JS = """
(function () {
  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var el = id && document.getElementById(id);
    while (el) {
      if (el.tagName === "DETAILS") { el.open = true; }
      el = el.parentElement;
    }
    if (id && document.getElementById(id)) { document.getElementById(id).scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);
  // a folded solution's title reads "Solution to Exercise N": a click on it opens the
  // solution (the dropdown's own toggle), instead of following the link up to the exercise
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(
      ".solution.dropdown > .admonition-title a, .solution.dropdown summary a");
    if (!link) { return; }
    // the theme's title handler cannot tell a link from the title: it alone must not see it
    event.preventDefault();
    event.stopPropagation();
    var box = link.closest(".solution");
    var toggle = box && box.querySelector("button.toggle-button");
    if (toggle) { toggle.click(); }
    else if (box && box.tagName === "DETAILS") { box.open = !box.open; }
  }, true);
})();
"""


class FoldedEvidence(nodes.General, nodes.Element):
    """The folded body of a section (``<details class="fairbook-fold">`` in HTML)."""


def is_fold_name(name: str) -> bool:
    """Whether a target name asks for its section to be folded."""
    return str(name).startswith(PREFIX)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def summary_text(*, tables: int, figures: int) -> str:
    """The fold's summary line, from what it holds."""
    parts = [_plural(n, w) for n, w in ((tables, "table"), (figures, "figure")) if n]
    return "Show the evidence" + (": " + ", ".join(parts) if parts else "")


def _count(node: nodes.Node, kind) -> int:
    return sum(1 for _ in node.findall(kind))


def _html_tables(node: nodes.Node) -> int:
    count = _count(node, nodes.table)
    for raw in node.findall(nodes.raw):
        count += raw.astext().count("<table")
    return count


def _figures(node: nodes.Node) -> int:
    images = _count(node, nodes.image)
    for raw in node.findall(nodes.raw):
        images += raw.astext().count('class="fairbook-vega"')
    return images


def fold_sections(doctree: nodes.document) -> int:
    """Fold every section labelled ``fold-...`` in `doctree`; the number folded."""
    folded = 0
    for section in list(doctree.findall(nodes.section)):
        names = [*section.get("names", []), *section.get("ids", [])]
        if not any(is_fold_name(n) for n in names):
            continue
        body = [child for child in section.children if not isinstance(child, nodes.title)]
        if not body:
            continue
        fold = FoldedEvidence()
        for child in body:
            section.remove(child)
            fold += child
        fold["summary"] = summary_text(tables=_html_tables(fold), figures=_figures(fold))
        section += fold
        folded += 1
    return folded


def _on_doctree_resolved(app, doctree, docname) -> None:
    if app.builder.format == "html":
        fold_sections(doctree)


def _visit_html(self, node: FoldedEvidence) -> None:
    from html import escape

    self.body.append(
        '<details class="fairbook-fold">\n'
        f'<summary class="fairbook-fold-summary">{escape(node["summary"])}</summary>\n'
    )


def _depart_html(self, node: FoldedEvidence) -> None:
    self.body.append("</details>\n")


def _skip(self, node) -> None:
    return None


def setup(app):
    """Register the fold with Sphinx (``extra_extensions`` in ``_config.yml``)."""
    app.add_node(
        FoldedEvidence,
        html=(_visit_html, _depart_html),
        latex=(_skip, _skip),
        text=(_skip, _skip),
    )
    app.connect("doctree-resolved", _on_doctree_resolved)
    app.add_js_file(None, body=_OPEN_TARGET_JS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
