"""Chapter 08 (seed 003 ch. 5, PTN): the profiles, the departures from the thesis, the search
space.
"""

from __future__ import annotations

import pandas as pd

from fairbook_book.chapters.profiles import choose_settings
from fairbook.forecasting.space import PTN_SPACE, Choice, make_space
from fairbook.papers.seed003 import LORENZ_PROTOCOL

__all__ = ["DEPARTURES", "PROFILES", "search_space", "settings"]


#: Profile settings. ``fast`` runs the chapter in a few minutes on 2 CPU cores (final cycles
#: of 10 DARTS epochs instead of 30: a demonstration of every step, whose evidence is the
#: recorded decisive profile); ``full``
#: follows the thesis wherever it states the protocol (Sec. 5.4-5.5: the five-way partition
#: of 50 systems x 125 starts, 30 DARTS epochs per candidate, the warm start of the final
#: network on a fraction of the left-out data, seven runs) and decides what it leaves open
#: (population, generations, patience, the warm-start fraction), with windows subsampled
#: every 8th step to fit in memory (about 11 GB per partition at stride 1) and candidates
#: scored on a fixed random subset of ``score_windows`` windows of each genetic partition.
#: ``device`` is where the networks train: ``"cpu"``, ``"cuda"``, or ``"auto"`` (the full
#: profile: ``"cuda"`` when torch sees a GPU, else ``"cpu"``; :func:`settings` resolves it).
#:
#: ``decisive`` is the largest budget of the thesis' protocol that fits a few hours on 2 CPU
#: cores with its seven runs (recorded by ``fairbook record 08 decisive --profile decisive
#: --n-jobs 2``): 30 DARTS epochs per candidate and per final cycle, the warm start, the
#: five-way partition and seven runs as the thesis states them; a smaller world (6 systems ×
#: 6 initial conditions per partition, windows every 4th step), the two smallest hidden
#: sizes of the fast profile, and a search of 6 agents for up to 3 generations, each scored
#: on 512 windows of each genetic partition.
PROFILES = {
    "fast": {
        "n_systems": 3,
        "n_initial": 3,
        "stride": 4,
        "integrator": "rk4",
        "hidden_sizes": (24, 48),
        "population": 4,
        "generations": 2,
        "patience": 2,
        "elite_every": 2,
        "n_elite": 1,
        "epochs": 3,
        "final_epochs": 10,
        "final_cycles": 2,
        "tide_hidden": 64,
        "runs": 2,
        "seed": 0,
        "data_seed": 0,
        "threads": 1,
        "n_jobs": 2,
        "n_quantiles": LORENZ_PROTOCOL["n_quantiles"],
        "score_windows": None,
        "warm_start": 0.0,
        "warm_epochs": LORENZ_PROTOCOL["epochs"],
        "device": "cpu",
    },
    "decisive": {
        "n_systems": 6,
        "n_initial": 6,
        "stride": 4,
        "integrator": "rk4",
        "hidden_sizes": (24, 48),
        "population": 6,
        "generations": 3,
        "patience": 2,
        "elite_every": 2,
        "n_elite": 1,
        "epochs": LORENZ_PROTOCOL["epochs"],
        "final_epochs": LORENZ_PROTOCOL["epochs"],
        "final_cycles": 3,
        "tide_hidden": 256,
        "runs": LORENZ_PROTOCOL["runs"],
        "seed": 0,
        "data_seed": 0,
        "threads": 1,
        "n_jobs": 2,
        "n_quantiles": LORENZ_PROTOCOL["n_quantiles"],
        "score_windows": 512,
        "warm_start": 0.2,
        "warm_epochs": LORENZ_PROTOCOL["epochs"],
        "device": "cpu",
    },
    "full": {
        "n_systems": LORENZ_PROTOCOL["n_systems"],
        "n_initial": LORENZ_PROTOCOL["n_initial"],
        "stride": 8,
        "integrator": "rk4",
        "hidden_sizes": None,
        "population": 16,
        "generations": 20,
        "patience": 3,
        "elite_every": 2,
        "n_elite": 2,
        "epochs": LORENZ_PROTOCOL["epochs"],
        "final_epochs": LORENZ_PROTOCOL["epochs"],
        "final_cycles": 4,
        "tide_hidden": 256,
        "runs": LORENZ_PROTOCOL["runs"],
        "seed": 0,
        "data_seed": 0,
        "threads": 0,
        "n_jobs": 1,
        "n_quantiles": LORENZ_PROTOCOL["n_quantiles"],
        "score_windows": 4096,
        "warm_start": 0.2,
        "warm_epochs": LORENZ_PROTOCOL["epochs"],
        "device": "auto",
    },
}


#: Where the book departs from, or decides what the paper leaves open (shown in the chapter).
DEPARTURES = pd.DataFrame(
    [
        (
            "partitions",
            "50 systems and 125 initial conditions for each partition",
            "each partition draws its own systems, so the test systems are unseen (σ, ρ, β)",
        ),
        (
            "parallel forecasts",
            "ten iterations of 16-step NVAR forecasts",
            "forecast k = 0…9 is the one issued at t − k; forecast 0 covers the target window",
        ),
        (
            "NVAR",
            "an MLP based on NVAR (Shahi et al. 2022)",
            "ridge NVAR read-out (2 delays, 28 features) plus a residual MLP, 16 steps at once",
        ),
        (
            "Normal baseline",
            "sd = the deterministic forecast's MAE",
            "MAE per lead time, measured on neural_val (held out from the NVAR fit)",
        ),
        (
            "DARTS",
            "architecture and weights on separate data, 5 + 10 steps per epoch (order not stated)",
            "first-order DARTS (the architecture gradient at the current weights); "
            "second-order DARTS only in the ablation below",
        ),
        (
            "final network",
            "trained on the DARTS data",
            "the best agent is retrained on the DARTS data for final_cycles back-to-back 30-epoch "
            "DARTS schedules (optimisers and plateau schedules restart each cycle)",
        ),
        (
            "warm start",
            "then trained on a fraction of the left-out data, tested on the rest (fraction and "
            "length not stated)",
            "full profile: the first warm_start of each test system's starts, warm_epochs DARTS "
            "epochs on the weights only (TiDE: as many updates); the fast profile skips it "
            "(warm_start = 0) and scores every test window",
        ),
        (
            "scoring the candidates",
            "mean CRPS on the genetic partitions (all of their windows)",
            "full profile: a fixed random subset of score_windows windows of each genetic "
            "partition, the same for every candidate of a run (its rank agreement with all "
            "windows is measured by the bench_ptn_search benchmark); fast: every window",
        ),
        (
            "search budget",
            "population, generations, patience and tournament size not stated",
            "population 16, up to 20 generations, patience 3, tournaments of 2 (full profile)",
        ),
        (
            "windows",
            "every time step of every trajectory",
            "every stride-th step (8 in the full profile): memory",
        ),
        (
            "TiDE budget",
            "not stated",
            "TiDE gets about the same number of weight updates per cycle "
            "as PTN (one 30-epoch cycle = 300 updates of batch 64), in whole epochs of at least "
            "one: at the full profile's window counts one TiDE epoch is far more updates than "
            "a PTN cycle, so there TiDE gets more",
        ),
        ("runs", "seven runs aggregated", "runs differ in every seed but the data's; CRPS pooled"),
        (
            "decisive profile",
            "the protocol above at 50 systems × 125 starts and hidden sizes 72…240",
            "6 systems × 6 starts, stride 4, hidden sizes 24 and 48, 6 agents × up to 3 "
            "generations scored on 512 windows, 3 final cycles; 30 epochs, warm start and "
            "7 runs as stated",
        ),
        (
            "fast profile",
            "—",
            "the book's build: 3 systems × 3 starts, 4 agents × 2 generations of 3-epoch "
            "candidates, 2 final cycles of 10 epochs, 2 runs, no warm start: every step shown, "
            "nothing decided (the decisive recording carries the evidence)",
        ),
        (
            "ablations",
            "none",
            "each decisive run again without the search (a random agent of the space, the same "
            "final training); warm start off = the same runs before their warm start; "
            "the no-search runs again with second-order DARTS in their final cycles (the "
            "search itself was not run with second order)",
        ),
        (
            "ranking",
            "sort(A; f² + f_v²), 'descending'",
            "ascending: our fitness is a CRPS (lower is better)",
        ),
    ],
    columns=["what", "paper", "this book"],
).set_index("what")


def settings(profile: str = "fast", **overrides) -> dict:
    """The chapter's settings for ``profile``; ``None`` overrides keep the profile's value.

    Examples
    --------
    >>> settings("fast", runs=3)["runs"]
    3
    >>> settings("full", device="cpu")["device"]
    'cpu'
    """
    chosen = choose_settings(PROFILES, profile, overrides)
    if chosen.get("device") == "auto":
        import torch

        chosen["device"] = "cuda" if torch.cuda.is_available() else "cpu"
    return chosen


def search_space(config: dict) -> dict:
    """Table 5.1, with the hidden sizes of the profile (``None``: the paper's 72…240).

    Examples
    --------
    >>> search_space({"hidden_sizes": (24,)})["hidden_size"].values
    (24,)
    """
    if config.get("hidden_sizes") is None:
        return PTN_SPACE
    return make_space(hidden_size=Choice(list(config["hidden_sizes"])))
