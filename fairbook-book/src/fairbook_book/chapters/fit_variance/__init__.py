"""Chapter 06 "Are my models fair every time?" (seed 004, Qian et al., NeurIPS 2021).

Fixed-seed identical training (FIT) runs at a reader's scale: a baseline and debiasing
techniques on two small tasks (:mod:`fairbook.variance.tasks`), the spread of seed 004's seven
bias metrics over identical runs (RQ1, Tables 2 and 4, Finding 1), whether a technique really
helps (RQ2, Fig. 1, Finding 2), what it costs (RQ3, Figs. 2-3, Findings 3-4), the literature
survey (Table 5, Findings 5-6) and the implementation knobs; Table 3's running example is
recomputed exactly.

* :mod:`.settings` - profiles, the tasks' training settings, run specs and knobs;
* :mod:`.runs` - the FIT runs of the study and of the knob study;
* :mod:`.results` - tables from the runs (Tables 2-3, effects, costs, knobs) and the survey;
* :mod:`.replication` - the paper's tables and findings beside ours;
* :mod:`.figures` - box plots, the Fig. 1-3 heatmaps, the survey plot;
* :mod:`.explorers` - the Table 3 editor and the conclusion explorer;
* :mod:`.key_results` - the chapter's answers as plain sentences, from its runs.
"""

from ._gpu import GPU_RECORDING, gpu_settings, gpu_units
from .explorers import (
    conclusion_chart,
    conclusion_explorer,
    conclusion_grid,
    table_3_chart,
    table_3_editor,
    table_3_grid,
)
from .figures import (
    box_figure,
    box_grid,
    cost_heatmaps,
    effect_heatmap,
    heatmap_figure,
    recorded_box_grids,
    survey_plot,
    survey_reporting_plot,
    variance_heatmap,
)
from .key_results import key_results
from .replication import (
    PAPER_SOURCES,
    beside_recorded,
    finding_1_replication,
    finding_2_example,
    finding_2_replication,
    finding_3_4_replication,
    recorded_replications,
    study_recording,
    study_replications,
    survey_replication,
    table_2_beside_paper,
    table_2_replication,
    table_3_replication,
    table_4_replication,
)
from .results import (
    SURVEY_COLUMNS,
    comparison_table,
    costs,
    effects,
    effects_table,
    gpu_identity,
    gpu_recording_text,
    knob_table,
    knob_tables,
    load_survey,
    recording_cost,
    single_run_table,
    smallest_p_values,
    spread_contrast,
    strict_identity,
    table_2,
    table_3,
    table_3_labels,
    two_runs,
)
from .runs import RECORDINGS as _RUN_RECORDINGS
from .runs import (
    STUDY_RECORDING,
    connect,
    knob_study,
    recorded_study,
    run_study,
    study_unit,
    study_units,
)
from .settings import (
    METRICS,
    PROFILES,
    SETTINGS_FIT,
    SETTINGS_SEED,
    SETTINGS_STRICT,
    TABLE_4_ANALOGUES,
    TASK_LABELS,
    TASK_SETTINGS,
    TASKS,
    settings,
    spec,
    study_knobs,
    techniques_table,
)

#: Everything ``fairbook-book record 06`` can record: the CPU study and the GPU runs.
RECORDINGS = {**_RUN_RECORDINGS, GPU_RECORDING.name: GPU_RECORDING}


def gpu_recording(config: dict, *, root=None):
    """The GPU recording (``fairbook-book record 06 gpu``) at ``config``'s seed."""
    from fairbook_book import recordings

    return recordings.load("06_fit_variance", GPU_RECORDING, settings=config, root=root)


__all__ = [
    "GPU_RECORDING",
    "METRICS",
    "PAPER_SOURCES",
    "PROFILES",
    "RECORDINGS",
    "SETTINGS_FIT",
    "SETTINGS_SEED",
    "SETTINGS_STRICT",
    "STUDY_RECORDING",
    "SURVEY_COLUMNS",
    "TABLE_4_ANALOGUES",
    "TASKS",
    "TASK_LABELS",
    "TASK_SETTINGS",
    "beside_recorded",
    "box_figure",
    "box_grid",
    "comparison_table",
    "conclusion_chart",
    "conclusion_explorer",
    "conclusion_grid",
    "connect",
    "cost_heatmaps",
    "costs",
    "effect_heatmap",
    "effects",
    "effects_table",
    "finding_1_replication",
    "finding_2_example",
    "finding_2_replication",
    "finding_3_4_replication",
    "gpu_identity",
    "gpu_recording",
    "gpu_recording_text",
    "gpu_settings",
    "gpu_units",
    "heatmap_figure",
    "key_results",
    "knob_study",
    "knob_table",
    "knob_tables",
    "load_survey",
    "recorded_box_grids",
    "recorded_replications",
    "recorded_study",
    "recording_cost",
    "run_study",
    "settings",
    "single_run_table",
    "smallest_p_values",
    "spec",
    "spread_contrast",
    "strict_identity",
    "study_knobs",
    "study_recording",
    "study_replications",
    "study_unit",
    "study_units",
    "survey_plot",
    "survey_replication",
    "survey_reporting_plot",
    "table_2",
    "table_2_beside_paper",
    "table_2_replication",
    "table_3",
    "table_3_chart",
    "table_3_editor",
    "table_3_grid",
    "table_3_labels",
    "table_3_replication",
    "table_4_replication",
    "techniques_table",
    "two_runs",
    "variance_heatmap",
]
