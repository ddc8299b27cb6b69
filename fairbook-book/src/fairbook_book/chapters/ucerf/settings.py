"""Chapter 05 (seed 001, UCerF): the profiles, the prompt formats and temperatures, the paper's
model ids.
"""

from __future__ import annotations

from fairbook_book.chapters.profiles import choose_settings

__all__ = ["FORMATS", "PAPER_MODEL_IDS", "PROFILES", "TEMPERATURES", "settings"]


#: Prompt formats, the paper's task variants. ``prefix`` is filled from a row of the
#: data; option ``j`` names candidate ``occupation_{j+1}`` (order of mention).
#: ``intrinsic``: the model completes a cloze with the occupation itself;
#: ``mcq``: a multiple-choice question answered with a letter.
FORMATS = {
    "intrinsic": {
        "prefix": '{sentence} Here, "{pronoun}" refers to the',
        "options": (" {occupation_1}", " {occupation_2}"),
    },
    "mcq": {
        "prefix": (
            '{sentence}\nQuestion: Who does "{pronoun}" refer to?\n'
            "A. the {occupation_1}\nB. the {occupation_2}\nAnswer:"
        ),
        "options": (" A", " B"),
    },
}


#: Temperatures of the variants in :func:`temperature_variants`.
TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)


#: Settings of the two profiles; the chapter's explicit parameters override them.
PROFILES = {
    "fast": {
        "n_pairs": 100,
        "synthbias_pairs": 100,
        "batch_size": 32,
        "threads": 2,
        "formats": ("intrinsic", "mcq"),
    },
    "full": {
        "n_pairs": None,
        "synthbias_pairs": None,
        "batch_size": 32,
        "threads": 2,
        "formats": ("intrinsic", "mcq"),
    },
}


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides are ignored.

    ``n_pairs`` is the number of WinoBias minimal pairs scored (half of type 1, half of
    type 2; ``None``: all 1,584 pairs = 3,168 sentences); ``synthbias_pairs`` the same
    for SynthBias when it is present. ``threads`` pins torch's CPU threads (the book's
    machines have 2 cores; with oneDNN linear layers 1 and 2 threads give identical
    scores, but the batch size is part of the numbers: padding changes float sums).

    Examples
    --------
    >>> settings("full")["n_pairs"] is None
    True
    >>> settings("fast", n_pairs=10)["n_pairs"]
    10
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    return chosen


#: Substrings of Hugging Face ids that identify the models whose ranks seed 001 prints.
PAPER_MODEL_IDS = {
    "Llama-3-70B-Inst": "llama-3-70b",
    "Mixtral-8x7B-Inst": "mixtral-8x7b",
    "Mistral-7B-Inst": "mistral-7b",
    "Pythia-1B": "pythia-1b",
}
