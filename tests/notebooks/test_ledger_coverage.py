"""The built ledger holds every paper source each chapter declares (``PAPER_SOURCES``).

Runs with the nbval stage (``make nbval``), on the executed chapters of this build.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pandas as pd
import pytest

from fairbook_book.ledger import read_executed

ROOT = Path(__file__).resolve().parents[2]
EXECUTED = ROOT / "_build" / "executed" / "notebooks"
PACKAGES = sorted(
    p.name
    for p in (ROOT / "fairbook-book" / "src" / "fairbook_book" / "chapters").iterdir()
    if (p / "__init__.py").is_file()
)


@pytest.fixture(scope="module")
def ledger_sources():
    if not EXECUTED.is_dir():
        pytest.fail(f"no executed chapters in {EXECUTED}: run make html first")
    ledger = read_executed(EXECUTED)
    assert not ledger.empty, "the executed chapters carry no ledger rows"
    whole = ledger["source"] == "(whole paper)"
    return set(ledger["paper"].where(whole, ledger["paper"] + " " + ledger["source"]))


@pytest.mark.parametrize("package", PACKAGES)
def test_every_declared_source_is_in_the_built_ledger(package, ledger_sources):
    module = importlib.import_module(f"fairbook_book.chapters.{package}.replication")
    declared = {s for s in module.PAPER_SOURCES.values() if not s.startswith("not in ledger")}
    missing = declared - ledger_sources
    assert not missing, f"{package}: declared but absent from the built ledger: {sorted(missing)}"


# --- the built ledger as a whole (#46) -----------------------------------------------------


@pytest.fixture(scope="module")
def ledger():
    if not EXECUTED.is_dir():
        pytest.fail(f"no executed chapters in {EXECUTED}: run make html first")
    return read_executed(EXECUTED)


def test_each_printed_number_is_judged_once_per_budget(ledger):
    key = ["paper", "source", "quantity", "budget"]
    twice = ledger[ledger.duplicated(key, keep=False)]
    assert twice.empty, f"judged twice at one budget: {twice[key].to_dict('records')[:10]}"


def test_only_results_can_match_and_every_row_has_a_kind(ledger):
    from fairbook_book.replication import KINDS, RESULT_OUTCOMES

    assert set(ledger["kind"]) <= set(KINDS)
    checks = ledger[ledger["kind"] != "result"]
    assert not checks["outcome"].isin([*RESULT_OUTCOMES, "in kind", "not in kind"]).any()
    compared = ledger[ledger["outcome"] == "not comparable"]
    assert (compared["reason"] != "").all(), "a result not compared carries its reason"


def test_every_same_sign_match_has_a_narrow_window_that_excludes_zero(ledger):
    from fairbook_book.replication import INFORMATIVE_WIDTH

    same_sign = ledger[
        ledger["rule"].str.startswith("same sign") & (ledger["outcome"] == "matches")
    ]
    for row in same_sign.to_dict("records"):
        low, high, paper = row["low"], row["high"], abs(row["paper_value"])
        assert pd.notna(low) and pd.notna(high), row["quantity"]  # a window of ours
        assert not (low <= 0 <= high) and high - low <= INFORMATIVE_WIDTH * paper + 1e-12


def test_every_transcribed_table_is_accounted_for(ledger):
    from fairbook_book.ledger import table_accounting

    accounting = table_accounting(ledger)
    missing = accounting[~accounting["accounted"]]
    assert missing.empty, f"tables whose rows are not their printed numbers:\n{missing}"


def test_the_readme_headline_is_the_ledger_s(ledger):
    from fairbook_book.ledger import headline_sentence

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    expected = f"**How far it replicates.** {headline_sentence(ledger)}"
    lines = [line for line in readme.splitlines() if line.startswith("**How far it replicates")]
    assert lines == [expected], f"the README's headline line should read:\n{expected}"
