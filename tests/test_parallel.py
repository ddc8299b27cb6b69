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
