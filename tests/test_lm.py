"""Tests of fairbook.lm on a tiny random Llama (2 layers, vocabulary 100): the batched,
prefix-caching scorer against a one-sequence-at-a-time reference. No network and no real
model."""

import subprocess
import sys
import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from fairbook import lm as LM  # noqa: E402


class ChunkTokenizer:
    """Words split into 3-character chunks, ids by CRC32: multi-token words, no vocab."""

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


def tiny_lm(attn="sdpa", start_ids=(1,)):
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=100,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        attn_implementation=attn,
    )
    model = transformers.LlamaForCausalLM(config).eval()
    return LM.LanguageModel(
        model=model, tokenizer=ChunkTokenizer(), name="tiny", start_ids=start_ids, pad_id=0
    )


PREFIXES = [
    "The developer argued with the designer because he did not like it. Here, he is the",
    "The developer argued with the designer because she did not like it. Here, she is the",
    "A nurse met the farmer and thanked him. Here, him is the",
    "A nurse met the farmer and thanked her. Here, her is the",
    "Short",
]
OPTIONS = [
    [" developer", " designer"],
    [" developer", " designer"],
    [" nurse", " farmer"],
    [" nurse", " farmer"],
    [" construction worker", " cook"],
]
GROUPS = ["p1", "p1", "p2", "p2", "solo"]


@pytest.fixture(autouse=True)
def _restore_torch_state():
    """load_model pins process-wide torch settings; give other tests theirs back."""
    deterministic = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    threads, rng = torch.get_num_threads(), torch.get_rng_state()
    yield
    torch.use_deterministic_algorithms(deterministic, warn_only=warn_only)
    torch.set_num_threads(threads)
    torch.set_rng_state(rng)


@pytest.fixture(scope="module")
def model():
    return tiny_lm()


@pytest.fixture(scope="module")
def reference(model):
    return LM.score_options_unbatched(model, PREFIXES, OPTIONS, progress=False)


def test_reference_is_a_sum_of_token_log_probabilities(model, reference):
    ids = list(model.start_ids) + model.encode(PREFIXES[0])
    option = model.encode(OPTIONS[0][1])
    with torch.inference_mode():
        logits = model.model(input_ids=torch.tensor([ids + option])).logits[0]
    logp = logits.log_softmax(-1)
    expected = sum(logp[len(ids) - 1 + t, option[t]].item() for t in range(len(option)))
    assert reference.logprob[0, 1] == pytest.approx(expected, abs=1e-5)
    assert reference.n_tokens[4].tolist() == [
        len(model.encode(" construction worker")),
        len(model.encode(" cook")),
    ]
    assert reference.n_tokens.max() > 1  # the test covers multi-token options


@pytest.mark.parametrize("batch_size", [1, 2, 3, 32])
@pytest.mark.parametrize("groups", [None, GROUPS])
def test_batched_equals_unbatched(model, reference, batch_size, groups):
    got = LM.score_options(
        model, PREFIXES, OPTIONS, groups=groups, batch_size=batch_size, progress=False
    )
    np.testing.assert_allclose(got.logprob, reference.logprob, atol=1e-4)
    assert (got.n_tokens == reference.n_tokens).all()


@pytest.mark.parametrize("attn", ["eager", "sdpa"])
def test_attention_implementations_and_no_start_ids(attn):
    lm = tiny_lm(attn, start_ids=())
    ref = LM.score_options_unbatched(lm, PREFIXES, OPTIONS, progress=False)
    got = LM.score_options(lm, PREFIXES, OPTIONS, groups=GROUPS, batch_size=8, progress=False)
    np.testing.assert_allclose(got.logprob, ref.logprob, atol=1e-4)


def test_identical_prefixes_in_a_group_and_shared_options(model):
    prefixes = ["The same words here", "The same words here", "Other words entirely"]
    options = [" yes", " no"]  # one flat list: the same options for every question
    ref = LM.score_options_unbatched(model, prefixes, options, progress=False)
    got = LM.score_options(model, prefixes, options, groups=["g", "g", "h"], progress=False)
    np.testing.assert_allclose(got.logprob, ref.logprob, atol=1e-4)
    np.testing.assert_allclose(got.logprob[0], got.logprob[1], atol=1e-5)


def test_option_scores_derived_quantities(model):
    s = LM.score_options(model, PREFIXES, OPTIONS, progress=False)
    assert s.k == 2
    np.testing.assert_allclose(s.probs.sum(1), 1.0)
    assert ((s.perplexity >= 1) & (s.perplexity <= 2)).all()
    assert ((s.confidence >= 0) & (s.confidence <= 1)).all()
    assert (s.prediction == s.logprob.argmax(1)).all()
    cold = s.probabilities(temperature=0.1)
    assert (cold.argmax(1) == s.prediction).all()
    assert (cold.max(1) >= s.probs.max(1) - 1e-12).all()


def test_scores_are_reproducible(model):
    a = LM.score_options(model, PREFIXES, OPTIONS, groups=GROUPS, progress=False)
    b = LM.score_options(model, PREFIXES, OPTIONS, groups=GROUPS, progress=False)
    assert (a.logprob == b.logprob).all()


@pytest.mark.parametrize(
    "prefixes, options, message",
    [
        ([], [], "no prefixes"),
        ("one string", [" a", " b"], "not one string"),
        (["a", "b"], [[" x", " y"]], "option lists"),
        (["a", "b"], [[" x", " y"], [" x"]], "same number"),
        (["a"], [[" x", ""]], "non-empty"),
        (["a"], [[" x"]], "k >= 2"),
    ],
)
def test_bad_input(model, prefixes, options, message):
    with pytest.raises(ValueError, match=message):
        LM.score_options(model, prefixes, options, progress=False)


def test_bad_groups_and_batch_size(model):
    with pytest.raises(ValueError, match="one entry per prefix"):
        LM.score_options(model, ["a", "b"], [" x", " y"], groups=["g"], progress=False)
    with pytest.raises(ValueError, match="batch_size"):
        LM.score_options(model, ["a"], [" x", " y"], batch_size=0, progress=False)


def test_load_model_from_a_local_folder(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"<s>": 0, "<pad>": 1, "[UNK]": 2, "the": 3, "nurse": 4, "cook": 5, "met": 6}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, bos_token="<s>", pad_token="<pad>", unk_token="[UNK]"
    )
    tokenizer.save_pretrained(tmp_path)
    tiny_lm().model.save_pretrained(tmp_path)
    lm = LM.load_model(str(tmp_path), threads=1, seed=3)
    assert lm.start_ids == (0,) and lm.pad_id == 1 and lm.name == str(tmp_path)
    assert torch.get_num_threads() == 1
    assert not lm.model.training
    scores = LM.score_options(lm, ["the nurse met the"], [[" nurse", " cook"]], progress=False)
    assert scores.logprob.shape == (1, 2)
    custom = LM.load_model(str(tmp_path), start_ids=[5], deterministic=False)
    assert custom.start_ids == (5,)
    with pytest.raises(ValueError, match="dtype"):
        LM.load_model(str(tmp_path), dtype="float99")


def test_default_model_is_the_registered_gguf(monkeypatch, tmp_path):
    # no real model: the data layer's answer is faked and transformers' loaders spied on
    calls = {}
    monkeypatch.setattr(
        "fairbook.data.path",
        lambda name: calls.setdefault("source", name) and tmp_path / "SmolLM2.gguf",
    )

    class Spy:
        @staticmethod
        def from_pretrained(folder, **kwargs):
            import os

            calls.setdefault("loads", []).append((folder, kwargs, os.environ.get("HF_HUB_OFFLINE")))
            return tiny_lm().model if "dtype" in kwargs else ChunkTokenizer()

    current = sys.modules["transformers"]  # loading a local folder can re-create the module
    monkeypatch.setattr(current, "AutoModelForCausalLM", Spy)
    monkeypatch.setattr(current, "AutoTokenizer", Spy)
    lm = LM.load_model(threads=1)
    assert calls["source"] == "smollm2"
    assert lm.start_ids == LM.SMOLLM2_START_IDS == (0,)
    for folder, kwargs, offline in calls["loads"]:
        assert folder == str(tmp_path)
        assert kwargs["gguf_file"] == "SmolLM2.gguf" and kwargs["local_files_only"] is True
        assert offline == "1"


def test_fast_gguf_restores_the_library():
    gguf = pytest.importorskip("gguf")
    before = (gguf.GGUFReader, gguf.get_tensor_name_map)
    with LM._fast_gguf():
        assert gguf.GGUFReader is not before[0]
        assert gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2) is gguf.get_tensor_name_map(
            gguf.MODEL_ARCH.LLAMA, 2
        )
    assert (gguf.GGUFReader, gguf.get_tensor_name_map) == before


def test_the_book_imports_without_the_lm_stack():
    code = (
        "import sys, fairbook.ucerf, fairbook.lm, fairbook.data, "
        "fairbook_book.chapters.ucerf; "
        "print(sorted(m for m in ('transformers', 'gguf', 'accelerate') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_onednn_linear_layers_score_like_the_stock_ones():
    lm = tiny_lm()
    stock = LM.score_options(lm, PREFIXES, OPTIONS, groups=GROUPS, progress=False)
    assert LM.use_onednn_linear(lm.model) == 2 * 7 + 1  # q k v o gate up down, lm_head
    assert LM.use_onednn_linear(lm.model) == 0  # nothing left to replace
    fast = LM.score_options(lm, PREFIXES, OPTIONS, groups=GROUPS, progress=False)
    np.testing.assert_allclose(fast.logprob, stock.logprob, atol=1e-4)
    again = LM.score_options(lm, PREFIXES, OPTIONS, groups=GROUPS, progress=False)
    assert (again.logprob == fast.logprob).all()
    unbatched = LM.score_options_unbatched(lm, PREFIXES, OPTIONS, progress=False)
    np.testing.assert_allclose(unbatched.logprob, fast.logprob, atol=1e-4)


def test_onednn_is_skipped_outside_cpu_float32():
    model = tiny_lm().model.double()
    assert LM.use_onednn_linear(model) == 0
    assert type(model.lm_head) is torch.nn.Linear
