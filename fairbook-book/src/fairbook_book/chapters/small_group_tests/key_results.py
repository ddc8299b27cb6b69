"""Key results of "How small is too small?": the chapter's answers in plain sentences,
computed from its size and power table and its many-groups tables; nothing is typed in."""

from __future__ import annotations

import pandas as pd

from fairbook_book.chapter_summary import KeyResults
from fairbook_book.chapter_summary import key_results as _box
from fairbook_book.ledger import replication_line

from .results import _listed, _verdicts
from .runs import TEST_NAMES

__all__ = ["key_results", "many_groups_sentence"]


def _holding(grid: pd.DataFrame, alpha: float, reference: str) -> str:
    verdicts = _verdicts(grid[grid["reference"] == reference], alpha)
    by_test = verdicts.groupby(level="test")
    always = [TEST_NAMES[t] for t, v in by_test if (v == "holds").all()]
    never = [TEST_NAMES[t] for t, v in by_test if (v == "fails").all()]
    order = list(TEST_NAMES.values())
    always.sort(key=order.index)
    never.sort(key=order.index)
    sizes = sorted(set(grid["n"]))
    text = (
        f"Against a reference sample ({reference}), {_listed(always) or 'no test'} "
        f"{'holds its' if len(always) == 1 else 'hold their'} exact size α = {alpha:g} at "
        f"every group size from {sizes[0]} to {sizes[-1]}, for PPR and TPR on both data "
        "sets' base rates"
    )
    if never:
        verb = "exceeds" if len(never) == 1 else "exceed"
        text += f"; {_listed(never)} {verb} α at every size tried"
    return text + "."


def _wald(grid: pd.DataFrame, alpha: float) -> str:
    part = grid[(grid["test"] == "wald") & (grid["reference"] != "known")]
    small = part[part["n"] == part["n"].min()]
    worst = small.loc[small["size"].idxmax()]
    large = part[part["n"] == part[part["metric"] == "PPR"]["n"].max()]
    return (
        f"The Wald test, the textbook two-proportion test, flags a group of {int(worst['n'])} "
        f"that is not different with probability up to {worst['size']:.2f} "
        f"({worst['metric']}), and still up to {large['size'].max():.3f} at "
        f"n = {int(large['n'].max())}: it needs large groups before α means α."
    )


def _match(grid: pd.DataFrame, alpha: float) -> str:
    known = grid[(grid["test"] == "match") & (grid["reference"] == "known")]
    sample = grid[(grid["test"] == "match") & (grid["reference"] != "known")]
    worst = sample.loc[sample["size"].idxmax()]
    return (
        f"MATCH never exceeds α when the reference's rate is known (largest exact size "
        f"{known['size'].max():.3f}); with the rate estimated from {worst['reference']} people "
        f"and plugged in, as the audit does, its size reaches {worst['size']:.3f} at "
        f"n = {int(worst['n'])}: the reference's own noise counts once the group is a "
        "sizeable fraction of it."
    )


def _power(grid: pd.DataFrame, alpha: float) -> str:
    column = max(
        (c for c in grid.columns if c.startswith("power at")),
        key=lambda c: float(c.removeprefix("power at −")),
    )
    part = grid[
        (grid["reference"] != "known") & (grid["metric"] == "PPR") & (grid["test"] == "fisher")
    ]
    small = part[part["n"] == part["n"].min()]
    enough = part.groupby("n")[column].min()
    first = enough[enough >= 0.8]
    tail = (
        f"it reaches 0.8 on both data sets from n = {int(first.index.min())}"
        if not first.empty
        else "it reaches 0.8 at no size tried"
    )
    return (
        f"Small groups are not only noisy but nearly untestable: at n = {int(small['n'].min())} "
        f"Fisher's exact test finds a PPR gap of {column.removeprefix('power at −')} with "
        f"probability {small[column].max():.2f} at most; {tail}."
    )


def many_groups_sentence(
    familywise: pd.DataFrame, disparity: pd.DataFrame, *, dataset: str = "compas"
) -> str:
    """One sentence from section 2's tables: unadjusted and Bonferroni/Holm family-wise
    error of MATCH over a data set's intersections, and how much of the largest observed
    gap chance explains.

    Parameters
    ----------
    familywise : pandas.DataFrame
        :func:`~._many_groups.familywise_table`.
    disparity : pandas.DataFrame
        :func:`~._many_groups.max_disparity_table`.

    Examples
    --------
    >>> familywise = pd.DataFrame({"dataset": "compas", "test": "match", "groups": 3,
    ...                            "procedure": ["none", "bonferroni"],
    ...                            "fwer_exact": [0.14, 0.05]})
    >>> disparity = pd.DataFrame({"observed_max": [0.3], "p_chance": [0.2],
    ...                           "expected_max": [0.25]}, index=["compas"])
    >>> many_groups_sentence(familywise, disparity)[:60]
    "Over COMPAS's 3 race × sex × age intersections, if none diff"
    """
    rows = familywise[(familywise["dataset"] == dataset) & (familywise["test"] == "match")]
    by = rows.set_index("procedure")
    gap = (disparity.set_index("dataset") if "dataset" in disparity.columns else disparity).loc[
        dataset
    ]
    name = "COMPAS" if dataset == "compas" else dataset.title()
    return (
        f"Over {name}'s {int(by.loc['none', 'groups'])} race × sex × age intersections, if none "
        f"differed from the reference, MATCH without adjustment would flag at least one with "
        f"probability {by.loc['none', 'fwer_exact']:.3f} (exact), with Bonferroni or Holm "
        f"{by.loc['bonferroni', 'fwer_exact']:.3f}; the largest observed PPR gap, "
        f"{gap['observed_max']:.3f}, is one chance alone reaches with probability "
        f"{gap['p_chance']:.2f} (the largest gap expected by chance: "
        f"{gap['expected_max']:.3f})."
    )


def key_results(
    grid: pd.DataFrame,
    *,
    alpha: float,
    many_sentences=(),
    replication_tables=(),
    budget: str = "fast",
    chapter: str = "11_small_group_tests",
) -> KeyResults:
    """The chapter's Key results box.

    Parameters
    ----------
    grid : pandas.DataFrame
        :func:`~.runs.size_power`'s table.
    alpha : float
    many_sentences : iterable of str
        Sentences computed from the many-groups tables (section 2).
    replication_tables : iterable of DataFrame
        The chapter's ledger tables (for the replication line).
    budget, chapter : str

    Returns
    -------
    fairbook_book.chapter_summary.KeyResults
    """
    sample = next(r for r in pd.unique(grid["reference"]) if r != "known")
    return _box(
        _holding(grid, alpha, sample),
        _wald(grid, alpha),
        _match(grid, alpha),
        _power(grid, alpha),
        *many_sentences,
        replication=replication_line(list(replication_tables), chapter=chapter, budget=budget),
    )
