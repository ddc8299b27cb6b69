"""Tests of chapter 09's Key results: every number comes from the two audits."""

import re

import numpy as np
import pandas as pd
import pytest

from fairbook.audit import audit
from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import audit_your_model as am


def _one_model(tiny=6, alpha=0.05):
    """Reference r (2,000, three in four predicted right), a (1,000, everyone predicted
    positive) and t (`tiny` people, TP FN FP TN = 2 1 1 2 per six)."""
    y_true = [1, 0] * (1500 + tiny // 2)
    t_pred = ([1, 0, 0, 1, 1, 0] * (tiny // 6 + 1))[:tiny]
    y_pred = [1, 0] * 750 + [0, 1] * 250 + [1, 1] * 500 + t_pred
    group = ["r"] * 2000 + ["a"] * 1000 + ["t"] * tiny
    frame = pd.DataFrame({"y_true": y_true, "y_pred": y_pred, "g": group})
    return audit(frame, groups=["g"], reference={"g": "r"}, alpha=alpha)


def _seeded(*, biased_runs=1, runs=3):
    """Groups a (reference, 300) and b (300); b is predicted all positive in the first
    `biased_runs` runs and right in the others; two samples: a 0.9 / 0.8, b 0.5 / 0.6."""
    n = 300
    frame = pd.DataFrame({"y_true": [1, 0] * n, "g": ["a"] * n + ["b"] * n})
    right = np.array([1, 0] * n)
    biased = np.array([1, 0] * (n // 2) + [1, 1] * (n // 2))
    for k in range(runs):
        frame[f"pred_{k}"] = biased if k < biased_runs else right
    frame["p_0"] = [0.9] * n + [0.5] * n
    frame["p_1"] = [0.8] * n + [0.6] * n
    return audit(
        frame,
        y_pred=None,
        groups=["g"],
        reference={"g": "a"},
        runs=[f"pred_{k}" for k in range(runs)],
        samples=["p_0", "p_1"],
    )


def test_four_sentences_with_the_audits_numbers():
    one, seeded = _one_model(), _seeded()
    box = am.key_results(one, seeded)
    assert isinstance(box, KeyResults) and len(box.findings) == 4
    survive, small, stable, uncertain = box.findings
    # a, predicted all positive against r's 75 %: ACC 0.5 vs 0.75, PPR 1 vs 0.5, B, TPR 1
    # vs 0.75, FPR 1 vs 0.25 and PPV 0.5 vs 0.75 differ by far; a's NPV is undefined, so
    # 13 of the 14 comparisons have a p-value
    assert "6 of 13 comparisons of a group with its reference survive" in survive
    assert "(α = 0.05): a (6 metrics) by g." in survive
    # t (six people): ACC, TPR, FPR, PPV and NPV are 2/3 or 1/3 against 0.75 or 0.25 (an
    # apparent gap), PPR 0.5 and B 0 are the reference's
    assert "t (6 people) is too small for every metric" in small
    assert "5 of their 7 comparisons show an apparent gap, none survives" in small
    # one biased run of three: b's five disparities survive in 1 of 3 runs
    assert "Over the 3 Adult models" in stable
    assert "between 0 and 5 of" in stable and "5 in whether the disparity survives" in stable
    stability = seeded.to_frame("stability")
    flips = int(stability["flips"].sum())
    assert f"{len(stability) - flips} of {len(stability)} verdicts" in stable
    assert f"while {flips} flip" in stable
    # Kwon by hand: U_a(a) = (0.18 + 0.32) / 2 = 0.25, U_a(b) = (0.5 + 0.48) / 2 = 0.49,
    # F_Alea = 1.96; U_e = 0.005 in both (F_Epis = 1, fair); F_Pred = 0.495 / 0.255 = 1.94
    assert "flags 1 of 1 groups (references aside)" in uncertain
    assert (
        "b's F_Alea = 1.96" in uncertain and "1.96 times the one about its reference" in uncertain
    )
    for sentence in box.findings:
        assert not re.search(r"\de-\d|np\.|float64|\d\.\d{5,}", sentence), sentence


def test_changing_an_audit_changes_its_sentences():
    base = am.key_results(_one_model(), _seeded()).findings
    strict = am.key_results(_one_model(alpha=1e-300), _seeded()).findings
    assert strict[0] != base[0] and "α = 1e-300" in strict[0]
    larger = am.key_results(_one_model(tiny=600), _seeded()).findings
    assert larger[1].startswith("No COMPAS group is too small for every metric")
    steady = am.key_results(_one_model(), _seeded(biased_runs=3)).findings
    assert "5 of" in steady[2] and "between" not in steady[2]
    assert "while 0 flip" in steady[2]


def test_the_second_audit_needs_runs_and_samples():
    with pytest.raises(ValueError, match="needs runs"):
        am.key_results(_one_model(), _one_model())


def test_the_replication_line_says_the_chapter_compares_no_printed_number():
    box = am.key_results(_one_model(), _seeded())
    for finding in box.findings:
        assert "replicat" not in finding.lower()
    assert box.replication.startswith("Beside the paper (fast profile): this chapter compares")
    assert "no printed number" in box.replication
    assert "{doc}`the replication ledger <../book/ledger>`" in box.replication
    assert "(full profile)" in am.key_results(_one_model(), _seeded(), budget="full").replication
