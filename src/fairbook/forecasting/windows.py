"""PTN's three inputs and its target, cut from normalised Lorenz trajectories (seed 003, 5.3.2).

The data contract shared by PTN, TiDE and the baselines: for a window ending at time index
``t`` of one trajectory (``N`` windows in a batch),

* ``static (N, 3)``            normalised ``(σ, ρ, β)``;
* ``history (N, 16, 3)``       normalised ``(x, y, z)`` at ``t − 15 … t`` (``t`` included);
* ``forecasts (N, 10, 16, 3)`` the deterministic (NVAR) forecasts in *parallel time*:
  ``forecasts[:, k]`` is the forecast **issued at** ``t − k`` (``k = 0 … 9``) and
  ``forecasts[:, k, h − 1]`` forecasts step ``t − k + h`` (``h = 1 … 16``); so forecast 0 is
  the most recent one and covers exactly the target window;
* ``target (N, 16)``           normalised ``x`` at ``t + 1 … t + 16``;
* ``deterministic (N, 16)``    ``forecasts[:, 0, :, 0]``, the deterministic forecast of the
  target (the Normal baseline's mean);
* ``system``, ``start``, ``t`` index arrays: the system (row of the partition's ``params``), the
  initial condition (``start``: which of that system's trajectories) and the time index ``t``.

Normalisation (:class:`Normaliser`): min–max to ``[0, 1]`` per channel, fitted on the
neural-training partition's trajectories (other partitions may leave ``[0, 1]`` slightly; they
are *not* clipped); the static parameters are scaled by their sampling ranges
(:data:`fairbook.forecasting.lorenz.PARAMETER_RANGES`). The NVAR forecaster is fitted on and
applied to *normalised* states, so its forecasts are normalised too.

Valid windows: ``t`` from ``max(15, burn_in, lag + 9)`` (all ten forecasts exist; ``lag`` is the
forecaster's, see :class:`~fairbook.forecasting.nvar.NVARForecaster`) to ``T − 17``, every
``stride``-th.

Examples
--------
>>> from fairbook.forecasting.lorenz import make_partitions
>>> parts = make_partitions(n_systems=1, n_initial=1, t_end=6.0, n_times=61, seed=0,
...                         partitions=("neural_train",))
>>> norm = Normaliser.fit(parts["neural_train"].trajectories)
>>> s = norm.transform(parts["neural_train"].trajectories)
>>> float(s.min()), float(s.max())
(0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np
import torch
from tqdm.auto import tqdm

from .lorenz import PARAMETER_RANGES, make_partitions
from .nvar import NVARForecaster

__all__ = [
    "Normaliser",
    "Windows",
    "build_windows",
    "float32_tensor",
    "lorenz_pipeline",
    "make_windows",
    "warm_start_split",
]


def float32_tensor(value) -> torch.Tensor:
    """``value`` (array-like or tensor) as a float32 tensor, safe for read-only arrays.

    A read-only array — a memory map, such as joblib hands to worker processes — is copied
    while converting: torch cannot share memory it may not write (it warns, and writing
    would be undefined). Writable arrays are shared or converted as ``torch.as_tensor``
    does; tensors are detached.

    Examples
    --------
    >>> a = np.arange(3.0)
    >>> a.flags.writeable = False
    >>> float32_tensor(a)
    tensor([0., 1., 2.])
    """
    if torch.is_tensor(value):
        return value.detach().to(torch.float32)
    array = np.asarray(value)
    if not array.flags.writeable:
        array = np.array(array, dtype=np.float32)
    return torch.as_tensor(array, dtype=torch.float32)


@dataclass(frozen=True)
class Normaliser:
    """Per-channel min–max scaling of states to ``[0, 1]``, and of static parameters.

    Attributes
    ----------
    state_min, state_max : ndarray, shape (c,)
    static_min, static_max : ndarray, shape (p,)

    Examples
    --------
    >>> n = Normaliser.fit(np.array([[0.0, 10.0], [2.0, 30.0]]))
    >>> n.transform([[1.0, 20.0]])
    array([[0.5, 0.5]])
    >>> n.inverse([[0.5, 0.5]])
    array([[ 1., 20.]])
    """

    state_min: np.ndarray
    state_max: np.ndarray
    static_min: np.ndarray
    static_max: np.ndarray

    @classmethod
    def fit(cls, trajectories, *, static_ranges=PARAMETER_RANGES) -> Normaliser:
        """Fit the state scaling on ``trajectories (..., c)``; static ranges ``(p, 2)``."""
        s = np.asarray(trajectories, dtype=float)
        if s.ndim < 1 or s.size == 0:
            raise ValueError(f"trajectories must be a non-empty array (..., c); got {s.shape}")
        if not np.isfinite(s).all():
            raise ValueError("trajectories contain NaN or infinite values")
        flat = s.reshape(-1, s.shape[-1])
        lo, hi = flat.min(0), flat.max(0)
        if (hi <= lo).any():
            raise ValueError(
                f"constant channel(s) {np.flatnonzero(hi <= lo).tolist()} cannot be min-max scaled"
            )
        r = np.asarray(static_ranges, dtype=float)
        if r.ndim != 2 or r.shape[1] != 2 or (r[:, 1] <= r[:, 0]).any():
            raise ValueError(f"static_ranges must be (p, 2) with low < high; got {r.tolist()}")
        return cls(lo, hi, r[:, 0].copy(), r[:, 1].copy())

    @staticmethod
    def _last(x, lo, name):
        x = np.asarray(x, dtype=float)
        if x.ndim < 1 or x.shape[-1] != len(lo):
            raise ValueError(f"{name} must end in an axis of length {len(lo)}; got {x.shape}")
        return x

    def transform(self, states) -> np.ndarray:
        """States ``(..., c)`` → ``(s − min) / (max − min)``."""
        s = self._last(states, self.state_min, "states")
        return (s - self.state_min) / (self.state_max - self.state_min)

    def inverse(self, states) -> np.ndarray:
        """Normalised states ``(..., c)`` → physical units."""
        s = self._last(states, self.state_min, "states")
        return s * (self.state_max - self.state_min) + self.state_min

    def inverse_channel(self, values, channel: int = 0) -> np.ndarray:
        """Any-shaped normalised values of one channel (default ``x``) → physical units.

        Use it for quantiles ``(N, 16, 111)`` or targets ``(N, 16)`` of ``x``.
        """
        v = np.asarray(values, dtype=float)
        return v * (self.state_max[channel] - self.state_min[channel]) + self.state_min[channel]

    def transform_static(self, params) -> np.ndarray:
        """Static parameters ``(..., p)`` → scaled by their ranges."""
        p = self._last(params, self.static_min, "params")
        return (p - self.static_min) / (self.static_max - self.static_min)

    def inverse_static(self, params) -> np.ndarray:
        """Scaled static parameters ``(..., p)`` → physical units."""
        p = self._last(params, self.static_min, "params")
        return p * (self.static_max - self.static_min) + self.static_min


@dataclass(frozen=True)
class Windows:
    """A batch of PTN windows (see the module docstring for the contract).

    Arrays are float32 (indices int64) and share their first axis ``N``.

    Examples
    --------
    >>> w = Windows(np.zeros((2, 3)), np.zeros((2, 16, 3)), np.zeros((2, 10, 16, 3)),
    ...             np.zeros((2, 16)), np.zeros((2, 16)), np.zeros(2, int), np.zeros(2, int),
    ...             np.array([15, 16]))
    >>> len(w), len(w.subset([1])), w.subset([1]).t.tolist()
    (2, 1, [16])
    """

    static: np.ndarray
    history: np.ndarray
    forecasts: np.ndarray
    target: np.ndarray
    deterministic: np.ndarray
    system: np.ndarray
    start: np.ndarray
    t: np.ndarray

    def __post_init__(self):
        sizes = {f.name: len(getattr(self, f.name)) for f in fields(self)}
        if len(set(sizes.values())) != 1:
            raise ValueError(f"the arrays disagree on the number of windows: {sizes}")

    def __len__(self) -> int:
        return len(self.target)

    def subset(self, idx) -> Windows:
        """The windows at ``idx`` (indices, slice or boolean mask)."""
        return Windows(*(getattr(self, f.name)[idx] for f in fields(self)))

    @classmethod
    def concat(cls, parts) -> Windows:
        """Concatenate several :class:`Windows` (e.g. two partitions)."""
        parts = list(parts)
        if not parts:
            raise ValueError("concat needs at least one Windows")
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))

    def to_torch(self) -> dict[str, torch.Tensor]:
        """``static, history, forecasts, target, deterministic`` as float32 tensors."""
        return {
            name: float32_tensor(np.ascontiguousarray(getattr(self, name)))
            for name in ("static", "history", "forecasts", "target", "deterministic")
        }


def warm_start_split(windows: Windows, fraction: float) -> tuple[Windows, Windows]:
    """Split left-out windows into a warm-start part and the part that is scored.

    Seed 003 (Sec. 5.5) trains the final network on the DARTS data, "then implement[s] a warm
    start by training on a fraction of the left out data before testing on the rest". The
    split here is by trajectory: within each system, the first ``round(fraction · I)`` of
    its ``I`` initial conditions (``start``) go to the warm start, the others are scored. So
    every test system is seen in the warm start, but no scored trajectory is.

    Parameters
    ----------
    windows : Windows
    fraction : float
        In ``[0, 1)``; 0 gives an empty warm-start part.

    Returns
    -------
    (Windows, Windows)
        The warm-start windows and the scored windows.

    Examples
    --------
    >>> n = 6
    >>> w = Windows(np.zeros((n, 1)), np.zeros((n, 1, 1)), np.zeros((n, 1, 1, 1)),
    ...             np.zeros((n, 1)), np.zeros((n, 1)), np.array([0, 0, 0, 1, 1, 1]),
    ...             np.array([0, 1, 2, 0, 1, 2]), np.zeros(n, int))
    >>> warm, rest = warm_start_split(w, 1 / 3)
    >>> warm.start.tolist(), rest.start.tolist()
    ([0, 0], [1, 2, 1, 2])
    """
    if not 0 <= fraction < 1:
        raise ValueError(f"fraction must be in [0, 1); got {fraction!r}")
    warm = np.zeros(len(windows), dtype=bool)
    for s in np.unique(windows.system):
        mine = windows.system == s
        starts = np.unique(windows.start[mine])
        chosen = starts[: int(round(fraction * len(starts)))]
        warm |= mine & np.isin(windows.start, chosen)
    if fraction > 0 and (warm.all() or not warm.any()):
        raise ValueError(
            f"fraction {fraction} leaves one side empty: each system needs initial conditions "
            "on both sides of the split"
        )
    return windows.subset(warm), windows.subset(~warm)


def make_windows(
    states,
    static,
    rolled,
    *,
    history: int = 16,
    n_forecasts: int = 10,
    stride: int = 1,
    burn_in: int = 0,
) -> Windows:
    """Cut every valid window from normalised trajectories and their rolled forecasts.

    Parameters
    ----------
    states : array_like, shape (S, I, T, c)
        Normalised trajectories (``c ≥ 1``; the target is channel 0).
    static : array_like, shape (S, p)
        Normalised parameters of each system.
    rolled : array_like, shape (S, I, T, H, c)
        ``rolled[s, i, t]``: the forecast issued at ``t`` (NaN where none), as returned by
        :meth:`NVARForecaster.rolling`. ``H`` is the horizon.
    history, n_forecasts, stride, burn_in : int
        Window length, forecasts per window, step between window ends, first allowed ``t``.

    Returns
    -------
    Windows

    Examples
    --------
    >>> s = np.arange(40.0).reshape(1, 1, 40, 1)
    >>> rolled = s[..., None, :] + np.arange(1.0, 4.0)[:, None]    # perfect 3-step forecasts
    >>> w = make_windows(s, np.zeros((1, 1)), rolled, history=4, n_forecasts=2)
    >>> w.t[0], w.target[0].tolist(), w.forecasts[0, 1, :, 0].tolist()
    (np.int64(3), [4.0, 5.0, 6.0], [3.0, 4.0, 5.0])
    """
    s = np.asarray(states, dtype=float)
    st = np.asarray(static, dtype=float)
    r = np.asarray(rolled, dtype=float)
    if s.ndim != 4:
        raise ValueError(f"states must be shaped (S, I, T, c); got {s.shape}")
    n_sys, n_init, n_t, c = s.shape
    if st.ndim != 2 or st.shape[0] != n_sys:
        raise ValueError(f"static must be shaped ({n_sys}, p); got {st.shape}")
    if r.ndim != 5 or r.shape[:3] != s.shape[:3] or r.shape[-1] != c:
        raise ValueError(f"rolled must be shaped ({n_sys}, {n_init}, {n_t}, H, {c}); got {r.shape}")
    for name, v, low in (
        ("history", history, 1),
        ("n_forecasts", n_forecasts, 1),
        ("stride", stride, 1),
        ("burn_in", burn_in, 0),
    ):
        if int(v) != v or v < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {v!r}")
    horizon = r.shape[3]
    issued = np.isfinite(r).all(axis=(0, 1, 3, 4))
    if not issued.any():
        raise ValueError("rolled holds no complete forecast")
    lag = int(np.argmax(issued))
    if not issued[lag:].all():
        raise ValueError("rolled has NaN forecasts after the first complete one")
    t_min = max(history - 1, burn_in, lag + n_forecasts - 1)
    ts = np.arange(t_min, n_t - horizon, stride)
    if len(ts) == 0:
        raise ValueError(f"no valid window: need T > {t_min + horizon}; got T = {n_t}")
    si, ii, tt = (
        a.ravel() for a in np.meshgrid(np.arange(n_sys), np.arange(n_init), ts, indexing="ij")
    )
    hist_t = tt[:, None] + np.arange(1 - history, 1)
    fc_t = tt[:, None] - np.arange(n_forecasts)
    tgt_t = tt[:, None] + np.arange(1, horizon + 1)
    r, s = r.astype(np.float32), s.astype(np.float32)  # gather in float32: half the memory
    forecasts = r[si[:, None], ii[:, None], fc_t]
    return Windows(
        static=st[si].astype(np.float32),
        history=s[si[:, None], ii[:, None], hist_t],
        forecasts=forecasts,
        target=s[si[:, None], ii[:, None], tgt_t, 0],
        deterministic=forecasts[:, 0, :, 0].copy(),
        system=si.astype(np.int64),
        start=ii.astype(np.int64),
        t=tt.astype(np.int64),
    )


def build_windows(
    partition,
    normaliser: Normaliser,
    forecaster: NVARForecaster,
    *,
    history: int = 16,
    n_forecasts: int = 10,
    stride: int = 1,
    burn_in: int = 0,
) -> Windows:
    """Normalise a :class:`~fairbook.forecasting.lorenz.LorenzPartition`, roll the (fitted,
    normalised-space) forecaster over it and cut its windows with :func:`make_windows`.

    Works one system at a time, so the float64 rolled forecasts of only one system are held
    in memory (at the paper's scale a whole partition's would take 2.4 GB); the windows
    themselves are float32, about ``2 kB`` each — choose ``stride`` accordingly.
    """
    static = normaliser.transform_static(partition.params)
    parts = []
    for s in range(partition.params.shape[0]):
        states = normaliser.transform(partition.trajectories[s : s + 1])
        w = make_windows(
            states,
            static[s : s + 1],
            forecaster.rolling(states),
            history=history,
            n_forecasts=n_forecasts,
            stride=stride,
            burn_in=burn_in,
        )
        parts.append(replace(w, system=np.full(len(w), s, dtype=np.int64)))
    return Windows.concat(parts)


def lorenz_pipeline(
    *,
    n_systems: int = 50,
    n_initial: int = 125,
    seed: int = 0,
    t_end: float = 100.0,
    n_times: int = 1000,
    stride: int = 1,
    burn_in: int = 0,
    share_systems: bool = False,
    nvar: dict | None = None,
    integrator: str = "DOP853",
    n_jobs: int = 1,
    progress=None,
) -> dict:
    """Simulation → normaliser → NVAR → windows for the five partitions, in one call.

    The normaliser and the NVAR forecaster are fitted on ``neural_train`` only.

    Parameters
    ----------
    n_systems, n_initial, seed, t_end, n_times, share_systems, integrator, n_jobs, progress
        Passed to :func:`~fairbook.forecasting.lorenz.make_partitions`.
    stride, burn_in
        Passed to :func:`make_windows`.
    nvar : dict, optional
        Keyword arguments of :class:`~fairbook.forecasting.nvar.NVARForecaster` (its
        ``seed`` defaults to ``seed``).

    Returns
    -------
    dict
        ``partitions`` (name → LorenzPartition), ``normaliser``, ``forecaster`` and
        ``windows`` (name → Windows).

    Examples
    --------
    >>> out = lorenz_pipeline(n_systems=1, n_initial=1, t_end=6.0, n_times=61, stride=8,
    ...                       nvar={"epochs": 0})
    >>> sorted(out["windows"]), out["windows"]["test"].forecasts.shape[1:]
    (['genetic_train', 'genetic_val', 'neural_train', 'neural_val', 'test'], (10, 16, 3))
    """
    parts = make_partitions(
        n_systems=n_systems,
        n_initial=n_initial,
        seed=seed,
        t_end=t_end,
        n_times=n_times,
        share_systems=share_systems,
        integrator=integrator,
        n_jobs=n_jobs,
        progress=progress,
    )
    normaliser = Normaliser.fit(parts["neural_train"].trajectories)
    kwargs = {"seed": seed, **(nvar or {})}
    forecaster = NVARForecaster(**kwargs).fit(
        normaliser.transform(parts["neural_train"].trajectories)
    )
    windows = {
        name: build_windows(p, normaliser, forecaster, stride=stride, burn_in=burn_in)
        for name, p in tqdm(
            parts.items(), desc="windows", disable=None if progress is None else not progress
        )
    }
    return {
        "partitions": parts,
        "normaliser": normaliser,
        "forecaster": forecaster,
        "windows": windows,
    }
