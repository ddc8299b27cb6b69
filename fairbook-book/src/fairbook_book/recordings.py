"""Recorded full-profile runs: written once by ``fairbook-book record``, shown beside the
fast build.

A chapter's expensive computation at paper scale takes hours, too long for the book's build.
It is *recorded* instead: run in chunks (*units*: one group size, one seed), each unit's
result table written as Parquet (exact floats, compressed) beside a JSON provenance record,
in the package folder ``fairbook/recorded/<chapter>/<recording>/``, which is versioned with
the code. The chapter
loads the merged units with :func:`load` and shows them beside its fast run.

A recording is tied to the code that made it by a *fingerprint*: the SHA-256 of the source of
the modules its runs depend on (:attr:`Recordable.depends`). When that code changes, the
fingerprint no longer matches, :attr:`Recording.stale` is true, and the chapter must show the
recording as stale (its verdicts are then not comparable) until it is recorded again. Units
already recorded with the current fingerprint and parameters are skipped, so a long
recording can be built up over several sittings, and an interrupted one resumes.

Provenance of each unit: the command, the parameters, the git commit (and whether the tree had
uncommitted changes), the fingerprint, package versions, cores and the CPU kernels in force
(:func:`fairbook.instruction_set.describe`) and the kernel signature
(:func:`fairbook_book.reproduction.signature.kernel_signature`), ``n_jobs``, wall seconds, the
unit's CPU seconds and the load average when it started (a busy machine stretches wall time,
not CPU time), and the date (UTC). The machine's facts (``host``, ``cores``, ``python``,
``packages``, ``instruction_set``, ``kernels``, ``device``) are read where the unit ran: in a
joblib worker here, or on the Dask worker that computed it.

**On a Dask cluster** (``record(..., scheduler="local" | ADDRESS)``, ``fairbook-book record
--scheduler``; :mod:`fairbook.cluster`): the client submits every unit not yet recorded to
the cluster and holds each unit's lock while it is out; a worker computes the unit's table
and returns it with the facts of its machine, and **the client writes** the table and the
provenance, through temporary files, as each unit finishes. Why the client: the recording
folder is in the client's checkout (workers need no shared filesystem and no write access
to it), the locks are ``flock`` files that only one machine's processes can rely on, and a
unit is whole or absent exactly as in a local recording. The tables cross the network
(kilobytes to a few megabytes a unit). A worker that dies mid-unit loses only that unit,
which the scheduler runs again on another worker (``distributed.scheduler.allowed-failures``
times, 3 by default, then :class:`UnitLost`); units finished before are written, so a
recording stopped for any reason resumes where it stopped.
"""

from __future__ import annotations

import ast
import contextlib
import datetime as dt
import hashlib
import importlib.metadata
import importlib.resources
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from joblib import Parallel, delayed
from tqdm.auto import tqdm

from fairbook import instruction_set
from fairbook.atomic import os_reason
from fairbook.parallel import guarded, reaper, stop_on_signals

from .reproduction.signature import describe_signature, kernel_signature, signature_of

try:  # one recorder per unit (POSIX); elsewhere units are not locked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

__all__ = [
    "MOVED",
    "check_digests",
    "table_digest",
    "recorded_spelling",
    "PACKAGES",
    "Damage",
    "DamagedRecording",
    "Recordable",
    "Recording",
    "UnitLost",
    "fingerprint",
    "load",
    "os_reason",
    "record",
    "recorded_folder",
    "recorded_units",
    "refingerprint",
]

#: Package versions written into every provenance record.
PACKAGES = ("fairbook", "numpy", "scipy", "pandas", "scikit-learn", "torch")


@dataclass(frozen=True)
class Recordable:
    """What a chapter can record: how to split it into units and how to run one.

    Parameters
    ----------
    name : str
        The recording's name within its chapter (``"cps"``); a folder name.
    units : callable
        ``units(settings) -> list[str]``: the unit ids of a full recording, in order.
    run : callable
        ``run(unit, settings) -> pandas.DataFrame``: one unit's result table (a pure function
        of the unit and the settings).
    depends : tuple of str
        Modules whose source makes the fingerprint (the code the runs depend on).
    parameters : tuple of str
        The settings keys that define the recording; units recorded with other values of
        these are not merged.
    description : str
        One line for listings.
    configuration : tuple of str
        Top-level assignments in the ``depends`` modules that are configuration, not code
        (``"PROFILES"``, ``"DEPARTURES"``, the ``Recordable`` definitions), left out of the
        fingerprint with the comment lines just above them: a recording's numbers depend on
        its profile only through ``parameters``, which are checked unit by unit, so editing
        another profile or a departures table must not make it stale. Empty by default (the
        whole source of every module).
    docstrings : bool
        False: docstrings are left out of the fingerprint too (they document and hold
        doctests; they compute nothing a unit records). True by default.
    prepare : callable, optional
        ``prepare(settings) -> settings``: the settings this recording runs with, made from
        the chapter's profile (a recording at a fixed scale of its own, e.g. chapter 06's
        ``gpu``); applied before the units, the parameters and every run. None: as given.
    """

    name: str
    units: Callable[[dict], list[str]]
    run: Callable[[str, dict], pd.DataFrame]
    depends: tuple[str, ...]
    parameters: tuple[str, ...]
    description: str = ""
    configuration: tuple[str, ...] = ()
    docstrings: bool = True
    prepare: Callable[[dict], dict] | None = None

    def settings_for(self, settings: dict) -> dict:
        """The settings the recording runs with (:attr:`prepare` applied)."""
        return dict(settings) if self.prepare is None else self.prepare(dict(settings))

    def fingerprint(self, *, source: Callable[[str], bytes] | None = None) -> str:
        """:func:`fingerprint` of ``depends`` without ``configuration`` (and docstrings)."""
        return fingerprint(
            self.depends,
            configuration=self.configuration,
            docstrings=self.docstrings,
            source=source,
        )


@dataclass
class Recording:
    """A recording as loaded: the merged units, their provenance, and whether it is stale.

    ``frame`` holds every unit's rows (with a ``unit`` column); ``stale`` is true when any
    unit was made by code whose fingerprint differs from the current one. ``expected`` is
    the number of units a complete recording has (None when unknown).
    """

    chapter: str
    name: str
    frame: pd.DataFrame
    provenance: list[dict] = field(default_factory=list)
    fingerprint: str = ""
    expected: int | None = None

    @property
    def empty(self) -> bool:
        """No unit recorded."""
        return not self.provenance

    @property
    def stale_units(self) -> list[str]:
        """Units recorded with code other than today's."""
        return [p["unit"] for p in self.provenance if p["fingerprint"] != self.fingerprint]

    @property
    def stale(self) -> bool:
        """True when any unit was recorded by code that has changed since."""
        return bool(self.stale_units)

    @property
    def hours(self) -> float:
        """The units' wall times summed, in hours (more than the elapsed time when units ran
        side by side)."""
        return sum(p["seconds"] for p in self.provenance) / 3600

    @property
    def budget(self) -> str:
        """The ledger's ``budget`` label of this recording's verdicts."""
        if self.empty:
            return "full (not recorded)"
        state = "stale" if self.stale else "recorded"
        return f"full ({state} {self.dates}, {self.commits})"

    @property
    def signatures(self) -> dict[str, list[str]]:
        """Each kernel signature (:func:`~fairbook_book.reproduction.signature.describe_signature`)
        → the units recorded under it, in recording order."""
        out: dict[str, list[str]] = {}
        for p in self.provenance:
            out.setdefault(describe_signature(signature_of(p)), []).append(p["unit"])
        return out

    @property
    def hosts(self) -> dict[str, list[str]]:
        """Each host that recorded units (``host`` in their provenance) → its units; units
        recorded before hosts were written are left out."""
        out: dict[str, list[str]] = {}
        for p in self.provenance:
            if p.get("host"):
                out.setdefault(str(p["host"]), []).append(p["unit"])
        return out

    @property
    def dates(self) -> str:
        days = sorted({p["date"][:10] for p in self.provenance})
        return days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}" if days else "never"

    @property
    def commits(self) -> str:
        commits = sorted({p["commit"] + ("+" if p.get("dirty") else "") for p in self.provenance})
        return ", ".join(commits) if commits else "no commit"

    def describe(self) -> str:
        """One sentence: what was recorded, when, on what, at what cost; STALE if so.

        Examples
        --------
        >>> Recording("03", "cps", pd.DataFrame(), expected=3).describe()
        'Recording 03/cps: nothing recorded yet (0 of 3 units).'
        """
        where = f"Recording {self.chapter}/{self.name}"
        count = (
            f"{len(self.provenance)} of {self.expected}"
            if self.expected
            else (f"{len(self.provenance)}")
        )
        if self.empty:
            return f"{where}: nothing recorded yet ({count} units)."
        cores = sorted({p["cores"] for p in self.provenance})
        n_jobs = sorted({p["n_jobs"] for p in self.provenance}, key=str)
        text = (
            f"{where}: {count} units recorded {self.dates} at commit {self.commits} on "
            f"{'/'.join(map(str, cores))} cores (n_jobs {'/'.join(map(str, n_jobs))}), "
            f"{self.hours:.2f} unit-hours (the units' wall times summed)"
        )
        cpu = [p.get("cpu_seconds") for p in self.provenance]
        if all(isinstance(c, (int, float)) for c in cpu):
            text += f", {sum(cpu) / 3600:.2f} CPU-hours"
        text += "."
        signatures = self.signatures
        if len(signatures) <= 1:
            text += f" Kernel signature: {'; '.join(signatures)};"
        else:
            parts = [f"{s} ({_some(units)})" for s, units in sorted(signatures.items())]
            text += (
                f" MIXED kernel signatures: its units were recorded under {len(signatures)} "
                f"(their numbers agree across them only within a measured tolerance, not bit "
                f"for bit): {'; '.join(parts)};"
            )
        text += (
            f" `fairbook-book verify {self.chapter[:2]}` "
            "re-runs its cheapest unit on your machine and says how far your numbers are."
        )
        hosts = self.hosts
        if len(hosts) > 1:
            text += (
                " Hosts: "
                + ", ".join(
                    f"{h} ({len(u)} unit{'s' if len(u) != 1 else ''})"
                    for h, u in sorted(hosts.items())
                )
                + "."
            )
        attested = [p for p in self.provenance if p.get("refingerprinted")]
        if attested:
            days = sorted({p["refingerprinted"][-1]["date"][:10] for p in attested})
            text += (
                f" {len(attested)} unit(s) re-attested {', '.join(days)} (the fingerprint's "
                "definition changed; their commit's code is today's under it)."
            )
        if self.stale:
            text += (
                f" STALE: {len(self.stale_units)} unit(s) were recorded by code that has "
                "changed since (fingerprint differs); their numbers are shown for context "
                "only and judged not comparable until recorded again."
            )
        return text


def _some(units: Sequence[str], *, at_most: int = 3) -> str:
    """``"unit a, b"`` or ``"12 units: a, b, c, ..."`` (a listing's short form).

    Examples
    --------
    >>> _some(["n005"]), _some(["a", "b", "c", "d"])
    ('unit n005', '4 units: a, b, c, ...')
    """
    if len(units) == 1:
        return f"unit {units[0]}"
    shown = ", ".join(units[:at_most]) + (", ..." if len(units) > at_most else "")
    return f"{len(units)} units: {shown}"


def _module_file(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ValueError(f"no module {name!r} to fingerprint")
    return Path(spec.origin)


def _installed_source(name: str) -> bytes:
    return _module_file(name).read_bytes()


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The 0-based lines of every docstring that has its lines to itself."""
    lines = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        first = body[0] if body else None
        if not (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            continue
        own_line = isinstance(node, ast.Module) or first.lineno > node.lineno
        alone = len(body) == 1 or body[1].lineno > first.end_lineno
        if own_line and alone:
            lines.update(range(first.lineno - 1, first.end_lineno))
    return lines


def _without(source: str, names: Sequence[str], *, docstrings: bool = True) -> tuple[str, set[str]]:
    """``source`` without its top-level assignments to ``names`` (and the comment lines right
    above each) and, with ``docstrings`` false, without its docstrings; and the names it
    found."""
    lines = source.splitlines(keepends=True)
    drop, found = set(), set()
    tree = ast.parse(source)
    if not docstrings:
        drop |= _docstring_lines(tree)
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        hit = {t.id for t in targets if isinstance(t, ast.Name) and t.id in names}
        if not hit:
            continue
        found |= hit
        start = node.lineno - 1
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1
        drop.update(range(start, node.end_lineno))
    return "".join(line for i, line in enumerate(lines) if i not in drop), found


#: Modules moved or renamed in 1.0.0 (when the book's code left the library), newest spelling
#: first: the fingerprint hashes each module's name and source in its recorded (0.x) spelling,
#: so a move alone, with the import lines it rewrites, leaves a recording current. A rename in
#: this table is the only change the fingerprint forgives; any other edit of a module makes it
#: stale.
MOVED: tuple[tuple[str, str], ...] = (
    ("fairbook.stats.between_runs", "fairbook.stats.runs"),
    ("fairbook_book.chapters", "fairbook.experiments"),
    ("fairbook_book.tooling", "fairbook.build"),
    ("fairbook_book.chapter_summary", "fairbook.reading"),
    *(
        (f"fairbook_book.{name}", f"fairbook.{name}")
        for name in (
            "recordings",
            "recorded",
            "ledger",
            "replication",
            "formatting",
            "widgets",
            "plots",
            "charts",
            "reproduction",
        )
    ),
)


def recorded_spelling(name: str) -> str:
    """A module's name as the recordings spell it (:data:`MOVED`).

    Examples
    --------
    >>> recorded_spelling("fairbook_book.chapters.ucerf.runs")
    'fairbook.experiments.ucerf.runs'
    >>> recorded_spelling("fairbook.stats.cps")
    'fairbook.stats.cps'
    """
    for new, old in MOVED:
        if name == new or name.startswith(new + "."):
            return old + name[len(new) :]
    return name


def _recorded_source(text: bytes) -> bytes:
    """``text`` with every moved module's dotted name (and ``from fairbook_book import x``)
    spelled as before the move."""
    out = text.decode("utf-8")
    for new, old in MOVED:
        out = re.sub(r"(?<![\w.])" + re.escape(new) + r"(?!\w)", old, out)
    out = re.sub(r"\bfrom fairbook_book import\b", "from fairbook import", out)
    return out.encode("utf-8")


def fingerprint(
    modules: Sequence[str],
    *,
    configuration: Sequence[str] = (),
    docstrings: bool = True,
    source: Callable[[str], bytes] | None = None,
) -> str:
    """SHA-256 of the named modules' source, in the given order (names included).

    Parameters
    ----------
    modules : sequence of str
        Importable module names.
    configuration : sequence of str, optional
        Top-level assignments left out of every module's source, with the comment lines just
        above them (:attr:`Recordable.configuration`); each must occur in some module. With
        none (and ``docstrings``), the fingerprint is that of the whole files.
    docstrings : bool, default True
        False: every docstring that has its lines to itself is left out too.
    source : callable, optional
        ``source(module_name) -> bytes`` (default: the installed file): another version of
        the code, e.g. a past commit's (:func:`refingerprint`).

    Examples
    --------
    >>> len(fingerprint(["fairbook.stats.cps"]))
    64
    >>> fingerprint(["fairbook.stats.cps"]) == fingerprint(["fairbook.metrics.rates"])
    False
    >>> fingerprint(["fairbook.stats.cps"], configuration=["NOT_THERE"])
    Traceback (most recent call last):
    ...
    ValueError: configuration ['NOT_THERE'] is not assigned at the top of any of the modules
    """
    read = _installed_source if source is None else source
    digest, found = hashlib.sha256(), set()
    for name in modules:
        text = _recorded_source(read(name))
        name = recorded_spelling(name)
        if configuration or not docstrings:
            kept, hit = _without(text.decode("utf-8"), configuration, docstrings=docstrings)
            text, found = kept.encode("utf-8"), found | hit
        digest.update(name.encode() + b"\0")
        digest.update(text)
        digest.update(b"\0")
    missing = sorted(set(configuration) - found)
    if missing:
        raise ValueError(
            f"configuration {missing} is not assigned at the top of any of the modules"
        )
    return digest.hexdigest()


def recorded_folder(chapter: str, name: str, *, root=None) -> Path:
    """Where a recording's units live: ``root/<chapter>/<name>`` (default: the package's
    ``fairbook/recorded`` folder, which is versioned with the code)."""
    base = Path(root) if root is not None else Path(str(importlib.resources.files("fairbook_book")))
    if root is None:
        base = base / "recorded"
    return base / chapter / name


def _git(*args: str) -> str:
    try:
        out = subprocess.run(
            ["git", *args], capture_output=True, text=True, check=False, timeout=10
        )
    except (OSError, subprocess.SubprocessError):  # pragma: no cover - git missing
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def _versions() -> dict:
    versions = {}
    for package in PACKAGES:
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def _subset(settings: dict, keys: Sequence[str]) -> dict:
    def plain(value):
        if isinstance(value, (tuple, list)):
            return [plain(v) for v in value]
        if hasattr(value, "item"):
            return value.item()
        return value

    missing = [k for k in keys if k not in settings]
    if missing:
        raise ValueError(f"the settings lack the recording's parameters {missing}")
    return {k: plain(settings[k]) for k in keys}


#: The provenance keys every unit must have, with their types (what listing and merging read).
_REQUIRED = {
    "unit": (str,),
    "parameters": (dict,),
    "fingerprint": (str,),
    "seconds": (int, float),
    "date": (str,),
    "commit": (str,),
    "cores": (int, type(None)),
    "n_jobs": (int, str),
}


@dataclass(frozen=True)
class Damage:
    """What is wrong with one recorded unit, and whether recording it again mends it."""

    unit: str
    problem: str
    fixable: bool = True


class DamagedRecording(ValueError):
    """A recording folder holds damaged units (unreadable, incomplete or truncated files).

    The message is one line naming each unit, its damage, and whether recording it again
    fixes it (``fairbook-book record`` re-records a damaged unit it is asked for).
    ``damaged`` maps each unit to its :class:`Damage`.

    Examples
    --------
    >>> str(DamagedRecording("03_x", "cps", {"n5": Damage("n5", "its table n5.parquet is gone")}))
    '03_x/cps: unit n5 is damaged (its table n5.parquet is gone); recording it again fixes it: fairbook-book record 03_x cps --units n5 (at the profile it was recorded with)'
    """  # noqa: E501

    def __init__(self, chapter: str, name: str, damaged: dict[str, Damage]):
        self.chapter, self.name, self.damaged = chapter, name, dict(damaged)
        units = sorted(self.damaged)
        parts = [f"{u} ({self.damaged[u].problem})" for u in units]
        if len(units) == 1:
            what = f"unit {units[0]} is damaged ({self.damaged[units[0]].problem})"
        else:
            what = f"units {', '.join(parts)} are damaged"
        fixable = [u for u in units if self.damaged[u].fixable]
        text = f"{chapter}/{name}: {what}"
        if fixable:
            it = "it" if len(fixable) == 1 else "them"
            text += (
                f"; recording {it} again fixes {it}: fairbook-book record {chapter} {name} "
                f"--units {' '.join(fixable)} (at the profile it was recorded with)"
            )
        stuck = [u for u in units if not self.damaged[u].fixable]
        if stuck:
            text += (
                f"; recording again does not fix {', '.join(stuck)}: remove or repair "
                f"{'that path' if len(stuck) == 1 else 'those paths'} in {chapter}/{name} first"
            )
        super().__init__(text)


def _check_unit(folder: Path, unit: str) -> tuple[dict | None, Damage | None]:
    """The provenance of ``unit`` in ``folder`` if the unit is whole; else what is wrong.

    ``(None, None)``: not recorded (no provenance; a table without one is a unit
    interrupted before its provenance was written, which the next recording overwrites).
    """
    path = folder / f"{unit}.json"
    table = folder / f"{unit}.parquet"
    if not path.exists() and not path.is_symlink():
        return None, None
    if not path.is_file():
        return None, Damage(unit, f"{path.name} is not a file", fixable=False)
    try:
        record_ = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        return None, Damage(unit, f"{path.name} cannot be read: {os_reason(exc)}")
    except (UnicodeDecodeError, ValueError):
        return None, Damage(unit, f"its provenance {path.name} is not JSON")
    if not isinstance(record_, dict):
        return None, Damage(unit, f"its provenance {path.name} is not a JSON object")
    missing = [key for key in _REQUIRED if key not in record_]
    if missing:
        return None, Damage(unit, f"its provenance {path.name} lacks {', '.join(missing)}")
    for key, types in _REQUIRED.items():
        value = record_[key]
        if not isinstance(value, types) or isinstance(value, bool):
            return None, Damage(unit, f"its provenance {path.name} has a bad {key}: {value!r:.40}")
    if record_["unit"] != unit:
        return None, Damage(unit, f"its provenance {path.name} names unit {record_['unit']!r:.40}")
    if not table.is_file():
        return None, Damage(unit, f"its table {table.name} is gone")
    try:
        import pyarrow.parquet as pq

        rows = pq.read_metadata(table).num_rows
    except Exception as exc:  # truncated or not Parquet (pyarrow raises several types)
        del exc
        return None, Damage(unit, f"its table {table.name} is truncated or not Parquet")
    if isinstance(record_.get("rows"), int) and record_["rows"] != rows:
        return None, Damage(
            unit, f"its table {table.name} has {rows} rows, its provenance says {record_['rows']}"
        )
    return record_, None


def _scan(folder: Path) -> tuple[dict[str, dict], dict[str, Damage]]:
    """The whole units of ``folder`` (their provenance) and the damaged ones."""
    records, damaged = {}, {}
    for path in sorted(folder.glob("*.json")):
        record_, damage = _check_unit(folder, path.stem)
        if damage is not None:
            damaged[path.stem] = damage
        elif record_ is not None:
            records[path.stem] = record_
    return records, damaged


def table_digest(path: Path) -> str:
    """SHA-256 of a unit's table file (its bytes, as written), the ``table_sha256`` of its
    provenance.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "u.parquet"
    ...     _ = path.write_bytes(b"PAR1")
    ...     table_digest(path)[:12]
    'fbc62d3b5113'
    """
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def check_digests(chapter: str, name: str, *, root=None) -> list[str]:
    """Every unit of a recording whose table is not the one recorded (its SHA-256 differs
    from its provenance's ``table_sha256``), one line each; empty when all agree.

    A damaged unit (unreadable provenance, a missing or truncated table) raises
    :class:`DamagedRecording`, as loading does. Units recorded before digests were written
    have none to check and are named as such.
    """
    folder = recorded_folder(chapter, name, root=root)
    problems = []
    for unit, record_ in (_read_provenance(folder) if folder.is_dir() else {}).items():
        expected = record_.get("table_sha256")
        if expected is None:
            problems.append(f"unit {unit}: no table digest recorded (recorded before 1.0)")
        elif table_digest(folder / f"{unit}.parquet") != expected:
            problems.append(
                f"unit {unit} of {chapter}/{name}: its table is not the one recorded (SHA-256 "
                f"differs): edited or damaged since; recording it again fixes it: "
                f"fairbook-book record {chapter} {name} --units {unit}"
            )
    return problems


def _read_provenance(folder: Path) -> dict[str, dict]:
    """The recorded units of ``folder`` (provenance and table both whole), by unit.

    Raises
    ------
    DamagedRecording
        If any unit's provenance or table is damaged (naming each, and whether recording it
        again fixes it).
    """
    records, damaged = _scan(folder)
    if damaged:
        raise DamagedRecording(folder.parent.name, folder.name, damaged)
    return records


def _load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):  # pragma: no cover - not on this platform
        return None


@contextlib.contextmanager
def _unit_lock(folder: Path, unit: str):
    """Hold ``folder/.<unit>.lock`` while recording ``unit``: yields None when this process
    holds it, or the pid (as text) of the process that does.

    An advisory ``flock``: the system releases it when its holder dies however it dies, so a
    lock is never stale (a file left behind by a killed holder is simply taken over).
    """
    if fcntl is None:  # pragma: no cover - Windows: no lock
        yield None
        return
    path = folder / f".{unit}.lock"
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            yield holder
            return
        try:  # the holder before us may have removed the file after we opened it
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        yield None
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)


def _replace(path: Path, write: Callable[[Path], None]) -> None:
    """Write ``path`` through a temporary file beside it, so it is whole or absent."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


@dataclass(frozen=True)
class _UnitJob:
    """Everything a worker needs to record one unit and write it."""

    recordable: Recordable
    unit: str
    settings: dict
    folder: Path
    fingerprint: str
    parameters: dict
    provenance: dict  # the fields common to every unit of this recording
    device: str = "cpu"


class UnitLost(RuntimeError):
    """A unit whose Dask workers all died while computing it (killed, out of memory): one
    line naming it; the units finished before it are written, and recording again resumes."""


def _recorded(record_: dict | None, fingerprint_: str, parameters: dict) -> bool:
    return (
        record_ is not None
        and record_["fingerprint"] == fingerprint_
        and record_["parameters"] == parameters
    )


def _machine(device: str = "cpu") -> dict:
    """The facts of the machine a unit runs on, read there: host, cores, Python, package
    versions, CPU kernels, kernel signature and device."""
    return {
        "host": platform.node() or "unknown",
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "packages": _versions(),
        # the processor and the CPU kernels in force: bit-exact only under the same ones
        "instruction_set": instruction_set.describe(),
        # the kernel signature: a re-run is bit-comparable only under an equal one
        # (fairbook_book.reproduction; fairbook-book verify)
        "kernels": kernel_signature(device=device),
        "device": device,
    }


def _run_unit(job: _UnitJob) -> tuple[pd.DataFrame, dict]:
    """Compute one unit's table where this is called (here, a joblib worker or a Dask
    worker) and the facts of the run: the machine's (:func:`_machine`), wall and CPU
    seconds, the load average before, the date. A CUDA device that is not here is refused
    first (:func:`fairbook.devices.check_device`)."""
    if job.device.startswith("cuda"):
        from fairbook.devices import check_device

        check_device(job.device, where=f"host {platform.node() or 'unknown'}")
    load_before = _load_average()
    start, cpu_start = time.perf_counter(), time.process_time()
    table = job.recordable.run(job.unit, job.settings)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    facts = {
        **_machine(job.device),
        "seconds": seconds,
        # CPU time of the unit's process (all its threads) and the machine's 1-minute
        # load average when it started: wall seconds on a shared machine overstate the cost
        "cpu_seconds": cpu,
        "load_average": load_before,
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    return table, facts


def _write_unit(job: _UnitJob, table: pd.DataFrame, facts: dict) -> Path:
    """Write one computed unit (call it holding the unit's lock): the table, then the
    provenance, each through a temporary file; the table's path."""
    unit, folder = job.unit, job.folder
    provenance = {**job.provenance, **facts, "unit": unit, "rows": len(table)}
    table_path, json_path = folder / f"{unit}.parquet", folder / f"{unit}.json"
    try:
        # the old provenance goes first: a table without one is an unfinished unit
        json_path.unlink(missing_ok=True)
        _replace(table_path, lambda p: table.to_parquet(p, index=False, compression="zstd"))
        # the table's digest: `fairbook-book verify` checks every unit's table against it
        provenance["table_sha256"] = table_digest(table_path)
        text = json.dumps(provenance, indent=1, default=str) + "\n"
        _replace(json_path, lambda p: p.write_text(text, encoding="utf-8"))
    except OSError as exc:
        raise ValueError(
            f"cannot write unit {unit} into {folder}: {os_reason(exc)} (units written "
            "before it are kept; record again once the folder is writable)"
        ) from None
    return table_path


def _record_unit(job: _UnitJob) -> tuple[str, str, Path | None]:
    """Record one unit under its lock and write its table and provenance; returns
    ``(unit, outcome, table path)`` with outcome ``"written"``, ``"busy <pid>"`` (another
    process records it) or ``"recorded"`` (another process recorded it meanwhile)."""
    unit, folder = job.unit, job.folder
    with _unit_lock(folder, unit) as holder:
        if holder is not None:
            return unit, f"busy {holder}", None
        if _recorded(_check_unit(folder, unit)[0], job.fingerprint, job.parameters):
            return unit, "recorded", None
        table, facts = _run_unit(job)
        table_path = _write_unit(job, table, facts)
    return unit, "written", table_path


def _record_on_dask(jobs: Sequence[_UnitJob], scheduler, *, name: str, n_workers=None):
    """Yield ``(unit, outcome, table path)`` like :func:`_record_unit` for each job, its
    table computed on the Dask cluster ``scheduler`` and written here (module docstring).

    Every unit's lock is taken here before it is submitted and held until it is written,
    so a local recorder of the same folder skips it; on any exception (Ctrl-C included) the
    units still out are cancelled and their locks released.
    """
    from distributed import KilledWorker, as_completed

    from fairbook import cluster

    with contextlib.ExitStack() as stack:
        client = stack.enter_context(cluster.connect(scheduler, n_workers=n_workers))
        devices = sorted({job.device for job in jobs if job.device.startswith("cuda")})
        for device in devices:
            cluster.check_workers_device(client, device)
        out: dict = {}
        try:
            for job in jobs:
                lock = contextlib.ExitStack()
                holder = lock.enter_context(_unit_lock(job.folder, job.unit))
                if holder is not None:
                    lock.close()
                    yield job.unit, f"busy {holder}", None
                    continue
                if _recorded(_check_unit(job.folder, job.unit)[0], job.fingerprint,
                             job.parameters):  # fmt: skip
                    lock.close()
                    yield job.unit, "recorded", None
                    continue
                # a key of its own each time: a resumed recording must not find the erred
                # task of a stopped one under the same key
                key = f"record-{name}-{job.unit}-{uuid.uuid4().hex}"
                future = client.submit(_run_unit, job, key=key, pure=False)
                out[future] = (job, lock)
            for future in as_completed(list(out)):
                job, lock = out.pop(future)
                with lock:
                    try:
                        table, facts = future.result()
                    except KilledWorker:
                        future.cancel()
                        raise UnitLost(
                            f"unit {job.unit} of {name} was lost with every worker that ran it "
                            "(killed, or out of memory); the units finished before it are "
                            "written: record again to resume"
                        ) from None
                    facts = {**facts, "scheduler": cluster.describe_client(client)}
                    path = _write_unit(job, table, facts)
                yield job.unit, "written", path
        finally:
            for future, (_, lock) in out.items():
                future.cancel()
                lock.close()


def _writable_folder(folder: Path) -> None:
    """Create ``folder`` and show that a file can be written in it, or raise ``ValueError``
    (before any unit is computed)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=folder, prefix=".write-test-")
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise ValueError(
            f"cannot record into {folder}: {os_reason(exc)}; nothing was computed"
        ) from None


def _echo_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def record(
    chapter: str,
    recordable: Recordable,
    settings: dict,
    *,
    units: Sequence[str] | None = None,
    root=None,
    progress: bool | None = None,
    command: str | None = None,
    echo: Callable[[str], None] | None = _echo_stderr,
    scheduler: str | None = None,
) -> list[Path]:
    """Run and write the units that are not yet recorded with today's code and parameters.

    Before computing anything, the recording folder is created and shown to be writable.
    A unit whose files are damaged (unreadable or incomplete provenance, a table that is
    gone or truncated) is recorded again, and ``echo`` says so. Each unit is recorded under
    a lock file (``.<unit>.lock``, an ``flock`` the system releases when its holder dies), so
    two recorders of one folder never compute the same unit: the second skips it and says
    which process holds it. Tables and provenance are written through temporary files, the
    provenance last (a unit is whole or not recorded). SIGTERM and SIGHUP stop the recording
    like Ctrl-C (:func:`fairbook.parallel.stop_on_signals`), and worker processes end when
    this process dies, even by ``kill -9`` (:func:`fairbook.parallel.guarded`; the pools a
    unit makes itself are ended by :func:`fairbook.parallel.reaper`).

    Each unit runs on ``settings["device"]`` (default ``"cpu"``), written into its
    provenance with the kernel signature; a CUDA device that is not there is refused before
    anything is computed (:func:`fairbook.devices.check_device`, on every Dask worker too),
    and again by each unit. A unit recorded here under another kernel signature than units
    already in the folder is written (each unit names its own), and ``echo`` says so once.

    Parameters
    ----------
    chapter : str
        The chapter's notebook stem (``"03_small_groups"``).
    recordable : Recordable
    settings : dict
        The chapter's settings (usually its ``full`` profile); ``settings["n_jobs"]`` units
        run side by side (joblib; default 1).
    units : sequence of str, optional
        Only these units (default: every unit of ``recordable.units(settings)``).
    root : path, optional
        Another folder than the package's ``recorded/`` (tests, or a read-only install).
    progress : bool or None
        A tqdm bar over the units (None: only on a terminal).
    command : str, optional
        The command to record (default: this process's command line).
    echo : callable or None
        Called with one line for each unit recorded again because it was damaged, and each
        unit skipped because another process records it (default: printed to stderr;
        None: silent).
    scheduler : str or distributed.Client, optional
        Run the units on a Dask cluster: ``"local"`` (a ``LocalCluster`` on this machine,
        ``n_jobs`` workers when more than 1, else one per core), a scheduler's address
        (``tcp://host:8786``), or a connected client; this process writes each finished
        unit (module docstring; :mod:`fairbook.cluster`). None (default): joblib here.

    Returns
    -------
    list of Path
        The Parquet files written (units already recorded are skipped).

    Raises
    ------
    ValueError
        Unknown units, settings that lack the recording's parameters, a folder that cannot
        be written (before anything is computed), a unit whose files cannot be written, a
        device that is not there (:class:`fairbook.devices.DeviceUnavailable`), or a Dask
        scheduler that cannot be reached.
    UnitLost
        A unit whose Dask workers all died while computing it.

    Examples
    --------
    >>> import tempfile
    >>> r = Recordable("toy", lambda s: ["a", "b"], lambda u, s: pd.DataFrame({"x": [1]}),
    ...                depends=("fairbook.stats.cps",), parameters=())
    >>> root = tempfile.mkdtemp()
    >>> [p.name for p in record("00_toy", r, {}, root=root, progress=False)]
    ['a.parquet', 'b.parquet']
    >>> (Path(root) / "00_toy" / "toy" / "b.parquet").write_bytes(b"PAR1")
    4
    >>> [p.name for p in record("00_toy", r, {}, root=root, progress=False, echo=print)]
    unit b of 00_toy/toy is damaged (its table b.parquet is truncated or not Parquet): recording it again
    ['b.parquet']
    """  # noqa: E501
    say = echo or (lambda message: None)
    settings = recordable.settings_for(settings)
    all_units = list(recordable.units(settings))
    chosen = all_units if units is None else [str(u) for u in units]
    unknown = sorted(set(chosen) - set(all_units))
    if unknown:
        raise ValueError(
            f"unknown unit(s) {unknown} of {chapter}/{recordable.name}; "
            f"its units are {all_units[:5]}{' ...' if len(all_units) > 5 else ''}"
        )
    folder = recorded_folder(chapter, recordable.name, root=root)
    current = recordable.fingerprint()
    parameters = _subset(settings, recordable.parameters)
    _writable_folder(folder)
    done, damaged = _scan(folder)
    for unit in chosen:
        if unit in damaged:
            if not damaged[unit].fixable:
                raise DamagedRecording(chapter, recordable.name, {unit: damaged[unit]})
            say(
                f"unit {unit} of {chapter}/{recordable.name} is damaged "
                f"({damaged[unit].problem}): recording it again"
            )
    todo = [u for u in chosen if not _recorded(done.get(u), current, parameters)]
    device = str(settings.get("device") or "cpu")
    if todo and device.startswith("cuda") and scheduler is None:
        from fairbook.devices import check_device

        check_device(device)  # before anything is computed (each unit checks again)
    if todo and scheduler is None:
        _say_other_signatures(done, kernel_signature(device=device), chapter, recordable, say)
    commit = _git("rev-parse", "--short", "HEAD")
    n_jobs = settings.get("n_jobs", 1)
    common = {
        "chapter": chapter,
        "recording": recordable.name,
        "command": command or " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "parameters": parameters,
        "commit": commit or "unknown",
        "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "fingerprint": current,
        "depends": list(recordable.depends),
        "configuration": list(recordable.configuration),
        "docstrings": recordable.docstrings,
        # the machine's facts (host, cores, packages, kernels, device) are read where each
        # unit runs (_machine)
        "n_jobs": n_jobs,
    }
    jobs = (
        _UnitJob(recordable, u, settings, folder, current, parameters, common, device) for u in todo
    )
    written = []
    disable = None if progress is None else not progress
    # stop_on_signals: SIGTERM/SIGHUP unwind like Ctrl-C; reaper: after a kill -9 of this
    # process, every worker it started (including a unit's own pools) is killed
    with stop_on_signals(), reaper():
        if scheduler is not None and todo:
            results = _record_on_dask(
                list(jobs),
                scheduler,
                name=f"{chapter}/{recordable.name}",
                n_workers=n_jobs if isinstance(n_jobs, int) and n_jobs > 1 else None,
            )
        elif n_jobs == 1 or len(todo) <= 1:
            results = (_record_unit(job) for job in jobs)
        else:
            results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(guarded(_record_unit))(job) for job in jobs
            )
        # closing: an exception (Ctrl-C, SIGTERM) stops joblib's workers before it goes on
        with contextlib.closing(results):
            bar = tqdm(
                results,
                total=len(todo),
                desc=f"record {chapter}/{recordable.name}",
                disable=disable,
            )
            for unit, outcome, table_path in bar:
                if outcome == "written":
                    written.append(table_path)
                elif outcome.startswith("busy"):
                    say(
                        f"unit {unit} of {chapter}/{recordable.name} is being recorded by "
                        f"another process (pid {outcome.split()[1]}): skipped here"
                    )
    return written


def _say_other_signatures(done: dict, here: dict, chapter: str, recordable, say) -> None:
    """One line when units already recorded in the folder have another kernel signature
    than the one the new units are recorded under (item 4: never mixed silently)."""
    others = sorted(
        {describe_signature(signature_of(p)) for p in done.values()} - {describe_signature(here)}
    )
    if others:
        say(
            f"{chapter}/{recordable.name} holds units recorded under another kernel signature "
            f"({'; '.join(others)}); the new units are recorded under this machine's "
            f"({describe_signature(here)}), and `fairbook-book record {chapter[:2]}` lists both"
        )


def recorded_units(chapter: str, recordable: Recordable, *, settings: dict, root=None) -> list[str]:
    """The units of ``recordable`` recorded with ``settings``' parameters, read from their
    provenance alone (no table is read; :func:`load` reads the tables too).

    Examples
    --------
    >>> import tempfile
    >>> r = Recordable("toy", lambda s: ["a"], lambda u, s: pd.DataFrame({"x": [1]}),
    ...                depends=("fairbook.stats.cps",), parameters=("scale",))
    >>> recorded_units("00_toy", r, settings={"scale": 1.0}, root=tempfile.mkdtemp())
    []
    """
    folder = recorded_folder(chapter, recordable.name, root=root)
    if not folder.is_dir():
        return []
    wanted = _subset(recordable.settings_for(settings), recordable.parameters)
    return [u for u, p in _read_provenance(folder).items() if p["parameters"] == wanted]


def load(
    chapter: str, recordable: Recordable, *, settings: dict | None = None, root=None
) -> Recording:
    """The recorded units of ``recordable`` merged into one table, with their provenance.

    Only units whose parameters equal ``settings``' (when given) are merged; ``stale`` is
    computed against today's fingerprint of ``recordable.depends``.

    Examples
    --------
    >>> import tempfile
    >>> r = Recordable("toy", lambda s: ["a"], lambda u, s: pd.DataFrame({"x": [1]}),
    ...                depends=("fairbook.stats.cps",), parameters=())
    >>> load("00_toy", r, root=tempfile.mkdtemp()).empty
    True
    """
    folder = recorded_folder(chapter, recordable.name, root=root)
    current = recordable.fingerprint()
    settings = None if settings is None else recordable.settings_for(settings)
    wanted = None if settings is None else _subset(settings, recordable.parameters)
    expected = None if settings is None else len(recordable.units(settings))
    frames, provenance = [], []
    for unit, record_ in (_read_provenance(folder) if folder.is_dir() else {}).items():
        if wanted is not None and record_["parameters"] != wanted:
            continue
        try:
            table = pd.read_parquet(folder / f"{unit}.parquet")
        except Exception:  # damaged past its footer (pyarrow raises several types)
            damage = Damage(unit, f"its table {unit}.parquet cannot be read")
            raise DamagedRecording(chapter, recordable.name, {unit: damage}) from None
        table.insert(0, "unit", unit)
        frames.append(table)
        provenance.append(record_)
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return Recording(chapter, recordable.name, frame, provenance, current, expected)


def _git_source(commit: str, *, top: Path) -> Callable[[str], bytes]:
    """``source(module_name)`` as the module's file was at ``commit`` of the repository at
    ``top`` (the module is located by today's import path)."""

    def read(name: str) -> bytes:
        try:
            path = _module_file(name).resolve().relative_to(top.resolve())
        except ValueError:
            raise ValueError(f"{name} is not inside the git checkout {top}") from None
        # before 1.0.0 the module lived in the library: src/<its recorded spelling>.py
        recorded = recorded_spelling(name)
        before = Path("src", *recorded.split(".")).with_suffix(path.suffix)
        if path.name == "__init__.py":
            before = Path("src", *recorded.split("."), "__init__.py")
        for candidate in dict.fromkeys([path, before]):
            out = subprocess.run(
                ["git", "-C", str(top), "show", f"{commit}:{candidate.as_posix()}"],
                capture_output=True,
                check=False,
                timeout=30,
            )
            if out.returncode == 0:
                return out.stdout
        raise ValueError(f"commit {commit} has no {path.as_posix()}")

    return read


def refingerprint(
    chapter: str,
    recordable: Recordable,
    *,
    root=None,
    source_at: Callable[[str], Callable[[str], bytes]] | None = None,
) -> dict[str, str]:
    """Re-attest recorded units whose code has not changed, after the fingerprint's
    definition has (new ``depends`` or ``configuration``), without running them again.

    A unit qualifies when it was recorded from a clean checkout (``dirty`` false) and

    1. its commit's sources give the fingerprint it recorded (under the ``depends`` and
       ``configuration`` it recorded): the commit is what ran; and
    2. its commit's sources give today's fingerprint under today's ``depends`` and
       ``configuration``: what the fingerprint covers is unchanged since.

    Its provenance then takes today's fingerprint, ``depends`` and ``configuration``, and
    keeps the old ones in a ``refingerprinted`` list with the date. Any other unit is left
    as it is (and shows as stale until it is recorded again).

    Parameters
    ----------
    chapter : str
    recordable : Recordable
    root : path, optional
        As for :func:`load`.
    source_at : callable, optional
        ``source_at(commit) -> source`` for :func:`fingerprint` (default: ``git show`` in
        this checkout).

    Returns
    -------
    dict
        Each unit's outcome: ``"current"`` (nothing to do), ``"re-attested"``, or why not.
    """
    folder = recorded_folder(chapter, recordable.name, root=root)
    if source_at is None:
        top = _git("rev-parse", "--show-toplevel")
        if not top:
            raise ValueError("re-attesting reads past commits: run it inside a git checkout")

        def source_at(commit):
            return _git_source(commit, top=Path(top))

    current = recordable.fingerprint()
    outcome = {}
    for unit, record_ in (_read_provenance(folder) if folder.is_dir() else {}).items():
        if record_["fingerprint"] == current:
            outcome[unit] = "current"
            continue
        if record_.get("dirty", True) or record_.get("commit", "unknown") == "unknown":
            outcome[unit] = "not re-attested: recorded from uncommitted code"
            continue
        read = source_at(record_["commit"])
        try:
            then = fingerprint(
                record_["depends"],
                configuration=record_.get("configuration", ()),
                docstrings=record_.get("docstrings", True),
                source=read,
            )
            if then != record_["fingerprint"]:
                outcome[unit] = (
                    f"not re-attested: commit {record_['commit']} does not give the recorded "
                    "fingerprint"
                )
                continue
            if recordable.fingerprint(source=read) != current:
                outcome[unit] = "not re-attested: the code has changed since its commit"
                continue
        except (ValueError, SyntaxError, UnicodeDecodeError) as exc:
            outcome[unit] = f"not re-attested: {exc}"
            continue
        record_.setdefault("refingerprinted", []).append(
            {
                "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "fingerprint": record_["fingerprint"],
                "depends": record_["depends"],
                "configuration": record_.get("configuration", []),
                "docstrings": record_.get("docstrings", True),
            }
        )
        record_.update(
            fingerprint=current,
            depends=list(recordable.depends),
            configuration=list(recordable.configuration),
            docstrings=recordable.docstrings,
        )
        (folder / f"{unit}.json").write_text(
            json.dumps(record_, indent=1, default=str) + "\n", encoding="utf-8"
        )
        outcome[unit] = "re-attested"
    return outcome
