"""Explorers of "How small is too small?": size and power of every test as n, N, the base
rate and the effect move.

* :func:`test_grid` precomputes, for PPR, the exact rejection probability of every exact
  test over group size × reference size × base rate × effect (effect 0 is the size), and
  :func:`test_chart` draws it as a Vega-Lite chart whose controls the browser redraws
  without a kernel (:func:`fairbook_book.charts.vega_chart`). The bootstrap is simulated and
  left out of the grid (its sizes are in the chapter's tables).
* :func:`test_explorer` is an ipywidget: in JupyterLab it recomputes the same sums for any
  ``n``, ``N``, base rate and effect with :mod:`fairbook.stats.group_tests`.

Examples
--------
>>> grid = test_grid(sizes=[5, 10], references=[100], rates=[0.5], effects=[0.0, 0.2])
>>> sorted(grid["test"].unique())[:3], len(grid)
(['Bayes', 'Boschloo', 'Fisher'], 28)
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

from fairbook.stats import group_tests

from .runs import TEST_NAMES

__all__ = ["EFFECTS", "RATES", "REFERENCES", "SIZES", "test_chart", "test_explorer", "test_grid"]

#: Group sizes of the static chart (its x-axis).
SIZES = (5, 10, 20, 30, 50, 100, 200)
#: Reference sizes of the static chart (0: the reference's rate known exactly).
REFERENCES = (100, 1_000, 0)
#: Base rates of the static chart.
RATES = (0.1, 0.3, 0.5, 0.7, 0.9)
#: Effects (the group's rate below the reference's) of the static chart; 0 is the size.
EFFECTS = (0.0, 0.05, 0.1, 0.15, 0.2)


def test_grid(*, sizes=SIZES, references=REFERENCES, rates=RATES, effects=EFFECTS, alpha=0.05):
    """Exact rejection probability of every exact test for PPR over a grid.

    Parameters
    ----------
    sizes, references, rates, effects : iterables
        Group sizes ``n``; reference sizes ``N`` (0: known rate); base rates; effects (the
        group's rate that far below the base rate, clipped at 0; 0 gives the size).
    alpha : float, default 0.05

    Returns
    -------
    pandas.DataFrame
        Columns ``n N rate effect test probability``.
    """
    rows = []
    effects = [float(e) for e in effects]
    for N in references:
        reference = None if int(N) == 0 else int(N)
        for n in sizes:
            for test in group_tests.EXACT_TESTS:
                if reference is None and test in group_tests.TWO_SAMPLE_TESTS:
                    continue
                for rate in rates:
                    groups = [max(0.0, rate - e) for e in effects]
                    probability = group_tests.rejection_probability(
                        test, int(n), p_group=groups, p_ref=float(rate), N=reference, alpha=alpha
                    )
                    rows.extend(
                        {
                            "n": int(n),
                            "N": int(N),
                            "rate": float(rate),
                            "effect": e,
                            "test": TEST_NAMES[test],
                            "probability": round(float(p), 6),
                        }
                        for e, p in zip(effects, probability, strict=True)
                    )
    return pd.DataFrame(rows)


def _step(values) -> float:
    values = sorted(values)
    return float(values[1] - values[0]) if len(values) > 1 else 1.0


def test_chart(
    grid: pd.DataFrame,
    *,
    N: int = 1_000,
    rate: float = 0.5,
    effect: float = 0.0,
    alpha: float = 0.05,
):
    """The static explorer: rejection probability against ``n`` per test, α dashed.

    Controls: the reference's size (a menu; "known" is 0), the base rate and the effect
    (sliders; effect 0 shows the size, above 0 the power).

    Returns
    -------
    altair.LayerChart
    """
    import altair as alt

    references = sorted({int(v) for v in grid["N"]})
    rates = sorted({float(v) for v in grid["rate"]})
    effects = sorted({float(v) for v in grid["effect"]})
    p_n = alt.param(
        name="reference_size",
        value=int(min(references, key=lambda v: abs(v - N))),
        bind=alt.binding_select(
            options=references,
            labels=[f"N = {v:,}" if v else "known rate" for v in references],
            name="reference ",
        ),
    )
    p_rate = alt.param(
        name="base_rate",
        value=float(min(rates, key=lambda v: abs(v - rate))),
        bind=alt.binding_range(min=rates[0], max=rates[-1], step=_step(rates), name="base rate "),
    )
    p_effect = alt.param(
        name="effect",
        value=float(min(effects, key=lambda v: abs(v - effect))),
        bind=alt.binding_range(
            min=effects[0],
            max=effects[-1],
            step=_step(effects),
            name="effect (group's rate below; 0 = size) ",
        ),
    )
    chosen = (
        (alt.datum.N == p_n)
        & (alt.expr.abs(alt.datum.rate - p_rate) < 1e-6)
        & (alt.expr.abs(alt.datum.effect - p_effect) < 1e-6)
    )
    lines = (
        alt.Chart(grid)
        .transform_filter(chosen)
        .mark_line(point=True)
        .encode(
            x=alt.X("n:Q", scale=alt.Scale(type="log"), title="group size n"),
            y=alt.Y(
                "probability:Q",
                title="chance the test flags the group",
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color("test:N", title="test"),
            tooltip=["test:N", "n:Q", alt.Tooltip("probability:Q", format=".4f")],
        )
    )
    level = (
        alt.Chart(pd.DataFrame({"alpha": [alpha]})).mark_rule(strokeDash=[5, 3]).encode(y="alpha:Q")
    )
    return (lines + level).add_params(p_n, p_rate, p_effect).properties(width=520, height=300)


def _explorer_view(n: int, N: int | None, rate: float, effect: float, alpha: float) -> str:
    from fairbook_book.widgets import html_table

    rows = {}
    for test in group_tests.EXACT_TESTS:
        if N is None and test in group_tests.TWO_SAMPLE_TESTS:
            continue
        size, power = group_tests.rejection_probability(
            test, n, p_group=[rate, max(0.0, rate - effect)], p_ref=rate, N=N, alpha=alpha
        )
        rows[TEST_NAMES[test]] = {
            "exact size": size,
            "holds α": "yes" if size <= alpha else "no",
            f"power at −{effect:g}": power,
        }
    reference = "its rate known exactly" if N is None else f"a reference of N = {N:,}"
    head = (
        f"A group of n = {n} against {reference}, base rate {rate:g}, α = {alpha:g}: "
        "the exact chance each test flags the group when it is not different (size), and "
        f"when its rate is {effect:g} lower (power)."
    )
    return f"<p>{html.escape(head)}</p>" + html_table(pd.DataFrame(rows).T)


def test_explorer(
    *, n: int = 20, N: int = 1_000, rate: float = 0.5, effect: float = 0.1, alpha: float = 0.05
):
    """Widget: move n, N (or tick "known"), the base rate and the effect; every exact
    test's size and power are recomputed by :mod:`fairbook.stats.group_tests`.

    Returns
    -------
    ipywidgets.VBox
        The controls (``children[0]``) above the HTML table (``children[1]``).

    Examples
    --------
    >>> w = test_explorer(n=8, N=50)
    >>> "exact size" in w.children[1].value
    True
    """
    import ipywidgets as widgets

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    size = widgets.IntSlider(value=int(n), min=1, max=300, description="n", continuous_update=False)
    reference = widgets.IntSlider(
        value=int(N), min=10, max=3_000, step=10, description="N", continuous_update=False
    )
    known = widgets.Checkbox(value=False, description="reference rate known exactly")
    base = widgets.FloatSlider(
        value=float(rate),
        min=0.05,
        max=0.95,
        step=0.05,
        description="base rate",
        continuous_update=False,
    )
    gap = widgets.FloatSlider(
        value=float(effect),
        min=0.0,
        max=0.4,
        step=0.01,
        description="effect",
        continuous_update=False,
    )
    output = widgets.HTML()

    def refresh(_=None):
        output.value = _explorer_view(
            size.value,
            None if known.value else reference.value,
            round(base.value, 6),
            round(gap.value, 6),
            alpha,
        )

    for control in (size, reference, known, base, gap):
        control.observe(refresh, names="value")
    refresh()
    controls = widgets.VBox([widgets.HBox([size, reference, known]), widgets.HBox([base, gap])])
    return widgets.VBox([controls, output])
