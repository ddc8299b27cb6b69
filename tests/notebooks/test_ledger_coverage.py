"""The built ledger holds every paper source each chapter declares (``PAPER_SOURCES``).

Runs with the nbval stage (``make nbval``), on the executed chapters of this build.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from fairbook.ledger import read_executed

ROOT = Path(__file__).resolve().parents[2]
EXECUTED = ROOT / "_build" / "executed" / "notebooks"
PACKAGES = sorted(
    p.name
    for p in (ROOT / "src" / "fairbook" / "experiments").iterdir()
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
    module = importlib.import_module(f"fairbook.experiments.{package}.replication")
    declared = {s for s in module.PAPER_SOURCES.values() if not s.startswith("not in ledger")}
    missing = declared - ledger_sources
    assert not missing, f"{package}: declared but absent from the built ledger: {sorted(missing)}"
