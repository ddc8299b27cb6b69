"""Tests of fairbook_book.tooling.release: the archive's contents, checksums, reproducibility."""

import hashlib
import tarfile

import pytest

from fairbook_book.tooling.release import (
    RELEASE_FILES,
    ReleaseError,
    build_release,
    release_members,
)


@pytest.fixture
def built(tmp_path):
    root = tmp_path / "book"
    for name in RELEASE_FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"{name}\n")
    files = {
        "_build/html/index.html": "<html></html>",
        "_build/html/ledger.csv": "paper,source\n",
        "_build/html/notebooks/01_a.html": "<p>a</p>",
        "_build/pdf/fairbook.pdf": "%PDF-1.7 i",
        "_build/pdf/fairbook-student.pdf": "%PDF-1.7 s",
        "_build/pdf/fairbook.json": "{}",
        "_build/editions/student/01_a.ipynb": "{}",
        "_build/editions/instructor/01_a.ipynb": "{ }",
        "_build/executed/notebooks/01_a.ipynb": "{  }",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_archive_holds_every_part_with_its_checksum(built, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    archive, sums = build_release(built, out=built / "out", version="9.9.9")
    assert archive.name == "fairbook-9.9.9.tar.gz"
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        listing = tar.extractfile("fairbook-9.9.9/SHA256SUMS").read().decode()
        assert {m.mtime for m in tar.getmembers()} == {1790000000}
        for name in names[:-1]:
            data = tar.extractfile(name).read()
            assert f"{hashlib.sha256(data).hexdigest()}  {name.split('/', 1)[1]}" in listing
    assert names == sorted(names[:-1]) + ["fairbook-9.9.9/SHA256SUMS"]
    expected = {
        "html/index.html", "html/notebooks/01_a.html", "pdf/fairbook.pdf",
        "pdf/fairbook-student.pdf", "editions/student/01_a.ipynb",
        "editions/instructor/01_a.ipynb", "executed/01_a.ipynb", "ledger.csv",
        *RELEASE_FILES,
    }  # fmt: skip
    assert {n.split("/", 1)[1] for n in names} - {"SHA256SUMS", "html/ledger.csv"} == expected
    assert "pdf/fairbook.json" not in listing  # the PDF's build record is not shipped
    side = (archive.parent / "fairbook-9.9.9.tar.gz.sha256").read_text().split()
    assert side == [hashlib.sha256(archive.read_bytes()).hexdigest(), archive.name]


def test_the_archive_is_reproducible(built, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    first, _ = build_release(built, out=built / "a", version="1.0.0")
    second, _ = build_release(built, out=built / "b", version="1.0.0")
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(
    ("missing", "target"),
    [
        ("_build/pdf/fairbook-student.pdf", "make pdf"),
        ("_build/editions/student/01_a.ipynb", "make student"),
        ("_build/executed/notebooks/01_a.ipynb", "make html"),
        ("_build/html/ledger.csv", "make book"),
    ],
)
def test_a_missing_part_names_the_target_that_builds_it(built, missing, target):
    (built / missing).unlink()
    with pytest.raises(ReleaseError, match=target):
        release_members(built, version="1.0.0")
