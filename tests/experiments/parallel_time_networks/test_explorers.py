"""The PTN chapter's pipeline on a tiny configuration — the explorers module."""

from fairbook.experiments import parallel_time_networks as pc


def test_attractor_plot_and_explorer(study):
    _, data, runs = study
    ax = pc.attractor_plot(data)
    assert ax.get_zlabel() == "z"
    widget = pc.fan_explorer(data, runs[0])
    assert len(widget.children[-1].value) > 1000  # a PNG was drawn
