"""Tests of :mod:`fairbook_book.chapters.small_groups.replication`: the paper's numbers beside
ours, section by section (seed 003 ch. 4), and the chapter's verdicts.

Oracles: the printed values of :mod:`fairbook.papers.seed003` (Eqs. 4.3–4.6, Theorem 4.3,
the worked example of Sec. 4.5.1, Sec. 4.5.4's bounds, ProPublica's rates), enumeration
and the normal law.
"""

import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import fairbook_book.chapters.small_groups as package
from fairbook_book import ledger
from fairbook_book.chapters import small_groups as sg
from fairbook_book.chapters.small_groups import replication as rep
from fairbook_book.formatting import fixed_point
from fairbook_book.replication import Bound, Exact, NotComparable, Rounding, Row, replication_table


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def test_eqs_4_3_to_4_6_match_the_enumeration():
    table = sg.eqs_4_3_to_4_6_replication()
    assert set(table.verdict) == {"mathematics check: matches"}
    rows = table.attrs["rows"]
    assert all(isinstance(r.rule, Exact) for r in rows)
    assert {r.source for r in rows} == {"seed 003 Eq. 4.3", "seed 003 Eq. 4.4", "seed 003 Eq. 4.6"}


def test_theorems_4_1_4_2_by_enumeration():
    table = sg.theorems_4_1_4_2_replication([2, 7])
    assert set(table.verdict) == {"mathematics check: matches"}
    assert table.ours.tolist() == [10, 12, 120, 32]  # N(2), 4·3, N(7), 4·8
    sources = [r.source for r in table.attrs["rows"]]
    assert sources == ["seed 003 Theorem 4.1", "seed 003 Theorem 4.2"] * 2


def test_fig_4_1_is_not_comparable():
    table = sg.fig_4_1_replication([1, 2, 3, 4], group="toy")
    (row,) = table.attrs["rows"]
    assert isinstance(row.rule, NotComparable) and row.passed is None
    assert row.ours == pytest.approx(0.4) and row.paper == 0.23
    assert "Folktables" in row.note


def test_fig_4_2_means_match_and_the_spread_does_not_shrink():
    moments = sg.space_moments(sg.space_cdfs(["ACC", "PPR", "MCC", "TPR"], [5, 40, 100]))
    table = sg.fig_4_2_replication(moments)
    assert len(table) == 7  # four means, three spreads (MCC has no closed-form limit)
    means = table[table.quantity.str.contains(": mean over")]
    spreads = table[table.quantity.str.contains("sd over")]
    assert set(means.verdict) == {"mathematics check: matches"} and set(spreads.verdict) == {
        "mathematics check: differs"
    }
    assert spreads.ours.round(4).tolist() == [0.2236, 0.2236, 0.2887]
    assert all(isinstance(r.rule, Exact) for r in table.attrs["rows"])
    assert {r.source for r in table.attrs["rows"]} == {"seed 003 Fig. 4.2"}


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def test_theorem_4_3_replication_verdicts():
    table = sg.theorem_4_3_replication([3, 10], [(1, 1), (2, 2)]).set_index("quantity")
    exact = table[~table.verdict.str.contains("bound")]
    te = exact.index.str.startswith("TE")
    assert (exact[~te].verdict == "mathematics check: matches").all()
    assert (exact[te].verdict == "mathematics check: differs").all()
    assert table.loc["TE holes, n1 = 1, n2 = 1", "ours"] == 15
    assert table.loc["TE holes, n1 = 1, n2 = 1", "paper"] == 5
    assert (
        table.loc["PT holes, n = 10 (upper bound)", "verdict"]
        == "mathematics check: upper bound fails"
    )
    assert (
        table.loc["PT holes, n = 3 (upper bound)", "verdict"]
        == "mathematics check: upper bound holds"
    )
    assert (
        table.loc["PT holes, n = 10 (lower bound)", "verdict"]
        == "mathematics check: lower bound holds"
    )


def test_theorem_4_3_rows_are_typed_counts_then_bounds():
    rows = sg.theorem_4_3_replication([10], [(1, 1)]).attrs["rows"]
    kinds = [type(r.rule) for r in rows]
    first_bound = kinds.index(Bound)
    assert set(kinds[:first_bound]) == {Exact} and set(kinds[first_bound:]) == {Bound}
    assert {r.source for r in rows} == {"seed 003 Theorem 4.3"}


def test_theorem_4_4_claims():
    table = sg.theorem_4_4_replication()
    assert set(table.verdict) == {"mathematics check: matches"}
    assert all(isinstance(r.rule, Exact) for r in table.attrs["rows"])
    assert "0.894" in table.note.iloc[2]  # the TP corner along (FN, 4×TN)


# ----------------------------- Sec. 4.5: the law of a metric under MATCH and its approximations
def test_theorems_4_5_to_4_9_against_enumeration():
    table = sg.theorems_4_5_to_4_9_replication(n=8)
    assert table.verdict.tolist() == [
        "mathematics check: matches",
        "mathematics check: matches",
        "mathematics check: matches",
        "mathematics check: differs",
    ]
    assert table.ours.iloc[:3].max() < 1e-12
    # Eq. 4.37 as printed misses exactly P(undefined) = (1 − p_TP − p_FN)^n at the top
    assert table.ours.iloc[3] == pytest.approx(0.6**8)
    assert [r.source for r in table.attrs["rows"]] == [
        "seed 003 Theorem 4.5",
        "seed 003 Theorem 4.6",
        "seed 003 Theorem 4.7",
        "seed 003 Theorem 4.9",
    ]


def test_theorem_4_6_as_printed_is_not_a_law():
    # with p_TP (0.3) for the −1 terms the printed PMF does not even sum to 1 over k
    p = np.array([0.3, 0.1, 0.2, 0.4])
    n = 7
    fixed = sum(rep._b_pmf_as_printed(k, n, p, p[1]) for k in range(-n, n + 1))
    printed = sum(rep._b_pmf_as_printed(k, n, p, p[0]) for k in range(-n, n + 1))
    assert fixed == pytest.approx(1.0)
    assert printed == pytest.approx((0.3 + 0.2 + 0.7) ** n)  # multinomial theorem
    table = sg.theorems_4_5_to_4_9_replication(n=7, theorems=["4.6"])
    assert float(table.note.iloc[0].rsplit(" ", 1)[1]) > 0.1


def test_theorems_4_5_to_4_9_selects_rows_in_order():
    table = sg.theorems_4_5_to_4_9_replication(n=5, theorems=["4.9", "4.5"])
    assert [r.source for r in table.attrs["rows"]] == [
        "seed 003 Theorem 4.5",
        "seed 003 Theorem 4.9",
    ]
    one = sg.theorems_4_5_to_4_9_replication(n=5, theorems="4.7")
    assert [r.source for r in one.attrs["rows"]] == ["seed 003 Theorem 4.7"]
    full = sg.theorems_4_5_to_4_9_replication(n=5)
    assert one.ours.iloc[0] == full.ours.iloc[2]


@pytest.mark.parametrize("bad", [["4.8"], [], ["4.1", "4.5"]])
def test_theorems_4_5_to_4_9_rejects_unknown_theorems(bad):
    with pytest.raises(ValueError, match="theorems must be"):
        sg.theorems_4_5_to_4_9_replication(n=5, theorems=bad)


def test_example_4_5_1_matches_the_paper():
    table = sg.example_4_5_1_replication()
    assert set(table.verdict) == {"arithmetic check: matches"}
    assert table.loc[4, "ours"] == pytest.approx(stats.norm.cdf(5.5 / math.sqrt(18.75)))
    rules = [r.rule for r in table.attrs["rows"]]
    assert isinstance(rules[0], Exact) and all(r == Rounding(2) for r in rules[1:])


def test_fig_4_3_replication_shares():
    claims = sg.fig_4_3_replication(sg.moments_table(sizes=range(2, 40), n_draws=0))
    shares = dict(zip(claims.quantity, claims.ours, strict=True))
    assert shares["ACC: kurtosis increases with n"] == 1.0
    assert shares["B: kurtosis increases with n"] == 0.0
    assert shares["B: |skewness| decreases with n"] == 1.0
    assert all(isinstance(r.rule, Exact) for r in claims.attrs["rows"])


def test_fig_4_3_a_claim_failing_at_one_step_differs():
    # exact moments: skewness falls at 99 of 100 steps. Rounding to two decimals would
    # call 0.99 "1.00"; the exact rule does not.
    n = np.arange(2, 103)
    skew = 1 / np.sqrt(n)
    skew[50] = skew[49] + 0.01
    moments = pd.DataFrame({"metric": "ACC", "n": n, "skewness": skew, "excess_kurtosis": -1 / n})
    table = sg.fig_4_3_replication(moments)
    assert table.ours.iloc[0] == pytest.approx(0.99)
    assert table.verdict.iloc[0] == "mathematics check: differs"
    assert Rounding(1).judge(1.0, 0.99) == "matches"  # what a loose rule would have said


def test_sec_4_5_4_claims_are_bounds():
    errors = sg.approximation_errors(sizes=[5, 50, 200])
    pp = sg.peizer_pratt_check(sizes=[10, 40], probs=[0.1, 0.5])
    claims = sg.sec_4_5_4_replication(errors, pp).set_index("quantity")["verdict"]
    assert claims.iloc[0] == "mathematics check: upper bound holds"
    assert claims.str.contains("Table 4.1").sum() == 0  # verdicts are bound words
    # Table 4.1 prints formulas, no number: it has no row, and the 0.1 % is judged once
    assert not claims.index.str.startswith("Peizer–Pratt for B").any()
    assert (
        sum("0.1" in str(r.paper) for r in sg.sec_4_5_4_replication(errors, pp).attrs["rows"]) <= 1
    )
    restored = claims.index.str.contains("Berry") & ~claims.index.str.contains("printed")
    assert (claims[restored] == "mathematics check: upper bound holds").all()
    rows = sg.sec_4_5_4_replication(errors, pp).attrs["rows"]
    bounds = [r for r in rows if not isinstance(r.rule, NotComparable)]
    assert all(r.rule == Bound("upper") for r in bounds)
    printed = claims[claims.index.str.contains("Eq. 4.29 as printed")]
    assert printed.tolist() == ["mathematics check: upper bound fails"]  # the missing factors of n
    # Eq. 4.44's beta approximation has no printed accuracy: no row
    assert not [r for r in rows if "Eq. 4.44" in r.quantity]
    assert {r.kind for r in rows} == {"mathematics"}


# --------------------------------------- Sec. 4.6: which COMPAS matrices the published ones are
@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_real_compas_general_table_is_propublicas():
    table = sg.propublica_rates_replication()
    assert set(table.verdict) == {"data fact check: matches"}


def test_propublica_rates_of_the_published_matrices(fake_compas):
    table = sg.propublica_rates_replication(frame=fake_compas()).set_index("quantity")
    violent = table[table.index.str.startswith("violent")]
    assert len(violent) == 4 and set(violent.verdict) == {"data fact check: matches"}
    names = {f"general, all: {cell}" for cell in ("TP", "FN", "FP", "TN")}
    cells = [r for r in table.attrs["rows"] if r.quantity in names]
    assert [type(r.rule) for r in cells] == [Exact] * 4
    rates = [r for r in table.attrs["rows"] if r.quantity not in names]
    assert all(r.rule == Rounding(2) for r in rates)
    assert {r.source for r in table.attrs["rows"]} == {sg.PROPUBLICA_SOURCE}
    # ProPublica's numbers are Larson et al.'s, not printed in seed 003: their own paper
    assert sg.PROPUBLICA_SOURCE.startswith("Larson et al. 2016 ")
    frame = ledger.chapter_ledger([table], chapter="03_small_groups").frame
    assert set(frame.paper) == {"Larson et al. 2016"}


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def test_figs_4_4_to_4_6_claims(toy_cps_run):
    _, run = toy_cps_run()
    claims = sg.figs_4_4_to_4_6_replication(run)
    assert claims.quantity.iloc[0] == "CPS λ = 5 below raw (all metrics)"
    assert claims["ours"].between(0, 1).all()
    sources = [r.source for r in claims.attrs["rows"]]
    assert sources[-1] == "seed 003 Sec. 4.7"
    assert set(sources[:-1]) == {"seed 003 Sec. 4.6.2 (Figs. 4.4–4.6)"}
    assert all(isinstance(r.rule, Exact) for r in claims.attrs["rows"])
    assert all("3,000 draws per size (paper: 1,000,000)" in note for note in claims.note)


def _fake_cps_run(cells: list[tuple[float, float, float, float]]) -> pd.DataFrame:
    """A CPS run with one metric (ACC) of one group: per size, (raw MSE, raw half-width,
    CPS λ = 5 MSE, CPS half-width)."""
    rows = []
    for n, (raw, raw_half, smooth, smooth_half) in enumerate(cells, start=5):
        for label, mse, half in (("raw", raw, raw_half), ("CPS λ = 5", smooth, smooth_half)):
            rows.append(
                {
                    "group": "g",
                    "metric": "ACC",
                    "n": n,
                    "setting_label": label,
                    "mse": mse,
                    "ci_low": mse - half,
                    "ci_high": mse + half,
                }
            )
    run = pd.DataFrame(rows)
    run.attrs["n_draws"] = 10_000
    return run


def test_cps_claims_use_the_interval_test_not_the_point_estimate():
    # 299 sizes where CPS is clearly below raw, one where it is below only by point
    # estimate (the intervals overlap): the claim holds in 299/300 cells. Under the old
    # two-decimal rounding 0.997 "matched" 1.00; by the interval test, judged exactly, the
    # paper's "always" differs, and the note keeps the point-estimate share as context.
    cells = [(0.10, 0.001, 0.05, 0.001)] * 299 + [(0.10, 0.02, 0.09, 0.02)]
    claims = sg.figs_4_4_to_4_6_replication(_fake_cps_run(cells))
    first = claims.iloc[0]
    assert first.ours == pytest.approx(299 / 300)
    assert first.verdict == "differs"
    assert "by point estimate 1.00" in first.note
    assert "10,000 draws per size" in first.note
    assert Rounding(2).judge(1.0, 299 / 300) == "matches"  # what the old rule said


def test_cps_conclusion_row_needs_the_averaged_intervals_apart():
    # averaged over sizes CPS is below raw by point estimate, but the averages'
    # intervals overlap: the conclusion's "improves every metric" does not hold here.
    overlapping = _fake_cps_run([(0.10, 0.08, 0.09, 0.08)] * 4)
    row = sg.figs_4_4_to_4_6_replication(overlapping).iloc[-1]
    assert row.quantity.startswith("CPS λ = 5 improves the MSE averaged over sizes")
    assert row.ours == 0.0 and row.verdict == "differs"
    assert "by point estimate 1" in row.note
    apart = _fake_cps_run([(0.10, 0.01, 0.05, 0.01)] * 4)
    assert sg.figs_4_4_to_4_6_replication(apart).iloc[-1].verdict == "matches"


# ------------------------------------------------------------------------ The chapter's verdicts
def test_chapter_verdicts_collects_failures():
    thm = sg.theorem_4_3_replication([10], [(1, 1)])
    verdicts = sg.chapter_verdicts({"Thm 4.3": thm, "ex": sg.example_4_5_1_replication()})
    shown = fixed_point(verdicts)  # counts print as counts, never 300.0000
    for column in ("paper", "ours"):
        assert not shown[column].str.fullmatch(r"-?\d+\.0+").any(), shown[column]
    assert len(verdicts.attrs["rows"]) == len(verdicts)
    assert set(verdicts.section) == {"Thm 4.3"}
    assert set(verdicts.verdict) == {
        "mathematics check: differs",
        "mathematics check: upper bound fails",
    }
    assert verdicts.attrs["counts"].loc["ex", "check holds"] == 5
    with pytest.raises(ValueError):
        sg.chapter_verdicts({})


def test_chapter_verdicts_lists_rows_without_a_verdict():
    table = sg.fig_4_1_replication([1, 2, 3, 4], group="toy")
    verdicts = sg.chapter_verdicts({"Fig. 4.1": table})
    assert verdicts.verdict.tolist() == ["not comparable"]
    note = verdicts.note.iloc[0]  # the reason once, not once as reason and again as note
    assert note.count("is not available offline") == 1, note
    assert verdicts.attrs["counts"].loc["Fig. 4.1", "not comparable"] == 1


def test_the_chapter_tables_go_into_the_ledger(toy_cps_run):
    _, run = toy_cps_run()
    tables = {
        "Thms 4.1-4.2": sg.theorems_4_1_4_2_replication([3]),
        "Eqs. 4.3-4.6": sg.eqs_4_3_to_4_6_replication(),
        "Fig. 4.1": sg.fig_4_1_replication([1, 2, 3, 4], group="toy"),
        "Thm 4.3": sg.theorem_4_3_replication([10], [(1, 1)]),
        "Thm 4.4": sg.theorem_4_4_replication(),
        "Thms 4.5-4.9": sg.theorems_4_5_to_4_9_replication(n=5),
        "Sec. 4.5.1": sg.example_4_5_1_replication(),
        "Sec. 4.6.2": sg.figs_4_4_to_4_6_replication(run),
    }
    frame = ledger.chapter_ledger(tables, chapter="03_small_groups").frame
    assert set(frame.paper) == {"seed 003"}
    sources = {f"{p} {s}" for p, s in zip(frame.paper, frame.source, strict=True)}
    for name, source in sg.PAPER_SOURCES.items():
        if not source.startswith("not in ledger") and source != sg.PROPUBLICA_SOURCE:
            if name not in ("seed003.PEIZER_PRATT_MAX_ERROR", "seed003.BERRY_ESSEEN_C0"):
                assert source in sources, name


def test_paper_sources_name_every_constant_the_package_uses():
    folder = Path(package.__file__).parent
    used = set()
    for path in folder.glob("*.py"):
        used |= set(re.findall(r"seed003\.([A-Z0-9_]+)", path.read_text(encoding="utf-8")))
    assert {f"seed003.{name}" for name in used} <= set(rep.PAPER_SOURCES)
    for source in rep.PAPER_SOURCES.values():
        assert source.startswith(("seed 003 ", "Larson et al. 2016 ", "not in ledger: "))


def test_chapter_verdicts_of_typed_rows():

    table = replication_table(
        [Row("a", 1, 1), Row("b", 2, 3, rule=Bound("upper")), Row("c", 2, 1, rule=Bound("upper"))]
    )
    verdicts = sg.chapter_verdicts({"x": table})
    assert verdicts.quantity.tolist() == ["b"]
    assert verdicts.verdict.tolist() == ["upper bound fails"]


def _recorded(frame, *, stale=False):
    from fairbook_book.recordings import Recording

    provenance = [
        {"unit": u, "fingerprint": "old" if stale else "now", "parameters": {"cps_draws": 4000}}
        for u in frame["unit"].unique()
    ]
    return Recording("03_small_groups", "cps", frame, provenance, "now", expected=3)


def test_recorded_claims_are_judged_like_the_build_and_stale_ones_not_at_all():
    groups = {"toy": (np.array([3.0, 1, 2, 4]), np.array([30.0, 10, 10, 50]))}
    run = sg.cps_experiment(groups, sizes=[5, 10], metrics=["TPR", "PREV"], n_draws=4000)
    frame = run.assign(unit=[f"n{n:03d}" for n in run["n"]])
    fresh = sg.figs_4_4_to_4_6_recorded_replication(_recorded(frame))
    direct = sg.figs_4_4_to_4_6_replication(run)
    assert fresh["ours"].tolist() == direct["ours"].tolist()
    assert all("2 of 3 sizes recorded" in note for note in fresh["note"])
    stale = sg.figs_4_4_to_4_6_recorded_replication(_recorded(frame, stale=True))
    assert set(stale["verdict"]) == {"not comparable"}
    assert all(note.startswith("STALE") for note in stale["note"])
    empty = _recorded(frame.iloc[:0])
    assert len(sg.figs_4_4_to_4_6_recorded_replication(empty)) == 0


# ------------------------------------------ the chapter's numbered statements (sphinx-proof)
# They live on one appendix page (issue 45: the chapter reads in one sitting); the chapter and
# the other pages cite them with {prf:ref}, and the appendix links back to the evidence.
_ROOT = Path(__file__).resolve().parents[4]
_DIRECTIVE = re.compile(r"^```\{prf:(\w+)\}(.*)\n(?::label: ([\w-]+))?", re.M)
_THEORY = _ROOT / "book" / "small_groups_theory.md"


def _chapter_markdown() -> str:
    notebook = json.loads((_ROOT / "notebooks" / "03_small_groups.ipynb").read_text("utf-8"))
    return "\n\n".join(
        "".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"
    )


def _theory_markdown() -> str:
    return _THEORY.read_text("utf-8")


def test_theorem_k_of_the_appendix_is_the_papers_theorem_4_k():
    # sphinx-proof numbers each kind in the order of the page: the k-th {prf:theorem}
    # must be seed 003's Theorem 4.k, or every "Theorem k" a lecture cites is wrong
    statements = _DIRECTIVE.findall(_theory_markdown())
    theorems = [(title, label) for kind, title, label in statements if kind == "theorem"]
    assert [re.search(r"Theorem (4\.\d)\b", t).group(1) for t, _ in theorems] == [
        f"4.{k}" for k in range(1, 10)
    ]
    # every statement but a proof is labelled, uniquely, with the chapter's prefix
    labels = [label for kind, _, label in statements if kind != "proof"]
    assert all(labels) and len(labels) == len(set(labels))
    assert all(re.match(r"^[a-z]+-03-", label) for label in labels)
    # a theorem that fails as printed says so, and the appendix states a corrected proposition
    # of the same thesis theorem
    kinds = [(kind, title) for kind, title, _ in statements if kind != "proof"]
    corrected = [t for k, t in kinds if k == "proposition" and "corrected" in t]
    printed = [t for k, t in kinds if k == "theorem" and "as printed" in t]
    assert printed
    for title in printed:
        number = re.search(r"Theorem (4\.\d)\b", title).group(1)
        assert [t for t in corrected if f"Theorem {number}" in t], title
    # reader-facing titles name the paper by author and year
    assert not re.search(r"\bseed 00\d", _theory_markdown())


def test_the_chapter_states_nothing_and_cites_the_appendix():
    # one page holds every numbered statement, so "Theorem k" means one thing
    chapter = _chapter_markdown()
    assert not _DIRECTIVE.findall(chapter)
    assert "{doc}`the appendix <../book/small_groups_theory>`" in chapter
    toc = (_ROOT / "_toc.yml").read_text("utf-8")
    assert toc.index("file: book/small_groups_theory") < toc.index("file: book/ledger")


def test_every_statement_reference_resolves():
    labels = {label for _, _, label in _DIRECTIVE.findall(_theory_markdown()) if label}
    texts = [_chapter_markdown(), _theory_markdown()] + [
        (_ROOT / "book" / name).read_text("utf-8")
        for name in ("glossary.md", "errata.md", "course_plan.md")
    ]
    refs = {
        re.sub(r"^.*<([\w-]+)>$", r"\1", ref)
        for text in texts
        for ref in re.findall(r"\{prf:ref\}`([^`]+)`", text)
    }
    assert refs and refs <= labels, sorted(refs - labels)


def test_the_appendix_links_to_evidence_sections_of_the_chapter():
    targets = set(re.findall(r"^\((fold-03-[\w-]+)\)=$", _chapter_markdown(), re.M))
    links = set(re.findall(r"\{ref\}`(fold-03-[\w-]+)`", _theory_markdown()))
    assert links and links <= targets, sorted(links - targets)
