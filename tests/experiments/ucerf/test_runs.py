"""Tests of the UCerF chapter's computations — the runs module."""

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from fairbook.experiments import ucerf as uc  # noqa: E402


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
