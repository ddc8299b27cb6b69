"""Tests of :mod:`fairbook.experiments.small_groups.replication`: the paper's numbers beside
ours, section by section (seed 003 ch. 4), and the chapter's verdicts.

Oracles: the printed values of :mod:`fairbook.papers.seed003` (Eqs. 4.3–4.6, Theorem 4.3,
the worked example of Sec. 4.5.1, Sec. 4.5.4's bounds, ProPublica's rates), enumeration
and the normal law.
"""

import math

import pytest
from scipy import stats

from fairbook.experiments import small_groups as sg
from fairbook.replication import Bound, Exact, Rounding, Row


def _cached(name):
    from fairbook.data import verify

    return verify(name)[name] is True


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def test_eqs_4_3_to_4_6_match_the_enumeration():
    table = sg.eqs_4_3_to_4_6_replication()
    assert set(table.verdict) == {"matches"}
    rows = table.attrs["rows"]
    assert all(isinstance(r.rule, Exact) for r in rows)
    assert {r.source for r in rows} == {"seed 003 Eq. 4.3", "seed 003 Eq. 4.4", "seed 003 Eq. 4.6"}


def test_fig_4_2_limits():
    moments = sg.space_moments(sg.space_cdfs(["ACC", "PPR", "MCC", "TPR"], [5, 40, 100]))
    table = sg.fig_4_2_replication(moments)
    assert set(table.verdict) == {"matches"}
    assert len(table) == 4
    assert {r.source for r in table.attrs["rows"]} == {"seed 003 Fig. 4.2"}


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def test_theorem_4_3_replication_verdicts():
    table = sg.theorem_4_3_replication([3, 10], [(1, 1), (2, 2)]).set_index("quantity")
    exact = table[~table.verdict.str.contains("bound")]
    te = exact.index.str.startswith("TE")
    assert (exact[~te].verdict == "matches").all()
    assert (exact[te].verdict == "differs").all()
    assert table.loc["TE holes, n1 = 1, n2 = 1", "ours"] == 15
    assert table.loc["TE holes, n1 = 1, n2 = 1", "paper"] == 5
    assert table.loc["PT holes, n = 10 (upper bound)", "verdict"] == "upper bound fails"
    assert table.loc["PT holes, n = 3 (upper bound)", "verdict"] == "upper bound holds"
    assert table.loc["PT holes, n = 10 (lower bound)", "verdict"] == "lower bound holds"


def test_theorem_4_3_rows_are_typed_counts_then_bounds():
    rows = sg.theorem_4_3_replication([10], [(1, 1)]).attrs["rows"]
    kinds = [type(r.rule) for r in rows]
    first_bound = kinds.index(Bound)
    assert set(kinds[:first_bound]) == {Exact} and set(kinds[first_bound:]) == {Bound}
    assert {r.source for r in rows} == {"seed 003 Theorem 4.3"}


# ----------------------------- Sec. 4.5: the law of a metric under MATCH and its approximations
def test_example_4_5_1_matches_the_paper():
    table = sg.example_4_5_1_replication()
    assert set(table.verdict) == {"matches"}
    assert table.loc[4, "ours"] == pytest.approx(stats.norm.cdf(5.5 / math.sqrt(18.75)))
    rules = [r.rule for r in table.attrs["rows"]]
    assert isinstance(rules[0], Exact) and all(r == Rounding(2) for r in rules[1:])


def test_fig_4_3_replication_shares():
    claims = sg.fig_4_3_replication(sg.moments_table(sizes=range(2, 40), n_draws=0))
    shares = dict(zip(claims.quantity, claims.ours, strict=True))
    assert shares["ACC: kurtosis increases with n"] == 1.0
    assert shares["B: kurtosis increases with n"] == 0.0
    assert shares["B: |skewness| decreases with n"] == 1.0


def test_sec_4_5_4_claims_are_bounds():
    errors = sg.approximation_errors(sizes=[5, 50, 200])
    pp = sg.peizer_pratt_check(sizes=[10, 40], probs=[0.1, 0.5])
    claims = sg.sec_4_5_4_replication(errors, pp).set_index("quantity")["verdict"]
    assert claims.iloc[0] == "upper bound holds"
    assert claims.str.contains("Table 4.1").sum() == 0  # verdicts are bound words
    assert (claims[claims.index.str.startswith("Peizer–Pratt for B")] == "upper bound fails").all()
    assert (claims[claims.index.str.contains("Berry")] == "upper bound holds").all()
    rows = sg.sec_4_5_4_replication(errors, pp).attrs["rows"]
    assert all(r.rule == Bound("upper") for r in rows)


# --------------------------------------- Sec. 4.6: which COMPAS matrices the published ones are
@pytest.mark.skipif(not _cached("compas"), reason="COMPAS not in the data cache")
def test_real_compas_general_table_is_propublicas():
    table = sg.propublica_rates_replication()
    assert set(table.verdict) == {"matches"}


def test_propublica_rates_of_the_published_matrices(fake_compas):
    table = sg.propublica_rates_replication(frame=fake_compas()).set_index("quantity")
    violent = table[table.index.str.startswith("violent")]
    assert len(violent) == 4 and set(violent.verdict) == {"matches"}
    names = {f"general, all: {cell}" for cell in ("TP", "FN", "FP", "TN")}
    cells = [r for r in table.attrs["rows"] if r.quantity in names]
    assert [type(r.rule) for r in cells] == [Exact] * 4


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def test_figs_4_4_to_4_6_claims(toy_cps_run):
    _, run = toy_cps_run()
    claims = sg.figs_4_4_to_4_6_replication(run)
    assert claims.quantity.iloc[0] == "CPS λ = 5 below raw (all metrics)"
    assert claims["ours"].between(0, 1).all()
    sources = [r.source for r in claims.attrs["rows"]]
    assert sources[-1] == "seed 003 Sec. 4.7"
    assert set(sources[:-1]) == {"seed 003 Sec. 4.6.2 (Figs. 4.4–4.6)"}


# ------------------------------------------------------------------------ The chapter's verdicts
def test_chapter_verdicts_collects_failures():
    thm = sg.theorem_4_3_replication([10], [(1, 1)])
    verdicts = sg.chapter_verdicts({"Thm 4.3": thm, "ex": sg.example_4_5_1_replication()})
    assert set(verdicts.section) == {"Thm 4.3"}
    assert set(verdicts.verdict) == {"differs", "upper bound fails"}
    assert verdicts.attrs["counts"].loc["ex", "matches"] == 5
    with pytest.raises(ValueError):
        sg.chapter_verdicts({})


def test_chapter_verdicts_of_typed_rows():
    from fairbook.replication import replication_table

    table = replication_table(
        [Row("a", 1, 1), Row("b", 2, 3, rule=Bound("upper")), Row("c", 2, 1, rule=Bound("upper"))]
    )
    verdicts = sg.chapter_verdicts({"x": table})
    assert verdicts.quantity.tolist() == ["b"]
    assert verdicts.verdict.tolist() == ["upper bound fails"]
