"""Seed 001 (Wang et al., "Is Your Model Fairly Certain?", ICML 2025), values as printed.

The extracted text prints few numbers: data-set sizes, the ranges of its scales, and
ranks of named models among the ten it evaluates. Counts of the released SynthBias file
(which differ from the paper's) are kept apart and labelled as the repository's.
"""

__all__ = [
    "CONFIDENCE_RANGE",
    "DESIRABILITY_RANGE",
    "N_MODELS",
    "OCCUPATIONS",
    "RANKS_SYNTHBIAS",
    "RANKS_WINOBIAS",
    "SYNTHBIAS_PAPER",
    "SYNTHBIAS_RELEASE",
    "UCERF_COMPLETE_UNFAIRNESS",
    "UCERF_PERFECT_FAIRNESS",
    "WINOBIAS_INSTANCES",
]


#: Sec. "Background": WinoBias has 3,168 instances.
WINOBIAS_INSTANCES = 3_168

#: SynthBias "covering all gender stereotype pairs across 40 occupations".
OCCUPATIONS = 40

#: SynthBias as validated in the paper: 14,132 type 1 + 17,624 type 2 = 31,756.
SYNTHBIAS_PAPER = {"rows": 31_756, "type1": 14_132, "type2": 17_624}

#: Not the paper: the apple/ml-synthbias README (3 July 2025) says 28 duplicates were
#: removed, leaving 31,728 rows; the issue gives 14,120 type 1 and 8,804 + 8,804 type 2.
SYNTHBIAS_RELEASE = {"rows": 31_728, "type1": 14_120, "type2_pro": 8_804, "type2_anti": 8_804}

#: LSBP: confidence c(x) = (k − perplexity)/(k − 1) ∈ [0, 1]; desirability D ∈ [−1, 1].
CONFIDENCE_RANGE = (0.0, 1.0)
DESIRABILITY_RANGE = (-1.0, 1.0)

#: UCerF: "A value of 1 represents perfect fairness, while 0 represents complete
#: unfairness."
UCERF_PERFECT_FAIRNESS = 1.0
UCERF_COMPLETE_UNFAIRNESS = 0.0

#: Number of LLMs evaluated.
N_MODELS = 10

#: Main results / ablation table: ranks (1 = best) among the ten models on WinoBias,
#: where the text prints an exact rank ("High (Top 2)" and "Declined" are left out).
RANKS_WINOBIAS = {
    "Llama-3-70B-Inst": {"EO": 1, "UCerF": 1},
    "Mixtral-8x7B-Inst": {"EO": 2, "UCerF": 2},
    "Mistral-7B-Inst": {"accuracy": 4, "EO": 5, "UCerF": 8},
    "Pythia-1B": {"accuracy": 10, "UCerF": 5},
}

#: Ranks on SynthBias (UCerF) where printed.
RANKS_SYNTHBIAS = {"Llama-3-70B-Inst": {"UCerF": 3}, "Mixtral-8x7B-Inst": {"UCerF": 4}}
