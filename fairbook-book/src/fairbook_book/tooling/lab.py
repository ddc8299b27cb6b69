"""Rerun the book in JupyterLab (``make lab``) without changing a tracked file.

JupyterLab saves a notebook's outputs into the file it opened (autosave, every two minutes),
so running a chapter from ``notebooks/`` would rewrite the repository's chapters. ``make lab``
therefore opens **working copies**: :func:`working_copies` copies each chapter into ``lab/``
(git-ignored) once, and never over a copy the reader has changed; JupyterLab's file browser is
rooted there. A reader who wants a chapter fresh deletes its copy (or runs
``make lab FRESH=03``, which keeps their version in ``lab/backup/``; ``FRESH=1`` for every
chapter); ``git status`` stays clean whatever they run or save.

A working copy differs from its chapter where the chapter relies on Sphinx (:func:`for_lab`):
the book places the chapter's Key results near the top with a myst-nb ``{glue:md}`` directive;
in the copy that cell says where the Key results appear when the chapter runs (the cell that
computes them shows them). A ``{doc}`` cross-reference to another chapter becomes a link to
that chapter's working copy, and one to a page of the book (the ledger, the errata) names the
page by its title, "in the built book".

:func:`lab_command` is the server's command line: the project's Python, localhost only, a
token, the start page (``lab/START.md``, a chapter list, opened as rendered Markdown) and
``--allow-root`` when run as root (Jupyter refuses root otherwise). :func:`write_settings`
sets the defaults the book relies on in the environment's own JupyterLab settings (not the
user's): Markdown files open rendered, no announcements pop-up, every cell rendered (no
windowing, so a page search finds text in any cell).

Examples
--------
>>> import tempfile, nbformat
>>> from pathlib import Path
>>> root = Path(tempfile.mkdtemp())
>>> (root / "notebooks").mkdir()
>>> nb = nbformat.v4.new_notebook()
>>> nb.cells = [nbformat.v4.new_markdown_cell("# One"),
...             nbformat.v4.new_markdown_cell("```{glue:md} key-results\\n:format: myst\\n```")]
>>> nbformat.write(nb, root / "notebooks" / "01_one.ipynb")
>>> [(c.name, status) for c, status in working_copies(root)]
[('01_one.ipynb', 'copied')]
>>> "glue" in (root / "lab" / "01_one.ipynb").read_text()
False
>>> [status for _, status in working_copies(root)]
['kept']
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import nbformat

from fairbook.atomic import os_reason
from fairbook_book.tooling.chapters import CHAPTER_GLOB, Chapter, find_root

__all__ = [
    "BACKUP_DIR",
    "LAB_DIR",
    "LAB_SETTINGS",
    "START_PAGE",
    "book_roles",
    "doc_links",
    "for_lab",
    "lab_command",
    "main",
    "run_time_notes",
    "start_page",
    "statement_names",
    "working_copies",
    "write_settings",
]

#: The working copies' folder, below the book root (git-ignored).
LAB_DIR = "lab"
#: The page JupyterLab opens first, in :data:`LAB_DIR`.
START_PAGE = "START.md"

_GLUE = "{glue:md} key-results"
_KEY_RESULTS_NOTE = (
    "```{tip} Key results\n"
    "The Key results of this chapter are computed by running it: choose **Run ▸ Run All "
    "Cells**, and they appear, with their numbers, in the cell just before the exercises. "
    "(In the book they are shown here.)\n"
    "```"
)

#: JupyterLab settings the working copies rely on (plugin id → settings), written as the
#: environment's ``overrides.json``: a reader's own settings still take precedence.
LAB_SETTINGS = {
    "@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}},
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}


_DOC_ROLE = re.compile(r"\{doc\}`(?:([^`<]*?)\s*<([^`>]+)>|([^`<>]+))`")


def _page_title(root: Path | None, target: str) -> str:
    """The first heading of the book page `target` (relative to ``notebooks/``)."""
    name = target.split("/")[-1]
    if root is not None:
        page = (root / "notebooks" / target).with_suffix(".md").resolve()
        if page.is_file():
            for line in page.read_text(encoding="utf-8").splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return name.replace("_", " ")


def doc_links(source: str, *, root: str | os.PathLike[str] | None = None) -> str:
    """Replace Sphinx ``{doc}`` roles in Markdown with what JupyterLab can show.

    A chapter (``NN_topic``) becomes a link to its working copy; a book page becomes its
    title (or the role's own text), marked as a page of the built book.

    Examples
    --------
    >>> doc_links("see {doc}`03_small_groups` and {doc}`the errata <../book/errata>`")
    'see [chapter 03](03_small_groups.ipynb) and *the errata* (in the built book)'
    """
    here = Path(root) if root is not None else None

    def replace(match: re.Match) -> str:
        text, target = (match[1], match[2]) if match[2] else (None, match[3].strip())
        name = target.split("/")[-1]
        if re.fullmatch(r"\d\d_\w+", name):
            label = text or f"chapter {name[:2]}"
            return f"[{label}]({name}.ipynb)"
        return f"*{text or _page_title(here, target)}* (in the built book)"

    return _DOC_ROLE.sub(replace, source)


_TERM_ROLE = re.compile(r"\{term\}`(?:([^`<]*?)\s*<([^`>]+)>|([^`<>]+))`")
_PRF_ROLE = re.compile(r"\{prf:ref\}`(?:([^`<]*?)\s*<([^`>]+)>|([^`<>]+))`")
_PRF_KINDS = {
    "def": "Definition",
    "thm": "Theorem",
    "prop": "Proposition",
    "cor": "Corollary",
    "alg": "Algorithm",
    "asm": "Assumption",
    "rem": "Remark",
    "lem": "Lemma",
}


_PRF_DIRECTIVE = re.compile(r"^`{3,}\{prf:(\w+)\}[^\n]*\n(?::[^\n]*\n)*?:label: *([\w-]+)", re.M)


def statement_names(root: str | os.PathLike[str] | None) -> dict[str, str]:
    """Each labelled statement of the book's pages (``book/*.md``) -> the name the built
    book gives a bare ``{prf:ref}`` to it: its kind and its number, counted per kind in the
    order of the pages and of the statements (sphinx-proof's numbering), e.g.
    ``"Proposition 1"``.

    Examples
    --------
    >>> names = statement_names(find_root())
    >>> names["prop-03-holes"], names["thm-03-size"]
    ('Proposition 1', 'Theorem 1')
    """
    if root is None:
        return {}
    book = Path(root) / "book"
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for page in sorted(book.glob("*.md")):
        for kind, label in _PRF_DIRECTIVE.findall(page.read_text("utf-8")):
            counts[kind] = counts.get(kind, 0) + 1
            names[label] = f"{kind.capitalize()} {counts[kind]}"
    return names


def book_roles(source: str, *, names: dict[str, str] | None = None) -> str:
    """Replace the Sphinx roles JupyterLab cannot resolve with their text: a glossary
    ``{term}`` keeps its words; a ``{prf:ref}`` to a statement of the book (most live on the
    small-groups appendix page) becomes its text, marked as a page of the built book.

    Examples
    --------
    >>> book_roles("the {term}`MATCH test` and {term}`the flip rate <Flip rate>`")
    'the MATCH test and the flip rate'
    >>> book_roles("{prf:ref}`Theorem 4.1 <thm-03-size>`; {prf:ref}`prop-03-holes`")
    '*Theorem 4.1* (in the built book); *Proposition prop-03-holes* (in the built book)'
    """

    def term(match: re.Match) -> str:
        return match[1] if match[2] else match[3]

    def statement(match: re.Match) -> str:
        if match[2]:
            return f"*{match[1]}* (in the built book)"
        label = match[3].strip()
        if names and label in names:  # the number the built book prints for it
            return f"*{names[label]}* (in the built book)"
        kind = _PRF_KINDS.get(label.split("-")[0], "Statement")
        return f"*{kind} {label}* (in the built book)"

    return _PRF_ROLE.sub(statement, _TERM_ROLE.sub(term, source))


def for_lab(notebook, *, root: str | os.PathLike[str] | None = None) -> int:
    """Change a chapter (an ``nbformat`` node, in place) into its working copy; cells changed.

    The ``{glue:md} key-results`` cell, which only the book's Sphinx build fills, becomes a
    note that says where the Key results appear when the chapter runs; ``{doc}`` roles become
    links or page titles (:func:`doc_links`; `root`, the book root, gives the titles), and
    ``{term}`` and ``{prf:ref}`` roles their text (:func:`book_roles`).

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell("```{glue:md} key-results\\n```")]
    >>> for_lab(nb), nb.cells[0].source.startswith("```{tip} Key results")
    (1, True)
    """
    # the kernel's own description: JupyterLab writes it on connecting, and a copy that
    # differs opens marked as modified
    notebook.get("metadata", {}).update(_kernel_metadata())
    changed = 0
    names = statement_names(root)
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        linked = doc_links(source, root=root)
        new = _KEY_RESULTS_NOTE if _GLUE in source else book_roles(linked, names=names)
        if new != source:
            cell["source"] = new
            changed += 1
    return changed


def _chapters(root: Path) -> list[Chapter]:
    return [Chapter(path) for path in sorted((root / "notebooks").glob(CHAPTER_GLOB))]


#: Where a replaced working copy is kept, below :data:`LAB_DIR`.
BACKUP_DIR = "backup"


def _chosen(fresh: bool | str | Sequence[str], chapters: list[Chapter]) -> set[str]:
    """The slugs `fresh` names: every chapter for True, ``"all"`` or ``"1"``; else chapter
    numbers or slugs, comma-separated or a sequence."""
    if fresh is True or fresh in ("all", "1"):
        return {c.slug for c in chapters}
    if not fresh:
        return set()
    names = fresh.split(",") if isinstance(fresh, str) else list(fresh)
    chosen = set()
    for name in (n.strip() for n in names if n.strip()):
        hit = [c.slug for c in chapters if name in (c.number, c.slug, c.topic, c.path.name)]
        if not hit:
            listing = ", ".join(c.number for c in chapters)
            raise ValueError(f"FRESH={name}: no such chapter; the chapters are {listing} (or 1)")
        chosen.update(hit)
    return chosen


def working_copies(
    root: str | os.PathLike[str],
    *,
    fresh: bool | str | Sequence[str] = False,
    times: dict[str, str] | None = None,
):
    """Make ``lab/NN_topic.ipynb`` for every chapter that has none, and replace the copies
    `fresh` names (the reader's version of each kept in ``lab/backup/``).

    Parameters
    ----------
    root : path-like
        The book root (the folder with ``_toc.yml`` and ``notebooks/``).
    fresh : bool, str or sequence of str, default False
        Copies to replace: True (or ``"all"``, ``"1"``) every one, or chapter numbers or
        names (``"03"``, ``"03,06"``). Each replaced copy is first moved to
        ``lab/backup/NN_topic-YYYYmmdd-HHMMSS.ipynb``, so no edit is lost.
    times : dict, optional
        Chapter slug -> a comment about its run times, written at the top of the copy's
        parameters cell (:func:`run_time_notes`).

    Returns
    -------
    list of (pathlib.Path, str)
        Each copy and what happened: ``"copied"``, ``"replaced"``, ``"kept"`` (it exists, was
        copied from the chapter as it is now, and is left alone), or ``"kept, ..."`` saying
        why a kept copy is not the chapter's current version (the chapter changed since it
        was copied; the copy cannot be read): ``make lab FRESH=NN`` for a new
        copy. Staleness is decided by content: each copy records the SHA-256 of the chapter
        it was copied from (``metadata.fairbook.copied_from``), not by modification times,
        which an autosave moves.
    """
    root = Path(root)
    folder = root / LAB_DIR
    folder.mkdir(exist_ok=True)
    chapters = _chapters(root)
    replace = _chosen(fresh, chapters)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    done = []
    for chapter in chapters:
        copy = folder / chapter.path.name
        if copy.exists() and chapter.slug not in replace:
            done.append((copy, _kept(chapter.path, copy)))
            continue
        status = "copied"
        if copy.exists():
            backup = folder / BACKUP_DIR / f"{chapter.slug}-{stamp}.ipynb"
            backup.parent.mkdir(exist_ok=True)
            copy.replace(backup)
            status = f"replaced (your version: {backup.relative_to(root)})"
        notebook = nbformat.read(chapter.path, as_version=4)
        for_lab(notebook, root=root)
        if times and chapter.slug in times:
            _note_run_times(notebook, times[chapter.slug])
        notebook.metadata.setdefault("fairbook", {})["copied_from"] = _digest(chapter.path)
        temporary = copy.with_suffix(".ipynb.tmp")
        nbformat.write(notebook, temporary)
        temporary.replace(copy)
        done.append((copy, status))
    (folder / START_PAGE).write_text(start_page(root), encoding="utf-8")
    return done


_NOTE_SPLIT = "# (code after the parameters)\n"


def _kernel_metadata() -> dict:
    """``kernelspec`` and ``language_info`` as this environment's ``python3`` kernel reports
    them (what JupyterLab stores when it connects)."""
    try:
        from ipykernel.ipkernel import IPythonKernel
        from jupyter_client.kernelspec import KernelSpecManager

        spec = KernelSpecManager().get_kernel_spec("python3")
    except Exception:  # no ipykernel here (a bare environment): leave the chapter's
        return {}
    return {
        "kernelspec": {"display_name": spec.display_name, "language": "python", "name": "python3"},
        "language_info": dict(IPythonKernel.language_info),
    }


def _note_run_times(notebook, note: str) -> None:
    """Put `note` (comment lines) at the top of the notebook's ``parameters`` cell."""
    for cell in notebook.cells:
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get(
            "tags", []
        ):
            head, _, tail = note.partition(_NOTE_SPLIT)
            cell["source"] = head.rstrip("\n") + "\n" + cell["source"].rstrip("\n") + "\n"
            if tail:
                cell["source"] += "\n" + tail.strip("\n")
            return


def run_time_notes(root: str | os.PathLike[str]) -> dict[str, str]:
    """Each chapter's run times as comment lines for its working copy's parameters cell:
    the fast profile's seconds and the full profile's recorded cost
    (:mod:`fairbook_book.tooling.status`, the same numbers as ``fairbook-book status``),
    and each parameter's allowed values.

    Examples
    --------
    >>> notes = run_time_notes(find_root())
    >>> notes["03_small_groups"].startswith("# Run time:")
    True
    """
    from fairbook_book.tooling.parameter_ranges import rule_for
    from fairbook_book.tooling.status import book_status

    rows, _ = book_status(root)
    notes = {}
    for row in rows:
        fast = "?" if row.fast_seconds is None else f"about {row.fast_seconds:.0f} s"
        lines = [
            f"# Run time: fast profile {fast} on the build machine; full profile: "
            f"{row.full_text} (fairbook-book status).",
        ]
        chapter = Chapter(Path(root) / "notebooks" / f"{row.slug}.ipynb")
        for name in chapter.parameters():
            rule = rule_for(row.slug, name)
            if rule is not None:
                lines.append(f"# {name}: {rule.describe()}")
        text = "\n".join(lines) + "\n"
        if row.recordings:  # the profiles beyond fast say what they cost before they run
            text += _NOTE_SPLIT + (
                'if profile != "fast":\n'
                f"    print(f\"profile = {{profile!r}}: the full profile's recorded runs took "
                f"{row.full_text.replace(' of recorded runs', '')} on the build machine; "
                f'the fast profile about {row.fast_seconds or 0:.0f} s.")\n'
            )
        notes[row.slug] = text
    return notes


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _kept(chapter: Path, copy: Path) -> str:
    """Why a working copy that exists is kept, and whether it is the chapter's version."""
    try:
        ours = nbformat.read(copy, as_version=4)
    except Exception:  # any unreadable copy: say so, and keep it (it may hold work)
        return "kept, but it cannot be read (damaged?): make lab FRESH=NN (its number) replaces it"
    copied_from = ours.metadata.get("fairbook", {}).get("copied_from")
    if copied_from is None:  # a copy made before copies recorded their chapter
        changed = _differs(chapter, copy)
    else:
        changed = copied_from != _digest(chapter)
    if changed:
        return (
            "kept, but its chapter has changed since it was copied: make lab FRESH=NN (its "
            "number) for the new version; your edits go to lab/backup/"
        )
    return "kept"


def _differs(chapter: Path, copy: Path) -> bool:
    """Whether the copy's sources differ from its chapter's (outputs and metadata aside)."""
    try:
        ours = nbformat.read(copy, as_version=4)
    except Exception:  # an unreadable copy: the reader should know it is not the chapter
        return True
    theirs = nbformat.read(chapter, as_version=4)
    for_lab(theirs, root=chapter.parents[1])
    return [c.get("source") for c in ours.cells] != [c.get("source") for c in theirs.cells]


def start_page(root: str | os.PathLike[str]) -> str:
    """The Markdown of ``lab/START.md``: what the folder is, and a link to each chapter."""
    lines = [
        "# fairbook in JupyterLab",
        "",
        "These are **your working copies** of the book's chapters (in `lab/`, which git "
        "ignores): run them, change their parameters, save them — the repository's chapters "
        "in `notebooks/` stay as they are. To get one chapter fresh, run `make lab FRESH=03` "
        "(its number; `FRESH=1` for every chapter): your version is kept in `lab/backup/`.",
        "",
        'Open a chapter, change its first code cell (the parameters: `profile = "full"` runs '
        "it at the paper's scale; the cell's comments give the allowed values) and choose "
        "**Run ▸ Run All Cells**. The explorers near the end of each chapter respond to "
        "their controls: the ipywidgets ones compute with the kernel, the charts redraw from "
        "the grid the chapter computed.",
        "",
        "**How long it takes.** *Fast* is the chapter's last fast-profile run on the build "
        "machine; *full* is the wall time of its recorded full-profile runs, summed "
        "(`fairbook-book status` prints both, `fairbook-book chapters` the allowed values). "
        "A full profile can take hours on a laptop; the book shows its recorded results "
        "either way.",
        "",
        "| # | chapter | fast | full | fresh copy |",
        "|---|---|---|---|---|",
    ]
    rows = {}
    try:
        from fairbook_book.tooling.status import book_status, hours_text

        rows = {row.slug: row for row in book_status(root)[0]}
    except Exception:  # no status to read (a bare folder, as in the examples): no times
        hours_text = None
    for chapter in _chapters(Path(root)):
        title = chapter.title.replace("|", "\\|") or chapter.topic
        row = rows.get(chapter.slug)
        fast = "?" if row is None or row.fast_seconds is None else f"{row.fast_seconds:.0f} s"
        full = (
            "?"
            if row is None or hours_text is None
            else (hours_text(row.full_hours) + " recorded" if row.recordings else "not recorded")
        )
        lines.append(
            f"| {chapter.number} | [{title}]({chapter.path.name}) | {fast} | {full} | "
            f"`make lab FRESH={chapter.number}` |"
        )
    lines += [
        "",
        "The built book (`make book`, then `_build/html/index.html`) has the same chapters "
        "with their evidence folded and the replication ledger.",
        "",
    ]
    return "\n".join(lines)


def write_settings(prefix: str | os.PathLike[str] | None = None) -> Path:
    """Write :data:`LAB_SETTINGS` into ``PREFIX/share/jupyter/lab/settings/overrides.json``.

    `prefix` is the environment (``sys.prefix``, the project's venv, by default); settings
    already in that file for other plugins are kept.
    """
    folder = Path(prefix or sys.prefix) / "share" / "jupyter" / "lab" / "settings"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "overrides.json"
    try:
        current = json.loads(target.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        current = {}
    for plugin, values in LAB_SETTINGS.items():
        current[plugin] = {**current.get(plugin, {}), **values}
    target.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return target


def lab_command(
    root: str | os.PathLike[str],
    *,
    port: int = 8888,
    token: str | None = None,
    as_root: bool | None = None,
    folder: str | os.PathLike[str] | None = None,
    python: str = sys.executable,
) -> list[str]:
    """The command line that serves the working copies with JupyterLab.

    Parameters
    ----------
    root : path-like
        The book root.
    port : int, default 8888
        Jupyter tries the next ports if it is taken, and prints the one it uses.
    token : str, optional
        The access token; Jupyter makes a random one (printed in the URL) by default.
    as_root : bool, optional
        Add ``--allow-root``; by default when this process runs as root.
    folder : path-like, optional
        What the file browser shows (default: ``ROOT/lab``, the working copies).
    python : str
        The interpreter whose JupyterLab runs (the project's venv).

    Examples
    --------
    >>> cmd = lab_command("/book", port=9000, token="t", as_root=True, python="py")
    >>> cmd[:4], "--allow-root" in cmd, "--ServerApp.root_dir=/book/lab" in cmd
    (['py', '-m', 'jupyterlab', '--no-browser'], True, True)
    """
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    command = [
        python,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={int(port)}",
        f"--ServerApp.root_dir={Path(folder) if folder else Path(root) / LAB_DIR}",
        f"--LabApp.default_url=/lab/tree/{START_PAGE}",
    ]
    if token is not None:
        command.append(f"--IdentityProvider.token={token}")
    if as_root:
        command.append("--allow-root")
    return command


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.lab``: make the working copies, then serve them."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.lab",
        description="Open the book's chapters in JupyterLab as working copies (lab/).",
    )
    parser.add_argument("--port", type=int, default=8888, help="port (default 8888)")
    parser.add_argument(
        "--fresh",
        nargs="?",
        const="all",
        default="",
        help="replace working copies (your versions go to lab/backup/): all (also 1), or "
        "chapter numbers, comma-separated (03 or 03,06)",
    )
    parser.add_argument(
        "--prepare-only", action="store_true", help="make the copies and settings, serve nothing"
    )
    args = parser.parse_args(argv)
    root = find_root()
    try:
        copies = working_copies(root, fresh=args.fresh, times=run_time_notes(root))
        write_settings()
    except ValueError as exc:  # FRESH names no chapter
        print(f"[lab] {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # lab is a file, a read-only folder, a full disk
        print(
            f"[lab] cannot make the working copies in {root / LAB_DIR}: {os_reason(exc)}",
            file=sys.stderr,
        )
        return 2
    for copy, status in copies:
        if status != "kept":
            print(f"[lab] {copy.relative_to(root)}: {status}")
    if args.prepare_only:
        return 0
    command = lab_command(root, port=args.port)
    print(
        f"[lab] JupyterLab serves {root / LAB_DIR} on localhost; open the URL "
        "with the token that it prints below (Ctrl-C twice stops it)",
        flush=True,
    )
    os.execv(command[0], command)
    return 0  # pragma: no cover (execv does not return)


if __name__ == "__main__":
    sys.exit(main())
