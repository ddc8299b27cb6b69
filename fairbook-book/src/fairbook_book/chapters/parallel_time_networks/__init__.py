"""Chapter 08 "Parallel Time Networks on the Lorenz system" (seed 003 ch. 5).

* :mod:`.settings` - profiles, departures, the search space;
* :mod:`.runs` - data, search, final networks and baselines;
* :mod:`.results` - tables from the runs;
* :mod:`.replication` - Table 5.2 (chaos) beside ours;
* :mod:`.figures` - figures;
* :mod:`.explorers` - the fan explorers (a widget, and a static chart);
* :mod:`.key_results` - the chapter's answers in plain sentences, from its tables.
"""

from ._darts_order import (
    darts_order_decisions,
    darts_order_markdown,
    darts_order_table,
    departure_from_uniform,
    second_order_recording,
)
from ._second_order import (
    SECOND_ORDER_RECORDING,
    random_agent_training,
    second_order_recorded_unit,
    second_order_recorded_units,
)
from .explorers import (
    FAN_BANDS,
    FanGrid,
    fan_chart_static,
    fan_explorer,
    fan_grid,
)
from .figures import (
    attractor_plot,
    decisive_curves_plot,
    decisive_operations_plot,
    fan_chart,
    interesting_forecasts,
    search_plot,
    training_curves_plot,
    wall_time_curves_plot,
)
from .key_results import key_results
from .replication import (
    PAPER_SOURCES,
    cost_recording,
    decisive_budget,
    decisive_recording,
    decisive_table_5_2,
    ptn_recording,
    recorded_table_5_2,
    table_5_2_microclimate,
    table_5_2_replication,
)
from .results import (
    budget_table,
    chosen_agents,
    cost_extrapolation,
    cost_markdown,
    cost_table,
    crps_check,
    crps_examples,
    decision_rows,
    decision_table,
    decisive_answer_markdown,
    decisive_curves,
    decisive_runs_table,
    equal_compute_table,
    nvar_error_table,
    operation_table,
    partition_table,
    per_run_table,
    recorded_runs,
    space_table,
    summary_markdown,
    window_counts,
)
from .runs import (
    COST_RECORDING,
    DECISIVE_RECORDING,
    PTN_RECORDING,
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
from .runs import RECORDINGS as _RUN_RECORDINGS
from .settings import (
    DEPARTURES,
    PROFILES,
    search_space,
    settings,
)

#: Everything ``fairbook-book record 08`` can record, by name.
RECORDINGS = {**_RUN_RECORDINGS, SECOND_ORDER_RECORDING.name: SECOND_ORDER_RECORDING}

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
    "SECOND_ORDER_RECORDING",
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
    "crps_examples",
    "darts_order_decisions",
    "darts_order_markdown",
    "darts_order_table",
    "decision_rows",
    "decision_table",
    "decisive_answer_markdown",
    "decisive_budget",
    "decisive_curves",
    "decisive_curves_plot",
    "decisive_operations_plot",
    "decisive_recorded_unit",
    "decisive_recorded_units",
    "decisive_recording",
    "decisive_runs_table",
    "decisive_table_5_2",
    "departure_from_uniform",
    "equal_compute_table",
    "fan_chart",
    "fan_chart_static",
    "fan_explorer",
    "fan_grid",
    "interesting_forecasts",
    "key_results",
    "make_data",
    "nvar_error_table",
    "operation_table",
    "partition_table",
    "per_run_table",
    "ptn_recorded_unit",
    "ptn_recorded_units",
    "ptn_recording",
    "random_agent_training",
    "recorded_runs",
    "recorded_table_5_2",
    "run_once",
    "run_study",
    "search_plot",
    "search_space",
    "second_order_recorded_unit",
    "second_order_recorded_units",
    "second_order_recording",
    "settings",
    "space_table",
    "stage_costs",
    "summary_markdown",
    "table_5_2_microclimate",
    "table_5_2_replication",
    "tide_epochs_per_cycle",
    "training_curves_plot",
    "wall_time_curves_plot",
    "window_counts",
]
