"""Tables of "How small is too small?": size and power side by side, and what to use when.

Every function reads the long table of :func:`~.runs.size_power` and returns a DataFrame to
show. A test **holds its size** at a group size when its exact chance of flagging a group
that is not different is at most α at every base rate the chapter tries; for the simulated
bootstrap, when its estimate plus two Monte Carlo standard errors is at most α ("fails" when
its estimate minus two standard errors exceeds α, "unclear" between).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .runs import TEST_NAMES

__all__ = [
    "AUDIT_TESTS",
    "decision_rule",
    "holds_table",
    "power_table",
    "rules_of_thumb",
    "size_table",
    "style_sizes",
    "what_to_use",
]

_ORDER = list(TEST_NAMES)


def _power_column(grid: pd.DataFrame, effect: float | None) -> str:
    """The power column at ``effect`` (None: the largest effect of the grid)."""
    columns = [c for c in grid.columns if c.startswith("power at")]
    if effect is None:
        return max(columns, key=lambda c: float(c.removeprefix("power at −")))
    name = f"power at −{effect:g}"
    if name not in columns:
        raise ValueError(f"no power at effect {effect}; the grid has {columns}")
    return name


def _wide(grid: pd.DataFrame, value: str, *, dataset, metric, reference) -> pd.DataFrame:
    part = grid[
        (grid["dataset"] == dataset) & (grid["metric"] == metric) & (grid["reference"] == reference)
    ]
    if part.empty:
        raise ValueError(f"no rows for {dataset}, {metric}, {reference}")
    wide = part.pivot(index="n", columns="test", values=value)
    wide = wide[[t for t in _ORDER if t in wide.columns]]
    wide.columns = [TEST_NAMES[t] for t in wide.columns]
    return wide


def size_table(grid: pd.DataFrame, *, dataset: str, metric: str, reference: str) -> pd.DataFrame:
    """Exact size (bootstrap: simulated) of every test by group size ``n``: one data set,
    metric and reference. A value above α flags groups that are not different too often.

    Examples
    --------
    >>> grid = pd.DataFrame({"dataset": "toy", "metric": "PPR", "reference": "known",
    ...                      "n": [5, 5, 10, 10], "test": ["match", "wald"] * 2,
    ...                      "size": [0.0, 0.06, 0.02, 0.11]})
    >>> size_table(grid, dataset="toy", metric="PPR", reference="known")
        MATCH  Wald
    n
    5    0.00  0.06
    10   0.02  0.11
    """
    return _wide(grid, "size", dataset=dataset, metric=metric, reference=reference)


def power_table(
    grid: pd.DataFrame, *, dataset: str, metric: str, reference: str, effect: float | None = None
) -> pd.DataFrame:
    """Exact power by group size at an effect (the group's rate that far below the
    reference's); a test that does not hold its size has a power that means little."""
    column = _power_column(grid, effect)
    return _wide(grid, column, dataset=dataset, metric=metric, reference=reference)


def _verdict(rows: pd.DataFrame, alpha: float) -> str:
    size, se = rows["size"].to_numpy(), rows["mc_se"].to_numpy()
    if np.isnan(se).all():
        return "holds" if (size <= alpha).all() else "fails"
    if (size + 2 * se <= alpha).all():
        return "holds"
    if (size - 2 * se > alpha).any():
        return "fails"
    return "unclear"


def _verdicts(grid: pd.DataFrame, alpha: float) -> pd.Series:
    """``holds``/``fails``/``unclear`` per ``metric, reference, n, test`` over the base rates."""
    return grid.groupby(["metric", "reference", "n", "test"])[["size", "mc_se"]].apply(
        lambda rows: _verdict(rows, alpha)
    )


def holds_table(grid: pd.DataFrame, *, alpha: float) -> pd.DataFrame:
    """Whether each test holds its size, per metric, reference and test (rows) and ``n``.

    A test **holds** when its exact size is at most α at every base rate (the bootstrap:
    its estimate plus two Monte Carlo standard errors), **fails** when it exceeds α at one
    (the bootstrap: by more than two standard errors), and is **unclear** otherwise.

    Returns
    -------
    pandas.DataFrame
        Index ``metric, reference, test``; one column per group size ``n`` (the columns'
        name says so); empty where the
        test does not apply (Fisher and Boschloo with a known reference) or ``n`` was not
        tried for the metric.
    """
    out = _verdicts(grid, alpha).unstack("n")
    order = {TEST_NAMES[t]: i for i, t in enumerate(_ORDER)}
    out = out.rename(index=TEST_NAMES, level="test")
    out = out.sort_index(
        key=lambda index: index.map(order) if index.name == "test" else index, sort_remaining=True
    )
    out.columns = pd.Index([int(n) for n in out.columns], name="group size n")
    return out.fillna("")


def style_sizes(table: pd.DataFrame, *, alpha: float):
    """A size table with every value above α in bold red, for the page.

    Returns
    -------
    pandas.io.formats.style.Styler
    """
    return table.style.format("{:.3f}").map(
        lambda value: "color: #b00020; font-weight: bold" if value > alpha else ""
    )


#: The tests the audit offers (``fairbook audit --test``), which "what to use" chooses from.
AUDIT_TESTS = ("match", "wald", "score", "fisher", "boschloo", "bayes")


def what_to_use(grid: pd.DataFrame, *, alpha: float, effect: float | None = None) -> pd.DataFrame:
    """Per metric and group size, against a reference *sample* (the audit's case): the
    audit's tests that hold their size at every base rate, the most powerful of them and its
    mean power, beside MATCH's and the Wald test's largest size.

    Returns
    -------
    pandas.DataFrame
        Index ``metric, n``; columns ``hold their size``, ``most powerful``, ``its power …``,
        ``MATCH size``, ``Wald size`` (largest over the base rates).
    """
    column = _power_column(grid, effect)
    sample = grid[(grid["reference"] != "known") & grid["test"].isin(AUDIT_TESTS)]
    verdicts = _verdicts(sample, alpha)
    rows = []
    for (metric, n), part in sample.groupby(["metric", "n"]):
        held = verdicts.loc[metric].xs(n, level="n")
        holding = [
            TEST_NAMES[t] for t in AUDIT_TESTS if (held.xs(t, level="test") == "holds").all()
        ]
        power = part.groupby("test")[column].mean().rename(index=TEST_NAMES)
        best = max(holding, key=lambda t: power[t]) if holding else ""
        largest = part.groupby("test")["size"].max()
        rows.append(
            {
                "metric": metric,
                "n": n,
                "hold their size": ", ".join(holding) if holding else "none",
                "most powerful": best or "none",
                f"its {column}": power[best] if best else np.nan,
                "MATCH size": largest["match"],
                "Wald size": largest["wald"],
            }
        )
    return pd.DataFrame(rows).set_index(["metric", "n"])


def _listed(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def decision_rule(what: pd.DataFrame, *, power_needed: float = 0.8) -> list[str]:
    """The table of :func:`what_to_use` in plain sentences, one per metric.

    Each says which tests hold their size at every group size tried, from which size the
    best of them reaches ``power_needed``, and where MATCH and the Wald test exceed α.
    """
    sentences = []
    power_column = [c for c in what.columns if c.startswith("its power")][0]
    for metric, part in what.groupby(level="metric"):
        part = part.droplevel("metric")
        sizes = part.index.tolist()
        always = [
            t
            for t in TEST_NAMES.values()
            if all(t in row.split(", ") for row in part["hold their size"])
        ]
        enough = part[part[power_column] >= power_needed]
        first = int(enough.index.min()) if not enough.empty else None
        best = part.loc[first, "most powerful"] if first is not None else None
        wald_bad = [n for n in sizes if part.loc[n, "Wald size"] > 0.05]
        match_bad = [n for n in sizes if part.loc[n, "MATCH size"] > 0.05]
        text = f"{metric}: "
        text += (
            f"{_listed(always)} hold their size at every n from {sizes[0]} to {sizes[-1]}. "
            if always
            else f"no test holds its size at every n from {sizes[0]} to {sizes[-1]}. "
        )
        text += (
            f"The most powerful of those that hold reaches power {power_needed:g} "
            f"({power_column.removeprefix('its ')}) from n = {first} ({best}). "
            if first is not None
            else f"No test that holds its size reaches power {power_needed:g} "
            f"({power_column.removeprefix('its ')}) at any n tried. "
        )
        text += (
            f"The Wald test exceeds α at n = {_listed(str(n) for n in wald_bad)}"
            if wald_bad
            else "The Wald test holds α at every n tried"
        )
        text += (
            f"; MATCH, with the reference's rate plugged in, at n = "
            f"{_listed(str(n) for n in match_bad)}."
            if match_bad
            else "; MATCH holds α at every n tried."
        )
        sentences.append(text)
    return sentences


def rules_of_thumb(grid: pd.DataFrame, *, alpha: float, n: int = 30) -> list[str]:
    """What the exact sums say about two rules of thumb, in sentences computed from the grid.

    "n >= 30 licenses a normal test": the largest size of the Wald and the score test at
    ``n`` (PPR, against the reference sample, over the base rates). "MATCH is exact": the
    smallest group size, as a share of the reference, at which MATCH with the reference's
    rate plugged in exceeds α (if any).
    """
    sample = grid[(grid["reference"] != "known") & (grid["metric"] == "PPR")]
    if n not in set(sample["n"]):
        raise ValueError(f"the grid has no PPR cells at n = {n}")
    at_n = sample[sample["n"] == n].groupby("test")["size"].max()
    wald, score = at_n["wald"], at_n["score"]
    first = (
        f"At n = {n}, the usual licence for a normal test, the Wald test's exact size is up to "
        f"{wald:.3f} ({'above' if wald > alpha else 'within'} α = {alpha:g}) and the score "
        f"test's, the same z with the pooled standard error, up to {score:.3f} "
        f"({'above' if score > alpha else 'within'} α)."
    )
    match = sample[sample["test"] == "match"]
    over = match[match["size"] > alpha]
    reference = int(str(match["reference"].iloc[0]).removeprefix("N = ").replace(",", ""))
    if over.empty:
        second = "MATCH with the reference's rate plugged in holds α at every size tried."
    else:
        smallest = int(over["n"].min())
        fisher = sample[(sample["test"] == "fisher") & (sample["n"] == smallest)]["size"].max()
        second = (
            f"MATCH with the reference's rate plugged in first exceeds α at n = {smallest}, a "
            f"group {smallest / reference:.0%} the size of its reference (size "
            f"{over[over['n'] == smallest]['size'].max():.3f}); Fisher's test there: "
            f"{fisher:.3f}."
        )
    return [first, second]
