"""Tests of :mod:`fairbook_book.tooling.status`: the status page reads what the build, the
recordings and verify wrote, and types nothing."""

import json
from pathlib import Path

import nbformat
import pytest

from fairbook_book.tooling import execution_cache as ec
from fairbook_book.tooling import status


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A book root with two chapters; chapter 01 executed (from the cache), 02 never."""
    monkeypatch.delenv("FAIRBOOK_ROOT", raising=False)
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    for name, title in (("01_one", "One & <only>"), ("02_two", "Two")):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"# {title}")])
        (tmp_path / "notebooks").mkdir(exist_ok=True)
        nbformat.write(nb, tmp_path / "notebooks" / f"{name}.ipynb")
    executed = tmp_path / "_build" / "executed" / "notebooks"
    executed.mkdir(parents=True)
    entry = ec.CacheEntry(
        key="k",
        content_key="c",
        parts={},
        output_sha256=None,
        seconds=12.3,
        executed_at="2026-11-29T04:00:00+00:00",
        profile="fast",
        from_cache=True,
        reason="unchanged",
    )
    ec.save_cache(executed, {"01_one": entry})
    reference = tmp_path / "tests" / "notebooks" / "reference"
    reference.mkdir(parents=True)
    (reference / "timings-fast.json").write_text('{"01_one": 99.0, "02_two": 7.0}')
    return tmp_path


def test_each_chapter_shows_its_last_execution_or_the_reference_time(book):
    rows, signature = status.book_status(book)
    one, two = rows
    assert (one.slug, one.seconds, one.from_cache, one.fast_seconds) == ("01_one", 12.3, True, 12.3)
    assert (two.executed_at, two.fast_seconds) == (None, 7.0)  # the reference build's
    assert signature == {}
    text = status.status_text(book)
    assert "last execution: 2026-11-29 04:00 UTC, fast, kept from the cache" in text
    assert "last execution: not executed on this machine" in text
    assert "fast profile: 12 s (this machine)" in text and "fast profile: 7 s;" in text
    page = status.status_html(book)
    assert "One &amp; &lt;only&gt;" in page and "<only>" not in page  # escaped


def _unit(folder: Path, unit: str, seconds: float, **extra) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    record = {"unit": unit, "seconds": seconds, "date": "2026-11-25T00:00:00+00:00", **extra}
    (folder / f"{unit}.json").write_text(json.dumps(record))


def test_a_recordings_cost_is_the_sum_of_its_units_and_verify_is_read_back(tmp_path):
    recorded = tmp_path / "recorded"
    _unit(recorded / "03_x" / "cps", "a", 1800.0, command="fairbook record 03 cps --profile full")
    _unit(recorded / "03_x" / "cps", "b", 5400.0, kernels={"device": "cuda"})
    (recorded / "03_x" / "cps" / "damaged.json").write_text("{")  # not a unit: skipped
    verify = tmp_path / "verify"

    class Outcome:
        def to_dict(self):
            return {"check": "03_x/cps", "passed": True, "status": "bits equal"}

    status.save_verify_outcome(Outcome(), verify)
    (rec,) = status._recordings(recorded, "03_x", verify)
    assert (rec.units, rec.unit_hours, rec.profiles) == (2, 2.0, ["full"])
    assert rec.devices == ["cpu", "cuda"] and rec.dates == "2026-11-25"
    assert rec.verify_text.startswith("reproduces (bits equal; ")
    row = status.ChapterStatus("03_x", "X", recordings=[rec])
    assert row.full_hours == 2.0 and row.full_text == "2.0 h of recorded runs"
    assert status._recordings(recorded, "04_none", verify) == []


@pytest.mark.parametrize(
    ("hours", "text"), [(0.0, "0 s"), (119 / 3600, "119 s"), (1.0, "60 min"), (2.0, "2.0 h")]
)
def test_durations_read_in_the_unit_a_reader_expects(hours, text):
    assert status.hours_text(hours) == text


def test_the_real_book_lists_every_chapter_with_its_recordings():
    rows, _ = status.book_status()
    assert [r.slug[:2] for r in rows] == [f"{n:02d}" for n in range(1, len(rows) + 1)]
    by_slug = {r.slug: r for r in rows}
    assert {r.name for r in by_slug["08_parallel_time_networks"].recordings} >= {"decisive"}
    assert not by_slug["01_metric_catalogue"].recordings


def test_an_execution_from_the_shared_cache_says_so(book):
    executed = book / "_build" / "executed" / "notebooks"
    entry = ec.load_cache(executed)["01_one"]
    entry.reason = "executed before on this machine, kept in the shared cache (/x)"
    ec.save_cache(executed, {"01_one": entry})
    text = status.status_text(book)
    assert "kept from the shared cache (executed by another copy of the book here)" in text
