import hashlib
import os
from pathlib import Path

import pytest

from fairbook.data import DataSourceError, cache_dir
from fairbook.data import cache as cache_mod
from fairbook.data.cache import (
    cached_path,
    check_bytes,
    check_file,
    sha256_file,
    store,
    write_atomic,
)
from fairbook.data.registry import Source

DATA = b"a,b\n1,2\n3,4\n"
SRC = Source(
    name="toy",
    filename="toy/toy.csv",
    sha256=hashlib.sha256(DATA).hexdigest(),
    size=len(DATA),
    wheel="toy==1.0",
    member="toy/toy.csv",
)
BAD = hashlib.sha256(b"other").hexdigest()


def files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def test_cache_dir_default(monkeypatch, tmp_path):
    monkeypatch.delenv("FAIRBOOK_DATA")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == tmp_path.resolve() / ".cache" / "fairbook"


def test_cache_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRBOOK_DATA", str(tmp_path / "elsewhere"))
    assert cache_dir() == (tmp_path / "elsewhere").resolve()
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("FAIRBOOK_DATA", "~/d")
    assert cache_dir() == tmp_path.resolve() / "d"


def test_cache_dir_empty_env_means_default(monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRBOOK_DATA", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == tmp_path.resolve() / ".cache" / "fairbook"


def test_cached_path_follows_env(monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRBOOK_DATA", str(tmp_path))
    assert cached_path(SRC) == tmp_path.resolve() / "toy" / "toy.csv"


def test_sha256_file(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(DATA)
    assert sha256_file(p) == SRC.sha256


def test_check_bytes():
    assert check_bytes(DATA, SRC, what="w") is None
    msg = check_bytes(DATA[:-3], SRC, what="from somewhere")
    assert msg.startswith("from somewhere")
    assert SRC.sha256 in msg and hashlib.sha256(DATA[:-3]).hexdigest() in msg
    assert "truncated" in msg
    assert "truncated" not in check_bytes(DATA + b"x", SRC, what="w")


def test_check_file_ok_missing_corrupt_truncated(cache_root):
    msg = check_file(SRC)
    assert "missing" in msg and "fairbook data fetch toy" in msg and "FAIRBOOK_DATA" in msg
    p = cached_path(SRC)
    p.parent.mkdir(parents=True)
    p.write_bytes(DATA)
    assert check_file(SRC) is None
    p.write_bytes(DATA.replace(b"1", b"9"))
    msg = check_file(SRC)
    assert str(p) in msg and SRC.sha256 in msg and sha256_file(p) in msg
    assert f"Delete {p}" in msg and "truncated" not in msg
    p.write_bytes(DATA[:5])
    assert "5 of 12 bytes" in check_file(SRC) and "truncated" in check_file(SRC)


def test_write_atomic_creates_parents_and_leaves_no_temp(tmp_path):
    dest = tmp_path / "a" / "b" / "c.bin"
    write_atomic(dest, b"xyz")
    assert dest.read_bytes() == b"xyz"
    assert files_under(tmp_path) == [dest]
    write_atomic(dest, b"new")
    assert dest.read_bytes() == b"new"
    assert files_under(tmp_path) == [dest]


def test_write_atomic_failure_keeps_old_file(monkeypatch, tmp_path):
    dest = tmp_path / "c.bin"
    dest.write_bytes(b"old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(dest, b"new")
    assert dest.read_bytes() == b"old"
    assert files_under(tmp_path) == [dest]


def test_store_good(cache_root):
    p = store(SRC, DATA, what="test")
    assert p == cached_path(SRC) and p.read_bytes() == DATA
    assert files_under(cache_root) == [p]


def test_store_bad_digest_writes_nothing(cache_root):
    with pytest.raises(DataSourceError) as info:
        store(SRC, b"other", what="member toy.csv")
    msg = str(info.value)
    assert SRC.sha256 in msg and BAD in msg and "member toy.csv" in msg
    assert "nothing was written" in msg
    assert files_under(cache_root) == []


def test_store_unwritable_cache(monkeypatch, cache_root):
    def denied(dest, data):
        raise PermissionError("read-only file system")

    monkeypatch.setattr(cache_mod, "write_atomic", denied)
    with pytest.raises(DataSourceError, match="cannot write .*Set FAIRBOOK_DATA"):
        store(SRC, DATA, what="test")
