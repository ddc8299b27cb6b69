"""fairbook.experiments.fit_variance.explorers: the widgets recompute when a control moves."""

from fairbook.experiments import fit_variance as fv


def test_table_3_editor_recomputes():
    widget = fv.table_3_editor()
    assert "33.6" in widget.children[-1].value
    box = widget.children[0].children[1]  # Female, true Sport → Sport
    box.value = 60  # now both groups' Sport rows are 60 / 40
    assert "33.6" not in widget.children[-1].value


def test_conclusion_explorer_on_a_known_study(synthetic_study):
    widget = fv.conclusion_explorer(synthetic_study)
    assert "U-test" in widget.children[-1].value
    widget.children[1].children[1].value = 3  # fewer runs
    assert "U-test" in widget.children[-1].value
