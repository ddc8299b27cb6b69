"""Tests of :mod:`fairbook_book.chapters.verdict_stability.explorers`: the law of the flip rate
is the library's flip rate over every possible set of verdicts, the static chart's grid holds
that law at each setting, and the live widget prints it beside a simulation judged by the
library."""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from fairbook.variance.verdicts import flip_rate, verdicts
from fairbook_book.chapters import verdict_stability as vs

VEGA = Path(__file__).resolve().parents[4] / "book" / "_vendor" / "static" / "vendor" / "vega"


def _p_unfair(distance: float) -> float:
    """P(Z > distance), by the complementary error function."""
    return 0.5 * math.erfc(distance / math.sqrt(2))


def _enumerated(m: int, distance: float) -> dict:
    """The law of the flip rate by enumerating all 2^m sets of verdicts."""
    p = _p_unfair(distance)
    law: dict = {}
    for verdict in itertools.product((0.0, 1.0), repeat=m):
        k = sum(verdict)
        rate = round(float(flip_rate(verdict)), 9)
        law[rate] = law.get(rate, 0.0) + p**k * (1 - p) ** (m - k)
    return law


@pytest.mark.parametrize("m", [2, 3, 5, 8])
@pytest.mark.parametrize("distance", [0.0, 0.7, -0.7, 2.0])
def test_the_law_is_the_library_flip_rate_of_every_set_of_verdicts(m, distance):
    law = vs.flip_law(m, distance)
    expected = _enumerated(m, abs(distance))  # either side of the threshold: the same law
    assert dict(zip(law.flip_rate.round(9), law.probability, strict=True)) == pytest.approx(
        expected, abs=1e-12
    )
    p = _p_unfair(abs(distance))
    assert law.attrs["p_unfair"] == pytest.approx(p, abs=1e-12)
    assert law.attrs["expected"] == pytest.approx(2 * p * (1 - p), abs=1e-12)  # unbiased
    assert law.attrs["no_flip"] == pytest.approx(p**m + (1 - p) ** m, abs=1e-12)
    assert law.probability.sum() == pytest.approx(1.0)


def test_three_runs_show_only_zero_or_two_thirds():
    # the chapter's "Why 0.667 recurs": with m = 3, k(m − k)/C(m, 2) is 0 or 2/3
    assert vs.flip_law(3, 1.3).flip_rate.tolist() == pytest.approx([0.0, 2 / 3])


def test_the_grid_holds_the_law_at_every_setting():
    grid = vs.flip_grid(runs=[2, 4, 7], distances=[0.0, 0.5, 1.0, 1.5])
    assert len(grid.cells) == 3 * 4
    for m in (2, 4, 7):
        for d in (0.0, 1.5):
            law = vs.flip_law(m, d)
            cell = grid.cells[(grid.cells.n_runs == m) & (grid.cells.distance == d)]
            assert cell.expected.item() == pytest.approx(law.attrs["expected"])
            assert cell.no_flip.item() == pytest.approx(law.attrs["no_flip"])
            assert cell.see_flip.item() == pytest.approx(1 - law.attrs["no_flip"])
            assert f"expected flip rate 2p(1 − p) = {law.attrs['expected']:.3f}" in (
                cell.label.item()
            )
            rows = grid.law[(grid.law.n_runs == m) & (grid.law.distance == d)]
            kept = law[law.probability >= 1e-6]
            assert rows.flip_rate.tolist() == pytest.approx(kept.flip_rate.tolist(), abs=1e-6)
            assert rows.probability.tolist() == pytest.approx(kept.probability.tolist(), abs=1e-6)


def test_the_simulation_is_judged_by_the_library_and_agrees_with_the_law():
    n_sim, m, d = 20_000, 5, 0.5
    rates = vs.simulate_flips(m, d, n_sim=n_sim, seed=3)
    rng = np.random.default_rng(np.random.SeedSequence([3, m]))
    values = rng.standard_normal((n_sim, m)) - d
    by_hand = flip_rate(verdicts(values, rule="above", threshold=0.0))
    np.testing.assert_array_equal(rates, by_hand)
    law = vs.flip_law(m, d)
    se = rates.std() / math.sqrt(n_sim)
    assert abs(rates.mean() - law.attrs["expected"]) < 4 * se
    share = float(np.mean(rates == 0))
    no_flip = law.attrs["no_flip"]
    assert abs(share - no_flip) < 4 * math.sqrt(no_flip * (1 - no_flip) / n_sim)


def test_the_widget_prints_the_law_and_the_simulation():
    widget = vs.flip_explorer(n_runs=3, distance=1.0, n_sim=500, seed=0)
    runs, where = widget.children[0].children
    for m, d in ((3, 1.0), (10, 0.25), (40, 2.5)):
        runs.value, where.value = m, d
        shown = widget.children[1].value
        law = vs.flip_law(m, d)
        rates = vs.simulate_flips(m, d, n_sim=500, seed=0)
        for number in (law.attrs["p_unfair"], law.attrs["expected"], law.attrs["no_flip"]):
            assert f"<td>{number:.4f}</td>" in shown
        assert f"<td>{rates.mean():.4f}</td>" in shown
        rng = np.random.default_rng(np.random.SeedSequence([0, m]))
        unfair = verdicts(rng.standard_normal((500, m)) - d, rule="above", threshold=0.0)
        assert f"<td>{unfair.mean():.4f}</td>" in shown  # the simulated p
        assert f"<td>{np.mean(rates == 0):.4f}</td>" in shown
        for rate, probability in zip(law.flip_rate, law.probability, strict=True):
            assert f"<th>{rate:.4f}</th>\n      <td>{probability:.4f}</td>" in shown
        assert f"{m} runs, typical value {d:g} sd from the threshold" in shown


def test_the_chart_binds_two_sliders():
    grid = vs.flip_grid(runs=[2, 3, 4], distances=[0.0, 0.5, 1.0])
    spec = vs.flip_chart(grid, n_runs=16, distance=0.6).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert params["n_runs"]["value"] == 4 and params["distance"]["value"] == 0.5  # nearest
    assert params["n_runs"]["bind"]["input"] == params["distance"]["bind"]["input"] == "range"
    assert (params["n_runs"]["bind"]["min"], params["n_runs"]["bind"]["max"]) == (2, 4)
    text = json.dumps(spec, allow_nan=False)
    assert "n_runs" in text and "distance" in text


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="integer >= 2"):
        vs.flip_law(1, 0.0)
    with pytest.raises(ValueError, match="finite"):
        vs.flip_law(3, float("nan"))
    with pytest.raises(ValueError, match="evenly spaced"):
        vs.flip_chart(vs.flip_grid(runs=[2, 3], distances=[0.0, 0.1, 0.5]))


@pytest.mark.skipif(not VEGA.is_dir(), reason="needs the vendored Vega files (make vendor)")
def test_both_sliders_change_the_drawing_in_chromium(tmp_path):
    from fairbook_book.charts import vega_chart
    from fairbook_book.tooling import pagecheck

    if pagecheck.chromium_binary() is None:
        pytest.skip("chromium is not installed")
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "vendor" / "vega").symlink_to(VEGA)
    (tmp_path / "notebooks").mkdir()
    page = tmp_path / "notebooks" / "chart.html"
    chart = vs.flip_chart(vs.flip_grid(runs=range(2, 8), distances=[0.0, 0.5, 1.0, 1.5]))
    page.write_text(f"<html><body><main>{vega_chart(chart).to_html()}</main></body></html>")
    assert pagecheck.check_charts(page) == []
