"""Chapter 04 "Uncertainty as a fairness measure" (seed 000, Kuzucu et al.).

BNNs (Bayes by Backprop) and deep ensembles on the synthetic SD1-SD3, COMPAS and Adult; the
epistemic / aleatoric split; uncertainty-based group and individual fairness; Tables 1-5 and 7.

* :mod:`.settings` - profiles, measures, patterns;
* :mod:`.runs` - training and the fairness results;
* :mod:`.results` - tables from the runs;
* :mod:`.replication` - the paper's tables beside ours;
* :mod:`.figures` - figures;
* :mod:`.explorers` - the widget.
"""

from .explorers import (
    explorer,
)
from .figures import (
    plot_ablation,
    plot_dvlog,
    plot_individual,
    plot_reliability,
    plot_sd,
    plot_seed_spread,
    plot_uncertainty_distributions,
)
from .replication import (
    PAPER_SOURCES,
    adult_replication,
    compas_replication,
    paper_consistency,
    pattern_summary,
    study_comparison,
    table_1_replication,
    table_4_replication,
    table_7_printed,
    table_7_replication,
    verdict_summary,
)
from .results import (
    ablation_table,
    dvlog_summary,
    estimator_comparison,
    float_format,
    format_tables,
    group_ordering,
    individual_table,
    individual_tables,
    sd_oracle,
    sd_seed_study,
    table_1,
)
from .runs import (
    FairnessResult,
    Run,
    capacity_ablation,
    dvlog_standin,
    fairness_result,
    init_sensitivity,
    make_estimator,
    pool_sequences,
    real_runs,
    reliability,
    results_for,
    results_over,
    sd_run,
    tabular_run,
)
from .settings import (
    GROUP_MEASURES,
    PAIRS,
    PATTERN_POINT,
    PATTERNS,
    POINT_RATIOS,
    PROFILES,
    UNCERTAINTY_RATIOS,
    settings,
)

__all__ = [
    "FairnessResult",
    "GROUP_MEASURES",
    "PAIRS",
    "PAPER_SOURCES",
    "PATTERNS",
    "PATTERN_POINT",
    "POINT_RATIOS",
    "PROFILES",
    "Run",
    "UNCERTAINTY_RATIOS",
    "ablation_table",
    "adult_replication",
    "capacity_ablation",
    "compas_replication",
    "dvlog_standin",
    "dvlog_summary",
    "estimator_comparison",
    "explorer",
    "fairness_result",
    "float_format",
    "format_tables",
    "group_ordering",
    "individual_table",
    "individual_tables",
    "init_sensitivity",
    "make_estimator",
    "paper_consistency",
    "pattern_summary",
    "plot_ablation",
    "plot_dvlog",
    "plot_individual",
    "plot_reliability",
    "plot_sd",
    "plot_seed_spread",
    "plot_uncertainty_distributions",
    "pool_sequences",
    "real_runs",
    "reliability",
    "results_for",
    "results_over",
    "sd_oracle",
    "sd_run",
    "sd_seed_study",
    "settings",
    "study_comparison",
    "table_1",
    "table_1_replication",
    "table_4_replication",
    "table_7_printed",
    "table_7_replication",
    "tabular_run",
    "verdict_summary",
]
