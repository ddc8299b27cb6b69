"""Tests of the chapter "How stable is a fairness verdict?": predictions and values."""

import numpy as np
import pandas as pd
import pytest

from fairbook.metrics import bias_report, compare
from fairbook.variance.verdicts import group_counts
from fairbook_book.chapters import verdict_stability as vs


def test_compas_keeps_every_person_and_group():
    data = vs.load_dataset("compas")
    assert len(data.evaluated) == len(data.y) == 6172
    counts = data.groups["race"].value_counts()
    assert counts["Asian"] == 31 and counts["Native American"] == 11
    rows = np.sort(np.concatenate([te for _, te in data.splits]))
    np.testing.assert_array_equal(rows, np.arange(6172))  # every row predicted once
    with pytest.raises(ValueError, match="unknown data set"):
        vs.load_dataset("german")


def test_predictions_have_every_variant_and_the_base_setting_is_the_base(tiny_build):
    frame = tiny_build["predictions"]["compas-logistic"]
    assert {"FIT:0", "FIT:1", "seed:0", "seed:1", "setting:0", "setting:3"} <= set(frame)
    np.testing.assert_array_equal(frame["setting:0"], frame[vs.BASE])
    # logistic regression (lbfgs) takes nothing from the seed: identical predictions
    np.testing.assert_array_equal(frame["seed:0"], frame["seed:1"])
    forest = tiny_build["predictions"]["compas-forest"]
    assert (forest["seed:0"] != forest["seed:1"]).any()  # a forest's seed matters
    np.testing.assert_array_equal(forest["FIT:0"], forest["FIT:1"])  # sklearn on CPU


def test_values_equal_the_metrics_recomputed(tiny_build):
    table = tiny_build["table"]
    frame = tiny_build["predictions"]["compas-forest"]
    rows = table[(table.model == "forest") & (table.source == "seed") & (table.variant == "1")]
    counts, labels = group_counts(frame["y_true"], frame["seed:1"], frame["race"])
    ref = counts[list(labels).index("Caucasian")]
    asian = counts[list(labels).index("Asian")]
    got = rows[(rows.group == "Asian") & (rows.metric == "DI")]["value"].iloc[0]
    assert got == pytest.approx(compare("DI", asian, ref))
    seven = bias_report(frame["y_true"], frame["seed:1"], frame["sex"], positive=1)
    got = rows[(rows.attribute == "sex") & (rows.metric == "DP")]["value"].iloc[0]
    assert got == pytest.approx(float(seven["DP"].iloc[0]))
    boot = table[(table.model == "forest") & (table.source == "bootstrap")]
    assert set(boot["variant"]) == {"0", "1", "2"}
    # stratified resamples keep every group's size
    asian_n = boot[(boot.group == "Asian")]["n"].unique().tolist()
    assert asian_n == [31]


def test_a_unit_is_reproduced_bit_for_bit(tiny_config, tiny_build):
    unit = vs.run_unit("compas-logistic", tiny_config)
    built = tiny_build["table"]
    built = built[built.model == "logistic"].reset_index(drop=True)
    assert unit.equals(built)
    assert vs.units(tiny_config) == ["compas-logistic", "compas-forest"]
    assert vs.RECORDINGS["verdicts"].units(vs.settings("full")) == [
        f"{d}-{m}" for d in ("compas", "adult") for m in vs.MODELS
    ]


def test_a_recorded_unit_loads_back_into_the_same_flip_table(tmp_path, tiny_config, tiny_build):
    from fairbook_book.recordings import record

    config = {**tiny_config, "models": ("logistic",)}
    record("10_verdict_stability", vs.VERDICT_RECORDING, config, root=tmp_path, progress=False)
    loaded = vs.recorded(config, root=tmp_path)
    assert not loaded.empty and not loaded.stale
    frame = loaded.frame.drop(columns=["unit"], errors="ignore")
    built = tiny_build["table"]
    built = built[built.model == "logistic"].reset_index(drop=True)
    got = vs.flip_table(frame, config)
    want = vs.flip_table(built, config)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_dtype=False)


@pytest.mark.parametrize("model", ["bnn", "ensemble"])
def test_seed_000_estimators_repeat_on_the_same_thread_count(model):
    """FIT run r of the BNN and the ensemble trains the same seed on 1 + r mod 2 threads:
    runs on the same number of threads are bit-identical, and run 0 is the base model."""
    config = vs.settings(
        "fast", datasets=("adult",), models=(model,), n_runs=3, adult_train_rows=400
    )
    frame = vs.predictions("adult", model, config)
    np.testing.assert_array_equal(frame["FIT:0"], frame["FIT:2"])
    np.testing.assert_array_equal(frame["FIT:0"], frame[vs.BASE])
    np.testing.assert_array_equal(frame["setting:0"], frame[vs.BASE])
    assert (frame["seed:0"] != frame["seed:1"]).any()  # a seed draws other weights
    assert (frame["seed:0"] != frame["setting:1"]).any()  # a tenfold smaller learning rate
    assert set(np.unique(frame[vs.BASE])) <= {0, 1}


def test_uncertainty_values_are_chapter_04s_ratios_under_each_source():
    from fairbook.variance.verdicts import bootstrap_indices
    from fairbook_book.chapters import uncertainty_fairness as uf

    config = vs.settings("fast", n_runs=2, n_boot=3)
    values = vs.uncertainty_values("compas", config)
    assert set(values["source"]) == {"FIT", "seed", "bootstrap"}
    assert set(values["kind"]) == {"point", "uncertainty"}
    # the base run is FIT:0 and seed:0, and both are chapter 04's run of seed 0
    base = uf.tabular_run("compas", seed=0, config=uf.settings("fast"))
    race = uf.fairness_result(base, "race", protected="B", reference="W").ratios
    for source in ("FIT", "seed"):
        got = values[(values.source == source) & (values.variant == "0")]
        got = got[got.attribute == "race"].set_index("measure")["value"]
        pd.testing.assert_series_equal(got, race, check_names=False)
    # a bootstrap resample is the base run's rows drawn within the attribute's groups
    rows = bootstrap_indices(np.asarray(base.groups["sex"], dtype=object), n_boot=3, seed=0)[1]
    from fairbook_book.chapters.verdict_stability.runs import _rows_subset

    want = uf.fairness_result(_rows_subset(base, rows), "sex", protected="F", reference="M")
    got = values[(values.source == "bootstrap") & (values.variant == "1")]
    got = got[got.attribute == "sex"].set_index("measure")["value"]
    pd.testing.assert_series_equal(got, want.ratios, check_names=False)
    assert (values[values.source == "bootstrap"].groupby("attribute").size() == 3 * 9).all()
    with pytest.raises(ValueError, match="unknown data set"):
        vs.uncertainty_values("german", config)
    with pytest.raises(ValueError, match="at least 2"):
        vs.uncertainty_values("compas", {**config, "n_runs": 1})
    assert vs.RECORDINGS["uncertainty"].units(vs.settings("full")) == ["compas", "adult"]
