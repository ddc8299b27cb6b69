"""Independent jobs in turn or in parallel processes, with the results in order.

The book runs repetitions that do not depend on each other — CPS sample sizes, Lorenz
trajectories, PTN runs — either in this process or in joblib's loky worker processes.
Each job seeds itself, so the numbers never depend on ``n_jobs``; only the wall time does.

No worker outlives the process that started it:

- Ctrl-C (SIGINT) raises ``KeyboardInterrupt`` in the main thread and joblib stops its
  workers on the way out; :func:`stop_on_signals` makes SIGTERM and SIGHUP do the same
  (they raise :class:`Terminated`, a ``KeyboardInterrupt``).
- ``kill -9`` of the parent cannot be caught, so every job that runs in a worker process
  (through :func:`ordered_map` or :func:`guarded`) first starts a watchdog thread there
  (:func:`watch_parent`) that ends the worker within a fraction of a second once its parent
  is gone (the worker is re-parented: ``os.getppid()`` changes). The watchdog needs the GIL
  for a moment, so a worker inside a long C call that holds it ends when that call returns.
"""

from __future__ import annotations

import contextlib
import numbers
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator

__all__ = [
    "Terminated",
    "check_n_jobs",
    "descendants",
    "guarded",
    "ordered_map",
    "reaper",
    "stop_on_signals",
    "watch_parent",
]

#: Exit status of a worker that ended because its parent died.
ORPHANED = 70

_WATCHING: int | None = None  # the pid whose watchdog runs (a forked child must start its own)


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


def watch_parent(*, interval: float = 0.2) -> bool:
    """Start (once per process) a daemon thread that ends this process when its parent dies.

    Meant for worker processes: a worker whose parent was killed (``kill -9``, out of
    memory) is re-parented, so ``os.getppid()`` changes; the thread then ends the process
    with ``os._exit(ORPHANED)`` instead of letting it compute for nobody.

    Parameters
    ----------
    interval : float, default 0.2
        Seconds between two looks at the parent.

    Returns
    -------
    bool
        True if this call started the watchdog, False if it already runs in this process.

    Examples
    --------
    Never call it in a process whose parent may go away on purpose (a shell that exits
    after ``nohup``): :func:`guarded` calls it only in processes other than the caller's.

    >>> callable(watch_parent)
    True
    """
    global _WATCHING
    pid = os.getpid()
    if _WATCHING == pid:
        return False
    _WATCHING = pid
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(ORPHANED)

    threading.Thread(target=watch, name="fairbook-watch-parent", daemon=True).start()
    return True


class _Guarded:
    """``function`` that, when called in another process than the one that made it, first
    starts :func:`watch_parent` there (picklable when ``function`` is)."""

    def __init__(self, function: Callable):
        self.function = function
        self.origin = os.getpid()

    def __call__(self, *args, **kwargs):
        if os.getpid() != self.origin:
            watch_parent()
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"guarded({self.function!r})"


def guarded(function: Callable) -> Callable:
    """``function`` wrapped for worker processes: run there, it first starts
    :func:`watch_parent`, so the worker ends if this process dies; run here, it is
    ``function`` as it is.

    Examples
    --------
    >>> guarded(pow)(2, 5)
    32
    """
    return function if isinstance(function, _Guarded) else _Guarded(function)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived inside :func:`stop_on_signals` (a ``KeyboardInterrupt``,
    so joblib and every ``except KeyboardInterrupt`` treat it as Ctrl-C).

    ``status`` is the exit status a process killed by that signal has (128 + the signal).
    """

    def __init__(self, signum: int):
        self.signum = signum
        self.status = 128 + signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread.

    Python's default for those signals is to die at once, which leaves joblib's worker
    processes computing; as an exception, they unwind the block like Ctrl-C does, and joblib
    stops its workers on the way out. Signals that already have a handler (or are ignored)
    keep it; outside the main thread the block changes nothing.

    Examples
    --------
    >>> import os, signal
    >>> with stop_on_signals():
    ...     try:
    ...         os.kill(os.getpid(), signal.SIGTERM)
    ...         time.sleep(5)
    ...     except Terminated as stop:
    ...         print(stop, stop.status)
    stopped by SIGTERM 143
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Terminated(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
            previous[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def ordered_map(
    function: Callable, calls: Iterable[tuple[tuple, dict]], *, n_jobs: int = 1
) -> Iterator:
    """``function(*args, **kwargs)`` for each ``(args, kwargs)`` of ``calls``, in order.

    ``n_jobs=1`` calls lazily in this process; otherwise joblib's processes run the calls
    (each :func:`guarded`: a worker ends if this process dies) and the results come back in
    the order of ``calls`` as they are ready (so a progress bar over the returned iterator
    moves as jobs finish).

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
    job = guarded(function)
    # imported here: joblib sets KMP_INIT_AT_FORK when imported, and `import fairbook` (or
    # fairbook.audit) must leave the process's environment as it was
    from joblib import Parallel, delayed

    return Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(job)(*args, **kwargs) for args, kwargs in calls
    )


def descendants(pid: int | None = None) -> list[int]:
    """The live processes descended from ``pid`` (default: this process), read from
    ``/proc`` (Linux; elsewhere an empty list). Zombies (ended, not yet reaped) are left out.

    Examples
    --------
    >>> import subprocess, sys
    >>> child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3)"])
    >>> child.pid in descendants() if os.path.isdir("/proc") else True
    True
    >>> child.kill(); child.wait()
    -9
    """
    pid = os.getpid() if pid is None else pid
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:  # pragma: no cover - no /proc
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return sorted(found)


def _reap(pid: int, *, interval: float = 0.2) -> None:
    """Watch ``pid``; once it is gone, kill -9 every process last seen descending from it.

    The body of the :func:`reaper` process: it keeps the latest list of ``pid``'s
    descendants (read from ``/proc``), so it still knows them after ``pid`` dies and they
    are re-parented.
    """
    known: list[int] = []
    while True:
        try:
            os.kill(pid, 0)
            alive = _state(pid) not in ("Z", None)
        except OSError:
            alive = False
        if not alive:
            for child in known:
                with contextlib.suppress(OSError):
                    os.kill(child, signal.SIGKILL)
            return
        known = [child for child in descendants(pid) if child != os.getpid()]
        time.sleep(interval)


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


@contextlib.contextmanager
def reaper(*, interval: float = 0.2) -> Iterator[None]:
    """Within the block, a small process watches this one and, if it dies (even by
    ``kill -9``), kills every process it had started: the worker pools of joblib and loky,
    including pools made by code that does not use :func:`guarded` (e.g. a recording's
    FIT runs). Linux only (it reads ``/proc``); elsewhere the block runs unwatched.

    Examples
    --------
    >>> with reaper():
    ...     pass
    """
    if not os.path.isdir("/proc"):
        yield
        return
    import subprocess
    import sys

    watcher = subprocess.Popen(
        [sys.executable, "-c", f"from fairbook.parallel import _reap; _reap({os.getpid()}, "
         f"interval={float(interval)!r})"],
        start_new_session=True,  # a Ctrl-C of the terminal does not reach it first
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield
    finally:
        watcher.terminate()
        with contextlib.suppress(Exception):
            watcher.wait(timeout=5)
