"""Independent jobs in turn or in parallel processes, with the results in order.

The book runs repetitions that do not depend on each other — CPS sample sizes, Lorenz
trajectories, PTN runs — either in this process or in joblib's loky worker processes.
Each job seeds itself, so the numbers never depend on ``n_jobs``; only the wall time does.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Iterator

from joblib import Parallel, delayed

__all__ = ["check_n_jobs", "ordered_map"]


def check_n_jobs(n_jobs) -> int:
    """``n_jobs`` as an int: a positive count of processes, or -1 (-2, …) as joblib counts
    from the number of cores; anything else is a ``ValueError``.

    Examples
    --------
    >>> check_n_jobs(2), check_n_jobs(-1)
    (2, -1)
    >>> check_n_jobs(0)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be a non-zero integer (-1 = all cores), got 0
    """
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1 = all cores), got {n_jobs!r}")
    return int(n_jobs)


def ordered_map(
    function: Callable, calls: Iterable[tuple[tuple, dict]], *, n_jobs: int = 1
) -> Iterator:
    """``function(*args, **kwargs)`` for each ``(args, kwargs)`` of ``calls``, in order.

    ``n_jobs=1`` calls lazily in this process; otherwise joblib's processes run the calls
    and the results come back in the order of ``calls`` as they are ready (so a progress
    bar over the returned iterator moves as jobs finish).

    Examples
    --------
    >>> list(ordered_map(pow, [((2, 3), {}), ((3, 2), {})]))
    [8, 9]
    >>> list(ordered_map(divmod, [((7, 2), {}), ((9, 4), {})], n_jobs=2))
    [(3, 1), (2, 1)]
    """
    n_jobs = check_n_jobs(n_jobs)
    if n_jobs == 1:
        return (function(*args, **kwargs) for args, kwargs in calls)
    return Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(function)(*args, **kwargs) for args, kwargs in calls
    )
