"""The ``fairbook`` command line (also ``python -m fairbook``): the library's commands.

``fairbook audit FILE`` audits a file of predictions across groups; ``fairbook data`` fetches,
verifies, locates and exports the data sets. The book's own commands (``build``, ``run``,
``record``, ``verify``, ``chapters``, ``figures``, ``ledger``, ``student``) belong to the
repository's ``fairbook-book`` command, installed by ``make setup`` in a checkout; ``fairbook``
names them and says so.

Every subcommand is one function registered on a :class:`CommandLine` with
:meth:`CommandLine.subcommand`, which declares its arguments; the function receives the parsed
:class:`argparse.Namespace` and returns an exit status. ``fairbook-book`` is another
:class:`CommandLine` built the same way.

Exit status: 0 success, 1 failure (data did not verify), 2 usage error (bad input, a bad
value, an unknown data set), 130 after Ctrl-C, 141 when the reader of a pipe stops early
(``fairbook audit f.csv | head``), without a traceback.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BOOK_COMMANDS", "CommandLine", "UsageError", "arg", "build_parser", "main"]

Handler = Callable[[argparse.Namespace], int | None]


@dataclass
class _Arg:
    flags: tuple[str, ...]
    kwargs: dict[str, Any]


def arg(*flags: str, **kwargs: Any) -> _Arg:
    """An argument of a subcommand, as for :meth:`argparse.ArgumentParser.add_argument`."""
    return _Arg(flags, kwargs)


@dataclass
class _Command:
    name: str
    handler: Handler
    help: str
    description: str | None
    arguments: list[_Arg] | Callable[[], list[_Arg]] = field(default_factory=list)


class UsageError(Exception):
    """Printed as ``PROG COMMAND: error: ...`` with exit status 2."""


@dataclass
class CommandLine:
    """A command with subcommands: ``fairbook`` and the book's ``fairbook-book``.

    Parameters
    ----------
    prog : str
        The command's name.
    description : str
        What ``--help`` says first.
    usage_errors : tuple of exception types
        Besides :class:`UsageError`, the exceptions that end with exit status 2 and one line.

    Examples
    --------
    >>> demo = CommandLine("demo", "a demonstration")
    >>> @demo.subcommand("hello", help="say hello", arguments=[arg("--name", default="you")])
    ... def _hello(args):
    ...     print(f"hello, {args.name}")
    >>> demo.main(["hello", "--name", "Ada"])
    hello, Ada
    0
    """

    prog: str
    description: str
    usage_errors: tuple[type[Exception], ...] = ()
    commands: dict[str, _Command] = field(default_factory=dict)

    def subcommand(
        self,
        name: str,
        *,
        help: str,
        description: str | None = None,
        arguments: Sequence[_Arg] | Callable[[], list[_Arg]] = (),
    ) -> Callable[[Handler], Handler]:
        """Register the decorated function as ``PROG NAME``. ``arguments`` may be a function
        that returns them: it is called only when that subcommand is parsed (the audit's
        flags come from its options table, which imports the audit)."""

        def register(func: Handler) -> Handler:
            text = inspect.cleandoc(description or func.__doc__ or "") or None
            given = arguments if callable(arguments) else list(arguments)
            self.commands[name] = _Command(name, func, help, text, given)
            return func

        return register

    def build_parser(self, *, only: str | None = None) -> argparse.ArgumentParser:
        """The :class:`argparse.ArgumentParser` of every registered subcommand; with ``only``,
        the arguments given as a function are made for that subcommand alone."""
        parser = argparse.ArgumentParser(prog=self.prog, description=self.description)
        parser.add_argument("--version", action="version", version=f"{self.prog} {_version()}")
        sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
        for command in self.commands.values():
            p = sub.add_parser(
                command.name,
                help=command.help,
                description=command.description,
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
            arguments = command.arguments
            if callable(arguments):
                arguments = arguments() if only is None or only == command.name else []
            for a in arguments:
                p.add_argument(*a.flags, **a.kwargs)
            p.set_defaults(_handler=command.handler)
        return parser

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Parse ``argv`` (default: the process's), run the subcommand, return its status."""
        argv = list(sys.argv[1:] if argv is None else argv)
        chosen = next((a for a in argv if not a.startswith("-")), "")
        parser = self.build_parser(only=chosen)
        args = parser.parse_args(argv)
        try:
            status = args._handler(args)
        except (UsageError, *self.usage_errors) as exc:  # type: ignore[misc]
            parser.exit(2, f"{parser.prog} {args.command}: error: {exc}\n")
        except RecursionError:  # a file nested deeper than Python reads (e.g. JSON)
            parser.exit(
                2, f"{parser.prog} {args.command}: error: the input is nested too deeply to read\n"
            )
        except KeyboardInterrupt as exc:  # Ctrl-C; SIGTERM/SIGHUP in a recording (Terminated)
            return getattr(exc, "status", 130)
        except BrokenPipeError:  # the reader of a pipe stopped early (`... | head`)
            _silence_stdout()
            return 141  # 128 + SIGPIPE, as a shell reports it
        return int(status or 0)


def _version() -> str:
    """The installed library's version ("unknown" outside an install)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fairbook")
    except PackageNotFoundError:  # pragma: no cover (the command exists only when installed)
        return "unknown"


def _silence_stdout() -> None:
    """Point the standard output at the null device, so that the interpreter's flush at
    exit does not fail on the closed pipe again (with a traceback)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor behind stdout
        pass


def _why(exc: OSError) -> str:
    """An ``OSError`` in a few words (:func:`fairbook.atomic.os_reason`)."""
    from fairbook.atomic import os_reason

    return os_reason(exc)


COMMAND_LINE = CommandLine(
    "fairbook",
    "fairbook: fairness under uncertainty and variance - audit your predictions, manage the "
    "data sets. The book's commands are `fairbook-book` in a checkout.",
)
subcommand = COMMAND_LINE.subcommand

#: The book's commands: ``fairbook NAME`` says they are ``fairbook-book NAME`` in a checkout.
BOOK_COMMANDS = (
    "build",
    "run",
    "record",
    "verify",
    "chapters",
    "status",
    "figures",
    "ledger",
    "student",
)


# ---------------------------------------------------------------------------------------------
# subcommands


def _data_call(action: str, name: str | None, out: str | None = None) -> int:
    if action == "export":
        return _data_export(name, out)
    if action == "where" and name:
        from fairbook.data import SOURCES, path

        if name not in SOURCES:
            raise UsageError(f"unknown data set {name!r}; choose one of {', '.join(SOURCES)}")
        print(path(name))  # the file itself (fetched first if it is not cached yet)
        return 0
    if out is not None:
        raise UsageError(f"fairbook data {action} takes no output file (only export does)")
    try:
        from fairbook import data
    except ImportError as exc:
        print(f"fairbook data: the data layer is not importable: {exc}", file=sys.stderr)
        return 1
    func = getattr(data, {"where": "cache_dir"}.get(action, action), None)
    if func is None:
        print(f"fairbook data: fairbook.data has no {action}() yet", file=sys.stderr)
        return 1
    try:
        result = func() if action == "where" else func(name)
    except ValueError as exc:  # unknown data set name
        raise UsageError(str(exc)) from None
    except Exception as exc:
        print(f"fairbook data {action}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return _report(action, result)


def _data_export(name: str | None, out: str | None) -> int:
    """``fairbook data export NAME FILE``: a course lab's table as CSV."""
    from fairbook.data.labs import LAB_TABLES, write_lab_table

    if not name or not out:
        raise UsageError(
            f"fairbook data export needs a table and a file: fairbook data export "
            f"{next(iter(LAB_TABLES))} FILE.csv (tables: {', '.join(LAB_TABLES)})"
        )
    try:
        target, rows = write_lab_table(name, out)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {_why(exc)}") from None
    print(f"wrote {rows:,} rows to {target}")
    return 0


def _report(action: str, result: Any) -> int:
    """Print what the data layer returned. ``fetch`` gives ``name -> path``; ``verify``
    gives ``name -> True`` or a message saying what is wrong (a failure)."""
    if action == "where" or not hasattr(result, "items"):
        if result is False:
            print(f"{action}: FAILED")
            return 1
        if result is not None and result is not True:
            print(result)
        return 0
    status = 0
    width = max((len(str(k)) for k in result), default=0)
    for key, value in result.items():
        if action == "verify":
            if value is True:
                print(f"{key:<{width}}  ok")
            else:
                status = 1
                print(f"{key:<{width}}  FAILED: {value}")
        else:
            print(f"{key:<{width}}  {value}")
    return status


@subcommand(
    "data",
    help="fetch, verify or locate the cached data sets",
    arguments=[
        arg(
            "action",
            choices=("fetch", "verify", "where", "export"),
            help="fetch: download/extract into the cache; verify: check SHA-256; "
            "where: print the cache folder (with NAME: that data set's file); "
            "export: write a course lab's table (NAME, e.g. compas-lab) to FILE",
        ),
        arg("name", nargs="?", help="one data set (default: all), or the lab table to export"),
        arg("out", nargs="?", metavar="FILE", help="export only: the CSV file to write"),
    ],
)
def _data(args: argparse.Namespace) -> int:
    """Manage the data sets the chapters read (see data/README.md for their provenance), and
    export the course plan's lab tables (`fairbook data export compas-lab compas_lab.csv`)."""
    return _data_call(args.action, args.name, args.out)


def _audit_arguments() -> list[_Arg]:
    """The predictions file, every option of the audit (:func:`fairbook.audit.options.
    command_line_arguments`: flags and defaults from its one constraints table), and the
    outputs."""
    from fairbook.audit.options import command_line_arguments

    return [
        arg("predictions", help="file with one row per person"),
        *(arg(*flags, **kwargs) for flags, kwargs in command_line_arguments()),
        arg("--json", action="store_true", help="print the report as JSON instead of text"),
        arg("--html", metavar="FILE", help="also write the report as one self-contained page"),
        arg(
            "--output",
            help="also write the per-group table to this CSV file (text cells that a "
            "spreadsheet would run as formulas are prefixed with an apostrophe)",
        ),
    ]


@subcommand(
    "audit",
    help="audit a CSV/Parquet file of predictions across groups",
    arguments=_audit_arguments,
)
def _audit(args: argparse.Namespace) -> int:
    """Per-group rates with intervals, exact MATCH p-values of every group against a
    reference group (Holm-adjusted), the groups too small for a metric and why, seed 004's
    seven bias metrics; with --samples the uncertainty of each group, with --runs the
    spread of every number over the runs and how often each verdict holds.

    The file is CSV (.csv, .tsv, compressed) or Parquet (.parquet, .pq), one row per person.
    Only empty cells count as missing; labels may be integers, booleans or text; --positive,
    --favourable and --reference are read in the type of their column. --decision (or
    --favourable) says whether a positive prediction harms or helps the person: the report
    then orders the metrics by the errors that matter and explains each. Bad input ends with
    exit status 2 and one line naming the problem."""
    from fairbook.atomic import check_outputs
    from fairbook.audit import audit_file, printable
    from fairbook.audit.files import write_stdout, write_text
    from fairbook.safe_csv import write_csv

    try:
        # before any work: no output is the input, no two outputs are one file, every
        # output's folder exists (a bad --html cannot fail after --output was written)
        check_outputs(
            inputs=[args.predictions],
            outputs={"--output": args.output, "--html": args.html},
        )
        report = audit_file(args.predictions, **_audit_options(args))
        if args.output:
            write_csv(report.to_frame("groups"), args.output, index=False)
        if args.html:
            write_text(report.to_html(), args.html)
        text = report.to_json(ascii_only=True) if args.json else report.to_text()
    except (OSError, ValueError, MemoryError) as exc:  # FileNotFoundError is an OSError
        raise UsageError(
            printable(exc if not isinstance(exc, MemoryError) else _too_big())
        ) from None
    write_stdout(text)  # `fairbook audit f.csv | head -1` ends quietly
    return 0


def _audit_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options the command line was given (the rest take their defaults)."""
    from fairbook.audit.options import CONSTRAINTS

    given = {c.name: getattr(args, c.name) for c in CONSTRAINTS}
    return {name: value for name, value in given.items() if value not in (None, False)}


def _too_big() -> str:
    return "the file is too large for this machine's memory; audit a sample or a subset of columns"


# ---------------------------------------------------------------------------------------------
# wiring


def build_parser() -> argparse.ArgumentParser:
    """The ``fairbook`` command's parser."""
    return COMMAND_LINE.build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fairbook`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in BOOK_COMMANDS:
        print(
            f"fairbook: `{argv[0]}` is a command of the book, not of the library: run "
            f"`fairbook-book {argv[0]}` in a checkout of the repository (`make setup` "
            "installs it)",
            file=sys.stderr,
        )
        return 2
    return COMMAND_LINE.main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
