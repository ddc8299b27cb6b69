"""The JupyterLab check: run chapters in a real JupyterLab, in Chromium, as a reader would.

``make test`` runs ``python -m fairbook_book.tooling.labcheck`` after the book is built. It

1. makes working copies (:func:`fairbook_book.tooling.lab.working_copies`) of the probed chapters in
   ``_build/labcheck/`` and a notebook of every chapter's static chart, taken from the
   executed chapters (:func:`charts_notebook`), and starts JupyterLab on them (localhost, a
   random port and token) with the same command and settings as ``make lab``;
2. drives the system Chromium with Playwright (no browser download): for each probed chapter
   (:data:`PROBES`) it chooses **Run ▸ Run All Cells**, waits for every cell, and requires
   no error output and no console error; it then moves one ipywidgets control and one
   static-chart control and requires each output to change to the value this process computes
   with the library for the new setting; it saves the notebook (as JupyterLab's autosave
   would) and requires ``git status`` of the repository to be what it was;
3. opens the charts notebook and requires each chart to draw, without an error, and its
   drawing to change when its first control moves;
4. when ``make student`` has built the assignments, opens chapter 01's student assignment
   (:data:`ASSIGNMENT`) as a student would: Run All must show otter's check failing on the
   blank answer cell; it then types the instructor's answer into that cell, runs it and its
   ``grader.check`` cell, and requires otter's "ex_01_rates_by_hand passed!";
5. shuts the server down and writes ``_build/labcheck.json`` (timings per chapter, the
   checks, the screenshots in ``_build/screenshots/lab-*.png``).

Each probe names a control by its label and computes its expected text with the library:

>>> probe = PROBES["01_metric_catalogue"]
>>> probe.widget.control, probe.widget.value, probe.widget.row
('TP', '0', 'MCC')
>>> probe.widget.expected({})
'-0.2582'
>>> probe.chart.expected({})  # Vega's d3-format writes a true minus sign
'−0.2582'
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from fairbook_book.charts import LAB_MIME
from fairbook_book.tooling.chapters import BookPaths, Chapter, find_root
from fairbook_book.tooling.lab import for_lab, lab_command, write_settings
from fairbook_book.tooling.pagecheck import chromium_binary

__all__ = [
    "ASSIGNMENT",
    "PROBES",
    "ChartProbe",
    "Probe",
    "WidgetProbe",
    "charts_notebook",
    "main",
    "run_check",
]


# ---------------------------------------------------------------------------------------------
# what each probed chapter's controls should show, computed here with the library


def _d3(text: str) -> str:
    """A number as Vega's ``format(x, '.4f')`` writes it (U+2212 for the minus sign)."""
    return text.replace("-", "\u2212")


def _metric(cm, name: str) -> str:
    from fairbook_book.chapters.metric_catalogue import metric_values

    return f"{float(metric_values(cm).loc[name, 'value']):.4f}"


def _compas_pair(parameters: dict, metric: str, j: int) -> str:
    from fairbook.data import predictions
    from fairbook.metrics import compare

    counts = predictions.compas_race_counts(min_group_size=parameters["min_group_size"])
    included = counts[counts["included"]]
    cells = ["TP", "FN", "FP", "TN"]
    first = included.iloc[0][cells].to_numpy(float)
    other = included.iloc[j][cells].to_numpy(float)
    return f"{float(compare(metric, first, other)):.4f}"


def _compas_group(parameters: dict, j: int) -> str:
    from fairbook.data import predictions

    counts = predictions.compas_race_counts(min_group_size=parameters["min_group_size"])
    return str(counts[counts["included"]].index[j])


@dataclass(frozen=True)
class WidgetProbe:
    """Set the ipywidget labelled `control` to `value`; the output table's row `row` must
    then read ``expected(parameters)``."""

    control: str
    value: str | Callable[[dict], str]
    row: str
    expected: Callable[[dict], str]


@dataclass(frozen=True)
class ChartProbe:
    """Set the chart's bound control `control` (its Vega parameter name) to `value`; one of
    the chart's texts must then read ``expected(parameters)`` (and none did before)."""

    control: str
    value: str | Callable[[dict], str]
    expected: Callable[[dict], str]


@dataclass(frozen=True)
class Probe:
    widget: WidgetProbe
    chart: ChartProbe


#: The chapters the check runs, with one control of each explorer kind.
PROBES = {
    "01_metric_catalogue": Probe(
        widget=WidgetProbe("TP", "0", "MCC", lambda p: _metric([0, 1, 2, 4], "MCC")),
        chart=ChartProbe("tp", "0", lambda p: _d3(_metric([0, 1, 2, 4], "MCC"))),
    ),
    "02_objective_fairness_index": Probe(
        widget=WidgetProbe(
            "group j", lambda p: _compas_group(p, 2), "OFI", lambda p: _compas_pair(p, "OFI", 2)
        ),
        chart=ChartProbe(
            "group_j", lambda p: _compas_group(p, 2), lambda p: _d3(_compas_pair(p, "OFI", 2))
        ),
    ),
}


def _resolve(value, parameters: dict) -> str:
    return value(parameters) if callable(value) else value


# ---------------------------------------------------------------------------------------------
# the notebook of every chapter's static chart


def charts_notebook(executed: str | os.PathLike[str]):
    """A notebook holding every chart output of the executed chapters, one cell each.

    JupyterLab draws these outputs without a kernel, so one page checks every chapter's
    static explorer. The cell's source names the chapter.

    Examples
    --------
    >>> import tempfile
    >>> charts_notebook(tempfile.mkdtemp()).cells
    []
    """
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    for path in sorted(Path(executed).glob("[0-9][0-9]_*.ipynb")):
        chapter = nbformat.read(path, as_version=4)
        for index, cell in enumerate(chapter.cells):
            charts = [o for o in cell.get("outputs", []) if LAB_MIME in o.get("data", {})]
            if charts:
                copy = nbformat.v4.new_code_cell(f"# {path.stem}, cell {index}")
                copy.outputs = charts
                notebook.cells.append(copy)
    return notebook


# ---------------------------------------------------------------------------------------------
# the browser


@dataclass
class Result:
    """What one page of the check found."""

    page: str
    seconds: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


#: The notebook on screen (JupyterLab keeps other tabs in the page, hidden).
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"

_ALL_DONE = """() => {
  const cells = [...document.querySelectorAll('@NB .jp-CodeCell')];
  const prompts = cells.map(c => (c.querySelector('.jp-InputPrompt') || {}).textContent || '');
  return cells.length > 0 && prompts.every(t => /\\[\\d+\\]/.test(t));
}""".replace("@NB", NOTEBOOK)

_ERROR_OUTPUTS = """() => [...document.querySelectorAll(
    '@NB .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"],'
    + '@NB .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
  .map(e => e.innerText.slice(0, 300))""".replace("@NB", NOTEBOOK)

#: How jupyterlab-myst marks a directive or role it does not know.
_UNKNOWN_MYST = re.compile(r"\S+ - Unknown (?:Directive|Role)")

_CHART_TEXTS = """(area) => [...area.querySelectorAll('svg text')].map(t => t.textContent)"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_server(url: str, process: subprocess.Popen, timeout: float) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"JupyterLab did not answer {url} within {timeout:.0f} s")


def _git_status(root: Path) -> str | None:
    if not (root / ".git").exists() or shutil.which("git") is None:
        return None
    done = subprocess.run(
        ["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def _open(page, url: str) -> None:
    page.goto(url + "?reset")  # this document alone, not the tabs of the last visit
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=60_000)


def _defaults(chapter: Chapter) -> dict:
    """The chapter's parameters as its ``parameters`` cell sets them (what Run All uses)."""
    values = {}
    for name, parameter in chapter.parameters().items():
        try:
            values[name] = ast.literal_eval(parameter.default)
        except (ValueError, SyntaxError):
            values[name] = parameter.default
    return values


#: the open notebook's kernel has started and is idle (the toolbar's execution indicator)
_KERNEL_IDLE = (
    "() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
    ".jp-Notebook-ExecutionIndicator')?.getAttribute('data-status') === 'idle'"
)


def _run_all(page, timeout: float) -> None:
    # Run All before the session has its kernel runs nothing ("Session has no kernel"): the
    # first kernel of a fresh clone can take longer to start than any fixed pause
    page.wait_for_function(_KERNEL_IDLE, timeout=timeout * 1000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    page.wait_for_function(_ALL_DONE, timeout=timeout * 1000)


def _ran_all(page, result: Result, *, started: float, timeout: float) -> bool:
    """Run All, timed into ``result.seconds["run all"]``; False (with the problem) if it
    did not finish within ``timeout`` seconds."""
    try:
        _run_all(page, timeout)
    except Exception as exc:
        result.problems.append(f"Run All did not finish within {timeout:.0f} s ({exc})")
        return False
    result.seconds["run all"] = round(time.monotonic() - started, 2)
    return True


def _area_with(page, selector: str):
    areas = page.locator(f"{NOTEBOOK} .jp-Cell-outputArea", has=page.locator(selector))
    if areas.count() == 0:
        return None
    return areas.first


def _widget_probe(page, probe: WidgetProbe, parameters: dict, result: Result) -> None:
    area = _area_with(page, ".widget-html-content table")
    if area is None:
        result.problems.append("no ipywidgets explorer with an output table was drawn")
        return
    control = area.locator(
        ".widget-inline-hbox", has=page.locator(f"label:text-is('{probe.control}')")
    )
    if control.count() == 0:
        result.problems.append(f"the ipywidgets explorer has no control labelled {probe.control!r}")
        return
    value = _resolve(probe.value, parameters)
    expected = probe.expected(parameters)
    started = time.monotonic()
    field_ = control.first.locator("input, select").first
    if field_.evaluate("e => e.tagName") == "SELECT":
        field_.select_option(label=value)
    else:
        field_.fill(value)
        field_.press("Enter")
    # the widget replaces its whole table on each change: look the row up afresh each time
    read_row = """([area, name]) => {
      const row = [...area.querySelectorAll('.widget-html-content tr')]
        .find(r => r.querySelector('th') && r.querySelector('th').textContent.trim() === name);
      const cell = row && row.querySelector('td');
      return cell ? cell.textContent.trim() : null;
    }"""
    handle = area.element_handle()
    try:
        page.wait_for_function(
            f"(args) => ({read_row})(args) === {json.dumps(expected)}",
            arg=[handle, probe.row],
            timeout=15_000,
        )
    except Exception:
        shown = page.evaluate(read_row, [handle, probe.row])
        result.problems.append(
            f"ipywidgets: {probe.control} = {value}: {probe.row} reads {shown!r}, "
            f"the library gives {expected!r}"
        )
        return
    result.seconds["widget response"] = round(time.monotonic() - started, 2)
    result.notes.append(f"ipywidgets: {probe.control} = {value} → {probe.row} {expected}")


def _chart_probe(page, probe: ChartProbe, parameters: dict, result: Result) -> None:
    area = _area_with(page, ".vega-bindings")
    if area is None:
        result.problems.append("no static chart with controls was drawn")
        return
    before = area.evaluate(_CHART_TEXTS)
    value = _resolve(probe.value, parameters)
    expected = probe.expected(parameters)
    if expected in before:
        result.problems.append(f"chart: {expected!r} is shown before {probe.control} moves")
        return
    field_ = area.locator(f".vega-bindings [name='{probe.control}']").first
    if field_.count() == 0:
        result.problems.append(f"the chart has no control named {probe.control!r}")
        return
    started = time.monotonic()
    if field_.evaluate("e => e.tagName") == "SELECT":
        field_.select_option(label=value)
    else:
        field_.evaluate(
            "(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }",
            value,
        )
    try:
        page.wait_for_function(
            "([area, want]) => [...area.querySelectorAll('svg text')]"
            ".some(t => t.textContent === want)",
            arg=[area.element_handle(), expected],
            timeout=10_000,
        )
    except Exception:
        result.problems.append(
            f"chart: {probe.control} = {value}: no text reads {expected!r} "
            f"(the library's value); shown: {area.evaluate(_CHART_TEXTS)[:40]}"
        )
        return
    result.seconds["chart response"] = round(time.monotonic() - started, 2)
    result.notes.append(f"chart: {probe.control} = {value} → {expected}")


#: Whether the current notebook tab is marked modified.
_DIRTY = (
    "() => !!(document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')"
    " || document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty'))"
)


def _check_chapter(
    page,
    base: str,
    name: str,
    parameters: dict,
    folder: Path,
    shots: Path,
    root: Path,
    timeout: float,
) -> Result:
    result = Result(page=name)
    started = time.monotonic()
    _open(page, f"{base}/lab/tree/{name}.ipynb")
    result.seconds["open"] = round(time.monotonic() - started, 2)
    page.wait_for_timeout(1500)  # the kernel connects
    if page.evaluate(_DIRTY):  # opening alone must not change the copy (issue 50)
        result.problems.append("the tab shows modified right after opening, before any run")
    status = _git_status(root)
    started = time.monotonic()
    if not _ran_all(page, result, started=started, timeout=timeout):
        return result
    page.wait_for_timeout(1000)  # the last outputs draw
    for text in page.evaluate(_ERROR_OUTPUTS):
        result.problems.append(f"error output: {text!r}")
    shown = page.locator(NOTEBOOK).inner_text()
    for what in sorted(set(_UNKNOWN_MYST.findall(shown))):
        result.problems.append(f"MyST not rendered: {what}")
    probe = PROBES[name]
    _widget_probe(page, probe.widget, parameters, result)
    _chart_probe(page, probe.chart, parameters, result)
    page.screenshot(path=str(shots / f"lab-{name}.png"))
    # save as JupyterLab's autosave would (File ▸ Save Notebook), then look at the files
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Save Notebook").first.click()
    page.wait_for_function(
        "() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')"
        " && !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')",
        timeout=30_000,
    )
    page.wait_for_timeout(500)
    saved = nbformat.read(folder / f"{name}.ipynb", as_version=4)
    if not any(cell.get("outputs") for cell in saved.cells if cell.cell_type == "code"):
        result.problems.append("saving did not write the outputs into the working copy")
    after = _git_status(root)
    if status is not None and after != status:
        changed = sorted(set(after.splitlines()) ^ set(status.splitlines()))
        result.problems.append(
            "running and saving the chapter changed the repository's files: "
            + "; ".join(changed[:10])
        )
    return result


#: the student assignment the check opens (built by ``make student``)
ASSIGNMENT = "01_exercises.ipynb"


def _check_assignment(page, base: str, shots: Path, timeout: float) -> Result:
    """A student's round: Run All on the blank assignment (otter's check fails), type the
    answer, run it and its check (otter's check passes)."""
    from fairbook_book.tooling.exercise_keys import GRADED

    key = GRADED["ex-01-rates-by-hand"]
    result = Result(page="assignment")
    started = time.monotonic()
    _open(page, f"{base}/lab/tree/{ASSIGNMENT}")
    page.wait_for_timeout(1500)
    if not _ran_all(page, result, started=started, timeout=timeout):
        return result
    check = page.locator(f"{NOTEBOOK} .jp-CodeCell", has_text=f'grader.check("{key.question}")')
    before = check.first.locator(".jp-Cell-outputArea").inner_text()
    if f"{key.question} passed" in before or key.question not in before:
        result.problems.append(f"the blank answer cell's check shows {before[:200]!r}")
    answer = page.locator(f"{NOTEBOOK} .jp-CodeCell", has_text=f"{key.answers[0].name} = ...")
    if answer.count() == 0:
        result.problems.append("no blank answer cell (tpr = ...) in the student's assignment")
        return result
    editor = answer.first.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(key.solution)
    page.keyboard.press("Shift+Enter")  # runs the answer and selects its check cell
    page.keyboard.press("Shift+Enter")
    try:
        page.wait_for_function(
            "([sel, q]) => [...document.querySelectorAll(sel)].some(c => "
            "c.innerText.includes('grader.check(\"' + q + '\")') && "
            "c.innerText.includes(q + ' passed'))",
            arg=[f"{NOTEBOOK} .jp-CodeCell", key.question],
            timeout=30_000,
        )
    except Exception:
        after = check.first.locator(".jp-Cell-outputArea").inner_text()
        result.problems.append(f"after the answer, the check shows {after[:200]!r}")
    result.seconds["answer checked"] = round(time.monotonic() - started, 2)
    check.first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "lab-assignment.png"))
    return result


def _check_charts(page, base: str, shots: Path, count: int) -> Result:
    result = Result(page="charts")
    if count == 0:
        result.problems.append("the executed chapters hold no chart output (run make html)")
        return result
    started = time.monotonic()
    _open(page, f"{base}/lab/tree/charts.ipynb")
    areas = page.locator(f"{NOTEBOOK} .jp-Cell-outputArea")
    cells = page.locator(f"{NOTEBOOK} .jp-CodeCell")
    try:
        page.wait_for_function(
            f"() => document.querySelectorAll('{NOTEBOOK} .jp-Cell-outputArea svg').length"
            f" >= {count}",
            timeout=30_000,
        )
    except Exception:  # not all drew in time: the loop below names each one that did not
        pass
    for index in range(count):
        area = areas.nth(index)
        label = cells.nth(index).locator(".jp-InputArea-editor").inner_text().strip()
        label = label.lstrip("# ").splitlines()[0] if label else f"chart {index + 1}"
        if area.locator("svg").count() == 0:
            result.problems.append(f"{label}: the chart did not draw ({area.inner_text()[:200]!r})")
            continue
        before = area.evaluate("a => a.querySelector('svg').outerHTML")
        control = area.locator(".vega-bindings input, .vega-bindings select").first
        if control.count() == 0:
            result.notes.append(f"{label}: drawn; it has no controls")
            continue
        kind = control.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
        if kind == "select":
            options = control.evaluate("e => [...e.options].map(o => o.value)")
            current = control.input_value()
            other = next((o for o in options if o != current), current)
            control.select_option(value=other)
        elif kind in ("radio", "checkbox"):
            choices = ".vega-bindings input[type=radio]:not(:checked)"
            area.locator(f"{choices}, .vega-bindings input[type=checkbox]").first.click()
        else:
            control.evaluate(
                "e => { const lo = +e.min, hi = +e.max;"
                " e.value = (+e.value === hi ? lo : hi);"
                " e.dispatchEvent(new Event('input', {bubbles: true})); }"
            )
        page.wait_for_timeout(300)
        after = area.evaluate("a => a.querySelector('svg').outerHTML")
        if after == before:
            result.problems.append(f"{label}: moving its first control changed nothing")
        else:
            result.notes.append(f"{label}: drawn and redrawn when its first control moved")
    result.seconds["all charts"] = round(time.monotonic() - started, 2)
    page.screenshot(path=str(shots / "lab-charts.png"))
    return result


def run_check(
    root: str | os.PathLike[str] | None = None,
    *,
    chapters: Sequence[str] = tuple(PROBES),
    timeout: float = 180,
    report: str | os.PathLike[str] | None = None,
) -> list[Result]:
    """Run the JupyterLab check (see the module docstring); the results, one per page."""
    from playwright.sync_api import sync_playwright

    root = Path(root) if root else find_root()
    paths = BookPaths(root)
    binary = chromium_binary()
    if binary is None:
        raise RuntimeError("no Chromium found (make chromium installs it)")
    folder = paths.build / "labcheck"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shots = paths.build / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    parameters = {}
    for name in chapters:
        chapter = Chapter(paths.notebooks / f"{name}.ipynb")
        notebook = nbformat.read(chapter.path, as_version=4)
        for_lab(notebook, root=root)
        nbformat.write(notebook, folder / chapter.path.name)
        parameters[name] = _defaults(chapter)
    charts = charts_notebook(paths.executed)
    nbformat.write(charts, folder / "charts.ipynb")
    assignment = paths.build / "editions" / "student" / "assignments" / ASSIGNMENT
    if assignment.is_file():
        shutil.copyfile(assignment, folder / ASSIGNMENT)
    write_settings()
    token, port = secrets.token_hex(16), _free_port()
    command = lab_command(root, port=port, token=token, folder=folder)
    log = (paths.build / "labcheck.log").open("w")
    server = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=folder
    )
    results: list[Result] = []
    started = time.monotonic()
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for_server(f"{base}/api/status?token={token}", server, timeout=60)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=binary, args=["--no-sandbox", "--disable-gpu"]
            )
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            console: list[str] = []
            page.on(
                "console", lambda m: console.append(m.text[:300]) if m.type == "error" else None
            )
            page.on("pageerror", lambda e: console.append(str(e)[:300]))
            page.goto(f"{base}/lab?token={token}")  # sets the session cookie
            page.wait_for_selector(".jp-LabShell", timeout=60_000)
            pages = [
                (
                    name,
                    lambda name=name: _check_chapter(
                        page, base, name, parameters[name], folder, shots, root, timeout
                    ),
                )
                for name in chapters
            ]
            pages.append(("charts", lambda: _check_charts(page, base, shots, len(charts.cells))))
            if (folder / ASSIGNMENT).is_file():
                pages.append(("assignment", lambda: _check_assignment(page, base, shots, timeout)))
            for name, check in pages:
                console.clear()
                try:
                    result = check()
                except Exception as exc:  # a page that broke the check: say so, go on
                    result = Result(page=name, problems=[f"the check stopped: {exc}"[:600]])
                    page.screenshot(path=str(shots / f"lab-{name}-stopped.png"))
                result.problems += [f"console error: {text}" for text in console]
                results.append(result)
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()
    total = round(time.monotonic() - started, 1)
    target = Path(report) if report else paths.build / "labcheck.json"
    target.write_text(
        json.dumps(
            {"seconds": total, "pages": [r.__dict__ for r in results]}, indent=2, ensure_ascii=False
        )
        + "\n",
        encoding="utf-8",
    )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.labcheck``: exit 0 if every page passed, 1 otherwise."""
    parser = argparse.ArgumentParser(
        prog="python -m fairbook_book.tooling.labcheck",
        description="Run chapters in JupyterLab in Chromium and check what a reader sees.",
    )
    parser.add_argument("chapters", nargs="*", help=f"among {', '.join(PROBES)} (default: all)")
    parser.add_argument("--timeout", type=float, default=180, help="seconds per Run All")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.chapters) - set(PROBES))
    if unknown:
        parser.error(f"no probe for {', '.join(unknown)}; choose among {', '.join(PROBES)}")
    started = time.monotonic()
    try:
        results = run_check(chapters=args.chapters or list(PROBES), timeout=args.timeout)
    except RuntimeError as exc:
        print(f"labcheck: {exc}", file=sys.stderr)
        return 1
    failed = 0
    for result in results:
        timing = ", ".join(f"{k} {v:.1f} s" for k, v in result.seconds.items())
        print(f"[labcheck] {result.page}: {timing}")
        for note in result.notes:
            print(f"    ok: {note}")
        for problem in result.problems:
            print(f"    PROBLEM: {problem}")
        failed += bool(result.problems)
    print(
        f"[labcheck] {len(results) - failed} of {len(results)} pages passed in "
        f"{time.monotonic() - started:.0f} s (report: _build/labcheck.json)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
