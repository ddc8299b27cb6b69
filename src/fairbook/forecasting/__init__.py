"""Probabilistic Parallel Time Networks on the Lorenz system (seed 003, chapter 5).

Modules: ``crps`` (the loss and scores, Eqs. 5.5–5.9), ``lorenz`` (simulation and the
five-way partition), ``nvar`` (the deterministic forecaster), ``windows`` (PTN's three inputs),
``baselines`` (Normal and TiDE-style), ``skill`` (Table 5.2's skill scores), ``space``
(Table 5.1), ``ptn`` (the hypermodel), ``darts`` (bilevel training), ``search`` (Algorithm 2).
"""

__all__ = [
    "baselines",
    "crps",
    "darts",
    "lorenz",
    "nvar",
    "ptn",
    "search",
    "skill",
    "space",
    "windows",
]
