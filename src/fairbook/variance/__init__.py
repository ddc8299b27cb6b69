"""Fixed-seed identical training (FIT) runs and debiasing techniques (seed 004).

* :func:`fit_runs` — the same training n times (same seed, data order, initial weights),
  dispatched through joblib (``loky`` locally, ``dask`` or ``ray`` on a cluster), scored
  with seed 004's seven bias metrics and the accuracy; :func:`summarize` gives MaxDiff and
  STDEV (Tables 2 and 4).
* :mod:`fairbook.variance.determinism` — the implementation knobs (:class:`Knobs`).
* :mod:`fairbook.variance.debiasing` — rebalancing, gradient reversal, domain-independent
  heads, the L2 gap penalty.
* :mod:`fairbook.variance.tasks` — Digits-S (a CIFAR-10S analogue), COMPAS/Adult, models.

>>> from fairbook.variance import Knobs, fit_runs, summarize
>>> Knobs().describe()
'reference'
"""

import importlib
import sys
import types

#: Where each public name lives. The submodules are imported when a name is first used, not
#: with the package: fit_runs imports joblib, which sets KMP_INIT_AT_FORK, and importing
#: fairbook.variance.verdicts (as the audit does) must leave the process's environment alone.
_HOMES = {
    "Knobs": "determinism",
    "knob_variants": "determinism",
    "fit_runs": "fit_runs",
    "fit_runs_many": "fit_runs",
    "identical_runs": "fit_runs",
    "per_run": "fit_runs",
    "score_predictions": "fit_runs",
    "summarize": "fit_runs",
}


def __getattr__(name: str):
    if name in _HOMES:
        value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Package(types.ModuleType):
    """The package, whose ``fit_runs`` stays the function when its submodule of that name is
    imported (which binds the submodule to the package's attribute), as when the package
    imported the function eagerly."""

    def __setattr__(self, name: str, value) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "Knobs",
    "fit_runs",
    "fit_runs_many",
    "identical_runs",
    "knob_variants",
    "per_run",
    "score_predictions",
    "summarize",
]
