"""A progress bar over the joblib tasks a chapter's long cell runs, without touching its code.

Chapter 06's studies spend a minute or more in :func:`fairbook.variance.fit_runs_many`, which
hands every training run to one ``joblib.Parallel`` call. That code is in the fingerprint of
the chapter's recordings (a progress bar written into it would make them stale), so the bar
is put around the call instead: :func:`parallel_progress` counts the tasks every
``joblib.Parallel`` call receives while it is open (the bar's total) and the tasks they
complete (its position). joblib calls :meth:`joblib.Parallel.print_progress` in this process
after each finished batch, on every backend (sequential, loky, threading, dask); the bar reads
``n_completed_tasks`` there. Both methods are restored when the block ends, also on an error.

The bar is ``tqdm.auto``'s: a widget in JupyterLab, a text line on a terminal; in the built
book it is stored at 0 (its first state) and the outputs check sanitises it like any other
bar.

Examples
--------
>>> import io, joblib
>>> with parallel_progress("squares", file=io.StringIO()) as bar:
...     out = joblib.Parallel(n_jobs=1)(joblib.delayed(pow)(k, 2) for k in range(5))
>>> out, bar.n, bar.total
([0, 1, 4, 9, 16], 5, 5)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TextIO

import joblib
from tqdm.auto import tqdm

__all__ = ["parallel_progress"]


@contextlib.contextmanager
def parallel_progress(
    description: str,
    *,
    unit: str = "task",
    disable: bool | None = False,
    file: TextIO | None = None,
) -> Iterator[tqdm]:
    """A tqdm bar of the joblib tasks run inside the ``with`` block.

    Parameters
    ----------
    description : str
        The bar's label (``"FIT runs"``).
    unit : str, default "task"
        What one joblib task is, for the bar's rate (``"run"``).
    disable : bool or None, default False
        tqdm's ``disable``: True hides the bar (and a hidden bar counts nothing), None hides
        it where the output is not a terminal.
    file : file-like, optional
        Where a text bar is written (tqdm's default: standard error).

    Yields
    ------
    tqdm
        The bar: ``n`` tasks done of ``total`` received so far (a later ``Parallel`` call in
        the block adds its tasks to the total when it starts).

    Examples
    --------
    >>> import io, joblib
    >>> with parallel_progress("two calls", file=io.StringIO()) as bar:
    ...     _ = joblib.Parallel(n_jobs=1)(joblib.delayed(abs)(-k) for k in range(3))
    ...     _ = joblib.Parallel(n_jobs=1)(joblib.delayed(abs)(-k) for k in range(4))
    >>> bar.n, bar.total
    (7, 7)
    """
    call, report = joblib.Parallel.__call__, joblib.Parallel.print_progress
    bar = tqdm(total=0, desc=description, unit=unit, disable=disable, file=file)
    done_before: dict[int, int] = {}

    def counted_call(self, iterable):
        tasks = list(iterable)
        done = bar.n
        bar.reset(total=bar.total + len(tasks))  # a notebook bar's widget takes the new total
        bar.update(done)
        done_before[id(self)] = 0
        try:
            return call(self, tasks)
        finally:
            done_before.pop(id(self), None)

    def counted_report(self):
        report(self)
        done = int(getattr(self, "n_completed_tasks", 0))
        if id(self) in done_before and done > done_before[id(self)]:
            bar.update(done - done_before[id(self)])
            done_before[id(self)] = done

    joblib.Parallel.__call__, joblib.Parallel.print_progress = counted_call, counted_report
    try:
        yield bar
    finally:
        joblib.Parallel.__call__, joblib.Parallel.print_progress = call, report
        bar.close()
