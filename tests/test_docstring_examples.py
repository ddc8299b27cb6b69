"""Every example in every docstring of the library and the book's package runs and shows what
it says.

The style guide asks for a small example in each docstring; an example that has drifted
from the code misleads a reader more than no example. Some modules' tests run their own
doctests too; this runs all of them, so a module without such a test is covered as well.
Examples that need the network or downloaded data are marked ``+SKIP`` in the docstring.
This is the one place docstring examples run; module tests do not run them again.
"""

import doctest
import importlib
import pkgutil

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

import fairbook
import fairbook_book

_FOUND = [
    info
    for package in (fairbook, fairbook_book)
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    if not info.name.endswith("__main__")
]
MODULES = sorted(info.name for info in _FOUND)
#: Package files (``__init__``) re-export their modules' names and need no examples of their own.
PACKAGES = {info.name for info in _FOUND if info.ispkg}

#: Modules with nothing to show by example besides the packages: the command line (tested in
#: tests/test_cli.py), the papers' printed constants, private helpers, and modules whose
#: examples all need downloaded data (+SKIP). Every other module must carry at least one
#: example that runs.
WITHOUT_EXAMPLES = {
    "fairbook_book.cli",
    "fairbook.papers.seed000",
    "fairbook.papers.seed001",
    "fairbook.papers.seed003",
    "fairbook.papers.seed004",
}


def test_every_module_is_found():
    assert len(MODULES) > 50
    assert WITHOUT_EXAMPLES <= set(MODULES) - PACKAGES
    assert {"fairbook.metrics.rates", "fairbook.forecasting.ptn", "fairbook_book.plots"} <= set(
        MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures, found = [], 0
    for test in finder.find(module, name):  # the module's own objects, not re-exports
        found += sum(not ex.options.get(doctest.SKIP, False) for ex in test.examples)
        runner.run(test, out=failures.append)
    plt.close("all")
    assert not failures, "".join(failures)
    assert runner.summarize(verbose=False).attempted == found
    # a chapter's role module with nothing for that chapter exports nothing and shows nothing
    if name not in WITHOUT_EXAMPLES | PACKAGES and getattr(module, "__all__", None) != []:
        assert found > 0, f"{name} has no docstring example that runs"
