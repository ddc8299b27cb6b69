"""Tests of :mod:`fairbook_book.chapters.conditional_hydragan.runs`: the stand-in data, the
bias scores by hand, and a tiny run of the whole experiment (Adult from the offline cache).

Oracles: seed 003 Table 3.4's printed improvements; confusion counts by hand.
"""

import numpy as np
import pandas as pd
import pytest

from fairbook.metrics import compare
from fairbook.papers import seed003
from fairbook_book.chapters import conditional_hydragan as hc


def test_improvement_reproduces_table_3_4_up_to_rounding():
    for metric, classes in seed003.TABLE_3_4.items():
        for cls, v in classes.items():
            ours = hc.improvement(v["Real"], v["Synthetic"], hc.IDEAL[metric])
            assert ours == pytest.approx(v["Improves"], abs=0.0015), (metric, cls)


def test_bias_scores_pair_and_cells_by_hand(small_frame):
    f = small_frame()
    y = np.array([1, 0, 1, 0, 1, 1, 0, 0])
    p = np.array([1, 1, 1, 0, 1, 0, 0, 0])
    s = hc.bias_scores(y, p, f).set_index(["attribute", "class", "definition", "metric"])
    fem, male = f.sex == "Female", f.sex == "Male"
    # Female: TP 2, FN 0, FP 1, TN 1; Male: TP 1, FN 1, FP 0, TN 2
    assert s.loc[("sex", "Female", "pair", "OFI"), "value"] == pytest.approx(
        compare("OFI", [2, 0, 1, 1], [1, 1, 0, 2])
    )
    assert s.loc[("sex", "Female", "pair", "OFI"), "value"] == pytest.approx(0.5)
    assert s.loc[("sex", "Male", "pair", "OFI"), "value"] == pytest.approx(-0.5)
    assert s.loc[("sex", "Female", "pair", "DI"), "value"] == pytest.approx(3 / 4 / (1 / 4))
    assert s.loc[("sex", "Male", "pair", "DI"), "value"] == pytest.approx(1 / 3)

    # cells: each cell against the other 6 rows, averaged over the class's two cells
    def cm(m):
        return [int(((y == t) & (p == q) & m).sum()) for t, q in ((1, 1), (1, 0), (0, 1), (0, 0))]

    cells = []
    for w in f.loc[fem, "who"].unique():
        inside = (f.who == w).to_numpy()
        cells.append(compare("DPPL", cm(inside), cm(~inside)))
    assert s.loc[("sex", "Female", "cells", "DPPL"), "value"] == pytest.approx(np.mean(cells))
    assert len(s) == 2 * 2 * 2 * len(hc.METRICS)
    assert male.sum() == 4


def test_prepare_data(small_run):
    cfg, data, _ = small_run
    train, test = data["train"], data["test"]
    assert len(train) == 600 and len(test) > 10000
    assert set(train["who"]) == {"Female, old", "Female, young", "Male, old", "Male, young"}
    assert ((train.age > hc.AGE_SPLIT) == (train.age_band == "oldest 25 %")).all()
    assert (train.sedentary == train.occupation.isin(hc.SEDENTARY)).all()


def test_run_experiment_shapes_and_exact_individuals(small_run):
    cfg, data, result = small_run
    assert set(result["scores"]["seed"]) == {0, 1}
    assert result["scores"]["value"].notna().all()
    who = result["who"]
    assert np.allclose(who["synthetic"], 0.25)  # the infinitely strong conditional
    # real one-hot rows: the per-row reading gives ln k whatever the data
    k = len(result["activities"].loc[0])
    assert result["rowwise"].loc[(0, "real"), "KL divergence"] == pytest.approx(np.log(k))
    assert set(result["accuracy"].columns) == {"real", "synthetic"}


def test_same_seed_same_numbers(small_run):
    cfg, data, result = small_run
    again = hc.run_once(data, cfg, seed=0)["scores"]
    first = result["scores"][result["scores"].seed == 0].drop(columns="seed")
    pd.testing.assert_frame_equal(first.reset_index(drop=True), again.reset_index(drop=True))


def test_generated_rows_have_the_designs_columns(small_run):
    from fairbook.data.designs import adult_design
    from fairbook_book.chapters.conditional_hydragan.runs import _generated_features

    cfg, data, result = small_run
    gan = result["runs"][0]["model"]
    design = adult_design(hc.DESIGN, data["train"], data["test"])
    # real rows through the GAN's own encoders are exactly the design's matrix
    real = _generated_features(
        gan, gan.encoder_.transform(data["train"]), data["train"], design.names
    )
    assert real.dtype == design.train.dtype and np.array_equal(real, design.train)
    with pytest.raises(ValueError, match="not those of design"):
        _generated_features(
            gan, gan.encoder_.transform(data["train"]), data["train"], design.names[::-1]
        )


# ------------------------------------------------------------------ the recorded seeds
def _parts(result):
    return {k: result[k] for k in ("scores", "accuracy", "rowwise", "activities", "who")}


def test_a_flattened_run_merges_back_into_run_experiment_bit_for_bit(small_run, tmp_path):
    """Oracle: run_experiment's own result. Flattening each seed (the recording's unit
    table, through Parquet) and merging the units back must give the same tables, dtypes
    included (the generated proportions are float32)."""
    from fairbook_book.recordings import Recording

    _, _, result = small_run
    frames = []
    for seed, run in result["runs"].items():
        table = hc.flatten_run(run)
        assert list(table.columns)[-1] == "value"
        table.to_parquet(tmp_path / f"{seed}.parquet", index=False, compression="zstd")
        table = pd.read_parquet(tmp_path / f"{seed}.parquet")
        frames.append(table.assign(unit=f"seed{seed:02d}"))
    frame = pd.concat(frames[::-1], ignore_index=True)  # the loader's order must not matter
    frame.insert(0, "unit", frame.pop("unit"))
    provenance = [{"unit": f"seed{s:02d}", "fingerprint": "f"} for s in result["runs"]]
    merged = hc.recorded_experiment(
        Recording("07_conditional_hydragan", "seeds", frame, provenance, "f", expected=2)
    )
    for key, table in _parts(result).items():
        pd.testing.assert_frame_equal(merged[key], table, check_exact=True, obj=key)


def test_a_seed_unit_is_that_seed_of_run_experiment(small_run):
    cfg, _, result = small_run
    unit = hc.seed_unit("seed01", cfg)
    pd.testing.assert_frame_equal(unit, hc.flatten_run(result["runs"][1]), check_exact=True)
    assert hc.seed_units({"seed": 3, "n_seeds": 2}) == ["seed03", "seed04"]
    with pytest.raises(ValueError, match="is not"):
        hc.seed_unit("s1", cfg)


def test_real_half_is_the_real_rows_of_run_once(small_run):
    cfg, data, result = small_run
    half = hc.real_half(data, cfg, seed=0)
    scores = result["scores"]
    real = scores[(scores["seed"] == 0) & (scores["data"] == "real")].drop(columns="seed")
    pd.testing.assert_frame_equal(half["scores"], real.reset_index(drop=True), check_exact=True)
    assert half["accuracy"] == result["accuracy"].loc[0, "real"]
