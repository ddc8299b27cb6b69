"""Tests of fairbook_book.tooling.outputs: nbval's comparison of executed chapters, without a rerun.

The oracle is nbval itself: for random pairs of cell outputs, the references agree exactly
when nbval 0.11.0's ``IPyNbCell.compare_outputs`` (after its ``coalesce_streams``) says the
outputs match, under the book's own sanitising rules.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbval.plugin import IPyNbCell, coalesce_streams, get_sanitize_patterns, nocolors

from fairbook_book.tooling import outputs as out

SANITIZE = Path(__file__).resolve().parents[2] / "notebooks" / "sanitize.cfg"
RULES = out.parse_rules(SANITIZE.read_text("utf-8"))
# IPyNbFile.__init__ of nbval 0.11.0 without --nbdime (an instance attribute there)
NBVAL_SKIP_COMPARE = (
    "metadata",
    "traceback",
    "prompt_number",
    "output_type",
    "name",
    "execution_count",
    "application/vnd.jupyter.widget-view+json",
    "image/png",
    "image/jpeg",
)


def _nbval_agrees(test: list[dict], reference: list[dict]) -> bool:
    """nbval's own verdict on two output lists (as in ``IPyNbCell.runtest``)."""
    fake = SimpleNamespace(colors=nocolors)
    fake.parent = SimpleNamespace(
        skip_compare=NBVAL_SKIP_COMPARE,
        sanitize_patterns=OrderedDict(get_sanitize_patterns(SANITIZE.read_text("utf-8"))),
    )
    fake.sanitize = lambda s: IPyNbCell.sanitize(fake, s)
    fake.format_output_compare = lambda *args: None
    nodes = [[nbformat.from_dict(copy.deepcopy(o)) for o in side] for side in (test, reference)]
    return IPyNbCell.compare_outputs(
        fake, coalesce_streams(nodes[0]), coalesce_streams(nodes[1]), NBVAL_SKIP_COMPARE
    )


def _cell(outputs, *, cell_id="c0", source="x", tags=()):
    return {
        "cell_type": "code",
        "id": cell_id,
        "source": source,
        "metadata": {"tags": list(tags)},
        "execution_count": 1,
        "outputs": outputs,
    }


def _ours_agree(test: list[dict], reference: list[dict]) -> bool:
    mine = out.checked_outputs({"cells": [_cell(test)]}, rules=RULES)
    theirs = out.checked_outputs({"cells": [_cell(reference)]}, rules=RULES)
    return out.compare(mine, theirs) == []


# texts that exercise the rules: addresses, floats, progress bars, \r and \b, timings
TEXTS = st.sampled_from(
    [
        "",
        "a\n",
        "b\n",
        "at 0x7f3a2b1c9d90\n",
        "at 0x7f3a2b1c0000\n",
        "0.1234567\n",
        "0.1234568\n",
        "0.1235\n",
        " 50%|█████     | 5/10 [00:01<00:01, 4.2it/s]\r",
        "100%|██████████| 10/10 [00:02<00:00, 4.9it/s]\n",
        "old\rnew\n",
        "ab\bc\n",
        "fitted in 3.42 s\n",
        "fitted in 9.10 s\n",
        "<b>x</b>",
        "<b>y</b>",
    ]
)
STREAM = st.builds(
    lambda name, text: {"output_type": "stream", "name": name, "text": text},
    st.sampled_from(["stdout", "stderr"]),
    TEXTS,
)
DATA = st.dictionaries(
    st.sampled_from(["text/plain", "text/html", "image/png", "text/latex"]), TEXTS, min_size=1
)
RESULT = st.builds(
    lambda kind, data: {
        "output_type": kind,
        "data": data,
        "metadata": {},
        **({"execution_count": 3} if kind == "execute_result" else {}),
    },
    st.sampled_from(["execute_result", "display_data"]),
    DATA,
)
ERROR = st.builds(
    lambda name, value: {
        "output_type": "error",
        "ename": name,
        "evalue": value,
        "traceback": ["line"],
    },
    st.sampled_from(["ValueError", "KeyError"]),
    TEXTS,
)
OUTPUTS = st.lists(st.one_of(STREAM, RESULT, ERROR), max_size=4)


@settings(max_examples=400, deadline=None)
@given(OUTPUTS, OUTPUTS)
def test_agrees_with_nbval_on_random_outputs(test, reference):
    assert _ours_agree(test, reference) == _nbval_agrees(test, reference)


@settings(max_examples=200, deadline=None)
@given(OUTPUTS)
def test_a_copy_always_agrees(outputs):
    assert _ours_agree(outputs, copy.deepcopy(outputs))
    assert _nbval_agrees(outputs, copy.deepcopy(outputs))


def test_rules_are_read_as_nbval_reads_them():
    text = SANITIZE.read_text("utf-8")
    assert list(out.parse_rules(text)) == get_sanitize_patterns(text)
    assert len(out.parse_rules(text)) >= 10


def test_json_data_compares_by_value():
    spec = {"output_type": "display_data", "metadata": {}, "data": {"application/json": {"a": 1}}}
    other = copy.deepcopy(spec)
    other["data"]["application/json"] = {"a": 2}
    assert _ours_agree([spec], [copy.deepcopy(spec)]) and _nbval_agrees([spec], [spec])
    assert not _ours_agree([spec], [other]) and not _nbval_agrees([spec], [other])


def test_long_and_html_values_are_digests_short_text_verbatim():
    long_text = "x" * (out.VERBATIM_CHARS + 1)
    result = {
        "output_type": "execute_result",
        "execution_count": 1,
        "metadata": {},
        "data": {"text/plain": "short", "text/html": "<p>short</p>"},
    }
    cells = out.checked_outputs(
        {
            "cells": [
                _cell([result, {"output_type": "stream", "name": "stdout", "text": long_text}])
            ]
        },
        rules=(),
    )
    stored = cells["c0"]["outputs"]
    assert stored["text/plain"] == ["short"]
    assert set(stored["text/html"][0]) == {"sha256", "chars"}
    assert stored["stdout"][0]["chars"] == len(long_text)


def test_ignored_cells_are_not_compared_but_must_exist():
    ref = out.checked_outputs(
        {"cells": [_cell([], tags=("nbval-ignore-output",), source="t()")]}, rules=()
    )
    stream = {"output_type": "stream", "name": "stdout", "text": "12 s\n"}
    now = out.checked_outputs(
        {"cells": [_cell([stream], tags=("nbval-ignore-output",), source="t()")]}, rules=()
    )
    assert out.compare(now, ref) == []
    assert "not in the reference" in out.compare(now, {})[0]


def test_changed_source_is_stale_not_a_difference():
    ref = out.checked_outputs({"cells": [_cell([], source="a")]}, rules=())
    now = out.checked_outputs({"cells": [_cell([], source="b")]}, rules=())
    (problem,) = out.compare(now, ref)
    assert "stale" in problem


def test_removed_cell_is_reported():
    ref = out.checked_outputs({"cells": [_cell([], cell_id="a"), _cell([], cell_id="b")]}, rules=())
    now = out.checked_outputs({"cells": [_cell([], cell_id="a")]}, rules=())
    (problem,) = out.compare(now, ref)
    assert "b" in problem and "no longer" in problem


def test_papermills_injected_cell_is_matched_by_its_tag():
    first = _cell([], cell_id="random-1", tags=("injected-parameters",))
    second = _cell([], cell_id="random-2", tags=("injected-parameters",))
    a = out.checked_outputs({"cells": [first]}, rules=())
    b = out.checked_outputs({"cells": [second]}, rules=())
    assert list(a) == ["injected-parameters"] and out.compare(a, b) == []


def test_cells_without_ids_or_with_duplicate_ids_are_refused():
    no_id = _cell([])
    del no_id["id"]
    with pytest.raises(ValueError, match="no id"):
        out.checked_outputs({"cells": [no_id]}, rules=())
    with pytest.raises(ValueError, match="share the id"):
        out.checked_outputs({"cells": [_cell([]), _cell([])]}, rules=())


def test_diff_shows_the_changed_lines():
    ref = out.checked_outputs(
        {"cells": [_cell([{"output_type": "stream", "name": "stdout", "text": "a\nb\n"}])]},
        rules=(),
    )
    now = out.checked_outputs(
        {"cells": [_cell([{"output_type": "stream", "name": "stdout", "text": "a\nc\n"}])]},
        rules=(),
    )
    (problem,) = out.compare(now, ref)
    assert "-b" in problem and "+c" in problem


def _executed(path: Path, text: str, *, profile="fast", exception=False) -> Path:
    notebook = {
        "metadata": {"papermill": {"parameters": {"profile": profile}, "exception": exception}},
        "cells": [_cell([{"output_type": "stream", "name": "stdout", "text": text}])],
    }
    path.write_text(json.dumps(notebook), "utf-8")
    return path


def test_write_then_check_round_trip(tmp_path):
    executed = tmp_path / "executed"
    executed.mkdir()
    chapter = _executed(executed / "01_a.ipynb", "0.12345678\n")
    references = tmp_path / "reference"
    (references / "fast").mkdir(parents=True)
    (references / "fast" / "99_gone.json").write_text("{}", "utf-8")
    written = out.write_references(executed, references, sanitize=SANITIZE)
    assert written == [references / "fast" / "01_a.json"]
    assert not (references / "fast" / "99_gone.json").exists()
    assert out.check_references(chapter, references, sanitize=SANITIZE) == []
    # below the sixth decimal the rules hide the change; above it they do not
    _executed(chapter, "0.12345699\n")
    assert out.check_references(chapter, references, sanitize=SANITIZE) == []
    _executed(chapter, "0.12346\n")
    assert out.check_references(chapter, references, sanitize=SANITIZE)
    # another profile has its own references
    _executed(chapter, "0.12345678\n", profile="full")
    (problem,) = out.check_references(chapter, references, sanitize=SANITIZE)
    assert "no reference" in problem and "full" in problem


def test_write_copies_the_builds_timings_beside_the_references(tmp_path):
    executed = tmp_path / "executed"
    executed.mkdir()
    _executed(executed / "01_a.ipynb", "x\n")
    references = tmp_path / "reference"
    out.write_references(executed, references, sanitize=SANITIZE)
    assert not (references / "timings-fast.json").exists()  # a build without timings
    (executed / "timings.json").write_text('{"01_a": 3.5}\n', "utf-8")
    out.write_references(executed, references, sanitize=SANITIZE)
    assert json.loads((references / "timings-fast.json").read_text("utf-8")) == {"01_a": 3.5}
    assert sorted(p.name for p in (references / "fast").iterdir()) == ["01_a.json"]


def test_unusable_executed_copies(tmp_path):
    failed = _executed(tmp_path / "01_a.ipynb", "x", exception=True)
    assert "exception" in out.check_references(failed, tmp_path, sanitize=SANITIZE)[0]
    with pytest.raises(ValueError, match="exception"):
        out.write_references(tmp_path, tmp_path / "ref", sanitize=SANITIZE)
    with pytest.raises(ValueError, match="no executed chapters"):
        out.write_references(tmp_path / "empty", tmp_path / "ref", sanitize=SANITIZE)
    unrun = {"metadata": {"papermill": {}}, "cells": [{**_cell([]), "execution_count": None}]}
    assert out.executed_problems(unrun) == [
        "not executed by papermill (compare the executed copies in _build/executed)"
    ]
    unrun["metadata"]["papermill"] = {"exception": None}
    assert "never executed" in out.executed_problems(unrun)[0]


def test_command_line(tmp_path, capsys):
    executed = tmp_path / "executed"
    executed.mkdir()
    chapter = _executed(executed / "01_a.ipynb", "a\n")
    references = tmp_path / "reference"
    args = [str(executed), str(references), str(SANITIZE)]
    assert out.main(["write", *args]) == 0
    assert out.main(["check", *args]) == 0
    _executed(chapter, "b\n")
    assert out.main(["check", *args]) == 1
    assert "differs" in capsys.readouterr().out
    assert out.main(["bogus"]) == 2
    # an empty folder and a broken executed copy end in one line, not a pass or a traceback
    assert out.main(["check", str(tmp_path / "none"), str(references), str(SANITIZE)]) == 1
    chapter.write_text("{not json", "utf-8")
    assert out.main(["check", *args]) == 1
    assert capsys.readouterr().err.count("error:") == 2
    assert out.main(["write", str(tmp_path / "none"), str(references), str(SANITIZE)]) == 1


# ---- numbers at a declared precision (cells tagged tolerance:R) ----------------------------


def _tagged(text, *, tags=("tolerance:0.01",), html=None):
    outputs = [{"output_type": "stream", "name": "stdout", "text": text}]
    if html is not None:
        outputs.append(
            {
                "output_type": "display_data",
                "metadata": {},
                "data": {"text/html": html, "text/plain": "<table>"},
            }
        )
    return out.checked_outputs({"cells": [_cell(outputs, tags=tags)]}, rules=RULES)


def test_a_tolerance_cell_compares_numbers_within_it_under_another_signature():
    ref = _tagged("Det. Q1 -1.458 matches\n", html="<td>0.2510</td><td>differs</td>")
    now = _tagged("Det. Q1 -1.452 matches\n", html="<td>0.2512</td><td>differs</td>")
    assert out.compare(now, ref, same_signature=False) == []
    problems = out.compare(now, ref, same_signature=True)
    assert len(problems) == 2 and all("bit for bit (same kernel" in p for p in problems)
    assert "-1.458 -> -1.452" in "".join(problems) and "0.2510 -> 0.2512" in "".join(problems)


def test_a_changed_word_fails_whatever_the_tolerance():
    ref = _tagged("Det. Q1 -1.458 matches\n")
    now = _tagged("Det. Q1 -1.458 differs\n")
    (problem,) = out.compare(now, ref, same_signature=False)
    assert "words or shape" in problem and "+Det. Q1 -1.458 differs" in problem


def test_numbers_beyond_the_tolerance_and_a_changed_count_fail():
    ref = _tagged("a 1.000 b 2.000\n")
    (problem,) = out.compare(_tagged("a 1.050 b 2.000\n"), ref, same_signature=False)
    assert "1 number(s) differ" in problem and "1.000 -> 1.050" in problem
    assert out.compare(_tagged("a 1.000 b\n"), ref, same_signature=False)


def test_numbers_inside_words_are_text_and_padding_is_not_compared():
    assert out._skeleton("F1 of n008 is 0.5, seed003 -2e-3")[1] == ["0.5", "-2e-3"]
    assert out._skeleton("a   -1.0  x")[0] == out._skeleton("a  -0.99   x")[0] == "a # x"


def test_a_changed_tolerance_tag_is_stale():
    ref = _tagged("x 1.0\n", tags=("tolerance:0.01",))
    now = _tagged("x 1.0\n", tags=("tolerance:0.02",))
    (problem,) = out.compare(now, ref, same_signature=False)
    assert "another tolerance tag (stale)" in problem


def test_one_unit_of_the_last_digit_is_always_allowed_not_two():
    assert out.numbers_within(["0.250"], ["0.251"], 0.0) == []
    assert out.numbers_within(["0.250"], ["0.252"], 0.0) == [0]
    assert out.numbers_within(["1216"], ["1217"], 0.0) == [0]
    assert out.numbers_within(["1.5e-03"], ["1.6e-03"], 0.0) == []
    assert out.numbers_within(["1.0"], ["−1.0"], 0.5) == [0]


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(0, 0.1))
def test_a_relative_shift_within_the_tolerance_passes(value, rel):
    a = f"{value:.4f}"
    b = f"{value * (1 + rel / 2):.4f}"
    assert out.numbers_within([a], [b], rel) == []


def test_references_record_the_builds_signature_and_check_compares_by_it(tmp_path, monkeypatch):
    executed = tmp_path / "executed"
    executed.mkdir()
    notebook = {
        "metadata": {"papermill": {"parameters": {"profile": "fast"}, "exception": None}},
        "cells": [
            _cell(
                [{"output_type": "stream", "name": "stdout", "text": "loss 0.1234\n"}],
                tags=["tolerance:0.01"],
            )
        ],
    }
    chapter = executed / "01_a.ipynb"
    chapter.write_text(json.dumps(notebook), "utf-8")
    (executed / "kernels.json").write_text('{"aten": "AVX2"}', "utf-8")
    references = tmp_path / "reference"
    out.write_references(executed, references, sanitize=SANITIZE)
    stored = json.loads((references / "fast" / "01_a.json").read_text("utf-8"))
    assert stored["kernels"] == {"aten": "AVX2"}
    notebook["cells"][0]["outputs"][0]["text"] = "loss 0.1236\n"
    chapter.write_text(json.dumps(notebook), "utf-8")
    # the same signature: bits
    assert out.check_references(chapter, references, sanitize=SANITIZE)
    # another signature (here forced): the tolerance
    monkeypatch.setenv("FAIRBOOK_FORCE_SIGNATURE", "other")
    assert out.check_references(chapter, references, sanitize=SANITIZE) == []


def test_spread_reports_the_largest_deviation_and_changed_words(tmp_path):
    def write(name, text):
        nb = {"cells": [_cell([{"output_type": "stream", "name": "stdout", "text": text}])]}
        (tmp_path / name).write_text(json.dumps(nb), "utf-8")
        return tmp_path / name

    a, b = write("a.ipynb", "x 1.000 fair\n"), write("b.ipynb", "x 1.100 fair\n")
    [cell] = out.spread(a, b, sanitize=SANITIZE)
    assert cell["words"] is False and cell["max_rel"] == pytest.approx(0.099 / 1.1)
    small = write("s.ipynb", "x 0.010 fair\n"), write("t.ipynb", "x -0.010 fair\n")
    assert out.spread(*small, sanitize=SANITIZE)[0]["max_rel"] == pytest.approx(0.019)
    c = write("c.ipynb", "x 1.000 unfair\n")
    assert out.spread(a, c, sanitize=SANITIZE)[0]["words"] is True
    assert out.spread(a, a, sanitize=SANITIZE) == []
