"""Tests of :mod:`fairbook.reading`: the Key results box and the parameters-used table."""

import pytest

from fairbook import reading


def test_key_results_render_one_bullet_per_finding_in_a_key_results_box():
    box = reading.key_results("A is 3.", "B  is\n 4.")
    md = box.to_markdown()
    assert md.startswith("```{admonition} Key results\n:class: tip key-results\n")
    assert md.count("\n- ") == 2 and "- B is 4." in md and md.rstrip().endswith("```")
    assert box._repr_markdown_() == md


@pytest.mark.parametrize(
    ("findings", "error"),
    [((), ValueError), (("",), ValueError), (("no full stop",), ValueError), ((3,), TypeError)],
)
def test_key_results_refuse_what_is_not_a_sentence(findings, error):
    with pytest.raises(error):
        reading.key_results(*findings)


def test_show_key_results_glues_the_box_in_a_kernel(monkeypatch):
    glued = {}
    monkeypatch.setattr("IPython.get_ipython", lambda: object())
    monkeypatch.setattr(
        "myst_nb.glue", lambda name, obj, display: glued.update({name: (obj.data, display)})
    )
    box = reading.key_results("A is 3.")
    assert reading.show_key_results(box) is box
    assert glued == {reading.GLUE_NAME: (box.to_markdown(), False)}
    with pytest.raises(TypeError):
        reading.show_key_results("A is 3.")


def test_parameters_used_prints_values_as_the_book_does():
    table = reading.parameters_used(
        profile="fast",
        alpha=0.05,
        seeds=range(3),
        sizes={"a": 1, "b": 2.5},
        cap=None,
        noise=0.1 + 0.2,
        flag=True,
        empty=[],
    )
    assert dict(table.rows) == {
        "profile": "fast",
        "alpha": "0.05",
        "seeds": "0, 1, 2",
        "sizes": "a = 1, b = 2.5",
        "cap": "none",
        "noise": "0.3",
        "flag": "True",
        "empty": "none",
    }
    md = table.to_markdown()
    assert md.splitlines()[:2] == ["| parameter | value |", "|---|---|"]
    assert "| seeds | 0, 1, 2 |" in md
    assert "\\|" in reading.parameters_used(rule="a|b").to_markdown()
    with pytest.raises(ValueError):
        reading.parameters_used()
