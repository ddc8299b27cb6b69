"""Slices of the study's run table that the role modules of the chapter share.

Private to :mod:`fairbook_book.chapters.fit_variance`: the rows of one task and run setting
(:func:`_select`), the techniques present in the order of
:data:`fairbook.variance.debiasing.TECHNIQUES` (:func:`_techniques`), and one technique's
runs as a wide matrix, one row per run and one column per metric (:func:`_runs_matrix`).
"""

from __future__ import annotations

import pandas as pd

from fairbook.variance import debiasing
from fairbook.variance.fit_runs import per_run

from .settings import METRICS, SETTINGS_FIT

__all__: list[str] = []  # private helpers, imported by name by the role modules


def _select(
    study: pd.DataFrame, task: str, *, setting: str = SETTINGS_FIT, technique: str | None = None
) -> pd.DataFrame:
    rows = study[(study["task"] == task) & (study["setting"] == setting)]
    if technique is not None:
        rows = rows[rows["technique"] == technique]
    if rows.empty:
        raise ValueError(f"no runs for task={task!r}, setting={setting!r}, technique={technique!r}")
    return rows


def _techniques(study: pd.DataFrame, task: str) -> list[str]:
    present = set(_select(study, task)["technique"])
    return [t for t in debiasing.TECHNIQUES if t in present]


def _runs_matrix(study, task, technique, n_runs=None, *, setting=SETTINGS_FIT):
    wide = per_run(
        _select(study, task, setting=setting, technique=technique), metrics=[*METRICS, "accuracy"]
    )
    return wide.iloc[:n_runs] if n_runs is not None else wide
