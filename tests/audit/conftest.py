"""A table of predictions with every optional input, shared by the report's tests."""

import numpy as np
import pandas as pd
import pytest


def make_table(n: int = 800, *, seed: int = 7) -> pd.DataFrame:
    """Two group columns (one with an 11-person group), labels, a probability score, three
    runs and four posterior samples."""
    rng = np.random.default_rng(seed)
    race = rng.choice(["White", "Black", "Hispanic"], n, p=[0.6, 0.3, 0.1]).astype(object)
    race[:11] = "Asian"
    sex = rng.choice(["F", "M"], n)
    y = rng.random(n) < np.where(race == "Black", 0.5, 0.35)
    base = np.clip(0.25 + 0.4 * y + np.where(race == "Black", 0.12, 0.0), 0, 1)
    frame = pd.DataFrame({"y_true": y.astype(int), "race": race, "sex": sex})
    frame["score"] = np.clip(base + rng.normal(0, 0.15, n), 0, 1)
    frame["y_pred"] = (frame["score"] > 0.5).astype(int)
    for run in range(3):
        frame[f"pred_{run}"] = (frame["score"] + rng.normal(0, 0.08, n) > 0.5).astype(int)
    spread = np.where(race == "Hispanic", 0.25, 0.05)
    for t in range(4):
        frame[f"p_{t}"] = np.clip(frame["score"] + rng.normal(0, spread, n), 0, 1)
    return frame


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return make_table()


@pytest.fixture(scope="module")
def full_report(table):
    from fairbook.audit import audit

    return audit(
        table,
        groups=["race", "sex"],
        intersections=True,
        score="score",
        runs=["pred_*"],
        samples=["p_*"],
    )
