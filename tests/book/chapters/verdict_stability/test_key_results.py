"""Tests of :mod:`fairbook_book.chapters.verdict_stability.key_results`: the sentences say the
numbers of hand-made flip tables, size curves and disagreement tables, and change with them."""

import numpy as np
import pandas as pd

from fairbook_book import ledger
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import verdict_stability as vs

CONFIG = vs.settings("fast")  # DI: [0.8, 1.25]; OFI, EOpp: |v| > 0.05


def _flips():
    """Four verdicts: one that never flips, three that flip under some sources."""
    rows = [
        # dataset, model, attribute, group, metric, n, value, FIT, seed, setting, bootstrap
        ("compas", "logistic", "race", "Asian", "DI", 31, 1.10, 0.0, 0.0, 0.0, 0.0),
        ("compas", "forest", "race", "Asian", "OFI", 31, -0.06, 0.0, 2 / 3, 0.5, 0.4),
        ("adult", "bnn", "sex", "Female", "EOpp", 9_000, 0.048, 0.0, 2 / 3, 2 / 3, 0.5),
        ("adult", "mlp", "race", "all groups", "EOFP", 15_060, 0.03, 0.0, 0.0, 0.5, 0.0),
    ]
    cols = ["dataset", "model", "attribute", "group", "metric", "n", "value"]
    f = pd.DataFrame(rows, columns=[*cols, "FIT", "seed", "setting", "bootstrap"])
    f["unfair"] = 0.0
    f["metric choice"] = np.nan
    f["max"] = f[["FIT", "seed", "setting", "bootstrap"]].max(axis=1)
    return f


def _curve(rates_adult_ofi=(0.5, 0.3, 0.2)):
    rows = []
    for dataset, metric, rates in (
        ("compas", "DI", (0.3, 0.05, 0.0)),
        ("adult", "OFI", rates_adult_ofi),
    ):
        for size, rate in zip((10, 100, 400), rates, strict=True):
            rows.append(("m", dataset, metric, "samples", size, rate))
    return pd.DataFrame(rows, columns=["model", "dataset", "metric", "source", "size", "flip_rate"])


def _disagreement(di_ofi=(0.4, 0.2)):
    pairs = pd.DataFrame(
        {
            "dataset": ["adult"] * 3 + ["compas"] * 3,
            "pair": ["DI vs OFI", "DI vs EOpp", "OFI vs EOpp"] * 2,
            "n": 10,
            "share": [di_ofi[0], 0.1, 0.2, di_ofi[1], 0.0, 0.1],
        }
    )
    return {"pairs": pairs}


def test_five_sentences_with_their_numbers():
    results = vs.key_results(_flips(), _curve(), _disagreement(), CONFIG)
    assert isinstance(results, KeyResults) and len(results.findings) == 5
    many, source, size, metrics, unstable = results.findings
    assert many.startswith("Of the 4 verdicts on COMPAS and Adult (4 model families")
    assert "3 (75 %) flip under at least one source" in many
    # seed: 2 of 4 flip; setting: 3 of 4; bootstrap: 2 of 4; FIT none
    assert source.startswith(
        "Of the verdicts, 0 % flip under FIT runs, 50 % under seeds, 75 % under training "
        "settings and 50 % under bootstrap resamples"
    )
    # mean rates: seed (4/3)/4 = 0.333, setting (5/3)/4 = 0.417, bootstrap 0.9/4 = 0.225
    assert source.endswith("the training settings have the largest mean flip rate (0.417).")
    # COMPAS DI settles from 100; Adult OFI never falls to 0.1 within 400
    assert size == (
        "Resampling a group, the size from which a verdict's flip rate stays at 0.1 or below "
        "is 100 people (COMPAS's DI); for Adult's OFI it stays above 0.1 even at 400 people, "
        "the largest size tried."
    )
    # DI vs OFI: mean (0.4 + 0.2) / 2 = 30 %; DI vs EOpp: 5 %
    assert metrics == (
        "DI and OFI name different favoured groups in 30 % of comparisons (mean over Adult "
        "and COMPAS), the most of the 3 pairs of metrics; DI and EOpp in 5 %."
    )
    # most unstable: EOpp (mean (0 + 2/3 + 2/3 + 0.5)/4), then OFI, then EOFP; distances
    # |0.048 − 0.05| = 0.002, |−0.06 + 0.05| = 0.01, |0.03 − 0.05| = 0.02
    assert unstable == (
        "The 3 most unstable verdicts lie at most 0.020 from their threshold: EOpp for Female "
        "in Adult's BNN (n = 9,000), OFI for Asian in COMPAS's random forest (n = 31) and "
        "EOFP for all race groups in Adult's MLP (n = 15,060)."
    )
    for sentence in results.findings:
        assert "np." not in sentence and "e-0" not in sentence


def test_the_sentences_change_with_the_tables():
    settled = vs.key_results(_flips(), _curve((0.5, 0.2, 0.0)), _disagreement(), CONFIG)
    size = settled.findings[2]
    assert size == (
        "Resampling a group, the size from which a verdict's flip rate stays at 0.1 or below "
        "ranges from 100 people (COMPAS's DI) to 400 (Adult's OFI)."
    )
    flipped = vs.key_results(_flips(), _curve(), _disagreement((0.0, 0.0)), CONFIG)
    assert flipped.findings[3].startswith("OFI and EOpp name different favoured groups in 15 %")
    one = vs.key_results(_flips(), _curve(), _disagreement(), CONFIG, k=1).findings[4]
    assert one == (
        "The most unstable verdict lies 0.002 from its threshold: EOpp for Female in Adult's "
        "BNN (n = 9,000)."
    )
    calm = _flips()
    calm[["seed", "setting", "bootstrap", "max"]] = 0.0
    results = vs.key_results(calm, _curve(), _disagreement(), CONFIG)
    assert "0 (0 %) flip under at least one source" in results.findings[0]
    assert results.findings[4] == "No verdict flips under any source of variation."


def test_the_replication_line_says_no_paper_number_is_compared():
    results = vs.key_results(_flips(), _curve(), _disagreement(), CONFIG, budget="full")
    line = ledger.replication_line([], chapter="10_verdict_stability", budget="full")
    assert results.replication == line
    assert "(full profile)" in line and "{doc}`the replication ledger" in line
    assert results.to_markdown().rstrip().endswith(f"{line}\n```")
    for finding in results.findings:
        assert "replicat" not in finding.lower()
