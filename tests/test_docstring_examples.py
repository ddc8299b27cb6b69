"""Every example in every docstring of the package runs and shows what it says.

The style guide asks for a small example in each docstring; an example that has drifted
from the code misleads a reader more than no example. Some modules' tests run their own
doctests too; this runs all of them, so a module without such a test is covered as well.
Examples that need the network or downloaded data are marked ``+SKIP`` in the docstring.
"""

import doctest
import importlib
import pkgutil

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import fairbook  # noqa: E402

MODULES = sorted(info.name for info in pkgutil.walk_packages(fairbook.__path__, "fairbook.")
                 if not info.name.endswith("__main__"))


def test_every_module_is_found():
    assert len(MODULES) > 50
    assert {"fairbook.metrics.rates", "fairbook.forecasting.ptn", "fairbook.plots"} <= \
        set(MODULES)


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
