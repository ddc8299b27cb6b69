"""Chapter 08 "Parallel Time Networks on the Lorenz system" (seed 003 ch. 5).

* :mod:`.settings` - profiles, departures, the search space;
* :mod:`.runs` - data, search, final networks and baselines;
* :mod:`.results` - tables from the runs;
* :mod:`.replication` - Table 5.2 (chaos) beside ours;
* :mod:`.figures` - figures;
* :mod:`.explorers` - the fan explorers (a widget, and a static chart).
"""

from .explorers import (
    FAN_BANDS,
    FanGrid,
    fan_chart_static,
    fan_explorer,
    fan_grid,
)
from .figures import (
    attractor_plot,
    fan_chart,
    interesting_forecasts,
    search_plot,
    training_curves_plot,
    wall_time_curves_plot,
)
from .replication import (
    PAPER_SOURCES,
    cost_recording,
    ptn_recording,
    recorded_table_5_2,
    table_5_2_replication,
)
from .results import (
    budget_table,
    chosen_agents,
    cost_extrapolation,
    cost_markdown,
    cost_table,
    crps_check,
    equal_compute_table,
    nvar_error_table,
    operation_table,
    partition_table,
    per_run_table,
    space_table,
    summary_markdown,
    window_counts,
)
from .runs import (
    COST_RECORDING,
    DECISIVE_RECORDING,
    PTN_RECORDING,
    RECORDINGS,
    RunResult,
    cost_recorded_unit,
    cost_recorded_units,
    decisive_recorded_unit,
    decisive_recorded_units,
    make_data,
    ptn_recorded_unit,
    ptn_recorded_units,
    run_once,
    run_study,
    stage_costs,
    tide_epochs_per_cycle,
)
from .settings import (
    DEPARTURES,
    PROFILES,
    search_space,
    settings,
)

__all__ = [
    "COST_RECORDING",
    "DECISIVE_RECORDING",
    "DEPARTURES",
    "FAN_BANDS",
    "FanGrid",
    "PAPER_SOURCES",
    "PROFILES",
    "PTN_RECORDING",
    "RECORDINGS",
    "RunResult",
    "attractor_plot",
    "budget_table",
    "chosen_agents",
    "cost_extrapolation",
    "cost_markdown",
    "cost_recorded_unit",
    "cost_recorded_units",
    "cost_recording",
    "cost_table",
    "crps_check",
    "decisive_recorded_unit",
    "decisive_recorded_units",
    "equal_compute_table",
    "fan_chart",
    "fan_chart_static",
    "fan_explorer",
    "fan_grid",
    "interesting_forecasts",
    "make_data",
    "nvar_error_table",
    "operation_table",
    "partition_table",
    "per_run_table",
    "ptn_recorded_unit",
    "ptn_recorded_units",
    "ptn_recording",
    "recorded_table_5_2",
    "run_once",
    "run_study",
    "search_plot",
    "search_space",
    "settings",
    "space_table",
    "stage_costs",
    "summary_markdown",
    "table_5_2_replication",
    "tide_epochs_per_cycle",
    "training_curves_plot",
    "wall_time_curves_plot",
    "window_counts",
]
