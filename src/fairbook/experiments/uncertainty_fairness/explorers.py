"""Chapter 04 (seed 000): the chapter's widget.

Examples
--------
>>> from fairbook.experiments.uncertainty_fairness.explorers import explorer
>>> explorer.__name__  # builds widgets over fitted runs; a live kernel trains the rest
'explorer'
"""

from __future__ import annotations

from .figures import plot_uncertainty_distributions
from .results import format_tables
from .runs import _attributes, fairness_result, sd_run, tabular_run
from .settings import _DATASETS, _PAIRS, settings

__all__ = ["explorer"]


def _train_for_explorer(dataset, estimator, hidden, config):
    if dataset.startswith("SD"):
        run = sd_run(int(dataset[2]), estimator=estimator, config=config)
        if hidden:
            raise ValueError("the synthetic sets use no hidden layer in this explorer")
        return run
    return tabular_run(
        dataset.lower(),
        estimator=estimator,
        config=config,
        hidden_sizes=(hidden,) if hidden else (),
    )


def explorer(runs=None, *, config: dict | None = None, initial=("COMPAS", "race", "bnn", 10, 100)):
    """Choose data set, attribute, estimator, T and hidden size; see the table and the
    per-group uncertainty distributions.

    ``runs`` are fitted :class:`Run` objects (or a dict keyed ``(dataset, estimator,
    hidden)``); a missing combination is trained on demand (a live kernel; the static
    book shows a snapshot of the first state). ``T`` re-draws the BNN's samples or takes
    the first T members.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    config = settings() if config is None else config
    if isinstance(runs, dict):
        cache = dict(runs)
    else:
        cache = {(r.name, r.estimator, (r.model.hidden_sizes or (0,))[0]): r for r in (runs or [])}
    dataset = widgets.Dropdown(options=list(_DATASETS), value=initial[0], description="data")
    busy = {"now": False}
    attribute = widgets.Dropdown(
        options=_attributes(initial[0]), value=initial[1], description="attribute"
    )
    estimator = widgets.Dropdown(
        options=["bnn", "ensemble"], value=initial[2], description="estimator"
    )
    T = widgets.IntSlider(value=initial[3], min=2, max=50, description="T")
    hidden = widgets.Dropdown(options=[0, 10, 100, 200], value=initial[4], description="hidden")
    table, plots = widgets.HTML(), widgets.Output()

    def refresh(_=None):
        if busy["now"]:
            return
        key = (
            dataset.value,
            estimator.value,
            0 if dataset.value.startswith("SD") else hidden.value,
        )
        if key not in cache:
            table.value = "<i>training…</i>"
            cache[key] = _train_for_explorer(*key, config)
        run = cache[key].with_T(T.value) if T.value != config["T"] else cache[key]
        labels = _PAIRS[attribute.value]
        result = fairness_result(run, attribute.value, protected=labels[0], reference=labels[1])
        table.value = format_tables({run.name: result}, labels=None).to_html()
        plots.clear_output(wait=True)
        with plots:
            _, axes = plt.subplots(1, 2, figsize=(9, 3.2))
            plot_uncertainty_distributions(run, attribute.value, labels, axes=axes)
            plt.tight_layout()
            plt.show()

    def on_dataset(_=None):
        busy["now"] = True
        attribute.options = _attributes(dataset.value)
        busy["now"] = False
        refresh()

    on_dataset()
    dataset.observe(on_dataset, names="value")
    for control in (attribute, estimator, T, hidden):
        control.observe(refresh, names="value")
    return widgets.VBox(
        [
            widgets.HBox([dataset, attribute, estimator]),
            widgets.HBox([T, hidden]),
            widgets.HBox([table, plots]),
        ]
    )
