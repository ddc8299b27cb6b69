"""Tests of chapter 11's package: the size/power grid, its tables, the explorer grid and the
ledger rows.

Oracles: the library's exact sums (the grid must hold them cell for cell), the known
properties (Fisher's and Boschloo's sizes never exceed α; MATCH's with a known rate never
does), and hand-made grids whose verdicts are known.
"""

import numpy as np
import pandas as pd
import pytest

from fairbook.stats import group_tests
from fairbook_book.chapters import small_group_tests as sg

RATES = pd.DataFrame(
    {"reference": ["A"], "N in data": [500], "PPR": [0.4], "prevalence": [0.5], "TPR": [0.8]},
    index=pd.Index(["toy"], name="dataset"),
)
CONFIG = {
    **sg.settings("fast"),
    "sizes": (5, 20),
    "ratio_sizes": (5, 10),
    "reference_size": 200,
    "n_datasets": 200,
    "n_boot": 100,
}


@pytest.fixture(scope="module")
def grid():
    return sg.size_power(RATES, CONFIG, progress=False)


def test_the_grid_holds_the_library_sums_cell_for_cell(grid):
    row = grid.query("metric == 'PPR' and test == 'wald' and n == 20 and reference == 'N = 200'")
    expected = group_tests.rejection_probability(
        "wald", 20, p_group=[0.4, 0.3, 0.2], p_ref=0.4, N=200
    )
    np.testing.assert_allclose(
        row[["size", "power at −0.1", "power at −0.2"]].to_numpy().ravel(), expected
    )
    tpr = grid.query("metric == 'TPR' and test == 'fisher' and n == 10")
    probability, hole = group_tests.ratio_rejection_probability(
        "fisher", 10, prevalence=0.5, p_group=0.8, p_ref=0.8, N=200
    )
    assert tpr["size"].item() == pytest.approx(probability)
    assert tpr["hole"].item() == pytest.approx(0.5**10) == hole


def test_fisher_and_boschloo_hold_and_the_known_reference_leaves_them_out(grid):
    exact = grid[grid["test"].isin(["fisher", "boschloo"])]
    assert (exact["size"] <= 0.05).all()
    assert set(exact["reference"]) == {"N = 200"}
    known_match = grid.query("test == 'match' and reference == 'known'")
    assert (known_match["size"] <= 0.05).all() and len(known_match) == 4
    boot = grid[grid["test"] == "bootstrap"]
    assert boot["mc_se"].notna().all() and grid[grid["test"] != "bootstrap"]["mc_se"].isna().all()


def test_tables_and_verdicts(grid):
    sizes = sg.size_table(grid, dataset="toy", metric="PPR", reference="N = 200")
    assert list(sizes.index) == [5, 20] and sizes.columns[0] == "MATCH"
    assert "Wald" in sizes.columns and sizes.loc[5, "Wald"] > 0.05
    verdicts = sg.holds_table(grid, alpha=0.05)
    assert list(verdicts.columns) == [5, 10, 20] and verdicts.columns.name == "group size n"
    assert (verdicts.loc[("PPR", "N = 200", "Fisher"), [5, 20]] == "holds").all()
    assert ("PPR", "known", "Fisher") not in verdicts.index  # needs a reference sample
    assert verdicts.loc[("PPR", "N = 200", "Wald"), 5] == "fails"
    assert verdicts.loc[("PPR", "N = 200", "Wald"), 10] == ""  # PPR tried at 5, 20
    styled = sg.style_sizes(sizes, alpha=0.05).to_html()
    assert "#b00020" in styled and f"{sizes.loc[5, 'Wald']:.3f}" in styled
    what = sg.what_to_use(grid, alpha=0.05)
    assert "Fisher" in what.loc[("PPR", 5), "hold their size"]
    assert "Wald" not in what.loc[("PPR", 5), "hold their size"].split(", ")
    sentences = sg.decision_rule(what)
    assert len(sentences) == 2 and sentences[0].startswith("PPR: ")
    with pytest.raises(ValueError, match="no rows"):
        sg.size_table(grid, dataset="toy", metric="PPR", reference="N = 7")
    with pytest.raises(ValueError, match="no power at effect"):
        sg.power_table(grid, dataset="toy", metric="PPR", reference="N = 200", effect=0.3)


def test_verdict_of_a_simulated_test_says_when_it_cannot_tell():
    rows = pd.DataFrame(
        {
            "metric": "PPR",
            "reference": "N = 10",
            "n": [5, 5, 6, 6, 7, 7],
            "test": "bootstrap",
            "size": [0.01, 0.02, 0.049, 0.03, 0.2, 0.01],
            "mc_se": 0.005,
        }
    )
    verdicts = sg.holds_table(rows, alpha=0.05).loc[("PPR", "N = 10", "bootstrap")]
    assert verdicts.tolist() == ["holds", "unclear", "fails"]


def test_rules_of_thumb_read_the_grid(grid):
    with pytest.raises(ValueError, match="n = 30"):
        sg.rules_of_thumb(grid, alpha=0.05)
    first, second = sg.rules_of_thumb(grid, alpha=0.05, n=20)
    wald = grid.query("test == 'wald' and n == 20 and metric == 'PPR' and reference != 'known'")
    assert f"{wald['size'].max():.3f}" in first


def test_match_claims_are_mathematics_rows_with_alpha_as_the_bound(grid):
    table = sg.match_claims_replication(grid, alpha=0.05)
    assert len(table) == 3
    assert (table["paper"] == 0.05).all()
    assert table["verdict"].iloc[:2].str.startswith("mathematics check: upper bound").all()
    assert "no group size of at least 30" in table["note"].iloc[2]  # the toy grid stops at 20
    known = grid.query("test == 'match' and reference == 'known'")["size"].max()
    assert table["ours"].iloc[0] == pytest.approx(known)


def test_explorer_grid_is_the_library_and_the_chart_has_its_controls():
    small = sg.test_grid(sizes=[5, 10], references=[50, 0], rates=[0.3], effects=[0.0, 0.1])
    assert not ((small["N"] == 0) & small["test"].isin(["Fisher", "Boschloo"])).any()
    cell = small.query("n == 10 and N == 50 and test == 'score' and effect == 0.1")
    expected = group_tests.rejection_probability("score", 10, p_group=0.2, p_ref=0.3, N=50)
    assert cell["probability"].item() == pytest.approx(expected, abs=1e-6)
    spec = sg.test_chart(small).to_dict()
    assert sorted(p["name"] for p in spec["params"]) == ["base_rate", "effect", "reference_size"]


def test_live_explorer_recomputes_and_rejects_bad_sizes():
    widget = sg.test_explorer(n=6, N=40, rate=0.5, effect=0.2)
    assert "exact size" in widget.children[1].value and "Boschloo" in widget.children[1].value
    known = widget.children[0].children[0].children[2]
    known.value = True
    assert "known exactly" in widget.children[1].value
    assert "Boschloo" not in widget.children[1].value
    with pytest.raises(ValueError, match="positive integer"):
        sg.test_explorer(n=True)


def test_settings_profiles():
    assert sg.settings("full")["sizes"][-1] == 500
    with pytest.raises(ValueError, match="unknown settings"):
        sg.settings("fast", nonsense=1)


def test_the_audits_tests_only_are_chosen_from(grid):
    what = sg.what_to_use(grid, alpha=0.05)
    chosen = {t for row in what["hold their size"] for t in row.split(", ")}
    assert chosen <= {sg.TEST_NAMES[t] for t in sg.AUDIT_TESTS}
    assert "MATCH (normal)" not in chosen and "bootstrap" not in chosen


def test_section_two_views_and_sentence():
    toy = {
        "compas": sg.intersection_groups.__globals__["intersection_table"](
            [1] * 30 + [0] * 30,
            ["a"] * 40 + ["b"] * 20,
            ["F"] * 60,
            ["y"] * 40 + ["o"] * 10 + ["y"] * 10,
        )
    }
    familywise = sg.familywise_table(toy, tests=["match", "wald"], n_sims=200)
    view = sg.familywise_view(familywise)
    assert list(view.index) == [("COMPAS", "MATCH"), ("COMPAS", "Wald")]
    assert view.loc[("COMPAS", "MATCH"), "Bonferroni = Holm (exact)"] == pytest.approx(
        familywise.query("test == 'match' and procedure == 'bonferroni'")["fwer_exact"].item()
    )
    disparity = sg.max_disparity_table(toy, n_boot=50)
    shown = sg.max_disparity_view(disparity)
    assert shown.loc["intersections tested", "COMPAS"] == disparity.loc["compas", "groups"]
    sentence = sg.many_groups_sentence(familywise, disparity)
    none = familywise.query("test == 'match' and procedure == 'none'")["fwer_exact"].item()
    assert f"{none:.3f}" in sentence and sentence.endswith(").")
