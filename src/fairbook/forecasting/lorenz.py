"""The Lorenz system and the five-way data partition of seed 003, Sec. 5.3.2 and 5.5.

``dx/dt = σ(y − x)``, ``dy/dt = x(ρ − z) − y``, ``dz/dt = xy − βz`` (Eqs. 5.1–5.3), integrated
with SciPy's ``solve_ivp`` (DOP853 by default, :func:`simulate`) and evaluated at ``n_times``
evenly spaced times on ``[0, t_end]`` (the paper: 1000 times on ``[0, 100]``, so ``Δt = 0.1``).
For many trajectories, :func:`simulate_rk4` integrates a whole batch at once with fixed-step
RK4 at the same accuracy (``make_partitions(integrator="rk4")``; 6250 trajectories of the
paper's length in well under a minute rather than the ~30 minutes of one ``solve_ivp``
call each).

Systems are drawn as σ ~ U(8, 12), ρ ~ U(27.9, 28.1), β ~ U(7.9/3, 8.1/3) and initial
conditions by Eq. 5.4, ``(x0, y0, z0) ~ (U(−20, 20), U(−20, 20), U(0, 40))``.

The partition, as read here: "50 systems with randomly initialized parameters and 125
different, random initial conditions for each data partition" is taken to mean that **every
partition draws its own systems** (``share_systems=False``, the default): the five
partitions (``neural_train``, ``neural_val``, ``genetic_train``, ``genetic_val``, ``test``)
have disjoint parameter sets, so the test partition measures generalisation to unseen
(σ, ρ, β) — which is what the static input is for. ``share_systems=True`` draws one set of
systems used by all partitions (only the initial conditions differ). Each partition's draws
come from its own child of ``np.random.SeedSequence(seed)``, so a partition's content depends
only on ``seed``, its position in ``PARTITIONS`` and the sizes, not on the other partitions.

Examples
--------
>>> parts = make_partitions(n_systems=1, n_initial=2, t_end=2.0, n_times=21, seed=0)
>>> parts["test"].trajectories.shape
(1, 2, 21, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp
from tqdm.auto import tqdm

from ..papers.seed003 import LORENZ_PROTOCOL
from ..parallel import ordered_map

__all__ = [
    "PARAMETER_RANGES",
    "INITIAL_RANGES",
    "PARTITIONS",
    "LorenzPartition",
    "equilibria",
    "lorenz_rhs",
    "make_partitions",
    "sample_initial_conditions",
    "sample_systems",
    "simulate",
    "simulate_rk4",
]

#: U ranges of (σ, ρ, β), Sec. 5.3.2.
PARAMETER_RANGES = np.array(
    [LORENZ_PROTOCOL["sigma"], LORENZ_PROTOCOL["rho"], LORENZ_PROTOCOL["beta"]], dtype=float
)
#: U ranges of (x0, y0, z0), Eq. 5.4.
INITIAL_RANGES = np.array(
    [LORENZ_PROTOCOL["x0"], LORENZ_PROTOCOL["y0"], LORENZ_PROTOCOL["z0"]], dtype=float
)
#: The five partitions of Sec. 5.4.2, in seeding order.
PARTITIONS = ("neural_train", "neural_val", "genetic_train", "genetic_val", "test")


def lorenz_rhs(t, state, sigma, rho, beta):
    """Eqs. 5.1–5.3: the time derivative of ``state = (x, y, z)`` (last axis).

    Examples
    --------
    >>> lorenz_rhs(0.0, np.array([1.0, 1.0, 1.0]), 10.0, 28.0, 8 / 3)
    array([ 0.        , 26.        , -1.66666667])
    """
    x, y, z = state[..., 0], state[..., 1], state[..., 2]
    return np.stack((sigma * (y - x), x * (rho - z) - y, x * y - beta * z), axis=-1)


def _rhs(t, s, sigma, rho, beta):
    x, y, z = s
    return np.array((sigma * (y - x), x * (rho - z) - y, x * y - beta * z))


def _jac(t, s, sigma, rho, beta):
    x, y, z = s
    return np.array(((-sigma, sigma, 0.0), (rho - z, -1.0, -x), (y, x, -beta)))


def equilibria(sigma, rho, beta) -> np.ndarray:
    """The fixed points: the origin and ``C± = (±√(β(ρ−1)), ±√(β(ρ−1)), ρ−1)`` (ρ > 1).

    Returns
    -------
    ndarray, shape (3, 3)
        Rows: origin, C+, C−.

    Examples
    --------
    >>> equilibria(10.0, 28.0, 8 / 3)[1].round(4)
    array([ 8.4853,  8.4853, 27.    ])
    """
    if not rho > 1:
        raise ValueError(f"C± exist only for rho > 1; got rho={rho!r}")
    r = np.sqrt(beta * (rho - 1.0))
    return np.array([[0.0, 0.0, 0.0], [r, r, rho - 1.0], [-r, -r, rho - 1.0]])


def simulate(
    sigma,
    rho,
    beta,
    x0,
    *,
    t_end: float = 100.0,
    n_times: int = 1000,
    rtol: float = 1e-9,
    atol: float = 1e-9,
    method: str = "DOP853",
) -> np.ndarray:
    """Integrate one Lorenz system from ``x0`` and evaluate it at ``linspace(0, t_end, n_times)``.

    Parameters
    ----------
    sigma, rho, beta : float
        The parameters (any finite reals; the paper's ranges are only for sampling).
    x0 : array_like, shape (3,)
        Initial ``(x, y, z)``.
    t_end : float, default 100.0
    n_times : int, default 1000
        Number of evaluation times, including ``0`` and ``t_end``.
    rtol, atol : float, default 1e-9
        ``solve_ivp`` tolerances.
    method : str, default "DOP853"
        Any ``solve_ivp`` method.

    Returns
    -------
    ndarray, shape (n_times, 3)

    Examples
    --------
    >>> traj = simulate(10.0, 28.0, 8 / 3, [1.0, 1.0, 1.0], t_end=1.0, n_times=11)
    >>> traj.shape, traj[0].tolist()
    ((11, 3), [1.0, 1.0, 1.0])
    """
    params = np.array([sigma, rho, beta], dtype=float)
    x0 = np.asarray(x0, dtype=float)
    if x0.shape != (3,):
        raise ValueError(f"x0 must have shape (3,); got {x0.shape}")
    if not (np.isfinite(params).all() and np.isfinite(x0).all()):
        raise ValueError(f"parameters and x0 must be finite; got {params.tolist()}, {x0.tolist()}")
    if not t_end > 0:
        raise ValueError(f"t_end must be positive; got {t_end!r}")
    if int(n_times) != n_times or n_times < 2:
        raise ValueError(f"n_times must be an integer >= 2; got {n_times!r}")
    if not (rtol > 0 and atol > 0):
        raise ValueError(f"rtol and atol must be positive; got {rtol!r}, {atol!r}")
    times = np.linspace(0.0, float(t_end), int(n_times))
    extra = {"jac": _jac} if method in ("Radau", "BDF", "LSODA") else {}
    sol = solve_ivp(
        _rhs,
        (0.0, float(t_end)),
        x0,
        method=method,
        t_eval=times,
        args=tuple(params),
        rtol=rtol,
        atol=atol,
        **extra,
    )
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed: {sol.message}")
    return sol.y.T.copy()


def simulate_rk4(
    params, x0, *, t_end: float = 100.0, n_times: int = 1000, substeps: int = 100
) -> np.ndarray:
    """Integrate many Lorenz systems at once with classical fixed-step RK4 (vectorised).

    Each output interval ``t_end / (n_times − 1)`` is split into ``substeps`` RK4 steps. The
    default, ``h = 0.1 / 100 = 0.001`` on the paper's grid, is within about ``1e-6`` (absolute)
    of DOP853 at ``rtol = atol = 1e-13`` over ``t ≤ 2`` from Eq. 5.4's initial conditions — as
    close as :func:`simulate`'s default DOP853 at ``1e-9``. The arithmetic is elementwise, so a
    trajectory's numbers do not depend on the others in the batch. Much faster than a loop of
    :func:`simulate` for many trajectories (one NumPy pass per step for the whole batch).

    Parameters
    ----------
    params : array_like, shape (B, 3)
        ``(σ, ρ, β)`` of each trajectory.
    x0 : array_like, shape (B, 3)
    t_end, n_times
        As in :func:`simulate`.
    substeps : int, default 100

    Returns
    -------
    ndarray, shape (B, n_times, 3)

    Examples
    --------
    >>> out = simulate_rk4([[10.0, 28.0, 8 / 3]], [[1.0, 1.0, 1.0]], t_end=1.0, n_times=11)
    >>> bool(np.allclose(out[0], simulate(10.0, 28.0, 8 / 3, [1.0, 1.0, 1.0], t_end=1.0,
    ...                                   n_times=11), atol=1e-7))
    True
    """
    p = np.asarray(params, dtype=float)
    s = np.array(x0, dtype=float)
    if p.ndim != 2 or p.shape[1] != 3 or s.shape != p.shape:
        raise ValueError(f"params and x0 must both be shaped (B, 3); got {p.shape}, {s.shape}")
    if not (np.isfinite(p).all() and np.isfinite(s).all()):
        raise ValueError("params and x0 must be finite")
    if not t_end > 0:
        raise ValueError(f"t_end must be positive; got {t_end!r}")
    if int(n_times) != n_times or n_times < 2:
        raise ValueError(f"n_times must be an integer >= 2; got {n_times!r}")
    if int(substeps) != substeps or substeps < 1:
        raise ValueError(f"substeps must be a positive integer; got {substeps!r}")
    sigma, rho, beta = p[:, 0], p[:, 1], p[:, 2]
    h = float(t_end) / (int(n_times) - 1) / int(substeps)
    x, y, z = s[:, 0].copy(), s[:, 1].copy(), s[:, 2].copy()
    out = np.empty((len(p), int(n_times), 3))
    out[:, 0] = s

    def f(x, y, z):
        return sigma * (y - x), x * (rho - z) - y, x * y - beta * z

    for i in range(1, int(n_times)):
        for _ in range(int(substeps)):
            a1, b1, c1 = f(x, y, z)
            a2, b2, c2 = f(x + h / 2 * a1, y + h / 2 * b1, z + h / 2 * c1)
            a3, b3, c3 = f(x + h / 2 * a2, y + h / 2 * b2, z + h / 2 * c2)
            a4, b4, c4 = f(x + h * a3, y + h * b3, z + h * c3)
            x = x + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
            y = y + h / 6 * (b1 + 2 * b2 + 2 * b3 + b4)
            z = z + h / 6 * (c1 + 2 * c2 + 2 * c3 + c4)
        out[:, i, 0], out[:, i, 1], out[:, i, 2] = x, y, z
    return out


def _uniform(rng: np.random.Generator, ranges: np.ndarray, size: int) -> np.ndarray:
    return rng.uniform(ranges[:, 0], ranges[:, 1], size=(size, len(ranges)))


def _check_count(name, n):
    if int(n) != n or n < 1:
        raise ValueError(f"{name} must be a positive integer; got {n!r}")
    return int(n)


def sample_systems(n_systems: int, *, seed=0) -> np.ndarray:
    """Draw ``(σ, ρ, β)`` uniformly from :data:`PARAMETER_RANGES`.

    Parameters
    ----------
    n_systems : int
    seed : int, SeedSequence or Generator, default 0

    Returns
    -------
    ndarray, shape (n_systems, 3)

    Examples
    --------
    >>> p = sample_systems(5, seed=1)
    >>> bool(((p >= PARAMETER_RANGES[:, 0]) & (p <= PARAMETER_RANGES[:, 1])).all())
    True
    """
    n = _check_count("n_systems", n_systems)
    return _uniform(np.random.default_rng(seed), PARAMETER_RANGES, n)


def sample_initial_conditions(n: int, *, seed=0) -> np.ndarray:
    """Draw initial conditions by Eq. 5.4.

    Returns
    -------
    ndarray, shape (n, 3)

    Examples
    --------
    >>> sample_initial_conditions(2, seed=0).shape
    (2, 3)
    """
    n = _check_count("n", n)
    return _uniform(np.random.default_rng(seed), INITIAL_RANGES, n)


@dataclass(frozen=True)
class LorenzPartition:
    """One data partition: ``S`` systems × ``I`` initial conditions, in physical units.

    Attributes
    ----------
    name : str
    params : ndarray, shape (S, 3)
        ``(σ, ρ, β)`` of each system.
    initial : ndarray, shape (S, I, 3)
        The initial conditions (each system has its own ``I`` draws).
    trajectories : ndarray, shape (S, I, n_times, 3)
    times : ndarray, shape (n_times,)
    """

    name: str
    params: np.ndarray
    initial: np.ndarray
    trajectories: np.ndarray
    times: np.ndarray

    @property
    def n_systems(self) -> int:
        return self.params.shape[0]

    @property
    def n_initial(self) -> int:
        return self.initial.shape[1]


def make_partitions(
    *,
    n_systems: int = 50,
    n_initial: int = 125,
    seed: int = 0,
    partitions=PARTITIONS,
    share_systems: bool = False,
    t_end: float = 100.0,
    n_times: int = 1000,
    rtol: float = 1e-9,
    atol: float = 1e-9,
    integrator: str = "DOP853",
    substeps: int = 100,
    n_jobs: int = 1,
    progress=None,
) -> dict[str, LorenzPartition]:
    """Simulate the five partitions of Sec. 5.5 (defaults: the paper's 50 × 125 × 1000).

    Parameters
    ----------
    n_systems, n_initial : int
        Systems per partition and initial conditions per system.
    seed : int, default 0
    partitions : sequence of str, default PARTITIONS
        Which partitions to build (names from :data:`PARTITIONS`; a subset gives the same
        content for each as the full call).
    share_systems : bool, default False
        False: each partition draws its own systems (disjoint parameters). True: one set of
        systems, drawn from the seed's first child, is shared by every partition.
    t_end, n_times, rtol, atol
        Passed to :func:`simulate`.
    integrator : str, default "DOP853"
        A ``solve_ivp`` method (one adaptive solve per trajectory, see :func:`simulate`), or
        ``"rk4"``: all trajectories of a partition at once with :func:`simulate_rk4`
        (``substeps`` per output step) — about two orders of magnitude faster at full scale.
    substeps : int, default 100
        Only for ``integrator="rk4"``.
    n_jobs : int, default 1
        joblib workers over trajectories (1: a plain loop; ignored by ``"rk4"``).
    progress : bool or None, default None
        tqdm's ``disable`` is ``not progress`` (None: auto, hidden off a terminal).

    Returns
    -------
    dict of str to LorenzPartition

    Examples
    --------
    >>> p = make_partitions(n_systems=2, n_initial=1, t_end=1.0, n_times=11,
    ...                     partitions=("neural_train", "test"), seed=3)
    >>> sorted(p), p["test"].params.shape
    (['neural_train', 'test'], (2, 3))
    """
    n_systems = _check_count("n_systems", n_systems)
    n_initial = _check_count("n_initial", n_initial)
    names = tuple(partitions)
    unknown = [n for n in names if n not in PARTITIONS]
    if unknown or not names or len(set(names)) != len(names):
        raise ValueError(f"partitions must be distinct names from {PARTITIONS}; got {names}")
    children = np.random.SeedSequence(seed).spawn(len(PARTITIONS) + 1)
    shared = sample_systems(n_systems, seed=children[-1]) if share_systems else None
    jobs, meta = [], {}
    for name in names:
        rng = np.random.default_rng(children[PARTITIONS.index(name)])
        params = shared if share_systems else _uniform(rng, PARAMETER_RANGES, n_systems)
        initial = _uniform(rng, INITIAL_RANGES, n_systems * n_initial).reshape(
            n_systems, n_initial, 3
        )
        meta[name] = (params, initial)
        jobs += [
            (name, s, i, params[s], initial[s, i])
            for s in range(n_systems)
            for i in range(n_initial)
        ]
    kwargs = dict(t_end=t_end, n_times=n_times, rtol=rtol, atol=atol, method=integrator)
    disable = None if progress is None else not progress
    if integrator == "rk4":
        # batches of 512 trajectories (each trajectory's numbers do not depend on its batch)
        params_all = np.array([j[3] for j in jobs])
        initial_all = np.array([j[4] for j in jobs])
        results = []
        with tqdm(total=len(jobs), desc="Lorenz (RK4)", disable=disable) as bar:
            for lo in range(0, len(jobs), 512):
                batch = simulate_rk4(
                    params_all[lo : lo + 512],
                    initial_all[lo : lo + 512],
                    t_end=t_end,
                    n_times=n_times,
                    substeps=substeps,
                )
                results += list(batch)
                bar.update(len(batch))
        return _assemble(names, meta, jobs, results, n_systems, n_initial, n_times, t_end)
    calls = [((*p, x0), kwargs) for _, _, _, p, x0 in jobs]
    results = list(
        tqdm(
            ordered_map(simulate, calls, n_jobs=n_jobs),
            total=len(jobs),
            desc="Lorenz",
            disable=disable,
        )
    )
    return _assemble(names, meta, jobs, results, n_systems, n_initial, n_times, t_end)


def _assemble(names, meta, jobs, results, n_systems, n_initial, n_times, t_end):
    times = np.linspace(0.0, float(t_end), int(n_times))
    out = {}
    for name in names:
        params, initial = meta[name]
        traj = np.empty((n_systems, n_initial, int(n_times), 3))
        out[name] = LorenzPartition(name, params, initial, traj, times)
    for (name, s, i, _, _), r in zip(jobs, results, strict=True):
        out[name].trajectories[s, i] = r
    return out
