"""One x86 instruction set for PyTorch's CPU kernels, so that runs reproduce across machines.

PyTorch picks its CPU kernels at run time from what the processor offers: ATen's vectorised
kernels (``ATEN_CPU_CAPABILITY``: AVX2 or AVX-512) and oneDNN's matrix products and
convolutions (``ONEDNN_MAX_CPU_ISA``). The two paths sum in different orders, so a float32
network trained on an AVX-512 machine differs in the last bits from the same network trained
on an AVX2 machine, and after a few epochs in every printed digit. The cap keeps x86-64
machines on one kernel level, which narrows the spread between them; it cannot make another
BLAS core type, an ARM or Apple processor or a GPU agree, so no check of the book requires
bits across kernel signatures (:mod:`fairbook_book.reproduction`).

Measured on 2026-11-26: every recording of the book was made on an AMD EPYC with AVX2 and no
AVX-512. On an AMD EPYC with AVX-512, five of the unit tests that re-run a recorded unit and
five chapters' references failed with the processor's own kernels; with ``ATEN_CPU_CAPABILITY``
and ``ONEDNN_MAX_CPU_ISA`` capped at AVX2 (both are needed; either alone is not enough) they
reproduced bit for bit. MKL's instruction set is capped too, for Intel processors, where MKL
would otherwise take its AVX-512 path.

:func:`pin` caps all three at AVX2 on x86-64, unless the variable is already set (the user's
choice wins) or ``FAIRBOOK_NATIVE_ISA`` is set to anything but ``0`` (use the processor's own
kernels: faster on AVX-512, not bit-comparable with the recordings). Nothing calls it on
import: ``import fairbook`` leaves the process as it was. The book calls it explicitly, before
any PyTorch operation: each chapter's set-up cell (``fairbook_book.chapter_setup``), the
``fairbook-book`` command (recording, verifying, building) and the test suite's ``conftest.py``.
PyTorch reads the variables at its first operation (if one ran already and chose wider kernels,
:func:`pin` warns), and child processes (chapters, test workers, joblib workers) inherit them.
:func:`describe` says what is in force; ``fairbook-book record`` writes it into each unit's
provenance.
"""

from __future__ import annotations

import os
import platform
import sys
import warnings
from collections.abc import MutableMapping

__all__ = ["OPT_OUT", "PINNED", "describe", "pin"]

#: The variables :func:`pin` sets, and their values: AVX2, which every x86-64 processor of
#: the last ten years has.
PINNED = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
}

#: Set to anything but ``0`` to keep the processor's own kernels.
OPT_OUT = "FAIRBOOK_NATIVE_ISA"

_X86 = {"x86_64", "amd64", "x64"}


def pin(environ: MutableMapping[str, str] | None = None, *, machine: str | None = None) -> dict:
    """Cap PyTorch's CPU kernels at AVX2 on x86-64; return the variables it set.

    Parameters
    ----------
    environ : mapping, optional
        The environment to change (default: ``os.environ``).
    machine : str, optional
        The processor architecture (default: :func:`platform.machine`). Elsewhere (ARM) it sets
        nothing.

    Returns
    -------
    dict
        The variables set now; those already set, and all of them under :data:`OPT_OUT`, are
        left as they are.

    Examples
    --------
    >>> env = {"ONEDNN_MAX_CPU_ISA": "AVX512_CORE"}
    >>> pin(env, machine="x86_64")
    {'ATEN_CPU_CAPABILITY': 'avx2', 'MKL_ENABLE_INSTRUCTIONS': 'AVX2'}
    >>> env["ONEDNN_MAX_CPU_ISA"]
    'AVX512_CORE'
    >>> pin({}, machine="aarch64")
    {}
    """
    environ = os.environ if environ is None else environ
    machine = platform.machine() if machine is None else machine
    if machine.lower() not in _X86 or environ.get(OPT_OUT, "0") not in ("", "0"):
        return {}
    newly = {name: value for name, value in PINNED.items() if name not in environ}
    environ.update(newly)
    if environ is os.environ and "ATEN_CPU_CAPABILITY" in newly:
        _warn_if_too_late()
    return newly


def _warn_if_too_late() -> None:
    """Warn when PyTorch, imported and used before fairbook, already chose wider kernels."""
    torch = sys.modules.get("torch")
    if torch is None:
        return
    try:
        chosen = torch.backends.cpu.get_cpu_capability()  # fixes it now if still open
    except (AttributeError, RuntimeError):
        return
    if chosen.upper() not in {"AVX2", "DEFAULT", "NO AVX"}:
        warnings.warn(
            f"PyTorch ran an operation before fairbook was imported and chose its {chosen} "
            "kernels; in this process the book's recordings will not reproduce bit for bit. "
            "Import fairbook before running any PyTorch code (fairbook.instruction_set).",
            RuntimeWarning,
            stacklevel=3,
        )


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe() -> dict:
    """What decides the CPU kernels here: the processor, PyTorch's kernel level, the variables.

    PyTorch's level is read only if PyTorch is already imported (``None`` otherwise), so that
    calling this never imports it.

    Examples
    --------
    >>> sorted(describe())
    ['ATEN_CPU_CAPABILITY', 'MKL_ENABLE_INSTRUCTIONS', 'ONEDNN_MAX_CPU_ISA', 'cpu', 'machine', 'torch_cpu_capability']
    """  # noqa: E501
    torch = sys.modules.get("torch")
    capability = None
    if torch is not None:
        try:
            capability = torch.backends.cpu.get_cpu_capability()
        except (AttributeError, RuntimeError):
            capability = None
    return {
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "torch_cpu_capability": capability,
        **{name: os.environ.get(name) for name in PINNED},
    }
