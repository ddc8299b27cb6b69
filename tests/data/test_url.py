import urllib.error
import urllib.request

import pytest

from fairbook.data import DataSourceError
from fairbook.data.url import download_url


class FakeResponse:
    def __init__(self, data: bytes, length: str | None):
        self.data = data
        self.headers = {} if length is None else {"Content-Length": length}

    def read(self):
        return self.data

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def serve(monkeypatch, response=None, error=None):
    seen = []

    def fake_urlopen(req, timeout):
        seen.append((req.full_url, timeout))
        if error is not None:
            raise error
        return response

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    return seen


def test_download_ok(monkeypatch):
    seen = serve(monkeypatch, FakeResponse(b"abc", "3"))
    assert download_url("https://example.org/a", timeout=5) == b"abc"
    assert seen == [("https://example.org/a", 5)]


def test_download_without_length(monkeypatch):
    serve(monkeypatch, FakeResponse(b"abc", None))
    assert download_url("https://example.org/a") == b"abc"


def test_download_short_read(monkeypatch):
    serve(monkeypatch, FakeResponse(b"ab", "3"))
    with pytest.raises(DataSourceError, match="cut short: got 2 of 3 bytes"):
        download_url("https://example.org/a")


def test_download_offline(monkeypatch):
    serve(monkeypatch, error=urllib.error.URLError("Name or service not known"))
    with pytest.raises(DataSourceError, match=r"download of https://example.org/a failed"):
        download_url("https://example.org/a")
