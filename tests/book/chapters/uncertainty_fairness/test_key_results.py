"""Tests of the seed-000 chapter's Key results: every number comes from the inputs."""

import re

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import uncertainty_fairness as uf

_row = uf.replication._row
_table = uf.replication._with_interval_columns


def _study(
    sd1_alea=(3.633, 3.859, 2.521),
    sd1_eacc=(1.0, 1.0, 1.0),
    sd2_epis=(0.9, 1.0, 1.05),
    epochs=5,
    estimator="bnn",
):
    """A hand-made SD seed study: the ratios the findings read, one row per (SD, seed)."""
    rows = []
    for seed, (alea, eacc, epis) in enumerate(zip(sd1_alea, sd1_eacc, sd2_epis, strict=True)):
        rows.append(
            {
                "estimator": estimator,
                "SD": "SD1",
                "seed": seed,
                "epochs": epochs,
                "F_EAcc": eacc,
                "F_Alea": alea,
                "F_Epis": 1.0,
            }
        )
        rows.append(
            {
                "estimator": estimator,
                "SD": "SD2",
                "seed": seed,
                "epochs": epochs,
                "F_EAcc": 1.0,
                "F_Alea": 1.0,
                "F_Epis": epis,
            }
        )
    return pd.DataFrame(rows)


def _longer(sd2_epis=(2.39, 5.32)):
    return _study(
        sd1_alea=(4.0,) * len(sd2_epis),
        sd1_eacc=(1.0,) * len(sd2_epis),
        sd2_epis=sd2_epis,
        epochs=30,
    )


#: Eight COMPAS defendants by hand: race, sex and age group, and the true label.
_RACE = np.array(["B"] * 4 + ["W"] * 4, dtype=object)
_SEX = np.array(["F", "M"] * 4, dtype=object)
_AGE = np.array(["<25", "<25", ">45", ">45", "<25", ">45", "25-45", ">45"], dtype=object)
_Y = np.array([1, 0, 1, 0, 1, 0, 1, 0])


def _compas_run(spread, seed=0):
    """Two Monte Carlo samples per person: P(Y = 1) = base ± spread (spread per person)."""
    base = np.array([0.8, 0.3, 0.7, 0.4, 0.9, 0.2, 0.6, 0.1])
    p = np.stack([base + spread, base - spread])
    probs = np.stack([1 - p, p], axis=2)
    groups = {"race": _RACE, "sex": _SEX, "age": _AGE}
    return uf.Run("COMPAS", "bnn", None, None, _Y, groups, probs, seed)


def _compas(factors=(1.0, 1.1, 1.3)):
    """Three seeds; the samples of Black defendants disagree 2 / factor times as much as
    White defendants' (epistemic uncertainty is a variance: F_Epis = 4 / factor²)."""
    return [
        _compas_run(np.array([0.04] * 4 + [0.02 * f] * 4), seed=i) for i, f in enumerate(factors)
    ]


def _by_hand(run, attribute, g0, g1):
    """Oracle: F_Epis, F_Alea and F_EAcc of the Kwon decomposition written out."""
    p = run.probs[:, :, 1]  # (T, N), P(Y = 1)
    mean = p.mean(axis=0)
    epistemic = 2 * ((p - mean) ** 2).mean(axis=0)  # two classes deviate alike
    aleatoric = 2 * (p * (1 - p)).mean(axis=0)
    correct = (mean > 0.5).astype(int) == run.y_test
    groups = run.groups[attribute]
    a, b = groups == g0, groups == g1
    return {
        "F_Epis": epistemic[a].mean() / epistemic[b].mean(),
        "F_Alea": aleatoric[a].mean() / aleatoric[b].mean(),
        "F_EAcc": correct[a].mean() / correct[b].mean(),
        "U_e": (epistemic[a].mean(), epistemic[b].mean()),
    }


def _counts(matching, differing):
    rows = [_row(f"n{i}", 10, 10, "count", source="seed 000 Table 4") for i in range(matching)]
    rows += [_row(f"m{i}", 10, 9, "count", source="seed 000 Table 4") for i in range(differing)]
    return _table(rows)


def _robust(alea_holds=5, eacc_holds=9):
    index = pd.MultiIndex.from_product([["chapter", "paper"], range(5)], names=["cell", "seed"])
    columns = pd.MultiIndex.from_tuples(
        [
            ("Table 1", "SD1 F_SP is fair"),
            ("Table 1", "SD1 F_Alea is unfair"),
            ("Tables 2-3", "race (B/W) F_EOdd_y0 is unfair"),
            ("Prop. 4.1", "SD1: fair by every point-based ratio, unfair by F_Alea"),
        ],
        names=["source", "claim"],
    )
    runs = len(index)
    values = np.column_stack(
        [
            np.ones(runs, bool),
            np.arange(runs) < alea_holds,
            np.arange(runs) < eacc_holds,
            np.zeros(runs, bool),
        ]
    )
    return uf.robustness_table(pd.DataFrame(values, index, columns))


def _inputs(**changes):
    inputs = {
        "study": _study(),
        "longer": _longer(),
        "compas": _compas(),
        "robust": _robust(),
        "tables": {"Table 4": _counts(3, 1)},
    }
    inputs.update(changes)
    return inputs


def _spread(values):
    """How a finding writes a ratio over seeds: the median, then the range (if it is one)."""
    values = np.asarray(values, dtype=float)
    low, high = f"{values.min():.2f}", f"{values.max():.2f}"
    tail = " in every seed" if low == high else f", range {low}–{high}"
    return f"{np.median(values):.2f}{tail}"


def test_five_findings_with_their_spread_over_seeds_and_a_replication_line():
    box = uf.key_results(**_inputs())
    assert isinstance(box, KeyResults) and len(box.findings) == 5
    sd1, sd2, race, others, robust = box.findings
    # SD1: F_EAcc 1 in every seed (fair); F_Alea 3.633, 3.859, 2.521: median 3.63, unfair
    assert "as accurate for the minority group as for the majority (F_EAcc 1.00 in every" in sd1
    assert "3.6 times the majority's (F_Alea 3.63, range 2.52–3.86; unfair in 3 of 3)" in sd1
    assert "fair by its predictions, unfair by its uncertainty (medians over 3 seeds)" in sd1
    # SD2: 0.9, 1.0, 1.05 after 5 epochs (all fair); 2.39, 5.32 after 30 (both unfair)
    assert "needs a trained posterior" in sd2
    assert (
        "after the paper's 5 epochs F_Epis is 1.00, range 0.90–1.05 (3 seeds, unfair in 0)" in sd2
    )
    assert "after 30 epochs 3.86, range 2.39–5.32 (2 seeds, unfair in 2)" in sd2
    # COMPAS race, against the decomposition written out for each seed
    hand = [_by_hand(r, "race", "B", "W") for r in _compas()]
    epis = [h["F_Epis"] for h in hand]
    assert epis == pytest.approx([4 / f**2 for f in (1.0, 1.1, 1.3)])  # variances
    assert f"F_Epis {_spread(epis)}; unfair in 3 of 3 seeds" in race
    assert "its sampled networks disagree more about Black defendants" in race
    alea = [h["F_Alea"] for h in hand]
    assert f"F_Alea {_spread(alea)}" in race
    u_b, u_w = hand[0]["U_e"]
    assert (
        f"{uf.uncertainty_text(u_b)} against {uf.uncertainty_text(u_w)} in the first seed" in race
    )
    # the other comparisons: age then sex, each ratio with its median and flag
    age = [_by_hand(r, "age", "<25", ">45") for r in _compas()]
    sex = [_by_hand(r, "sex", "F", "M") for r in _compas()]
    assert "(a) defendants younger than 25 against those older than 45:" in others
    assert "(b) female against male defendants:" in others
    for hands, part in ((age, others.split("(b)")[0]), (sex, others.split("(b)")[1])):
        for ratio in ("F_Alea", "F_Epis"):
            values = [h[ratio] for h in hands]
            flag = "unfair" if abs(np.median(values) - 1) > 0.2 else "fair"
            assert f"{ratio} {_spread(values)}, {flag}" in part, (ratio, part)
    # robust claims: F_SP (10 of 10) and F_EOdd_y0 (9 of 10) are point flags, F_Alea (5 of
    # 10) an uncertainty flag; Prop. 4.1 is not a flag and is left out
    assert "10 runs over 2 readings" in robust
    assert "2 of 2 of the paper's fair/unfair flags on point-based ratios" in robust
    assert "at least 90 % of runs, but only 0 of 1 on uncertainty ratios" in robust
    for sentence in box.findings:
        assert not re.search(r"\de-\d|np\.|float64|\d\.\d{5,}|replicat", sentence), sentence
    # the tally is the replication line's, computed from the tables: 4 counts, data facts
    # of the public data sets (checks, not replications), 3 of which hold
    assert box.replication.startswith(
        "Beside the paper (fast profile): Kuzucu et al. 2024 — no result; besides, 4 checks "
        "(4 data fact): 3 hold, 1 fails."
    )
    assert "ledger" in box.replication


def test_changing_an_input_changes_its_sentence():
    lower = uf.key_results(
        **_inputs(study=_study(sd1_alea=(1.1, 1.0, 1.05), sd1_eacc=(0.5, 1.0, 1.0)))
    ).findings[0]
    assert "about as accurate for the minority group as for the majority in 2 of 3 seeds" in lower
    assert "F_Alea is 1.05, range 1.00–1.10 (unfair in 0 of 3 seeds)" in lower
    assert "unfair by its uncertainty" not in lower
    flat = uf.key_results(**_inputs(longer=_longer(sd2_epis=(1.0, 1.1)))).findings[1]
    assert "barely depends on how long the network trains" in flat
    same = _compas(factors=(1.0, 1.0, 1.0))
    for run in same:
        run.probs[:, 4:, 1] = run.probs[:, :4, 1]  # White defendants' samples as Black ones'
        run.probs[:, :, 0] = 1 - run.probs[:, :, 1]
    equal = uf.key_results(**_inputs(compas=same)).findings[2]
    assert "its sampled networks agree about as well on both" in equal
    assert "F_Epis 1.00 in every seed; unfair in 0 of 3 seeds" in equal
    robust = uf.key_results(**_inputs(robust=_robust(alea_holds=10))).findings[4]
    assert "and 1 of 1 on uncertainty ratios." in robust
    strict = uf.key_results(**_inputs(), threshold=0.95).findings[4]
    assert "1 of 2 of the paper's fair/unfair flags" in strict and "95 %" in strict
    full = uf.key_results(**_inputs(), budget="full").replication
    assert full.startswith("Beside the paper (full profile)")


def test_an_undefined_ratio_is_said_so():
    study = _study(sd1_alea=(np.nan, np.nan, np.nan))
    sentence = uf.key_results(**_inputs(study=study)).findings[0]
    assert "F_Alea is undefined (unfair in 0 of 3 seeds)" in sentence
    assert uf.key_results.__module__.endswith("key_results")


def test_the_decomposition_table_is_eq_7_by_hand():
    # T = 2 samples of one input: (0.25, 0.75) and (0.75, 0.25); mean (0.5, 0.5)
    table = uf.decomposition_table([[[0.25, 0.75]], [[0.75, 0.25]]], labels=["applicant"])
    assert table.loc["applicant"].tolist() == pytest.approx([0.125, 0.375, 0.5])
    with pytest.raises(ValueError, match="labels name 2 inputs"):
        uf.decomposition_table([[[0.25, 0.75]]], labels=["a", "b"])


def test_the_chapter_float_format_never_prints_scientific_notation():
    assert uf.float_format(4.365e-05) == "0.00004365"
    assert uf.float_format(2.0e-17) == "0"
    assert uf.float_format(0.49166) == "0.4917"
