"""Tests of :mod:`fairbook_book.reproduction.signature`: what the signature holds, how two are
compared, and the forced mismatch."""

import pytest

from fairbook_book.reproduction import signature as sig


def test_this_machine_has_every_field_and_reads_pytorchs_level():
    here = sig.kernel_signature()
    assert set(sig.FIELDS) <= set(here)
    torch = pytest.importorskip("torch")
    assert here["aten"] == torch.backends.cpu.get_cpu_capability()
    assert here["torch"].startswith(torch.__version__.split("+")[0])


def test_the_blas_field_names_the_core_type_threadpoolctl_reports():
    from threadpoolctl import threadpool_info

    blas = [p for p in threadpool_info() if p.get("user_api") == "blas"]
    here = sig.kernel_signature()
    if blas and blas[0].get("architecture"):
        assert here["blas"].endswith(blas[0]["architecture"])


def test_forcing_makes_this_machine_differ_from_itself(monkeypatch):
    plain = sig.kernel_signature()
    monkeypatch.setenv(sig.FORCE, "other")
    forced = sig.kernel_signature()
    assert sig.signatures_differ(forced, plain) == ["forced"]
    assert sig.signatures_differ(plain, plain) == []


def test_an_unknown_signature_never_counts_as_equal():
    assert sig.signatures_differ(None, None) == ["unknown"]
    assert sig.signatures_differ(sig.kernel_signature(), sig.signature_of({})) == ["unknown"]


def test_the_cap_is_part_of_the_signature(monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX2")
    capped = sig.kernel_signature()
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX512_CORE")
    assert "onednn" in sig.signatures_differ(capped, sig.kernel_signature())


def test_description_is_one_line_without_reprs():
    text = sig.describe_signature(sig.kernel_signature())
    assert "\n" not in text and "{" not in text and "ATen" in text
