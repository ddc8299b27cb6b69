"""The book's own tooling: the papermill runner and static build (:mod:`.chapters`) and the
headless-Chromium page check (:mod:`.pagecheck`).

Nothing in the core or the chapter packages imports this package; only the command line
(:mod:`fairbook.cli`) does. ``tests/test_architecture.py`` keeps it that way.
"""

__all__ = ["chapters", "pagecheck"]
