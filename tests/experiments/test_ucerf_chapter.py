"""Tests of the UCerF chapter's computations on hand-made scores and a tiny random LM
(no network, no real model)."""

import math
import zlib

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from fairbook.experiments import ucerf_chapter as uc  # noqa: E402
from fairbook.ucerf import ucerf  # noqa: E402


def test_settings():
    assert uc.settings("fast")["n_pairs"] == 100
    assert uc.settings("full", batch_size=4)["batch_size"] == 4
    with pytest.raises(ValueError, match="profile"):
        uc.settings("medium")
    with pytest.raises(ValueError, match="unknown settings"):
        uc.settings("fast", seeds=3)


# ---- section 1 ----------------------------------------------------------------------------


def test_figure1_examples_tell_apart_what_eo_cannot():
    t = uc.figure1_examples()
    a, b, c = t.index
    # accuracy: A and B are equally unfair (one right, one wrong), C is fair
    assert t.loc[a, "accuracy gap"] == t.loc[b, "accuracy gap"] == 1
    assert t.loc[c, "accuracy gap"] == 0
    # UCerF: the confident flip is worst, the hesitant flip nearly fair, C in between
    assert t.loc[a, "UCerF"] < t.loc[c, "UCerF"] < t.loc[b, "UCerF"]
    assert t.loc[a, "UCerF"] == pytest.approx(1 - t.loc[a, "c (his)"])  # symmetric flip


def test_pair_metrics_and_widget():
    m = uc.pair_metrics(1.0, True, 1.0, False)
    assert m == {"D_a": 1.0, "D_b": -1.0, "accuracy gap": 1, "1 − accuracy gap": 0, "UCerF": 0.0}
    assert uc.pair_metrics(0.2, True, 0.6, True)["UCerF"] == pytest.approx(0.8)
    widget = uc.pair_explorer(0.5, True, 0.5, True)
    slider = widget.children[0].children[0]
    slider.value = 1.0  # the widget recomputes from pair_metrics
    assert "0.750" in widget.children[-1].value


# ---- hand-made scores ---------------------------------------------------------------------


def toy_frame():
    """Four minimal pairs (two of each type), WinoBias columns."""
    rows = []
    for t, pair, referent_position in ((1, "a", 1), (1, "b", 2), (2, "c", 2), (2, "d", 2)):
        for stereotype in ("pro", "anti"):
            male_referent = referent_position == 1  # occupation_1 is the male one
            gender = (
                ("male" if male_referent else "female")
                if stereotype == "pro"
                else ("female" if male_referent else "male")
            )
            rows.append(
                {
                    "pair_id": pair,
                    "type": t,
                    "stereotype": stereotype,
                    "sentence": f"The driver met the nurse ({pair}).",
                    "pronoun": "he" if gender == "male" else "she",
                    "pronoun_gender": gender,
                    "occupation_1": "driver",
                    "occupation_2": "nurse",
                    "referent": "driver" if referent_position == 1 else "nurse",
                    "referent_position": referent_position,
                    "referent_stereotype": "male" if male_referent else "female",
                }
            )
    return pd.DataFrame(rows)


def toy_scored(logprobs):
    frame = toy_frame()
    frame.insert(0, "format", "intrinsic")
    frame["gold_position"] = frame["referent_position"]
    frame["male_position"] = 1
    frame["logprob_1"] = [lp[0] for lp in logprobs]
    frame["logprob_2"] = [lp[1] for lp in logprobs]
    return frame


# pro right & sure, anti wrong & sure; pro right & unsure, anti right & sure; ...
LOGPROBS = [
    (-0.1, -5.0),
    (-5.0, -0.1),
    (-2.0, -1.5),
    (-4.0, -0.1),
    (-3.0, -0.2),
    (-2.5, -0.3),
    (-0.5, -1.2),
    (-1.0, -0.9),
]


def test_derive_and_pairs():
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


def test_summary_against_direct_computation():
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


def test_summary_without_a_correct_answer():
    scored = toy_scored(LOGPROBS)
    scored["referent"] = pd.NA
    table = uc.summary(scored)
    assert table[["accuracy", "pro − anti", "EO difference"]].isna().all().all()
    assert table["UCerF"].notna().all()


def test_temperature_variants_keep_eo_and_move_ucerf():
    variants = uc.temperature_variants(toy_scored(LOGPROBS), temperatures=(0.5, 1.0, 4.0))
    assert variants["EO difference"].nunique() == 1
    assert variants["accuracy"].nunique() == 1
    assert variants["UCerF"].nunique() == 3
    assert (variants["EO rank"] == 1).all()
    assert sorted(variants["UCerF rank"]) == [1, 2, 3]
    ax = uc.plot_temperatures(variants)
    assert ax.get_xscale() == "log"


def test_occupation_table_and_plot():
    table = uc.occupation_table(toy_scored(LOGPROBS))
    assert set(table.index) == {"driver", "nurse"}
    assert table.loc["driver", "pairs"] == 1 and table.loc["nurse", "pairs"] == 3
    assert table["D gap"].is_monotonic_increasing
    assert uc.plot_occupations(table).get_xlim() == (-1.05, 1.05)
    with pytest.raises(ValueError, match="no rows"):
        uc.occupation_table(toy_scored(LOGPROBS), fmt="mcq")


def test_sample_pairs_is_balanced_and_seeded():
    frame = pd.DataFrame(
        {"pair_id": [f"p{i // 2}" for i in range(40)], "type": [1] * 20 + [2] * 20}
    )
    a = uc.sample_pairs(frame, 7, seed=1)
    assert a["pair_id"].nunique() == 7 and len(a) == 14
    assert a.groupby("type")["pair_id"].nunique().tolist() == [4, 3]
    assert a.equals(uc.sample_pairs(frame, 7, seed=1))
    assert len(uc.sample_pairs(frame, None)) == 40
    assert uc.sample_pairs(frame, 100)["pair_id"].nunique() == 20
    with pytest.raises(ValueError):
        uc.sample_pairs(frame, 0)


def test_build_prompts_formats():
    frame = toy_frame().iloc[:1]
    prefixes, options = uc.build_prompts(frame, "mcq")
    assert prefixes[0].endswith("A. the driver\nB. the nurse\nAnswer:")
    assert options == [[" A", " B"]]
    with pytest.raises(ValueError, match="format"):
        uc.build_prompts(frame, "cot")


def test_replication_table():
    wb = toy_frame()
    t = uc.replication(wb, {"rows": 31728, "type1": 14120, "type2_pro": 8804, "type2_anti": 8804})
    by = t.set_index("quantity")
    assert by.loc["WinoBias instances", "verdict"] == "differs"  # 8 toy sentences
    assert by.loc["UCerF, identical behaviour (perfect fairness)", "verdict"] == "matches"
    assert by.loc["SynthBias rows", "difference"] == -28
    assert by.loc["SynthBias type 2", "ours"] == 17608
    assert "duplicates" in by.loc["SynthBias rows", "note"]


# ---- with a tiny random language model -----------------------------------------------------


class ChunkTokenizer:
    def __call__(self, text, add_special_tokens=False):
        ids = []
        for index, word in enumerate(text.split(" ")):
            word = ("Ġ" if index else "") + word
            ids += [
                3 + zlib.crc32(word[i : i + 3].encode()) % 97
                for i in range(0, len(word), 3)
                if word[i : i + 3]
            ]
        return {"input_ids": ids}


@pytest.fixture(scope="module")
def tiny():
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from fairbook.lm import LanguageModel

    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=100,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
    )
    model = transformers.LlamaForCausalLM(config).eval()
    return LanguageModel(model=model, tokenizer=ChunkTokenizer(), name="tiny", start_ids=(1,))


def test_score_frame_end_to_end(tiny):
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


def test_model_ranking_with_a_stand_in_loader(tiny, monkeypatch):
    import fairbook.lm

    monkeypatch.setattr(fairbook.lm, "load_model", lambda name, **kw: tiny)
    table = uc.model_ranking(["m1", "m2"], toy_frame(), batch_size=4, progress=False)
    assert list(table.index) == ["m1", "m2"]
    assert table["UCerF rank"].tolist() == [1, 1]  # the same model twice ties


def test_nothing_to_rank_or_score_offline(tiny, tmp_path):
    assert uc.model_ranking("", toy_frame()) is None
    assert uc.model_ranking(" , ", toy_frame()) is None
    assert uc.ranking_replication(None) is None
    result = uc.synthbias_summary(tiny, file=str(tmp_path / "absent.csv"))
    assert not result["available"] and "not scored" in result["message"]
    assert "load_synthbias(download=True)" in uc.synthbias_tables(result).iloc[0, 0]


def test_ranking_replication_names_the_papers_models():
    ranking = pd.DataFrame(
        {"accuracy rank": [3, 1, 2], "EO rank": [5, 1, 2], "UCerF rank": [8, 1, 2]},
        index=["mistralai/Mistral-7B-Instruct-v0.2", "EleutherAI/pythia-1b", "somebody/else"],
    )
    t = uc.ranking_replication(ranking).set_index("quantity")
    assert t.loc["Mistral-7B-Inst: UCerF rank", "verdict"] == "matches"
    assert t.loc["Mistral-7B-Inst: accuracy rank", "verdict"] == "differs"
    assert t.loc["Pythia-1B: accuracy rank", "paper"] == 10
    assert len(t) == 5
