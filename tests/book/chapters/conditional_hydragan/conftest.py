"""Fixtures shared by the tests of :mod:`fairbook_book.chapters.conditional_hydragan`.

Figures are drawn with the Agg backend and closed after every test; torch runs on one
thread. ``small_frame`` gives eight people (sex × age band × 2), ``fake_scores`` long
scores over seeds with a known improvement, and ``small_run`` a tiny run of the whole
experiment on Adult from the offline cache (computed once per session).
"""

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest
import torch

from fairbook_book.chapters import conditional_hydragan as hc

torch.set_num_threads(1)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def small_frame():
    """A function returning 8 rows: sex × age band × 2, with their who-cells."""

    def small_frame():
        sex = ["Female"] * 4 + ["Male"] * 4
        band = ["oldest 25 %", "youngest 75 %"] * 4
        f = pd.DataFrame({"sex": sex, "age_band": band})
        f["who"] = f.sex + ", " + f.age_band
        return f

    return small_frame


@pytest.fixture
def fake_scores():
    """A function returning long scores (pair definition) over ``n_seeds`` seeds."""

    def fake_scores(n_seeds=3):
        rows = []
        for seed, data, (attr, (_, classes)), metric in itertools.product(
            range(n_seeds), ("real", "synthetic"), hc.ATTRIBUTES.items(), hc.METRICS
        ):
            for k, cls in enumerate(classes):
                value = (
                    hc.IDEAL[metric] + (0.2 if data == "real" else 0.1) * (1 - 2 * k) + seed / 100
                )
                rows.append(
                    {
                        "seed": seed,
                        "data": data,
                        "attribute": attr,
                        "class": cls,
                        "definition": "pair",
                        "metric": metric,
                        "value": value,
                    }
                )
        return pd.DataFrame(rows)

    return fake_scores


@pytest.fixture(scope="session")
def small_run():
    """``(config, data, result)``: 600 training rows, 3 GAN epochs, 2 seeds."""
    cfg = hc.settings(
        "fast",
        n_train=600,
        n_synthetic=600,
        epochs=3,
        n_seeds=2,
        mlp_epochs=5,
        grid_epochs=2,
        grid_n_train=400,
        grid_weights=(0.0, 10.0),
        grid_targets=("uniform",),
        hidden=(16, 16),
    )
    data = hc.prepare_data(cfg)
    return cfg, data, hc.run_experiment(data, cfg)
