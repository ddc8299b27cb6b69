"""The answer keys of the chapters' exercises: what is graded by machine, what by a person.

Every exercise of every chapter is one of two kinds.

* **Graded** (:class:`GradedExercise`): its answer is a number, a yes/no or a short word that
  a short computation gives — the "by hand" exercises and the computable part of chapter 08's
  "Decided by three runs?". The key names the variables the student sets, the instructor's
  answer (arithmetic as a person would do it, *not* the library call), a typical wrong answer
  (the mistake the exercise is about), and for each variable an **oracle**: an expression
  that computes the right value with ``fairbook`` itself, evaluated inside the grader's test,
  so no expected number is typed here. A number is right within :data:`TOLERANCE` (three
  decimals: students round). No key is the zero a zeroed notebook would give (0, False or
  ""): a yes-or-no question is answered by the words ``"yes"`` and ``"no"``, and a question
  whose value would be 0 asks for a number that is not (chapter 11's MATCH at n = 4 has size
  0, so its smallest p-value is asked), so zeroed answers earn nothing anywhere.
* **Open** (:class:`MarkingGuide`): predictions before a rerun and open questions. They stay
  open; the key is a marking guide for the instructor edition — points and what earns them.

:mod:`fairbook_book.tooling.assignments` turns these keys and the chapters' own exercise statements
into one otter-grader assignment per chapter.

Examples
--------
>>> key = GRADED["ex-01-rates-by-hand"]
>>> [answer.name for answer in key.answers]
['tpr', 'fpr', 'ppv', 'benefit']
>>> check_answers(key, run_answer(key, key.solution))
{'tpr': True, 'fpr': True, 'ppv': True, 'benefit': True}
>>> check_answers(key, run_answer(key, key.wrong))["tpr"]
False
>>> sum(points for points, _ in GUIDES["ex-01-nan-not-zero"].criteria)
3
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "GRADED",
    "GUIDES",
    "TOLERANCE",
    "Answer",
    "GradedExercise",
    "MarkingGuide",
    "answer_has_kind",
    "answer_is_right",
    "check_answer",
    "check_answers",
    "expected_values",
    "run_answer",
    "values_of",
]

#: a number is right when it is within this of the oracle's value (correct to three decimals)
TOLERANCE = 5e-4

_KINDS = ("number", "integer", "yes/no", "word")


@dataclass(frozen=True)
class Answer:
    """One variable a student sets.

    Parameters
    ----------
    name : str
        The Python name the answer cell assigns.
    meaning : str
        What it holds, as the assignment states it.
    oracle : str
        A Python expression, evaluated after ``imports`` (and the exercise's ``context``),
        giving the right value with ``fairbook``.
    kind : {"number", "integer", "yes/no", "word"}
        How it is compared: within :data:`TOLERANCE`, exactly, as a bool, or as a lower-case
        word.
    """

    name: str
    meaning: str
    oracle: str
    kind: str = "number"

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"answer {self.name}: kind must be one of {_KINDS}, not {self.kind!r}")


@dataclass(frozen=True)
class GradedExercise:
    """The key of one exercise graded by machine (see the module's docstring).

    ``imports`` is run before the oracles (and shown in the assignment's setup cell only when
    ``context`` needs it); ``context`` is code the assignment runs *for* the student before
    the answer cell (data the exercise refers to, e.g. a chapter's table).
    """

    label: str
    answers: tuple[Answer, ...]
    solution: str
    wrong: str
    imports: str = ""
    context: str = ""

    @property
    def question(self) -> str:
        """The otter question name (a Python identifier made from the label)."""
        return self.label.replace("-", "_")

    @property
    def points(self) -> int:
        """One point per answer."""
        return len(self.answers)


@dataclass(frozen=True)
class MarkingGuide:
    """The marking guide of one open exercise: ``criteria`` are ``(points, what earns them)``."""

    label: str
    criteria: tuple[tuple[int, str], ...]

    @property
    def question(self) -> str:
        return self.label.replace("-", "_")

    @property
    def points(self) -> int:
        return sum(points for points, _ in self.criteria)


def _graded(*keys: GradedExercise) -> dict[str, GradedExercise]:
    return {key.label: key for key in keys}


_METRICS = "import numpy as np\nfrom fairbook.metrics import compare, compute"

GRADED: dict[str, GradedExercise] = _graded(
    GradedExercise(
        label="ex-01-rates-by-hand",
        answers=(
            Answer("tpr", "the true positive rate", 'compute("TPR", [2, 3, 1, 6])'),
            Answer("fpr", "the false positive rate", 'compute("FPR", [2, 3, 1, 6])'),
            Answer("ppv", "the precision (PPV)", 'compute("PPV", [2, 3, 1, 6])'),
            Answer("benefit", "the marginal benefit B", 'compute("B", [2, 3, 1, 6])'),
        ),
        imports=_METRICS,
        solution="tpr = 2 / (2 + 3)\nfpr = 1 / (1 + 6)\nppv = 2 / (2 + 1)\nbenefit = (1 - 3) / 12",
        # the rates' denominators swapped: TP over the predicted positives, FP over everybody,
        # and B as FN − FP (its sign flipped)
        wrong="tpr = 2 / (2 + 1)\nfpr = 1 / 12\nppv = 2 / (2 + 3)\nbenefit = (3 - 1) / 12",
    ),
    GradedExercise(
        label="ex-02-ofi-by-hand",
        answers=(
            Answer("benefit_i", "group i's marginal benefit", 'compute("B", [20, 10, 5, 65])'),
            Answer("benefit_j", "group j's marginal benefit", 'compute("B", [30, 5, 15, 50])'),
            Answer(
                "ofi", "the OFI of i against j", 'compare("OFI", [20, 10, 5, 65], [30, 5, 15, 50])'
            ),
            Answer("di", "the DI of i over j", 'compare("DI", [20, 10, 5, 65], [30, 5, 15, 50])'),
            Answer(
                "favoured",
                'the group both metrics say is favoured, "i" or "j"',
                '"i" if compare("OFI", [20, 10, 5, 65], [30, 5, 15, 50]) > 0 else "j"',
                kind="word",
            ),
        ),
        imports=_METRICS,
        solution=(
            "benefit_i = (5 - 10) / 100\nbenefit_j = (15 - 5) / 100\nofi = benefit_i - benefit_j\n"
            'di = ((20 + 5) / 100) / ((30 + 15) / 100)\nfavoured = "j"'
        ),
        # B as FN − FP (the sign flipped), DI the other way up, so "i" looks favoured
        wrong=(
            "benefit_i = (10 - 5) / 100\nbenefit_j = (5 - 15) / 100\nofi = benefit_i - benefit_j\n"
            'di = ((30 + 15) / 100) / ((20 + 5) / 100)\nfavoured = "i"'
        ),
    ),
    GradedExercise(
        label="ex-03-holes-by-hand",
        answers=(
            Answer(
                "n_matrices",
                "the number of confusion matrices of 5 people",
                "combinatorics.n_confusion_matrices(5)",
                kind="integer",
            ),
            Answer(
                "tpr_holes",
                "how many of them have no TPR",
                'combinatorics.hole_count("TPR", 5)',
                kind="integer",
            ),
        ),
        imports="from fairbook.stats import combinatorics",
        solution="from math import comb\n\nn_matrices = comb(5 + 3, 3)\ntpr_holes = 5 + 1",
        # 4^5 ordered assignments of people instead of matrices; only the all-TN matrix
        wrong="n_matrices = 4 ** 5\ntpr_holes = 1",
    ),
    GradedExercise(
        label="ex-03-match-by-hand",
        answers=(
            Answer(
                "p_value",
                "the exact two-sided MATCH p-value of the group's PPR",
                'match.test("PPR", [0, 1, 0, 2], [0.25, 0.25, 0.25, 0.25], method="exact")',
            ),
        ),
        imports="from fairbook.stats import match",
        solution="p_value = min(1, 2 * min(0.5 ** 3, 1.0))",
        # the one-sided probability P(S <= 0), not doubled
        wrong="p_value = 0.5 ** 3",
    ),
    GradedExercise(
        label="ex-04-decompose-by-hand",
        answers=(
            Answer(
                "epistemic",
                "the epistemic uncertainty",
                "decompose(np.array([[[0.25, 0.75]], [[0.75, 0.25]]]))[0][0]",
            ),
            Answer(
                "aleatoric",
                "the aleatoric uncertainty",
                "decompose(np.array([[[0.25, 0.75]], [[0.75, 0.25]]]))[1][0]",
            ),
            Answer(
                "predictive",
                "the predictive uncertainty",
                "decompose(np.array([[[0.25, 0.75]], [[0.75, 0.25]]]))[2][0]",
            ),
        ),
        imports="import numpy as np\nfrom fairbook.uncertainty import decompose",
        solution=(
            "epistemic = 0.25 ** 2 + 0.25 ** 2\naleatoric = 2 * 0.25 * 0.75\n"
            "predictive = epistemic + aleatoric"
        ),
        # the per-class variance (one class only), and predictive taken as the mean's entropy
        wrong="epistemic = 0.25 ** 2\naleatoric = 0.25 * 0.75\npredictive = 0.5",
    ),
    GradedExercise(
        label="ex-05-ucerf-by-hand",
        answers=(
            Answer(
                "confidence",
                "the confidence at perplexity 1.5",
                "confidence_from_perplexity(1.5, 2)",
            ),
            Answer("d_a", "version A's desirability", "float(desirability(0.9, True))"),
            Answer("d_b", "version B's desirability", "float(desirability(0.5, False))"),
            Answer(
                "pair_ucerf",
                "the pair's UCerF",
                "ucerf(float(desirability(0.9, True)), float(desirability(0.5, False)))",
            ),
        ),
        imports="from fairbook.ucerf import confidence_from_perplexity, desirability, ucerf",
        solution=(
            "confidence = (2 - 1.5) / (2 - 1)\nd_a = 0.9\nd_b = -0.5\n"
            "pair_ucerf = 1 - abs(d_a - d_b) / 2"
        ),
        # confidence as 1/ppl, and the wrong answer's confidence not negated
        wrong="confidence = 1 / 1.5\nd_a = 0.9\nd_b = 0.5\npair_ucerf = 1 - abs(d_a - d_b) / 2",
    ),
    GradedExercise(
        label="ex-06-cohen-by-hand",
        answers=(
            Answer(
                "d",
                "Cohen's d of the debiased runs minus the baseline runs",
                "cohen_d([0.80, 0.82, 0.84, 0.86], [0.85, 0.87, 0.89, 0.91])",
            ),
            Answer(
                "label",
                'its Sawilowsky label, as the chapter prints it (e.g. "medium")',
                "effect_size_label(cohen_d([0.80, 0.82, 0.84, 0.86], [0.85, 0.87, 0.89, 0.91]))",
                kind="word",
            ),
        ),
        imports="from fairbook.stats.between_runs import cohen_d, effect_size_label",
        solution=(
            's2 = (2 * 0.03 ** 2 + 2 * 0.01 ** 2) / 3\nd = 0.05 / s2 ** 0.5\nlabel = "very large"'
        ),
        # the standard deviation with divisor n (population), and the label one step off
        wrong=('s2 = (2 * 0.03 ** 2 + 2 * 0.01 ** 2) / 4\nd = 0.05 / s2 ** 0.5\nlabel = "huge"'),
    ),
    GradedExercise(
        label="ex-07-ofi-by-hand",
        answers=(
            Answer(
                "ofi_before",
                "OFI trained on real data",
                'compare("OFI", [40, 20, 5, 35], [40, 5, 20, 35])',
            ),
            Answer(
                "ofi_after",
                "OFI trained on synthetic data",
                'compare("OFI", [45, 15, 10, 30], [42, 8, 15, 35])',
            ),
            Answer(
                "helped",
                '"yes" if the mitigation moved OFI closer to 0, else "no"',
                '"yes" if abs(compare("OFI", [45, 15, 10, 30], [42, 8, 15, 35]))'
                ' < abs(compare("OFI", [40, 20, 5, 35], [40, 5, 20, 35])) else "no"',
                kind="word",
            ),
        ),
        imports=_METRICS,
        solution=(
            "ofi_before = (5 - 20) / 100 - (20 - 5) / 100\n"
            "ofi_after = (10 - 15) / 100 - (15 - 8) / 100\n"
            'helped = "yes" if abs(ofi_after) < abs(ofi_before) else "no"'
        ),
        # B as (FN − FP)/n: every sign flipped
        wrong=(
            "ofi_before = (20 - 5) / 100 - (5 - 20) / 100\n"
            "ofi_after = (15 - 10) / 100 - (8 - 15) / 100\n"
            'helped = "no"'
        ),
    ),
    GradedExercise(
        label="ex-08-crps-by-hand",
        answers=(
            Answer(
                "crps_a",
                "the CRPS of forecast A",
                'crps_examples({"A": [0.0, 2.0]}, target=1.0)["CRPS"].iloc[0]',
            ),
            Answer(
                "crps_b",
                "the CRPS of forecast B",
                'crps_examples({"B": [0.0, 0.0]}, target=1.0)["CRPS"].iloc[0]',
            ),
        ),
        imports="from fairbook_book.chapters.parallel_time_networks import crps_examples",
        solution="crps_a = 1 - (0 + 2 + 2 + 0) / 4 / 2\ncrps_b = 1 - 0 / 2",
        # T2 over the distinct pairs only, and B scored by its absolute error alone
        wrong="crps_a = 1 - 2 / 2\ncrps_b = 0",
    ),
    GradedExercise(
        label="ex-08-decided",
        answers=(
            Answer(
                "low",
                "the lower end of the 95 % Student-t interval of the mean skill",
                "decide([0.10, -0.05, 0.20])['low']",
            ),
            Answer(
                "high",
                "its upper end",
                "decide([0.10, -0.05, 0.20])['high']",
            ),
            Answer(
                "decided",
                '"yes" if the interval excludes zero, else "no"',
                "'yes' if decide([0.10, -0.05, 0.20])['decided'] else 'no'",
                kind="word",
            ),
        ),
        imports="from fairbook.stats.decision import decide",
        solution=(
            "from statistics import mean, stdev\n\nfrom scipy import stats\n\n"
            "runs = [0.10, -0.05, 0.20]\n"
            "half = stats.t.ppf(0.975, len(runs) - 1) * stdev(runs) / len(runs) ** 0.5\n"
            "low = mean(runs) - half\nhigh = mean(runs) + half\n"
            'decided = "yes" if low > 0 or high < 0 else "no"'
        ),
        # the normal quantile 1.96 instead of Student's t with two degrees of freedom
        wrong=(
            "from statistics import mean, stdev\n\n"
            "runs = [0.10, -0.05, 0.20]\n"
            "half = 1.96 * stdev(runs) / len(runs) ** 0.5\n"
            "low = mean(runs) - half\nhigh = mean(runs) + half\n"
            'decided = "yes"'
        ),
    ),
    GradedExercise(
        label="ex-09-small-group-by-hand",
        answers=(
            Answer(
                "ppr",
                "the Native American group's predicted positive rate",
                'am.group_rates(report, "race").loc["Native American", "PPR"]',
            ),
            Answer(
                "tpr",
                "its true positive rate",
                'am.group_rates(report, "race").loc["Native American", "TPR"]',
            ),
        ),
        imports="from fairbook_book.chapters import audit_your_model as am",
        context=(
            "from fairbook_book.chapters import audit_your_model as am\n\n"
            'config = am.settings("fast")\n'
            "report = am.compas_audit(\n"
            '    am.compas_predictions(), alpha=config["alpha"], min_gap=config["min_gap"]\n)\n'
            'counts = am.group_counts(report, "race")\ncounts'
        ),
        solution=(
            'row = counts.loc["Native American"]\n'
            'ppr = (row["TP"] + row["FP"]) / row["n"]\n'
            'tpr = row["TP"] / (row["TP"] + row["FN"])'
        ),
        # the share of actual positives (prevalence) and the precision
        wrong=(
            'row = counts.loc["Native American"]\n'
            'ppr = (row["TP"] + row["FN"]) / row["n"]\n'
            'tpr = row["TP"] / (row["TP"] + row["FP"])'
        ),
    ),
    GradedExercise(
        label="ex-10-flip-rate-by-hand",
        answers=(
            Answer("rate", "the flip rate of the five verdicts", "flip_rate([1, 0, 1, 1, 0])"),
            Answer(
                "largest",
                "the largest flip rate five runs can show",
                "max(flip_rate([1] * k + [0] * (5 - k)) for k in range(6))",
            ),
        ),
        imports="from fairbook.variance.verdicts import flip_rate",
        solution="rate = 3 * 2 / 10\nlargest = max(k * (5 - k) for k in range(6)) / 10",
        # ordered pairs counted against unordered ones, and the largest taken as 1
        wrong="rate = 3 * 2 / 20\nlargest = 1.0",
    ),
    GradedExercise(
        label="ex-11-size-by-hand",
        answers=(
            Answer("wald_size", "the Wald test's exact size", 'exact_size("wald", 4, p=0.5)'),
            Answer(
                "match_smallest_p",
                "MATCH's smallest p-value over the outcomes",
                'float(pvalue_table("match", 4, p_ref=0.5).min())',
            ),
        ),
        imports="from fairbook.stats.group_tests import exact_size, pvalue_table",
        solution="wald_size = 2 / 16\nmatch_smallest_p = 2 * 1 / 16",
        # the promise taken for the size, and one tail for the two-sided p-value
        wrong="wald_size = 0.05\nmatch_smallest_p = 1 / 16",
    ),
    GradedExercise(
        label="ex-11-fisher-by-hand",
        answers=(
            Answer(
                "smallest_p",
                "the smallest two-sided p-value Fisher's test gives to any of the tables",
                'float(pvalue_table("fisher", 2, N=2).min())',
            ),
            Answer(
                "can_flag",
                '"yes" if Fisher\'s test can flag some table at α = 0.05, else "no"',
                '"yes" if pvalue_table("fisher", 2, N=2).min() <= 0.05 else "no"',
                kind="word",
            ),
        ),
        imports="from fairbook.stats.group_tests import pvalue_table",
        solution='smallest_p = 2 / 6\ncan_flag = "no"',
        # one tail only, and "small p" taken for a flag
        wrong='smallest_p = 1 / 6\ncan_flag = "yes"',
    ),
)


def _guide(label: str, *criteria: tuple[int, str]) -> MarkingGuide:
    return MarkingGuide(label, tuple(criteria))


GUIDES: dict[str, MarkingGuide] = {
    guide.label: guide
    for guide in (
        _guide(
            "ex-01-predict-holes",
            (
                1,
                "TPR, FNR, MCC and PT are undefined: the group has no actual positive (TP + "
                "FN = 0).",
            ),
            (1, "The metrics that divide by n (accuracy, prevalence, PPR, B …) stay defined."),
            (1, "PPV, prevalence, F1 and FOR are exactly 0 (TP = 0 and FN = 0), not undefined."),
        ),
        _guide(
            "ex-01-nan-not-zero",
            (
                1,
                "A TPR of 0 claims every positive of the group was missed — of people who do "
                "not exist.",
            ),
            (
                1,
                "The audit would then report the largest possible gap and flag unfairness wrongly.",
            ),
            (
                1,
                "Report the rate as undefined (NaN, 'no TPR') with the group size; compare "
                "defined metrics.",
            ),
        ),
        _guide(
            "ex-02-predict-min-group",
            (1, "Names the COMPAS groups whose n reaches 20 as joining; the smallest stays out."),
            (
                1,
                "Small groups' rates have a wide sampling spread, so OFI and DI can disagree "
                "by chance.",
            ),
            (
                1,
                "Concludes that the agreement claim becomes harder to keep, and checks it on "
                "the rerun.",
            ),
        ),
        _guide(
            "ex-02-perfect-classifier",
            (
                1,
                "A concrete pair of error-free matrices with different base rates, e.g. "
                "[10,0,0,90] and [50,0,0,50].",
            ),
            (
                1,
                "DI is far below 1: it measures the outcome's distribution (systemic), here "
                "in the labels.",
            ),
            (
                1,
                "OFI is 0: no group's predictions depart from its labels; OFI answers the "
                "classifier question.",
            ),
        ),
        _guide(
            "ex-03-predict-alpha",
            (1, "Holm at a smaller level rejects a subset: no new disparity can appear."),
            (1, "Those with adjusted p-values between 0.01 and the default level are lost first."),
            (
                1,
                "Large COMPAS groups keep their verdicts (p-values far below both levels); "
                "checked on the rerun.",
            ),
        ),
        _guide(
            "ex-03-predict-draws",
            (
                1,
                "The MSE estimates stay unbiased: the curves keep their shape, the ratios "
                "move little.",
            ),
            (
                1,
                "Standard errors grow by about the square root of the budget ratio: noisier "
                "curves, wider intervals.",
            ),
            (1, "Fewer claims hold with intervals apart — a budget effect, not CPS getting worse."),
        ),
        _guide(
            "ex-03-cps-hides",
            (
                1,
                "For a binomial metric the gap shrinks by n/(n + λ) (halves at λ = n), real "
                "or not.",
            ),
            (1, "A worked example (e.g. PPR 1/5 against 1/2 with λ = 5 gives the half-way value)."),
            (
                1,
                "Report raw and smoothed scores with λ; test the gap with MATCH on the raw counts.",
            ),
        ),
        _guide(
            "ex-04-predict-T",
            (
                1,
                "Epistemic (a variance over T samples, divisor T) shrinks by (T − 1)/T: about"
                " half at T = 2.",
            ),
            (
                1,
                "Predictive depends on the mean prediction and moves little; aleatoric takes "
                "up what epistemic loses.",
            ),
            (
                1,
                "T = 1 gives epistemic exactly 0 for every input (the ensemble is not "
                "affected by T).",
            ),
        ),
        _guide(
            "ex-04-same-total",
            (
                1,
                "No: the first applicant's uncertainty is all aleatoric, the second's mostly "
                "epistemic.",
            ),
            (
                1,
                "Epistemic uncertainty marks too little (or unlike) data; aleatoric a "
                "genuinely ambiguous case.",
            ),
            (
                1,
                "For a group with mostly epistemic uncertainty: collect more or better-"
                "targeted data for it.",
            ),
        ),
        _guide(
            "ex-05-predict-pairs",
            (1, "Same quantities from 4x the pairs: sampling error shrinks by about a factor 2."),
            (1, "Summary accuracy and UCerF move by no more than their earlier sampling error."),
            (
                1,
                "The per-occupation figure changes most (few pairs per occupation); scoring "
                "takes ~4x as long.",
            ),
        ),
        _guide(
            "ex-05-equal-accuracy",
            (1, "No: equal accuracy hides unequal confidence."),
            (
                1,
                "The case worked out: desirabilities 0.9 and 0.1, UCerF = 1 − |0.9 − 0.1|/2 ="
                " 0.6, below 1.",
            ),
            (
                1,
                "Why it matters: group B's answers are one small perturbation from wrong; "
                "downstream users see doubt.",
            ),
        ),
        _guide(
            "ex-06-predict-runs",
            (1, "The exact test's floor: 1/C(8, 4) with four runs each, 1/C(16, 8) with eight."),
            (
                1,
                "With four runs a technique passes only with (almost) complete separation; "
                "eight resolve more.",
            ),
            (
                1,
                "Expect more significant effects where d is large, and fewer spurious large d"
                " elsewhere.",
            ),
        ),
        _guide(
            "ex-06-one-run",
            (1, "Asks for several FIT runs of each model (everything fixed, including the seed)."),
            (
                1,
                "Explains that one run each is one draw; the run-to-run spread can be as "
                "large as the effect.",
            ),
            (
                1,
                "Decides with a between-run comparison (Mann–Whitney, Cohen's d, Levene) and "
                "reports its verdict.",
            ),
        ),
        _guide(
            "ex-07-predict-weight",
            (1, "Without the diversity loss the generator reproduces the real occupation mix."),
            (
                1,
                "Table 3.5: the synthetic data's distance from uniform rises towards the real"
                " data's.",
            ),
            (
                1,
                "The sedentary share stays near its real value instead of moving towards "
                "5/14; checked on the grid.",
            ),
        ),
        _guide(
            "ex-07-di-without-ofi",
            (1, "Not necessarily: DI = 1 says only that the outcome is shared evenly."),
            (
                1,
                "A valid pair with equal PPR but OFI ≠ 0 (e.g. [5,0,45,50] and [45,5,5,45], "
                "OFI 0.45).",
            ),
            (
                1,
                "OFI sees how each group's predictions depart from its labels; report both "
                "metrics.",
            ),
        ),
        _guide(
            "ex-08-predict-population",
            (1, "The search stage's cost roughly doubles; the final training costs the same."),
            (
                1,
                "More points per generation; best-so-far tends to be lower, but the ranking "
                "is noisy.",
            ),
            (1, "Table 5.2 need not improve: its verdicts compare intervals over few runs."),
        ),
        _guide(
            "ex-08-why-crps",
            (
                1,
                "Both forecasts have median 1 at both steps: the median's error cannot "
                "separate them.",
            ),
            (1, "The CRPS worked out: the fan scores half the point forecast's CRPS."),
            (
                1,
                "Lorenz is chaotic (two wings): a proper score rewards a fan where outcomes "
                "fall, not a hedge.",
            ),
        ),
        _guide(
            "ex-09-predict-alpha",
            (
                1,
                "No disparity can be added at a smaller α; those with adjusted p between 0.01"
                " and 0.05 are lost.",
            ),
            (
                1,
                "The size check gets stricter too: groups can only become 'too small' for "
                "more metrics.",
            ),
            (1, "Checked against the rerun's counts at both levels."),
        ),
        _guide(
            "ex-09-stable-verdict",
            (
                1,
                "The two verdicts answer different questions: beyond sampling noise vs. "
                "across a fixed ratio threshold.",
            ),
            (
                1,
                "Both directions: a small certain gap in a large group survives while its "
                "ratio wanders; the reverse for a small group.",
            ),
            (1, "Report both, with the share of runs in which each holds."),
        ),
        _guide(
            "ex-10-predict-threshold",
            (
                1,
                "A verdict flips when its values straddle the threshold; moving it moves the "
                "line, not the variance.",
            ),
            (
                1,
                "Verdicts near 0.05 stop flipping, those near 0.1 start; with mostly small "
                "gaps the share usually falls.",
            ),
            (
                1,
                "Small groups with widely spread values keep flipping; checked on the "
                "recomputed table.",
            ),
        ),
        _guide(
            "ex-10-report-what",
            (
                1,
                "For 31 people sampling variation dominates: check the bootstrap / group-size"
                " spread first.",
            ),
            (
                1,
                "Report the value with its interval and MATCH p-value, and the share of "
                "runs/resamples judged unfair.",
            ),
            (
                1,
                "Says that the data cannot settle the verdict, and shows the other metrics' "
                "verdicts.",
            ),
        ),
        _guide(
            "ex-11-predict-alpha",
            (
                1,
                "No: the Wald test's false flags at small n come from rates of 0 or 1, whose "
                "standard error is 0 and which it flags at any level.",
            ),
            (1, "The exact tests (MATCH, Fisher, Boschloo) hold any level by construction."),
            (1, "Checked on the rerun's sizes at α = 0.01, not only predicted."),
        ),
    )
}


def run_answer(key: GradedExercise, code: str) -> dict[str, Any]:
    """Run ``key.context`` and then a student's answer ``code``; return the namespace.

    Examples
    --------
    >>> run_answer(GRADED["ex-10-flip-rate-by-hand"], "rate = 0.6")["rate"]
    0.6
    """
    namespace: dict[str, Any] = {}
    if key.context:
        exec(compile(key.context, f"<{key.label} context>", "exec"), namespace)
    exec(compile(code, f"<{key.label} answer>", "exec"), namespace)
    return namespace


def values_of(key: GradedExercise) -> dict[str, Any]:
    """Every answer's right value for `key` (a key of :data:`GRADED`, or a term variant's:
    :func:`fairbook_book.tooling.variants.varied_key`), from its oracles, in a fresh namespace.

    Examples
    --------
    >>> values_of(GRADED["ex-03-holes-by-hand"])
    {'n_matrices': 56, 'tpr_holes': 6}
    """
    scope = run_answer(key, "")
    exec(compile(key.imports, f"<{key.label} imports>", "exec"), scope)
    return {
        answer.name: eval(compile(answer.oracle, f"<{key.label} oracle>", "eval"), scope)
        for answer in key.answers
    }


@functools.cache
def expected_values(label: str) -> dict[str, Any]:
    """Every answer's right value for the exercise ``label``, from its oracles (run with the
    key's ``imports`` after its ``context``, in a fresh namespace: nothing a student's answer
    sets can change them).

    Examples
    --------
    >>> expected_values("ex-03-holes-by-hand")
    {'n_matrices': 56, 'tpr_holes': 6}
    """
    return values_of(GRADED[label])


def answer_is_right(answer: Answer, given, expected) -> bool:
    """Whether ``given`` is right for ``answer`` against the oracle's ``expected`` value.

    Numbers (Python or numpy; not text, not a bool) within :data:`TOLERANCE`; integers
    exactly; yes/no as a bool (numpy's included; not 0/1, not text); words case- and
    space-insensitively.

    Examples
    --------
    >>> a = Answer("x", "", "0", kind="number")
    >>> answer_is_right(a, 0.3333, 1 / 3), answer_is_right(a, 0.33, 1 / 3)
    (True, False)
    >>> answer_is_right(a, ..., 1 / 3), answer_is_right(a, "0.333", 1 / 3)
    (False, False)
    """
    if answer.kind == "word":
        return isinstance(given, str) and given.strip().lower() == str(expected).strip().lower()
    if answer.kind == "yes/no":
        return type(given).__name__ in ("bool", "bool_") and bool(given) == bool(expected)
    if isinstance(given, bool) or type(given).__name__ == "bool_":
        return False
    if not isinstance(given, numbers.Real):  # numpy's numbers register as Real; text does not
        return False
    value = float(given)
    if answer.kind == "integer":
        return value == float(expected)
    return math.isfinite(value) and abs(value - float(expected)) <= TOLERANCE


def check_answers(key: GradedExercise, namespace: Mapping[str, Any]) -> dict[str, bool]:
    """Which of ``key``'s answers are right in ``namespace`` (a missing one is wrong).

    Examples
    --------
    >>> key = GRADED["ex-03-match-by-hand"]
    >>> check_answers(key, {"p_value": 0.25}), check_answers(key, {})
    ({'p_value': True}, {'p_value': False})
    """
    expected = expected_values(key.label)
    return {
        answer.name: answer.name in namespace
        and answer_is_right(answer, namespace[answer.name], expected[answer.name])
        for answer in key.answers
    }


def _answer(label: str, name: str) -> Answer:
    try:
        key = GRADED[label]
    except KeyError:
        raise KeyError(f"no graded exercise {label!r}") from None
    for answer in key.answers:
        if answer.name == name:
            return answer
    raise KeyError(f"{label} has no answer {name!r}")


def check_answer(label: str, name: str, given) -> bool:
    """Whether ``given`` is the right value of answer ``name`` of exercise ``label`` (what the
    autograder's hidden test asserts).

    Examples
    --------
    >>> [check_answer("ex-01-rates-by-hand", "tpr", given) for given in (0.4, 2 / 3)]
    [True, False]
    """
    return answer_is_right(_answer(label, name), given, expected_values(label)[name])


def answer_has_kind(label: str, name: str, given) -> bool:
    """Whether ``given`` is set to a value of the right kind (what the public test asserts; it
    says nothing about the value).

    Examples
    --------
    >>> [answer_has_kind("ex-01-rates-by-hand", "tpr", given) for given in (..., 0.2)]
    [False, True]
    >>> [answer_has_kind("ex-07-ofi-by-hand", "helped", given) for given in ("yes", True, "")]
    [True, False, False]
    """
    kind = _answer(label, name).kind
    if kind == "word":
        return isinstance(given, str) and bool(given.strip())
    is_bool = isinstance(given, bool) or type(given).__name__ == "bool_"
    if kind == "yes/no":
        return is_bool
    return not is_bool and isinstance(given, numbers.Real) and math.isfinite(float(given))
