"""The second-order ablation's tables and answer, on synthetic recordings with known
numbers: the second order scales each run's PTN CRPS by a known factor, moves the operation
weights a known distance from uniform and takes twice the time."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters.parallel_time_networks._darts_order import (
    DEPARTURE,
    DEPARTURE_ROW,
    darts_order_decisions,
    darts_order_markdown,
    darts_order_table,
    departure_from_uniform,
)
from fairbook_book.recordings import Recording

FACTORS = np.linspace(0.75, 0.85, 7)  # second-order CRPS / first-order CRPS, per run


def second_order_from(decisive: Recording, *, runs=None) -> Recording:
    """The decisive recording's no-search units, as the second-order ablation would record
    them if second order scaled PTN's CRPS by FACTORS[run], set the history weights to
    0.6/0.2/0.2 and doubled the seconds."""
    frame = decisive.frame[~decisive.frame["search"].astype(bool)].drop(columns="search").copy()
    if runs is not None:
        frame = frame[frame["run"].isin(runs)]
    windows = frame["kind"] == "window"
    frame.loc[windows, "PTN"] = frame.loc[windows, "PTN"] * FACTORS[frame.loc[windows, "run"]]
    frame = frame.drop(columns=["TiDE", "Det.", "TiDE seconds", "search seconds"])
    epochs = frame["kind"] == "epoch"
    frame.loc[epochs, "weight:history/attention"] = 0.6
    frame.loc[epochs, ["weight:history/conv1d", "weight:history/bigru"]] = 0.2
    frame["PTN seconds"] *= 2
    frame["unit"] = "order2_" + frame["run"].astype(str)
    frame["order"] = 2
    units = sorted(frame["unit"].unique())
    provenance = [{**decisive.provenance[0], "unit": u} for u in units]
    return Recording("08_parallel_time_networks", "second_order", frame, provenance, "f", 7)


@pytest.fixture
def pair(synthetic_decisive):
    decisive = synthetic_decisive(runs=7)
    return decisive, second_order_from(decisive)


def test_departure_from_uniform_by_enumeration():
    frame = pd.DataFrame(
        {
            "weight:a/x": [1 / 3, 0.5, 1.0],
            "weight:a/y": [1 / 3, 0.25, 0.0],
            "weight:a/z": [1 / 3, 0.25, 0.0],
            "weight:b/u": [0.5, 0.5, 0.2],
            "weight:b/v": [0.5, 0.5, 0.8],
            "other": [9.0, 9.0, 9.0],
        }
    )
    np.testing.assert_allclose(departure_from_uniform(frame), [0.0, 0.5 - 1 / 3, 2 / 3])
    assert departure_from_uniform(pd.DataFrame({"x": [1.0]})).isna().all()


def test_the_table_pairs_each_run(pair):
    decisive, second = pair
    table = darts_order_table(decisive, second)
    assert list(table.index) == list(range(7))
    cold = table["PTN mean CRPS, final cycles"]
    np.testing.assert_allclose(cold["2nd order"] / cold["1st order"], FACTORS)
    warm = table["PTN mean CRPS, warm start"]
    np.testing.assert_allclose(warm["2nd order"] / warm["1st order"], FACTORS)
    gap = table[DEPARTURE]  # in thousandths of a weight
    np.testing.assert_allclose(gap["1st order"], 1e3 * (0.4 - 1 / 3))
    np.testing.assert_allclose(gap["2nd order"], 1e3 * (0.6 - 1 / 3))
    np.testing.assert_allclose(table[("final cycles, s", "ratio")], 2.0)
    # the warm start is not part of the final cycles' seconds (3 cycles of 10 s each)
    np.testing.assert_allclose(table[("final cycles, s", "1st order")], 30.0)
    assert (table[("", "hidden size")] == [24 + 24 * (r % 2) for r in range(7)]).all()
    assert table[("", "hidden size")].dtype.kind == "i"  # printed 24, not 24.0
    assert all(
        kind == "f"
        for kind in table.drop(columns=[("", "hidden size")]).dtypes.map(lambda d: d.kind)
    )


def test_the_decisions(pair):
    decisions = darts_order_decisions(*pair)
    for name in (
        "2nd vs 1st order (PTN, final cycles): skill Q2",
        "2nd vs 1st order (PTN, warm start): skill Q2",
    ):
        row = decisions.loc[name]
        # the median scales with the factor: skill = 1 - factor, exactly
        assert row["mean"] == pytest.approx(np.mean(1 - FACTORS))
        assert row["runs above zero"] == 7 and row["decision"] == "decided: the first wins"
    row = decisions.loc[DEPARTURE_ROW]
    assert row["mean"] == pytest.approx(1e3 * 0.2)
    assert row["runs"] == 7


def test_only_runs_in_both_recordings_are_paired(synthetic_decisive):
    decisive = synthetic_decisive(runs=7)
    second = second_order_from(decisive, runs=[0, 2, 5])
    assert list(darts_order_table(decisive, second).index) == [0, 2, 5]
    assert darts_order_decisions(decisive, second)["runs"].eq(3).all()
    one = second_order_from(decisive, runs=[4])
    assert darts_order_decisions(decisive, one).empty


def test_the_answer_is_written_from_the_numbers(pair):
    decisive, second = pair
    text = darts_order_markdown(decisive, second, darts_order_decisions(decisive, second))
    assert "2.0× the first-order time" in text
    # 7 searches of 100 s, twice as long: 0.19 h -> 0.39 h
    assert "recorded 0.2 hours over 7 single-threaded runs" in text
    assert "search at about 0.4 CPU-hours" in text
    assert text.count("**second-order DARTS wins**") == 2
    assert "**second order moves them further**" in text
    assert f"{1e3 * (0.4 - 1 / 3):.2f}" in text and f"{1e3 * (0.6 - 1 / 3):.2f}" in text
    assert "stale" not in text
    assert "Why not the search too" not in text  # only with the profile's settings
    config = {"epochs": 30, "final_cycles": 3, "final_epochs": 30}
    text = darts_order_markdown(decisive, second, darts_order_decisions(*pair), config=config)
    assert "takes 150 architecture steps (30 epochs); the final cycles above take 450" in text
    assert "there second order moved the weights further" in text and "took 3× fewer steps" in text
    # decided by the t interval only: said so, not called "not decided"
    partial = darts_order_decisions(*pair)
    partial.loc[DEPARTURE_ROW, "decision"] = "t interval: the first wins; sign test: not decided"
    text = darts_order_markdown(decisive, second, partial, config=config)
    assert "was not decided" not in text
    assert "reads t interval: the first wins; sign test: not decided (first = second" in text
    second.fingerprint = "changed"
    assert "**A recording is stale**" in darts_order_markdown(
        decisive, second, darts_order_decisions(decisive, second)
    )
