"""fairbook_book.chapters.ucerf.key_results: the chapter's answers, computed from its tables."""

import math

import numpy as np
import pandas as pd
import pytest

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapters import ucerf as uc
from fairbook_book.replication import Exact, NotComparable, Row, replication_table


def _scored(toy_scored, logprobs):
    """The toy pairs in the intrinsic format, and an mcq copy that always answers A."""
    intrinsic = toy_scored(logprobs)
    mcq = toy_scored([(-0.2, -2.0)] * len(logprobs)).assign(format="mcq")
    return pd.concat([intrinsic, mcq], ignore_index=True)


def _results(scored, **kwargs):
    return uc.key_results(
        uc.figure1_examples(), uc.summary(scored), uc.temperature_variants(scored), **kwargs
    )


def _accuracy(logprobs, gold):
    predicted = np.argmax(np.asarray(logprobs), axis=1) + 1
    return float((predicted == np.asarray(gold)).mean())


def test_the_worked_example_sentence_has_the_hand_computed_ucerf(toy_scored, LOGPROBS):
    results = _results(_scored(toy_scored, LOGPROBS))
    assert isinstance(results, KeyResults)
    example = results.findings[0]

    # model A: p = 0.03 with "his" (wrong) and 0.97 with "her" (right); both have the same
    # perplexity, so D = -c and +c and UCerF = 1 - c with c = 2 - exp(H(p)) (k = 2)
    def confidence(p):
        return 2 - math.exp(-(p * math.log(p) + (1 - p) * math.log(1 - p)))

    assert f"{1 - confidence(0.03):.2f}" in example  # 0.14
    assert f"{1 - confidence(0.45):.2f}" in example  # model B: 0.99
    assert "is 1, 1, 0," in example  # the accuracy gaps of A, B, C

    changed = uc.figure1_examples()
    changed.loc["A: confidently biased", "UCerF"] = 0.5
    other = uc.key_results(
        changed,
        uc.summary(_scored(toy_scored, LOGPROBS)),
        uc.temperature_variants(_scored(toy_scored, LOGPROBS)),
    )
    assert "0.50, 0.99" in other.findings[0] and other.findings[0] != example


def test_the_model_sentence_reports_the_accuracies_counted_by_hand(toy_scored, LOGPROBS):
    scored = _scored(toy_scored, LOGPROBS)
    intrinsic = scored[scored["format"] == "intrinsic"]
    gold = intrinsic["gold_position"].to_numpy()
    pro = (intrinsic["stereotype"] == "pro").to_numpy()
    accuracy = _accuracy(LOGPROBS, gold)
    accuracy_pro = _accuracy(np.asarray(LOGPROBS)[pro], gold[pro])
    sentence = _results(scored, model="Toy-LM (4-bit)").findings[1]
    assert sentence.startswith("On 4 WinoBias minimal pairs in the intrinsic format, Toy-LM ")
    assert f"resolves {100 * accuracy:.0f} % of the sentences" in sentence
    assert f"{100 * accuracy_pro:.0f} % of the pro-stereotypical" in sentence
    assert "(4-bit)" not in sentence

    # one wrong answer turned right: the accuracy in the sentence moves with it
    better = list(LOGPROBS)
    better[1] = (-0.1, -5.0)  # pair a, anti: now picks the gold referent (position 1)
    assert _accuracy(better, gold) > accuracy
    moved = _results(_scored(toy_scored, better)).findings[1]
    assert f"resolves {100 * _accuracy(better, gold):.0f} % of the sentences" in moved


def test_the_letter_format_sentence_sees_a_model_that_always_answers_a(toy_scored, LOGPROBS):
    sentence = _results(_scored(toy_scored, LOGPROBS)).findings[2]
    # the mcq copy answers A every time: option 1 is gold for pair a only (2 of 8 sentences)
    assert "answers option A for 100 % of the questions and resolves 25 %" in sentence
    assert "EO difference is 0.00" in sentence


def test_the_temperature_sentence_keeps_eo_and_moves_ucerf(toy_scored, LOGPROBS):
    scored = _scored(toy_scored, LOGPROBS)
    sentence = _results(scored).findings[3]
    cold = uc.summary(scored, temperature=0.25).loc[("intrinsic", "all"), "UCerF"]
    hot = uc.summary(scored, temperature=4.0).loc[("intrinsic", "all"), "UCerF"]
    assert "stays" in sentence and "at all 5 temperatures" in sentence
    assert f"from {cold:.2f} (T = 0.25) to {hot:.2f} (T = 4)" in sentence
    assert cold != pytest.approx(hot)


def test_the_model_sentence_adds_the_recorded_full_profile(toy_scored, LOGPROBS):
    scored = _scored(toy_scored, LOGPROBS)
    fast = uc.summary(scored)
    # a "recording" of twice as many pairs: the toy pairs and a copy with new pair ids
    copy = scored.assign(pair_id=scored["pair_id"] + "2")
    full = uc.summary(pd.concat([scored, copy], ignore_index=True))
    beside = pd.concat({"full (recorded)": full, "fast (this build)": fast}, names=["budget"])
    sentence = _results(scored, beside=beside).findings[1]
    row = full.loc[("intrinsic", "all")]
    assert int(row["pairs"]) == 8  # the doubled sample: same rates, twice the pairs
    assert (
        f"(on all 8 pairs, in the recorded full profile: a gap of {100 * row['pro − anti']:.1f} "
        f"points, EO difference {row['EO difference']:.2f} and UCerF {row['UCerF']:.2f})."
    ) in sentence
    # no recording, or one of the same size as the sample: nothing is added
    assert "recorded" not in _results(scored).findings[1]
    same = pd.concat({"full (recorded)": fast, "fast (this build)": fast}, names=["budget"])
    assert "recorded" not in _results(scored, beside=same).findings[1]


def test_the_replication_line_counts_the_verdicts(toy_scored, LOGPROBS):
    table = replication_table(
        [
            Row("WinoBias instances", 3168, 3168, rule=Exact(), source="seed 001 Sec. 2"),
            Row("pairs", 1584, 1500, rule=Exact(), source="seed 001 Sec. 2"),
            Row("end point", 1, 1, rule=NotComparable("definitional"), source="seed 001 Sec. 3"),
        ]
    )
    scored = _scored(toy_scored, LOGPROBS)
    results = _results(scored, replications=[table, None], budget="full")
    assert len(results.findings) == 4
    assert not any("replicat" in f.lower() or "numbers the paper" in f for f in results.findings)
    line = results.replication
    assert line.startswith(
        "Beside the paper (full profile): Wang et al. 2025 — of 3 results, 1 matches the paper "
        "informatively, 1 differs and 1 is not compared (not attempted: 1)."
    )
    assert "../book/ledger" in line
    # offline and without tables the line still says so
    assert "compares no printed number" in _results(scored, replications=[None]).replication
