"""The ``fairbook-book`` command line: the book's commands, in a checkout of the repository.

``build`` (execute the chapters, build the static book), ``run`` (one chapter), ``record``
(the full-profile runs), ``verify`` (this machine against the recordings), ``chapters``,
``figures``, ``ledger`` and ``student``; and the library's own commands (``audit``,
``data``), the same as ``fairbook``'s. Every command first caps the CPU kernels
(:func:`fairbook.instruction_set.pin`), so that what it runs reproduces the recordings.

Exit status: 0 success, 1 failure (a chapter raised), 2 usage error (unknown chapter, unknown
parameter, bad value, a damaged recording, an empty or unreadable ledger), 130 after Ctrl-C,
128 + the signal after SIGTERM or SIGHUP during ``record``, 141 when the reader of a pipe stops
early (``fairbook-book ledger | head``), without a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from fairbook import cli as fairbook_cli
from fairbook.atomic import os_reason
from fairbook.cli import CommandLine, UsageError, arg
from fairbook_book.tooling.parameter_ranges import rule_for

__all__ = ["COMMAND_LINE", "LEDGER_OUTCOMES", "build_parser", "main"]


def _book_errors() -> tuple[type[Exception], ...]:
    """The book's own errors that end a command with one line and exit status 2: a chapter
    that is not there or a bad parameter, a damaged recording."""
    from fairbook_book.recordings import DamagedRecording
    from fairbook_book.tooling.chapters import ChapterError

    return ChapterError, DamagedRecording


COMMAND_LINE = CommandLine(
    "fairbook-book",
    "fairbook-book: build the fairbook book, rerun and record its chapters, verify this "
    "machine against the recordings, tally the replication ledger.",
    usage_errors=_book_errors(),
)
subcommand = COMMAND_LINE.subcommand


@subcommand(
    "build",
    help="execute every chapter with papermill and build the static book in _build/html",
    arguments=[
        arg(
            "--profile",
            choices=("fast", "full"),
            default="fast",
            help="fast: minutes on 2 CPU cores (default); full: the papers' scale",
        ),
        arg(
            "--no-execute",
            action="store_true",
            help="reuse the executed notebooks in _build/executed (only re-render the HTML)",
        ),
        arg(
            "--no-cache",
            action="store_true",
            help="execute every chapter, even those unchanged since their last execution "
            "here (by default a chapter runs again only when its notebook, the modules it "
            "imports, the package data, its parameters, the pinned versions or the kernel "
            "signature changed)",
        ),
        arg(
            "-j",
            "--jobs",
            type=int,
            default=1,
            help="execute up to JOBS chapters side by side, longest first (default 1; the "
            "Makefile passes the number of cores)",
        ),
        arg(
            "--timings",
            help="chapter seconds of an earlier build (JSON), to start the longest first when "
            "_build has none (the Makefile passes the committed "
            "tests/notebooks/reference/timings-<profile>.json)",
        ),
    ],
)
def _build(args: argparse.Namespace) -> int:
    """Execute every chapter (notebooks/NN_*.ipynb) with the chosen profile into
    _build/executed/notebooks, then build _build/html from those copies with
    `jupyter-book build -W -n --keep-going`."""
    from fairbook_book.tooling import chapters

    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    return chapters.build(
        profile=args.profile,
        execute_chapters=not args.no_execute,
        jobs=args.jobs,
        timings_fallback=args.timings,
        use_cache=not args.no_cache,
    )


def _parameter_pairs(values: list[list[str]] | None) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for name, value in values or []:
        if name in pairs:
            raise UsageError(f"parameter {name} given twice")
        pairs[name] = value
    return pairs


@subcommand(
    "run",
    help="run one chapter with parameters (papermill) into _build/runs/",
    arguments=[
        arg("chapter", help="01, 01_metric_catalogue, metric_catalogue or the file name"),
        arg(
            "-p",
            "--parameter",
            nargs=2,
            action="append",
            metavar=("NAME", "VALUE"),
            help="set a parameter of the chapter's parameters cell (repeatable)",
        ),
        arg(
            "--profile",
            help="shorthand for -p profile VALUE: fast, full, or another profile the chapter "
            "declares (08: decisive; fairbook-book chapters lists them)",
        ),
        arg("-o", "--output", help="output notebook (default _build/runs/CHAPTER-PARAMS.ipynb)"),
        arg("--log-output", action="store_true", help="echo the cells' output while running"),
    ],
)
def _run(args: argparse.Namespace) -> int:
    """Execute one chapter with papermill. Parameters are checked against the chapter's
    `parameters` cell and converted to its declared types; see `fairbook-book chapters`."""
    from fairbook_book.tooling import chapters

    params = _parameter_pairs(args.parameter)
    if args.profile:
        if "profile" in params and params["profile"] != args.profile:
            raise UsageError("--profile and -p profile disagree")
        params["profile"] = args.profile
    try:
        result = chapters.run(
            args.chapter,
            params,
            output=args.output,
            log_output=args.log_output,
            progress=not args.log_output,
        )
    except OSError as exc:  # the output's folder cannot be made (a path under a file, ...)
        raise UsageError(
            f"cannot write {args.output or 'the output notebook'}: {os_reason(exc)}"
        ) from None
    if not result.ok:
        print(f"fairbook-book run: {result.chapter.slug} failed: {result.error}", file=sys.stderr)
        print(f"the executed notebook (with the traceback) is {result.output}", file=sys.stderr)
        return 1
    key_results = chapters.key_results_text(result.output)
    if key_results:
        print(f"Key results of {result.chapter.slug}:\n{key_results}\n")
    print(f"the executed notebook: {result.output}  ({result.seconds:.1f} s)")
    print(f"open it with: jupyter lab {result.output}")
    return 0


@subcommand(
    "record",
    help="record a chapter's expensive runs at full scale (resumable, unit by unit)",
    arguments=[
        arg("chapter", help="chapter number, stem or topic (e.g. 03)"),
        arg("recording", nargs="?", help="which recording (default: list them)"),
        arg("--units", nargs="+", help="only these units (default: all not yet recorded)"),
        arg(
            "--profile",
            default="full",
            help="fast, full, or another profile the chapter defines (08: decisive); default full",
        ),
        arg("--seed", type=int, default=0, help="the chapter's seed (default 0)"),
        arg("--n-jobs", type=int, default=1, help="units run side by side (default 1)"),
        arg("--into", help="another folder than the package's recorded/ (default)"),
        arg(
            "--scheduler",
            help="run the units on a Dask cluster: local (a LocalCluster of --n-jobs workers, "
            "default all cores) or a scheduler's address, tcp://host:8786; this process "
            "writes each finished unit (default: joblib processes here)",
        ),
        arg(
            "--device",
            help="where the units train their torch models: cpu, cuda or cuda:N (only the "
            "recordings of 06, 08 that train torch models on a device; default: the profile's)",
        ),
        arg(
            "--refingerprint",
            action="store_true",
            help="run nothing: re-attest the recorded units whose code (by their commit) is "
            "today's under the recording's current fingerprint definition",
        ),
    ],
)
def _record(args: argparse.Namespace) -> int:
    """Run a chapter's recordable computation at the given profile, one unit (a size, a seed)
    at a time, and write each unit's table with its provenance (command, parameters, commit,
    code fingerprint, packages, cores, wall time, date) under
    fairbook-book/src/fairbook_book/recorded/. Units
    already recorded by today's code with the same parameters are skipped, so an interrupted
    recording resumes. The chapter shows the recording beside its fast build, or as stale
    when the code it depends on has changed.

    --scheduler local|ADDRESS runs the units on a Dask cluster (fairbook.cluster); each unit's
    provenance names the host and kernel signature it ran under. --device cuda trains on a
    GPU where the recording's units take a device (fairbook.devices); a device that is not
    there is refused with one line."""
    import importlib

    from fairbook_book import recordings
    from fairbook_book.tooling import chapters

    chapter = chapters.resolve(args.chapter, chapters.discover())
    try:  # the seed's range, before anything is computed or created (issue 48, cause 7)
        rule_for(chapter.slug, "seed").check(args.seed)
    except ValueError as exc:
        raise UsageError(f"--seed: {exc}") from None
    package = importlib.import_module(f"fairbook_book.chapters.{chapter.topic}")
    available = getattr(package, "RECORDINGS", {})
    try:
        profile_settings = package.settings(args.profile)
    except ValueError as exc:  # an unknown profile
        raise UsageError(f"{chapter.slug}: {exc}") from None
    if not args.recording:
        return _record_listing(args, chapter, package, available, profile_settings)
    if args.recording not in available:
        raise UsageError(
            f"{chapter.slug} has no recording {args.recording!r}; "
            f"it has {sorted(available) or 'none'}"
        )
    if args.n_jobs == 0:
        raise UsageError("--n-jobs must not be 0 (1 = one at a time, -1 = all cores)")
    recordable = available[args.recording]
    scheduler = _record_scheduler(args)
    if args.device is not None:
        recordable, profile_settings = _record_device(
            chapter.slug, recordable, package, args.profile, args.device,
            here=scheduler in (None, "local"),
        )  # fmt: skip
    config = {"seed": args.seed, **profile_settings, "n_jobs": args.n_jobs}
    if args.refingerprint:
        return _record_refingerprint(args, chapter, recordable, config)
    try:
        written = recordings.record(
            chapter.slug,
            recordable,
            config,
            units=args.units,
            root=args.into,
            progress=None,
            echo=lambda line: print(f"fairbook-book record: {line}", file=sys.stderr, flush=True),
            scheduler=scheduler,
        )
        state = recordings.load(chapter.slug, recordable, settings=config, root=args.into)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except recordings.UnitLost as exc:
        print(f"fairbook-book record: {exc}", file=sys.stderr, flush=True)
        return 1
    print(f"{len(written)} unit(s) written. {state.describe()}")
    return 0


def _record_listing(args, chapter, package, available: dict, profile_settings: dict) -> int:
    """``fairbook-book record NN``: what each recording holds at this profile and seed."""
    from fairbook_book import recordings

    lines = [
        f"{chapter.slug} at profile {args.profile!r}, seed {args.seed}:"
        if available
        else f"{chapter.slug}: nothing to record"
    ]
    for name, recordable in available.items():
        config = {"seed": args.seed, **profile_settings}
        try:
            state = recordings.load(chapter.slug, recordable, settings=config, root=args.into)
            elsewhere = _recorded_at_other_profiles(
                chapter.slug, recordable, package, args.profile, seed=args.seed, root=args.into
            )
        except ValueError as exc:  # a damaged unit (recordings.DamagedRecording)
            raise UsageError(str(exc)) from None
        lines.append(f"{name}: {recordable.description}\n  {state.describe()}")
        lines += [
            f"  ({count} unit(s) recorded at profile {profile!r}: "
            f"fairbook-book record {args.chapter} --profile {profile})"
            for profile, count in elsewhere.items()
        ]
    print("\n".join(lines))  # only once every recording has been read: an error is alone
    return 0


def _record_refingerprint(args, chapter, recordable, config: dict) -> int:
    """``fairbook-book record NN NAME --refingerprint``: re-attest the unchanged units."""
    from fairbook_book import recordings

    if args.units:
        raise UsageError("--refingerprint checks every recorded unit; leave out --units")
    try:
        outcome = recordings.refingerprint(chapter.slug, recordable, root=args.into)
        state = recordings.load(chapter.slug, recordable, settings=config, root=args.into)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    for unit, result in outcome.items():
        print(f"{unit}: {result}")
    print(f"{len(outcome) or 'no'} unit(s) checked. {state.describe()}")
    return 0


def _record_scheduler(args: argparse.Namespace) -> str | None:
    """``--scheduler`` checked (``local`` or an address), or None; a local cluster gets
    ``--n-jobs`` workers when that is more than 1."""
    if args.scheduler is None:
        return None
    from fairbook.cluster import check_scheduler, probe_scheduler

    try:
        scheduler = check_scheduler(args.scheduler)
        if args.refingerprint:
            raise UsageError("--refingerprint runs nothing; leave out --scheduler")
        if scheduler != "local":  # before any folder or unit exists (issue 48, cause 7)
            probe_scheduler(scheduler)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return scheduler


def _record_device(chapter: str, recordable, package, profile: str, device: str, *, here: bool):
    """The recording and the profile's settings for ``--device DEVICE`` (fairbook.devices):
    refused with one line for a recording that trains no torch model, one that trains on
    the CPU only, or a device that is not here; for a recording that reads its device from
    its settings, the chapter's ``settings(profile, device=...)`` (and, when the device is
    one of its parameters and not the CPU, its own recording ``NAME-cuda``). ``here``
    false (a remote scheduler): the device is checked on the workers, not here."""
    from fairbook import devices

    try:
        devices.device_kind(device)
    except ValueError as exc:
        raise UsageError(f"--device: {exc}") from None
    use = devices.torch_use(chapter, recordable.name)
    where = f"{chapter}/{recordable.name}"
    if use is None:
        raise UsageError(f"--device applies to recordings that train torch models; {where} "
                         "trains none")  # fmt: skip
    if use.how == "cpu":
        raise UsageError(f"{where} trains on the CPU only: {use.note}")
    if use.how == "gpu" and devices.device_kind(device) != "cuda":
        raise UsageError(f"{where} trains on CUDA only ({use.note}); leave out --device")
    try:
        if here:
            devices.check_device(device)
    except devices.DeviceUnavailable as exc:
        raise UsageError(str(exc)) from None
    try:
        settings = package.settings(profile, device=device)
    except ValueError as exc:
        raise UsageError(f"{chapter}: {exc}") from None
    if use.how == "gpu":
        return recordable, settings
    return devices.on_device(recordable, device), settings


@subcommand(
    "verify",
    help="re-run each recording's cheapest unit here and say how far this machine is from it",
    arguments=[
        arg("chapters", nargs="*", help="chapter numbers or NN/recording (default: every one)"),
        arg("--json", action="store_true", help="print the outcomes as JSON"),
    ],
)
def _verify(args: argparse.Namespace) -> int:
    """For each recording: the kernel signature it was recorded under and this machine's,
    the largest absolute and relative deviation of the re-run from the recording, and which
    verdicts flip. Bits are required only under the same kernel signature; elsewhere a
    measured tolerance and equal verdicts (fairbook_book.reproduction). Exit 1 if a check fails."""
    import json

    from fairbook_book.reproduction.signature import describe_signature, kernel_signature
    from fairbook_book.tooling.verify import checks_for, remember_outcome, run_check

    try:
        chosen = checks_for(args.chapters)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    here = kernel_signature()
    if not args.json:
        print(f"this machine: {describe_signature(here)}", flush=True)
    from fairbook_book.tooling.chapters import BookPaths, ChapterError, find_root
    from fairbook_book.tooling.status import VERIFY_FOLDER, save_verify_outcome

    try:
        kept = BookPaths(find_root()).build / VERIFY_FOLDER
    except ChapterError:  # not in a checkout: nothing to keep for a status page
        kept = None
    outcomes = []
    for check in chosen:
        outcome = run_check(check, here=here)
        outcomes.append(outcome)
        if kept is not None:
            with contextlib.suppress(OSError):
                save_verify_outcome(outcome, kept)
        remember_outcome(outcome)  # make unit on this machine need not re-run it
        if not args.json:
            print("\n".join(outcome.lines()), flush=True)
    passed = sum(o.passed for o in outcomes)
    if args.json:
        print(json.dumps([o.to_dict() for o in outcomes], indent=1, default=str))
    else:
        print(f"{passed} of {len(outcomes)} recordings reproduce on this machine")
    return 0 if passed == len(outcomes) else 1


def _recorded_at_other_profiles(
    chapter, recordable, package, asked: str, *, seed: int, root
) -> dict[str, int]:
    """How many units of ``recordable`` were recorded at each of the chapter's profiles other
    than ``asked`` (the listing counts only the asked profile's: without this, a recording
    made at another profile would read as "nothing recorded yet"). Provenance only."""
    from fairbook_book import recordings

    counts = {}
    for profile in getattr(package, "PROFILES", {}):
        if profile == asked:
            continue
        config = {"seed": seed, **package.settings(profile)}
        units = recordings.recorded_units(chapter, recordable, settings=config, root=root)
        if units:
            counts[profile] = len(units)
    return counts


def _allowed(chapter: str, name: str) -> str | None:
    rule = rule_for(chapter, name)
    return None if rule is None else rule.describe()


@subcommand(
    "status",
    help="each chapter's last execution here, its fast and full run times, its recordings "
    "and verify's last result on this machine (the book's status page)",
)
def _status(args: argparse.Namespace) -> int:
    """Print what the book's status page shows: per chapter the last execution (date,
    profile, seconds, from the cache or why it ran, error), the fast profile's seconds and
    the full profile's recorded cost; per recording its units, cost, device and verify's
    last result on this machine."""
    from fairbook_book.tooling.status import status_text

    print(status_text())
    return 0


@subcommand(
    "chapters",
    help="list the chapters, their run times, profiles and parameters (with allowed values)",
    arguments=[arg("--json", action="store_true", help="machine-readable output")],
)
def _chapters(args: argparse.Namespace) -> int:
    """List every chapter with its title and the parameters `fairbook-book run -p` accepts."""
    from fairbook_book.tooling import chapters
    from fairbook_book.tooling.status import book_status

    found = chapters.discover()
    status = {row.slug: row for row in book_status()[0]} if found else {}
    if args.json:
        import json
        from dataclasses import asdict

        out = [
            {
                "number": c.number,
                "name": c.slug,
                "title": c.title,
                "path": str(c.path),
                "profiles": list(chapters.chapter_profiles(c)),
                "fast_seconds": status[c.slug].fast_seconds,
                "full_recorded_hours": status[c.slug].full_hours or None,
                "parameters": [
                    {**asdict(p), "allowed": _allowed(c.slug, p.name)}
                    for p in c.parameters().values()
                ],
            }
            for c in found
        ]
        print(json.dumps(out, indent=2))
        return 0
    if not found:
        print("no chapters (notebooks/NN_*.ipynb)")
        return 0
    for c in found:
        print(f"{c.number}  {c.slug}  {c.title}".rstrip())
        row = status[c.slug]
        fast = "?" if row.fast_seconds is None else f"about {row.fast_seconds:.0f} s"
        print(
            f"    run time: fast {fast} on the build machine; full: {row.full_text}; "
            f"profiles: {', '.join(chapters.chapter_profiles(c))}"
        )
        params = c.parameters()
        if not params:
            print("      (no parameters cell)")
        for p in params.values():
            print(f"      {p.describe()}")
            rule = rule_for(c.slug, p.name)
            if rule is not None:
                print(f"          allowed: {rule.describe()}")
    return 0


@subcommand(
    "figures",
    help="export every figure of a chapter as PNG (300 dpi) and SVG, for slides",
    arguments=[
        arg("chapter", help="01, 01_metric_catalogue, metric_catalogue or the file name"),
        arg("--out", required=True, metavar="DIR", help="folder for the files (created)"),
        arg(
            "-p",
            "--parameter",
            nargs=2,
            action="append",
            metavar=("NAME", "VALUE"),
            help="set a parameter of the chapter (repeatable), as for `fairbook-book run`",
        ),
    ],
)
def _figures(args: argparse.Namespace) -> int:
    """Execute the chapter (papermill) and save each of its matplotlib figures as
    <chapter>-figNN.png (300 dpi) and .svg in the order they appear."""
    from fairbook_book.tooling import chapters
    from fairbook_book.tooling.figures import export_figures

    parameters = _parameter_pairs(args.parameter)
    # refuse an unknown chapter or parameter before the folder is created
    chapters.coerce_parameters(chapters.resolve(args.chapter, chapters.discover()), parameters)
    try:
        export_figures(args.chapter, args.out, parameters=parameters)
    except RuntimeError as exc:
        print(f"fairbook-book figures: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        raise UsageError(f"cannot write to {args.out}: {os_reason(exc)}") from None
    return 0


#: ``fairbook_book.replication.OUTCOMES``, spelt out so that the command line starts without
#: importing pandas (a test holds the two equal).
LEDGER_OUTCOMES = (
    "matches",
    "uninformative",
    "differs",
    "in kind",
    "not in kind",
    "not comparable",
    "no verdict",
    "check holds",
    "check fails",
)


@subcommand(
    "ledger",
    help="the replication ledger: every paper number the book compares, with its verdict",
    arguments=[
        arg("--executed", help="folder of executed chapters (default _build/executed/notebooks)"),
        arg(
            "--by",
            choices=("headline", "paper", "table", "chapter", "kind"),
            default="table",
            help="the headline (each printed number once, per paper: results and checks "
            "apart, as on the book's first page), or tally by paper, by paper table "
            "(default), by chapter or by kind; papers and tables are tallied per budget "
            "(this build, recorded), as on the ledger page",
        ),
        arg(
            "--rows",
            choices=(*LEDGER_OUTCOMES, "all"),
            help="also list the rows with this outcome",
        ),
        arg("--csv", metavar="FILE", help="write the whole ledger as CSV"),
        arg("--json", metavar="FILE", help="write the whole ledger as JSON"),
        arg(
            "--compare",
            metavar="OLD",
            help="compare with an earlier build's ledger.csv or ledger.json: the verdicts and "
            "values that changed, the rows added and removed",
        ),
    ],
)
def _ledger(args: argparse.Namespace) -> int:
    """Read the replication rows that the executed chapters carry (run `make book` or
    `fairbook-book build` first) and print their tallies; optionally list rows or write them."""
    from pathlib import Path

    from fairbook_book.ledger import read_executed, tallies, write_ledger
    from fairbook_book.tooling import chapters

    folder = (
        Path(args.executed) if args.executed else chapters.BookPaths(chapters.find_root()).executed
    )
    if not folder.is_dir():
        raise UsageError(f"no executed chapters in {folder}: run `fairbook-book build` first")
    try:
        ledger = read_executed(folder)
    except ValueError as exc:  # a notebook that is not one, or rows of the wrong shape
        raise UsageError(str(exc)) from None
    if ledger.empty:
        held = "carry no ledger rows" if any(folder.glob("*.ipynb")) else "hold no *.ipynb"
        raise UsageError(
            f"the ledger is empty: the chapters in {folder} {held}; rebuild the book "
            "(`fairbook-book build`)"
        )
    if args.compare:
        return _compare_ledgers(args.compare, ledger)
    by = {
        "paper": ("paper", "budget"),
        "table": ("paper", "source", "budget"),
        "chapter": ("chapter",),
        "kind": ("kind", "budget"),
    }.get(args.by)
    import pandas as pd

    from fairbook_book.ledger import headline, headline_sentence

    with pd.option_context("display.width", 100, "display.max_rows", 500):
        if by is None:
            print(headline_sentence(ledger))
            print(headline(ledger).T.to_string())
        else:
            print(tallies(ledger, by=by).to_string())
        if args.rows:
            chosen = ledger if args.rows == "all" else ledger[ledger["outcome"] == args.rows]
            columns = ["paper", "source", "quantity", "paper_value", "ours", "verdict"]
            print()
            print(chosen[columns].to_string(index=False, max_colwidth=40))
    for target in (args.csv, args.json):
        if target:
            try:
                path = write_ledger(ledger, target)
            except (OSError, ValueError) as exc:
                raise UsageError(f"cannot write {target}: {exc}") from None
            print(f"wrote {len(ledger)} rows to {path}")
    return 0


def _compare_ledgers(old_path: str, ledger) -> int:
    """``fairbook-book ledger --compare OLD``: what changed since an earlier build's ledger."""
    import pandas as pd

    from fairbook.audit import printable
    from fairbook_book.ledger import compare_ledgers, read_ledger

    try:
        old = read_ledger(old_path)
    except ValueError as exc:
        raise UsageError(printable(exc)) from None
    changes = compare_ledgers(old, ledger)
    counts = changes["change"].value_counts()
    print(
        f"{len(old)} rows then, {len(ledger)} now: {counts.get('verdict', 0)} verdicts changed, "
        f"{counts.get('kind', 0)} kinds changed with the same verdict, "
        f"{counts.get('value', 0)} values changed with the same verdict, "
        f"{counts.get('added', 0)} rows added, {counts.get('removed', 0)} removed"
    )
    if not changes.empty:
        # a row of another build's file may hold terminal escapes: print them escaped
        shown = changes.map(lambda v: printable(v) if isinstance(v, str) else v)
        shown.columns = [printable(c) for c in shown.columns]
        with pd.option_context("display.width", 120, "display.max_rows", 1000):
            print(shown.to_string(index=False, max_colwidth=40))
    return 0


@subcommand(
    "student",
    help="write every chapter as a student notebook (exercises, no solutions)",
    arguments=[
        arg("--out", required=True, metavar="DIR", help="folder to write the notebooks into"),
        arg(
            "--edition",
            choices=("student", "instructor"),
            default="student",
            help="student: no solution text, code or output (default); instructor: everything",
        ),
        arg(
            "--executed",
            action="store_true",
            help="start from _build/executed/notebooks (run `make html` first): outputs kept, "
            "except the solutions'",
        ),
        arg(
            "--variant",
            type=int,
            help="also build this term's autograded assignments with other numbers than the "
            "book's (a whole number; make student VARIANT=N): the student notebooks go to "
            "DIR/student/assignments, the solutions, zips and keys to DIR/instructor/assignments",
        ),
    ],
)
def _student(args: argparse.Namespace) -> int:
    """Write every chapter (notebooks/NN_*.ipynb) as a student notebook: each exercise
    statement followed by a "Your answer:" cell, and no solution text, code or output.
    --edition instructor writes the chapters as they are."""
    from fairbook_book.tooling.chapters import BookPaths, find_root
    from fairbook_book.tooling.editions import EditionError, write_editions

    paths = BookPaths(find_root())
    source = paths.executed if args.executed else paths.notebooks
    if args.executed and not source.is_dir():
        raise UsageError(f"{source} does not exist: run `make html` first")
    try:
        reports = write_editions(
            source, args.out, edition=args.edition, protected=(paths.notebooks,)
        )
    except EditionError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {os_reason(exc)}") from None
    for report in reports:
        print(f"[{args.edition}] {report.line()}")
    print(f"[{args.edition}] {len(reports)} chapters in {args.out}")
    if args.variant is not None:
        from fairbook_book.tooling.assignments import GradingError, build_assignments

        if not 0 < args.variant < 2**31:
            raise UsageError(f"--variant must be a whole number from 1 to {2**31 - 1}")
        try:
            built = build_assignments(paths.notebooks, args.out, variant=args.variant)
        except GradingError as exc:
            raise UsageError(str(exc)) from None
        print(
            f"[variant {args.variant}] {len(built)} assignments: {args.out}/student/assignments "
            f"for the students; solutions, zips and keys in {args.out}/instructor/assignments"
        )
    return 0


# the library's commands too: one command in a checkout does everything
for _name, _command in fairbook_cli.COMMAND_LINE.commands.items():
    COMMAND_LINE.commands.setdefault(_name, _command)


def build_parser() -> argparse.ArgumentParser:
    """The ``fairbook-book`` command's parser."""
    return COMMAND_LINE.build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fairbook-book`` console script."""
    from fairbook.instruction_set import pin

    pin()  # before any PyTorch operation: the kernels the recordings were made with
    return COMMAND_LINE.main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
