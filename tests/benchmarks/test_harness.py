"""Tests of benchmarks/_harness.py (the benchmarks live outside src; their shared harness is
tested here)."""

import importlib.util
import json
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "_harness.py"
_SPEC = importlib.util.spec_from_file_location("_harness", _PATH)
harness = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(harness)


def test_machine_names_the_cores_and_the_libraries():
    info = harness.machine("numpy", "not_a_library")
    assert info["cpu_count"] >= 1 and "numpy" in info and "not_a_library" not in info


def test_best_of_keeps_the_least_time_and_the_result():
    calls = []
    seconds, result = harness.best_of(lambda: calls.append(1) or len(calls), repeat=3)
    assert result == 3 and len(calls) == 3 and seconds >= 0
    with pytest.raises(ValueError, match="at least 1"):
        harness.best_of(lambda: None, repeat=0)


def test_every_result_carries_the_same_provenance(tmp_path):
    path = harness.write_result(tmp_path / "results" / "bench_x.json", {"ratio": 2.5})
    record = json.loads(path.read_text())
    assert record["benchmark"] == "bench_x" and record["ratio"] == 2.5
    assert {"command", "date", "commit", "machine"} <= set(record)
