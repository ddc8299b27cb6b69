"""Tests of the UCerF chapter's computations — the replication module."""

import pandas as pd

from fairbook_book.chapters import ucerf as uc


def test_replication_table(toy_frame):
    wb = toy_frame()
    t = uc.replication(wb, {"rows": 31728, "type1": 14120, "type2_pro": 8804, "type2_anti": 8804})
    by = t.set_index("quantity")
    assert by.loc["WinoBias instances", "verdict"] == "data fact check: differs"  # 8 toy sentences
    # definitional end-points: checked, never counted as a replication (issue 15)
    end_point = by.loc["UCerF, identical behaviour (perfect fairness)"]
    assert end_point["verdict"] == "mathematics check: matches"
    assert end_point["ours"] == end_point["paper"]
    # the paper's 40 occupations are SynthBias's, a count of another data set
    assert by.loc["occupations", "verdict"] == "data fact check: not comparable"
    assert by.loc["SynthBias rows", "verdict"] == "data fact check: not comparable"
    assert by.loc["SynthBias rows", "difference"] == -28
    assert by.loc["SynthBias type 2", "ours"] == 17608
    assert "duplicates" in by.loc["SynthBias rows", "note"]


def test_nothing_to_rank_or_score_offline(tiny, tmp_path, toy_frame):
    assert uc.model_ranking("", toy_frame()) is None
    assert uc.model_ranking(" , ", toy_frame()) is None
    # offline, every printed rank is still listed: not compared, the models are not here
    offline = uc.ranking_replication(None)
    assert len(offline) == 11 and offline["ours"].isna().all()
    assert {r.not_comparable_why for r in offline.attrs["rows"]} == {"data not offline"}
    result = uc.synthbias_summary(tiny, file=str(tmp_path / "absent.csv"))
    assert not result["available"] and "not scored" in result["message"]
    assert "load_synthbias(download=True)" in uc.synthbias_tables(result).iloc[0, 0]


def test_ranking_replication_names_the_papers_models():
    ranking = pd.DataFrame(
        {"accuracy rank": [3, 1, 2], "EO rank": [5, 1, 2], "UCerF rank": [8, 1, 2]},
        index=["mistralai/Mistral-7B-Instruct-v0.2", "EleutherAI/pythia-1b", "somebody/else"],
    )
    t = uc.ranking_replication(ranking).set_index("quantity")
    # ranks among 3 models are not the paper's ranks among 10
    assert set(t["verdict"]) == {"not comparable"}
    assert t.loc["Pythia-1B: accuracy rank", "paper"] == 10
    assert t.loc["Pythia-1B: accuracy rank", "ours"] == 1
    assert len(t) == 11 and t["ours"].notna().sum() == 5
