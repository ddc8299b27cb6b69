"""Chapter "Small groups" (seed 003 ch. 4): every computation it shows.

The statistics live in :mod:`fairbook.stats` (combinatorics, MATCH, Cross-Prior
Smoothing); this package arranges them into the chapter's tables, figures and widgets,
one module per part of the chapter:

* :mod:`~fairbook.experiments.small_groups.matrix_space` — Sec. 4.3, the space of
  confusion matrices (Theorems 4.1–4.2), Fig. 4.1 (a small group's predicted positive rate
  by Monte Carlo) and Fig. 4.2 (CDFs over all of M(n));
* :mod:`~fairbook.experiments.small_groups.holes` — Sec. 4.4, Theorem 4.3's hole counts
  against enumeration, the limits at the holes;
* :mod:`~fairbook.experiments.small_groups.match_approximations` — Sec. 4.5, the worked
  example, Fig. 4.3's moments, the error of every approximation against the exact CDF;
* :mod:`~fairbook.experiments.small_groups.match_tables` — Sec. 4.5, MATCH applied to real
  small groups;
* :mod:`~fairbook.experiments.small_groups.compas_definitions` — Sec. 4.6, which COMPAS
  recidivism definition the published matrices correspond to;
* :mod:`~fairbook.experiments.small_groups.cps_protocol` — Sec. 4.6, the Cross-Prior
  Smoothing protocol (Figs. 4.4–4.6) on COMPAS and Adult;
* :mod:`~fairbook.experiments.small_groups.explorers` — the chapter's widgets;
* :mod:`~fairbook.experiments.small_groups.chapter` — the profiles (:data:`PROFILES`,
  :func:`settings`) and the verdicts over every section.

Every public name is importable from here (``from fairbook.experiments import
small_groups as sg; sg.match_table(...)``).
"""

from .chapter import PROFILES, chapter_verdicts, settings
from .compas_definitions import (
    COMPAS_DEFINITIONS,  # noqa: F401 - reachable as before, not in __all__
    compas_definition_counts,
    compas_definition_table,
    propublica_rates_replication,
)
from .cps_protocol import (
    cps_break_even,
    cps_claim_shares,
    cps_claims,
    cps_experiment,
    cps_group_table,
    cps_groups,
    cps_linear_mse,
    cps_losses,
    cps_summary,
    full_profile_cost,
    plot_mse,
)
from .explorers import (
    monte_carlo_pvalue,
    sampling_distribution,
    sampling_summary,
    smoothing_explorer,
    space_explorer,
)
from .holes import (
    mcc_limit_paths,
    mcc_limit_table,
    plot_pt_holes,
    pt_hole_table,
    theorem_4_3_replication,
)
from .match_approximations import (
    approximation_claims,
    approximation_errors,
    fig_4_3_claims,
    moments_table,
    peizer_pratt_check,
    plot_approximation_errors,
    plot_moments,
    plot_pmfs,
    worked_example,
)
from .match_tables import MATCH_METRICS, match_pvalues, match_summary, match_table
from .matrix_space import (
    FIG_4_2_LIMITS,  # noqa: F401 - reachable as before, not in __all__
    fig_4_1_monte_carlo,
    fig_4_2_replication,
    plot_fig_4_1,
    plot_space_cdfs,
    space_cdfs,
    space_moments,
    space_replication,
    space_table,
)

__all__ = [
    "MATCH_METRICS",
    "PROFILES",
    "approximation_claims",
    "approximation_errors",
    "chapter_verdicts",
    "compas_definition_counts",
    "compas_definition_table",
    "cps_break_even",
    "cps_claim_shares",
    "cps_claims",
    "cps_experiment",
    "cps_group_table",
    "cps_linear_mse",
    "cps_losses",
    "cps_groups",
    "cps_summary",
    "fig_4_1_monte_carlo",
    "fig_4_2_replication",
    "fig_4_3_claims",
    "full_profile_cost",
    "match_pvalues",
    "match_summary",
    "match_table",
    "mcc_limit_paths",
    "mcc_limit_table",
    "monte_carlo_pvalue",
    "moments_table",
    "peizer_pratt_check",
    "plot_approximation_errors",
    "plot_fig_4_1",
    "plot_mse",
    "plot_moments",
    "plot_pmfs",
    "plot_pt_holes",
    "plot_space_cdfs",
    "propublica_rates_replication",
    "pt_hole_table",
    "sampling_distribution",
    "sampling_summary",
    "settings",
    "smoothing_explorer",
    "space_cdfs",
    "space_explorer",
    "space_moments",
    "space_replication",
    "space_table",
    "theorem_4_3_replication",
    "worked_example",
]
