"""Tests of fairbook_book.ledger: rows in, tallies and the executed-notebook round trip out."""

import ast
import importlib
import json
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from IPython.core.formatters import DisplayFormatter

from fairbook_book.ledger import (
    FIELDS,
    METADATA_KEY,
    chapter_ledger,
    ledger_html,
    read_executed,
    tallies,
    tally_sentences,
    write_ledger,
)
from fairbook_book.replication import (
    Flag,
    Interval,
    NotComparable,
    Row,
    SameSign,
    replication_table,
)


@pytest.fixture
def tables():
    t1 = replication_table(
        [
            Row("OFI (A)", -0.06, -0.0556, source="seed 003 Table 3.1"),
            Row("DI (B)", float("nan"), float("nan"), source="seed 003 Table 3.1"),
            Row("OFI (C)", 0.3, 0.1, source="seed 003 Table 3.1"),
        ]
    )
    t2 = replication_table(
        [
            Row.from_samples(
                "SD1 F_SP",
                1.3,
                [1.2, 1.25, 1.4, 1.5],
                rule=(Flag(), Interval()),
                source="seed 000 Table 1",
            ),
            Row("Levene p", 5e-4, 4.9e-4, rule=NotComparable("other data"), source="seed 004"),
            Row("improves", 0.04, -0.1, rule=SameSign(), source="seed 003 Table 3.4"),
        ]
    )
    return {"3.1": t1, "mixed": t2}


def test_rows_become_ledger_records(tables):
    frame = chapter_ledger(tables, chapter="02_x").frame
    assert frame.columns.tolist() == list(FIELDS)
    assert len(frame) == 6
    assert frame["outcome"].tolist() == [
        "matches",
        "no verdict",
        "differs",
        "matches",
        "not comparable",
        "differs",
    ]
    assert frame["kind"].unique().tolist() == ["result"]
    assert frame.set_index("quantity").loc["Levene p", "reason"] == "not attempted"
    sd1 = frame.set_index("quantity").loc["SD1 F_SP"]
    assert sd1["n"] == 4 and sd1["low"] < 1.3 < sd1["high"] and "median of 4, IQR" in sd1["note"]
    assert frame.set_index("quantity").loc["Levene p", "source"] == "(whole paper)"


def test_tallies_count_every_row_once(tables):
    frame = chapter_ledger(tables, chapter="02_x").frame
    by_paper = tallies(frame)
    assert by_paper["rows"].sum() == len(frame)
    # rows, results, judged, matches, uninformative, differs, in kind, not in kind,
    # not comparable, no verdict, checks, check holds, check fails
    assert by_paper.loc["seed 003"].tolist() == [4, 4, 3, 1, 0, 2, 0, 0, 0, 1, 0, 0, 0]
    by_table = tallies(frame, by=("paper", "source"))
    assert by_table.loc[("seed 003", "Table 3.1"), "matches"] == 1


def test_tally_sentences_name_table_counts_and_rules(tables):
    sentences = tally_sentences(chapter_ledger(tables, chapter="02_x").frame)
    assert sentences[0] == (
        "seed 003 Table 3.1: of 3 results, 1 matches the paper informatively, 1 differs and "
        "1 has no verdict (rule: rounding)."
    )
    assert any("flag + interval" in s for s in sentences)


def test_a_row_without_a_paper_is_refused():
    t = replication_table([Row("x", 1, 1, source="Table 3")])
    with pytest.raises(ValueError, match="names no paper"):
        chapter_ledger([t], chapter="01_x")


def test_a_table_not_made_of_rows_is_refused():
    with pytest.raises(ValueError, match="replication_table"):
        chapter_ledger([pd.DataFrame({"a": [1]})], chapter="01_x")


def test_the_display_carries_the_rows_in_metadata(tables):
    data, metadata = DisplayFormatter().format(chapter_ledger(tables, chapter="02_x"))
    assert data["text/markdown"].startswith("**Replication tally**")
    carried = metadata[METADATA_KEY]
    assert carried["chapter"] == "02_x" and len(carried["rows"]) == 6
    json.dumps(carried, allow_nan=False)  # NaN travels as null, valid JSON


def test_round_trip_through_an_executed_notebook(tables, tmp_path):
    data, metadata = DisplayFormatter().format(chapter_ledger(tables, chapter="02_x"))
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("ledger")
    cell.outputs = [nbformat.v4.new_output("display_data", data=data, metadata=metadata)]
    nb.cells = [nbformat.v4.new_markdown_cell("text"), cell]
    nbformat.write(nb, tmp_path / "02_x.ipynb")
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "01_empty.ipynb")
    back = read_executed(tmp_path)
    expected = chapter_ledger(tables, chapter="02_x").frame
    pd.testing.assert_frame_equal(back, expected, check_dtype=False)


def test_read_executed_needs_a_folder(tmp_path):
    with pytest.raises(ValueError, match="not a folder"):
        read_executed(tmp_path / "missing")


def test_html_escapes_and_filters(tables):
    t = replication_table([Row("<script>alert(1)</script>", 1, 1, source="seed 001 Fig. 1")])
    page = ledger_html(chapter_ledger([t], chapter="05_x").frame)
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page
    assert 'id="fb-ledger-filter"' in page and 'href="05_x.html"' in page


def test_csv_defuses_spreadsheet_formulas(tmp_path):
    t = replication_table([Row("=HYPERLINK(1)", 1, 1, source="seed 001 Fig. 1")])
    frame = chapter_ledger([t], chapter="05_x").frame
    text = write_ledger(frame, tmp_path / "ledger.csv").read_text()
    assert "'=HYPERLINK(1)" in text and "\n=HYPERLINK" not in text
    with pytest.raises(ValueError, match=".csv or .json"):
        write_ledger(frame, tmp_path / "ledger.xlsx")


# ---- every paper constant a chapter uses is in the ledger (or says why not) -----------------

_PACKAGE = (
    Path(__file__).resolve().parents[2] / "fairbook-book" / "src" / "fairbook_book" / "chapters"
)
_CHAPTER_PACKAGES = sorted(p.name for p in _PACKAGE.iterdir() if (p / "__init__.py").is_file())


def _paper_constants(package: str) -> set[str]:
    """``seedNNN.NAME`` for every printed-paper constant the chapter package references."""
    found = set()
    for path in (_PACKAGE / package).glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "fairbook.papers":
                for alias in node.names:
                    aliases[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "fairbook.papers.seed"
            ):
                seed = node.module.rsplit(".", 1)[1]
                found.update(f"{seed}.{alias.name}" for alias in node.names)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.isupper()
            ):
                found.add(f"{aliases[node.value.id]}.{node.attr}")
    return found


@pytest.mark.parametrize("package", _CHAPTER_PACKAGES)
def test_every_paper_constant_a_chapter_uses_has_a_ledger_source(package):
    module = importlib.import_module(f"fairbook_book.chapters.{package}.replication")
    sources = getattr(module, "PAPER_SOURCES", None)
    assert isinstance(sources, dict), f"{package}.replication has no PAPER_SOURCES"
    missing = _paper_constants(package) - set(sources)
    assert not missing, f"{package}: paper constants without a ledger source: {sorted(missing)}"
    for name, source in sources.items():
        assert source.startswith(("seed ", "Larson et al. 2016 ", "not in ledger: ")), (
            name,
            source,
        )


def _two_builds():
    import pandas as pd

    old = pd.DataFrame(
        {
            "paper": ["p"] * 4,
            "source": ["T1"] * 4,
            "quantity": ["a", "b", "c", "d"],
            "chapter": ["01"] * 4,
            "budget": ["fast"] * 4,
            "ours": ["0.5", "", "2.0", "1.0"],
            "outcome": ["matches", "no verdict", "matches", "differs"],
        }
    )
    new = old.iloc[[0, 1, 2]].copy()
    new["ours"] = [0.5 + 1e-12, float("nan"), 2.5]  # a: CSV rounding only; b: empty = NaN
    new["outcome"] = ["matches", "no verdict", "differs"]
    added = old.iloc[[0]].assign(quantity="e", ours="3.0", outcome="matches")
    return old, pd.concat([new, added], ignore_index=True)


def test_compare_ledgers_names_each_kind_of_change():
    from fairbook_book.ledger import compare_ledgers

    old, new = _two_builds()
    changes = compare_ledgers(old, new).set_index("quantity")
    assert changes["change"].to_dict() == {"c": "verdict", "d": "removed", "e": "added"}
    assert changes.loc["c", ["old_outcome", "new_outcome"]].tolist() == ["matches", "differs"]
    assert compare_ledgers(old, old).empty
    # a value that moved with the same verdict
    moved = old.assign(ours=["0.6", "", "2.0", "1.0"])
    assert compare_ledgers(old, moved)[["quantity", "change"]].values.tolist() == [["a", "value"]]


def test_a_ledger_written_and_read_back_compares_equal(tmp_path):
    from fairbook_book.ledger import compare_ledgers, read_ledger, write_ledger

    _, new = _two_builds()
    for suffix in (".csv", ".json"):
        path = write_ledger(new, tmp_path / f"l{suffix}")
        assert compare_ledgers(read_ledger(path), new).empty, suffix


def test_read_ledger_refuses_what_is_not_one(tmp_path):
    from fairbook_book.ledger import read_ledger

    with pytest.raises(ValueError, match="no ledger at"):
        read_ledger(tmp_path / "none.csv")
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="it has no column paper"):
        read_ledger(tmp_path / "x.csv")
    (tmp_path / "y.json").write_text("{not json")
    with pytest.raises(ValueError, match="is not a ledger"):
        read_ledger(tmp_path / "y.json")


# ---- round two (issue 36): every printed number of every replicated table ------------------
def _cheap_tables():
    """The replicated tables that need no data and no training, as the chapters make them."""
    import pandas as pd

    from fairbook_book.chapters import fit_variance as fv
    from fairbook_book.chapters import objective_fairness_index as ofi
    from fairbook_book.chapters import uncertainty_fairness as uf

    no_runs = pd.DataFrame(columns=["task", "technique", "setting", "run"])
    return {
        ("seed 000", "Table 7"): uf.table_7_replication(),
        ("seed 003", "Table 3.1"): ofi.table_3_1_replication(),
        ("seed 003", "Table 3.3"): ofi.table_3_3_replication(),
        ("seed 004", "Table 3"): fv.table_3_replication(),
        ("seed 004", "Table 4"): fv.table_4_replication(no_runs),
    }


def test_the_accounting_equals_each_tables_printed_numbers():
    from fairbook.papers.printed import printed_count
    from fairbook_book.ledger import table_accounting

    tables = _cheap_tables()
    frame = chapter_ledger(list(tables.values()), chapter="00_x").frame
    accounting = table_accounting(frame)
    for key in tables:
        row = accounting.loc[key]
        assert row["printed"] == printed_count(*key) == row["rows (this build)"], key
        assert bool(row["accounted"]), key
    # a table with no row in this ledger is not accounted for
    assert not accounting.loc[("seed 000", "Table 1"), "accounted"]
    by_table = tallies(frame, by=("paper", "source"))
    assert by_table.loc[("seed 003", "Table 3.1"), "printed"] == 54


def test_the_accounting_counts_each_recorded_budget():
    from fairbook_book.ledger import table_accounting
    from fairbook_book.replication import Row, replication_table

    rows = [Row(f"x{i}", 1.0, 1.0, source="seed 003 Table 3.5") for i in range(18)]
    table = replication_table(rows)
    fast = chapter_ledger([table], chapter="07_x").frame
    full = chapter_ledger([table], chapter="07_x", budget="full (recorded 2026-11-25)").frame
    import pandas as pd

    accounting = table_accounting(pd.concat([fast, full.iloc[:10]], ignore_index=True))
    row = accounting.loc[("seed 003", "Table 3.5")]
    assert (row["rows (this build)"], row["rows (recorded)"]) == (18, 10)
    assert not row["accounted"]  # the recorded budget lacks 8 printed numbers


def test_uninformative_matches_are_their_own_outcome():
    from fairbook_book.replication import Interval, Row, replication_table

    wide = Row(
        "U",
        0.0004,
        0.0003,
        rule=Interval(decimals=4),
        low=0.0,
        high=0.001,
        n=3,
        source="seed 000 Table 1",
    )
    narrow = Row(
        "ACC", 0.70, 0.69, rule=Interval(), low=0.66, high=0.72, n=10, source="seed 000 Table 1"
    )
    frame = chapter_ledger([replication_table([wide, narrow])], chapter="04_x").frame
    assert frame["outcome"].tolist() == ["uninformative", "matches"]
    assert "widened by ±0.00005" in frame.loc[0, "rule"]
    counts = tallies(frame).loc["seed 000"]
    assert (counts["judged"], counts["matches"], counts["uninformative"]) == (2, 1, 1)
    sentence = tally_sentences(frame)[0]
    assert (
        "of 2 results, 1 matches the paper informatively and 1 is consistent but "
        "uninformative (rule: interval)" in sentence
    )


# --- kinds, the headline and the page by sections (#46) ----------------------------------


def _mixed_ledger():
    """Two budgets of one paper: a result recorded at full budget, a check, a stand-in and
    a number not compared."""
    from fairbook_book.replication import Exact

    fast = replication_table(
        [
            Row("ACC", 0.7, 0.5, source="seed 000 Table 1"),
            Row("n", 6172, 6172, rule=Exact(), kind="data fact", source="seed 000 Table 4"),
            Row(
                "gap", 0.2, 0.22, rule=SameSign(), low=0.19, high=0.25, n=10,
                stand_in="Adult for CASAS", source="seed 003 Table 3.4",
            ),
            Row("U_e", 6e-7, 0.0, rule=NotComparable("D-Vlog", why="data on request"),
                source="seed 000 Table 7"),
        ]
    )  # fmt: skip
    full = replication_table([Row("ACC", 0.7, 0.704, source="seed 000 Table 1")])
    frame = pd.concat(
        [
            chapter_ledger([fast], chapter="04_x").frame,
            chapter_ledger(
                [full], chapter="04_x", budget="full (recorded 2026-11-25, abc1234+)"
            ).frame,
        ],
        ignore_index=True,
    )
    return frame


def test_each_printed_number_is_counted_once_at_its_recorded_budget():
    from fairbook_book.ledger import of_record

    record = of_record(_mixed_ledger())
    assert len(record) == 4
    acc = record.set_index("quantity").loc["ACC"]
    assert acc["budget"].startswith("full") and acc["outcome"] == "matches"


def test_the_headline_counts_results_and_checks_apart():
    from fairbook_book.ledger import headline, headline_sentence

    table = headline(_mixed_ledger())
    kuzucu = table.loc["Kuzucu et al. 2024"]
    assert (kuzucu["results"], kuzucu["matches"], kuzucu["checks"]) == (2, 1, 1)
    assert kuzucu["not compared: data on request"] == 1
    assert table.loc["Briscoe 2024", "in kind"] == 1
    # the total row is the sum of the papers' rows, column by column
    papers = table.drop(index="all papers")
    assert (papers.sum() == table.loc["all papers"]).all()
    # a reason nobody has is not a column
    assert "not compared: needs GPU-days" not in table.columns
    sentence = headline_sentence(_mixed_ledger())
    assert sentence.startswith("Of 3 results the four papers print and the book compares, ")
    assert "1 matches informatively" in sentence and "1 on stand-ins" in sentence


def test_the_ledger_page_is_folded_by_paper_and_table_with_a_permalink_per_row():
    import re

    page = ledger_html(_mixed_ledger(), chapter_url="../notebooks/{chapter}.html")
    assert page.count('<details class="fb-ledger-paper"') == 2
    assert page.count('<details class="fb-ledger-table"') == 4
    assert " open" not in page.split("<script>")[0]  # every section starts folded
    anchors = re.findall(r'<tr id="([^"]+)"', page)
    assert len(anchors) == 5 and len(set(anchors)) == 5
    assert "r-seed-000-table-1-acc-full-2026-11-25" in anchors
    assert "abc1234" not in page  # commits stay in the recording's provenance
    assert "paper value derived" not in page and "not compared: data on request" in page


def test_row_anchors_are_unique_even_when_quantities_slug_alike():
    import re

    t = replication_table(
        [
            Row("a+b", 1, 1, source="seed 003 Table 3.1"),
            Row("a b", 1, 1, source="seed 003 Table 3.1"),
        ]
    )
    page = ledger_html(chapter_ledger([t], chapter="02_x").frame)
    anchors = re.findall(r'<tr id="([^"]+)"', page)
    assert len(set(anchors)) == 2
