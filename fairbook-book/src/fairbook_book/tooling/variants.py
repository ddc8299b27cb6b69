"""Term variants of the autograded exercises: other numbers, the same questions.

The book shows each exercise with its solution one click away, so a term's assignment must
not be the book's exercise word for word. A **variant** (``make student VARIANT=7``,
``fairbook-book student --variant 7``) draws fresh numbers for every autograded question —
other confusion matrices, group sizes, probabilities, runs, another small group — from a
generator seeded by the variant and the exercise, rewrites the statement the chapter prints
with them, and computes the keys from them with the library when the assignment is built.
The keys go to the instructor's folder only (``NN_keys.json`` and the zip's tests); nothing a
student installs holds them.

Each exercise's :class:`Variant` says:

* ``book``: the numbers the chapter prints (variant 0 *is* the book);
* ``draw(rng)``: a new set of them;
* ``statement``: the fragments of the chapter's statement (and of the answers' meanings) that
  carry the numbers, each with its template;
* ``oracles``, ``solution``, ``wrong`` (and ``context``): templates of the key's code.

Rendered with ``book``, every template gives the key of
:mod:`fairbook_book.tooling.exercise_keys` character for character, and every fragment occurs
in the chapter (a test holds both), so a variant can only change the numbers.

Examples
--------
>>> key = varied_key("ex-03-holes-by-hand", 0)
>>> key.solution == GRADED["ex-03-holes-by-hand"].solution
True
>>> varied_numbers("ex-03-holes-by-hand", 7) != varied_numbers("ex-03-holes-by-hand", 8)
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from fairbook_book.tooling.exercise_keys import GRADED, GradedExercise

__all__ = [
    "VARIANTS",
    "Variant",
    "varied_key",
    "varied_numbers",
    "varied_statement",
]

_WORDS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


@dataclass(frozen=True)
class Variant:
    """How to vary one exercise (module docstring)."""

    book: dict[str, Any]
    draw: Callable[[np.random.Generator], dict[str, Any]]
    statement: tuple[tuple[str, str], ...]
    solution: str
    wrong: str
    oracles: dict[str, str] = field(default_factory=dict)
    context: str | None = None


class _Draw(np.random.Generator):
    """A generator that also picks from short lists by the variant's number, so that any
    two consecutive variants differ in every such pick (a random pick from four values would
    repeat one time in four)."""

    def __init__(self, seed: list[int], variant: int):
        super().__init__(np.random.PCG64(seed))
        self.variant, self.picks = variant, 0

    def pick(self, choices):
        self.picks += 1
        return choices[(self.variant + 3 * self.picks) % len(choices)]


def _matrix(rng: np.random.Generator, n: int, *, low: int = 1) -> list[int]:
    """Four cells of ``n`` people, each at least ``low``."""
    while True:
        cuts = np.sort(rng.choice(np.arange(1, n), size=3, replace=False))
        cells = np.diff(np.concatenate([[0], cuts, [n]])).tolist()
        if min(cells) >= low:
            return [int(c) for c in cells]


def _draw_01(rng):
    tp, fn, fp, tn = _matrix(rng, int(rng.integers(10, 17)))
    while fp == fn:  # B = (FP - FN)/n would be 0: the one answer a zeroed notebook earns
        tp, fn, fp, tn = _matrix(rng, int(rng.integers(10, 17)))
    n = tp + fn + fp + tn
    return {"tp": tp, "fn": fn, "fp": fp, "tn": tn, "n": n, "n_text": str(n)}


def _draw_02(rng):
    i, j = _matrix(rng, 100, low=3), _matrix(rng, 100, low=3)
    # no marginal benefit (FP - FN) and no OFI may be 0 (a zeroed notebook would earn it)
    while 0 in (i[2] - i[1], j[2] - j[1], (i[2] - i[1]) - (j[2] - j[1])):
        i, j = _matrix(rng, 100, low=3), _matrix(rng, 100, low=3)
    return {f"{g}_{c}": v for g, m in (("i", i), ("j", j)) for c, v in zip("abcd", m, strict=True)}


def _draw_03_holes(rng):
    return {"n": int(rng.pick([4, 6, 7, 8, 9, 10]))}


def _draw_03_match(rng):
    n = int(rng.pick([4, 5, 6]))
    fn = int(rng.integers(1, n))
    return {"n": n, "fn": fn, "tn": n - fn, "words": _WORDS[n]}


def _draw_04(rng):
    p = float(rng.pick([0.05, 0.1, 0.15, 0.2, 0.3, 0.35, 0.4, 0.45]))
    return {"p": p, "q": round(1 - p, 2)}


def _draw_05(rng):
    return {
        "ppl": float(rng.pick([1.1, 1.2, 1.3, 1.4, 1.6, 1.7, 1.8, 1.9])),
        "ca": float(rng.pick([0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.95])),
        "cb": float(rng.pick([0.3, 0.35, 0.4, 0.45, 0.55, 0.6, 0.65, 0.7])),
    }


def _draw_06(rng):
    from fairbook.stats.between_runs import cohen_d, effect_size_label

    base = int(rng.pick([70, 72, 74, 76, 78]))
    shift = int(rng.pick([1, 2, 3, 4, 6]))
    a = [(base + 2 * k) / 100 for k in range(4)]
    b = [(base + shift + 2 * k) / 100 for k in range(4)]
    fmt = lambda v: f"{v:.2f}"  # noqa: E731
    numbers = {f"a{k}": fmt(a[k]) for k in range(4)} | {f"b{k}": fmt(b[k]) for k in range(4)}
    numbers["shift"] = fmt(shift / 100)
    numbers["label"] = effect_size_label(cohen_d(a, b))
    return numbers


def _draw_07(rng):
    names = ("bi", "bj", "ai", "aj")
    while True:
        numbers = {
            f"{m}_{c}": v
            for m in names
            for c, v in zip("abcd", _matrix(rng, 100, low=3), strict=True)
        }
        ofi = [
            (numbers[f"{i}_c"] - numbers[f"{i}_b"]) - (numbers[f"{j}_c"] - numbers[f"{j}_b"])
            for i, j in (("bi", "bj"), ("ai", "aj"))
        ]
        if 0 not in ofi:  # an OFI of 0 is the one answer a zeroed notebook would earn
            return numbers


def _draw_08_crps(rng):
    y = int(rng.pick([1, 2, 3]))
    half = int(rng.pick([1, 2, 3]))
    b = y - int(rng.pick([2, 3]))
    return {
        "y": y,
        "lo": y - half,
        "hi": y + half,
        "span": 2 * half,
        "half": half,
        "b": b,
        "bdist": y - b,
    }


def _draw_08_decided(rng):
    runs = rng.choice(np.arange(-10, 31) / 100, size=3, replace=False)
    return {f"r{k}": f"{v:.2f}" for k, v in enumerate(runs)}


#: COMPAS's race groups other than the book's and the reference: too small for PPR and TPR
#: (Asian), for TPR only (Other), for neither (Hispanic), so the question asks which.
_GROUPS_09 = ("Asian", "Other", "Hispanic")


#: The book's question, and a variant's: its group may be too small for one metric or none.
_WHY_09 = (
    "say why the audit lists it as too small for these\n"
    "metrics even though its rates look very different from the reference's"
)
_WHICH_09 = "say for which of the two the audit lists it as too small (the last\ncolumn), and why"


def _draw_09(rng):
    # picked by the variant's number: consecutive variants take different groups
    return {"group": rng.pick(_GROUPS_09), "why": _WHICH_09}


def _draw_10(rng):
    m = int(rng.pick([4, 6, 7]))
    k = int(rng.integers(1, m))
    verdicts = [1] * k + [0] * (m - k)
    rng.shuffle(verdicts)
    words = ", ".join("unfair" if v else "fair" for v in verdicts)
    return {
        "m": m,
        "k": k,
        "m_k": m - k,
        "pairs": math.comb(m, 2),
        "twice": 2 * math.comb(m, 2),
        "verdicts": str(verdicts),
        "words": words,
        "Mword": _WORDS[m].capitalize(),
        "mword": _WORDS[m],
        "m1": m + 1,
    }


def _wald_and_match_flags(n: int, x: int) -> tuple[bool, bool]:
    """Whether the Wald test and MATCH flag ``x`` of ``n`` against a known rate ½ at 0.05."""
    rate = x / n
    se = math.sqrt(rate * (1 - rate) / n)
    if se > 0:
        wald = 1 - math.erf(abs(rate - 0.5) / se / math.sqrt(2)) <= 0.05
    else:
        wald = rate != 0.5
    tail = sum(math.comb(n, k) for k in range(min(x, n - x) + 1)) / 2**n
    return wald, min(1.0, 2 * tail) <= 0.05


def _draw_11_size(rng):
    n = int(rng.pick([3, 5, 6]))
    flags = [_wald_and_match_flags(n, x) for x in range(n + 1)]
    return {
        "n": n,
        "outcomes": _WORDS.get(n + 1, str(n + 1)),
        "wald": sum(math.comb(n, x) for x, (w, _) in enumerate(flags) if w),
        "total": 2**n,
    }


def _fisher_smallest(a: int, b: int) -> Fraction:
    """Fisher's smallest two-sided p-value over every table of a group of ``a`` and ``b``."""
    smallest = Fraction(1)
    for s in range(a + b + 1):
        xs = range(max(0, s - b), min(a, s) + 1)
        pmf = {x: Fraction(math.comb(a, x) * math.comb(b, s - x), math.comb(a + b, s)) for x in xs}
        for x in xs:
            smallest = min(smallest, sum(q for q in pmf.values() if q <= pmf[x]))
    return smallest


def _draw_11_fisher(rng):
    a, b = rng.pick([(2, 3), (3, 3), (4, 4), (3, 5)])
    p = _fisher_smallest(a, b)
    # written over C(a + b, a), the count a student enumerates
    den = math.comb(a + b, a)
    num = p * den
    if num.denominator != 1:  # pragma: no cover - every pick is a multiple of 1/C(a+b, a)
        raise ArithmeticError(f"Fisher's smallest p for ({a}, {b}) is {p}")
    flag = p <= Fraction(5, 100)
    return {
        "a": a,
        "b": b,
        "tables": (a + 1) * (b + 1),
        "num": int(num),
        "den": den,
        "half": max(1, int(num) // 2),
        "flag": "yes" if flag else "no",
        "notflag": "no" if flag else "yes",
    }


VARIANTS: dict[str, Variant] = {
    "ex-01-rates-by-hand": Variant(
        book={"tp": 2, "fn": 3, "fp": 1, "tn": 6, "n": 12, "n_text": "twelve"},
        draw=_draw_01,
        statement=(
            ("of twelve people", "of {n_text} people"),
            ("$[TP, FN, FP, TN] = [2, 3, 1, 6]$", "$[TP, FN, FP, TN] = [{tp}, {fn}, {fp}, {tn}]$"),
        ),
        oracles={
            name: f'compute("{metric}", [{{tp}}, {{fn}}, {{fp}}, {{tn}}])'
            for name, metric in (("tpr", "TPR"), ("fpr", "FPR"), ("ppv", "PPV"), ("benefit", "B"))
        },
        solution=(
            "tpr = {tp} / ({tp} + {fn})\nfpr = {fp} / ({fp} + {tn})\nppv = {tp} / ({tp} + {fp})\n"
            "benefit = ({fp} - {fn}) / {n}"
        ),
        wrong=(
            "tpr = {tp} / ({tp} + {fp})\nfpr = {fp} / {n}\nppv = {tp} / ({tp} + {fn})\n"
            "benefit = ({fn} - {fp}) / {n}"
        ),
    ),
    "ex-02-ofi-by-hand": Variant(
        book={"i_a": 20, "i_b": 10, "i_c": 5, "i_d": 65, "j_a": 30, "j_b": 5, "j_c": 15, "j_d": 50},
        draw=_draw_02,
        statement=(
            (
                "$[TP, FN, FP, TN] = [20, 10, 5, 65]$",
                "$[TP, FN, FP, TN] = [{i_a}, {i_b}, {i_c}, {i_d}]$",
            ),
            ("$j$ has $[30, 5, 15, 50]$", "$j$ has $[{j_a}, {j_b}, {j_c}, {j_d}]$"),
        ),
        oracles={
            "benefit_i": 'compute("B", [{i_a}, {i_b}, {i_c}, {i_d}])',
            "benefit_j": 'compute("B", [{j_a}, {j_b}, {j_c}, {j_d}])',
            "ofi": 'compare("OFI", [{i_a}, {i_b}, {i_c}, {i_d}], [{j_a}, {j_b}, {j_c}, {j_d}])',
            "di": 'compare("DI", [{i_a}, {i_b}, {i_c}, {i_d}], [{j_a}, {j_b}, {j_c}, {j_d}])',
            "favoured": '"i" if compare("OFI", [{i_a}, {i_b}, {i_c}, {i_d}], '
            '[{j_a}, {j_b}, {j_c}, {j_d}]) > 0 else "j"',
        },
        solution=(
            "benefit_i = ({i_c} - {i_b}) / 100\nbenefit_j = ({j_c} - {j_b}) / 100\n"
            "ofi = benefit_i - benefit_j\n"
            "di = (({i_a} + {i_c}) / 100) / (({j_a} + {j_c}) / 100)\n"
            'favoured = "i" if ofi > 0 else "j"'
        ),
        wrong=(
            "benefit_i = ({i_b} - {i_c}) / 100\nbenefit_j = ({j_b} - {j_c}) / 100\n"
            "ofi = benefit_i - benefit_j\n"
            "di = (({j_a} + {j_c}) / 100) / (({i_a} + {i_c}) / 100)\n"
            'favoured = "j" if ofi > 0 else "i"'
        ),
    ),
    "ex-03-holes-by-hand": Variant(
        book={"n": 5},
        draw=_draw_03_holes,
        statement=(("$n = 5$ people", "$n = {n}$ people"),),
        oracles={
            "n_matrices": "combinatorics.n_confusion_matrices({n})",
            "tpr_holes": 'combinatorics.hole_count("TPR", {n})',
        },
        solution="from math import comb\n\nn_matrices = comb({n} + 3, 3)\ntpr_holes = {n} + 1",
        wrong="n_matrices = 4 ** {n}\ntpr_holes = 1",
    ),
    "ex-03-match-by-hand": Variant(
        book={"n": 3, "fn": 1, "tn": 2, "words": "three"},
        draw=_draw_03_match,
        statement=(
            ("$n = 3$ people", "$n = {n}$ people"),
            ("$[TP, FN, FP, TN] = [0, 1, 0, 2]$", "$[TP, FN, FP, TN] = [0, {fn}, 0, {tn}]$"),
        ),
        oracles={
            "p_value": 'match.test("PPR", [0, {fn}, 0, {tn}], [0.25, 0.25, 0.25, 0.25], '
            'method="exact")',
        },
        solution="p_value = min(1, 2 * min(0.5 ** {n}, 1.0))",
        wrong="p_value = 0.5 ** {n}",
    ),
    "ex-04-decompose-by-hand": Variant(
        book={"p": 0.25, "q": 0.75},
        draw=_draw_04,
        statement=(("$(0.25, 0.75)$ and $(0.75, 0.25)$", "$({p}, {q})$ and $({q}, {p})$"),),
        oracles={
            name: f"decompose(np.array([[[{{p}}, {{q}}]], [[{{q}}, {{p}}]]]))[{index}][0]"
            for index, name in enumerate(("epistemic", "aleatoric", "predictive"))
        },
        solution=(
            "epistemic = (0.5 - {p}) ** 2 + (0.5 - {p}) ** 2\naleatoric = 2 * {p} * {q}\n"
            "predictive = epistemic + aleatoric"
        ),
        wrong="epistemic = (0.5 - {p}) ** 2\naleatoric = {p} * {q}\npredictive = 0.5",
    ),
    "ex-05-ucerf-by-hand": Variant(
        book={"ppl": 1.5, "ca": 0.9, "cb": 0.5},
        draw=_draw_05,
        statement=(
            ("has perplexity 1.5", "has perplexity {ppl}"),
            ("correctly with confidence 0.9", "correctly with confidence {ca}"),
            ("wrongly with confidence 0.5", "wrongly with confidence {cb}"),
        ),
        oracles={
            "confidence": "confidence_from_perplexity({ppl}, 2)",
            "d_a": "float(desirability({ca}, True))",
            "d_b": "float(desirability({cb}, False))",
            "pair_ucerf": "ucerf(float(desirability({ca}, True)), "
            "float(desirability({cb}, False)))",
        },
        solution=(
            "confidence = (2 - {ppl}) / (2 - 1)\nd_a = {ca}\nd_b = -{cb}\n"
            "pair_ucerf = 1 - abs(d_a - d_b) / 2"
        ),
        wrong="confidence = 1 / {ppl}\nd_a = {ca}\nd_b = {cb}\npair_ucerf = 1 - abs(d_a - d_b) / 2",
    ),
    "ex-06-cohen-by-hand": Variant(
        book={
            "a0": "0.80",
            "a1": "0.82",
            "a2": "0.84",
            "a3": "0.86",
            "b0": "0.85",
            "b1": "0.87",
            "b2": "0.89",
            "b3": "0.91",
            "shift": "0.05",
            "label": "very large",
        },
        draw=_draw_06,
        statement=(
            ("$0.80, 0.82, 0.84, 0.86$", "${a0}, {a1}, {a2}, {a3}$"),
            ("$0.85, 0.87, 0.89, 0.91$", "${b0}, {b1}, {b2}, {b3}$"),
        ),
        oracles={
            "d": "cohen_d([{a0}, {a1}, {a2}, {a3}], [{b0}, {b1}, {b2}, {b3}])",
            "label": "effect_size_label(cohen_d([{a0}, {a1}, {a2}, {a3}], "
            "[{b0}, {b1}, {b2}, {b3}]))",
        },
        solution=(
            's2 = (2 * 0.03 ** 2 + 2 * 0.01 ** 2) / 3\nd = {shift} / s2 ** 0.5\nlabel = "{label}"'
        ),
        wrong='s2 = (2 * 0.03 ** 2 + 2 * 0.01 ** 2) / 4\nd = {shift} / s2 ** 0.5\nlabel = "huge"',
    ),
    "ex-07-ofi-by-hand": Variant(
        book={
            "bi_a": 40,
            "bi_b": 20,
            "bi_c": 5,
            "bi_d": 35,
            "bj_a": 40,
            "bj_b": 5,
            "bj_c": 20,
            "bj_d": 35,
            "ai_a": 45,
            "ai_b": 15,
            "ai_c": 10,
            "ai_d": 30,
            "aj_a": 42,
            "aj_b": 8,
            "aj_c": 15,
            "aj_d": 35,
        },
        draw=_draw_07,
        statement=(
            ("matrix $[40, 20, 5, 35]$", "matrix $[{bi_a}, {bi_b}, {bi_c}, {bi_d}]$"),
            ("matrix $[40, 5, 20, 35]$", "matrix $[{bj_a}, {bj_b}, {bj_c}, {bj_d}]$"),
            ("matrix $[45, 15, 10, 30]$", "matrix $[{ai_a}, {ai_b}, {ai_c}, {ai_d}]$"),
            ("matrix $[42, 8, 15, 35]$", "matrix $[{aj_a}, {aj_b}, {aj_c}, {aj_d}]$"),
        ),
        oracles={
            "ofi_before": 'compare("OFI", [{bi_a}, {bi_b}, {bi_c}, {bi_d}], '
            "[{bj_a}, {bj_b}, {bj_c}, {bj_d}])",
            "ofi_after": 'compare("OFI", [{ai_a}, {ai_b}, {ai_c}, {ai_d}], '
            "[{aj_a}, {aj_b}, {aj_c}, {aj_d}])",
            "helped": '"yes" if abs(compare("OFI", [{ai_a}, {ai_b}, {ai_c}, {ai_d}], '
            '[{aj_a}, {aj_b}, {aj_c}, {aj_d}])) < abs(compare("OFI", '
            '[{bi_a}, {bi_b}, {bi_c}, {bi_d}], [{bj_a}, {bj_b}, {bj_c}, {bj_d}])) else "no"',
        },
        solution=(
            "ofi_before = ({bi_c} - {bi_b}) / 100 - ({bj_c} - {bj_b}) / 100\n"
            "ofi_after = ({ai_c} - {ai_b}) / 100 - ({aj_c} - {aj_b}) / 100\n"
            'helped = "yes" if abs(ofi_after) < abs(ofi_before) else "no"'
        ),
        wrong=(
            "ofi_before = ({bi_b} - {bi_c}) / 100 - ({bj_b} - {bj_c}) / 100\n"
            "ofi_after = ({ai_b} - {ai_c}) / 100 - ({aj_b} - {aj_c}) / 100\n"
            'helped = "no" if abs(ofi_after) < abs(ofi_before) else "yes"'
        ),
    ),
    "ex-08-crps-by-hand": Variant(
        book={"y": 1, "lo": 0, "hi": 2, "span": 2, "half": 1, "b": 0, "bdist": 1},
        draw=_draw_08_crps,
        statement=(
            ("is $y = 1$", "is $y = {y}$"),
            ("quantiles, $0$ and $2$", "quantiles, ${lo}$ and ${hi}$"),
            (
                "point forecast at $0$ (both quantiles $0$)",
                "point forecast at ${b}$ (both quantiles ${b}$)",
            ),
        ),
        oracles={
            "crps_a": 'crps_examples({{"A": [{lo}.0, {hi}.0]}}, target={y}.0)["CRPS"].iloc[0]',
            "crps_b": 'crps_examples({{"B": [{b}.0, {b}.0]}}, target={y}.0)["CRPS"].iloc[0]',
        },
        solution="crps_a = {half} - (0 + {span} + {span} + 0) / 4 / 2\ncrps_b = {bdist} - 0 / 2",
        wrong="crps_a = {half} - {span} / 2\ncrps_b = 0",
    ),
    "ex-08-decided": Variant(
        book={"r0": "0.10", "r1": "-0.05", "r2": "0.20"},
        draw=_draw_08_decided,
        statement=(("$0.10$, $-0.05$ and $0.20$", "${r0}$, ${r1}$ and ${r2}$"),),
        oracles={
            "low": "decide([{r0}, {r1}, {r2}])['low']",
            "high": "decide([{r0}, {r1}, {r2}])['high']",
            "decided": "'yes' if decide([{r0}, {r1}, {r2}])['decided'] else 'no'",
        },
        solution=(
            "from statistics import mean, stdev\n\nfrom scipy import stats\n\n"
            "runs = [{r0}, {r1}, {r2}]\n"
            "half = stats.t.ppf(0.975, len(runs) - 1) * stdev(runs) / len(runs) ** 0.5\n"
            "low = mean(runs) - half\nhigh = mean(runs) + half\n"
            'decided = "yes" if low > 0 or high < 0 else "no"'
        ),
        wrong=(
            "from statistics import mean, stdev\n\n"
            "runs = [{r0}, {r1}, {r2}]\n"
            "half = 1.96 * stdev(runs) / len(runs) ** 0.5\n"
            "low = mean(runs) - half\nhigh = mean(runs) + half\n"
            'decided = "yes" if low > 0 or high < 0 else "no"'
        ),
    ),
    "ex-09-small-group-by-hand": Variant(
        book={"group": "Native American", "why": _WHY_09},
        draw=_draw_09,
        statement=(
            ("Take the Native American row", "Take the {group} row"),
            (_WHY_09, "{why}"),
        ),
        oracles={
            "ppr": 'am.group_rates(report, "race").loc["{group}", "PPR"]',
            "tpr": 'am.group_rates(report, "race").loc["{group}", "TPR"]',
        },
        solution=(
            'row = counts.loc["{group}"]\n'
            'ppr = (row["TP"] + row["FP"]) / row["n"]\n'
            'tpr = row["TP"] / (row["TP"] + row["FN"])'
        ),
        wrong=(
            'row = counts.loc["{group}"]\n'
            'ppr = (row["TP"] + row["FN"]) / row["n"]\n'
            'tpr = row["TP"] / (row["TP"] + row["FP"])'
        ),
    ),
    "ex-10-flip-rate-by-hand": Variant(
        book={
            "m": 5,
            "k": 3,
            "m_k": 2,
            "pairs": 10,
            "twice": 20,
            "verdicts": "[1, 0, 1, 1, 0]",
            "words": "unfair, fair, unfair, unfair, fair",
            "Mword": "Five",
            "mword": "five",
            "m1": 6,
        },
        draw=_draw_10,
        statement=(
            (
                "Five runs judge a comparison unfair, fair, unfair, unfair, fair.",
                "{Mword} runs judge a comparison {words}.",
            ),
            ("the largest flip rate five runs", "the largest flip rate {mword} runs"),
            ("the flip rate of the five verdicts", "the flip rate of the {mword} verdicts"),
        ),
        oracles={
            "rate": "flip_rate({verdicts})",
            "largest": "max(flip_rate([1] * k + [0] * ({m} - k)) for k in range({m1}))",
        },
        solution=(
            "rate = {k} * {m_k} / {pairs}\nlargest = max(k * ({m} - k) for k in range({m1})) "
            "/ {pairs}"
        ),
        wrong="rate = {k} * {m_k} / {twice}\nlargest = 1.0",
    ),
    "ex-11-size-by-hand": Variant(
        book={"n": 4, "outcomes": "five", "wald": 2, "total": 16},
        draw=_draw_11_size,
        statement=(
            ("$n = 4$ people", "$n = {n}$ people"),
            (
                "the five outcomes $x = 0, \\dots, 4$",
                "the {outcomes} outcomes $x = 0, \\dots, {n}$",
            ),
        ),
        oracles={
            "wald_size": 'exact_size("wald", {n}, p=0.5)',
            "match_smallest_p": 'float(pvalue_table("match", {n}, p_ref=0.5).min())',
        },
        solution="wald_size = {wald} / {total}\nmatch_smallest_p = 2 * 1 / {total}",
        wrong="wald_size = 0.05\nmatch_smallest_p = 1 / {total}",
    ),
    "ex-11-fisher-by-hand": Variant(
        book={"a": 2, "b": 2, "tables": 9, "num": 2, "den": 6, "half": 1, "flag": "no"},
        draw=_draw_11_fisher,
        statement=(
            ("$a = 2$ and a reference of $b = 2$", "$a = {a}$ and a reference of $b = {b}$"),
            ("$(a + 1)(b + 1) = 9$", "$(a + 1)(b + 1) = {tables}$"),
        ),
        oracles={
            "smallest_p": 'float(pvalue_table("fisher", {a}, N={b}).min())',
            "can_flag": '"yes" if pvalue_table("fisher", {a}, N={b}).min() <= 0.05 else "no"',
        },
        solution='smallest_p = {num} / {den}\ncan_flag = "{flag}"',
        wrong='smallest_p = {half} / {den}\ncan_flag = "{notflag}"',
    ),
}


def varied_numbers(label: str, variant: int) -> dict[str, Any]:
    """The numbers of exercise `label` in `variant` (0: the book's).

    Examples
    --------
    >>> varied_numbers("ex-03-holes-by-hand", 0)
    {'n': 5}
    """
    spec = VARIANTS[label]
    if variant == 0:
        return dict(spec.book)
    if not isinstance(variant, int) or isinstance(variant, bool) or not 0 < variant < 2**31:
        raise ValueError(f"a variant is a whole number from 1 to {2**31 - 1}, got {variant!r}")
    index = sorted(VARIANTS).index(label)
    for attempt in range(100):  # a draw equal to the book's is drawn again
        numbers = spec.draw(_Draw([variant, index, attempt], variant + attempt))
        if numbers != spec.book:
            return numbers
    raise RuntimeError(f"{label}: no variant differs from the book's numbers")  # pragma: no cover


def _render(template: str, numbers: Mapping[str, Any]) -> str:
    return template.format(**numbers)


def varied_key(label: str, variant: int) -> GradedExercise:
    """The key of exercise `label` with the numbers of `variant` (0: the book's key).

    Examples
    --------
    >>> varied_key("ex-01-rates-by-hand", 0) == GRADED["ex-01-rates-by-hand"]
    True
    """
    key, spec = GRADED[label], VARIANTS[label]
    if variant == 0:
        return key
    numbers = varied_numbers(label, variant)
    answers = tuple(
        dataclasses.replace(
            answer,
            oracle=_render(spec.oracles[answer.name], numbers),
            meaning=_swap(answer.meaning, spec, numbers),
        )
        for answer in key.answers
    )
    return dataclasses.replace(
        key,
        answers=answers,
        solution=_render(spec.solution, numbers),
        wrong=_render(spec.wrong, numbers),
    )


def _swap(text: str, spec: Variant, numbers: Mapping[str, Any]) -> str:
    for fragment, template in spec.statement:
        text = text.replace(fragment, _render(template, numbers))
    return text


def varied_statement(label: str, body: str, variant: int) -> str:
    """The chapter's statement `body` of exercise `label` with the numbers of `variant`.

    Raises
    ------
    ValueError
        When a fragment the variant replaces is not in the statement (the chapter's text
        changed): a variant must never leave the book's numbers in place.
    """
    if variant == 0:
        return body
    spec = VARIANTS[label]
    meanings = " ".join(a.meaning for a in GRADED[label].answers)
    for fragment, _ in spec.statement:
        if fragment not in body and fragment not in meanings:
            raise ValueError(f"{label}: the statement no longer says {fragment!r}")
    return _swap(body, spec, varied_numbers(label, variant))
