"""Chapter "Small groups" (seed 003 ch. 4): every computation it shows.

The chapter replicates seed 003's chapter 4 on sample-size-induced bias: Theorems 4.1–4.2
(the space M(n) of confusion matrices) and Figs. 4.1–4.2, Theorems 4.3–4.4 (the holes of
the metrics), the MATCH test with the worked example of Sec. 4.5.1, Fig. 4.3 and the
accuracy claims of Sec. 4.5.4, and Cross-Prior Smoothing on COMPAS and Adult (Figs.
4.4–4.6, Sec. 4.6.2). The statistics live in :mod:`fairbook.stats` (combinatorics, MATCH,
Cross-Prior Smoothing); this package arranges them by role, each module kept in the order
of the chapter's sections:

* :mod:`~fairbook_book.chapters.small_groups.settings` — the profiles (:data:`PROFILES`,
  :func:`settings`) and the chapter's constants;
* :mod:`~fairbook_book.chapters.small_groups.runs` — the sampling, enumeration and scoring
  (Monte Carlo of Fig. 4.1, CDFs over M(n), moments and approximation errors, MATCH, the
  CPS protocol);
* :mod:`~fairbook_book.chapters.small_groups.results` — the tables built from the runs, and
  the cost of the full profile;
* :mod:`~fairbook_book.chapters.small_groups.replication` — the paper's numbers beside ours
  (``<table>_replication``) and :func:`chapter_verdicts`;
* :mod:`~fairbook_book.chapters.small_groups.figures` — Figs. 4.1–4.6 and the chapter's
  plots;
* :mod:`~fairbook_book.chapters.small_groups.explorers` — the widgets, the computations
  behind them, and the precomputed grid and chart of the static smoothing explorer;
* :mod:`~fairbook_book.chapters.small_groups.key_results` — the chapter's answers in plain
  sentences, computed from its tables (the Key results box at the top of the page).

Every public name is importable from here (``from fairbook_book.chapters import
small_groups as sg; sg.match_table(...)``).
"""

from .explorers import (
    SmoothingGrid,
    SpaceGrid,
    monte_carlo_pvalue,
    sampling_distribution,
    sampling_summary,
    smoothing_chart,
    smoothing_explorer,
    smoothing_grid,
    space_chart,
    space_explorer,
    space_grid,
)
from .figures import (
    plot_approximation_errors,
    plot_fig_4_1,
    plot_moments,
    plot_mse,
    plot_pmfs,
    plot_pt_holes,
    plot_space_cdfs,
)
from .key_results import key_results
from .replication import (
    FIG_4_2_LIMITS,
    PAPER_SOURCES,
    PROPUBLICA_SOURCE,
    chapter_verdicts,
    cps_recording,
    eqs_4_3_to_4_6_replication,
    example_4_5_1_replication,
    fig_4_1_replication,
    fig_4_2_replication,
    fig_4_3_replication,
    figs_4_4_to_4_6_recorded_replication,
    figs_4_4_to_4_6_replication,
    propublica_rates_replication,
    sec_4_5_4_replication,
    theorem_4_3_replication,
    theorem_4_4_replication,
    theorems_4_1_4_2_replication,
    theorems_4_5_to_4_9_replication,
)
from .results import (
    compas_definition_table,
    cps_break_even,
    cps_claim_shares,
    cps_group_table,
    cps_linear_mse,
    cps_losses,
    cps_seconds_per_setting,
    cps_summary,
    full_profile_cost,
    indeterminacy_table,
    match_summary,
    mcc_limit_table,
    pt_hole_table,
    space_moments,
    space_table,
)
from .runs import (
    CPS_RECORDING,
    RECORDINGS,
    approximation_errors,
    compas_definition_counts,
    cps_experiment,
    cps_groups,
    cps_recorded_groups,
    cps_recorded_unit,
    cps_recorded_units,
    fig_4_1_monte_carlo,
    match_pvalues,
    match_table,
    mcc_limit_paths,
    moments_table,
    peizer_pratt_check,
    space_cdfs,
)
from .settings import COMPAS_DEFINITIONS, MATCH_METRICS, PROFILES, settings

__all__ = [
    "COMPAS_DEFINITIONS",
    "CPS_RECORDING",
    "FIG_4_2_LIMITS",
    "MATCH_METRICS",
    "PAPER_SOURCES",
    "PROFILES",
    "PROPUBLICA_SOURCE",
    "RECORDINGS",
    "SmoothingGrid",
    "SpaceGrid",
    "approximation_errors",
    "chapter_verdicts",
    "compas_definition_counts",
    "compas_definition_table",
    "cps_break_even",
    "cps_claim_shares",
    "cps_experiment",
    "cps_group_table",
    "cps_groups",
    "cps_linear_mse",
    "cps_losses",
    "cps_recorded_groups",
    "cps_recorded_unit",
    "cps_recorded_units",
    "cps_recording",
    "cps_seconds_per_setting",
    "cps_summary",
    "eqs_4_3_to_4_6_replication",
    "example_4_5_1_replication",
    "fig_4_1_monte_carlo",
    "fig_4_1_replication",
    "fig_4_2_replication",
    "fig_4_3_replication",
    "figs_4_4_to_4_6_recorded_replication",
    "figs_4_4_to_4_6_replication",
    "full_profile_cost",
    "indeterminacy_table",
    "key_results",
    "match_pvalues",
    "match_summary",
    "match_table",
    "mcc_limit_paths",
    "mcc_limit_table",
    "moments_table",
    "monte_carlo_pvalue",
    "peizer_pratt_check",
    "plot_approximation_errors",
    "plot_fig_4_1",
    "plot_moments",
    "plot_mse",
    "plot_pmfs",
    "plot_pt_holes",
    "plot_space_cdfs",
    "propublica_rates_replication",
    "pt_hole_table",
    "sampling_distribution",
    "sampling_summary",
    "sec_4_5_4_replication",
    "settings",
    "smoothing_chart",
    "smoothing_explorer",
    "smoothing_grid",
    "space_cdfs",
    "space_chart",
    "space_explorer",
    "space_grid",
    "space_moments",
    "space_table",
    "theorem_4_3_replication",
    "theorem_4_4_replication",
    "theorems_4_1_4_2_replication",
    "theorems_4_5_to_4_9_replication",
]
