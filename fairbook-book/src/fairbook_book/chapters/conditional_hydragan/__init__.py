"""Chapter "Conditional HydraGAN" (seed 003 sec. 3.5): every computation it shows.

The chapter replicates seed 003's mitigation of bias with synthetic data: a conditional
multi-critic GAN generates training rows with a uniform who-cell and a diverse activity
distribution, a classifier trained on them is judged by OFI, DPPL, DI and DCA (Table 3.4,
Fig. 3.4), and the representation of activities and individuals is measured by KS, KL and
JS (Table 3.5). CASAS is not available offline, so the chapter runs on a labelled stand-in,
UCI Adult (:mod:`~fairbook_book.chapters.conditional_hydragan.settings` says how its pieces
map onto the paper's). The GAN lives in :mod:`fairbook.generative`, the classifier's
feature design in :mod:`fairbook.data.designs`; this package arranges the chapter by role:

* :mod:`~fairbook_book.chapters.conditional_hydragan.settings` — the profiles
  (:data:`PROFILES`, :func:`settings`) and the stand-in's constants;
* :mod:`~fairbook_book.chapters.conditional_hydragan.runs` — the data, the GAN and the
  classifiers over seeds, and the bias scores;
* :mod:`~fairbook_book.chapters.conditional_hydragan.results` — the analogues of Tables 3.4
  and 3.5, the spread over seeds and the reading of OFI beside DI;
* :mod:`~fairbook_book.chapters.conditional_hydragan.replication` — the paper's Tables 3.4
  and 3.5 beside ours;
* :mod:`~fairbook_book.chapters.conditional_hydragan.figures` — Fig. 3.4's box plots and the
  representation bars;
* :mod:`~fairbook_book.chapters.conditional_hydragan.explorers` — the precomputed grid of
  diversity targets and weights, and the widget that slices it;
* :mod:`~fairbook_book.chapters.conditional_hydragan.key_results` — the chapter's answers in
  plain sentences, computed from its tables.

Every public name is importable from here (``from fairbook_book.chapters import
conditional_hydragan as hc; hc.table_3_4(...)``).
"""

from .explorers import explorer, mitigation_chart, mitigation_grid
from .figures import plot_bias_boxplot, plot_recorded_bias, plot_representation
from .key_results import key_results
from .replication import (
    PAPER_SOURCES,
    beside_recorded,
    experiment_replications,
    recorded_replications,
    seeds_recording,
    table_3_4_beside_paper,
    table_3_5_beside_paper,
    table_3_5_replication,
)
from .results import (
    activity_mapping,
    reading,
    recording_cost,
    seed_spread,
    table_3_4,
    table_3_5,
)
from .runs import (
    RECORDINGS,
    SEEDS_RECORDING,
    bias_scores,
    flatten_run,
    improvement,
    prepare_data,
    real_half,
    recorded_experiment,
    run_experiment,
    run_once,
    seed_unit,
    seed_units,
)
from .settings import (
    AGE_SPLIT,
    ATTRIBUTES,
    CATEGORICAL,
    CONTINUOUS,
    DESIGN,
    IDEAL,
    METRICS,
    PAPER_CLASSES,
    PROFILES,
    SEDENTARY,
    settings,
)

__all__ = [
    "AGE_SPLIT",
    "ATTRIBUTES",
    "CATEGORICAL",
    "CONTINUOUS",
    "DESIGN",
    "IDEAL",
    "METRICS",
    "PAPER_CLASSES",
    "PAPER_SOURCES",
    "PROFILES",
    "RECORDINGS",
    "SEDENTARY",
    "SEEDS_RECORDING",
    "activity_mapping",
    "beside_recorded",
    "bias_scores",
    "experiment_replications",
    "explorer",
    "flatten_run",
    "improvement",
    "key_results",
    "mitigation_chart",
    "mitigation_grid",
    "plot_bias_boxplot",
    "plot_recorded_bias",
    "plot_representation",
    "prepare_data",
    "reading",
    "real_half",
    "recorded_experiment",
    "recorded_replications",
    "recording_cost",
    "run_experiment",
    "run_once",
    "seed_spread",
    "seed_unit",
    "seed_units",
    "seeds_recording",
    "settings",
    "table_3_4",
    "table_3_4_beside_paper",
    "table_3_5",
    "table_3_5_beside_paper",
    "table_3_5_replication",
]
