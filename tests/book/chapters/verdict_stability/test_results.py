"""Tests of the chapter "How stable is a fairness verdict?": tables from runs, on a
synthetic table whose flip rates are known, and on the tiny build."""

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapters import verdict_stability as vs


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
    # base DI 1.0: 0.2 from the nearest threshold 0.8; flips under settings (1.00) and the
    # bootstrap (4/6), never under FIT runs or seeds
    assert top["why"] == (
        "In d, the m's DI for a (g, n = 40) is 1.000, 0.200 from the nearest threshold (0.8); "
        "its verdict's flip rate is 1.00 under training settings and 0.67 under bootstrap "
        "resamples, and 0 under FIT runs and seeds."
    )
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
    assert "Vary the training settings first" in table["advice"].iloc[0]
    # 3 verdicts (DI, OFI, EOpp of group a); only DI flips under the settings, at rate 1
    assert "(mean flip rate 0.333; 33 % of verdicts flip under them)" in table["advice"].iloc[0]
    assert "below 1,000 people" in table["advice"].iloc[2]
    assert table["rests_on"].iloc[2] == "d DI: 1,000 people"
    # DI vs OFI and OFI vs EOpp disagree in every comparison, DI vs EOpp in none
    assert "(100 % of comparisons)" in table["advice"].iloc[3]
    for sentence in table["advice"]:
        assert "%" not in sentence.replace(" %", "")  # one percent style: "50 %"


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


# ---- the BNN family: seed 000's ratios under seeds and unstated settings (chapter 04's study)
def _study(values: dict) -> pd.DataFrame:
    """{cell: [value per seed]} for COMPAS race F_Epis, plus a point ratio and noise rows."""
    rows = []
    for cell, per_seed in values.items():
        for seed, value in enumerate(per_seed):
            rows.append(("COMPAS", "race", "F_Epis", cell, seed, value))
            rows.append(("COMPAS", "race", "F_SP", cell, seed, 2.0))  # always unfair
            rows.append(("COMPAS", "B", "U_e", cell, seed, 0.3))  # a group row: ignored
            rows.append(("SD1", "ratio", "F_Epis", cell, seed, 9.0))  # SD: ignored
    return pd.DataFrame(rows, columns=["dataset", "role", "measure", "cell", "seed", "value"])


def test_uncertainty_flip_table_by_hand():
    # seeds 0-3 in the chapter's cell: unfair, fair, fair, undefined (|F − 1| = 0.2 is fair)
    study = _study({"chapter": [1.5, 1.2, 0.8, np.nan], "a": [1.5, 1.5, 0.5, 1.0]})
    flips = vs.uncertainty_flip_table(study).set_index("measure")
    assert set(flips.index) == {"F_Epis", "F_SP"}
    epis = flips.loc["F_Epis"]
    assert epis["kind"] == "uncertainty" and flips.loc["F_SP", "kind"] == "point"
    assert epis["share unfair"] == pytest.approx(1 / 3)
    assert epis["seeds"] == pytest.approx(1 * 2 / 3)  # k (m − k) / C(m, 2), m = 3, k = 1
    # per seed across the two cells: agree, flip, flip, undefined → mean of (0, 1, 1)
    assert epis["unstated settings"] == pytest.approx(2 / 3)
    assert (epis["n seeds"], epis["n settings"]) == (4, 2)
    assert flips.loc["F_SP", ["seeds", "unstated settings"]].tolist() == [0.0, 0.0]
    summary = vs.uncertainty_flip_summary(flips.reset_index())
    assert summary.loc[("COMPAS", "uncertainty"), "seeds"] == pytest.approx(2 / 3)


def test_uncertainty_flip_table_uses_seed_000s_flag_rule():
    from fairbook_book.chapters.uncertainty_fairness.runs import _flag

    values = np.random.default_rng(0).uniform(0.5, 1.5, size=200)
    values[:4] = [0.8, 1.2, 0.8 - 1e-9, 1.2 + 1e-9]
    study = pd.DataFrame(
        {
            "dataset": "Adult",
            "role": "sex",
            "measure": "F_Alea",
            "cell": "chapter",
            "seed": np.arange(len(values)),
            "value": values,
        }
    )
    share = vs.uncertainty_flip_table(study)["share unfair"].iloc[0]
    assert share == pytest.approx(np.mean([_flag(v) == "unfair" for v in values]))


def test_uncertainty_flip_table_refuses_what_it_cannot_read():
    with pytest.raises(ValueError, match="no column"):
        vs.uncertainty_flip_table(pd.DataFrame({"cell": ["chapter"]}))
    with pytest.raises(ValueError, match="not in the study"):
        vs.uncertainty_flip_table(_study({"other": [1.0, 2.0]}))


def test_a_stale_or_empty_study_recording_gives_no_bnn_verdicts():
    from fairbook_book.recordings import Recording

    study = _study({"chapter": [1.5, 1.0]})

    def recording(fingerprint):
        unit = {"unit": "chapter-s00", "fingerprint": fingerprint, "seconds": 9.0,
                "date": "2026-11-25T18:00:00+00:00", "commit": "abc1234", "cores": 2,
                "n_jobs": 1}  # fmt: skip
        return Recording("04_uncertainty_fairness", "study", study, [unit], "now", expected=1)

    label, table = vs.recorded_uncertainty_flips(recording("now"))
    assert len(table) == 2 and "STALE" not in label
    label, table = vs.recorded_uncertainty_flips(recording("old"))
    assert table.empty and "STALE" in label
    assert vs.uncertainty_flip_summary(table).empty
    label, table = vs.recorded_uncertainty_flips(Recording("04", "study", pd.DataFrame()))
    assert table.empty and "nothing recorded" in label


def _values(source_values: dict) -> pd.DataFrame:
    rows = [
        {"dataset": "Adult", "attribute": "sex", "measure": measure, "kind": kind,
         "source": source, "variant": str(i), "value": v}
        for measure, kind in (("F_Epis", "uncertainty"), ("F_SP", "point"))
        for source, values in source_values.items()
        for i, v in enumerate(values)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_bnn_flip_table_by_hand_and_against_flip_rate():
    values = _values(
        {
            "FIT": [1.5, 1.5, 1.5],  # unfair ×3: no flip
            "seed": [1.5, 1.1, 0.7, np.nan],  # unfair, fair, unfair, undefined
            "bootstrap": [1.0, 1.0, 1.3, 1.25],  # fair, fair, unfair, unfair
        }
    )
    flips = vs.bnn_flip_table(values).set_index("measure")
    epis = flips.loc["F_Epis"]
    assert epis["kind"] == "uncertainty" and flips.loc["F_SP", "kind"] == "point"
    assert epis["FIT"] == 0.0
    assert epis["seeds"] == pytest.approx(2 * 1 / 3)  # m = 3 defined, k = 2
    assert epis["bootstrap"] == pytest.approx(2 * 2 / 6)
    assert epis["share unfair"] == pytest.approx(2 / 3)
    assert (epis["n runs"], epis["n resamples"]) == (4, 4)
    # random values: the same flip rates as flip_rate of seed 000's flags
    from fairbook.variance.verdicts import flip_rate
    from fairbook_book.chapters.uncertainty_fairness.runs import _flag

    rng = np.random.default_rng(1)
    draws = {s: rng.uniform(0.6, 1.4, size=9) for s in ("FIT", "seed", "bootstrap")}
    table = vs.bnn_flip_table(_values(draws)).iloc[0]
    for source, column in (("FIT", "FIT"), ("seed", "seeds"), ("bootstrap", "bootstrap")):
        flags = [float(_flag(v) == "unfair") for v in draws[source]]
        assert table[column] == pytest.approx(flip_rate(flags))
    with pytest.raises(ValueError, match="no column"):
        vs.bnn_flip_table(pd.DataFrame({"dataset": ["Adult"]}))


def test_flip_text_names_every_source_of_the_summary():
    values = _values(
        {"FIT": [1.5, 1.5], "seed": [1.5, 1.1], "bootstrap": [1.0, 1.3]}
    )  # both measures get the same values: neither kind is the less stable anywhere
    summary = vs.uncertainty_flip_summary(vs.bnn_flip_table(values))
    assert list(summary.columns) == ["FIT", "seeds", "bootstrap"]
    text = vs.uncertainty_flip_text(summary)
    assert text == (
        "Adult: the point-ratio verdicts flip at a mean rate of 0.00 under FIT runs, 1.00 "
        "under seeds and 1.00 under bootstrap resamples; the uncertainty-ratio verdicts at "
        "0.00 under FIT runs, 1.00 under seeds and 1.00 under bootstrap resamples. The "
        "uncertainty verdicts flip no more often than the point verdicts under any source."
    )
    summary.loc[("Adult", "uncertainty"), "FIT"] = 0.5
    assert vs.uncertainty_flip_text(summary).endswith(
        "The uncertainty verdicts flip more often than the point verdicts only under FIT runs."
    )
    summary.loc[("Adult", "uncertainty"), "seeds"] = 1.5
    assert vs.uncertainty_flip_text(summary).endswith("only under FIT runs and seeds.")


def test_training_settings_table_reads_as_options():
    table = vs.training_settings_table()
    assert list(table.columns) == list(vs.TRAINING_SETTINGS)
    assert list(table.index) == [f"setting:{k}" for k in range(4)]
    assert (table.loc["setting:0"] == "the base setting").all()
    assert table.loc["setting:3", "logistic"] == "class_weight = balanced"
    assert table.loc["setting:2", "forest"] == "max_depth = 6"
    assert not table.apply(lambda c: c.str.contains("{")).any().any()  # no dict reprs
