"""Chapter registry and papermill runner.

A *chapter* is a notebook ``notebooks/NN_topic.ipynb`` in the book root (the folder that holds
``_toc.yml``).  Each chapter has one code cell tagged ``parameters`` (papermill) whose typed
assignments are the knobs a reader may turn, always including ``profile: str = "fast"``.

This module discovers chapters, reads and validates their parameters, executes them with
papermill and drives the static book build::

    notebooks/NN_*.ipynb --papermill--> _build/executed/notebooks/NN_*.ipynb
    book/, _config.yml, _toc.yml, executed copies --> _build/stage/   (the Sphinx source)
    _build/stage --jupyter-book build -W -n --keep-going--> _build/html/

The command line (:mod:`fairbook.cli`) only wires these functions to arguments.

Examples
--------
>>> from fairbook_book.tooling import chapters
>>> chapters.coerce_value("3", "int")
3
>>> chapters.coerce_value("yes", "bool")
True
>>> chapters.output_name("01_metric_catalogue", {"seed": 3, "profile": "full"})
'01_metric_catalogue-profile=full-seed=3.ipynb'
"""

from __future__ import annotations

import ast
import contextlib
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import yaml

from fairbook_book.tooling import execution_cache
from fairbook_book.tooling.parameter_ranges import rule_for
from fairbook_book.tooling.static_notebook import prepare_for_static

__all__ = [
    "chapter_profiles",
    "check_run_output",
    "PROFILES",
    "KERNELS",
    "TIMINGS",
    "BookPaths",
    "Chapter",
    "ChapterError",
    "ExecutionResult",
    "Parameter",
    "build",
    "build_html",
    "key_results_text",
    "coerce_parameters",
    "coerce_value",
    "discover",
    "execute",
    "execute_book",
    "find_root",
    "output_name",
    "profile_parameters",
    "resolve",
    "run",
    "schedule",
    "stage_book",
    "toc_files",
    "write_book_ledger",
    "write_ledger_fragments",
]

#: The two execution profiles every chapter understands (its ``profile`` parameter).
PROFILES: tuple[str, ...] = ("fast", "full")

CHAPTER_GLOB = "[0-9][0-9]_*.ipynb"
_CHAPTER_RE = re.compile(r"^(?P<number>\d\d)_(?P<topic>\w[\w\-]*)$")
_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


class ChapterError(ValueError):
    """An unknown chapter, an unknown parameter or a value of the wrong type.

    The command line turns it into a usage error (exit status 2).
    """


class BuildError(RuntimeError):
    """The book build failed (a chapter raised, or Sphinx reported warnings)."""


# ---------------------------------------------------------------------------------------------
# locating the book


def find_root(start: str | os.PathLike[str] | None = None) -> Path:
    """Return the book root: the nearest folder at or above `start` holding ``_toc.yml``.

    ``$FAIRBOOK_ROOT`` overrides the search; the repository this package was installed from
    (editable install) is the fallback.

    Raises
    ------
    ChapterError
        If no such folder exists.
    """
    env = os.environ.get("FAIRBOOK_ROOT")
    if env:
        root = Path(env).resolve()
        if not (root / "_toc.yml").is_file():
            raise ChapterError(f"$FAIRBOOK_ROOT={env} does not contain _toc.yml")
        return root
    here = Path(start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "_toc.yml").is_file() and (candidate / "notebooks").is_dir():
            return candidate
    package_repo = Path(__file__).resolve().parents[4]
    if (package_repo / "_toc.yml").is_file():
        return package_repo
    raise ChapterError(
        f"cannot find the book root (a folder with _toc.yml and notebooks/) at or above {here}; "
        "run from inside the repository or set FAIRBOOK_ROOT"
    )


@dataclass(frozen=True)
class BookPaths:
    """Where the build reads and writes, all below the book root."""

    root: Path

    @property
    def notebooks(self) -> Path:
        return self.root / "notebooks"

    @property
    def build(self) -> Path:
        return self.root / "_build"

    @property
    def executed(self) -> Path:
        """Papermill output of the book build (what the HTML shows and nbval checks)."""
        return self.build / "executed" / "notebooks"

    @property
    def stage(self) -> Path:
        """Sphinx source folder: prose + config + executed copies."""
        return self.build / "stage"

    @property
    def html(self) -> Path:
        return self.build / "html"

    @property
    def runs(self) -> Path:
        """Output of ``fairbook-book run``."""
        return self.build / "runs"

    @property
    def vendor(self) -> Path:
        return self.root / "book" / "_vendor"


# ---------------------------------------------------------------------------------------------
# chapters and their parameters


@dataclass(frozen=True)
class Parameter:
    """One assignment of a chapter's ``parameters`` cell."""

    name: str
    type: str  # the annotation as written ("int", "str", "list[int]") or "" if untyped
    default: str  # the default as source text, e.g. "'fast'" or "0"
    help: str = ""

    def describe(self) -> str:
        kind = f": {self.type}" if self.type else ""
        text = f"{self.name}{kind} = {self.default}"
        return f"{text}  # {self.help}" if self.help else text


@dataclass(frozen=True)
class Chapter:
    """A chapter notebook ``NN_topic.ipynb``."""

    path: Path
    number: str = field(init=False)
    slug: str = field(init=False)

    def __post_init__(self) -> None:
        match = _CHAPTER_RE.match(self.path.stem)
        if not match:
            raise ChapterError(f"{self.path.name} is not a chapter name (NN_topic.ipynb)")
        object.__setattr__(self, "number", match["number"])
        object.__setattr__(self, "slug", self.path.stem)

    @property
    def topic(self) -> str:
        return self.slug[3:]

    @property
    def title(self) -> str:
        """The first Markdown heading of the notebook ('' if none)."""
        nb = _read_json(self.path)
        for cell in nb.get("cells", []):
            if cell.get("cell_type") != "markdown":
                continue
            source = "".join(cell.get("source", ""))
            for line in source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
        return ""

    def parameters(self) -> dict[str, Parameter]:
        """The parameters of the chapter, in the order of its ``parameters`` cell."""
        import papermill

        try:
            found = papermill.inspect_notebook(str(self.path))
        except Exception as exc:  # a malformed notebook: say which one
            raise ChapterError(f"cannot read the parameters of {self.path}: {exc}") from exc
        params = {}
        for name, info in found.items():
            kind = info.get("inferred_type_name") or "None"
            params[name] = Parameter(
                name=name,
                type="" if kind == "None" else kind,
                default=str(info.get("default", "")),
                help=(info.get("help") or "").strip(),
            )
        return params


def _read_json(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def discover(root: str | os.PathLike[str] | None = None) -> list[Chapter]:
    """All chapters ``notebooks/NN_*.ipynb`` of the book, sorted by number."""
    folder = BookPaths(find_root(root) if root is None else Path(root)).notebooks
    return [Chapter(p) for p in sorted(folder.glob(CHAPTER_GLOB)) if _CHAPTER_RE.match(p.stem)]


def _listing(chapters: list[Chapter]) -> str:
    if not chapters:
        return "(no chapters found in notebooks/)"
    return ", ".join(f"{c.number} ({c.slug})" for c in chapters)


def resolve(spec: str, chapters: list[Chapter]) -> Chapter:
    """Find a chapter by number (``01`` or ``1``), stem (``01_metric_catalogue``), topic
    (``metric_catalogue``) or file name/path (``notebooks/01_metric_catalogue.ipynb``).

    Raises
    ------
    ChapterError
        Listing the valid chapters when `spec` matches none.
    """
    key = Path(str(spec).strip()).name
    if key.endswith(".ipynb"):
        key = key[: -len(".ipynb")]
    for chapter in chapters:
        if key in (chapter.slug, chapter.number, chapter.topic):
            return chapter
        if key.isdigit() and int(key) == int(chapter.number):
            return chapter
    raise ChapterError(f"unknown chapter {spec!r}; valid chapters: {_listing(chapters)}")


def _split_optional(kind: str) -> tuple[str, bool]:
    kind = kind.strip()
    match = re.fullmatch(r"(?:typing\.)?Optional\[(.*)\]", kind)
    if match:
        return match[1].strip(), True
    parts = [p.strip() for p in kind.split("|")]
    if len(parts) > 1 and "None" in parts:
        rest = [p for p in parts if p != "None"]
        return " | ".join(rest), True
    return kind, False


def coerce_value(text: str, kind: str, *, default: str = "") -> Any:
    """Convert a command-line string to the parameter's declared type.

    `kind` is the annotation of the parameters cell (``int``, ``float``, ``bool``, ``str``,
    ``list[int]``, ``Optional[int]`` ...); without one the type of `default` is used.

    Raises
    ------
    ValueError
        If `text` is not a value of that type.
    """
    kind, optional = _split_optional(kind or "")
    if (optional or default.strip() == "None") and text.strip() in ("None", "none", "null"):
        return None  # Optional[...] or a `None` default ("n: int = None  # None: automatic")
    if not kind:
        try:
            kind = type(ast.literal_eval(default)).__name__ if default else ""
        except (ValueError, SyntaxError):
            kind = ""
        if kind == "NoneType":
            kind = ""
    base = kind.split("[", 1)[0].strip().lower()
    if base == "str":
        return text
    if base == "int":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"expected an integer, got {text!r}") from None
    if base == "float":
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"expected a number, got {text!r}") from None
    if base == "bool":
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"expected true/false, got {text!r}")
    if base in ("list", "tuple", "dict", "set"):
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            try:
                value = json.loads(text)
            except ValueError:
                raise ValueError(f"expected a Python {base} literal, got {text!r}") from None
        wanted = {"list": list, "tuple": tuple, "dict": dict, "set": set}[base]
        if base == "tuple" and isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, wanted):
            raise ValueError(f"expected a {base}, got {text!r}")
        return value
    # unknown or absent annotation: a Python literal if it is one, else the string
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def coerce_parameters(chapter: Chapter, raw: Mapping[str, str]) -> dict[str, Any]:
    """Validate ``NAME -> string`` pairs against the chapter's parameters cell and convert
    each value to its declared type.

    Raises
    ------
    ChapterError
        For an unknown name (listing the valid ones), a value of the wrong type, a value
        outside the parameter's range or choices
        (:mod:`fairbook_book.tooling.parameter_ranges`), or an unknown ``profile``.
    """
    declared = chapter.parameters()
    unknown = [name for name in raw if name not in declared]
    if unknown:
        valid = "\n  ".join(p.describe() for p in declared.values()) or "(none)"
        raise ChapterError(
            f"unknown parameter{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
            f"for chapter {chapter.slug}; valid parameters:\n  {valid}"
        )
    values: dict[str, Any] = {}
    for name, text in raw.items():
        param = declared[name]
        try:
            value = coerce_value(str(text), param.type, default=param.default)
        except ValueError as exc:
            raise ChapterError(
                f"bad value for parameter {name} ({param.describe()}): {exc}"
            ) from None
        if name == "profile" and value not in chapter_profiles(chapter):
            raise ChapterError(
                f"bad value for parameter profile: {value!r}; chapter {chapter.slug} has the "
                f"profiles {', '.join(chapter_profiles(chapter))}"
            )
        rule = rule_for(chapter.slug, name)
        if rule is not None and value is not None:
            try:
                rule.check(value)
            except ValueError as exc:  # before anything runs (issue 48, cause 8)
                raise ChapterError(f"bad value for parameter {name}: {exc}") from None
        values[name] = value
    return values


def chapter_profiles(chapter: Chapter) -> tuple[str, ...]:
    """The profiles `chapter` declares: the keys of ``PROFILES`` in its settings module
    (``fairbook_book/chapters/<topic>/settings.py``, read without importing it), or
    :data:`PROFILES` when it declares none.

    Examples
    --------
    >>> chapter_profiles(Chapter(Path("08_parallel_time_networks.ipynb")))
    ('fast', 'decisive', 'full')
    >>> chapter_profiles(Chapter(Path("99_no_such_topic.ipynb")))
    ('fast', 'full')
    """
    import importlib.util

    spec = importlib.util.find_spec("fairbook_book")
    roots = list(spec.submodule_search_locations or []) if spec else []
    for root in roots:
        settings = Path(root) / "chapters" / chapter.topic / "settings.py"
        if not settings.is_file():
            continue
        for node in ast.parse(settings.read_text("utf-8")).body:
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "PROFILES" for t in node.targets)
                and isinstance(node.value, ast.Dict)
            ):
                keys = [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
                if keys and all(isinstance(k, str) for k in keys):
                    return tuple(keys)
    return PROFILES


def profile_parameters(chapter: Chapter, profile: str) -> dict[str, Any]:
    """Parameters that select `profile` for `chapter`.

    A profile is nothing more than the ``profile`` parameter: the notebook branches on it
    (through ``fairbook`` functions) to pick its sizes.
    """
    if profile not in PROFILES:
        raise ChapterError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
    if "profile" not in chapter.parameters():
        raise ChapterError(
            f"chapter {chapter.slug} has no `profile` parameter in its parameters cell "
            '(every chapter needs `profile: str = "fast"`)'
        )
    return {"profile": profile}


def _slug(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = re.sub(r"[^A-Za-z0-9.+\-]+", "_", text).strip("_")
    return text[:40] or "_"


def output_name(slug: str, params: Mapping[str, Any]) -> str:
    """File name of a run: ``<chapter>-<name>=<value>-....ipynb`` (names sorted)."""
    if not params:
        return f"{slug}-defaults.ipynb"
    pairs = "-".join(f"{name}={_slug(params[name])}" for name in sorted(params))
    return f"{slug}-{pairs}.ipynb"


# ---------------------------------------------------------------------------------------------
# execution


_ENVIRONMENT_LOCK = threading.Lock()
_environment_depth = 0
_saved_environment: dict[str, str | None] = {}


@contextlib.contextmanager
def _kernel_environment() -> Iterator[None]:
    """Environment the kernels inherit: this interpreter's ``bin`` first on PATH (the
    ``python3`` kernelspec runs plain ``python``), a fixed hash seed (set order is part of
    what nbval compares) and ``OMP_WAIT_POLICY=PASSIVE`` unless set: chapters run side by
    side, and OpenMP threads that spin while they wait starve the other chapter's threads
    (``benchmarks/bench_omp_wait.py``); the policy changes when a thread sleeps, not the
    order of any sum, so results are bit for bit the same.

    Re-entrant and thread-safe: chapters executed side by side (:func:`execute_book` with
    ``jobs > 1``) share one set-up, made by the first and undone by the last."""
    global _environment_depth, _saved_environment
    bindir = str(Path(sys.executable).parent)
    with _ENVIRONMENT_LOCK:
        if _environment_depth == 0:
            saved = {
                key: os.environ.get(key) for key in ("PATH", "PYTHONHASHSEED", "OMP_WAIT_POLICY")
            }
            os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
            os.environ.setdefault("PYTHONHASHSEED", "0")
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            _saved_environment = saved
        _environment_depth += 1
    try:
        yield
    finally:
        with _ENVIRONMENT_LOCK:
            _environment_depth -= 1
            if _environment_depth == 0:
                for key, value in _saved_environment.items():
                    if value is None:
                        os.environ.pop(key, None)
                    else:
                        os.environ[key] = value


@dataclass
class ExecutionResult:
    chapter: Chapter
    output: Path
    seconds: float
    error: str | None = None
    #: True when the executed notebook was kept from an earlier build (nothing ran)
    from_cache: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


def execute(
    chapter: Chapter,
    output: str | os.PathLike[str],
    parameters: Mapping[str, Any] | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
    kernel_name: str | None = None,
    timeout: float | None = None,
    log_output: bool = False,
    progress: bool = False,
) -> ExecutionResult:
    """Execute `chapter` with papermill into `output` (its folder is created).

    The kernel's working directory is the output folder unless `cwd` says otherwise, so a
    chapter behaves the same here, in the book build and under nbval. A failing cell does not
    raise: the result carries the error and the output notebook shows the traceback. With
    `progress`, a progress bar of the cells executed (papermill's, on stderr).
    """
    import papermill
    from papermill.exceptions import PapermillExecutionError

    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    error = None
    with _kernel_environment():
        try:
            papermill.execute_notebook(
                str(chapter.path),
                str(output),
                parameters=dict(parameters or {}),
                cwd=str(cwd or output.parent),
                kernel_name=kernel_name,
                progress_bar=progress,
                log_output=log_output,
                execution_timeout=timeout,
            )
        except PapermillExecutionError as exc:
            error = f"{exc.ename}: {exc.evalue} (cell {exc.exec_count})"
        except Exception as exc:  # kernel died, timeout, bad notebook
            error = f"{type(exc).__name__}: {exc}"
    return ExecutionResult(chapter, output, time.perf_counter() - start, error)


def run(
    spec: str,
    raw_parameters: Mapping[str, str] | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    output: str | os.PathLike[str] | None = None,
    log_output: bool = False,
    progress: bool = False,
) -> ExecutionResult:
    """``fairbook-book run``: resolve `spec`, validate the parameters, execute into
    ``_build/runs/<chapter>-<params>.ipynb`` (or `output`)."""
    paths = BookPaths(find_root(root))
    chapter = resolve(spec, discover(paths.root))
    params = coerce_parameters(chapter, raw_parameters or {})
    default = output_name(chapter.slug, params)
    target = Path(output) if output else paths.runs / default
    if output:
        check_run_output(target, paths, default=default)
    return execute(chapter, target, params, log_output=log_output, progress=progress)


_DOC_ROLE = re.compile(r"\{(?:doc|ref|numref|term)\}`(?:([^`<]*?)\s*<[^`>]*>|([^`]*))`")


def key_results_text(notebook: str | os.PathLike[str]) -> str | None:
    r"""The Key results an executed chapter glued (``key-results``), as plain text: the
    admonition's fences and MyST roles left out. None when it glued none (it failed first).

    Examples
    --------
    >>> import nbformat, tempfile
    >>> cell = nbformat.v4.new_code_cell("")
    >>> cell.outputs = [nbformat.v4.new_output("display_data", data={
    ...     "application/papermill.record/text/markdown":
    ...         "```{admonition} Key results\n:class: tip\n\n- One {term}`MATCH test`.\n```\n"},
    ...     metadata={"scrapbook": {"name": "key-results"}})]
    >>> path = tempfile.mktemp(suffix=".ipynb")
    >>> nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    >>> print(key_results_text(path))
    - One MATCH test.
    """
    notebook = nbformat.read(str(notebook), as_version=4)
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output.get("metadata", {}).get("scrapbook", {}).get("name") != "key-results":
                continue
            data = output.get("data", {})
            text = next((v for k, v in data.items() if k.endswith("text/markdown")), None)
            if text is None:
                continue
            lines = [
                line
                for line in str(text).splitlines()
                if not line.startswith("```") and not line.startswith(":class:")
            ]
            body = "\n".join(lines).strip()
            return _DOC_ROLE.sub(lambda m: (m[1] or m[2] or "").strip(), body)
    return None


def check_run_output(target: Path, paths: BookPaths, *, default: str) -> None:
    """Refuse, before anything runs, an output that would replace a chapter's source (any
    file in ``notebooks/``) or that is a folder (name the notebook to write).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     paths = BookPaths(Path(root))
    ...     try:
    ...         check_run_output(Path(root), paths, default="01.ipynb")
    ...     except ChapterError as error:
    ...         print(str(error).split(";")[0].endswith("is a folder"))
    True
    """
    if target.is_dir():
        raise ChapterError(
            f"-o {target} is a folder; name the notebook to write, e.g. -o {target / default}"
        )
    sources = paths.notebooks.resolve()
    if target.resolve() == sources or target.resolve().is_relative_to(sources):
        raise ChapterError(
            f"-o {target} is in the chapters' sources ({paths.notebooks}): the executed copy "
            "would replace a tracked file; write it elsewhere (default: _build/runs/)"
        )


#: File (in the executed folder) with each chapter's last execution time, in seconds: the
#: next build starts the longest chapters first when it runs several side by side.
TIMINGS = "timings.json"
#: The kernel signature of the build, beside the executed chapters.
KERNELS = "kernels.json"


def _read_timings(path: Path) -> dict[str, float]:
    """Chapter seconds from a timings file; ``{}`` when it is missing or not one."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float))}


def schedule(chapters: list[Chapter], timings: Mapping[str, float]) -> list[Chapter]:
    """The order to start `chapters` in when several run side by side: longest first by the
    last build's `timings` (a chapter never timed counts as longest), TOC order among equals.

    Longest-first keeps the build's wall time close to ``max(longest, total / jobs)``.

    Examples
    --------
    >>> from types import SimpleNamespace as C
    >>> book = [C(slug="01_a"), C(slug="02_b"), C(slug="03_c")]
    >>> order = schedule(book, {"01_a": 2.0, "02_b": 9.0})
    >>> [c.slug for c in order]
    ['03_c', '02_b', '01_a']
    """
    return sorted(chapters, key=lambda c: -timings.get(c.slug, float("inf")))


def _in_process(processes, chapter: Chapter, output: Path, params) -> ExecutionResult:
    """:func:`execute` in one of the worker processes of `processes`; a worker that dies
    (out of memory, killed) is a failed chapter, not a crashed build."""
    start = time.perf_counter()
    try:
        return processes.submit(execute, chapter, output, params).result()
    except Exception as exc:  # BrokenProcessPool and the like
        return ExecutionResult(
            chapter, output, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
        )


@contextlib.contextmanager
def _figures_kept_in(folder: Path) -> Iterator[None]:
    """The kernels started inside keep each figure they draw in `folder` (for the decks'
    projector versions, :mod:`fairbook_book.projector`); their outputs are the same."""
    from fairbook_book.projector import FIGURE_DIR_VARIABLE

    before = os.environ.get(FIGURE_DIR_VARIABLE)
    os.environ[FIGURE_DIR_VARIABLE] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(FIGURE_DIR_VARIABLE, None)
        else:
            os.environ[FIGURE_DIR_VARIABLE] = before


def execute_book(
    root: str | os.PathLike[str] | None = None,
    profile: str = "fast",
    *,
    chapters: list[Chapter] | None = None,
    outdir: str | os.PathLike[str] | None = None,
    jobs: int = 1,
    timings_fallback: str | os.PathLike[str] | None = None,
    use_cache: bool = True,
    echo=print,
) -> list[ExecutionResult]:
    """Execute every chapter with `profile` into ``_build/executed/notebooks``.

    With `use_cache` (the default), a chapter whose cache key has not changed since its
    last execution here keeps its executed notebook and is not run
    (:mod:`fairbook_book.tooling.execution_cache`); its result says ``from_cache``. Every
    chapter's entry in ``_build/executed/cache.json`` is updated either way.

    All chapters run even if one fails; stale outputs of chapters that no longer exist are
    removed. With ``jobs > 1``, up to `jobs` chapters run side by side (each chapter's
    papermill client in a worker process, its kernel in another), longest first
    (:func:`schedule`) by the last build's timings, or, on a fresh clone that has none, by
    the ``timings_fallback`` file (a committed copy of an
    earlier build's, ``tests/notebooks/reference/timings-<profile>.json``); every chapter's
    output is the same as when they run one after another (each kernel is a fresh process
    with the same environment). Results are returned in TOC order.
    """
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    paths = BookPaths(find_root(root))
    chapters = discover(paths.root) if chapters is None else chapters
    out = Path(outdir) if outdir else paths.executed
    out.mkdir(parents=True, exist_ok=True)
    wanted = {c.path.name for c in chapters}
    for stale in out.glob("*.ipynb"):
        if stale.name not in wanted:
            stale.unlink()
    timings = _read_timings(out / TIMINGS)
    order = timings or (_read_timings(Path(timings_fallback)) if timings_fallback else {})
    entries = execution_cache.load_cache(out)
    keys = {
        c.slug: execution_cache.key_parts(c.path, profile_parameters(c, profile), root=paths.root)
        for c in chapters
    }
    kept: list[ExecutionResult] = []
    to_run: list[Chapter] = []
    reasons: dict[str, str] = {}
    store = execution_cache.store_dir()
    figures = out.parent / "figures"
    for chapter in chapters:
        output = out / chapter.path.name
        entry = entries.get(chapter.slug)
        fresh, why = execution_cache.up_to_date(entry, keys[chapter.slug], output)
        if use_cache and not fresh and store is not None:
            shared = execution_cache.restore_execution(
                store, chapter.slug, keys[chapter.slug], output, figures
            )
            if shared is not None:
                entries[chapter.slug] = shared
                kept.append(ExecutionResult(chapter, output, 0.0, from_cache=True))
                echo(
                    f"[execute] {chapter.slug}: {why} here, but executed on this machine "
                    f"on {shared.executed_at} under the same key ({shared.seconds:.1f} s "
                    f"then): kept from the shared cache {store}",
                    flush=True,
                )
                continue
        if use_cache and fresh and entry is not None:
            entry.from_cache = True
            entry.reason = "unchanged"
            kept.append(ExecutionResult(chapter, output, 0.0, from_cache=True))
            if store is not None and not execution_cache.in_store(store, chapter.slug, entry):
                execution_cache.store_execution(store, chapter.slug, entry, output, figures)
            echo(
                f"[execute] {chapter.slug}: unchanged since {entry.executed_at} "
                f"({entry.seconds:.1f} s then): kept from the cache",
                flush=True,
            )
        else:
            reasons[chapter.slug] = why if use_cache else "the cache was not used (--no-cache)"
            to_run.append(chapter)

    def one(chapter: Chapter, processes=None) -> ExecutionResult:
        params = profile_parameters(chapter, profile)
        echo(
            f"[execute] {chapter.slug} (profile={profile}; {reasons[chapter.slug]}) ...",
            flush=True,
        )
        output = out / chapter.path.name
        if processes is None:
            result = execute(chapter, output, params)
        else:
            result = _in_process(processes, chapter, output, params)
        status = "ok" if result.ok else f"FAILED: {result.error}"
        echo(f"[execute] {chapter.slug}: {status} in {result.seconds:.1f} s", flush=True)
        return result

    with _kernel_environment(), _figures_kept_in(figures):
        if jobs == 1 or len(to_run) <= 1:
            done = [one(chapter) for chapter in to_run]
        else:
            # Threads keep the order (longest first) and report; each chapter's papermill
            # client runs in a worker process of its own. Two nbclient clients in threads of
            # one process once left a chapter waiting forever on a kernel that had gone idle
            # (a widget cell of chapter 04, in a CI run); in processes they share nothing.
            spawn = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=spawn) as processes:
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    done = list(pool.map(lambda c: one(c, processes), schedule(to_run, order)))
    by_slug = {r.chapter.slug: r for r in [*done, *kept]}
    results = [by_slug[c.slug] for c in chapters]
    timings.update({r.chapter.slug: round(r.seconds, 1) for r in done})
    execution_cache.reread_package_data()
    for result in done:
        slug = result.chapter.slug
        entries[slug] = execution_cache.new_entry(
            keys[slug],
            output=result.output,
            seconds=result.seconds,
            profile=profile,
            error=result.error,
            reason=reasons[slug],
        )
        # a source edited while the chapter ran: what ran is not known, so the next
        # build runs it again
        after = execution_cache.key_parts(
            result.chapter.path, profile_parameters(result.chapter, profile), root=paths.root
        )
        if after.key != keys[slug].key:
            entries[slug].key = ""
            entries[slug].reason += "; a source changed while it ran: it runs again next time"
        elif store is not None:
            execution_cache.store_execution(store, slug, entries[slug], result.output, figures)
    for stale in set(entries) - {c.slug for c in chapters}:
        del entries[stale]
    execution_cache.save_cache(out, entries)
    (out / TIMINGS).write_text(json.dumps(timings, indent=1, sort_keys=True) + "\n", "utf-8")
    # the kernel signature the chapters ran under (the kernels inherit this environment):
    # the outputs check compares numbers bit for bit only under an equal one
    from fairbook_book.reproduction.signature import kernel_signature

    (out / KERNELS).write_text(json.dumps(kernel_signature(), indent=1) + "\n", "utf-8")
    return results


# ---------------------------------------------------------------------------------------------
# the static book


def toc_files(toc: str | os.PathLike[str] | dict) -> list[str]:
    """Documents named in a Jupyter Book ``_toc.yml`` (``root`` first), without suffix."""
    data = toc if isinstance(toc, dict) else yaml.safe_load(Path(toc).read_text("utf-8"))
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("root", "file"):
                if isinstance(node.get(key), str):
                    found.append(re.sub(r"\.(md|ipynb|rst)$", "", node[key]))
            for key in ("parts", "chapters", "sections", "entries"):
                walk(node.get(key))
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(data)
    return found


_STAGE_IGNORE = shutil.ignore_patterns(
    "_build", ".ipynb_checkpoints", "__pycache__", "*.ipynb", ".DS_Store"
)


def stage_book(
    root: str | os.PathLike[str] | None = None,
    *,
    executed: str | os.PathLike[str] | None = None,
    stage: str | os.PathLike[str] | None = None,
    echo=print,
) -> Path:
    """Assemble the Sphinx source folder: ``_config.yml``, ``_toc.yml``, ``book/`` (prose,
    bibliography, vendored JS) and the *executed* chapter notebooks under ``notebooks/``.

    A chapter missing from ``_toc.yml`` is appended to the staged TOC (under "Further
    chapters") with a warning, so every chapter gets its page.
    """
    paths = BookPaths(find_root(root))
    executed = Path(executed) if executed else paths.executed
    stage = Path(stage) if stage else paths.stage
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy2(paths.root / name, stage / name)
    _stamp_footer(stage / "_config.yml")
    shutil.copytree(paths.root / "book", stage / "book", ignore=_STAGE_IGNORE, symlinks=False)
    # assets next to the chapters (images a notebook links to), then the executed chapters
    shutil.copytree(paths.notebooks, stage / "notebooks", ignore=_STAGE_IGNORE)
    # the executed chapters, made static: no ipywidget snapshots, captions as alt texts
    for nb in sorted(Path(executed).glob("*.ipynb")):
        notebook = nbformat.read(nb, as_version=4)
        prepare_for_static(notebook)
        nbformat.write(notebook, stage / "notebooks" / nb.name)

    toc_path = stage / "_toc.yml"
    toc = yaml.safe_load(toc_path.read_text("utf-8"))
    listed = set(toc_files(toc))
    missing = [
        f"notebooks/{nb.stem}"
        for nb in sorted((stage / "notebooks").glob(CHAPTER_GLOB))
        if f"notebooks/{nb.stem}" not in listed
    ]
    if missing:
        echo(
            f"[stage] WARNING: {', '.join(missing)} not in _toc.yml; appended under "
            "'Further chapters' in the staged TOC. Add them to _toc.yml.",
            flush=True,
        )
        toc.setdefault("parts", []).append(
            {"caption": "Further chapters", "chapters": [{"file": m} for m in missing]}
        )
        toc_path.write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")
    write_ledger_fragments(executed, stage / "book")
    from fairbook_book.tooling.course import write_course_fragment

    write_course_fragment(paths.notebooks, paths.root / REFERENCE_TIMINGS, stage / "book")
    from fairbook_book.tooling.status import write_status_fragment

    write_status_fragment(paths.root, stage / "book")
    return stage


def book_version() -> str:
    """The version of the package that builds the book ("unknown" if it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fairbook")
    except PackageNotFoundError:  # pragma: no cover (the book is built from an install)
        return "unknown"


def build_date() -> str:
    """Today's date (UTC) as ``YYYY-MM-DD``, or ``$SOURCE_DATE_EPOCH``'s for a reproducible
    build."""
    import datetime as dt

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        dt.datetime.fromtimestamp(int(epoch), dt.UTC)
        if epoch and epoch.isdigit()
        else dt.datetime.now(dt.UTC)
    )
    return moment.strftime("%Y-%m-%d")


def footer(version: str, date: str) -> str:
    """Every page's footer: the version and build date, the licences, how to cite.

    Examples
    --------
    >>> footer("0.1.0", "2026-11-27").split(" · ")[0]
    'fairbook 0.1.0, built 2026-11-27'
    """
    return (
        f"fairbook {version}, built {date} · code: MIT licence · text, figures and exercises: "
        'CC BY 4.0 · <a href="https://creativecommons.org/licenses/by/4.0/">licence</a> · '
        "how to cite: see the introduction"
    )


def _stamp_footer(config_path: Path) -> None:
    """Write :func:`footer` into the staged ``_config.yml`` (``html.extra_footer``), and the
    version and build date as MyST substitutions."""
    config = yaml.safe_load(config_path.read_text("utf-8"))
    version, date = book_version(), build_date()
    config.setdefault("html", {})["extra_footer"] = footer(version, date)
    # {{ version }} and {{ build_date }} in the prose pages (MyST substitutions)
    sphinx = config.setdefault("sphinx", {}).setdefault("config", {})
    sphinx.setdefault("myst_substitutions", {}).update({"version": version, "build_date": date})
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


#: The fast profile's run times of the last reference build (``make html`` writes them); the
#: course plan's time table reads them.
REFERENCE_TIMINGS = Path("tests") / "notebooks" / "reference" / "timings-fast.json"

#: The files the ledger page (book/ledger.md) and the introduction include with
#: ``{raw} html :file:``.
LEDGER_FRAGMENTS = (
    "_ledger_headline.html",
    "_ledger_tallies.html",
    "_ledger_tables.html",
    "_ledger_accounting.html",
    "_ledger_rows.html",
)


def _compact_html(frame) -> str:
    """A tally table as HTML without its all-zero columns, in a box that scrolls sideways
    on a narrow screen rather than spilling out of the page's column."""
    keep = [c for c in frame.columns if not (frame[c].fillna(0) == 0).all()]
    body = frame[keep].to_html(classes="dataframe", na_rep="")
    return f'<div style="overflow-x:auto;font-size:0.85em">{body}</div>'


def _without_rows_html() -> str:
    """The printed numbers that have no ledger row, each with the reason
    (:data:`fairbook.papers.printed.WITHOUT_ROWS`)."""
    import html

    from fairbook.papers.names import paper_name
    from fairbook.papers.printed import WITHOUT_ROWS

    if not WITHOUT_ROWS:
        return "<p>Every printed number of the replicated tables has its row.</p>"
    items = "".join(
        f"<li><strong>{html.escape(paper_name(paper))} {html.escape(where)}</strong> "
        f"({count} number{'' if count == 1 else 's'}): {html.escape(reason)}</li>"
        for (paper, where), (count, reason) in WITHOUT_ROWS.items()
    )
    return f"<p>Printed numbers without a row, and why:</p><ul>{items}</ul>"


def write_ledger_fragments(executed: str | os.PathLike[str], folder: str | os.PathLike[str]):
    """Write the ledger page's HTML fragments from the executed chapters' rows: the
    headline (:func:`fairbook_book.ledger.headline`, also on the introduction), tallies per
    paper and per paper table, each replicated table's printed numbers against its rows
    (:func:`fairbook_book.ledger.table_accounting`) with the printed numbers that have no row,
    and every row, folded by paper and table, with a filter."""
    import html

    from fairbook_book.ledger import (
        budget_label,
        headline_html,
        headline_sentence,
        ledger_frame,
        ledger_html,
        read_executed,
        table_accounting,
        tallies,
    )

    executed = Path(executed)
    ledger = read_executed(executed) if executed.is_dir() else ledger_frame([])
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    note = (
        '<p>Download: <a href="../ledger.csv">ledger.csv</a> · '
        f'<a href="../ledger.json">ledger.json</a> ({len(ledger)} rows).</p>'
    )
    if ledger.empty:
        empty = "<p><em>No executed chapter carries ledger rows in this build.</em></p>"
        parts = (empty,) * len(LEDGER_FRAGMENTS)
    else:
        shown = ledger.assign(budget=ledger["budget"].map(budget_label))
        by_paper = tallies(shown, by=("paper", "budget"))
        by_table = tallies(shown, by=("paper", "source", "budget"))
        accounting = table_accounting(ledger)
        accounting["accounted"] = accounting["accounted"].map({True: "yes", False: "no"})
        parts = (
            f"<p>{html.escape(headline_sentence(ledger))}</p>" + headline_html(ledger),
            _compact_html(by_paper) + note,
            _compact_html(by_table),
            _compact_html(accounting) + _without_rows_html(),
            ledger_html(ledger, chapter_url="../notebooks/{chapter}.html"),
        )
    for name, text in zip(LEDGER_FRAGMENTS, parts, strict=True):
        (folder / name).write_text(text, encoding="utf-8")
    return ledger


def _jupyter_book() -> list[str]:
    script = Path(sys.executable).parent / "jupyter-book"
    if script.exists():
        return [str(script)]
    found = shutil.which("jupyter-book")
    if found:
        return [found]
    raise BuildError("jupyter-book is not installed in this environment (pip install -e .)")


def build_html(
    root: str | os.PathLike[str] | None = None,
    *,
    stage: str | os.PathLike[str] | None = None,
    strict: bool = True,
    quiet: bool = True,
    echo=print,
) -> Path:
    """Build ``_build/html`` from the staged source with ``jupyter-book build`` (strict:
    ``-W -n --keep-going``, so a warning or a broken cross-reference fails the build)."""
    paths = BookPaths(find_root(root))
    stage = Path(stage) if stage else paths.stage
    if not (paths.vendor / "static").is_dir():
        raise BuildError(
            f"{paths.vendor} is missing: the vendored JavaScript (widgets, MathJax) comes from "
            "npm; run `make vendor` (or `make book`) first"
        )
    if paths.html.exists():
        shutil.rmtree(paths.html)
    cmd = [*_jupyter_book(), "build", str(stage), "--path-output", str(paths.root)]
    cmd += ["--builder", "html", "--all"]
    if strict:
        cmd += ["-W", "-n", "--keep-going"]
    if quiet:
        cmd += ["-q"]  # Sphinx warnings and errors only
    echo("[html] " + " ".join(cmd), flush=True)
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run(cmd, cwd=paths.root, env=env, check=False)
    if proc.returncode != 0:
        raise BuildError(f"jupyter-book build failed (exit {proc.returncode}); see the log above")
    from fairbook_book.tooling.editions import serve_student_downloads

    # the pages' download button serves the student edition: no solution text, code or output
    served = serve_student_downloads(paths.html)
    echo(f"[html] downloads: {len(served)} chapters as student editions", flush=True)
    return paths.html


def write_book_ledger(paths: BookPaths) -> int:
    """Write the replication ledger of the executed chapters into the built HTML
    (``ledger.csv`` and ``ledger.json``, linked from the ledger page); returns its rows."""
    from fairbook_book.ledger import ledger_frame, read_executed, write_ledger

    ledger = read_executed(paths.executed) if paths.executed.is_dir() else ledger_frame([])
    write_ledger(ledger, paths.html / "ledger.csv")
    write_ledger(ledger, paths.html / "ledger.json")
    return len(ledger)


def build(
    root: str | os.PathLike[str] | None = None,
    profile: str = "fast",
    *,
    execute_chapters: bool = True,
    jobs: int = 1,
    timings_fallback: str | os.PathLike[str] | None = None,
    use_cache: bool = True,
    echo=print,
) -> int:
    """``fairbook-book build``: execute every chapter, stage, build the HTML. Returns an exit
    status: 0 if every chapter ran and the strict Sphinx build passed, 1 otherwise (the HTML
    is still built when a chapter fails, so the traceback can be read in the page)."""
    paths = BookPaths(find_root(root))
    failed: list[str] = []
    timings: list[tuple[str, float]] = []
    if execute_chapters:
        t0 = time.perf_counter()
        results = execute_book(
            paths.root,
            profile,
            jobs=jobs,
            timings_fallback=timings_fallback,
            use_cache=use_cache,
            echo=echo,
        )
        timings.append(("execute", time.perf_counter() - t0))
        failed += [f"{r.chapter.slug}: {r.error}" for r in results if not r.ok]
    t0 = time.perf_counter()
    stage_book(paths.root, echo=echo)
    try:
        build_html(paths.root, echo=echo)
    except BuildError as exc:
        failed.append(str(exc))
    timings.append(("html", time.perf_counter() - t0))
    if paths.html.is_dir():
        written = write_book_ledger(paths)
        echo(f"[build] ledger: {written} rows to {paths.html / 'ledger.csv'} and ledger.json")
    echo("[build] " + ", ".join(f"{name} {sec:.1f} s" for name, sec in timings), flush=True)
    if failed:
        echo("[build] FAILED:\n  " + "\n  ".join(failed), flush=True)
        return 1
    echo(f"[build] book at {paths.html / 'index.html'}", flush=True)
    return 0
