"""fairbook_book.chapters.fit_variance.explorers: the widgets recompute when a control moves."""

import pytest

from fairbook_book.chapters import fit_variance as fv


def test_table_3_editor_recomputes():
    widget = fv.table_3_editor()
    assert "33.6" in widget.children[-1].value
    box = widget.children[0].children[1]  # Female, true Sport → Sport
    box.value = 60  # now both groups' Sport rows are 60 / 40
    assert "33.6" not in widget.children[-1].value


def test_conclusion_explorer_on_a_known_study(synthetic_study):
    widget = fv.conclusion_explorer(synthetic_study)
    assert "U-test" in widget.children[-1].value
    widget.children[1].children[1].value = 3  # fewer runs
    assert "U-test" in widget.children[-1].value


def test_the_static_grid_agrees_with_the_live_explorer(synthetic_study):
    """Oracle: compare_runs on the same runs, and the known study (penalty is 5 points
    above the baseline on every bias metric, so no single pair of runs contradicts it)."""
    from fairbook.stats.between_runs import compare_runs

    grid = fv.conclusion_grid(synthetic_study, metrics=["DP"])
    summary, runs = grid["summary"], grid["runs"]
    assert set(summary["technique"]) == {"penalty", "rebalance"}
    assert sorted(set(summary["n"])) == [2, 3, 4, 5, 6]
    assert len(runs) == 3 * 6  # every FIT run of the three techniques
    cell = summary[(summary["technique"] == "penalty") & (summary["n"] == 4)].iloc[0]
    base = runs[(runs["technique"] == "base") & (runs["run"] < 4)]["value"].to_numpy()
    treated = runs[(runs["technique"] == "penalty") & (runs["run"] < 4)]["value"].to_numpy()
    expected = compare_runs(base / 100, treated / 100)
    assert cell["mw_p"] == expected["mw_p"] and cell["direction"] == expected["direction"]
    assert cell["mean_base"] == pytest.approx(base.mean())
    assert cell["mean_technique"] - cell["mean_base"] == pytest.approx(5, abs=1.5)  # noise 0.5
    assert cell["flips"] == 0.0
    assert "4 runs each" in cell["label"]


def test_the_static_chart_binds_every_control_and_filters_on_it(synthetic_study):
    from fairbook_book.charts import vega_chart

    spec = fv.conclusion_chart(fv.conclusion_grid(synthetic_study, metrics=["DP", "BA"])).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"task", "technique", "metric", "n"}
    assert all("bind" in p for p in params.values())
    assert params["n"]["bind"]["max"] == 6 and params["n"]["value"] == 6
    text = str(spec["vconcat"])
    for name in params:  # each control is read by a filter
        assert f"== {name}" in text or f"< {name}" in text
    assert "<script" in vega_chart(spec).to_html()


# ---------------------------------------------------------------- the static Table 3 editor
def test_table_3_grid_agrees_with_table_3_for_every_move():
    from fairbook.papers import seed004

    grid = fv.table_3_grid(max_moved=12)
    assert grid.groupby("row").k.nunique().eq(25).all()  # every k for every row
    for (group, true), (first, second) in seed004.TABLE_3_COUNTS.items():
        for k in (-12, -7, 0, 5, 12):
            moved = min(max(k, -first), second)
            edited = dict(seed004.TABLE_3_COUNTS)
            edited[(group, true)] = (first + moved, second - moved)
            expected = fv.table_3(edited)
            cells = grid[(grid.row == f"{group}, true {true}") & (grid.k == k)].set_index("class")
            for name, values in expected.iterrows():
                for metric, value in values.items():
                    assert cells.loc[name, metric] == pytest.approx(value, abs=1e-4)
    # Female, true Cook holds 10 predicted Sport: moving 12 away moves 10
    text = grid[(grid.row == "Female, true Cook") & (grid.k == -12)]["counts"].iloc[0]
    assert text.endswith("(only 10 can move this way)")


def test_table_3_chart_binds_every_parameter_and_bad_input_is_refused():
    import json

    spec = fv.table_3_chart(fv.table_3_grid(max_moved=5)).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"row", "k"}
    assert (params["k"]["bind"]["min"], params["k"]["bind"]["max"]) == (-5, 5)
    text = json.dumps(spec, allow_nan=False)
    assert "== row" in text and "== k" in text
    with pytest.raises(ValueError, match="two labels"):
        fv.table_3_grid({("a", "x"): (1, 2, 3), ("a", "y"): (1, 2, 3)})
    with pytest.raises(ValueError, match="max_moved"):
        fv.table_3_grid(max_moved=0)


# ------------------------------------- the guard: a statistic the runs cannot carry says so
def _facts(widget) -> dict:
    """The explorer's first table as {row label: printed value}."""
    import html
    import re

    table = widget.children[-1].value.split("</table>")[0]
    rows = re.findall(r"<tr>\s*<th>(.*?)</th>\s*<td>(.*?)</td>", table, re.S)
    return {html.unescape(k.strip()): html.unescape(v.strip()) for k, v in rows}


def _by_hand(study, technique, n, metric="BA"):
    """The first n FIT runs of the baseline and of the technique, read off the table."""
    rows = study[
        (study["setting"] == fv.SETTINGS_FIT)
        & (study["class"] == "overall")
        & (study["metric"] == metric)
        & (study["run"] < n)
    ].sort_values("run")
    return (
        rows[rows["technique"] == "base"]["value"].to_numpy(),
        rows[rows["technique"] == technique]["value"].to_numpy(),
    )


def _scipy_oracle(b, t):
    from scipy import stats

    alternative = "greater" if t.mean() > b.mean() else "less"
    return {
        "mw_p": stats.mannwhitneyu(t, b, alternative=alternative, method="asymptotic").pvalue,
        "mw_p_exact": stats.mannwhitneyu(t, b, alternative=alternative, method="exact").pvalue,
        "levene_p": stats.levene(b / b.mean(), t / t.mean(), center="median").pvalue,
    }


def test_the_explorer_at_two_runs_says_the_tests_need_more_runs(synthetic_study):
    widget = fv.conclusion_explorer(synthetic_study)
    n_runs = widget.children[1].children[1]
    assert n_runs.min == 2
    n_runs.value = n_runs.min
    facts = _facts(widget)
    assert facts["Levene p (normalised)"] == "n/a (needs ≥ 3 runs per group)"
    u_test = facts["U-test p (asymptotic / exact)"]
    assert "cannot reach p < 0.05 with 2 runs: needs ≥ 3 per group, exact ≥ 4" in u_test
    assert facts["conclusion at this many runs"].startswith("not significant (cannot be")
    assert "0.0000" not in widget.children[-1].value
    # the p-values still printed are scipy's: the floor is a fact about them, not a blank
    widget.children[0].children[1].value = "penalty"
    b, t = _by_hand(synthetic_study, "penalty", 2)
    oracle = _scipy_oracle(b, t)
    assert _facts(widget)["U-test p (asymptotic / exact)"].startswith(
        f"{oracle['mw_p']:.4f} / {oracle['mw_p_exact']:.4f} ("
    )
    n_runs.value = 3  # the normal approximation can reach 0.05, the exact test cannot
    u_test = _facts(widget)["U-test p (asymptotic / exact)"]
    assert u_test.endswith("(exact cannot reach p < 0.05 with 3 runs: needs ≥ 4 per group)")
    assert "n/a" not in _facts(widget)["Levene p (normalised)"]


@pytest.mark.parametrize("n", [4, 6])
def test_the_explorer_prints_scipys_p_values_where_they_are_defined(synthetic_study, n):
    """Oracle: scipy.stats.levene (median-centred, on each set over its mean) and
    scipy.stats.mannwhitneyu (one-sided by the means), on the runs read off the table."""
    widget = fv.conclusion_explorer(synthetic_study)
    widget.children[0].children[1].value = "penalty"
    widget.children[1].children[1].value = n
    facts = _facts(widget)
    oracle = _scipy_oracle(*_by_hand(synthetic_study, "penalty", n))
    assert facts["Levene p (normalised)"] == f"{oracle['levene_p']:.4f}"
    assert facts["U-test p (asymptotic / exact)"] == (
        f"{oracle['mw_p']:.4f} / {oracle['mw_p_exact']:.4f}"
    )
    assert facts["conclusion at this many runs"] == "increase"


def test_the_static_grid_guards_the_same_statistics(synthetic_study):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no 0/0 silenced any more: it is not computed
        summary = fv.conclusion_grid(synthetic_study, metrics=["BA"])["summary"]
    cells = summary[summary["technique"] == "penalty"].set_index("n")
    at_two = cells.loc[2]
    assert at_two["levene_p"] is None
    assert "Levene p (normalised) n/a (needs ≥ 3 runs per group)" in at_two["label"]
    assert "cannot reach p < 0.05 with 2 runs" in at_two["label"]
    assert "levene_p: needs ≥ 3 runs per group" in at_two["notes"]
    assert not any("0.0000" in label for label in summary["label"])
    for n in (4, 6):
        oracle = _scipy_oracle(*_by_hand(synthetic_study, "penalty", n))
        for name in ("mw_p", "mw_p_exact", "levene_p"):
            assert cells.loc[n, name] == pytest.approx(oracle[name], rel=1e-12)
        assert f"Levene p (normalised) {oracle['levene_p']:.4f}" in cells.loc[n, "label"]
        assert cells.loc[n, "notes"] == ""


def test_the_static_explorer_prints_every_line_within_its_text_box(synthetic_study):
    """The guard of the U-test is a line of its own, and the text box is tall enough for the
    longest cell: the chart never cuts its status line."""
    from fairbook_book.chapters.fit_variance import explorers

    grid = fv.conclusion_grid(synthetic_study, metrics=["BA"])
    lines = [label.split("; ") for label in grid["summary"]["label"]]
    at_two = next(parts for parts in lines if parts[0].startswith("2 runs each"))
    assert at_two[2] == "(cannot reach p < 0.05 with 2 runs: needs ≥ 3 per group, exact ≥ 4)"
    at_three = next(parts for parts in lines if parts[0].startswith("3 runs each"))
    assert at_three[2] == "(exact cannot reach p < 0.05 with 3 runs: needs ≥ 4 per group)"
    assert max(len(parts) for parts in lines) <= explorers._TEXT_LINES
    assert max(len(line) for parts in lines for line in parts) <= 80  # ~560 px at 12 px
    spec = fv.conclusion_chart(grid).to_dict()
    text = spec["vconcat"][0]
    assert text["mark"]["baseline"] == "top" and text["mark"]["fontSize"] >= 11
    line_height = text["mark"]["lineHeight"]
    assert text["height"] >= explorers._TEXT_LINES * line_height
