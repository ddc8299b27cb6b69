"""Explorers of "How stable is a fairness verdict?": the flip rate as the number of runs and
the distance from the threshold move.

The chapter's flip rate of a verdict over ``m`` runs is the share of pairs of runs whose
verdicts differ, ``k (m − k) / C(m, 2)`` when ``k`` runs say unfair
(:func:`fairbook.variance.verdicts.flip_rate`). How large it is depends on how far the
verdict's value typically lies from its threshold compared with how much the value moves
between runs, and how much of that the ``m`` runs reveal. The explorers take the simplest
model of that: each run's value is its typical value plus normal noise, and the typical value
lies ``distance`` standard deviations of that noise from the threshold (on either side: the
flip rate does not depend on which). A run then says unfair with probability ``p =
P(Z > distance)``, ``k`` is binomial, the expected flip rate is ``2 p (1 − p)`` whatever ``m``
(the flip rate is unbiased), and the ``m`` runs show no flip at all with probability ``p^m +
(1 − p)^m``.

* :func:`flip_law` is that law for one ``m`` and distance, each of its flip rates computed by
  :func:`~fairbook.variance.verdicts.flip_rate`;
* :func:`flip_explorer` is an ipywidget: it recomputes the law for any ``m`` and distance in
  JupyterLab, beside a simulation judged by the library's
  :func:`~fairbook.variance.verdicts.verdicts` and :func:`~fairbook.variance.verdicts.flip_rate`
  (the HTML book shows the snapshot taken when the page was built);
* :func:`flip_grid` precomputes the law over ``m`` × distance and :func:`flip_chart` draws it
  as a Vega-Lite chart whose two sliders the browser redraws without a kernel
  (:func:`fairbook_book.charts.vega_chart`).

Examples
--------
>>> grid = flip_grid(runs=[2, 3], distances=[0.0, 0.5])
>>> len(grid.cells), sorted(p["name"] for p in flip_chart(grid, distance=0.5).to_dict()["params"])
(4, ['distance', 'n_runs'])
"""

from __future__ import annotations

import html
import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from fairbook.variance.verdicts import flip_rate, verdicts

__all__ = [
    "DISTANCES",
    "RUNS",
    "FlipGrid",
    "flip_chart",
    "flip_explorer",
    "flip_grid",
    "flip_law",
    "simulate_flips",
]

#: The numbers of runs of the static chart (its first slider).
RUNS = tuple(range(2, 21))
#: The distances from the threshold of the static chart, in standard deviations of the
#: run-to-run noise (its second slider: 0 to 3 in steps of 0.1).
DISTANCES = tuple(round(0.1 * k, 1) for k in range(31))


def _n_runs(n_runs) -> int:
    if isinstance(n_runs, bool) or not isinstance(n_runs, (int, np.integer)) or n_runs < 2:
        raise ValueError(f"the number of runs must be an integer >= 2, got {n_runs!r}")
    return int(n_runs)


def _distance(distance) -> float:
    try:
        value = float(distance)
    except (TypeError, ValueError):
        raise ValueError(f"distance must be a number, got {distance!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"distance must be finite, got {distance!r}")
    return abs(value)


def flip_law(n_runs: int, distance: float) -> pd.DataFrame:
    """The distribution of the flip rate of ``n_runs`` runs whose verdict's typical value
    lies ``distance`` noise standard deviations from the threshold.

    Parameters
    ----------
    n_runs : int
        The number of runs ``m`` (at least 2).
    distance : float
        The distance from the threshold in standard deviations of the run-to-run noise (its
        sign does not matter).

    Returns
    -------
    pandas.DataFrame
        One row per possible flip rate (:func:`fairbook.variance.verdicts.flip_rate` of ``k``
        unfair verdicts among ``m``; ``k`` and ``m − k`` give the same rate), ascending, with
        ``probability`` (binomial in ``k``). ``attrs``: ``p_unfair`` (a run's chance of
        saying unfair), ``expected`` (the mean flip rate, ``2 p (1 − p)``) and ``no_flip``
        (the chance that the runs all agree, ``p^m + (1 − p)^m``).

    Examples
    --------
    >>> law = flip_law(3, 0.0)  # on the threshold: a run says unfair half of the time
    >>> law.round(4).values.tolist(), round(law.attrs["expected"], 12), law.attrs["no_flip"]
    ([[0.0, 0.25], [0.6667, 0.75]], 0.5, 0.25)
    """
    m = _n_runs(n_runs)
    d = _distance(distance)
    p = float(stats.norm.sf(d))
    k = np.arange(m + 1)
    rates = np.asarray(flip_rate((np.arange(m)[None, :] < k[:, None]).astype(np.float64)))
    probability = stats.binom.pmf(k, m, p)
    law = (
        pd.DataFrame({"flip_rate": np.round(rates, 12), "probability": probability})
        .groupby("flip_rate", as_index=False)["probability"]
        .sum()
    )
    law.attrs.update(
        {
            "n_runs": m,
            "distance": d,
            "p_unfair": p,
            "expected": float(np.dot(rates, probability)),
            "no_flip": float(probability[rates == 0].sum()),
        }
    )
    return law


class FlipGrid(NamedTuple):
    """The precomputed laws of :func:`flip_grid`.

    ``law``: one row per ``n_runs, distance`` and possible flip rate, with its
    ``probability`` (rates of probability below 1e-6 are left out). ``cells``: one row per
    ``n_runs, distance`` with ``p_unfair``, ``expected``, ``no_flip``, ``see_flip`` (``1 −
    no_flip``) and ``label`` (the line the chart prints).
    """

    law: pd.DataFrame
    cells: pd.DataFrame


def _label(law: pd.DataFrame) -> str:
    a = law.attrs
    return (
        f"{a['n_runs']} runs, typical value {a['distance']:g} sd from the threshold: a run says "
        f"unfair with p = {a['p_unfair']:.3f}; expected flip rate 2p(1 − p) = "
        f"{a['expected']:.3f}; the {a['n_runs']} runs all agree (flip rate 0) with "
        f"probability {a['no_flip']:.3f}"
    )


def flip_grid(*, runs=RUNS, distances=DISTANCES) -> FlipGrid:
    """:func:`flip_law` over a grid of the number of runs × the distance from the threshold,
    for the static flip-rate explorer.

    Parameters
    ----------
    runs : iterable of int, default :data:`RUNS`
        Numbers of runs, each >= 2.
    distances : iterable of float, default :data:`DISTANCES`
        Distances from the threshold (noise standard deviations, >= 0).

    Returns
    -------
    FlipGrid

    Examples
    --------
    >>> grid = flip_grid(runs=[2, 5], distances=[0.0, 1.0])
    >>> grid.cells[["n_runs", "distance", "expected"]].round(3).values.tolist()
    [[2.0, 0.0, 0.5], [2.0, 1.0, 0.267], [5.0, 0.0, 0.5], [5.0, 1.0, 0.267]]
    """
    m_values = sorted({_n_runs(m) for m in runs})
    d_values = sorted({round(_distance(d), 9) for d in distances})
    if not m_values or not d_values:
        raise ValueError("runs and distances must not be empty")
    laws, cells = [], []
    for m in m_values:
        for d in d_values:
            law = flip_law(m, d)
            kept = law[law["probability"] >= 1e-6]
            laws.append(
                pd.DataFrame(
                    {
                        "n_runs": m,
                        "distance": d,
                        "flip_rate": kept["flip_rate"].round(6).to_numpy(),
                        "probability": kept["probability"].round(6).to_numpy(),
                    }
                )
            )
            a = law.attrs
            cells.append(
                {
                    "n_runs": m,
                    "distance": d,
                    "p_unfair": a["p_unfair"],
                    "expected": a["expected"],
                    "no_flip": a["no_flip"],
                    "see_flip": 1.0 - a["no_flip"],
                    "label": _label(law),
                }
            )
    return FlipGrid(pd.concat(laws, ignore_index=True), pd.DataFrame(cells))


def _step(values: list[float], name: str) -> float:
    if len(values) < 2:
        return 1.0
    step = values[1] - values[0]
    if not np.allclose(np.diff(values), step):
        raise ValueError(f"the grid's {name} must be evenly spaced for the slider: {values}")
    return float(step)


def flip_chart(grid: FlipGrid, *, n_runs: int = 3, distance: float = 1.0):
    """The static flip-rate explorer: a Vega-Lite chart of a :func:`flip_grid`.

    Two sliders: the number of runs ``m`` and the distance of the verdict's typical value
    from the threshold. Left: the chance of each flip rate the ``m`` runs can show, the
    expected flip rate dashed. Right: against the distance, the expected flip rate ``2 p (1 −
    p)`` and the chance that ``m`` runs show any flip at all, the chosen distance marked.
    Above: the chosen setting's numbers.

    Parameters
    ----------
    grid : FlipGrid
    n_runs : int, default 3
        The first number of runs (the chapter's fast profile has 3); the nearest on the grid.
    distance : float, default 1.0
        The first distance; the nearest on the grid.

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> spec = flip_chart(flip_grid(runs=[2, 3, 4], distances=[0, 0.5, 1]), n_runs=9).to_dict()
    >>> {p["name"]: p["value"] for p in spec["params"]}
    {'n_runs': 4, 'distance': 1.0}
    """
    import altair as alt

    m_values = sorted({int(v) for v in grid.cells["n_runs"]})
    d_values = sorted({float(v) for v in grid.cells["distance"]})
    start_m = min(m_values, key=lambda v: abs(v - n_runs))
    start_d = min(d_values, key=lambda v: abs(v - _distance(distance)))
    p_m = alt.param(
        name="n_runs",
        value=int(start_m),
        bind=alt.binding_range(
            min=m_values[0], max=m_values[-1], step=_step(m_values, "runs"), name="runs m "
        ),
    )
    p_d = alt.param(
        name="distance",
        value=float(start_d),
        bind=alt.binding_range(
            min=d_values[0],
            max=d_values[-1],
            step=_step(d_values, "distances"),
            name="distance from the threshold (sd) ",
        ),
    )
    same_m = alt.datum.n_runs == p_m
    same_d = alt.expr.abs(alt.datum.distance - p_d) < 1e-6
    chosen = alt.Chart(grid.cells).transform_filter(same_m & same_d)
    bars = (
        alt.Chart(grid.law)
        .transform_filter(same_m & same_d)
        .mark_bar(size=14, color="#1f77b4")
        .encode(
            x=alt.X(
                "flip_rate:Q", title="flip rate the m runs show", scale=alt.Scale(domain=[0, 1])
            ),
            y=alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1])),
            tooltip=[
                alt.Tooltip("flip_rate:Q", format=".3f"),
                alt.Tooltip("probability:Q", format=".3f"),
            ],
        )
    )
    mean = chosen.mark_rule(color="black", strokeDash=[5, 3]).encode(x="expected:Q")
    left = (bars + mean).properties(width=260, height=200)
    colours = alt.Scale(
        domain=["expected flip rate", "chance the m runs show a flip"],
        range=["#d62728", "#1f77b4"],
    )
    curves = (
        alt.Chart(grid.cells)
        .transform_filter(same_m)
        .transform_fold(["expected", "see_flip"], as_=["what", "value"])
        .transform_calculate(
            what="datum.what == 'expected' ? 'expected flip rate' : 'chance the m runs show a flip'"
        )
    )
    lines = curves.mark_line().encode(
        x=alt.X("distance:Q", title="distance from the threshold (noise sd)"),
        y=alt.Y("value:Q", title="rate or probability", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("what:N", scale=colours, title=None),
    )
    marked = (
        curves.transform_filter(same_d)
        .mark_point(size=120, filled=True)
        .encode(x="distance:Q", y="value:Q", color=alt.Color("what:N", scale=colours))
    )
    right = (lines + marked).properties(width=260, height=200)
    text = (
        chosen.mark_text(align="left", fontSize=11, lineBreak="; ")
        .encode(x=alt.value(0), text="label:N")
        .properties(width=560, height=30)
    )
    return (
        alt.vconcat(text, alt.hconcat(left, right))
        .add_params(p_m, p_d)
        .configure_legend(orient="bottom")
        .configure_view(strokeWidth=0)
    )


def simulate_flips(n_runs: int, distance: float, *, n_sim: int = 2_000, seed: int = 0):
    """Flip rates of ``n_sim`` simulated sets of ``n_runs`` runs, judged by the library.

    Each run's value is ``−distance + Z`` (``Z`` standard normal) and its verdict
    :func:`fairbook.variance.verdicts.verdicts` with rule ``"above"`` at threshold 0 — the
    model of :func:`flip_law`; each set's rate is
    :func:`~fairbook.variance.verdicts.flip_rate`.

    Parameters
    ----------
    n_runs : int
        Runs per set (at least 2).
    distance : float
        The distance from the threshold in noise standard deviations.
    n_sim : int, default 2000
        Simulated sets of runs.
    seed : int, default 0
        With ``n_runs``, seeds the draws (``SeedSequence([seed, n_runs])``).

    Returns
    -------
    ndarray of shape (n_sim,)

    Examples
    --------
    >>> rates = simulate_flips(3, 0.0, n_sim=4_000)
    >>> bool(abs(rates.mean() - 0.5) < 0.03)  # flip_law(3, 0).attrs["expected"]
    True
    """
    return np.asarray(flip_rate(_simulated_verdicts(n_runs, distance, n_sim=n_sim, seed=seed)))


def _simulated_verdicts(n_runs: int, distance: float, *, n_sim: int, seed: int) -> np.ndarray:
    """The verdicts of :func:`simulate_flips`, one row per simulated set of runs."""
    m = _n_runs(n_runs)
    d = _distance(distance)
    if int(n_sim) < 1:
        raise ValueError(f"n_sim must be >= 1, got {n_sim!r}")
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), m]))
    values = rng.standard_normal((int(n_sim), m)) - d
    return verdicts(values, rule="above", threshold=0.0)


def _explorer_view(n_runs: int, distance: float, n_sim: int, seed: int) -> str:
    from fairbook_book.widgets import html_table

    law = flip_law(n_runs, distance)
    judged = _simulated_verdicts(n_runs, distance, n_sim=n_sim, seed=seed)
    rates = np.asarray(flip_rate(judged))
    a = law.attrs
    summary = pd.DataFrame(
        {
            "exact": [a["p_unfair"], a["expected"], a["no_flip"]],
            f"simulated ({n_sim:,} sets of runs)": [
                float(judged.mean()),
                float(rates.mean()),
                float(np.mean(rates == 0)),
            ],
        },
        index=[
            "a run says unfair (p)",
            "expected flip rate 2p(1 − p)",
            f"the {law.attrs['n_runs']} runs show no flip",
        ],
    )
    simulated = pd.Series(np.round(rates, 12)).value_counts(normalize=True)
    shown = pd.DataFrame(
        {
            "probability": law["probability"].to_numpy(),
            "simulated": law["flip_rate"].map(simulated).fillna(0.0).to_numpy(),
        },
        index=pd.Index([f"{rate:.4f}" for rate in law["flip_rate"]], name="flip rate"),
    )
    return (
        f"<p>{html.escape(_label(law))}</p>"
        + html_table(summary)
        + "<p>Each flip rate the runs can show:</p>"
        + html_table(shown)
    )


def flip_explorer(*, n_runs: int = 3, distance: float = 1.0, n_sim: int = 2_000, seed: int = 0):
    """Widget: move the number of runs and the distance from the threshold; see the exact
    law of the flip rate (:func:`flip_law`) beside a simulation judged by the library
    (:func:`simulate_flips`).

    Parameters
    ----------
    n_runs : int, default 3
        The first number of runs (the slider spans 2 to 100).
    distance : float, default 1.0
        The first distance from the threshold in noise sd (the slider spans 0 to 4).
    n_sim : int, default 2000
        Simulated sets of runs per setting.
    seed : int, default 0

    Returns
    -------
    ipywidgets.VBox
        The two sliders (``children[0]``) above an HTML sentence and tables (``children[1]``).

    Examples
    --------
    >>> w = flip_explorer(n_runs=4, distance=0.5, n_sim=200)
    >>> "expected flip rate" in w.children[1].value
    True
    """
    import ipywidgets as widgets

    runs = widgets.IntSlider(
        value=_n_runs(n_runs), min=2, max=100, description="runs m", continuous_update=False
    )
    where = widgets.FloatSlider(
        value=_distance(distance),
        min=0.0,
        max=4.0,
        step=0.05,
        description="distance (sd)",
        continuous_update=False,
        style={"description_width": "initial"},
    )
    output = widgets.HTML()

    def refresh(_=None):
        output.value = _explorer_view(runs.value, round(where.value, 6), n_sim, seed)

    runs.observe(refresh, names="value")
    where.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([runs, where]), output])
