"""The repository's release files: licences, the citation, the conda environment (issue 39).

These are files at the repository root, not a module of ``src/fairbook``; the version in the
built pages is tested in ``tests/book/tooling/test_chapters.py``."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_code_licence_is_the_one_pyproject_names():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    assert text.startswith("MIT License") and "Copyright (c) 2026 the fairbook authors" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_the_content_licence_names_what_it_covers_and_what_it_does_not():
    text = (ROOT / "LICENSE-CONTENT.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in text and "https://creativecommons.org/licenses/by/4.0/" in text
    for part in ("prose", "figures", "exercises", "LICENSE", "data/README.md"):
        assert part in text
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in intro and "MIT licence" in intro and "{{ version }}" in intro


def test_the_citation_file_is_valid_cff_with_the_package_version():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # the keys CFF 1.2.0 requires, and the types it allows
    assert cff["cff-version"] == "1.2.0"
    assert isinstance(cff["message"], str) and cff["message"]
    assert isinstance(cff["title"], str) and cff["title"]
    assert cff["authors"] and all("name" in a or "family-names" in a for a in cff["authors"])
    assert cff["version"] == PYPROJECT["project"]["version"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(cff["date-released"]))
    assert cff["license"] == ["MIT", "CC-BY-4.0"]  # SPDX identifiers of the two licences
    assert set(cff) <= {
        "cff-version", "message", "type", "title", "abstract", "authors", "version",
        "date-released", "license", "keywords", "repository-code", "url", "doi",
    }  # fmt: skip


def test_the_conda_environment_installs_what_the_makefile_installs():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    extras = re.search(r"^EXTRAS := (\S+)$", makefile, re.M).group(1)
    python = re.search(r"^PYTHON \?= python(\S+)$", makefile, re.M).group(1)
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pip == ["-c constraints.txt", "-e .", f"-e ./fairbook-book[{extras}]"]
    assert f"python={python}" in env["dependencies"]
    book = tomllib.loads((ROOT / "fairbook-book" / "pyproject.toml").read_text(encoding="utf-8"))
    assert set(extras.split(",")) == set(book["project"]["optional-dependencies"])
    assert PYPROJECT["project"]["requires-python"] == f">={python}"
    assert book["project"]["version"] == PYPROJECT["project"]["version"]


def test_the_library_pins_nothing_and_the_constraints_pin_everything():
    core = PYPROJECT["project"]["dependencies"]
    assert core and not [d for d in core if "==" in d]
    tools = ("pytest", "sphinx", "jupyter", "papermill", "nbval", "hypothesis", "torch", "dask")
    assert not [d for d in core if d.lower().startswith(tools)]
    pinned = {
        line.split("==")[0].lower()
        for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    }
    book = tomllib.loads((ROOT / "fairbook-book" / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [*core, *book["project"]["dependencies"]]
    wanted += [d for group in PYPROJECT["project"]["optional-dependencies"].values() for d in group]
    wanted += [d for group in book["project"]["optional-dependencies"].values() for d in group]
    names = {re.split(r"[<>=\[ ]", d, maxsplit=1)[0].lower() for d in wanted}
    assert names - {"fairbook"} <= pinned, sorted(names - {"fairbook"} - pinned)


def test_the_changelog_has_an_entry_for_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    version = PYPROJECT["project"]["version"]
    entries = re.findall(r"^## (\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2})$", text, re.M)
    assert entries and entries[0][0] == version  # the newest entry first
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["date-released"]) == entries[0][1]
    newest = text.split(f"## {version}", 1)[1].split("\n## ", 1)[0]
    for part in ("Ledger verdicts", "Recordings", "Chapters whose outputs changed"):
        assert f"**{part}" in newest
