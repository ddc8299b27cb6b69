"""Tests of the Conditional HydraGAN chapter's computations (Adult from the offline cache)."""

import itertools

import numpy as np
import pandas as pd
import pytest
import torch

from fairbook.experiments import hydragan_chapter as hc
from fairbook.metrics import compare
from fairbook.papers import seed003

torch.set_num_threads(1)


def test_settings():
    assert hc.settings("fast")["n_seeds"] >= 2
    assert hc.settings("fast", epochs=3)["epochs"] == 3
    with pytest.raises(ValueError, match="profile"):
        hc.settings("huge")
    with pytest.raises(ValueError, match="target"):
        hc.settings("fast", target="flat")
    with pytest.raises(ValueError, match="n_seeds"):
        hc.settings("fast", n_seeds=0)


def test_activity_mapping_covers_adult_occupations():
    from fairbook.data import load_adult

    occupations = sorted(load_adult("train", drop_missing=True)["occupation"].unique())
    mapping = hc.activity_mapping(occupations)
    assert set(mapping.loc[mapping.positive, "occupation"]) == set(hc.SEDENTARY)
    assert set(hc.SEDENTARY) <= set(occupations)


def test_age_split_is_the_75th_percentile():
    from fairbook.data import load_adult

    age = load_adult("train", drop_missing=True)["age"]
    assert age.quantile(0.75) == hc.AGE_SPLIT
    assert 0.2 < (age > hc.AGE_SPLIT).mean() <= 0.25


def test_improvement_reproduces_table_3_4_up_to_rounding():
    for metric, classes in seed003.TABLE_3_4.items():
        for cls, v in classes.items():
            ours = hc.improvement(v["Real"], v["Synthetic"], hc.IDEAL[metric])
            assert ours == pytest.approx(v["Improves"], abs=0.0015), (metric, cls)


def small_frame():
    # 8 rows: sex × age band × 2; predictions chosen by hand
    sex = ["Female"] * 4 + ["Male"] * 4
    band = ["oldest 25 %", "youngest 75 %"] * 4
    f = pd.DataFrame({"sex": sex, "age_band": band})
    f["who"] = f.sex + ", " + f.age_band
    return f


def test_bias_scores_pair_and_cells_by_hand():
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


def fake_scores(n_seeds=3):
    rows = []
    for seed, data, (attr, (_, classes)), metric in itertools.product(
        range(n_seeds), ("real", "synthetic"), hc.ATTRIBUTES.items(), hc.METRICS
    ):
        for k, cls in enumerate(classes):
            value = hc.IDEAL[metric] + (0.2 if data == "real" else 0.1) * (1 - 2 * k) + seed / 100
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


def test_table_3_4_improvement_and_spread():
    scores = fake_scores()
    t = hc.table_3_4(scores, as_text=False)
    imp = t.xs("improves", level="data").xs("mean", axis=1, level=1)
    # |0.2 + s/100| − |0.1 + s/100| = 0.1 for the first class; for the second
    # |−0.2 + s/100| − |−0.1 + s/100| = 0.1 as well (s/100 < 0.1)
    assert np.allclose(imp.to_numpy(), 0.1)
    assert t.loc[("OFI", "real"), ("Female", "sd")] == pytest.approx(
        np.std([0, 0.01, 0.02], ddof=1)
    )
    text = hc.table_3_4(scores)
    assert "±" in text.loc[("DI", "real"), "Male"]
    beside = hc.table_3_4_beside_paper(scores)
    sign = ("verdict", "same sign")
    assert set(beside[sign]) <= {"yes", "no", "paper ±0"} and len(beside) == 16
    assert beside.loc[("OFI", "Female"), sign] == "paper ±0"  # printed -0.000
    assert beside.loc[("DI", "Male"), sign] == "yes"
    assert list(beside.columns.get_level_values(0).unique()) == ["paper", "ours", "verdict"]
    assert beside.loc[("DI", "oldest 25 %"), ("paper", "real")] == 1.891
    spread = hc.seed_spread(scores)
    assert list(spread.index) == list(hc.METRICS)
    with pytest.raises(ValueError, match="definition"):
        hc.table_3_4(scores, definition="rest")


@pytest.fixture(scope="module")
def small_run():
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
    t35 = hc.table_3_5(result)
    assert (t35[("Individuals", "synthetic")] == 0).all()
    assert (t35[("Individuals", "improvement %")] == 100).all()
    rep = hc.table_3_5_replication(t35)
    assert set(rep["verdict"]) == {"matches"} and len(rep) == 9
    beside = hc.table_3_5_beside_paper(t35)
    assert beside.loc[("KL divergence", "Activities"), ("paper", "real")] == 2.302
    assert set(beside[("verdict", "same sign")]) <= {"yes", "no", "paper ±0"}
    # real one-hot rows: the per-row reading gives ln k whatever the data
    k = len(result["activities"].loc[0])
    assert result["rowwise"].loc[(0, "real"), "KL divergence"] == pytest.approx(np.log(k))
    assert set(result["accuracy"].columns) == {"real", "synthetic"}


def test_same_seed_same_numbers(small_run):
    cfg, data, result = small_run
    again = hc.run_once(data, cfg, seed=0)["scores"]
    first = result["scores"][result["scores"].seed == 0].drop(columns="seed")
    pd.testing.assert_frame_equal(first.reset_index(drop=True), again.reset_index(drop=True))


def test_plots_grid_and_widget(small_run):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cfg, data, result = small_run
    axes = hc.bias_boxplot(result["scores"])
    assert len(axes) == 4
    ax = hc.representation_plot(result["who"].groupby(level="who").mean())
    assert ax.get_ylabel() == "proportion"
    grid = hc.mitigation_grid(data, cfg)
    assert set(grid["weight"]) == {0.0, 10.0}
    assert {"real", "synthetic", "js_synthetic"} <= set(grid.columns)
    w = hc.explorer(grid)
    assert len(w.children) == 3
    plt.close("all")


def test_reading_labels_each_case():
    rows = []
    for cls, ofi, di in (
        ("Female", 0.1, 1.5),
        ("Male", 0.1, 1.0),
        ("oldest 25 %", 0.0, 1.5),
        ("youngest 75 %", -0.001, 1.01),
    ):
        rows += [
            {"seed": 0, "data": "real", "definition": "pair", "class": cls, "metric": m, "value": v}
            for m, v in (("OFI", ofi), ("DI", di))
        ]
    r = hc.reading(pd.DataFrame(rows))
    assert r.loc["Female", "reading"].startswith("algorithmic bias (OFI) and")
    assert r.loc["Male", "reading"] == "algorithmic bias (OFI) that DI misses"
    assert r.loc["oldest 25 %", "reading"].startswith("systemic disparity")
    assert r.loc["youngest 75 %", "reading"] == "neither"
    assert r.loc["Female", "OFI direction"] == "toward the class"
