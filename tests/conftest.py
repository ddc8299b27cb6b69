"""Test-session settings shared by every test module.

Tests marked ``heavy`` (each takes many seconds: re-running a recorded unit, training a
network) run first. ``make unit`` runs the tests on every core (``pytest -n``), and
pytest-xdist hands out tests in collection order: heavy tests left at the end of that order
keep one worker busy while the others have nothing left to do. First, they overlap with
everything else. The order changes nothing else: every test is independent of the others.

Before any test imports PyTorch, the CPU kernels are capped as the recordings and references
were made (:func:`fairbook.instruction_set.pin`; ``import fairbook`` no longer does it).
"""

from __future__ import annotations

import pytest

from fairbook.instruction_set import pin

pin()  # every test worker: the kernels of the recordings, before any PyTorch operation


@pytest.fixture(autouse=True)
def _no_machine_caches(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Tests neither read nor fill the machine's shared execution cache
    (``~/.cache/fairbook/executed``) nor its remembered verify outcomes
    (``~/.cache/fairbook/verified``): a test that wants one names its own folder. Only the
    tests marked ``machine_caches`` (the recordings' re-runs) use the machine's outcomes,
    as ``make unit`` set them (``NOCACHE=1``: off)."""
    monkeypatch.setenv("FAIRBOOK_EXECUTION_CACHE", "off")
    if request.node.get_closest_marker("machine_caches") is None:
        monkeypatch.setenv("FAIRBOOK_VERIFIED_CACHE", "off")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "heavy: takes many seconds; runs first so that parallel workers end together"
    )
    config.addinivalue_line(
        "markers", "machine_caches: may use the outcomes this machine remembers (make unit)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the ``heavy`` tests to the front, keeping the order within each part (a stable
    sort, the same on every worker, as pytest-xdist requires)."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)
