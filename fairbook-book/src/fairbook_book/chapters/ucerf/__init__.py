"""Chapter 05 "UCerF with SmolLM2 on WinoBias" (seed 001, Wang et al.).

Uncertainty-aware fairness of a language model on gender-occupation minimal pairs.

* :mod:`.settings` - profiles, formats, temperatures;
* :mod:`.runs` - sampling, prompting and scoring with the model;
* :mod:`.results` - tables from the scores;
* :mod:`.replication` - the paper beside ours;
* :mod:`.figures` - figures;
* :mod:`.explorers` - the widget, and its static twin (a precomputed grid drawn as a
  chart that works without a kernel);
* :mod:`.key_results` - the chapter's answers as plain sentences, from its tables.
"""

from .explorers import (
    pair_chart,
    pair_explorer,
    pair_grid,
)
from .figures import (
    plot_occupations,
    plot_temperatures,
)
from .key_results import key_results
from .replication import (
    PAPER_SOURCES,
    ranking_replication,
    replication,
)
from .results import (
    derive,
    figure1_examples,
    model_ranking,
    occupation_table,
    pair_metrics,
    pair_table,
    summary,
    summary_beside_recording,
    synthbias_summary,
    synthbias_tables,
    temperature_variants,
)
from .runs import (
    RECORDINGS,
    WINOBIAS_RECORDING,
    build_prompts,
    sample_pairs,
    score_frame,
)
from .settings import (
    FORMATS,
    PAPER_MODEL_IDS,
    PROFILES,
    TEMPERATURES,
    settings,
)

__all__ = [
    "FORMATS",
    "PAPER_MODEL_IDS",
    "PAPER_SOURCES",
    "PROFILES",
    "RECORDINGS",
    "TEMPERATURES",
    "WINOBIAS_RECORDING",
    "build_prompts",
    "derive",
    "figure1_examples",
    "key_results",
    "model_ranking",
    "occupation_table",
    "pair_chart",
    "pair_explorer",
    "pair_grid",
    "pair_metrics",
    "pair_table",
    "plot_occupations",
    "plot_temperatures",
    "ranking_replication",
    "replication",
    "sample_pairs",
    "score_frame",
    "settings",
    "summary",
    "summary_beside_recording",
    "synthbias_summary",
    "synthbias_tables",
    "temperature_variants",
]
