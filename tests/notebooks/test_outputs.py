"""Every executed chapter's outputs agree with its committed reference (nbval's rules).

Runs with the nbval stage (``make nbval``) on the executed copies of this build: the chapters
are executed once, by ``make html``, and compared here with ``tests/notebooks/reference/``
(``fairbook_book.tooling.outputs``; README.md). ``make nbval-refresh`` rewrites the references after
a deliberate change of a chapter's outputs; ``make nbval-rerun`` runs nbval itself.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from fairbook_book.tooling.outputs import check_references, profile_of

ROOT = Path(__file__).resolve().parents[2]
EXECUTED = ROOT / "_build" / "executed" / "notebooks"
REFERENCE = Path(__file__).resolve().parent / "reference"
SANITIZE = Path(__file__).resolve().parent / "sanitize.cfg"
CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_outputs_agree_with_the_reference(chapter):
    executed = EXECUTED / f"{chapter}.ipynb"
    if not executed.is_file():
        pytest.fail(f"no executed copy {executed}: run make html first")
    problems = check_references(executed, REFERENCE, sanitize=SANITIZE)
    assert not problems, f"{chapter}:\n" + "\n".join(problems)


def test_every_reference_belongs_to_a_chapter():
    executed = sorted(EXECUTED.glob("*.ipynb"))
    if not executed:
        pytest.fail(f"no executed chapters in {EXECUTED}: run make html first")
    profiles = {profile_of(json.loads(p.read_text("utf-8"))) for p in executed}
    for profile in profiles:
        orphans = {p.stem for p in (REFERENCE / profile).glob("*.json")} - set(CHAPTERS)
        assert not orphans, f"references without a chapter ({profile}): {sorted(orphans)}"


_SCIENTIFIC = re.compile(r"(?<![\w.])-?(\d(?:\.\d+)?)e-(\d+)(?![\w.])", re.IGNORECASE)
_NUMPY_REPR = re.compile(r"\bnp\.(float|int|uint|bool_?|complex|str_)\w*\(")


def _rounding_noise(mantissa: str, exponent: str) -> bool:
    """A value below 1e-12 shaped like floating-point rounding noise: 1, 1.25, 1.5 or 1.75
    times a power of two (1.1102e-16 = 2^-53, 2.7756e-17 = 2^-55, 3.553e-15 = 2^-48), to the
    printed digits (0.05 %), which a p-value or a measured quantity is only by a
    one-in-a-few-hundred coincidence."""
    value = float(mantissa) * 10.0 ** -int(exponent)
    if value == 0 or value >= 1e-12:
        return False
    ratio = value / 2.0 ** math.floor(math.log2(value))
    return any(abs(ratio - k) < 5e-4 * k for k in (1.0, 1.25, 1.5, 1.75, 2.0))


def _executed(chapter: str) -> dict:
    executed = EXECUTED / f"{chapter}.ipynb"
    if not executed.is_file():
        pytest.fail(f"no executed copy {executed}: run make html first")
    return json.loads(executed.read_text("utf-8"))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_chapter_prints_rounding_noise_or_numpy_reprs(chapter):
    """The book's formatter (fairbook_book.formatting) prints noise as 0 and numpy scalars as
    numbers; this finds any output it missed."""
    notebook = _executed(chapter)
    found = []
    for index, cell in enumerate(c for c in notebook["cells"] if c["cell_type"] == "code"):
        for output in cell.get("outputs", []):
            texts = [output.get("text", "")]
            data = output.get("data", {})
            texts += [data.get(k, "") for k in ("text/plain", "text/html", "text/markdown")]
            for text in texts:
                text = "".join(text) if isinstance(text, list) else text
                found += [f"cell {index}: {m.group(0)}" for m in _NUMPY_REPR.finditer(text)]
                found += [
                    f"cell {index}: {m.group(0)}"
                    for m in _SCIENTIFIC.finditer(text)
                    if _rounding_noise(m.group(1), m.group(2))
                ]
    assert not found, f"{chapter} prints noise or numpy reprs: {found[:10]}"


#: A figure is at most 9 inches wide at the inline backend's 100 dpi (issue 33: figures at
#: reading size; wider ones were shown at 0.36-0.5 x in the page's text column), plus half an
#: inch for what the inline backend's tight bounding box adds (a legend beside the axes).
MAX_FIGURE_WIDTH_PX = round(9.5 * 100)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_figure_is_at_reading_size(chapter):
    import base64

    notebook = _executed(chapter)
    wide = []
    for index, cell in enumerate(c for c in notebook["cells"] if c["cell_type"] == "code"):
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if not png:
                continue
            head = base64.b64decode("".join(png) if isinstance(png, list) else png)[:24]
            width = int.from_bytes(head[16:20], "big")
            if width > MAX_FIGURE_WIDTH_PX:
                wide.append(f"cell {index}: {width} px")
    assert not wide, f"{chapter} has figures wider than 9 in: {wide}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_figure_has_a_caption_folded_ones_too(chapter):
    """Issue 45: a figure without a caption leaves a reader guessing what it shows (and its
    alt text empty); the caption lives in the cell's ``metadata.mystnb.figure.caption``."""
    notebook = _executed(chapter)
    bare = []
    for index, cell in enumerate(c for c in notebook["cells"] if c["cell_type"] == "code"):
        images = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        caption = cell.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("caption")
        if images and not (caption or "").strip():
            bare.append(f"cell {index}: {''.join(cell['source'])[:60]!r}")
    assert not bare, f"{chapter} has figures without a caption: {bare}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_worked_example_runs_and_prints_plain_numbers(chapter):
    """The worked example is executed with the chapter: it prints its results (no error, no
    numpy repr), and the check after it ran without an assertion error."""
    cells = [c for c in _executed(chapter)["cells"] if c["cell_type"] == "code"]
    index = next(
        (i for i, c in enumerate(cells) if "worked-example" in c["metadata"].get("tags", [])),
        None,
    )
    assert index is not None, f"{chapter}: no worked-example cell"
    for cell in cells[index : index + 2]:
        outputs = cell.get("outputs", [])
        assert not [o for o in outputs if o.get("output_type") == "error"], chapter
    printed = ""
    for output in cells[index].get("outputs", []):
        for text in (output.get("text"), output.get("data", {}).get("text/plain")):
            printed += "".join(text) if isinstance(text, list) else (text or "")
    assert printed.strip(), f"{chapter}: the worked example prints nothing"
    assert not _NUMPY_REPR.search(printed) and "array(" not in printed, printed
