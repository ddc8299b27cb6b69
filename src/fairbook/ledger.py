"""The book-wide replication ledger: every paper number the book compares, one row each.

Each chapter ends with :func:`chapter_ledger` over its replication tables (the tables of
:func:`fairbook.replication.replication_table`, whose :class:`~fairbook.replication.Row`
objects travel in ``attrs["rows"]``). That cell shows the chapter's tallies in words and
carries the rows, as JSON, in the output's metadata under :data:`METADATA_KEY`. The executed
notebooks are therefore the record: :func:`read_executed` collects the rows of every chapter
into one table, which the ledger page shows, the build writes to ``_build/html/ledger.csv``
and ``ledger.json``, and ``fairbook ledger`` prints.

A row *matches* when every rule of the row passes and its window is informative; it is
*uninformative* (consistent but saying little) when it passes with an interval or tolerance
wider than :data:`fairbook.replication.INFORMATIVE_WIDTH` × |paper| or holding 0; it
*differs* when a rule fails; it has *no verdict* when a rule cannot judge (undefined on a
side, not comparable, a single seed, a check of our own reading). The ``rule`` column states
every rule in full, with its widenings and tolerances. *Judged* rows are those with a
verdict (matches, uninformative, differs); :func:`table_accounting` sets each replicated
table's printed numbers (:mod:`fairbook.papers.printed`) beside its rows and judged rows.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from fairbook.formatting import significant
from fairbook.papers.names import paper_name
from fairbook.papers.printed import TABLES, printed_count, table_of
from fairbook.replication import OUTCOMES, Row
from fairbook.safe_csv import write_csv

__all__ = [
    "FIELDS",
    "METADATA_KEY",
    "ROW_KEY",
    "ChapterLedger",
    "chapter_ledger",
    "compare_ledgers",
    "ledger_frame",
    "ledger_html",
    "read_executed",
    "read_ledger",
    "replication_line",
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
    "paper_value",
    "ours",
    "low",
    "high",
    "n",
    "rule",
    "verdict",
    "outcome",
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
    "no verdict": "#f2f2f2",
}
_JUDGED = ("matches", "uninformative", "differs")


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
        "paper_value": _number(row.paper),
        "ours": _number(row.ours),
        "low": _number(row.low),
        "high": _number(row.high),
        "n": row.n,
        "rule": row.rule_text,
        "verdict": row.verdict,
        "outcome": row.outcome,
        "note": note,
        "chapter": chapter,
        "budget": budget,
    }


def _rows_of(table) -> tuple[Row, ...]:
    rows = getattr(table, "attrs", {}).get("rows")
    if rows is None:
        raise ValueError(
            "a ledger table must come from fairbook.replication.replication_table "
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


def tallies(ledger: pd.DataFrame, *, by=("paper",)) -> pd.DataFrame:
    """Rows, judged rows, matches (informative), consistent but uninformative rows,
    differences and rows without a verdict, per group of `by`.

    When `by` includes ``"source"``, a column ``printed`` gives the number of printed
    numbers of the table the source belongs to (:mod:`fairbook.papers.printed`; empty for
    a figure, theorem or section).

    Examples
    --------
    >>> from fairbook.replication import Row, replication_table
    >>> t = replication_table([Row("a", 1, 1, source="seed 003 Table 3.1"),
    ...                        Row("b", 1, 2, source="seed 003 Table 3.1")])
    >>> tallies(chapter_ledger([t], chapter="02_x").frame)  # doctest: +NORMALIZE_WHITESPACE
              rows  judged  matches  uninformative  differs  no verdict
    paper
    seed 003     2       2        1              0        1           0
    """
    by = list(by)
    columns = ["rows", "judged", *_OUTCOMES]
    if ledger.empty:
        return pd.DataFrame(columns=columns)
    counts = pd.crosstab([ledger[c] for c in by], ledger["outcome"])
    for outcome in _OUTCOMES:
        if outcome not in counts:
            counts[outcome] = 0
    counts = counts[list(_OUTCOMES)]
    counts.insert(0, "judged", counts[list(_JUDGED)].sum(axis=1))
    counts.insert(0, "rows", counts[list(_OUTCOMES)].sum(axis=1))
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
    >>> from fairbook.replication import Row, replication_table
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


def tally_sentences(ledger: pd.DataFrame) -> list[str]:
    """One sentence per paper table: how many rows match, differ or have no verdict.

    Examples
    --------
    >>> from fairbook.replication import Row, SameSign, replication_table
    >>> t = replication_table([Row("a", 0.1, 0.3, rule=SameSign(), source="seed 003 Table 3.4"),
    ...                        Row("b", 0.1, -0.2, rule=SameSign(), source="seed 003 Table 3.4")])
    >>> tally_sentences(chapter_ledger([t], chapter="07_x").frame)
    ['seed 003 Table 3.4: 1 of 2 rows match, 1 differs (rule: same sign).']
    """
    sentences = []
    for (paper, source), rows in ledger.groupby(["paper", "source"], sort=False):
        counts = rows["outcome"].value_counts()
        parts = [f"{counts.get('matches', 0)} of {len(rows)} rows match"]
        if counts.get("uninformative", 0):
            parts.append(f"{counts['uninformative']} consistent but uninformative")
        if counts.get("differs", 0):
            parts.append(f"{counts['differs']} {'differs' if counts['differs'] == 1 else 'differ'}")
        if counts.get("no verdict", 0):
            parts.append(f"{counts['no verdict']} without a verdict")
        rules = ", ".join(dict.fromkeys(_short_rule(r) for r in rows["rule"]))
        sentences.append(f"{paper} {source}: {', '.join(parts)} (rule: {rules}).")
    return sentences


def replication_line(tables, *, chapter: str, budget: str = "fast") -> str:
    """The one computed sentence under a chapter's Key results: how far it replicates its
    paper(s), from the same rows the ledger lists, with a link to the ledger.

    Parameters
    ----------
    tables : iterable of DataFrame, or a mapping of names to DataFrames
        The chapter's replication tables (:func:`fairbook.replication.replication_table`).
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
    >>> from fairbook.replication import Row, replication_table
    >>> t = replication_table([Row("a", 1, 1, source="seed 003 Table 3.1"),
    ...                        Row("b", 1, 2, source="seed 003 Table 3.1")])
    >>> print(replication_line([t], chapter="02_x"))  # doctest: +NORMALIZE_WHITESPACE
    Beside the paper (fast profile): of 2 numbers printed in Briscoe 2024 that this chapter
    compares, 1 agrees within its rule and 1 differs; every row, its rule and its verdict
    are in {doc}`the replication ledger <../book/ledger>`.
    """
    frame = chapter_ledger(tables, chapter=chapter, budget=budget).frame
    link = "{doc}`the replication ledger <../book/ledger>`"
    if frame.empty:
        return (
            f"Beside the paper ({budget} profile): this chapter compares no printed number; "
            f"{link} lists the others."
        )
    parts = []
    for paper, rows in frame.groupby("paper", sort=False):
        counts = rows["outcome"].value_counts()
        total = len(rows)
        said = []
        for outcome, one, many in (
            ("matches", "agrees within its rule", "agree within their rule"),
            (
                "uninformative",
                "is consistent but uninformative",
                "are consistent but uninformative",
            ),
            ("differs", "differs", "differ"),
            ("no verdict", "has no verdict", "have no verdict"),
        ):
            k = int(counts.get(outcome, 0))
            if k:
                said.append(f"{k} {one if k == 1 else many}")
        words = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        noun = "number" if total == 1 else "numbers"
        parts.append(
            f"of {total} {noun} printed in {paper_name(paper)} that this chapter compares, {words}"
        )
    return (
        f"Beside the paper ({budget} profile): {'; '.join(parts)}; every row, its rule and its "
        f"verdict are in {link}."
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
            f"**Replication tally** ({self.budget} profile; {len(self.frame)} paper numbers, "
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
        Tables made by :func:`fairbook.replication.replication_table`.
    chapter : str
        The chapter's notebook stem (``"04_uncertainty_fairness"``), for the ledger's link.
    budget : str, default "fast"
        The profile (or recording) the numbers come from.

    Examples
    --------
    >>> from fairbook.replication import Row, replication_table
    >>> t = replication_table([Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1")])
    >>> print(chapter_ledger([t], chapter="02_objective_fairness_index").to_markdown())
    **Replication tally** (fast profile; 1 paper numbers, the same rows the book's ledger lists):
    <BLANKLINE>
    - seed 003 Table 3.1: 1 of 1 rows match (rule: rounding).
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


def ledger_html(ledger: pd.DataFrame, *, chapter_url: str = "{chapter}.html") -> str:
    """The ledger as one HTML table with a filter box and outcome buttons (no network).

    The filter works in the static page: a few lines of inline JavaScript hide the rows
    that do not contain the typed text or the chosen outcome.

    Examples
    --------
    >>> "<table" in ledger_html(ledger_frame([]))
    True
    """
    head = ["paper", "source", "quantity", "paper value", "ours", "95 % interval", "n"]
    head += ["rule", "verdict", "note", "chapter"]

    def cell(value, digits=4):
        if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
            return ""
        if isinstance(value, float):
            return significant(value, digits=digits)  # fixed-point: no 2.593e+04
        return html.escape(str(value))

    body = []
    for rec in ledger.to_dict("records"):
        interval = (
            f"[{cell(rec['low'], 3)}, {cell(rec['high'], 3)}]" if cell(rec["low"]) != "" else ""
        )
        link = html.escape(chapter_url.format(chapter=rec["chapter"]))
        cells = [
            cell(rec["paper"]),
            cell(rec["source"]),
            cell(rec["quantity"]),
            cell(rec["paper_value"]),
            cell(rec["ours"]),
            interval,
            cell(rec["n"]),
            cell(rec["rule"]),
            cell(rec["verdict"]),
            cell(rec["note"]),
            f'<a href="{link}">{cell(rec["chapter"])}</a>',
        ]
        outcome = html.escape(str(rec["outcome"]))
        colour = _OUTCOME_COLOURS.get(rec["outcome"], "")
        body.append(
            f'<tr data-outcome="{outcome}" style="background:{colour}" title="{outcome}">'
            + "".join(f"<td>{c}</td>" for c in cells)
            + "</tr>"
        )
    buttons = "".join(
        f'<label><input type="radio" name="fb-outcome" value="{v}"{" checked" if v == "" else ""}>'
        f" {v or 'all'}</label> "
        for v in ("", *_OUTCOMES)
    )
    return (
        '<div class="fairbook-ledger">'
        '<p><input type="search" id="fb-ledger-filter" placeholder="filter: paper, table, '
        'quantity, rule, chapter…" style="width:100%"></p>'
        f'<p>{buttons}<span id="fb-ledger-count"></span></p>'
        '<p style="font-size:0.85em">Rows are shaded by outcome: green matches, amber '
        "consistent but uninformative, red differs, grey no verdict.</p>"
        '<div style="overflow-x:auto;font-size:0.85em"><table id="fb-ledger" class="dataframe">'
        "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>"
        "<tbody>" + "".join(body) + "</tbody></table></div>"
        "<script>(function(){"
        "var box=document.getElementById('fb-ledger-filter'),"
        "rows=document.querySelectorAll('#fb-ledger tbody tr'),"
        "count=document.getElementById('fb-ledger-count');"
        "function apply(){var q=box.value.toLowerCase(),"
        "o=(document.querySelector('input[name=fb-outcome]:checked')||{}).value||'',n=0;"
        "rows.forEach(function(r){var show=r.textContent.toLowerCase().indexOf(q)>=0"
        "&&(!o||r.dataset.outcome===o);r.style.display=show?'':'none';if(show)n++;});"
        "count.textContent=' '+n+' of '+rows.length+' rows shown';}"
        "box.addEventListener('input',apply);"
        "document.querySelectorAll('input[name=fb-outcome]').forEach(function(b){"
        "b.addEventListener('change',apply);});apply();})();</script></div>"
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
        path.write_text(ledger.to_json(orient="records", force_ascii=False), encoding="utf-8")
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
    a value of ours that changed with the same verdict, a row added or removed.

    Rows are matched by :data:`ROW_KEY` (and their order among rows with the same key).

    Returns
    -------
    pandas.DataFrame
        One row per difference: the key, ``change`` (``verdict``, ``value``, ``added``,
        ``removed``), ``old_ours``, ``new_ours``, ``old_outcome``, ``new_outcome``.

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

    def keyed(frame):
        frame = frame.astype(str).copy()
        frame["_nth"] = frame.groupby(key).cumcount()
        return frame[[*key, "_nth", "ours", "outcome"]]

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
    change[matched & ~same_verdict] = "verdict"
    change[matched & same_verdict & ~same_value] = "value"
    both["change"] = change
    out = both[both["change"] != ""].rename(
        columns={
            "ours_old": "old_ours",
            "ours_new": "new_ours",
            "outcome_old": "old_outcome",
            "outcome_new": "new_outcome",
        }
    )
    columns = [*key, "change", "old_ours", "new_ours", "old_outcome", "new_outcome"]
    return out[columns].fillna("").reset_index(drop=True)
