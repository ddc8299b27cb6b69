"""The book's status: each chapter's last execution, each recording's cost and check.

What a re-runner wants to know before starting anything, read from what the build and the
recordings wrote (nothing here is typed):

* per chapter, from ``_build/executed/cache.json`` (:mod:`.execution_cache`): when it was
  last executed, in how many seconds, at which profile, whether this build took it from the
  cache (and otherwise why it ran), its error if any, and the kernel signature it ran under
  (``_build/executed/notebooks/kernels.json``); the fast profile's seconds of the committed
  reference build (``tests/notebooks/reference/timings-fast.json``) when this machine has
  not executed the chapter;
* per chapter, the full profile's cost: the unit-hours of its recordings (the units' wall
  times summed, from their provenance in ``fairbook_book/recorded``), with where they ran;
* per recording, ``fairbook-book verify``'s last result on this machine
  (``_build/verify/<chapter>__<recording>.json``, written by ``fairbook-book verify`` and by
  ``make unit``'s re-run of every recording).

``fairbook-book status`` prints it; the build writes it as the fragment the book's status
page includes (:func:`write_status_fragment`).

Examples
--------
>>> hours_text(0.004), hours_text(0.5), hours_text(7.25)
('14 s', '30 min', '7.2 h')
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "STATUS_FRAGMENT",
    "VERIFY_FOLDER",
    "ChapterStatus",
    "RecordingStatus",
    "book_status",
    "hours_text",
    "save_verify_outcome",
    "status_html",
    "status_text",
    "write_status_fragment",
]

#: The fragment ``book/status.md`` includes (written into the staged ``book/``).
STATUS_FRAGMENT = "_status.html"
#: Where verify's outcomes are kept, below ``_build``.
VERIFY_FOLDER = "verify"


def hours_text(hours: float) -> str:
    """A duration for a reader: seconds under two minutes, minutes under two hours, else
    hours with one decimal.

    Examples
    --------
    >>> hours_text(1 / 60)
    '60 s'
    """
    seconds = hours * 3600
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{hours:.1f} h"


@dataclass
class RecordingStatus:
    """One recording: its cost and where it ran, and verify's last result here."""

    chapter: str
    name: str
    units: int
    unit_hours: float
    profiles: list[str]
    devices: list[str]
    dates: str
    verify: dict[str, Any] | None = None

    @property
    def verify_text(self) -> str:
        if self.verify is None:
            return "not run on this machine (fairbook-book verify)"
        state = "reproduces" if self.verify.get("passed") else "FAILS"
        when = self.verify.get("date", "")[:10]
        if self.verify.get("remembered"):
            when += ", remembered by make unit: same code, recordings and kernels"
        return f"{state} ({self.verify.get('status', '')}; {when})"


@dataclass
class ChapterStatus:
    """One chapter: its last execution here and its recordings."""

    slug: str
    title: str
    executed_at: str | None = None
    seconds: float | None = None
    profile: str | None = None
    from_cache: bool | None = None
    reason: str = ""
    error: str | None = None
    reference_seconds: float | None = None
    recordings: list[RecordingStatus] = field(default_factory=list)

    @property
    def full_hours(self) -> float:
        """Unit-hours of the chapter's recordings (0 when it has none)."""
        return sum(r.unit_hours for r in self.recordings)

    @property
    def fast_seconds(self) -> float | None:
        """The fast profile's seconds: this machine's last execution, else the reference
        build's."""
        if self.profile == "fast" and self.seconds is not None and not self.error:
            return self.seconds
        return self.reference_seconds

    @property
    def full_text(self) -> str:
        if not self.recordings:
            return "not recorded (no full-profile run of it has been timed)"
        return f"{hours_text(self.full_hours)} of recorded runs"


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def _recordings(recorded: Path, slug: str, verify: Path) -> list[RecordingStatus]:
    out = []
    folder = recorded / slug
    if not folder.is_dir():
        return out
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"):
        provenance = [
            record
            for path in sorted(sub.glob("*.json"))
            if isinstance(record := _read_json(path), dict) and "seconds" in record
        ]
        if not provenance:
            continue
        profiles, devices = set(), set()
        for p in provenance:
            params = p.get("parameters") if isinstance(p.get("parameters"), dict) else {}
            found = re.search(r"--profile (\w+)", str(p.get("command", "")))
            profiles.add(str(params.get("profile") or (found[1] if found else "full")))
            kernels = p.get("kernels") if isinstance(p.get("kernels"), dict) else {}
            devices.add(str(kernels.get("device") or p.get("device") or "cpu"))
        days = sorted({str(p.get("date", ""))[:10] for p in provenance if p.get("date")})
        dates = days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}" if days else "?"
        out.append(
            RecordingStatus(
                chapter=slug,
                name=sub.name,
                units=len(provenance),
                unit_hours=sum(float(p["seconds"]) for p in provenance) / 3600,
                profiles=sorted(profiles),
                devices=sorted(devices),
                dates=dates,
                verify=_read_json(verify / f"{slug}__{sub.name}.json"),
            )
        )
    return out


def book_status(root: str | os.PathLike[str] | None = None) -> tuple[list[ChapterStatus], dict]:
    """Every chapter's status, and the kernel signature of the last build (``{}`` if none).

    Examples
    --------
    >>> rows, signature = book_status()
    >>> rows[0].slug
    '01_metric_catalogue'
    """
    import importlib.resources

    from fairbook_book.tooling import chapters, execution_cache

    paths = chapters.BookPaths(chapters.find_root(root))
    entries = execution_cache.load_cache(paths.executed)
    reference = _read_json(paths.root / chapters.REFERENCE_TIMINGS) or {}
    recorded = Path(str(importlib.resources.files("fairbook_book"))) / "recorded"
    verify = paths.build / VERIFY_FOLDER
    rows = []
    for chapter in chapters.discover(paths.root):
        entry = entries.get(chapter.slug)
        row = ChapterStatus(
            slug=chapter.slug,
            title=chapter.title,
            reference_seconds=reference.get(chapter.slug),
            recordings=_recordings(recorded, chapter.slug, verify),
        )
        if entry is not None:
            row.executed_at = entry.executed_at
            row.seconds = entry.seconds
            row.profile = entry.profile
            row.from_cache = entry.from_cache
            row.reason = entry.reason
            row.error = entry.error
        rows.append(row)
    signature = _read_json(paths.executed / chapters.KERNELS) or {}
    return rows, signature


def _signature_text(signature: dict) -> str:
    if not signature:
        return "unknown (no build here yet)"
    from fairbook_book.reproduction.signature import describe_signature

    return describe_signature(signature)


def _execution_text(row: ChapterStatus) -> str:
    if row.executed_at is None:
        return "not executed on this machine"
    if row.from_cache and "shared cache" in row.reason:
        how = "kept from the shared cache (executed by another copy of the book here)"
    else:
        how = "kept from the cache" if row.from_cache else f"executed ({row.reason})"
    return f"{row.executed_at[:16].replace('T', ' ')} UTC, {row.profile}, {how}"


def status_text(root: str | os.PathLike[str] | None = None) -> str:
    """``fairbook-book status``: one paragraph per chapter, then the signature."""
    rows, signature = book_status(root)
    lines = []
    for row in rows:
        fast = "?" if row.fast_seconds is None else f"{row.fast_seconds:.0f} s"
        mine = "" if row.seconds is None or row.profile != "fast" else " (this machine)"
        lines.append(f"{row.slug}  {row.title}")
        lines.append(f"    last execution: {_execution_text(row)}")
        if row.error:
            lines.append(f"    ERROR: {row.error}")
        lines.append(f"    fast profile: {fast}{mine}; full profile: {row.full_text}")
        for rec in row.recordings:
            lines.append(
                f"    recording {rec.name}: {rec.units} units, {hours_text(rec.unit_hours)} "
                f"({'/'.join(rec.profiles)} profile, {'/'.join(rec.devices)}, {rec.dates}); "
                f"verify: {rec.verify_text}"
            )
    lines.append(f"kernel signature of the last build: {_signature_text(signature)}")
    return "\n".join(lines)


def status_html(root: str | os.PathLike[str] | None = None) -> str:
    """The status page's tables (an HTML fragment)."""
    rows, signature = book_status(root)
    esc = html.escape
    out = [
        f"<p>Built {esc(dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M'))} UTC "
        f"under the kernel signature <code>{esc(_signature_text(signature))}</code>.</p>",
        '<table class="table fairbook-status"><thead><tr><th>Chapter</th>'
        "<th>Last execution</th><th>Fast profile</th><th>Full profile</th><th>Error</th>"
        "</tr></thead><tbody>",
    ]
    for row in rows:
        fast = "?" if row.fast_seconds is None else f"{row.fast_seconds:.0f} s"
        out.append(
            f"<tr><td>{esc(row.slug[:2])} {esc(row.title)}</td>"
            f"<td>{esc(_execution_text(row))}</td><td>{esc(fast)}</td>"
            f"<td>{esc(row.full_text)}</td><td>{esc(row.error or 'none')}</td></tr>"
        )
    out.append("</tbody></table>")
    out.append(
        '<table class="table fairbook-status"><thead><tr><th>Recording</th><th>Units</th>'
        "<th>Cost</th><th>Profile</th><th>Device</th><th>Recorded</th>"
        "<th><code>fairbook-book verify</code> here</th></tr></thead><tbody>"
    )
    for row in rows:
        for rec in row.recordings:
            out.append(
                f"<tr><td>{esc(rec.chapter[:2])}/{esc(rec.name)}</td><td>{rec.units}</td>"
                f"<td>{esc(hours_text(rec.unit_hours))}</td><td>{esc('/'.join(rec.profiles))}"
                f"</td><td>{esc('/'.join(rec.devices))}</td><td>{esc(rec.dates)}</td>"
                f"<td>{esc(rec.verify_text)}</td></tr>"
            )
    out.append("</tbody></table>")
    return "\n".join(out) + "\n"


def write_status_fragment(root: str | os.PathLike[str] | None, folder: str | os.PathLike[str]):
    """Write :data:`STATUS_FRAGMENT` into `folder` (the staged ``book/``)."""
    path = Path(folder) / STATUS_FRAGMENT
    path.write_text(status_html(root), "utf-8")
    return path


def save_verify_outcome(outcome, folder: str | os.PathLike[str]) -> Path:
    """Keep one verify outcome (its ``to_dict()`` and the date) in `folder`, one file per
    recording, for the status page. `outcome` may also be an outcome remembered from an
    earlier run on this machine (a dict, :func:`fairbook_book.tooling.verify.remembered_outcome`):
    it keeps its own date and says it was remembered."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(outcome, dict):
        data = {**outcome, "remembered": True}
    else:
        data = {
            **outcome.to_dict(),
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
    chapter, _, name = data["check"].partition("/")
    path = folder / f"{chapter}__{name}.json"
    from fairbook.atomic import write_atomic

    # whole or not at all: test workers and the status page read these side by side
    text = json.dumps(data, indent=1, default=str) + "\n"
    write_atomic(path, lambda tmp: tmp.write_text(text, "utf-8"))
    return path
