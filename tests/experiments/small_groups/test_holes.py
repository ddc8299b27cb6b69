"""Tests of :mod:`fairbook.experiments.small_groups.holes` (Sec. 4.4, the holes of the
metrics).

Oracles: Theorem 4.3 as printed, enumeration of M(n) and closed forms.
"""

import numpy as np
import pytest

from fairbook.experiments import small_groups as sg


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


def test_pt_hole_table_closed_form_and_bounds():
    table = sg.pt_hole_table(30).set_index("n")
    assert (table["holes"] == table["closed_form"]).all()
    assert (table["holes"] >= table["mcc_holes"]).all()
    assert not table.loc[4:, "holds_upper"].any()  # fails for every n from 4 on
    assert table.loc[10, "holes"] == 48 and table.loc[10, "upper"] == pytest.approx(22.6, abs=0.05)
    assert table["share"].iloc[-1] < table["share"].iloc[2]  # Corollary 4.3.1
    assert sg.plot_pt_holes(table.reset_index()).get_xlabel() == "n"


def test_mcc_limit_paths_edge_and_corner():
    paths = sg.mcc_limit_paths(10, scales=[1e-4, 1e-10])
    edge = paths[paths.hole.str.startswith("edge")]
    corner = paths[paths.hole.str.startswith("corner")]
    # edge holes: MCC ~ sqrt(t) -> 0 along every path
    tiny = edge[edge.t == 1e-10]
    assert (tiny.MCC.abs() < 1e-4).all()
    # corner: the value along each path is its own limit, and they differ
    close = corner[corner.t == 1e-10]
    assert np.allclose(close.MCC, close.limit, atol=1e-6)
    assert close.limit.nunique() >= 3
    wide = sg.mcc_limit_table(paths)
    assert list(wide.columns) == ["t = 0.0001", "t = 1e-10", "limit"]
    with pytest.raises(ValueError):
        sg.mcc_limit_paths(1)
