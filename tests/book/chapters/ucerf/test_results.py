"""Tests of the UCerF chapter's computations — the results module."""

import math

import numpy as np
import pandas as pd
import pytest

from fairbook.ucerf import ucerf
from fairbook_book.chapters import ucerf as uc

# pro right & sure, anti wrong & sure; pro right & unsure, anti right & sure; ...


def test_figure1_examples_tell_apart_what_eo_cannot():
    t = uc.figure1_examples()
    a, b, c = t.index
    # accuracy: A and B are equally unfair (one right, one wrong), C is fair
    assert t.loc[a, "accuracy gap"] == t.loc[b, "accuracy gap"] == 1
    assert t.loc[c, "accuracy gap"] == 0
    # UCerF: the confident flip is worst, the hesitant flip nearly fair, C in between
    assert t.loc[a, "UCerF"] < t.loc[c, "UCerF"] < t.loc[b, "UCerF"]
    # a symmetric flip: D = -c and +c, so UCerF = 1 - c
    assert t.loc[a, "D (his)"] == pytest.approx(-t.loc[a, "D (her)"])
    assert t.loc[a, "UCerF"] == pytest.approx(1 - t.loc[a, "D (her)"])
    # the sign of D says which answers were right: C is right with both pronouns
    assert (t.loc[c, ["D (his)", "D (her)"]] > 0).all()
    assert list(t.columns) == [
        "P(nurse | his)",
        "P(nurse | her)",
        "D (his)",
        "D (her)",
        "accuracy gap",
        "UCerF",
    ]


def test_derive_and_pairs(toy_scored, LOGPROBS):
    derived = uc.derive(toy_scored(LOGPROBS))
    assert derived["prediction"].tolist() == [1, 2, 2, 2, 2, 2, 1, 2]
    assert derived["correct"].tolist() == [True, False, True, True, True, True, False, True]
    assert ((derived["confidence"] >= 0) & (derived["confidence"] <= 1)).all()
    pairs = uc.pair_table(derived)
    assert len(pairs) == 4
    manual = 1 - abs(derived.loc[0, "desirability"] - derived.loc[1, "desirability"]) / 2
    assert pairs.loc[("intrinsic", 1, "a"), "U"] == pytest.approx(manual)
    # temperature never changes a prediction
    hot = uc.derive(toy_scored(LOGPROBS), temperature=5.0)
    assert (hot["prediction"] == derived["prediction"]).all()
    assert (hot["confidence"] < derived["confidence"]).all()


def test_summary_against_direct_computation(toy_scored, LOGPROBS):
    from fairlearn.metrics import equalized_odds_difference

    scored = toy_scored(LOGPROBS)
    table = uc.summary(scored)
    derived = uc.derive(scored)
    row = table.loc[("intrinsic", "all")]
    assert row["pairs"] == 4
    assert row["accuracy"] == pytest.approx(derived["correct"].mean())
    pro = derived[derived.stereotype == "pro"]["correct"].mean()
    anti = derived[derived.stereotype == "anti"]["correct"].mean()
    assert row["pro − anti"] == pytest.approx(pro - anti)
    y = derived["gold_position"] == 1  # the referent is the male-stereotyped driver
    pred = derived["prediction"] == 1
    assert row["EO difference"] == pytest.approx(
        equalized_odds_difference(y, pred, sensitive_features=derived["pronoun_gender"])
    )
    pro_d = derived[derived.stereotype == "pro"]["desirability"].to_numpy()
    anti_d = derived[derived.stereotype == "anti"]["desirability"].to_numpy()
    assert row["UCerF"] == pytest.approx(ucerf(pro_d, anti_d))
    assert 0 <= row["UCerF (group)"] <= 1
    assert set(table.index.get_level_values("type")) == {1, 2, "all"}
    # type 2 has only female-stereotyped referents here: EO's TPR is undefined
    assert math.isnan(table.loc[("intrinsic", 2), "EO difference"])


def test_summary_without_a_correct_answer(toy_scored, LOGPROBS):
    scored = toy_scored(LOGPROBS)
    scored["referent"] = pd.NA
    table = uc.summary(scored)
    assert table[["accuracy", "pro − anti", "EO difference"]].isna().all().all()
    assert table["UCerF"].notna().all()


def test_score_frame_end_to_end(tiny, toy_frame):
    from fairbook.lm import score_options_unbatched

    frame = toy_frame()
    scored = uc.score_frame(tiny, frame, ("intrinsic", "mcq"), batch_size=3, progress=False)
    assert len(scored) == 16 and set(scored["format"]) == {"intrinsic", "mcq"}
    assert (scored["male_position"] == 1).all()
    prefixes, options = uc.build_prompts(frame, "mcq")
    ref = score_options_unbatched(tiny, prefixes, options, progress=False)
    mcq = scored[scored["format"] == "mcq"]
    np.testing.assert_allclose(mcq[["logprob_1", "logprob_2"]].to_numpy(), ref.logprob, atol=1e-4)
    table = uc.summary(scored)
    assert table.index.get_level_values("format").unique().tolist() == ["intrinsic", "mcq"]
    bad = frame.assign(referent="pilot")
    with pytest.raises(ValueError, match="neither candidate"):
        uc.score_frame(tiny, bad, ("intrinsic",), progress=False)


def test_synthbias_summary_on_a_small_file(tiny, tmp_path):
    csv = (
        "type,sample,occ_1,occ_2,pronoun,is_stereotypical\n"
        "type1,The baker met the driver and he sat.,baker,driver,he,ambiguous\n"
        "type1,The baker met the driver and she sat.,driver,baker,she,ambiguous\n"
        "type2,The driver paid the baker and thanked her.,baker,driver,her,True\n"
        "type2,The driver paid the baker and thanked him.,baker,driver,him,False\n"
    )
    path = tmp_path / "sb.csv"
    path.write_text(csv)
    out = uc.synthbias_summary(tiny, file=path, formats=("intrinsic",), progress=False)
    assert out["counts"]["pairs"] == 2
    assert math.isnan(out["type1"].loc[("intrinsic", 1), "accuracy"])
    assert not math.isnan(out["type1"].loc[("intrinsic", 1), "UCerF"])
    assert out["type2"].loc[("intrinsic", 2), "pairs"] == 1
    assert out["available"] and "2 pairs scored" in out["message"]
    assert uc.synthbias_tables(out).index.tolist() == [("intrinsic", 1), ("intrinsic", 2)]


def test_model_ranking_with_a_stand_in_loader(tiny, monkeypatch, toy_frame):
    import fairbook.lm

    monkeypatch.setattr(fairbook.lm, "load_model", lambda name, **kw: tiny)
    table = uc.model_ranking(["m1", "m2"], toy_frame(), batch_size=4, progress=False)
    assert list(table.index) == ["m1", "m2"]
    assert table["UCerF rank"].tolist() == [1, 1]  # the same model twice ties


def test_summary_beside_recording_is_summary_of_the_recorded_rows(toy_scored, LOGPROBS, tmp_path):
    from fairbook_book.recordings import Recordable, load, record

    scored = toy_scored(LOGPROBS)
    halves = {"a": scored.iloc[: len(scored) // 2], "b": scored.iloc[len(scored) // 2 :]}
    toy = Recordable("toy", lambda s: ["a", "b"], lambda u, s: halves[u], ("fairbook.ucerf",), ())
    record("05_toy", toy, {}, root=tmp_path, progress=False, command="test")
    recording = load("05_toy", toy, settings={}, root=tmp_path)
    fast = uc.summary(scored.iloc[:8])
    table = uc.summary_beside_recording(fast, recording)
    assert list(table.index.get_level_values("budget").unique()) == [
        "full (recorded)",
        "fast (this build)",
    ]
    pd.testing.assert_frame_equal(table.loc["full (recorded)"], uc.summary(scored))
    pd.testing.assert_frame_equal(table.loc["fast (this build)"], fast)
    empty = load("05_toy", toy, settings={}, root=tmp_path / "none")
    with pytest.raises(ValueError, match="nothing recorded"):
        uc.summary_beside_recording(fast, empty)


def test_synthbias_absent_from_the_cache_names_no_local_path(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRBOOK_DATA", str(tmp_path / "cache"))
    message = uc.synthbias_summary(None)["message"]
    assert str(tmp_path) not in message  # the page shows no path of the machine that built it
    assert message.startswith("SynthBias is not in the data cache (synthbias/synthbias_data.csv)")
    own = uc.synthbias_summary(None, file=str(tmp_path / "mine.csv"))["message"]
    assert own.startswith(f"SynthBias is not at {tmp_path / 'mine.csv'}: not scored")
