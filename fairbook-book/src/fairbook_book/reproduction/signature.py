"""The kernel signature of this machine: what decides the last bits of a computed number.

Two runs of the same code with the same seeds give the same bits only where the same
floating-point kernels run. What chooses them here:

* PyTorch's ATen kernels (``torch.backends.cpu.get_cpu_capability()``: ``AVX2``,
  ``AVX512``, ...), capped at AVX2 on x86-64 by :mod:`fairbook.instruction_set` unless
  ``FAIRBOOK_NATIVE_ISA=1``;
* oneDNN's and MKL's instruction sets (``ONEDNN_MAX_CPU_ISA``, ``MKL_ENABLE_INSTRUCTIONS``;
  ``native`` when unset: the processor's widest);
* numpy's BLAS: the library, its version and the **core type** it chose for this processor
  (OpenBLAS: ``Haswell``, ``SkylakeX``, ``Zen``, ``NeoverseN1``, ...; read with
  ``threadpoolctl``). The project never sets ``OPENBLAS_CORETYPE``: some machines set it
  for correctness, and it is then part of what is read here;
* the torch and numpy versions, the processor architecture and the device.

:func:`kernel_signature` reads it; ``fairbook-book record`` writes it into every unit's provenance
(``kernels``); :func:`signature_of` reads it back (``None`` for units recorded before it was
written: *unknown*, which never counts as equal). ``FAIRBOOK_FORCE_SIGNATURE=TEXT`` adds a
field ``forced`` to this machine's signature, so that no recording matches it: the way to
exercise the cross-signature comparison on the machine a recording was made on.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Mapping

__all__ = [
    "FORCE",
    "describe_signature",
    "kernel_signature",
    "signature_of",
    "signatures_differ",
]

#: Set to any text to make this machine's signature differ from every recording's.
FORCE = "FAIRBOOK_FORCE_SIGNATURE"

#: The fields of a signature, in the order :func:`describe_signature` prints them.
FIELDS = ("device", "machine", "aten", "onednn", "mkl", "blas", "torch", "numpy")


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _native_isa() -> str:
    """The widest x86 vector extension of this processor, as oneDNN and MKL would take it."""
    flags = _cpu_flags()
    if {"avx512f", "avx512bw", "avx512vl"} <= flags:
        return "native (AVX-512)"
    if "avx2" in flags:
        return "native (AVX2)"
    return f"native ({platform.machine() or 'unknown'})"


def _blas() -> str:
    """numpy's BLAS as ``library version core-type`` (threadpoolctl), or ``unknown``.

    numpy's own library (the one under numpy's folder, ``numpy.libs``) when threadpoolctl
    lists it: once SciPy's linear algebra is imported, its bundled OpenBLAS is listed first,
    and taking the first would make the signature depend on what the process imported
    before (a Dask worker that ran a unit reads another BLAS than the client).
    """
    try:
        import numpy  # (loads the BLAS threadpoolctl inspects)
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        return "unknown"
    pools = [pool for pool in threadpool_info() if pool.get("user_api") == "blas"]
    home = os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__)))
    own = [
        pool
        for pool in pools
        if os.path.abspath(str(pool.get("filepath", ""))).startswith(
            (os.path.join(home, "numpy.libs"), os.path.join(home, "numpy") + os.sep)
        )
    ]
    for pool in own or pools:
        parts = [pool.get("internal_api"), pool.get("version"), pool.get("architecture")]
        return " ".join(str(p) for p in parts if p)
    return "unknown"


def _package(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return "absent"


def _nvidia_driver() -> str:
    """The NVIDIA driver's version (``nvidia-smi``), or ``unknown``."""
    import subprocess

    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout else "unknown"


def kernel_signature(*, device: str = "cpu") -> dict[str, str]:
    """This machine's kernel signature (module docstring).

    Imports PyTorch, if installed, to read the kernel level it chose (import :mod:`fairbook`
    first, as every entry point does, so that the AVX2 cap is in force).

    Parameters
    ----------
    device : str, default "cpu"
        The device the computation runs on (``"cuda"`` adds the GPU's name).

    Returns
    -------
    dict
        :data:`FIELDS` → text, plus ``forced`` when :data:`FORCE` is set.

    Examples
    --------
    >>> sorted(kernel_signature())[:4]
    ['aten', 'blas', 'device', 'machine']
    """
    aten = "absent"
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch
        except ImportError:  # pragma: no cover - torch is a dependency
            torch = None
    if torch is not None:
        try:
            aten = str(torch.backends.cpu.get_cpu_capability())
        except (AttributeError, RuntimeError):  # pragma: no cover - very old torch
            aten = "unknown"
    where = device
    if device.startswith("cuda") and torch is not None and torch.cuda.is_available():
        where = (
            f"{device} ({torch.cuda.get_device_name()}; CUDA {torch.version.cuda}; "
            f"driver {_nvidia_driver()}; cuDNN {torch.backends.cudnn.version()})"
        )
    native = _native_isa() if platform.machine().lower() in {"x86_64", "amd64"} else "n/a"
    signature = {
        "device": where,
        "machine": platform.machine() or "unknown",
        "aten": aten,
        "onednn": os.environ.get("ONEDNN_MAX_CPU_ISA") or native,
        "mkl": os.environ.get("MKL_ENABLE_INSTRUCTIONS") or native,
        "blas": _blas(),
        "torch": _package("torch"),
        "numpy": _package("numpy"),
    }
    if os.environ.get(FORCE):
        signature["forced"] = os.environ[FORCE]
    return signature


def signature_of(provenance: Mapping) -> dict[str, str] | None:
    """The kernel signature a unit was recorded under, or ``None`` (unknown).

    Units recorded before ``fairbook-book record`` wrote signatures have none; their processor
    and PyTorch level (``instruction_set``) say too little (not the BLAS core type) to
    rebuild one, so they stay unknown, and unknown is never equal to anything.

    Examples
    --------
    >>> signature_of({"kernels": {"aten": "AVX2"}})
    {'aten': 'AVX2'}
    >>> signature_of({"unit": "s0"}) is None
    True
    """
    kernels = provenance.get("kernels")
    return dict(kernels) if isinstance(kernels, Mapping) else None


def signatures_differ(here: Mapping | None, there: Mapping | None) -> list[str]:
    """The fields in which two signatures differ (``["unknown"]`` when either is unknown).

    Examples
    --------
    >>> signatures_differ({"aten": "AVX2", "blas": "x"}, {"aten": "AVX512", "blas": "x"})
    ['aten']
    >>> signatures_differ({"aten": "AVX2"}, None)
    ['unknown']
    >>> signatures_differ({"aten": "AVX2"}, {"aten": "AVX2"})
    []
    """
    if here is None or there is None:
        return ["unknown"]
    keys = list(dict.fromkeys([*FIELDS, *here, *there]))
    return [k for k in keys if here.get(k) != there.get(k)]


def describe_signature(signature: Mapping | None) -> str:
    """One line: ``ATen AVX2, oneDNN AVX2, MKL AVX2, BLAS openblas 0.3.31 SkylakeX, ...``.

    Examples
    --------
    >>> describe_signature(None)
    'unknown (recorded before signatures were written)'
    >>> describe_signature({"device": "cpu", "aten": "AVX2", "blas": "openblas 0.3 Haswell"})
    'cpu, ATen AVX2, BLAS openblas 0.3 Haswell'
    """
    if signature is None:
        return "unknown (recorded before signatures were written)"
    names = {
        "device": "",
        "machine": "",
        "aten": "ATen ",
        "onednn": "oneDNN ",
        "mkl": "MKL ",
        "blas": "BLAS ",
        "torch": "torch ",
        "numpy": "numpy ",
        "forced": "forced ",
    }
    parts = [
        f"{names.get(k, k + ' ')}{signature[k]}" for k in [*FIELDS, "forced"] if k in signature
    ]
    return ", ".join(parts)
