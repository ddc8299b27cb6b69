"""Check the executed chapters' outputs against committed references, without a second run.

``make test`` executes every chapter once, for the book (``make html``). nbval's way of
checking outputs is to execute each chapter a second time and compare the two runs; that
doubled the notebook time of ``make test``. This module keeps nbval's guarantee — the outputs
of a chapter repeat, cell by cell, under nbval's comparison rules — with one execution: it
compares the build's executed copies with **reference outputs committed in the repository**
(``tests/notebooks/reference/<chapter>.json``), written from an earlier build by
``make nbval-refresh``. The reference is an earlier run, so the check is at least as strong
as nbval's (two runs, on different days and commits, must agree), and a change of any output
shows up in review as a change of its reference. ``make nbval-rerun`` still runs nbval itself.

What is compared, for every code cell (matched by cell id), following nbval 0.11.0
(``nbval.plugin.IPyNbCell.compare_outputs``):

* stream outputs of one name are merged, and a line's text before a ``\\r`` is dropped
  (``nbval.plugin.coalesce_streams``);
* the outputs are flattened into one list of values per key: each stream name, each MIME
  type of ``data``, ``ename`` and ``evalue``; nbval's skipped keys (:data:`SKIPPED`:
  metadata, tracebacks, execution counts, widget views, PNG and JPEG images) are dropped;
* every text value passes through the sanitising rules of ``tests/notebooks/sanitize.cfg``,
  in order, as nbval applies them;
* cells tagged ``nbval-ignore-output`` or ``nbval-skip`` are not compared (nbval's tags);
* the reference also holds each cell's source digest, so a reference written for another
  version of a cell is reported as stale instead of as a difference.

Stored values: text values of the keys in :data:`VERBATIM` up to :data:`VERBATIM_CHARS`
characters verbatim, so that a failure shows a readable diff; every other value (HTML, JSON
chart specifications, long texts) as the SHA-256 of its sanitised form and its length.

Examples
--------
>>> rules = parse_rules("regex: 0x[0-9a-f]+\\nreplace: 0xADDRESS\\n")
>>> cell = {"cell_type": "code", "id": "a1", "source": "print(object())",
...         "metadata": {}, "execution_count": 1,
...         "outputs": [{"output_type": "stream", "name": "stdout", "text": "at 0x7f3a\\n"}]}
>>> checked_outputs({"cells": [cell]}, rules=rules)["a1"]["outputs"]
{'stdout': ['at 0xADDRESS\\n']}
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = [
    "IGNORE_TAGS",
    "SKIPPED",
    "TOLERANCE_TAG",
    "VERBATIM",
    "VERBATIM_CHARS",
    "check_references",
    "checked_outputs",
    "cell_tolerance",
    "compare",
    "numbers_within",
    "executed_problems",
    "parse_rules",
    "profile_of",
    "write_references",
]

#: Output keys nbval 0.11.0 does not compare (``IPyNbFile.skip_compare`` without nbdime).
SKIPPED = (
    "metadata",
    "traceback",
    "prompt_number",
    "output_type",
    "name",
    "execution_count",
    "application/vnd.jupyter.widget-view+json",
    "image/png",
    "image/jpeg",
)
#: Cell tags whose outputs nbval does not compare.
IGNORE_TAGS = ("nbval-ignore-output", "nbval-skip")
#: Keys whose text values are stored verbatim (readable diffs); others as digests.
VERBATIM = ("text/plain", "stdout", "stderr", "ename", "evalue")
#: Longest verbatim value; longer ones are stored as digests.
VERBATIM_CHARS = 20_000
_FORMAT = 2
#: A cell tagged ``tolerance:R`` (e.g. ``tolerance:0.01``) holds numbers computed by
#: optimisation or floating-point reduction: under another kernel signature than its
#: reference's, each printed number may move by ``R`` times the larger of its magnitude and 1
#: (relative above 1, absolute below: the book's rates and ratios are of order one) plus one
#: unit of its last printed digit; all text between the numbers (words, verdicts, labels, the
#: table's shape) must still be equal (:func:`compare`).
TOLERANCE_TAG = "tolerance:"
#: A number as printed: not part of a word (``F1``, ``n008``), optional sign, decimals, exponent.
_SPACES = re.compile(r"[ \t]+")
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
_CARRIAGE_RETURN = re.compile(r"^.*\r(?=[^\n])", re.MULTILINE)  # nbval's carriagereturn_pat


def parse_rules(text: str) -> tuple[tuple[str, str], ...]:
    """Read sanitising rules in nbval's format (``regex: ...`` then ``replace: ...``).

    Parameters
    ----------
    text : str
        The contents of a sanitise file such as ``tests/notebooks/sanitize.cfg``.

    Returns
    -------
    tuple of (str, str)
        ``(regex, replacement)`` pairs in file order, as nbval's ``get_sanitize_patterns``.

    Examples
    --------
    >>> parse_rules("[ids]\\nregex: id-\\\\d+\\nreplace: ID\\n")
    (('id-\\\\d+', 'ID'),)
    """
    rules = re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, flags=re.MULTILINE)
    return tuple((regex, replace) for regex, replace in rules)


def _sanitise(value, rules: Sequence[tuple[str, str]]):
    if not isinstance(value, str):
        return value
    for regex, replace in rules:
        value = re.sub(regex, replace, value)
    return value


def _text(value) -> str | object:
    return "".join(value) if isinstance(value, list) else value


def _coalesced(outputs: Sequence[Mapping]) -> list[dict]:
    merged: list[dict] = []
    streams: dict[str, dict] = {}
    for output in outputs:
        if output.get("output_type") == "stream":
            name = output.get("name", "stdout")
            if name in streams:
                streams[name]["text"] += _text(output.get("text", ""))
            else:
                streams[name] = {"output_type": "stream", "name": name}
                streams[name]["text"] = _text(output.get("text", ""))
                merged.append(streams[name])
        else:
            merged.append(dict(output))
    for stream in streams.values():
        # nbval also has a backspace step, but its loop condition is false on entry, so it
        # never runs: backspaces are kept, as nbval keeps them
        stream["text"] = _CARRIAGE_RETURN.sub("", stream["text"])
    return merged


def _stored(key: str, value) -> object:
    if isinstance(value, str) and key in VERBATIM and len(value) <= VERBATIM_CHARS:
        return value
    canonical = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return {"sha256": digest, "chars": len(canonical)}


def _skeleton(text: str) -> tuple[str, list[str]]:
    """The text with every printed number replaced by ``#`` and runs of spaces by one (a
    table's padding follows its numbers' widths), and the numbers in order."""
    numbers = _NUMBER.findall(text)
    return _SPACES.sub(" ", _NUMBER.sub("#", text)), numbers


def _stored_numeric(key: str, value) -> object:
    """A value of a ``tolerance:`` cell: its text without numbers (as a digest, and verbatim
    when short, for diffs) and its numbers as printed."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    skeleton, numbers = _skeleton(text)
    stored = {
        "skeleton": hashlib.sha256(skeleton.encode("utf-8")).hexdigest(),
        "numbers": numbers,
        "chars": len(text),
    }
    if key in VERBATIM and len(text) <= VERBATIM_CHARS:
        stored["text"] = text
    return stored


def cell_tolerance(tags: Sequence[str]) -> float | None:
    """The relative tolerance a cell's ``tolerance:R`` tag declares (None without one).

    Examples
    --------
    >>> cell_tolerance(["hide-input", "tolerance:0.02"])
    0.02
    >>> cell_tolerance(["tolerance:x"])
    Traceback (most recent call last):
    ...
    ValueError: bad tag 'tolerance:x': write tolerance:R with R a number >= 0
    """
    found = [t for t in tags if t.startswith(TOLERANCE_TAG)]
    if not found:
        return None
    try:
        value = float(found[0][len(TOLERANCE_TAG) :])
    except ValueError:
        value = -1.0
    if not (0.0 <= value < math.inf):
        raise ValueError(f"bad tag {found[0]!r}: write tolerance:R with R a number >= 0")
    return value


def _value(token: str) -> float:
    return float(token.replace("−", "-"))


def _unit(token: str) -> float:
    """One unit of the last printed digit of a decimal (0 for an integer)."""
    mantissa = token.lower().split("e")[0]
    if "." not in mantissa:
        return 0.0
    digits = len(mantissa.split(".")[1])
    exponent = int(token.lower().split("e")[1]) if "e" in token.lower() else 0
    return 10.0 ** (exponent - digits)


def numbers_within(
    reference: Sequence[str], executed: Sequence[str], tolerance: float
) -> list[int]:
    """Positions where two lists of printed numbers differ by more than ``tolerance`` times
    the larger of their magnitudes and 1, plus one unit of the coarser last printed digit.

    Examples
    --------
    >>> numbers_within(["-1.458", "0.25", "12"], ["-1.452", "0.25", "13"], 0.01)
    [2]
    """
    bad = []
    for i, (a, b) in enumerate(zip(reference, executed, strict=True)):
        if a == b:
            continue
        x, y = _value(a), _value(b)
        if math.isnan(x) or math.isnan(y):
            bad.append(i)
            continue
        # (1 + 1e-9): a unit of the last digit is not exact in binary (0.251 - 0.250)
        allowed = (tolerance * max(abs(x), abs(y), 1.0) + max(_unit(a), _unit(b))) * (1 + 1e-9)
        if abs(x - y) > allowed:
            bad.append(i)
    return bad


def _flattened(outputs: Sequence[Mapping], rules, *, numeric: bool = False) -> dict[str, list]:
    flat: dict[str, list] = {}
    for output in _coalesced(outputs):
        if output.get("output_type") == "stream":
            flat.setdefault(output["name"], []).append(_sanitise(output["text"], rules))
            continue
        for key, value in output.items():
            if key in SKIPPED:
                continue
            if key == "data":
                for mime, data in value.items():
                    # in a tolerance: cell, a rich output's plain-text fallback is left out:
                    # the reader reads the HTML, and the fallback's line wrapping follows the
                    # widths of the numbers
                    if numeric and mime == "text/plain" and "text/html" in value:
                        continue
                    if mime not in SKIPPED:
                        flat.setdefault(mime, []).append(_sanitise(_text(data), rules))
            else:
                flat.setdefault(key, []).append(_sanitise(_text(value), rules))
    if not numeric:
        return {key: [_stored(key, v) for v in values] for key, values in sorted(flat.items())}
    # a JSON value (a chart specification) is compared as its text, sanitised like any text
    return {
        key: [
            _stored_numeric(
                key, v if isinstance(v, str) else _sanitise(json.dumps(v, sort_keys=True), rules)
            )
            for v in values
        ]
        for key, values in sorted(flat.items())
    }


def _source_digest(cell: Mapping) -> str:
    return hashlib.sha256(_text(cell.get("source", "")).encode("utf-8")).hexdigest()[:16]


def checked_outputs(
    notebook: Mapping, *, rules: Sequence[tuple[str, str]], all_numeric: bool = False
) -> dict[str, dict]:
    """The outputs nbval would compare, per code cell, in the form references store them.

    Parameters
    ----------
    notebook : mapping
        A notebook as parsed from its JSON file.
    rules : sequence of (str, str)
        Sanitising rules (:func:`parse_rules`).
    all_numeric : bool, default False
        Store every cell's values as text-without-numbers plus numbers, as for a cell tagged
        ``tolerance:`` (:func:`spread` uses it to measure how far two builds' numbers are).

    Returns
    -------
    dict
        Cell id (``"injected-parameters"`` for the cell papermill injects, whose id is new
        in every run) → ``{"index", "source", "ignored", "outputs"}``: the code cell's position
        among the code cells, its source digest, whether nbval ignores its outputs (then
        ``outputs`` is empty) and the flattened, sanitised outputs (module docstring).

    Raises
    ------
    ValueError
        If a code cell has no id or two cells share one (nbformat ≥ 4.5 gives every cell a
        unique id; the comparison matches cells by it).

    Examples
    --------
    >>> cell = {"cell_type": "code", "id": "c", "source": "1 + 1", "metadata": {},
    ...         "outputs": [{"output_type": "execute_result", "execution_count": 1,
    ...                      "data": {"text/plain": "2"}, "metadata": {}}]}
    >>> checked_outputs({"cells": [cell]}, rules=())["c"]["outputs"]
    {'text/plain': ['2']}
    """
    cells: dict[str, dict] = {}
    code = [c for c in notebook.get("cells", []) if c.get("cell_type") == "code"]
    for index, cell in enumerate(code):
        tags = cell.get("metadata", {}).get("tags", [])
        # papermill gives the cell it injects a new random id in every run
        cell_id = "injected-parameters" if "injected-parameters" in tags else cell.get("id")
        if not cell_id:
            raise ValueError(f"code cell {index} has no id: upgrade the notebook to nbformat 4.5")
        if cell_id in cells:
            raise ValueError(f"two code cells share the id {cell_id!r}")
        ignored = any(tag in tags for tag in IGNORE_TAGS)
        tolerance = cell_tolerance(tags)
        outputs = cell.get("outputs", [])
        cells[cell_id] = {
            "index": index,
            "source": _source_digest(cell),
            "ignored": ignored,
            "tolerance": tolerance,
            "outputs": {}
            if ignored
            else _flattened(outputs, rules, numeric=all_numeric or tolerance is not None),
        }
    return cells


def executed_problems(notebook: Mapping) -> list[str]:
    """Why a notebook is not a usable executed copy (papermill ran it, every cell, no error).

    A notebook without outputs would compare as empty against an empty reference, so only
    papermill's executed copies are checked.

    Examples
    --------
    >>> executed_problems({"metadata": {}, "cells": []})
    ['not executed by papermill (compare the executed copies in _build/executed)']
    """
    meta = notebook.get("metadata", {}).get("papermill")
    if not meta:
        return ["not executed by papermill (compare the executed copies in _build/executed)"]
    problems = []
    if meta.get("exception"):
        problems.append("papermill recorded an exception: the chapter failed in the build")
    code = [c for c in notebook.get("cells", []) if c.get("cell_type") == "code"]
    unexecuted = [
        i
        for i, c in enumerate(code)
        if c.get("execution_count") is None
        and _text(c.get("source", "")).strip()
        and "parameters" not in c.get("metadata", {}).get("tags", [])
    ]
    if unexecuted:
        problems.append(f"code cells never executed: {unexecuted[:5]}")
    return problems


def _diff(key: str, reference, executed) -> str:
    if isinstance(reference, str) and isinstance(executed, str):
        lines = difflib.unified_diff(
            reference.splitlines(),
            executed.splitlines(),
            "reference",
            "this build",
            lineterm="",
            n=1,
        )
        return f"{key} differs:\n    " + "\n    ".join(list(lines)[:40])

    def shown(value) -> str:
        if isinstance(value, dict):
            return f"sha256 {value['sha256'][:12]}…, {value['chars']} chars"
        return f"{len(value)} chars" if isinstance(value, str) else repr(value)

    return f"{key} differs: reference {shown(reference)}, this build {shown(executed)}"


def _compare_numeric(key: str, reference: Mapping, executed: Mapping, tolerance, exact) -> str:
    """Why a ``tolerance:`` cell's value differs from its reference ('' when it does not)."""
    if reference.get("skeleton") != executed.get("skeleton"):
        if isinstance(reference.get("text"), str) and isinstance(executed.get("text"), str):
            return _diff(key, reference["text"], executed["text"]) + " (words or shape)"
        return f"{key} differs in its text or shape, not only in its numbers"
    ref_numbers, our_numbers = reference["numbers"], executed["numbers"]
    if len(ref_numbers) != len(our_numbers):
        return f"{key}: {len(our_numbers)} numbers, the reference has {len(ref_numbers)}"
    if exact:
        bad = [i for i, (a, b) in enumerate(zip(ref_numbers, our_numbers, strict=True)) if a != b]
        rule = "bit for bit (same kernel signature)"
    else:
        bad = numbers_within(ref_numbers, our_numbers, tolerance)
        rule = f"within {tolerance:g} relative + one unit of the last digit"
    if not bad:
        return ""
    shown = ", ".join(f"{ref_numbers[i]} -> {our_numbers[i]}" for i in bad[:5])
    return f"{key}: {len(bad)} number(s) differ beyond {rule}: {shown}"


def compare(executed: Mapping, reference: Mapping, *, same_signature: bool = True) -> list[str]:
    """Differences between an executed copy's checked outputs and its reference.

    Parameters
    ----------
    executed, reference : mapping
        :func:`checked_outputs` of the executed copy, and the reference's ``"cells"``.

    Returns
    -------
    list of str
        One message per differing, missing, extra or stale cell; empty when they agree.

    Examples
    --------
    >>> same = {"c": {"index": 0, "source": "s", "ignored": False, "outputs": {"stdout": ["1"]}}}
    >>> compare(same, same)
    []
    >>> other = {"c": {**same["c"], "outputs": {"stdout": ["2"]}}}
    >>> compare(other, same)[0].splitlines()[0]
    'code cell 0 (id c): stdout differs:'
    """
    problems: list[str] = []
    for cell_id, cell in executed.items():
        where = f"code cell {cell['index']} (id {cell_id})"
        ref = reference.get(cell_id)
        if ref is None:
            problems.append(f"{where}: not in the reference (a new cell: refresh the reference)")
            continue
        if ref["source"] != cell["source"] or ref["ignored"] != cell["ignored"]:
            problems.append(f"{where}: the reference is for another version of this cell (stale)")
            continue
        if cell["ignored"]:
            continue
        if ref.get("tolerance") != cell.get("tolerance"):
            problems.append(f"{where}: the reference has another tolerance tag (stale)")
            continue
        keys = set(ref["outputs"]) | set(cell["outputs"])
        for key in sorted(keys):
            mine, theirs = cell["outputs"].get(key), ref["outputs"].get(key)
            if theirs is None:
                problems.append(f"{where}: unexpected output {key!r}")
            elif mine is None:
                problems.append(f"{where}: missing output {key!r}")
            elif len(mine) != len(theirs):
                problems.append(
                    f"{where}: {len(mine)} outputs of {key!r}, the reference has {len(theirs)}"
                )
            else:
                for a, b in zip(theirs, mine, strict=True):
                    if cell.get("tolerance") is not None:
                        why = _compare_numeric(key, a, b, cell["tolerance"], same_signature)
                        if why:
                            problems.append(f"{where}: {why}")
                            break
                    elif a != b:
                        problems.append(f"{where}: {_diff(key, a, b)}")
                        break
    for cell_id in reference.keys() - executed.keys():
        problems.append(f"reference cell {cell_id} is no longer in the chapter (stale)")
    return problems


def profile_of(notebook: Mapping) -> str:
    """The profile papermill ran a chapter with (``fast`` when it passed none).

    References are kept per profile: ``<reference_dir>/<profile>/<chapter>.json``.

    Examples
    --------
    >>> profile_of({"metadata": {"papermill": {"parameters": {"profile": "full"}}}})
    'full'
    """
    parameters = notebook.get("metadata", {}).get("papermill", {}).get("parameters") or {}
    return str(parameters.get("profile", "fast"))


def _rules(sanitize: Path) -> tuple[tuple[str, str], ...]:
    return parse_rules(Path(sanitize).read_text("utf-8"))


def write_references(executed_dir: Path, reference_dir: Path, *, sanitize: Path) -> list[Path]:
    """Write every executed chapter's checked outputs as its reference.

    Parameters
    ----------
    executed_dir : path
        The executed copies (``_build/executed/notebooks``).
    reference_dir : path
        Where the references go (``tests/notebooks/reference``), one folder per profile
        (:func:`profile_of`); references of chapters no longer built with that profile are
        removed.
    sanitize : path
        The sanitising rules (``tests/notebooks/sanitize.cfg``).

    The build's chapter seconds (``timings.json`` beside the executed copies) are copied to
    ``<reference_dir>/timings-<profile>.json``, which ``fairbook-book build --timings`` reads to
    start the longest chapters first on a fresh clone.

    Returns
    -------
    list of Path
        The references written.

    Raises
    ------
    ValueError
        If an executed copy is not usable (:func:`executed_problems`) or there is none.
    """
    rules = _rules(sanitize)
    notebooks = sorted(Path(executed_dir).glob("*.ipynb"))
    if not notebooks:
        raise ValueError(f"no executed chapters in {executed_dir}: run make html first")
    records = {}
    for path in notebooks:
        notebook = json.loads(path.read_text("utf-8"))
        problems = executed_problems(notebook)
        if problems:
            raise ValueError(f"{path.name}: {'; '.join(problems)}")
        target = Path(reference_dir) / profile_of(notebook) / f"{path.stem}.json"
        records[target] = {
            "format": _FORMAT,
            "kernels": build_signature(Path(executed_dir)),
            "cells": checked_outputs(notebook, rules=rules),
        }
    for target, record in records.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")
    for folder in {target.parent for target in records}:
        for stale in set(folder.glob("*.json")) - set(records):
            stale.unlink()
    profiles = {target.parent.name for target in records}
    timings = Path(executed_dir) / "timings.json"
    if len(profiles) == 1 and timings.is_file():
        # the chapters' seconds, so a fresh clone's build starts the longest first
        copy = Path(reference_dir) / f"timings-{profiles.pop()}.json"
        copy.write_text(timings.read_text("utf-8"), "utf-8")
    return sorted(records)


def build_signature(executed_dir: Path) -> dict:
    """The kernel signature the executed chapters ran under (``kernels.json`` beside them,
    written by ``fairbook-book build``; this process's when there is none)."""
    path = Path(executed_dir) / "kernels.json"
    if path.is_file():
        return json.loads(path.read_text("utf-8"))
    from fairbook_book.reproduction.signature import kernel_signature

    return kernel_signature()


def check_references(executed: Path, reference_dir: Path, *, sanitize: Path) -> list[str]:
    """Compare one executed chapter with its reference (:func:`compare`).

    Returns
    -------
    list of str
        Problems: the copy is not usable, there is no reference, or outputs differ.
    """
    executed = Path(executed)
    notebook = json.loads(executed.read_text("utf-8"))
    problems = executed_problems(notebook)
    if problems:
        return problems
    reference_path = Path(reference_dir) / profile_of(notebook) / f"{executed.stem}.json"
    if not reference_path.is_file():
        return [f"no reference {reference_path}: run make nbval-refresh after make html"]
    reference = json.loads(reference_path.read_text("utf-8"))
    if reference.get("format") != _FORMAT:
        return [f"{reference_path}: unknown format {reference.get('format')!r}: refresh it"]
    from fairbook_book.reproduction.signature import FORCE, signatures_differ

    here = build_signature(executed.parent)
    if os.environ.get(FORCE):  # the same forced mismatch as kernel_signature()
        here = {**here, "forced": os.environ[FORCE]}
    same = not signatures_differ(here, reference.get("kernels"))
    return compare(
        checked_outputs(notebook, rules=_rules(sanitize)), reference["cells"], same_signature=same
    )


def spread(first: Path, second: Path, *, sanitize: Path) -> list[dict]:
    """How far two executed copies of a chapter are apart, cell by cell.

    For every code cell whose outputs differ at all: its index and id, its tolerance tag,
    whether the text between the numbers (words, verdicts, the table's shape) differs
    (``words``: then no tolerance can cover it), and the largest deviation of a printed
    number beyond one unit of its last digit, relative to the larger of its magnitude and 1
    (``max_rel``, the quantity a ``tolerance:`` tag bounds). Used to choose a cell's
    ``tolerance:`` tag from two builds under different kernel signatures.
    """
    rules = _rules(sanitize)
    cells_a = checked_outputs(
        json.loads(Path(first).read_text("utf-8")), rules=rules, all_numeric=True
    )
    cells_b = checked_outputs(
        json.loads(Path(second).read_text("utf-8")), rules=rules, all_numeric=True
    )
    found = []
    for cell_id, a in cells_a.items():
        b = cells_b.get(cell_id)
        if b is None or a["ignored"]:
            continue
        words, worst, moved = False, 0.0, False
        for key in set(a["outputs"]) | set(b["outputs"]):
            va, vb = a["outputs"].get(key, []), b["outputs"].get(key, [])
            if len(va) != len(vb):
                words = True
                continue
            for x, y in zip(va, vb, strict=True):
                if x["skeleton"] != y["skeleton"] or len(x["numbers"]) != len(y["numbers"]):
                    words = True
                    continue
                for p, q in zip(x["numbers"], y["numbers"], strict=True):
                    if p == q:
                        continue
                    moved = True
                    u, v = _value(p), _value(q)
                    excess = abs(u - v) - max(_unit(p), _unit(q)) * (1 + 1e-9)
                    if excess > 0:
                        worst = max(worst, excess / max(abs(u), abs(v), 1.0))
        if words or moved:
            found.append(
                {
                    "index": a["index"],
                    "id": cell_id,
                    "tolerance": a.get("tolerance"),
                    "words": words,
                    "max_rel": worst,
                }
            )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.outputs write|check EXECUTED_DIR REFERENCE_DIR SANITIZE``,
    or ``spread FIRST_DIR SECOND_DIR SANITIZE`` (one JSON line per differing cell)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) == 4 and args[0] == "spread":
        _, first_dir, second_dir, sanitize = args
        for path in sorted(Path(first_dir).glob("*.ipynb")):
            other = Path(second_dir) / path.name
            if other.is_file():
                for cell in spread(path, other, sanitize=Path(sanitize)):
                    print(json.dumps({"chapter": path.stem, **cell}))
        return 0
    if len(args) != 4 or args[0] not in ("write", "check"):
        print(main.__doc__, file=sys.stderr)
        return 2
    action, executed_dir, reference_dir, sanitize = args
    try:
        if action == "write":
            written = write_references(Path(executed_dir), Path(reference_dir), sanitize=sanitize)
            print(f"wrote {len(written)} references to {reference_dir}")
            return 0
        notebooks = sorted(Path(executed_dir).glob("*.ipynb"))
        if not notebooks:
            raise ValueError(f"no executed chapters in {executed_dir}: run make html first")
        failed = 0
        for path in notebooks:
            problems = check_references(path, Path(reference_dir), sanitize=sanitize)
            failed += bool(problems)
            print(f"{path.stem}: " + ("ok" if not problems else "\n".join(problems)))
    except (OSError, ValueError) as exc:  # unreadable files and bad JSON end in one line
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
