"""Chapter 08 "Parallel Time Networks on the Lorenz system" (seed 003 ch. 5).

* :mod:`.settings` - profiles, departures, the search space;
* :mod:`.runs` - data, search, final networks and baselines;
* :mod:`.results` - tables from the runs;
* :mod:`.replication` - Table 5.2 (chaos) beside ours;
* :mod:`.figures` - figures;
* :mod:`.explorers` - the widget.
"""

from .explorers import (
    fan_explorer,
)
from .figures import (
    attractor_plot,
    fan_chart,
    interesting_forecasts,
    search_plot,
)
from .replication import (
    table_5_2_replication,
)
from .results import (
    budget_table,
    chosen_agents,
    cost_table,
    crps_check,
    nvar_error_table,
    operation_table,
    partition_table,
    per_run_table,
    space_table,
    summary_markdown,
)
from .runs import (
    RunResult,
    make_data,
    run_once,
    run_study,
    tide_epochs_per_cycle,
)
from .settings import (
    DEPARTURES,
    PROFILES,
    search_space,
    settings,
)

__all__ = [
    "DEPARTURES",
    "PAPER_SOURCES",
    "PROFILES",
    "RunResult",
    "attractor_plot",
    "budget_table",
    "chosen_agents",
    "cost_table",
    "crps_check",
    "fan_chart",
    "fan_explorer",
    "interesting_forecasts",
    "make_data",
    "nvar_error_table",
    "operation_table",
    "partition_table",
    "per_run_table",
    "run_once",
    "run_study",
    "search_plot",
    "search_space",
    "settings",
    "space_table",
    "summary_markdown",
    "table_5_2_replication",
    "tide_epochs_per_cycle",
]
