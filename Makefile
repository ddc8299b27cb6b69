# fairbook: build and test the book.
#
#   make book [PROFILE=fast|full] [EDITION=student]
#                                   set up, fetch data, execute every chapter, build _build/html
#                                   and the PDFs (_build/pdf), check every page in headless Chromium;
#                                   EDITION=student also the students' site (_build/html-student)
#   make test                       set up, lint (ruff check + format --check), data, unit tests,
#                                   the book, the executed chapters' outputs against their
#                                   committed references (nbval's rules), the student edition's
#                                   leak test, the autograder check, the PDFs, the slides, the
#                                   page check, the JupyterLab check (.ci/run)
#   make lab [PORT=8888] [FRESH=NN]  set up, then JupyterLab on working copies of the chapters
#                                   (lab/, git-ignored), as root or as a user; FRESH=03 replaces
#                                   chapter 03's copy (yours goes to lab/backup/), FRESH=1 all
#   make student [VARIANT=N]        the student (no solutions) and instructor editions of every
#                                   chapter, and an autograded otter-grader assignment per
#                                   chapter, in _build/editions/
#   make grade CHAPTER=NN SUBMISSIONS=DIR [TIMEOUT=60]
#                                   grade submitted notebooks: each alone, limited in time and
#                                   memory, unable to see the keys; a gradebook CSV and a log
#   make release                    make book + make student, then one versioned archive of it all
#                                   with SHA-256 checksums in _build/release/
#
# Both work on a fresh machine with Python 3.11, pip, node/npm and apt (as root). Helpers:
# setup, vendor, data, html, unit, nbval, nbval-refresh, nbval-rerun, pagecheck, labcheck,
# chromium, lint,
# verify (fairbook-book verify: how far this machine is from the recordings; make unit runs the same
# checks), clean, distclean.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

PROFILE ?= fast
# how many chapters (and test workers) run side by side: every core by default
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# the book package's extras installed into .venv (a variable: a literal comma would split
# $(call ...) arguments); the exact versions of everything come from constraints.txt
EXTRAS := dev,lm
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
FAIRBOOK := $(VENV)/bin/fairbook
BOOK := $(VENV)/bin/fairbook-book
STAMP_PY := $(VENV)/.fairbook-install.stamp
STAMP_NPM := node_modules/.fairbook-npm.stamp
VENDOR := book/_vendor
STAMP_VENDOR := $(VENDOR)/.stamp
HTML := _build/html
EXECUTED := _build/executed/notebooks
SCREENSHOTS := _build/screenshots

NPM_MODULES := node_modules
WIDGETS_DIST := $(NPM_MODULES)/@jupyter-widgets/html-manager/dist
MATHJAX_ES5 := $(NPM_MODULES)/mathjax/es5
REVEAL := $(NPM_MODULES)/reveal.js

# the kernels papermill and nbval start run `python` from PATH: make it the venv's
export PATH := $(abspath $(VENV))/bin:$(PATH)
export PYTHONHASHSEED := 0
# pip installs without byte-compiling its ~18,000 modules (--no-compile); each module is
# compiled when first imported and its .pyc written then, so the processes of a build must be
# allowed to write them: install + first use 1.7x faster (benchmarks/bench_setup.py)
unexport PYTHONDONTWRITEBYTECODE
# chapters and test workers run side by side: OpenMP threads sleep instead of spinning while
# they wait, so they do not starve each other (benchmarks/bench_omp_wait.py; same results)
export OMP_WAIT_POLICY := PASSIVE
export PYDEVD_DISABLE_FILE_VALIDATION := 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# run a step and print how long it took: $(call timed,NAME,COMMAND)
define timed
t0=$$(date +%s); rc=0; $(2) || rc=$$?; \
echo "[time] $(1): $$(( $$(date +%s) - t0 )) s$$( [ $$rc = 0 ] || echo " (FAILED, exit $$rc)" )"; \
exit $$rc
endef

.PHONY: help setup vendor data html book pdf slides release lab student editions grader grader-venv unit nbval nbval-refresh nbval-rerun nbval-changed grade student-site pagecheck labcheck chromium test lint typecheck wheel verify clean distclean

help:
	@echo "make book [PROFILE=fast|full] [EDITION=student]  execute the chapters, build _build/html (+ _build/html-student), check the pages"
	@echo "make test                      unit tests + book + nbval + page check + JupyterLab check (CI)"
	@echo "make lab [PORT=8888] [FRESH=NN] JupyterLab on working copies of the chapters (lab/)"
	@echo "make student [VARIANT=N]       student and instructor editions + autograded assignments (_build/editions)"
	@echo "make grade CHAPTER=01 SUBMISSIONS=DIR [TIMEOUT=60]  grade a folder of notebooks safely (_build/grades)"
	@echo "make pdf                       the book as A4 PDFs, instructor and student (_build/pdf)"
	@echo "make slides                    one reveal.js deck per chapter, offline (_build/slides)"
	@echo "make release                   the book, PDFs, editions, ledger in one archive (_build/release)"
	@echo "helpers: setup vendor data html unit nbval nbval-refresh nbval-rerun editions grader pagecheck"
	@echo "         labcheck chromium"
	@echo "         lint verify clean distclean"

# ---- set-up ----------------------------------------------------------------------------------

$(PY):
	$(PYTHON) -m venv $(VENV)

# the library (.) and the book's package (fairbook-book/), both editable, at the versions of
# constraints.txt
$(STAMP_PY): pyproject.toml fairbook-book/pyproject.toml constraints.txt | $(PY)
	@echo "[setup] pip install -c constraints.txt -e . -e './fairbook-book[$(EXTRAS)]'"
	@$(call timed,pip,$(PY) -m pip install -qq --no-compile -c constraints.txt -e . -e './fairbook-book[$(EXTRAS)]')
	@touch $@

$(STAMP_NPM): package.json package-lock.json
	@echo "[setup] npm ci (JavaScript the book serves itself)"
	@$(call timed,npm,npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
	@touch $@

# Copy what the static pages load into book/_vendor (git-ignored). Sphinx serves
# book/_vendor/static as _build/html/_static (html_static_path in _config.yml):
#   vendor/requirejs/require.js
#   vendor/widgets-config.js        generated below (WIDGETS_CONFIG_JS)
#   vendor/html-manager/embed-amd.js + its Font Awesome files
#   vendor/mathjax/es5/tex-mml-chtml.js + fonts, TeX extensions, menu, a11y
#   vendor/vega/{vega,vega-lite,vega-embed}.min.js  the static explorers (fairbook_book.plots.vega_chart)
#   and, outside the pages' static files, slides/reveal/{reveal.js,reveal.css,theme/white.css,
#   plugin/notes.js (the speaker view, key S)}
#   for the chapters' slide decks (fairbook_book.tooling.slides)
define WIDGETS_CONFIG_JS
// generated by the Makefile (make vendor); loaded after require.js, before embed-amd.js
(function () {
  // the widget bundle looks for its fonts next to its AMD module URI, which require.js
  // derives from the page's folder: point that module at this folder's html-manager/
  var src = document.currentScript && document.currentScript.src;
  if (src && typeof window.require !== "undefined") {
    var base = src.slice(0, src.lastIndexOf("/") + 1);
    window.require.config({paths: {"@jupyter-widgets/html-manager/dist": base + "html-manager"}});
  }
  // the bundle typesets widget labels with the MathJax 2 call MathJax.Hub.Queue; the book
  // loads MathJax 3 (deferred), so forward those calls to MathJax.typesetPromise
  var pending = [];
  function queue(job) {
    var el = job && job[2], m = window.MathJax;
    if (!el) return;
    if (m && m.typesetPromise) { m.typesetPromise([el]).catch(function () {}); }
    else { pending.push(el); }
  }
  var cfg = window.MathJax;
  if (cfg && !cfg.version) {  // still the configuration object: MathJax 3 is not loaded yet
    cfg.Hub = {Queue: queue};
    cfg.startup = cfg.startup || {};
    var ready = cfg.startup.ready;
    cfg.startup.ready = function () {
      if (ready) { ready(); } else { window.MathJax.startup.defaultReady(); }
      window.MathJax.Hub = {Queue: queue};
      window.MathJax.startup.promise.then(function () {
        if (pending.length) { return window.MathJax.typesetPromise(pending.splice(0)); }
      }).catch(function () {});
    };
  }
})();
endef
export WIDGETS_CONFIG_JS

$(STAMP_VENDOR): $(STAMP_NPM)
	@echo "[setup] vendoring require.js, @jupyter-widgets/html-manager, MathJax, Vega, reveal.js into $(VENDOR)"
	@rm -rf $(VENDOR)
	@mkdir -p $(VENDOR)/static/vendor/requirejs $(VENDOR)/static/vendor/html-manager \
	          $(VENDOR)/static/vendor/mathjax/es5/output
	@cp $(NPM_MODULES)/requirejs/require.js $(VENDOR)/static/vendor/requirejs/
	@printf '%s\n' "$$WIDGETS_CONFIG_JS" > $(VENDOR)/static/vendor/widgets-config.js
	@cp $(WIDGETS_DIST)/embed-amd.js $(WIDGETS_DIST)/*.woff $(WIDGETS_DIST)/*.woff2 \
	    $(WIDGETS_DIST)/*.ttf $(WIDGETS_DIST)/*.eot $(WIDGETS_DIST)/*.svg \
	    $(VENDOR)/static/vendor/html-manager/
	@cp $(MATHJAX_ES5)/tex-mml-chtml.js $(VENDOR)/static/vendor/mathjax/es5/
	@cp -r $(MATHJAX_ES5)/input $(MATHJAX_ES5)/ui $(MATHJAX_ES5)/a11y $(MATHJAX_ES5)/sre \
	    $(MATHJAX_ES5)/adaptors $(VENDOR)/static/vendor/mathjax/es5/
	@cp -r $(MATHJAX_ES5)/output/chtml $(MATHJAX_ES5)/output/chtml.js \
	    $(VENDOR)/static/vendor/mathjax/es5/output/
	@cp $(NPM_MODULES)/mathjax/LICENSE $(VENDOR)/static/vendor/mathjax/
	@mkdir -p $(VENDOR)/static/vendor/vega
	@for pkg in vega vega-lite vega-embed; do \
	  cp $(NPM_MODULES)/$$pkg/build/$$pkg.min.js $(VENDOR)/static/vendor/vega/; \
	  cp $(NPM_MODULES)/$$pkg/LICENSE $(VENDOR)/static/vendor/vega/LICENSE-$$pkg; done
	@mkdir -p $(VENDOR)/slides/reveal/theme
	@cp $(REVEAL)/dist/reveal.js $(REVEAL)/dist/reveal.css $(REVEAL)/LICENSE $(VENDOR)/slides/reveal/
	@cp $(REVEAL)/dist/theme/white.css $(VENDOR)/slides/reveal/theme/
	@mkdir -p $(VENDOR)/slides/reveal/plugin
	@cp $(REVEAL)/dist/plugin/notes.js $(VENDOR)/slides/reveal/plugin/
	@touch $@

vendor: $(STAMP_VENDOR)

setup: $(STAMP_PY) $(STAMP_VENDOR)

# Debian's chromium, for the page check only; apt-get update runs once, when installing
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "[setup] apt-get install chromium (for the page check)"; \
	  t0=$$(date +%s); \
	  apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    chromium fonts-dejavu-core fonts-liberation >/dev/null; \
	  echo "[time] chromium: $$(( $$(date +%s) - t0 )) s"; }

# ---- the book --------------------------------------------------------------------------------

data: $(STAMP_PY)
	@$(call timed,data,$(FAIRBOOK) data fetch && $(FAIRBOOK) data verify)

# execute every chapter with papermill (PROFILE), stage, jupyter-book build -W -n --keep-going
# A chapter unchanged since its last execution here is not executed again (its cache key:
# notebook, imported modules, package data, parameters, pins, kernel signature;
# fairbook_book.tooling.execution_cache); a chapter executed under the same key by another copy
# of the book on this machine (a fresh clone) is taken from the shared cache
# (~/.cache/fairbook/executed; FAIRBOOK_EXECUTION_CACHE=off: none); NOCACHE=1 executes every
# chapter.
html: setup
	@$(call timed,html,$(BOOK) build --profile $(PROFILE) --jobs $(JOBS) --timings $(REFERENCE)/timings-$(PROFILE).json $(if $(NOCACHE),--no-cache))

pagecheck: chromium $(STAMP_PY)
	@$(call timed,pagecheck,$(PY) -m fairbook_book.tooling.pagecheck $(HTML) --screenshots $(SCREENSHOTS) --jobs $(JOBS))

EDITION ?= instructor
book: setup chromium
	@$(MAKE) data
	@$(MAKE) html
	@$(MAKE) pdf
	@$(MAKE) slides
	@$(MAKE) pagecheck
	$(if $(filter student,$(EDITION)),@$(MAKE) student-site)

# one reveal.js deck per chapter from the executed chapters (_build/slides; works offline)
slides: $(STAMP_VENDOR) $(STAMP_PY)
	@$(call timed,slides,$(PY) -m fairbook_book.tooling.slides --out _build/slides)

# the whole book as one A4 PDF per edition (instructor; student without solutions), printed
# from _build/html by the page check's Chromium (fairbook_book.tooling.pdf)
pdf: chromium $(STAMP_PY)
	@$(call timed,pdf,$(PY) -m fairbook_book.tooling.pdf --out _build/pdf/fairbook.pdf && $(PY) -m fairbook_book.tooling.pdf --student --out _build/pdf/fairbook-student.pdf)

# one versioned archive: the HTML book, the PDFs, both editions, the executed chapters, the
# ledger, licences and citation, with SHA-256 checksums (fairbook_book.tooling.release)
release: book
	@$(MAKE) student
	@$(call timed,release,$(PY) -m fairbook_book.tooling.release --out _build/release)

# student edition (exercises, no solutions) and instructor edition (everything) of every chapter,
# and one otter-grader assignment per chapter: the student's notebook in student/assignments, the
# solution, autograder zip and marking guide in instructor/assignments (fairbook_book.tooling.assignments)
student: $(STAMP_PY)
	@$(PY) -m fairbook_book.tooling.editions --out _build/editions/student --edition student
	@$(PY) -m fairbook_book.tooling.editions --out _build/editions/instructor --edition instructor
	@$(PY) -m fairbook_book.tooling.assignments --out _build/editions $(if $(VARIANT),--variant $(VARIANT))

# make test, after the book: both editions and the student site written, and the leak test
# again, now also on the built book's downloads and the student site's pages (make unit runs
# before there is a book)
editions: student student-site
	@$(call timed,editions,$(PY) -m pytest -q -p no:cacheprovider tests/book/tooling/test_editions.py tests/book/tooling/test_assignments.py::test_the_built_student_assignments_leak_nothing tests/book/tooling/test_student_site.py -k "student_site_shows or student_site_leaks or catches_the_instructors")

# make test, after make student: each autograder zip alone, in a fresh environment of
# otter-grader and what the zip's environment.yml installs (no fairbook): the instructor's
# solutions score full marks, a notebook that patches the builtins before zeroing its answers
# gains nothing; then here the blank student notebook (0) and each key's typical wrong answer
# (caught), the scores (the solutions' from the zips alone) in
# _build/editions/instructor/assignments/SCORES.md; and make grade on chapter 01's solution and
# an endless copy of it (full marks, 0, within its TIMEOUT of 10 s)
GRADER_VENV := _build/grader-venv
GRADER_STAMP := $(GRADER_VENV)/.fairbook-grader.stamp
$(GRADER_STAMP): constraints.txt | $(STAMP_PY)
	@rm -rf $(GRADER_VENV)
	@$(PYTHON) -m venv $(GRADER_VENV)
	@$(PY) -m fairbook_book.tooling.assignments --zip-environment > $(GRADER_VENV)/requirements.txt
	@$(call timed,grader-venv,$(GRADER_VENV)/bin/python -m pip install -qq --no-compile -c constraints.txt -r $(GRADER_VENV)/requirements.txt)
	@touch $@

grader-venv: $(GRADER_STAMP)

grader: $(STAMP_PY) $(GRADER_STAMP)
	@$(call timed,grader,$(PY) -m fairbook_book.tooling.assignments --out _build/editions --no-build --check --alone $(GRADER_VENV)/bin/python && $(PY) -m fairbook_book.tooling.grading --check-make-grade)

# grade a folder of submitted notebooks of one chapter's assignment (after make student): each
# runs alone with a time and memory limit, no network and no view of the keys; the answers are
# checked afterwards in a clean process (fairbook_book.tooling.grading); the gradebook and a
# log of what failed go to _build/grades/NN/
TIMEOUT ?= 60
grade: $(STAMP_PY)
	@[ -n "$(CHAPTER)" ] && [ -n "$(SUBMISSIONS)" ] || { echo "usage: make grade CHAPTER=01 SUBMISSIONS=DIR [TIMEOUT=60]"; exit 2; }
	@[ -f _build/editions/instructor/assignments/$(CHAPTER)_keys.json ] || $(MAKE) student
	@$(PY) -m fairbook_book.tooling.grading --chapter $(CHAPTER) --submissions $(SUBMISSIONS) --timeout $(TIMEOUT)

# the book's pages from the student editions of the executed chapters, for students: no
# solutions (every page is checked for them), a banner on every page (_build/html-student)
student-site: $(STAMP_VENDOR) $(STAMP_PY)
	@test -d $(EXECUTED) || $(MAKE) html
	@$(call timed,student-site,$(PY) -m fairbook_book.tooling.student_site)

# JupyterLab on working copies of the chapters (lab/, git-ignored: running and saving them never
# changes a tracked file); prints the URL with its token; --allow-root when run as root
PORT ?= 8888
lab: setup
	@$(MAKE) data
	@$(PY) -m fairbook_book.tooling.lab --port $(PORT) $(if $(FRESH),--fresh $(FRESH))

# chapters 01 and 02 run in JupyterLab in Chromium: no error, both explorers answer with the
# library's numbers, saving leaves git status as it was; every chapter's chart draws there
labcheck: chromium $(STAMP_PY)
	@$(call timed,labcheck,$(PY) -m fairbook_book.tooling.labcheck)

# ---- tests -----------------------------------------------------------------------------------

# the unit tests; each recording's cheapest unit is re-run here (tests/book/tooling/test_verify.py)
# unless this machine passed that check under the same key (code, recordings, pins, kernels:
# ~/.cache/fairbook/verified, fairbook_book.tooling.verify.verified_key); NOCACHE=1 re-runs all
unit: $(STAMP_PY)
	@$(call timed,unit,FAIRBOOK_VERIFY_RESULTS=$(CURDIR)/_build/verify $(if $(NOCACHE),FAIRBOOK_VERIFIED_CACHE=off) $(PY) -m pytest tests --ignore=tests/notebooks -q -n $(JOBS) --durations=15)

# nbval's check without a second execution: compare the executed chapters' outputs, under
# nbval's rules, with the references committed in tests/notebooks/reference (written from an
# earlier build by nbval-refresh; tests/notebooks/README.md), and check the built ledger
REFERENCE := tests/notebooks/reference
SANITIZE := tests/notebooks/sanitize.cfg
nbval: $(STAMP_PY)
	@ls $(EXECUTED)/*.ipynb >/dev/null 2>&1 || { echo "no executed chapters: run make html"; exit 1; }
	@$(call timed,nbval,$(PY) -m pytest -c tests/notebooks/pytest.ini --rootdir=. -q tests/notebooks)

# after a deliberate change of a chapter's outputs: make html, then this, then review the diff
nbval-refresh: $(STAMP_PY)
	@$(PY) -m fairbook_book.tooling.outputs write $(EXECUTED) $(REFERENCE) $(SANITIZE)
	@$(PY) -m fairbook_book.tooling.execution_cache write-reference $(EXECUTED) --profile $(PROFILE)

# nbval itself on the chapters that changed since their references were written (their
# content key differs from $(REFERENCE)/keys-$(PROFILE).json): each is executed again and must
# reproduce the outputs of its build run on this machine; none changed, nothing runs
nbval-changed: $(STAMP_PY)
	@ls $(EXECUTED)/*.ipynb >/dev/null 2>&1 || { echo "no executed chapters: run make html"; exit 1; }
	@changed="$$($(PY) -m fairbook_book.tooling.execution_cache changed $(EXECUTED) --profile $(PROFILE))"; \
	if [ -z "$$changed" ]; then echo "[nbval-changed] no chapter changed since its reference: nothing to re-execute"; \
	else echo "[nbval-changed] re-executing under nbval:" $$changed; \
	  $(call timed,nbval-changed,$(PY) -m pytest -c tests/notebooks/pytest.ini --rootdir=. -q -n $(JOBS) --dist loadscope tests/notebooks $$changed); fi

# nbval itself: re-execute the executed chapters and compare with their stored outputs; with
# JOBS > 1 the chapters are shared among JOBS workers, each chapter's cells in order in one
# worker (--dist loadscope: nbval's scope is the notebook)
nbval-rerun: $(STAMP_PY)
	@ls $(EXECUTED)/*.ipynb >/dev/null 2>&1 || { echo "no executed chapters: run make html"; exit 1; }
	@$(call timed,nbval-rerun,$(PY) -m pytest -c tests/notebooks/pytest.ini --rootdir=. -n $(JOBS) --dist loadscope tests/notebooks $(EXECUTED)/*.ipynb)

# Every stage runs even if one it waits for failed; the summary names the failed ones. The
# stages run side by side where one does not need another, at most TEST_PARALLEL at once
# (fairbook_book.tooling.stages says which waits for which; TEST_PARALLEL=1: one at a time):
# lint, typecheck, wheel, grader-venv, data -> unit -> html -> nbval -> nbval-changed,
# editions, pdf, slides -> pagecheck; editions -> grader, labcheck
# (the set-up's two parts, pip and npm, also run side by side)
TEST_PARALLEL ?= 3
test: chromium
	@$(MAKE) $(STAMP_VENDOR) & vendor=$$!; $(MAKE) $(STAMP_PY); wait $$vendor
	@MAKE="$(MAKE)" $(PY) -m fairbook_book.tooling.stages --parallel $(TEST_PARALLEL)

# re-run each recording's cheapest unit here: both kernel signatures, deviations, flipped verdicts
verify: $(STAMP_PY)
	@$(call timed,verify,$(BOOK) verify)

# ruff lint rules and the formatter, on everything that is Python, and ruff's rules on the
# chapters (the notebook lint); the same hooks run on commit with pre-commit
# (.pre-commit-config.yaml)
PYTHON_TREES := src fairbook-book tests benchmarks
lint: $(STAMP_PY)
	@$(call timed,lint,$(VENV)/bin/ruff check $(PYTHON_TREES) notebooks && $(VENV)/bin/ruff format --check $(PYTHON_TREES))

# mypy on the library (src/fairbook; settings in pyproject.toml); its incremental cache is
# shared by the copies of the book on this machine (mypy re-checks whatever changed)
MYPY_CACHE ?= $(HOME)/.cache/fairbook/mypy
typecheck: $(STAMP_PY)
	@$(call timed,typecheck,$(VENV)/bin/mypy --cache-dir $(MYPY_CACHE))

# the library as a practitioner gets it: build the wheel, install it alone (with its own
# dependencies, at the versions of constraints.txt) in a fresh virtual environment, and run
# `fairbook audit` from it (tests/wheel/check_installed.py)
WHEEL_DIR := _build/wheel
wheel: $(STAMP_PY)
	@rm -rf $(WHEEL_DIR)
	@$(call timed,wheel,$(PY) -m pip wheel -q --no-deps -w $(WHEEL_DIR) . \
	  && $(PYTHON) -m venv $(WHEEL_DIR)/venv \
	  && $(WHEEL_DIR)/venv/bin/python -m pip install -qq --no-compile -c constraints.txt $(WHEEL_DIR)/fairbook-*.whl \
	  && cd $(WHEEL_DIR) && venv/bin/python $(CURDIR)/tests/wheel/check_installed.py $(CURDIR)/$(WHEEL_DIR)/fairbook-*.whl)

clean:
	rm -rf _build $(VENDOR)

distclean: clean
	rm -rf $(VENV) $(NPM_MODULES)
