"""Tests for fairbook.instruction_set: PyTorch's CPU kernels capped at AVX2 on x86-64."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

from fairbook.instruction_set import OPT_OUT, PINNED, describe, pin


def test_pin_sets_every_variable_on_x86_and_returns_them():
    env: dict[str, str] = {}
    assert pin(env, machine="x86_64") == PINNED
    assert env == PINNED


@pytest.mark.parametrize("machine", ["aarch64", "arm64", "ppc64le"])
def test_pin_sets_nothing_off_x86(machine):
    env: dict[str, str] = {}
    assert pin(env, machine=machine) == {}
    assert env == {}


def test_a_variable_already_set_is_the_users_choice():
    env = {"ATEN_CPU_CAPABILITY": "avx512"}
    newly = pin(env, machine="AMD64")
    assert "ATEN_CPU_CAPABILITY" not in newly
    assert env["ATEN_CPU_CAPABILITY"] == "avx512"
    assert env["ONEDNN_MAX_CPU_ISA"] == PINNED["ONEDNN_MAX_CPU_ISA"]


@pytest.mark.parametrize(
    ("value", "pinned"), [("1", False), ("yes", False), ("0", True), ("", True)]
)
def test_the_opt_out_keeps_the_processors_own_kernels(value, pinned):
    env = {OPT_OUT: value}
    newly = pin(env, machine="x86_64")
    assert bool(newly) is pinned
    assert (set(PINNED) <= set(env)) is pinned


def test_pin_is_idempotent():
    env: dict[str, str] = {}
    pin(env, machine="x86_64")
    assert pin(env, machine="x86_64") == {}
    assert env == PINNED


def test_describe_never_imports_torch():
    code = (
        "import sys, json; from fairbook import instruction_set as i; "
        "d = i.describe(); print(json.dumps([d['torch_cpu_capability'], 'torch' in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [None, False]


@pytest.mark.skipif(
    platform.machine().lower() not in {"x86_64", "amd64"}, reason="the cap is for x86-64"
)
def test_a_chapters_setup_caps_torchs_kernels_at_avx2_in_a_fresh_process():
    env = {k: v for k, v in os.environ.items() if k not in PINNED and k != OPT_OUT}
    code = (
        "import json, torch; from fairbook_book import chapter_setup; chapter_setup(); "
        "from fairbook import instruction_set as i; "
        "torch.ones(2) + 1; print(json.dumps(i.describe()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    described = json.loads(out.stdout)
    assert described["torch_cpu_capability"] in {"AVX2", "DEFAULT"}  # DEFAULT: no AVX2 at all
    for name, value in PINNED.items():
        assert described[name] == value


def test_describe_reports_the_variables_in_force(monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "SSE41")
    described = describe()
    assert described["ONEDNN_MAX_CPU_ISA"] == "SSE41"
    assert described["machine"] == platform.machine()
    assert isinstance(described["cpu"], str) and described["cpu"]


def _has_avx512() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            return " avx512f" in info.read()
    except OSError:
        return False


@pytest.mark.skipif(not _has_avx512(), reason="needs a processor with AVX-512")
def test_torch_used_before_the_pin_is_warned_about():
    env = {k: v for k, v in os.environ.items() if k not in PINNED and k != OPT_OUT}
    code = (
        "import warnings, torch; torch.ones(2) + 1; warnings.simplefilter('error'); "
        "from fairbook.instruction_set import pin; pin()"
    )
    late = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert late.returncode != 0 and "will not reproduce bit for bit" in late.stderr
    in_time = code.replace("torch.ones(2) + 1; ", "")  # imported, not used: still in time
    out = subprocess.run([sys.executable, "-c", in_time], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr


def test_importing_fairbook_changes_nothing_in_the_process():
    # a practitioner's `import fairbook` (and its command line's module) leaves the environment
    # as it was: the cap is an explicit call
    code = (
        "import os, json; before = dict(os.environ); import fairbook, fairbook.cli, "
        "fairbook.instruction_set; print(json.dumps(dict(os.environ) == before))"
    )
    env = {k: v for k, v in os.environ.items() if k not in PINNED and k != OPT_OUT}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert json.loads(out.stdout) is True
