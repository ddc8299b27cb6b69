"""Tests of :mod:`fairbook_book.tooling.labcheck` that need no browser: the probes' expected values
against hand-computed oracles, the charts notebook, the command line. The browser part runs
as its own stage of ``make test`` (``make labcheck``)."""

import math

import nbformat
import pytest

from fairbook_book.charts import LAB_MIME, vega_chart
from fairbook_book.tooling import labcheck
from fairbook_book.tooling.labcheck import PROBES, charts_notebook


def _mcc(tp, fn, fp, tn):
    return (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))


def test_chapter_01_probes_expect_the_hand_computed_mcc():
    probe = PROBES["01_metric_catalogue"]
    oracle = f"{_mcc(0, 1, 2, 4):.4f}"  # -2 / sqrt(60)
    assert probe.widget.expected({}) == oracle == "-0.2582"
    assert probe.chart.expected({}) == oracle.replace("-", "\u2212")
    assert (probe.widget.control, probe.chart.control) == ("TP", "tp")


def test_chapter_02_probes_expect_the_ofi_of_the_chosen_pair():
    from fairbook.data import predictions

    counts = predictions.compas_race_counts(min_group_size=100)
    included = counts[counts["included"]]
    first, third = included.iloc[0], included.iloc[2]
    # OFI by hand: (PPR_i - PREV_i) - (PPR_j - PREV_j), and PPR - PREV = (FP - FN) / n
    n_i, n_j = first[["TP", "FN", "FP", "TN"]].sum(), third[["TP", "FN", "FP", "TN"]].sum()
    ofi = (first.FP - first.FN) / n_i - (third.FP - third.FN) / n_j
    probe = PROBES["02_objective_fairness_index"]
    parameters = {"min_group_size": 100}
    assert probe.widget.value(parameters) == str(included.index[2])
    assert probe.widget.expected(parameters) == f"{ofi:.4f}"


def test_the_charts_notebook_holds_each_chart_output_once(tmp_path):
    data, metadata = vega_chart({"mark": "point"}, title="t")._repr_mimebundle_()
    chapter = nbformat.v4.new_notebook()
    plain = nbformat.v4.new_code_cell("1")
    chart = nbformat.v4.new_code_cell("chart()")
    chart.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="log\n"),
        nbformat.v4.new_output("display_data", data=data, metadata=metadata),
    ]
    chapter.cells = [plain, chart]
    nbformat.write(chapter, tmp_path / "03_three.ipynb")
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "notes.ipynb")  # not a chapter
    notebook = charts_notebook(tmp_path)
    assert [c.source for c in notebook.cells] == ["# 03_three, cell 1"]
    assert [list(o["data"]) for o in notebook.cells[0].outputs] == [[LAB_MIME, "text/plain"]]
    nbformat.validate(notebook)


def test_an_unknown_chapter_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        labcheck.main(["05_ucerf"])
    assert stopped.value.code == 2
    assert "no probe for 05_ucerf" in capsys.readouterr().err


def test_a_check_that_cannot_start_says_why(monkeypatch, capsys):
    def refuse(**_):
        raise RuntimeError("no Chromium found (make chromium installs it)")

    monkeypatch.setattr(labcheck, "run_check", refuse)
    assert labcheck.main([]) == 1
    assert "labcheck: no Chromium found" in capsys.readouterr().err
