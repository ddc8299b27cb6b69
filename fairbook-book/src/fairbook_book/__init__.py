"""fairbook_book: the book's own code, beside the ``fairbook`` library.

* :mod:`fairbook_book.chapters` — one package per chapter (settings, runs, results,
  replication, figures, explorers, key results);
* :mod:`fairbook_book.recordings` and the recorded runs, :mod:`fairbook_book.replication` and
  :mod:`fairbook_book.ledger` — what the book compares with the papers;
* :mod:`fairbook_book.chapter_summary`, :mod:`fairbook_book.formatting`,
  :mod:`fairbook_book.plots`, :mod:`fairbook_book.charts`, :mod:`fairbook_book.widgets` — how a
  chapter shows its results;
* :mod:`fairbook_book.tooling` — building, checking, grading and releasing the book, behind the
  ``fairbook-book`` command.

Importing it changes nothing; :func:`chapter_setup` is the explicit set-up every chapter calls
first.
"""

from __future__ import annotations

__all__ = ["chapter_setup"]


def chapter_setup(shell=None) -> dict:
    """Set up a chapter's kernel: the CPU-kernel cap, then the book's number format (and,
    in the book's build, the figures kept for the decks' projector versions).

    Caps PyTorch's CPU kernels at AVX2 (:func:`fairbook.instruction_set.pin`), so that the
    chapter's numbers are those of the recordings and references, and registers the book's
    one number format with IPython (:func:`fairbook_book.formatting.register_number_format`).
    Call it before any PyTorch operation.

    Parameters
    ----------
    shell : IPython shell, optional
        Default: the running one (none outside IPython: then only the cap is set).

    Returns
    -------
    dict
        The variables the cap set (empty if they were set already).

    Examples
    --------
    >>> import os
    >>> before = dict(os.environ)
    >>> set_now = chapter_setup()
    >>> sorted(set(os.environ) - set(before)) == sorted(set_now)
    True
    """
    from fairbook.instruction_set import pin

    from .formatting import register_number_format
    from .projector import keep_figures

    set_now = pin()
    register_number_format(shell)
    keep_figures()  # only where the book's build asks (FAIRBOOK_FIGURE_DIR): for the decks
    return set_now
