"""The sources of implementation nondeterminism, as explicit knobs (seed 004 App. E).

A FIT run fixes the seed, the data order and the initial weights; whatever still differs
between two runs comes from the software: how many threads split a reduction, which
kernel library computes a convolution, whether the framework may pick a nondeterministic
algorithm, and on a GPU whether cuDNN benchmarks kernels before choosing one. Each is a
field of :class:`Knobs`; :func:`apply` sets them for the duration of a run and restores
the previous process-wide state afterwards.

``sum_order="permuted"`` is the one knob that is **not** a library switch: it is the
book's CPU stand-in for GPU scheduling nondeterminism. Each run adds up every minibatch's
per-example terms in its own order (a permutation inside the batch, drawn from the run
number); the batches, their order, the data and the initial weights stay the same, and the
loss is mathematically unchanged — only the floating-point rounding differs, which is what
nondeterministic atomics do on a GPU. It is labelled as an emulation wherever it is used.

Examples
--------
>>> from fairbook.variance.determinism import Knobs, apply
>>> import torch
>>> with apply(Knobs(threads=1, mkldnn=False)):
...     torch.backends.mkldnn.enabled
False
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import asdict, dataclass, replace

__all__ = ["KNOB_DOCS", "Knobs", "apply", "environment", "knob_variants", "process_lock"]

#: One line per knob: what it changes.
KNOB_DOCS = {
    "threads": "torch.set_num_threads: intra-op threads; a reduction split over more "
    "threads adds its partial sums in another order",
    "mkldnn": "torch.backends.mkldnn.enabled: oneDNN (MKL-DNN) CPU kernels for convolutions "
    "on or off (off: PyTorch's native kernels, another summation order)",
    "deterministic": "torch.use_deterministic_algorithms: refuse or replace ops that have "
    "no deterministic implementation",
    "workers": "DataLoader num_workers: batches prepared in worker processes",
    "device": "cpu or cuda",
    "cudnn_benchmark": "torch.backends.cudnn.benchmark: time several convolution kernels "
    "at the first call and keep the fastest (GPU only)",
    "cudnn_deterministic": "torch.backends.cudnn.deterministic: only deterministic cuDNN "
    "kernels (GPU only)",
    "sum_order": "'fixed' or 'permuted' (CPU stand-in for GPU scheduling: each run sums each "
    "minibatch in its own order; emulation, not a library switch)",
}

_LOCK = threading.RLock()


def process_lock() -> threading.RLock:
    """The lock :func:`apply` holds: these knobs are process-wide, so runs that share a
    process (a threaded Dask worker, ``processes=False``) train one at a time."""
    return _LOCK


@dataclass(frozen=True)
class Knobs:
    """Implementation settings of one training run.

    Parameters
    ----------
    threads : int, default 1
        Intra-op threads (``torch.set_num_threads``).
    mkldnn : bool, default True
        oneDNN CPU kernels on (PyTorch's default) or off.
    deterministic : bool, default False
        ``torch.use_deterministic_algorithms``.
    workers : int, default 0
        DataLoader worker processes.
    device : str, default "cpu"
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
    cudnn_benchmark, cudnn_deterministic : bool, default False
        cuDNN settings; only meaningful with ``device="cuda"`` (a ValueError otherwise,
        since on a CPU they would silently do nothing).
    sum_order : {"fixed", "permuted"}
        See the module docstring: ``"permuted"`` emulates GPU scheduling on a CPU.

    Examples
    --------
    >>> Knobs(threads=2).describe()
    'threads=2'
    >>> Knobs().describe()
    'reference'
    """

    threads: int = 1
    mkldnn: bool = True
    deterministic: bool = False
    workers: int = 0
    device: str = "cpu"
    cudnn_benchmark: bool = False
    cudnn_deterministic: bool = False
    sum_order: str = "fixed"

    def __post_init__(self):
        if not isinstance(self.threads, int) or isinstance(self.threads, bool) or self.threads < 1:
            raise ValueError(f"threads must be a positive int, got {self.threads!r}")
        if not isinstance(self.workers, int) or isinstance(self.workers, bool) or self.workers < 0:
            raise ValueError(f"workers must be a non-negative int, got {self.workers!r}")
        if not (
            self.device == "cpu"
            or self.device == "cuda"
            or (self.device.startswith("cuda:") and self.device[5:].isdigit())
        ):
            raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', got {self.device!r}")
        if self.sum_order not in ("fixed", "permuted"):
            raise ValueError(f"sum_order must be 'fixed' or 'permuted', got {self.sum_order!r}")
        if self.device == "cpu" and (self.cudnn_benchmark or self.cudnn_deterministic):
            raise ValueError(
                "cudnn_benchmark / cudnn_deterministic only act on a GPU; set device='cuda'"
            )

    def describe(self) -> str:
        """The fields that differ from the defaults, as ``name=value`` (``"reference"``)."""
        base = Knobs(device=self.device)
        changed = [
            f"{k}={v}" for k, v in asdict(self).items() if k != "device" and v != getattr(base, k)
        ]
        return ", ".join(changed) or "reference"


@contextlib.contextmanager
def apply(knobs: Knobs):
    """Set ``knobs`` process-wide for the duration of the block, then restore.

    Holds :func:`process_lock` while inside, so concurrent runs in threads of one process
    do not see each other's settings. With ``deterministic=True`` on a GPU it also sets
    ``CUBLAS_WORKSPACE_CONFIG=:4096:8`` (needed by deterministic cuBLAS) if unset.
    """
    import torch

    if not isinstance(knobs, Knobs):
        raise ValueError(f"knobs must be a Knobs, got {type(knobs).__name__}")
    if knobs.device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(
            f"device={knobs.device!r} but torch.cuda.is_available() is False "
            "(this torch build or machine has no GPU)"
        )
    with _LOCK:
        saved = {
            "threads": torch.get_num_threads(),
            "deterministic": torch.are_deterministic_algorithms_enabled(),
            "warn_only": torch.is_deterministic_algorithms_warn_only_enabled(),
            "mkldnn": torch.backends.mkldnn.enabled,
            "benchmark": torch.backends.cudnn.benchmark,
            "cudnn_det": torch.backends.cudnn.deterministic,
        }
        try:
            if knobs.deterministic and knobs.device.startswith("cuda"):
                os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
            torch.set_num_threads(knobs.threads)
            torch.use_deterministic_algorithms(knobs.deterministic)
            torch.backends.mkldnn.enabled = knobs.mkldnn
            torch.backends.cudnn.benchmark = knobs.cudnn_benchmark
            torch.backends.cudnn.deterministic = knobs.cudnn_deterministic
            yield knobs
        finally:
            torch.set_num_threads(saved["threads"])
            torch.use_deterministic_algorithms(saved["deterministic"], warn_only=saved["warn_only"])
            torch.backends.mkldnn.enabled = saved["mkldnn"]
            torch.backends.cudnn.benchmark = saved["benchmark"]
            torch.backends.cudnn.deterministic = saved["cudnn_det"]


def knob_variants(
    reference: Knobs | None = None, *, threads: int = 2, workers: int = 2
) -> dict[str, Knobs]:
    """The reference settings and each knob changed alone (one-at-a-time study).

    On ``device="cuda"`` the cuDNN knobs are added; on a CPU they are left out (they do
    nothing there).

    Examples
    --------
    >>> list(knob_variants())[:4]
    ['reference', 'threads=2', 'mkldnn=False', 'deterministic=True']
    """
    ref = reference or Knobs()
    variants = [
        ref,
        replace(ref, threads=threads if ref.threads != threads else 1),
        replace(ref, mkldnn=not ref.mkldnn),
        replace(ref, deterministic=not ref.deterministic),
        replace(ref, workers=workers if ref.workers != workers else 0),
        replace(ref, sum_order="permuted" if ref.sum_order == "fixed" else "fixed"),
    ]
    if ref.device.startswith("cuda"):
        variants += [
            replace(ref, cudnn_benchmark=not ref.cudnn_benchmark),
            replace(ref, cudnn_deterministic=not ref.cudnn_deterministic),
        ]
    out = {}
    for k in variants:
        name = "reference" if k == ref else _diff(ref, k)
        out[name] = k
    return out


def _diff(ref: Knobs, other: Knobs) -> str:
    return ", ".join(f"{k}={v}" for k, v in asdict(other).items() if v != getattr(ref, k))


def environment() -> dict:
    """What the knobs act on here: torch version, CPU capability, oneDNN, threads, GPU.

    Examples
    --------
    >>> "torch" in environment()
    True
    """
    import torch

    info = {
        "torch": torch.__version__,
        "cpu capability": torch.backends.cpu.get_cpu_capability(),
        "oneDNN available": torch.backends.mkldnn.is_available(),
        "MKL available": torch.backends.mkl.is_available(),
        "default intra-op threads": torch.get_num_threads(),
        "CPU cores": os.cpu_count(),
        "CUDA available": torch.cuda.is_available(),
    }
    if torch.cuda.is_available():  # pragma: no cover - no GPU in CI
        info["GPU"] = torch.cuda.get_device_name(0)
        info["cuDNN"] = torch.backends.cudnn.version()
    return info
