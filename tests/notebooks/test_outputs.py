"""Every executed chapter's outputs agree with its committed reference (nbval's rules).

Runs with the nbval stage (``make nbval``) on the executed copies of this build: the chapters
are executed once, by ``make html``, and compared here with ``tests/notebooks/reference/``
(``fairbook.build.outputs``; README.md). ``make nbval-refresh`` rewrites the references after
a deliberate change of a chapter's outputs; ``make nbval-rerun`` runs nbval itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairbook.build.outputs import check_references, profile_of

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
