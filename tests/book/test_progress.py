"""Tests of :mod:`fairbook_book.progress`: the bar counts every joblib task of the block, on
each backend, and joblib is left as it was (also after an error)."""

import io

import joblib
import numpy as np
import pytest

from fairbook.variance.fit_runs import fit_runs_many
from fairbook_book.progress import parallel_progress


def _constant(*, seed, run, knobs):
    y = np.array([0, 1, 0, 1])
    return {"y_true": y, "y_pred": np.array([0, 1, 1, 1]), "groups": np.array(list("aabb"))}


@pytest.mark.parametrize("backend, n_jobs", [("sequential", 1), ("threading", 2), ("loky", 2)])
def test_the_bar_counts_every_task_of_every_call(backend, n_jobs):
    with parallel_progress("tasks", file=io.StringIO()) as bar:
        with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
            first = joblib.Parallel()(joblib.delayed(abs)(-k) for k in range(7))
            second = joblib.Parallel(batch_size=3)(joblib.delayed(abs)(k) for k in range(10))
    assert first == list(range(7)) and second == list(range(10))
    assert (bar.n, bar.total) == (17, 17)


def test_the_bar_counts_the_runs_of_fit_runs_many():
    experiments = [({"task": t}, _constant) for t in ("x", "y", "z")]
    text = io.StringIO()
    with parallel_progress("FIT runs", file=text) as bar:
        table = fit_runs_many(experiments, n_runs=4, backend="sequential")
    assert (bar.n, bar.total) == (12, 12)
    assert table.groupby("task")["run"].nunique().to_dict() == {"x": 4, "y": 4, "z": 4}
    assert "FIT runs" in text.getvalue() and "12/12" in text.getvalue()


def test_joblib_is_restored_after_the_block_and_after_an_error():
    call, report = joblib.Parallel.__call__, joblib.Parallel.print_progress
    with parallel_progress("ok", file=io.StringIO()):
        assert joblib.Parallel.__call__ is not call
    assert (joblib.Parallel.__call__, joblib.Parallel.print_progress) == (call, report)
    with pytest.raises(ZeroDivisionError):
        with parallel_progress("fails", file=io.StringIO()) as bar:
            joblib.Parallel(n_jobs=1)(joblib.delayed(divmod)(1, k) for k in (1, 0))
    assert (joblib.Parallel.__call__, joblib.Parallel.print_progress) == (call, report)
    assert bar.total == 2


def test_a_call_outside_the_block_counts_nothing():
    with parallel_progress("empty", file=io.StringIO()) as bar:
        pass
    joblib.Parallel(n_jobs=1)(joblib.delayed(abs)(k) for k in range(3))
    assert (bar.n, bar.total) == (0, 0)


def test_a_jupyterlab_bar_takes_each_new_total(monkeypatch):
    # in JupyterLab tqdm.auto is tqdm.notebook: its widget's maximum must follow the total,
    # and the bar must not stay the grey "unknown total" sliver it starts as
    pytest.importorskip("ipywidgets")
    from tqdm.notebook import tqdm as notebook_tqdm

    import fairbook_book.progress as progress

    monkeypatch.setattr(progress, "tqdm", notebook_tqdm)
    with progress.parallel_progress("FIT runs", unit="run") as bar:
        joblib.Parallel(n_jobs=1)(joblib.delayed(abs)(k) for k in range(5))
        joblib.Parallel(n_jobs=1)(joblib.delayed(abs)(k) for k in range(7))
        widget = bar.container.children[1]
        assert (widget.max, bar.n, bar.total) == (12, 12, 12)
        assert widget.bar_style != "info"
