"""The book-wide replication ledger: every paper number the book compares, one row each.

Each chapter ends with :func:`chapter_ledger` over its replication tables (the tables of
:func:`fairbook_book.replication.replication_table`, whose :class:`~fairbook_book.replication.Row`
objects travel in ``attrs["rows"]``). That cell shows the chapter's tallies in words and
carries the rows, as JSON, in the output's metadata under :data:`METADATA_KEY`. The executed
notebooks are therefore the record: :func:`read_executed` collects the rows of every chapter
into one table, which the ledger page shows, the build writes to ``_build/html/ledger.csv``
and ``ledger.json``, and ``fairbook-book ledger`` prints.

Every row has a *kind* (:data:`fairbook_book.replication.KINDS`): only a **result** — a number
the paper's experiment produced — can replicate. A result *matches* when every rule of the
row passes and its window is informative; it is *uninformative* (consistent but saying
little) when it passes with a window wider than
:data:`fairbook_book.replication.INFORMATIVE_WIDTH` × |paper| or holding 0; it *differs* when a
rule fails; on a stand-in for the paper's data it agrees or not *in kind*; it is *not
comparable*, with a reason (:data:`fairbook_book.replication.NOT_COMPARABLE_WHY`), when we do not
run the paper's experiment. Arithmetic on the paper's printed inputs, mathematics, data facts
and inputs are *checks* (``check holds``, ``check fails``), tallied apart. *Judged* rows are
the results with a verdict against the paper's number (matches, uninformative, differs).

Each printed number appears at several budgets (this build's fast profile, a recorded full
run); :func:`of_record` keeps one row per number — the recorded one where there is one — and
:func:`headline` counts those per paper: the one table every sentence of the book that
counts replications comes from (:func:`replication_line`, :func:`headline_sentence`).
:func:`table_accounting` sets each replicated table's printed numbers
(:mod:`fairbook.papers.printed`) beside its rows.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from fairbook.atomic import write_atomic
from fairbook.papers.names import paper_name
from fairbook.papers.printed import TABLES, printed_count, table_of
from fairbook.safe_csv import write_csv
from fairbook_book.formatting import significant
from fairbook_book.replication import KINDS, NOT_COMPARABLE_WHY, OUTCOMES, RESULT_OUTCOMES, Row

__all__ = [
    "ChapterLedger",
    "FIELDS",
    "METADATA_KEY",
    "ROW_KEY",
    "budget_label",
    "chapter_ledger",
    "compare_ledgers",
    "headline",
    "headline_html",
    "headline_sentence",
    "ledger_frame",
    "ledger_html",
    "of_record",
    "read_executed",
    "read_ledger",
    "replication_line",
    "row_anchor",
    "table_accounting",
    "tallies",
    "tally_sentences",
    "write_ledger",
]

#: Where a chapter's ledger rows travel in its executed notebook (output metadata).
METADATA_KEY = "fairbook_ledger"

#: The ledger's columns, in order.
FIELDS = (
    "paper",
    "source",
    "quantity",
    "kind",
    "paper_value",
    "derived",
    "ours",
    "low",
    "high",
    "n",
    "rule",
    "verdict",
    "outcome",
    "reason",
    "note",
    "chapter",
    "budget",
)

#: A row's paper: a seed, or a work a seed cites whose numbers the seed does not print
#: (``"Larson et al. 2016"``, ProPublica's analysis, via seed 003).
_SOURCE = re.compile(r"^(?P<paper>seed \d{3}|[A-Z][A-Za-z-]+ et al\. \d{4})\b\s*(?P<where>.*)$")
_OUTCOMES = OUTCOMES
_OUTCOME_COLOURS = {
    "matches": "#e8f5e9",
    "uninformative": "#fff8e1",
    "differs": "#fdecea",
    "in kind": "#eef4fb",
    "not in kind": "#fbeef4",
    "not comparable": "#f2f2f2",
    "no verdict": "#f2f2f2",
    "check holds": "#f4f8f4",
    "check fails": "#fdf3f0",
}
_JUDGED = RESULT_OUTCOMES


def _number(value) -> float | None:
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def _record(row: Row, *, chapter: str, budget: str) -> dict:
    match = _SOURCE.match(row.source or "")
    if match is None:
        raise ValueError(
            f"row {row.quantity!r} names no paper: its source is {row.source!r}; "
            "give it as 'seed NNN <table>' (e.g. 'seed 003 Table 3.1') or "
            "'<Author> et al. YYYY <where>'"
        )
    note = row.display_note
    return {
        "paper": match["paper"],
        "source": match["where"] or "(whole paper)",
        "quantity": row.quantity,
        "kind": row.kind,
        "paper_value": _number(row.paper),
        "derived": row.derived,
        "ours": _number(row.ours),
        "low": _number(row.low),
        "high": _number(row.high),
        "n": row.n,
        "rule": row.rule_text,
        "verdict": row.verdict,
        "outcome": row.outcome,
        "reason": row.not_comparable_why if row.kind == "result" else "",
        "note": note,
        "chapter": chapter,
        "budget": budget,
    }


def _rows_of(table) -> tuple[Row, ...]:
    rows = getattr(table, "attrs", {}).get("rows")
    if rows is None:
        raise ValueError(
            "a ledger table must come from fairbook_book.replication.replication_table "
            "(its rows travel in attrs['rows']); this one has none"
        )
    return tuple(rows)


def ledger_frame(records: Iterable[Mapping]) -> pd.DataFrame:
    """The ledger as a table with columns :data:`FIELDS` (empty if there are no records).

    Examples
    --------
    >>> ledger_frame([]).columns.tolist()[:3]
    ['paper', 'source', 'quantity']
    """
    frame = pd.DataFrame.from_records(list(records), columns=list(FIELDS))
    return frame.astype({"n": "Int64"}) if not frame.empty else frame


#: The tallies' columns after ``rows``: results judged against the paper's number, each
#: outcome, and the checks apart.
_CHECK_OUTCOMES = ("check holds", "check fails")
TALLY_COLUMNS = (
    "rows",
    "results",
    "judged",
    *(o for o in OUTCOMES if o not in _CHECK_OUTCOMES),
    "checks",
    *_CHECK_OUTCOMES,
)


def tallies(ledger: pd.DataFrame, *, by=("paper",)) -> pd.DataFrame:
    """Per group of `by`: rows; results, those judged against the paper's number (matches,
    uninformative, differs) and each outcome; and the checks (every kind but result) apart.

    When `by` includes ``"source"``, a column ``printed`` gives the number of printed
    numbers of the table the source belongs to (:mod:`fairbook.papers.printed`; empty for
    a figure, theorem or section).

    Examples
    --------
    >>> from fairbook_book.replication import Row, replication_table
    >>> t = replication_table([Row("a", 1, 1, source="seed 003 Table 3.1"),
    ...                        Row("b", 1, 2, source="seed 003 Table 3.1"),
    ...                        Row("c", 1, 1, source="seed 003 Table 3.1", kind="arithmetic")])
    >>> tallies(chapter_ledger([t], chapter="02_x").frame).loc["seed 003"].tolist()
    [3, 2, 2, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0]
    """
    by = list(by)
    if ledger.empty:
        return pd.DataFrame(columns=list(TALLY_COLUMNS))
    counts = pd.crosstab([ledger[c] for c in by], ledger["outcome"])
    for outcome in _OUTCOMES:
        if outcome not in counts:
            counts[outcome] = 0
    is_result = (ledger["kind"] == "result").to_numpy()
    results = pd.crosstab([ledger[c] for c in by], is_result)
    counts["results"] = results[True] if True in results else 0
    counts["checks"] = results[False] if False in results else 0
    counts["judged"] = counts[list(_JUDGED)].sum(axis=1)
    counts["rows"] = counts["results"] + counts["checks"]
    counts = counts[list(TALLY_COLUMNS)]
    counts.columns.name = None
    if "source" in by and "paper" in by:
        keys = counts.index.to_frame(index=False)
        printed = [
            printed_count(p, table_of(src)) if (p, table_of(src)) in TABLES else pd.NA
            for p, src in zip(keys["paper"], keys["source"], strict=True)
        ]
        counts.insert(0, "printed", pd.array(printed, dtype="Int64"))
    return counts


def _budget_kind(budget: str) -> str:
    """``"recorded"`` for a recording's budget, ``"this build"`` otherwise."""
    return "recorded" if "recorded" in str(budget) else "this build"


def table_accounting(ledger: pd.DataFrame) -> pd.DataFrame:
    """Per replicated table (:data:`fairbook.papers.printed.TABLES`): the numbers it
    prints, and, for this build and for the recorded runs, the ledger's rows and judged
    rows (a verdict other than none), and whether every printed number has its row.

    Returns
    -------
    pandas.DataFrame
        Index ``(paper, table)``; columns ``printed``, ``rows (this build)``,
        ``judged (this build)``, ``rows (recorded)``, ``judged (recorded)`` and
        ``accounted`` (the rows of this build equal the printed numbers; a recorded
        budget, where there is one, too).

    Examples
    --------
    >>> from fairbook_book.replication import Row, replication_table
    >>> t = replication_table([Row(f"x{i}", 1, 1, source="seed 003 Table 3.5")
    ...                        for i in range(18)])
    >>> a = table_accounting(chapter_ledger([t], chapter="07_x").frame)
    >>> a.loc[("seed 003", "Table 3.5")].astype(int).tolist()
    [18, 18, 18, 0, 0, 1]
    """
    records = []
    frame = ledger.assign(
        table=[table_of(s) for s in ledger["source"]] if not ledger.empty else [],
        kind=[_budget_kind(b) for b in ledger["budget"]] if not ledger.empty else [],
    )
    for paper, table in TABLES:
        printed = printed_count(paper, table)
        part = frame[(frame["paper"] == paper) & (frame["table"] == table)]
        record = {"paper": paper, "table": table, "printed": printed}
        for kind in ("this build", "recorded"):
            rows = part[part["kind"] == kind]
            record[f"rows ({kind})"] = len(rows)
            record[f"judged ({kind})"] = int(rows["outcome"].isin(_JUDGED).sum())
        recorded = part.loc[part["kind"] == "recorded"]
        per_budget = recorded.groupby("budget").size()
        record["accounted"] = bool(
            record["rows (this build)"] == printed and (per_budget == printed).all()
        )
        records.append(record)
    return pd.DataFrame.from_records(records).set_index(["paper", "table"])


def _plural(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def _listed(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


#: How each outcome of a result is said, for one and for several (the headline's columns
#: in this order, then the reasons a result is not compared).
_SAID = (
    ("matches", "matches the paper informatively", "match the paper informatively"),
    ("uninformative", "is consistent but uninformative", "are consistent but uninformative"),
    ("differs", "differs", "differ"),
    ("in kind", "agrees in kind on a stand-in", "agree in kind on a stand-in"),
    ("not in kind", "disagrees in kind on a stand-in", "disagree in kind on a stand-in"),
    ("no verdict", "has no verdict", "have no verdict"),
)


def _said(rows: pd.DataFrame) -> str:
    """What the results and the checks among `rows` (ledger rows) came to, in words: the
    counts of :func:`_headline_counts`, the one place that counts them."""
    counts = _headline_counts(rows)
    said = [_plural(counts[o], one, many) for o, one, many in _SAID if counts[o]]
    reasons = {why: counts[f"not compared: {why}"] for why in NOT_COMPARABLE_WHY}
    apart = sum(reasons.values())
    if apart:
        listed = ", ".join(f"{why}: {k}" for why, k in reasons.items() if k)
        said.append(f"{apart} {'is' if apart == 1 else 'are'} not compared ({listed})")
    text = (
        f"of {_plural(counts['results'], 'result', 'results')}, {_listed(said)}"
        if counts["results"]
        else "no result"
    )
    if counts["checks"]:
        checks = rows.loc[rows["kind"] != "result", "kind"].value_counts()
        kinds = ", ".join(f"{int(checks[k])} {k}" for k in KINDS if k in checks)
        held, failed = counts["checks hold"], counts["checks fail"]
        text += (
            f"; besides, {_plural(counts['checks'], 'check', 'checks')} ({kinds}): "
            f"{held} {'holds' if held == 1 else 'hold'}"
        )
        text += f", {failed} {'fails' if failed == 1 else 'fail'}" if failed else ""
    return text


def tally_sentences(ledger: pd.DataFrame) -> list[str]:
    """One sentence per paper table: what its results came to, and its checks apart.

    Examples
    --------
    >>> from fairbook_book.replication import Row, SameSign, replication_table
    >>> t = replication_table([
    ...     Row("a", 0.1, 0.12, rule=SameSign(), low=0.09, high=0.13, n=10,
    ...         source="seed 003 Table 3.4"),
    ...     Row("b", 0.1, -0.2, rule=SameSign(), source="seed 003 Table 3.4"),
    ...     Row("c", 3, 3, rule=SameSign(), source="seed 003 Table 3.4", kind="arithmetic")])
    >>> print(tally_sentences(chapter_ledger([t], chapter="07_x").frame)[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    seed 003 Table 3.4: of 2 results, 1 matches the paper informatively and 1 differs;
    besides, 1 check (1 arithmetic): 1 holds (rule: same sign).
    """
    sentences = []
    for (paper, source), rows in ledger.groupby(["paper", "source"], sort=False):
        rules = ", ".join(dict.fromkeys(_short_rule(r) for r in rows["rule"]))
        sentences.append(f"{paper} {source}: {_said(rows)} (rule: {rules}).")
    return sentences


def replication_line(tables, *, chapter: str, budget: str = "fast") -> str:
    """The one computed sentence under a chapter's Key results: how far it replicates its
    paper(s), from the same rows the ledger lists, with a link to the ledger.

    Only results count as replications; arithmetic on the paper's printed inputs,
    mathematics, data facts and inputs are counted apart as checks.

    Parameters
    ----------
    tables : iterable of DataFrame, or a mapping of names to DataFrames
        The chapter's replication tables (:func:`fairbook_book.replication.replication_table`).
    chapter : str, keyword-only
        The chapter's notebook stem.
    budget : str, keyword-only, default "fast"
        The profile (or recording) the numbers come from.

    Returns
    -------
    str
        A MyST sentence; papers are named by author and year
        (:func:`fairbook.papers.names.paper_name`).

    Examples
    --------
    >>> from fairbook_book.replication import Row, replication_table
    >>> t = replication_table([Row("a", 1, 1, source="seed 003 Table 3.1"),
    ...                        Row("b", 1, 2, source="seed 003 Table 3.1"),
    ...                        Row("c", 1, 1, source="seed 003 Table 3.1", kind="arithmetic")])
    >>> print(replication_line([t], chapter="02_x"))  # doctest: +NORMALIZE_WHITESPACE
    Beside the paper (fast profile): Briscoe 2024 — of 2 results, 1 matches the paper
    informatively and 1 differs; besides, 1 check (1 arithmetic): 1 holds. Every row, its
    kind, rule and verdict are in {doc}`the replication ledger <../book/ledger>`.
    """
    frame = chapter_ledger(tables, chapter=chapter, budget=budget).frame
    link = "{doc}`the replication ledger <../book/ledger>`"
    if frame.empty:
        return (
            f"Beside the paper ({budget} profile): this chapter compares no printed number; "
            f"{link} lists the others."
        )
    parts = [
        f"{paper_name(paper)} — {_said(rows)}" for paper, rows in frame.groupby("paper", sort=False)
    ]
    return (
        f"Beside the paper ({budget} profile): {'; '.join(parts)}. Every row, its kind, rule "
        f"and verdict are in {link}."
    )


def of_record(ledger: pd.DataFrame) -> pd.DataFrame:
    """One row per printed number: its row at a recorded budget where it has one (the
    last such), else its row of this build.

    A number is identified by ``(paper, source, quantity)``; the headline counts these rows.

    Examples
    --------
    >>> frame = pd.DataFrame({"paper": ["p", "p", "p"], "source": ["T", "T", "T"],
    ...                       "quantity": ["a", "a", "b"],
    ...                       "budget": ["fast", "full (recorded 2026-11-25)", "fast"]})
    >>> of_record(frame)["budget"].tolist()
    ['full (recorded 2026-11-25)', 'fast']
    """
    if ledger.empty:
        return ledger
    recorded = ledger["budget"].map(_budget_kind).eq("recorded")
    order = ledger.assign(_recorded=recorded.astype(int), _position=range(len(ledger)))
    order = order.sort_values(["_recorded", "_position"], kind="stable")
    kept = order.drop_duplicates(["paper", "source", "quantity"], keep="last")
    return kept.sort_values("_position").drop(columns=["_recorded", "_position"])


#: The headline's columns: results, how they came out, why some are not compared, checks.
HEADLINE_COLUMNS = (
    "results",
    *(outcome for outcome, _, _ in _SAID if outcome != "no verdict"),
    *(f"not compared: {why}" for why in NOT_COMPARABLE_WHY),
    "no verdict",
    "checks",
    "checks hold",
    "checks fail",
)


def headline(ledger: pd.DataFrame) -> pd.DataFrame:
    """The book's replication headline: per paper (by author and year), each printed number
    once (:func:`of_record`), how its results came out and its checks apart.

    Columns :data:`HEADLINE_COLUMNS` (a reason no number has is left out), and a last row
    ``all papers``.

    Examples
    --------
    >>> from fairbook_book.replication import Row, replication_table
    >>> t = replication_table([Row("a", 1, 1, source="seed 003 Table 3.1"),
    ...                        Row("c", 1, 1, source="seed 003 Table 3.1", kind="arithmetic")])
    >>> h = headline(chapter_ledger([t], chapter="02_x").frame)
    >>> h.loc["Briscoe 2024", ["results", "matches", "checks", "checks hold"]].tolist()
    [1, 1, 1, 1]
    """
    rows = of_record(ledger)
    records = {}
    for paper, part in rows.groupby("paper", sort=False):
        records[paper_name(paper)] = _headline_counts(part)
    if records:
        records["all papers"] = _headline_counts(rows)
    frame = pd.DataFrame.from_dict(records, orient="index", columns=list(HEADLINE_COLUMNS))
    frame = frame.fillna(0).astype(int)
    empty = [c for c in frame.columns if c.startswith("not compared") and not frame[c].any()]
    frame = frame.drop(columns=empty)
    frame.index.name = "paper"
    return frame


def _headline_counts(rows: pd.DataFrame) -> dict:
    """Every column of :data:`HEADLINE_COLUMNS` counted over `rows` (ledger rows)."""
    results = rows[rows["kind"] == "result"]
    checks = rows[rows["kind"] != "result"]
    outcome = results["outcome"].value_counts()
    counts = {"results": len(results)}
    for name, _, _ in _SAID:
        counts[name] = int(outcome.get(name, 0))
    apart = results.loc[results["outcome"] == "not comparable", "reason"].value_counts()
    for why in NOT_COMPARABLE_WHY:
        counts[f"not compared: {why}"] = int(apart.get(why, 0))
    counts["checks"] = len(checks)
    counts["checks hold"] = int((checks["outcome"] == "check holds").sum())
    counts["checks fail"] = int((checks["outcome"] == "check fails").sum())
    return counts


def headline_html(ledger: pd.DataFrame) -> str:
    """The headline (:func:`headline`) as an HTML table: one column per paper and one row
    per outcome (narrow enough for the book's column), results above, checks below.

    Examples
    --------
    >>> "<table" in headline_html(ledger_frame([]))
    True
    """
    table = headline(ledger)
    if table.empty:
        return (
            "<p><em>No executed chapter carries ledger rows in this build.</em></p><table></table>"
        )
    head = "".join(f"<th>{html.escape(str(p))}</th>" for p in ["", *table.index])
    body = []
    for measure in table.columns:
        strong = measure in ("results", "matches", "checks")
        label = f"<strong>{html.escape(measure)}</strong>" if strong else html.escape(measure)
        cells = "".join(f"<td>{int(v)}</td>" for v in table[measure])
        body.append(f"<tr><th>{label}</th>{cells}</tr>")
    return (
        '<div class="fairbook-headline" style="overflow-x:auto">'
        f'<table class="dataframe"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def headline_sentence(ledger: pd.DataFrame) -> str:
    """The headline in one sentence (the README's line), from :func:`headline`.

    Examples
    --------
    >>> from fairbook_book.replication import Row, replication_table
    >>> t = replication_table([Row("a", 1, 1, source="seed 003 Table 3.1")])
    >>> headline_sentence(chapter_ledger([t], chapter="02_x").frame)  # doctest: +ELLIPSIS
    'Of 1 result the four papers print and the book compares, 1 matches informatively...'
    """
    table = headline(ledger)
    if table.empty:
        return "The book compares no printed number yet."
    total = table.loc["all papers"]
    not_compared = int(sum(v for c, v in total.items() if c.startswith("not compared")))
    parts = [_plural(int(total["matches"]), "matches informatively", "match informatively")]
    parts.append(f"{int(total['uninformative'])} consistent but uninformative")
    parts.append(f"{int(total['differs'])} {'differs' if total['differs'] == 1 else 'differ'}")
    parts.append(f"{int(total['in kind'] + total['not in kind'])} on stand-ins")
    parts.append(f"{not_compared} not compared")
    return (
        f"Of {_plural(int(total['results']), 'result', 'results')} the four papers print and "
        f"the book compares, {_listed(parts)}; {int(total['checks'])} further numbers "
        f"(arithmetic, mathematics, data facts, inputs) are checks, "
        f"{int(total['checks hold'])} of which hold."
    )


def _short_rule(text: str) -> str:
    """A rule's name without its parenthesised details (the ledger row has them).

    Examples
    --------
    >>> _short_rule("check of our reading, not a replication (why; exact (equal))")
    'check of our reading, not a replication'
    """
    out, depth = [], 0
    for char in str(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(char)
    return re.sub(r"\s+", " ", "".join(out)).replace(" +", " +").strip()


class ChapterLedger:
    """A chapter's ledger rows; displayed as its tallies in words, carrying the rows.

    In a notebook the cell's output shows the tallies (Markdown) and stores the rows in
    the output's metadata (:data:`METADATA_KEY`), where :func:`read_executed` finds them.
    """

    def __init__(self, frame: pd.DataFrame, *, chapter: str, budget: str):
        self.frame = frame
        self.chapter = chapter
        self.budget = budget

    def to_markdown(self) -> str:
        """The tallies in words, one line per paper table."""
        if self.frame.empty:
            return f"No paper numbers are compared in this chapter ({self.budget} profile)."
        lines = [
            f"**Replication tally** ({self.budget} profile; "
            f"{_plural(len(self.frame), 'paper number', 'paper numbers')}, "
            "the same rows the book's ledger lists):",
            "",
        ]
        lines += [f"- {s}" for s in tally_sentences(self.frame)]
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None):
        text = self.to_markdown()
        records = json.loads(self.frame.to_json(orient="records", force_ascii=False))
        metadata = {METADATA_KEY: {"chapter": self.chapter, "budget": self.budget, "rows": records}}
        return {"text/markdown": text, "text/plain": text}, metadata

    def __repr__(self) -> str:
        return self.to_markdown()


def chapter_ledger(tables, *, chapter: str, budget: str = "fast") -> ChapterLedger:
    """Collect a chapter's replication tables into its ledger rows.

    Parameters
    ----------
    tables : iterable of DataFrame, or a mapping of names to DataFrames
        Tables made by :func:`fairbook_book.replication.replication_table`.
    chapter : str
        The chapter's notebook stem (``"04_uncertainty_fairness"``), for the ledger's link.
    budget : str, default "fast"
        The profile (or recording) the numbers come from.

    Examples
    --------
    >>> from fairbook_book.replication import Row, replication_table
    >>> t = replication_table([Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1")])
    >>> print(chapter_ledger([t], chapter="02_objective_fairness_index").to_markdown())
    **Replication tally** (fast profile; 1 paper number, the same rows the book's ledger lists):
    <BLANKLINE>
    - seed 003 Table 3.1: of 1 result, 1 matches the paper informatively (rule: rounding).
    """
    if not isinstance(chapter, str) or not chapter:
        raise ValueError(f"chapter must be the notebook's stem, not {chapter!r}")
    if isinstance(tables, Mapping):
        tables = tables.values()
    records = [
        _record(row, chapter=chapter, budget=budget) for table in tables for row in _rows_of(table)
    ]
    return ChapterLedger(ledger_frame(records), chapter=chapter, budget=budget)


def read_executed(folder) -> pd.DataFrame:
    """The ledger of every executed chapter in `folder` (``*.ipynb``), in file order.

    Raises
    ------
    ValueError
        If `folder` is not a folder, or a notebook in it cannot be read, is not UTF-8 JSON,
        is not shaped as a notebook, or carries ledger rows of the wrong shape (the message
        names the file and what is wrong in one line).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> read_executed(folder).empty
    True
    >>> _ = (folder / "01_x.ipynb").write_bytes(b"\\xff\\xfe{")
    >>> read_executed(folder)
    Traceback (most recent call last):
    ...
    ValueError: 01_x.ipynb is not an executed chapter: not UTF-8 text (byte 0x... at 0)
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of executed chapters")
    records = []
    for path in sorted(folder.glob("*.ipynb")):
        records.extend(_carried_rows(path))
    return ledger_frame(records)


def _carried_rows(path: Path) -> list[dict]:
    """The ledger rows one executed notebook carries; ``ValueError`` naming the file and
    the problem if it is not a readable notebook or its rows are not ledger rows."""

    def bad(problem: str) -> ValueError:
        return ValueError(f"{path.name} is not an executed chapter: {problem}")

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise bad(f"cannot be read ({exc.strerror or type(exc).__name__})") from None
    try:
        notebook = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise bad(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at {exc.start})") from None
    except ValueError as exc:  # json.JSONDecodeError, or a recursion/number limit
        where = f" (line {exc.lineno}, column {exc.colno})" if hasattr(exc, "lineno") else ""
        raise bad(f"not JSON{where}; rebuild it") from None
    except RecursionError:
        raise bad("JSON nested too deeply") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells", []), list):
        raise bad("not a notebook (a JSON object with a list of cells)")
    rows = []
    for number, cell in enumerate(notebook.get("cells", []), 1):
        outputs = cell.get("outputs", []) if isinstance(cell, dict) else None
        if not isinstance(outputs, list):
            raise bad(f"cell {number} is not a notebook cell")
        for output in outputs:
            metadata = output.get("metadata", {}) if isinstance(output, dict) else None
            if not isinstance(metadata, dict):
                raise bad(f"an output of cell {number} is not a notebook output")
            carried = metadata.get(METADATA_KEY)
            if not carried:
                continue
            found = carried.get("rows") if isinstance(carried, dict) else None
            if not isinstance(found, list):
                raise bad(f"cell {number} carries {METADATA_KEY} without a list of rows")
            for index, row in enumerate(found, 1):
                missing = [f for f in FIELDS if f not in row] if isinstance(row, dict) else None
                if missing is None:
                    raise bad(f"ledger row {index} of cell {number} is not a JSON object")
                if missing:
                    raise bad(f"ledger row {index} of cell {number} lacks {', '.join(missing)}")
                if row["outcome"] not in _OUTCOMES:
                    raise bad(
                        f"ledger row {index} of cell {number} has outcome "
                        f"{str(row['outcome'])[:40]!r}, not one of {list(_OUTCOMES)}"
                    )
            rows.extend(found)
    return rows


def _slug(text: str) -> str:
    """An HTML id's piece: lower case letters, digits and hyphens.

    Examples
    --------
    >>> _slug("Table 3.1 (cells): OFI (A)")
    'table-3-1-cells-ofi-a'
    """
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


def budget_label(budget: str) -> str:
    """A budget as a reader sees it: the profile and the recording's date, without the
    commits that made it (the recording's provenance keeps those).

    Examples
    --------
    >>> budget_label("full (recorded 2026-11-25, b494b1c+, e67b080+)")
    'full (recorded 2026-11-25)'
    >>> budget_label("fast")
    'fast'
    """
    return re.sub(r",\s*[0-9a-f]{7,40}\+?", "", str(budget))


def row_anchor(record: Mapping) -> str:
    """The permalink id of a ledger row (paper, source, quantity, budget): stable between
    builds, so a citation can point at one number (``ledger.html#r-…``).

    Examples
    --------
    >>> row_anchor({"paper": "seed 003", "source": "Table 3.1", "quantity": "OFI (A)",
    ...             "budget": "fast"})
    'r-seed-003-table-3-1-ofi-a-fast'
    """
    budget = budget_label(record["budget"]).replace("recorded ", "")
    parts = (record["paper"], record["source"], record["quantity"], budget)
    return "r-" + "-".join(_slug(p) for p in parts)


_ROW_HEAD = (
    "quantity",
    "kind",
    "paper",
    "ours (95 % interval, n)",
    "verdict",
    "outcome",
    "budget",
    "note",
    "chapter",
)
_ROW_WIDTHS = ("15%", "7%", "8%", "13%", "18%", "8%", "8%", "16%", "7%")


def _cell(value, digits=4) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return significant(value, digits=digits)  # fixed-point: no 2.593e+04
    return html.escape(str(value))


def _row_html(rec: Mapping, anchor: str, chapter_url: str) -> str:
    ours = _cell(rec["ours"])
    if _cell(rec["low"]) != "":
        ours += f" [{_cell(rec['low'], 3)}, {_cell(rec['high'], 3)}]"
    if _cell(rec["n"]) != "":
        ours += f" (n = {_cell(rec['n'])})"
    paper_value = _cell(rec["paper_value"])
    notes = []
    if rec.get("derived"):
        paper_value += " (derived)"
        notes.append(f"paper value derived: {html.escape(str(rec['derived']))}")
    if rec.get("reason"):
        notes.append(f"not compared: {html.escape(str(rec['reason']))}")
    if rec.get("note"):
        notes.append(_cell(rec["note"]))
    link = html.escape(chapter_url.format(chapter=rec["chapter"]))
    chapter = str(rec["chapter"])[:2]
    outcome = html.escape(str(rec["outcome"]))
    cells = [
        f'<a href="#{anchor}" title="link to this row">{_cell(rec["quantity"])}</a>',
        _cell(rec["kind"]),
        paper_value,
        ours,
        f'<span title="{html.escape(str(rec["rule"]))}">{_cell(rec["verdict"])}</span>',
        outcome,
        html.escape(budget_label(rec["budget"])),
        "; ".join(notes),
        f'<a href="{link}">{html.escape(chapter)}</a>',
    ]
    colour = _OUTCOME_COLOURS.get(rec["outcome"], "")
    return (
        f'<tr id="{anchor}" data-outcome="{outcome}" data-kind="{_cell(rec["kind"])}" '
        f'style="background:{colour}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
    )


def _table_html(rows: list[str]) -> str:
    cols = "".join(f'<col style="width:{w}">' for w in _ROW_WIDTHS)
    head = "".join(f"<th>{h}</th>" for h in _ROW_HEAD)
    return (
        '<table class="dataframe fb-ledger-rows" style="table-layout:fixed;width:100%;'
        'overflow-wrap:anywhere;font-size:0.8em">'
        f"<colgroup>{cols}</colgroup><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def ledger_html(ledger: pd.DataFrame, *, chapter_url: str = "{chapter}.html") -> str:
    """The ledger as folded sections, one per paper and, inside, one per table (its tally
    and rules in the summary line), with a filter box over every row (no network).

    Each row has a permalink anchor (:func:`row_anchor`); opening the page at one, or
    typing in the filter, unfolds the sections that hold the rows. The filter runs in the
    static page: a few lines of inline JavaScript.

    Examples
    --------
    >>> "fb-ledger-filter" in ledger_html(ledger_frame([]))
    True
    """
    sections = []
    seen: dict[str, int] = {}
    for paper, part in ledger.groupby("paper", sort=False):
        tables = []
        for source, rows in part.groupby("source", sort=False):
            rendered = []
            for rec in rows.to_dict("records"):
                anchor = row_anchor(rec)
                seen[anchor] = seen.get(anchor, 0) + 1
                if seen[anchor] > 1:
                    anchor = f"{anchor}-{seen[anchor]}"
                rendered.append(_row_html(rec, anchor, chapter_url))
            tally = " · ".join(
                f"<em>{html.escape(budget_label(b))}</em>: {html.escape(_said(r))}"
                for b, r in rows.groupby("budget", sort=False)
            )
            rules = "".join(f"<li>{html.escape(str(r))}</li>" for r in dict.fromkeys(rows["rule"]))
            tables.append(
                f'<details class="fb-ledger-table" id="t-{_slug(paper)}-{_slug(source)}">'
                f"<summary><strong>{html.escape(str(source))}</strong> — {tally}</summary>"
                f'<p style="font-size:0.85em">Rules in this table:</p>'
                f'<ul style="font-size:0.85em">{rules}</ul>{_table_html(rendered)}</details>'
            )
        record = of_record(part)
        code = f" ({html.escape(paper)})" if paper_name(paper) != paper else ""
        sections.append(
            f'<details class="fb-ledger-paper" id="p-{_slug(paper)}">'
            f"<summary><strong>{html.escape(paper_name(paper))}</strong>{code}"
            f" — each printed number once: {html.escape(_said(record))}</summary>"
            f'<div style="margin-left:1em">{"".join(tables)}</div></details>'
        )
    kinds = "".join(f'<option value="{k}">{k}</option>' for k in KINDS)
    outcomes = "".join(f'<option value="{o}">{o}</option>' for o in _OUTCOMES)
    return (
        '<div class="fairbook-ledger">'
        '<p><input type="search" id="fb-ledger-filter" placeholder="filter every row: '
        'table, quantity, verdict, note, chapter…" style="width:100%"></p>'
        '<p><label>kind <select id="fb-ledger-kind"><option value="">any</option>'
        f"{kinds}</select></label> "
        '<label>outcome <select id="fb-ledger-outcome"><option value="">any</option>'
        f'{outcomes}</select></label> <span id="fb-ledger-count"></span></p>'
        + "".join(sections)
        + "<script>(function(){"
        "var box=document.getElementById('fb-ledger-filter'),"
        "kind=document.getElementById('fb-ledger-kind'),"
        "outcome=document.getElementById('fb-ledger-outcome'),"
        "count=document.getElementById('fb-ledger-count'),"
        "rows=document.querySelectorAll('.fairbook-ledger tbody tr'),"
        "folds=document.querySelectorAll('.fairbook-ledger details');"
        "function apply(){var q=box.value.toLowerCase(),k=kind.value,o=outcome.value,"
        "active=q||k||o,n=0;folds.forEach(function(d){d.style.display='';"
        "if(active){d.open=false;}});"
        "rows.forEach(function(r){var show=r.textContent.toLowerCase().indexOf(q)>=0"
        "&&(!k||r.dataset.kind===k)&&(!o||r.dataset.outcome===o);"
        "r.style.display=show?'':'none';if(show){n++;if(active){"
        "for(var e=r.parentElement;e;e=e.parentElement){if(e.tagName==='DETAILS')e.open=true;}}}});"
        "if(active){folds.forEach(function(d){if(!d.open)d.style.display='none';});}"
        "count.textContent=active?(n+' of '+rows.length+' rows match the filter'):"
        "(rows.length+' rows, folded by paper and table');}"
        "function reveal(){var id=decodeURIComponent(location.hash.slice(1));"
        "var t=id&&document.getElementById(id);if(!t)return;"
        "for(var e=t;e;e=e.parentElement){if(e.tagName==='DETAILS')e.open=true;}"
        "t.scrollIntoView();t.style.outline='2px solid #1565c0';}"
        "[box,kind,outcome].forEach(function(c){c.addEventListener('input',apply);"
        "c.addEventListener('change',apply);});"
        "window.addEventListener('hashchange',reveal);apply();reveal();})();</script></div>"
    )


def write_ledger(ledger: pd.DataFrame, path) -> Path:
    """Write the ledger as CSV or JSON (by the file's suffix); returns the path.

    Text cells that a spreadsheet would run as a formula are prefixed with an apostrophe in
    the CSV (:func:`fairbook.safe_csv.write_csv`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = write_ledger(ledger_frame([]), pathlib.Path(tempfile.mkdtemp()) / "ledger.json")
    >>> p.read_text()
    '[]'
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        text = ledger.to_json(orient="records", force_ascii=False)
        write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    elif suffix == ".csv":
        write_csv(ledger, path, index=False)
    else:
        raise ValueError(f"write the ledger to a .csv or .json file, not {path.name!r}")
    return path


#: What identifies a ledger row between two builds.
ROW_KEY = ("paper", "source", "quantity", "chapter", "budget")


def read_ledger(path) -> pd.DataFrame:
    """Read a ledger written by :func:`write_ledger` (``.csv`` or ``.json``), every cell as
    text; a clear ``ValueError`` for a file that is not one.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = write_ledger(ledger_frame([]), pathlib.Path(tempfile.mkdtemp()) / "l.csv")
    >>> read_ledger(p).empty
    True
    """
    path = Path(path)
    try:
        if path.suffix.lower() == ".json":
            records = json.loads(path.read_text(encoding="utf-8"))
            # a ledger's JSON is a list of flat records: anything else (null, a number, a
            # nested structure) is not a ledger, not an empty one
            if not isinstance(records, list) or not all(
                isinstance(r, dict)
                and all(v is None or isinstance(v, (str, int, float, bool)) for v in r.values())
                for r in records
            ):
                raise ValueError("its JSON is not a list of rows of plain values")
            frame = pd.DataFrame(records)
        else:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except FileNotFoundError:
        raise ValueError(f"no ledger at {path}") from None
    except RecursionError:
        raise ValueError(f"{path} is not a ledger: its JSON is nested too deeply") from None
    except (OSError, UnicodeDecodeError, ValueError, pd.errors.ParserError) as exc:
        raise ValueError(f"{path} is not a ledger: {exc}") from None
    if frame.empty and not len(frame.columns):
        return ledger_frame([]).astype(str)
    missing = [c for c in (*ROW_KEY, "ours", "outcome") if c not in frame.columns]
    if missing:
        raise ValueError(f"{path} is not a ledger: it has no column {', '.join(missing)}")
    return frame.astype(str)


def _same_value(a, b) -> bool:
    """Two ledger values as one: numbers within 1e-9 relative (a CSV keeps 10 decimals), an
    empty cell and NaN both missing, other text equal."""

    def read(value):
        text = "" if value is None else str(value).strip()
        try:
            number = float(text)
        except ValueError:
            return text
        return None if math.isnan(number) else number

    x, y = read(a), read(b)
    if x in ("", None) and y in ("", None):
        return True
    if isinstance(x, float) and isinstance(y, float):
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)
    return x == y


def compare_ledgers(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """The rows of two builds' ledgers that differ: a verdict (``outcome``) that changed,
    a row's kind that changed (``kind``; only when both ledgers have the column), a value
    of ours that changed with the same verdict, a row added or removed.

    Rows are matched by :data:`ROW_KEY` (and their order among rows with the same key).

    Returns
    -------
    pandas.DataFrame
        One row per difference: the key, ``change`` (``verdict``, ``kind``, ``value``,
        ``added``, ``removed``), ``old_kind``, ``new_kind``, ``old_ours``, ``new_ours``,
        ``old_outcome``, ``new_outcome``. A ledger from before the kind column has
        ``old_kind`` empty.

    Examples
    --------
    >>> old = pd.DataFrame({"paper": ["p", "p"], "source": ["T1", "T1"], "quantity": ["a", "b"],
    ...                     "chapter": ["01", "01"], "budget": ["fast", "fast"],
    ...                     "ours": ["1.0", "2.0"], "outcome": ["matches", "matches"]})
    >>> new = old.assign(ours=["1.0", "3.0"], outcome=["matches", "differs"])
    >>> compare_ledgers(old, new)[["quantity", "change", "old_outcome", "new_outcome"]]
      quantity   change old_outcome new_outcome
    0        b  verdict     matches     differs
    """
    key = list(ROW_KEY)
    with_kind = "kind" in old.columns and "kind" in new.columns

    def keyed(frame):
        frame = frame.astype(str).copy()
        frame["_nth"] = frame.groupby(key).cumcount()
        if "kind" not in frame.columns:
            frame["kind"] = ""
        return frame[[*key, "_nth", "kind", "ours", "outcome"]]

    both = keyed(old).merge(
        keyed(new), on=[*key, "_nth"], how="outer", suffixes=("_old", "_new"), indicator=True
    )
    change = pd.Series("", index=both.index, dtype=object)
    change[both["_merge"] == "left_only"] = "removed"
    change[both["_merge"] == "right_only"] = "added"
    matched = both["_merge"] == "both"
    same_verdict = both["outcome_old"] == both["outcome_new"]
    same_value = pd.Series(
        [_same_value(a, b) for a, b in zip(both["ours_old"], both["ours_new"], strict=True)],
        index=both.index,
    )
    same_kind = (both["kind_old"] == both["kind_new"]) | (not with_kind)
    change[matched & same_verdict & same_kind & ~same_value] = "value"
    change[matched & ~same_kind] = "kind"
    change[matched & ~same_verdict] = "verdict"
    both["change"] = change
    out = both[both["change"] != ""].rename(
        columns={
            "kind_old": "old_kind",
            "kind_new": "new_kind",
            "ours_old": "old_ours",
            "ours_new": "new_ours",
            "outcome_old": "old_outcome",
            "outcome_new": "new_outcome",
        }
    )
    columns = [*key, "change", "old_kind", "new_kind", "old_ours", "new_ours"]
    columns += ["old_outcome", "new_outcome"]
    return out[columns].fillna("").reset_index(drop=True)
