"""On what device a recording's units train, and refusing a device that is not there.

``fairbook-book record NN NAME --device cuda`` applies only to the recordings named in
:data:`TORCH_RECORDINGS` (their units train torch models), and each says *how* a unit gets
its device:

``"setting"``
    The unit's code already builds its models on ``settings["device"]`` (chapter 06's FIT
    harness, :class:`fairbook.variance.determinism.Knobs`; chapter 08's ``run_once`` and
    ``stage_costs``). ``--device`` sets that key, through the chapter's own
    ``settings(profile, device=...)``: nothing else changes, so no fingerprinted module is
    touched and no recording goes stale.
``"gpu"``
    The recording exists to run on CUDA (chapter 06's ``gpu``): ``--device cuda`` is what it
    does anyway, ``--device cpu`` is refused.
``"cpu"``
    The unit trains torch models on the CPU only, for the reason given. A torch default
    device (``torch.set_default_device``) would not move it: its code converts tensors to
    and from NumPy (``torch.from_numpy`` makes CPU tensors whatever the default device,
    ``Tensor.numpy()`` refuses a CUDA tensor), so the run would fail halfway. Giving it a
    device means a ``device`` argument in that code, which changes its fingerprint: it is
    then recorded again anyway.

A recording that has ``device`` among its parameters (06 ``study``, 08 ``cost``) and runs on
another device than the CPU is a recording of its own, ``NAME-cuda``
(:func:`on_device`): a unit file names no device, so GPU units in the CPU recording's folder
would replace its CPU units. A recording without ``device`` among its parameters (08
``ptn``) keeps GPU and CPU units in one folder, and its description says that they were
recorded under different kernel signatures (:meth:`fairbook_book.recordings.Recording.describe`).

:func:`check_device` refuses a device that is not there with one line; the recorder calls
it before any unit runs (on every Dask worker too) and again inside each unit.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

__all__ = [
    "TORCH_RECORDINGS",
    "DeviceUnavailable",
    "TorchUse",
    "check_device",
    "cuda_available",
    "device_kind",
    "on_device",
    "torch_use",
]


@dataclass(frozen=True)
class TorchUse:
    """How a recording's units get their device (module docstring): ``how`` is
    ``"setting"``, ``"gpu"`` or ``"cpu"``; ``note`` says where, or why not."""

    how: str
    note: str


_FIT = "the FIT harness builds every model on settings['device'] (fairbook.variance.fit_runs)"
_PTN = "PTN and TiDE are built on config['device'] (runs.run_once)"
_BBB = (
    "fairbook.uncertainty.bayes_by_backprop and .ensemble feed torch.from_numpy() CPU tensors "
    "to their models and read results with .numpy()"
)

#: The recordings whose units train torch models, by ``"<chapter stem>/<recording>"``.
TORCH_RECORDINGS: dict[str, TorchUse] = {
    "04_uncertainty_fairness/study": TorchUse("cpu", _BBB),
    "06_fit_variance/study": TorchUse("setting", _FIT),
    "06_fit_variance/gpu": TorchUse("gpu", "its settings put every FIT run on cuda"),
    "07_conditional_hydragan/seeds": TorchUse(
        "cpu",
        "fairbook.generative.hydragan returns its samples with Tensor.numpy() "
        "(sample_encoded), which a CUDA tensor refuses",
    ),
    "08_parallel_time_networks/ptn": TorchUse("setting", _PTN),
    "08_parallel_time_networks/decisive": TorchUse("setting", _PTN),
    "08_parallel_time_networks/second_order": TorchUse(
        "setting", "PTN is built on config['device'] (_second_order)"
    ),
    "08_parallel_time_networks/cost": TorchUse(
        "setting", "the timed PTN and TiDE are built on config['device'] (_costs.stage_costs)"
    ),
    "10_verdict_stability/verdicts": TorchUse("cpu", _BBB),
    "10_verdict_stability/uncertainty": TorchUse("cpu", _BBB),
}


class DeviceUnavailable(ValueError):
    """The device asked for is not on this machine (one line: which, and why)."""


def device_kind(device: str) -> str:
    """``"cpu"`` or ``"cuda"`` for ``"cpu"``, ``"cuda"``, ``"cuda:N"``; else ``ValueError``.

    Examples
    --------
    >>> device_kind("cuda:1"), device_kind("cpu")
    ('cuda', 'cpu')
    >>> device_kind("gpu")
    Traceback (most recent call last):
    ...
    ValueError: device must be cpu, cuda or cuda:N, got 'gpu'
    """
    text = str(device)
    if text == "cpu" or re.fullmatch(r"cuda(:\d+)?", text):
        return text.split(":")[0]
    raise ValueError(f"device must be cpu, cuda or cuda:N, got {text!r}")


def cuda_available() -> bool:
    """Whether torch sees a CUDA device here (False when torch is not installed).

    Examples
    --------
    >>> isinstance(cuda_available(), bool)
    True
    """
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        return False
    return bool(torch.cuda.is_available())


def check_device(device: str, *, where: str = "this machine") -> str:
    """``device`` if it is here; else :class:`DeviceUnavailable` with one line.

    Parameters
    ----------
    device : str
        ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
    where : str
        Named in the message (``"this machine"``, ``"worker tcp://..."``).

    Examples
    --------
    >>> check_device("cpu")
    'cpu'
    >>> import unittest.mock, torch
    >>> with unittest.mock.patch.object(torch.cuda, "is_available", lambda: False):
    ...     check_device("cuda")
    Traceback (most recent call last):
    ...
    fairbook.devices.DeviceUnavailable: device cuda is not available on this machine ...
    """
    if device_kind(device) == "cpu":
        return device
    import torch

    if not cuda_available():
        built = torch.version.cuda
        why = (
            f"torch {torch.__version__} is built for CUDA {built} but sees no GPU"
            if built
            else f"torch {torch.__version__} is built without CUDA"
        )
        raise DeviceUnavailable(
            f"device {device} is not available on {where} ({why}); record on a machine with "
            "an NVIDIA GPU, or leave out --device"
        )
    index = int(device.split(":")[1]) if ":" in device else 0
    count = torch.cuda.device_count()
    if index >= count:
        raise DeviceUnavailable(
            f"device {device} is not available on {where} (it has {count} CUDA device(s))"
        )
    return device


def torch_use(chapter: str, name: str) -> TorchUse | None:
    """How the units of ``chapter``/``name`` get their device (None: they train no torch
    model, and ``--device`` does not apply).

    Examples
    --------
    >>> torch_use("08_parallel_time_networks", "ptn").how
    'setting'
    >>> torch_use("03_small_groups", "cps") is None
    True
    """
    return TORCH_RECORDINGS.get(f"{chapter}/{name}")


def on_device(recordable, device: str):
    """The recording that units of ``recordable`` run on ``device`` belong to: itself, or,
    when ``device`` is one of its parameters and is not the CPU, a copy named
    ``NAME-cuda`` (same units, code and fingerprint; its own folder).

    Examples
    --------
    >>> from fairbook_book.recordings import Recordable
    >>> r = Recordable("cost", lambda s: [], lambda u, s: None, depends=(),
    ...                parameters=("device",))
    >>> on_device(r, "cuda:0").name, on_device(r, "cpu").name
    ('cost-cuda', 'cost')
    """
    kind = device_kind(device)
    if kind == "cpu" or "device" not in recordable.parameters:
        return recordable
    return dataclasses.replace(recordable, name=f"{recordable.name}-{kind}")
