"""Tests of the chapter "How stable is a fairness verdict?": tables from runs, on a
synthetic table whose flip rates are known, and on the tiny build."""

import numpy as np
import pandas as pd
import pytest

from fairbook.experiments import verdict_stability as vs


def _synthetic():
    rows = []
    # DI of group "a": fair in both seeds, unfair in one of 2 settings; bootstrap alternates
    values = {
        "seed": [1.0, 1.0],
        "setting": [1.0, 0.5],
        "bootstrap": [1.0, 0.5, 1.0, 0.5],
        "FIT": [1.0, 1.0],
    }
    for source, vals in values.items():
        for k, v in enumerate(vals):
            for metric, value in (("DI", v), ("OFI", 0.2), ("EOpp", -0.2)):
                rows.append(
                    {
                        "dataset": "d",
                        "model": "m",
                        "source": source,
                        "variant": str(k),
                        "attribute": "g",
                        "group": "a",
                        "n": 40,
                        "metric": metric,
                        "value": value,
                        "kind": "value",
                    }
                )
    return pd.DataFrame(rows)


def test_flip_table_on_a_known_table():
    config = vs.settings("fast")
    flips = vs.flip_table(_synthetic(), config).set_index("metric")
    assert flips.loc["DI", "seed"] == 0 and flips.loc["DI", "setting"] == 1.0
    assert flips.loc["DI", "bootstrap"] == pytest.approx(4 / 6)
    assert flips.loc["OFI", "max"] == 0
    # base: DI 1.0 (fair), OFI 0.2 and EOpp -0.2 (unfair): 2 of the 3 pairs disagree
    assert flips.loc["DI", "metric choice"] == pytest.approx(2 / 3)
    top = vs.most_unstable(flips.reset_index(), config, k=1).iloc[0]
    assert (
        top["metric"] == "DI"
        and top["source"] == "setting"
        and top["distance"] == pytest.approx(0.2)
    )
    assert "100% of pairs under setting" in top["why"]
    assert top["mean_rate"] == pytest.approx((1 + 4 / 6) / 4)


def test_disagreement_on_a_known_table():
    d = vs.metric_disagreement(_synthetic())
    base = d["base"].iloc[0]
    assert (base["DI"], base["OFI"], base["EOpp"], base["disagree"]) == (0, 1, -1, 1)
    pairs = d["pairs"].set_index("pair")["share"]
    assert pairs["DI vs OFI"] == 1 and pairs["OFI vs EOpp"] == 1
    stab = d["stability"].set_index("source")
    assert stab.loc["setting", "flip_rate"] == 0  # DI 0.5 favours the reference: still differs


def test_size_needed_and_advice_from_numbers():
    curve = pd.DataFrame(
        {
            "dataset": "d",
            "model": "m",
            "metric": "DI",
            "source": "samples",
            "size": [10, 100, 1000],
            "flip_rate": [0.5, 0.2, 0.05],
        }
    )
    assert vs.size_needed(curve)["size_needed"].tolist() == [1000.0]
    flips = vs.flip_table(_synthetic(), vs.settings("fast"))
    d = vs.metric_disagreement(_synthetic())
    table = vs.advice(flips, curve, d)
    assert list(table["topic"]) == [
        "which source to vary",
        "how many runs",
        "what group size",
        "which metrics to report",
    ]
    assert "Vary setting first" in table["advice"].iloc[0]
    assert "below 1000 people" in table["advice"].iloc[2]


def test_tables_of_the_tiny_build(tiny_build, tiny_config):
    flips = vs.flip_table(tiny_build["table"], tiny_config)
    assert set(flips["model"]) == {"logistic", "forest"}
    assert (flips.query("model == 'logistic'")["seed"] == 0).all()  # no seed in lbfgs
    assert ((flips["FIT"] == 0) | flips["FIT"].isna()).all()
    differ = vs.fit_differences(tiny_build["predictions"]).set_index("unit")
    assert (differ["FIT rows differing"] == 0).all()  # sklearn on a CPU
    assert differ.loc["compas-logistic", "seed rows differing"] == 0
    assert differ.loc["compas-forest", "seed rows differing"] > 0
    summary = vs.source_summary(flips)
    assert len(summary) == 2 and summary["flips"].between(0, 1).all()
    curve = vs.size_table(tiny_build["table"])
    assert set(curve["size"]) == {10, 50} and set(curve["source"]) == {"runs", "samples"}
    small = vs.small_group_table(tiny_build["predictions"]["compas-forest"], "compas", tiny_config)
    assert {"Asian", "Native American"} <= set(small["group"])
    assert (small["n"] < tiny_config["small_n"]).all()
    assert small["p_holm"].dropna().between(0, 1).all()
    assert np.isfinite(small["cps"]).all()
