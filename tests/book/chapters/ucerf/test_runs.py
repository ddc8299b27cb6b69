"""Tests of the UCerF chapter's computations — the runs module."""

import pandas as pd
import pytest

from fairbook_book.chapters import ucerf as uc


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


def test_build_prompts_formats(toy_frame):
    frame = toy_frame().iloc[:1]
    prefixes, options = uc.build_prompts(frame, "mcq")
    assert prefixes[0].endswith("A. the driver\nB. the nurse\nAnswer:")
    assert options == [[" A", " B"]]
    with pytest.raises(ValueError, match="format"):
        uc.build_prompts(frame, "cot")


# ---- the recording of every WinoBias sentence (`fairbook-book record 05 winobias`)


def test_winobias_units_chunk_the_pairs_in_order_and_refuse_unknown_units():
    from fairbook_book.chapters.ucerf.runs import WINOBIAS_CHUNK_PAIRS, winobias_recorded_units

    frame = pd.DataFrame({"pair_id": [p for p in range(2 * WINOBIAS_CHUNK_PAIRS + 1)] * 2})
    assert uc.WINOBIAS_RECORDING.units({}) == [f"w{i:02d}" for i in range(16)]

    assert winobias_recorded_units({}, frame=frame) == ["w00", "w01", "w02"]
    with pytest.raises(ValueError, match="no WinoBias unit"):
        uc.WINOBIAS_RECORDING.run("w16", uc.settings("full") | {"seed": 0})
