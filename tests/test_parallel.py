"""Tests of fairbook.parallel: the n_jobs check and the order-keeping map."""

import numpy as np
import pytest

from fairbook.parallel import check_n_jobs, ordered_map


def _draw(seed, size):
    return np.random.default_rng(seed).normal(size=size)


@pytest.mark.parametrize("n_jobs", [1, 2, -1])
def test_ordered_map_keeps_the_order_and_the_numbers(n_jobs):
    calls = [((seed,), {"size": 5 + seed}) for seed in range(6)]
    serial = [_draw(seed, size=5 + seed) for seed in range(6)]
    out = list(ordered_map(_draw, calls, n_jobs=n_jobs))
    assert len(out) == len(serial)
    for a, b in zip(out, serial, strict=True):
        np.testing.assert_array_equal(a, b)


def test_serial_map_is_lazy():
    seen = []
    results = ordered_map(seen.append, [((i,), {}) for i in range(3)])
    assert seen == []
    next(results)
    assert seen == [0]


def test_check_n_jobs():
    assert check_n_jobs(3) == 3 and check_n_jobs(np.int64(-1)) == -1
    for bad in (0, 1.5, True, "2", None):
        with pytest.raises(ValueError, match="n_jobs must be a non-zero integer"):
            check_n_jobs(bad)
    with pytest.raises(ValueError, match="n_jobs"):
        list(ordered_map(pow, [((2, 2), {})], n_jobs=0))


def test_guarded_runs_as_is_here_and_signals_keep_their_handlers():
    import signal

    import fairbook.parallel as parallel

    before = parallel._WATCHING
    assert parallel.guarded(pow)(2, 3) == 8 and parallel._WATCHING == before  # no watchdog here
    assert parallel.guarded(parallel.guarded(pow)).function is pow
    mine = signal.signal(signal.SIGTERM, lambda *a: None)
    try:
        custom = signal.getsignal(signal.SIGTERM)
        with parallel.stop_on_signals():
            assert signal.getsignal(signal.SIGTERM) is custom  # a handler already set is kept
    finally:
        signal.signal(signal.SIGTERM, mine)


def _killing_leaves_no_process(tmp_path, body: str) -> None:
    """Run `body` (after a ``spin`` that marks its worker and never ends) in a process, wait
    for two workers, ``kill -9`` the process and require every process it started to end."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    from fairbook.parallel import descendants

    if not Path("/proc").is_dir():
        pytest.skip("reads the process tree from /proc")
    script = tmp_path / "spin.py"
    script.write_text(
        "import os, sys\n"
        "def spin(i):\n"
        "    open(os.path.join(sys.argv[1], f'w{os.getpid()}'), 'w').close()\n"
        "    while True: sum(range(1000))\n" + body
    )
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path)])
    try:
        end = time.monotonic() + 60
        while len(list(tmp_path.glob("w*"))) < 2 and time.monotonic() < end:
            time.sleep(0.1)
        workers = {int(p.name[1:]) for p in tmp_path.glob("w*")}
        assert len(workers) == 2 and workers <= set(descendants(parent.pid))
        time.sleep(0.5)  # a reaper, if any, has seen them
        tree = descendants(parent.pid)
        parent.kill()  # kill -9: nothing in the parent runs
        parent.wait()

        def alive(pid):
            try:
                return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
            except OSError:
                return False

        end = time.monotonic() + 10
        while any(alive(pid) for pid in tree) and time.monotonic() < end:
            time.sleep(0.2)
        assert [pid for pid in tree if alive(pid)] == []
    finally:
        if parent.poll() is None:
            parent.kill()


def test_workers_end_when_their_parent_is_killed(tmp_path):
    _killing_leaves_no_process(
        tmp_path,
        "from fairbook.parallel import ordered_map\n"
        "list(ordered_map(spin, [((i,), {}) for i in range(2)], n_jobs=2))\n",
    )


def test_the_reaper_ends_pools_that_are_not_guarded(tmp_path):
    """kill -9 of a process inside reaper() ends even the joblib workers it started without
    guarded() (as a recording's FIT runs do)."""
    _killing_leaves_no_process(
        tmp_path,
        "from joblib import Parallel, delayed\n"
        "from fairbook.parallel import reaper\n"
        "with reaper():\n"
        "    Parallel(n_jobs=2)(delayed(spin)(i) for i in range(2))\n",
    )
