"""Fixtures shared by the chapter's test modules."""

import zlib

import pandas as pd
import pytest


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
    return LanguageModel(model=model, tokenizer=_ChunkTokenizer(), name="tiny", start_ids=(1,))


def _toy_frame():
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


def _toy_scored(logprobs):
    frame = _toy_frame()
    frame.insert(0, "format", "intrinsic")
    frame["gold_position"] = frame["referent_position"]
    frame["male_position"] = 1
    frame["logprob_1"] = [lp[0] for lp in logprobs]
    frame["logprob_2"] = [lp[1] for lp in logprobs]
    return frame


_LOGPROBS = [
    (-0.1, -5.0),
    (-5.0, -0.1),
    (-2.0, -1.5),
    (-4.0, -0.1),
    (-3.0, -0.2),
    (-2.5, -0.3),
    (-0.5, -1.2),
    (-1.0, -0.9),
]


class _ChunkTokenizer:
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


@pytest.fixture
def toy_frame():
    """A factory of the hand-made pairs frame."""
    return _toy_frame


@pytest.fixture
def toy_scored():
    """A factory of hand-scored pairs from given log-probabilities."""
    return _toy_scored


@pytest.fixture
def LOGPROBS():
    return _LOGPROBS


@pytest.fixture
def ChunkTokenizer():
    return _ChunkTokenizer
