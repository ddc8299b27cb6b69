"""Fixtures of the tests of :mod:`fairbook_book.chapters.verdict_stability`: a tiny profile
(2 runs, 3 resamples, logistic regression and 3-tree forests on COMPAS) built once."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

from fairbook_book.chapters import verdict_stability as vs

TINY = dict(
    datasets=("compas",),
    models=("logistic", "forest"),
    n_runs=2,
    n_boot=3,
    n_estimators=3,
    mlp_epochs=1,
    adult_train_rows=500,
    sizes=(10, 50),
    size_draws=3,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="session")
def tiny_config():
    return vs.settings("fast", **TINY)


@pytest.fixture(scope="session")
def tiny_build(tiny_config):
    return vs.build(tiny_config)
