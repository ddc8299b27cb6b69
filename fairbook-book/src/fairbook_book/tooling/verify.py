"""One reproduction check per recording: re-run its cheapest unit(s) here and compare.

Each :class:`Check` knows how to re-run the cheapest part of one committed recording
(``fairbook/recorded/<chapter>/<recording>``) on this machine, which of its columns are
computed values, which are digests, what verdict each row carries, and the
:class:`~fairbook_book.reproduction.compare.Tolerance` a re-run under other kernels must keep.
:func:`run_check` runs one and returns its :class:`Outcome`; ``fairbook-book verify``
prints them and ``make test`` requires every one to pass
(``tests/book/tooling/test_verify.py``).

**How the tolerances were set.** For each check, the re-run was compared with the recording
(made on AMD EPYC processors with AVX2 and without AVX-512, signature unknown: recorded
before signatures were written) on an AMD EPYC Zen 4 with AVX-512 (OpenBLAS ``SkylakeX``)
twice: with the AVX2 cap (the default) and with ``FAIRBOOK_NATIVE_ISA=1`` (AVX-512 kernels in
PyTorch, oneDNN and MKL). :data:`MEASURED` holds the largest absolute and relative
deviations seen (``python -m fairbook_book.tooling.kernel_spread`` writes them). A tolerance is
:data:`MARGIN` (5) times the largest measured deviation, and never tighter than half a unit
in the last digit the chapter prints of that quantity: the spread across two signatures is a
sample of the spread across all of them (Apple Silicon, Intel, ARM, a GPU), and the margin
is what we allow for that; a verdict that flips is never covered by it. The chapters'
``tolerance:`` cells follow the same rule (``tests/notebooks/README.md``).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from fairbook_book.reproduction.compare import (
    UNDECIDED,
    Comparison,
    Tolerance,
    compare_tables,
    ratio_sides,
    signs,
)
from fairbook_book.reproduction.signature import (
    describe_signature,
    kernel_signature,
    signature_of,
    signatures_differ,
)

__all__ = [
    "CHECKS",
    "MEASURED",
    "Check",
    "Outcome",
    "Rerun",
    "checks_for",
    "remember_outcome",
    "remembered_outcome",
    "run_check",
    "verified_key",
]


@dataclass
class Rerun:
    """What a check computed: the recorded rows, the same rows computed here, and the
    provenance of the units they come from."""

    recorded: pd.DataFrame
    again: pd.DataFrame
    provenance: list[dict]


@dataclass(frozen=True)
class Check:
    """How to check one recording (module docstring).

    ``rerun()`` re-computes the cheapest unit(s); ``values`` and ``hashes`` name the
    computed columns (every other column must be equal everywhere); ``verdicts(table)``
    labels each judged row.
    """

    chapter: str
    recording: str
    what: str
    rerun: Callable[[], Rerun]
    values: tuple[str, ...]
    tolerance: Tolerance
    hashes: tuple[str, ...] = ()
    verdicts: Callable[[pd.DataFrame, Tolerance], pd.Series] | None = None
    verdict_text: str = "none: the re-run part decides no verdict of the chapter"

    @property
    def name(self) -> str:
        return f"{self.chapter}/{self.recording}"


@dataclass
class Outcome:
    """One check's result on this machine."""

    check: Check
    here: dict
    there: list[dict | None]
    comparison: Comparison | None
    seconds: float
    problems: list[str] = field(default_factory=list)

    @property
    def differing_fields(self) -> list[str]:
        fields: list[str] = []
        for there in self.there or [None]:
            fields += [f for f in signatures_differ(self.here, there) if f not in fields]
        return fields

    @property
    def same_signature(self) -> bool:
        return not self.differing_fields

    @property
    def passed(self) -> bool:
        return not self.problems and self.comparison is not None and self.comparison.passed

    @property
    def status(self) -> str:
        if self.problems:
            return "fails: " + self.problems[0]
        return self.comparison.status if self.comparison else "not run"

    def lines(self) -> list[str]:
        """The check's report, a few plain lines (what ``fairbook-book verify`` prints)."""
        c = self.comparison
        head = f"{self.check.name} ({self.check.what}): {'ok' if self.passed else 'FAILS'}"
        out = [head, f"  status: {self.status}"]
        there = {describe_signature(s) for s in self.there} or {describe_signature(None)}
        out.append(f"  recorded under: {'; '.join(sorted(there))}")
        out.append(f"  this machine:   {describe_signature(self.here)}")
        if self.same_signature:
            out.append("  same kernel signature: compared bit for bit")
        else:
            out.append(
                f"  kernel signatures differ ({', '.join(self.differing_fields)}): compared "
                f"within abs {self.check.tolerance.absolute:g} + rel "
                f"{self.check.tolerance.relative:g} ({self.check.tolerance.source})"
            )
        if c is not None and not c.structure:
            out.append(
                f"  {c.rows} rows; largest deviation: abs {_num(c.max_abs)}, rel "
                f"{_num(c.max_rel)}; {c.outside} outside the tolerance"
            )
            if c.hashes:
                out.append(f"  digests of computed state: {c.hashes_differ} of {c.hashes} differ")
            out.append(
                f"  verdicts: {c.judged} judged, {len(c.flips)} flipped, {len(c.weakened)} "
                f"moved into the undecided band of {self.check.tolerance.band:g} "
                f"({self.check.verdict_text})"
            )
            out += [f"    flip: {f}" for f in c.flips[:10]]
            out += [f"    undecided: {w}" for w in c.weakened[:5]]
        out.append(f"  re-run took {self.seconds:.0f} s")
        return out

    def to_dict(self) -> dict:
        c = self.comparison
        return {
            "check": self.check.name,
            "passed": self.passed,
            "status": self.status,
            "here": self.here,
            "recorded_under": self.there,
            "same_signature": self.same_signature,
            "tolerance": {
                "absolute": self.check.tolerance.absolute,
                "relative": self.check.tolerance.relative,
                "source": self.check.tolerance.source,
                "band": self.check.tolerance.band,
            },
            "max_abs": None if c is None else c.max_abs,
            "max_rel": None if c is None else c.max_rel,
            "flips": [] if c is None else c.flips,
            "seconds": self.seconds,
        }


def _num(x: float) -> str:
    return "0" if x == 0 else f"{x:.2g}"


# ---- the measured spread and the tolerances ----

#: Where the measured spread is kept (written by ``python -m fairbook_book.tooling.kernel_spread``,
#: with the machine, the signatures and the date it was measured on).
SPREAD_FILE = Path(__file__).with_name("kernel_spread.json")


def _measured() -> dict[str, tuple[float, float]]:
    if not SPREAD_FILE.is_file():
        return {}
    spread = json.loads(SPREAD_FILE.read_text("utf-8"))
    return {name: (d["max_abs"], d["max_rel"]) for name, d in spread["checks"].items()}


#: Largest deviations from the recording measured across signatures (module docstring):
#: check → (abs, rel); empty before the first measurement.
MEASURED: dict[str, tuple[float, float]] = _measured()


#: A tolerance is this many times the largest deviation measured across signatures.
MARGIN = 5


def _tolerance(name: str, *, floor: float, printed: str) -> Tolerance:
    measured_abs, measured_rel = MEASURED.get(name, (0.0, 0.0))
    absolute = max(MARGIN * measured_abs, floor)
    relative = MARGIN * measured_rel if measured_rel > 0 else 0.0
    if measured_abs == 0:
        source = (
            "no deviation from the recording measured with PyTorch capped at AVX2 or native "
            f"on an AVX-512 machine; half a unit of the last digit the chapter prints ({printed})"
        )
    else:
        source = (
            f"{MARGIN}x the largest deviation from the recording measured with PyTorch capped "
            f"at AVX2 and native on an AVX-512 machine (abs {measured_abs:.2g}, rel "
            f"{measured_rel:.2g}; at least half a unit of {printed})"
        )
    band = max(measured_abs, floor)
    return Tolerance(absolute, min(relative, 0.5), source, band=band)


def _fresh(recording) -> None:
    if recording.empty:
        raise _Problem(f"nothing recorded: {recording.describe()}")
    if recording.stale:
        raise _Problem(f"stale: {recording.describe()}")


class _Problem(Exception):
    """A check cannot compare (nothing recorded, stale): it fails with this message."""


def _units(recording, units: Iterable[str]) -> list[dict]:
    wanted = set(units)
    return [p for p in recording.provenance if p["unit"] in wanted]


# ---- 02 adult ----


def _rerun_02() -> Rerun:
    from fairbook_book import recordings
    from fairbook_book.chapters import objective_fairness_index as ofi

    config = ofi.settings("full")
    recording = recordings.load("02_objective_fairness_index", ofi.ADULT_RECORDING, settings=config)
    _fresh(recording)
    recorded = recording.frame[recording.frame["unit"] == "s0"].drop(columns="unit")
    again = ofi.adult_recorded_unit("s0", config)
    return Rerun(recorded, again, _units(recording, ["s0"]))


# ---- 03 cps ----


def _rerun_03() -> Rerun:
    from fairbook_book.chapters import small_groups as sg

    config = sg.settings("full")
    recording = sg.cps_recording(config, seed=0)
    _fresh(recording)
    unit = min(p["unit"] for p in recording.provenance)
    recorded = recording.frame[recording.frame["unit"] == unit].drop(columns="unit")
    again = sg.cps_recorded_unit(unit, {"seed": 0, **config}, with_adult=False)
    recorded = recorded[recorded["group"].isin(set(again["group"]))]
    return Rerun(recorded, again, _units(recording, [unit]))


def _cps_best(table: pd.DataFrame, tolerance: Tolerance) -> pd.Series:
    """Which setting has the smallest MSE, per group, metric, size and method (the
    chapter's CPS verdict); undecided when the two best are within the band."""
    labels = {}
    for key, part in table.groupby(["group", "metric", "n", "method"], sort=True):
        ranked = part.sort_values(["mse", "setting_label"], kind="stable")
        mse = ranked["mse"].to_numpy(float)
        close = len(mse) > 1 and abs(mse[1] - mse[0]) <= tolerance.band
        labels["/".join(map(str, key))] = (
            UNDECIDED if close else str(ranked["setting_label"].iloc[0])
        )
    return pd.Series(labels)


# ---- 04 study ----


def _rerun_04() -> Rerun:
    from fairbook_book.chapters import uncertainty_fairness as uf

    loaded = uf.study_recording(uf.settings("full"))
    _fresh(loaded)
    recorded = loaded.frame[loaded.frame["unit"] == "chapter-s00"].drop(columns="unit")
    again = uf.study_unit("chapter-s00", uf.settings("full"))
    return Rerun(recorded, again, _units(loaded, ["chapter-s00"]))


def _ratio_flags(table: pd.DataFrame, tolerance: Tolerance) -> pd.Series:
    """Seed 000's ratio measures (F_*): which side of 1 each lies on, the chapter's flag."""
    ratios = table[table["measure"].astype(str).str.startswith("F_")]
    band = tolerance.band
    return ratio_sides(ratios, "value", keys=["dataset", "role", "measure"], band=band)


# ---- 05 winobias ----


def _rerun_05() -> Rerun:
    from fairbook_book import recordings
    from fairbook_book.chapters import ucerf as uc

    config = uc.settings("full") | {"seed": 0}
    recording = recordings.load("05_ucerf", uc.WINOBIAS_RECORDING, settings=config)
    _fresh(recording)
    recorded = recording.frame[recording.frame["unit"] == "w00"].drop(columns="unit")
    again = uc.WINOBIAS_RECORDING.run("w00", config)
    return Rerun(recorded, again, _units(recording, ["w00"]))


def _preferred(table: pd.DataFrame, tolerance: Tolerance) -> pd.Series:
    """Which sentence of each minimal pair the model finds more probable (UCerF's input)."""
    t = table.assign(gap=table["logprob_1"] - table["logprob_2"])
    return signs(t, "gap", keys=["format", "pair_id", "stereotype"], band=2 * tolerance.band)


# ---- 06 study ----


def _rerun_06() -> Rerun:
    from fairbook_book.chapters import fit_variance as fv

    config = fv.settings("full")
    recording = fv.study_recording(config)
    _fresh(recording)
    unit = min(recording.provenance, key=lambda p: (p["seconds"], p["unit"]))["unit"]
    recorded = recording.frame[recording.frame["unit"] == unit].drop(columns="unit")
    again = fv.study_unit(unit, config)
    return Rerun(recorded, again, _units(recording, [unit]))


# ---- 07 seeds ----


def _rerun_07() -> Rerun:
    from fairbook_book.chapters import conditional_hydragan as hc

    config = hc.settings("full") | {"seed": 0}
    recording = hc.seeds_recording(config)
    _fresh(recording)
    frame = recording.frame[recording.frame["unit"] == "seed00"]
    again = hc.real_half(hc.prepare_data(config), config, seed=0)
    keys = ["attribute", "class", "definition", "metric"]
    scores = frame[(frame["part"] == "scores") & (frame["data"] == "real")]
    recorded = scores[[*keys, "value"]].astype({k: str for k in keys})
    recorded = recorded.assign(value=recorded["value"].astype(float))
    accuracy = frame[(frame["part"] == "accuracy") & (frame["data"] == "real")]["value"]
    mine = again["scores"][[*keys, "value"]].astype({k: str for k in keys})
    accuracy_row = {"attribute": "-", "class": "-", "definition": "-", "metric": "accuracy"}
    recorded = pd.concat(
        [recorded, pd.DataFrame([accuracy_row | {"value": float(accuracy.iloc[0])}])]
    )
    mine = pd.concat([mine, pd.DataFrame([accuracy_row | {"value": float(again["accuracy"])}])])
    recorded = recorded.sort_values(keys, kind="stable").reset_index(drop=True)
    mine = mine.sort_values(keys, kind="stable").reset_index(drop=True)
    return Rerun(recorded, mine, _units(recording, ["seed00"]))


def _bias_directions(table: pd.DataFrame, tolerance: Tolerance) -> pd.Series:
    scores = table[table["metric"] != "accuracy"]
    keys = ["attribute", "class", "definition", "metric"]
    return signs(scores, "value", keys=keys, band=tolerance.band)


# ---- 08 decisive and second order ----


def _ptn_epochs(config: dict, unit: str, *, order: int) -> tuple[dict, dict]:
    """Chapter 08's data and the first three final-training epochs of ``unit``'s agent."""
    from threadpoolctl import threadpool_limits

    from fairbook_book.chapters import parallel_time_networks as pc

    prefix = "nosearch" if order == 1 else "order2_"
    run = int(unit.removeprefix(prefix))
    # the recording ran in a loky worker, which limits numpy's BLAS to one thread; the NVAR
    # fit's sums depend on that count, and everything downstream on the NVAR fit
    with threadpool_limits(1):
        data = pc.make_data(config, progress=False)
        trained = pc.random_agent_training(
            data,
            {**config, "final_cycles": 1, "final_epochs": 3, "warm_start": 0.0},
            run=run,
            order=order,
        )
    return data, trained


def _epoch_rows(frame: pd.DataFrame, curves: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    epochs = frame[(frame["kind"] == "epoch") & (frame["cycle"] == 1)].head(3)
    weights = [k for k in epochs if k.startswith("weight:") and epochs[k].notna().all()]
    columns = ["train_loss", "val_loss", *weights]
    recorded = epochs[columns].reset_index(drop=True).astype(float)
    again = curves[[c for c in columns if c in curves]].reset_index(drop=True).astype(float)
    return _long(recorded, "epoch"), _long(again, "epoch")


def _long(wide: pd.DataFrame, what: str) -> pd.DataFrame:
    """A wide table of numbers as rows ``(what, row, quantity, value)``."""
    long = wide.reset_index(names="row").melt(id_vars="row", var_name="quantity")
    return long.assign(what=what)[["what", "row", "quantity", "value"]]


def _rerun_08_decisive() -> Rerun:
    from threadpoolctl import threadpool_limits

    from fairbook.forecasting import crps as crps_module
    from fairbook.forecasting.baselines import (
        TiDE,
        lead_time_mae,
        normal_quantiles,
        train_quantile_model,
    )
    from fairbook.forecasting.darts import evaluate_crps
    from fairbook.forecasting.windows import warm_start_split
    from fairbook_book.chapters import parallel_time_networks as pc

    config = pc.settings("decisive")
    recording = pc.decisive_recording(config)
    _fresh(recording)
    if len(recording.provenance) != recording.expected:
        raise _Problem(f"incomplete: {recording.describe()}")
    quickest = min(
        (p for p in recording.provenance if p["unit"].startswith("nosearch")),
        key=lambda p: p["seconds"],
    )["unit"]
    run = int(quickest.removeprefix("nosearch"))
    seed, c = config["seed"] + run, config["n_quantiles"]
    frame = recording.frame[recording.frame["unit"] == quickest]
    windows = frame[(frame["kind"] == "window") & (frame["cycle"] == 1)]
    data, ptn = _ptn_epochs(config, quickest, order=1)
    w = data["windows"]
    test = warm_start_split(w["test"], config["warm_start"])[1]
    with threadpool_limits(1):
        tide = TiDE(n_quantiles=c, hidden=config["tide_hidden"], seed=seed)
        train_quantile_model(
            tide,
            w["neural_train"],
            w["neural_val"],
            epochs=pc.tide_epochs_per_cycle(config, len(w["neural_train"])),
            seed=1000 * seed,
            progress=False,
        )
        crps_tide = evaluate_crps(tide, test)
    mae = lead_time_mae(w["neural_val"].deterministic, w["neural_val"].target)
    levels = crps_module.quantile_levels(c)
    crps_det = crps_module.crps(
        normal_quantiles(test.deterministic, mae, levels=levels), test.target
    )
    rec_epochs, my_epochs = _epoch_rows(frame, ptn["curves"])
    rec_windows = _long(windows[["TiDE", "Det."]].reset_index(drop=True).astype(float), "window")
    mine = pd.DataFrame({"TiDE": np.asarray(crps_tide, float), "Det.": np.asarray(crps_det, float)})
    recorded = pd.concat([rec_epochs, rec_windows], ignore_index=True)
    again = pd.concat([my_epochs, _long(mine, "window")], ignore_index=True)
    return Rerun(recorded, again, _units(recording, [quickest]))


def _rerun_08_second_order() -> Rerun:
    from fairbook_book.chapters import parallel_time_networks as pc

    config = pc.settings("decisive")
    recording = pc.second_order_recording(config)
    _fresh(recording)
    if len(recording.provenance) != recording.expected:
        raise _Problem(f"incomplete: {recording.describe()}")
    quickest = min(recording.provenance, key=lambda p: p["seconds"])["unit"]
    frame = recording.frame[recording.frame["unit"] == quickest]
    _, again = _ptn_epochs(config, quickest, order=2)
    recorded, mine = _epoch_rows(frame, again["curves"])
    return Rerun(recorded, mine, _units(recording, [quickest]))


# ---- 10 verdicts and uncertainty ----


def _rerun_10_verdicts() -> Rerun:
    from fairbook_book.chapters import verdict_stability as vs

    config = vs.settings("full")
    recording = vs.recorded(config)
    _fresh(recording)
    recorded = recording.frame[recording.frame["unit"] == "compas-logistic"].drop(columns="unit")
    again = vs.VERDICT_RECORDING.run("compas-logistic", config)
    return Rerun(recorded, again, _units(recording, ["compas-logistic"]))


def _fair_unfair(table: pd.DataFrame, tolerance: Tolerance) -> pd.Series:
    """The chapter's fair/unfair verdict of each value by its metric's rule; undecided
    within the tolerance of a threshold."""
    from fairbook_book.chapters import verdict_stability as vs

    config = vs.settings("full")
    judged = vs.verdict_table(table, config)
    rules = vs.rules(config)
    band = tolerance.band
    labels = np.where(judged["unfair"] == 1.0, "unfair", "fair").astype(object)
    labels[judged["unfair"].isna().to_numpy()] = "undefined"
    for metric, (rule, threshold) in rules.items():
        hit = (judged["metric"] == metric).to_numpy()
        v = judged["value"].to_numpy(float)
        edges = [threshold, 1.0 / threshold] if rule == "ratio" else [threshold]
        if rule == "difference":
            edges.append(-threshold)
        near = np.zeros(len(v), bool)
        for edge in edges:
            near |= np.abs(v - edge) <= band
        labels[hit & near] = UNDECIDED
    keys = ["dataset", "model", "source", "variant", "attribute", "group", "metric"]
    index = judged[keys].astype(str).agg("/".join, axis=1)
    return pd.Series(labels, index=index.to_numpy())


def _rerun_10_uncertainty() -> Rerun:
    from fairbook_book.chapters import uncertainty_fairness as uf
    from fairbook_book.chapters import verdict_stability as vs

    recording = vs.recorded_uncertainty_values(vs.settings("full"))
    _fresh(recording)
    if recording.frame["unit"].nunique() != recording.expected:
        raise _Problem(f"incomplete: {recording.describe()}")
    recorded, again = [], []
    for dataset, name in (("compas", "COMPAS"), ("adult", "Adult")):
        base = uf.tabular_run(dataset, seed=0, config=uf.settings("fast"))
        rows = recording.frame[
            (recording.frame["dataset"] == name)
            & (recording.frame["source"] == "FIT")
            & (recording.frame["variant"] == "0")
        ]
        for attribute, (protected, reference) in uf.PAIRS[name].items():
            want = rows[rows["attribute"] == attribute].set_index("measure")["value"]
            got = uf.fairness_result(base, attribute, protected=protected, reference=reference)
            key = {"dataset": name, "attribute": attribute}
            recorded.append(pd.DataFrame({**key, "measure": want.index, "value": want.to_numpy()}))
            mine = got.ratios.loc[want.index].to_numpy(float)
            again.append(pd.DataFrame({**key, "measure": want.index, "value": mine}))
    return Rerun(
        pd.concat(recorded, ignore_index=True).astype({"value": float}),
        pd.concat(again, ignore_index=True),
        list(recording.provenance),
    )


def _uncertainty_flags(table: pd.DataFrame, tolerance: Tolerance) -> pd.Series:
    return ratio_sides(
        table, "value", keys=["dataset", "attribute", "measure"], band=tolerance.band
    )


# ---- the registry ----


def _make_checks() -> dict[str, Check]:
    checks = [
        Check(
            "02_objective_fairness_index",
            "adult",
            "seed 0 of the 500-tree Adult forest: confusion counts per group",
            _rerun_02,
            values=("TP", "FN", "FP", "TN"),
            tolerance=_tolerance("02_objective_fairness_index/adult", floor=0.5, printed="counts"),
        ),
        Check(
            "03_small_groups",
            "cps",
            "the smallest CPS size at 10^6 draws, COMPAS groups",
            _rerun_03,
            values=("mse", "ci_low", "ci_high", "share_undefined", "target", "reference"),
            tolerance=_tolerance("03_small_groups/cps", floor=5e-7, printed="6 decimals"),
            verdicts=_cps_best,
            verdict_text="the setting with the smallest MSE per group, metric, size and method",
        ),
        Check(
            "04_uncertainty_fairness",
            "study",
            "the chapter's BNN cell, seed 0, every data set",
            _rerun_04,
            values=("value",),
            tolerance=_tolerance("04_uncertainty_fairness/study", floor=5e-5, printed="4 decimals"),
            verdicts=_ratio_flags,
            verdict_text="which side of 1 each F_ ratio lies on",
        ),
        Check(
            "05_ucerf",
            "winobias",
            "SmolLM2's log-probabilities of the first WinoBias unit",
            _rerun_05,
            values=("logprob_1", "logprob_2"),
            tolerance=_tolerance("05_ucerf/winobias", floor=5e-5, printed="4 decimals"),
            verdicts=_preferred,
            verdict_text="which sentence of each pair the model prefers",
        ),
        Check(
            "06_fit_variance",
            "study",
            "the cheapest recorded FIT run: bias metrics and digests of predictions and weights",
            _rerun_06,
            values=("value",),
            hashes=("pred_hash", "weights_hash"),
            tolerance=_tolerance("06_fit_variance/study", floor=5e-5, printed="4 decimals"),
        ),
        Check(
            "07_conditional_hydragan",
            "seeds",
            "the classifier on the real rows of seed 0: bias scores and accuracy",
            _rerun_07,
            values=("value",),
            tolerance=_tolerance("07_conditional_hydragan/seeds", floor=5e-4, printed="3 decimals"),
            verdicts=_bias_directions,
            verdict_text="the direction (sign) of every bias score",
        ),
        Check(
            "08_parallel_time_networks",
            "decisive",
            "the random agent's first 3 epochs, TiDE's first cycle and the Normal baseline",
            _rerun_08_decisive,
            values=("value",),
            tolerance=_tolerance(
                "08_parallel_time_networks/decisive", floor=5e-4, printed="3 decimals"
            ),
        ),
        Check(
            "08_parallel_time_networks",
            "second_order",
            "the first 3 second-order epochs of the quickest unit",
            _rerun_08_second_order,
            values=("value",),
            tolerance=_tolerance(
                "08_parallel_time_networks/second_order", floor=5e-4, printed="3 decimals"
            ),
        ),
        Check(
            "10_verdict_stability",
            "verdicts",
            "COMPAS, logistic regression: every run's bias values",
            _rerun_10_verdicts,
            values=("value",),
            tolerance=_tolerance("10_verdict_stability/verdicts", floor=5e-4, printed="3 decimals"),
            verdicts=_fair_unfair,
            verdict_text="fair/unfair by each metric's rule",
        ),
        Check(
            "10_verdict_stability",
            "uncertainty",
            "the base BNN run of each data set: seed 000's ratios",
            _rerun_10_uncertainty,
            values=("value",),
            tolerance=_tolerance(
                "10_verdict_stability/uncertainty", floor=5e-3, printed="2 decimals"
            ),
            verdicts=_uncertainty_flags,
            verdict_text="which side of 1 each ratio lies on",
        ),
    ]
    return {c.name: c for c in checks}


#: Every check, by ``chapter/recording``.
CHECKS: dict[str, Check] = _make_checks()


def checks_for(chapters: Sequence[str] = ()) -> list[Check]:
    """The checks of the given chapters (numbers ``07``, stems or ``07/seeds``); all if none.

    Examples
    --------
    >>> [c.name for c in checks_for(["08"])]
    ['08_parallel_time_networks/decisive', '08_parallel_time_networks/second_order']
    >>> checks_for(["99"])
    Traceback (most recent call last):
    ...
    ValueError: no recording matches '99'; recordings: 02, 03, 04, 05, 06, 07, 08, 10
    """
    if not chapters:
        return list(CHECKS.values())
    chosen: list[Check] = []
    for spec in chapters:
        hit = [
            c
            for c in CHECKS.values()
            if c.name == spec
            or c.chapter == spec
            or c.chapter[:2] == spec.split("/")[0]
            and ("/" not in spec or c.recording == spec.split("/", 1)[1])
        ]
        if not hit:
            numbers = ", ".join(sorted({c.chapter[:2] for c in CHECKS.values()}))
            raise ValueError(f"no recording matches {spec!r}; recordings: {numbers}")
        chosen += [c for c in hit if c not in chosen]
    return chosen


def run_check(check: Check, *, here: dict | None = None) -> Outcome:
    """Re-run one check here and compare it with its recording.

    Parameters
    ----------
    check : Check
    here : dict, optional
        This machine's signature (default :func:`kernel_signature`); tests pass another to
        force a mismatch.

    Returns
    -------
    Outcome
        Failing with one line when the recording is missing or stale, or when the re-run
        needs a package that is not installed.
    """
    from fairbook_book.recordings import DamagedRecording, check_digests

    here = kernel_signature() if here is None else here
    start = time.perf_counter()
    try:
        # every unit's table as recorded (cheap), before re-running the cheapest one
        tampered = check_digests(check.chapter, check.recording)
        if tampered:
            raise _Problem("; ".join(tampered))
        rerun = check.rerun()
    except (_Problem, DamagedRecording) as exc:
        return Outcome(check, here, [], None, time.perf_counter() - start, [str(exc)])
    except ImportError as exc:  # e.g. chapter 05 without the `lm` extra
        why = f"the re-run needs {exc.name or exc}: pip install -e '.[lm]'"
        return Outcome(check, here, [], None, time.perf_counter() - start, [why])
    seconds = time.perf_counter() - start
    there = [signature_of(p) for p in rerun.provenance] or [None]
    unique = []
    for s in there:
        if s not in unique:
            unique.append(s)
    same = all(not signatures_differ(here, s) for s in unique)
    comparison = compare_tables(
        rerun.recorded,
        rerun.again,
        values=check.values,
        hashes=check.hashes,
        tolerance=check.tolerance,
        same_signature=same,
        verdicts=None if check.verdicts is None else lambda t: check.verdicts(t, check.tolerance),
    )
    return Outcome(check, here, unique, comparison, seconds)


# ---------------------------------------------------------------------------------------------
# outcomes remembered on this machine (make unit)

#: The environment variable naming the folder of remembered outcomes (``off``: none).
VERIFIED_VARIABLE = "FAIRBOOK_VERIFIED_CACHE"


def _verified_dir() -> Path | None:
    """``$FAIRBOOK_VERIFIED_CACHE`` (``off``, ``0`` or empty: none), else
    ``~/.cache/fairbook/verified``, beside the shared execution cache."""
    from fairbook_book.tooling.execution_cache import machine_cache_dir

    return machine_cache_dir(VERIFIED_VARIABLE, "verified")


def _this_file() -> Path:
    """This module's file, as installed."""
    from importlib.resources import files

    return Path(str(files("fairbook_book"))) / "tooling" / "verify.py"


@functools.cache
def _rerun_modules() -> dict[str, Path]:
    """What the re-runs import (the chapters' code, the recordings, the reproduction
    helpers), at any depth; not the book's tooling this module borrows helpers from. Found
    once per process (the files' contents are read again for every key)."""
    from fairbook_book.tooling import execution_cache

    names = {
        name
        for name in execution_cache.imported_names(_this_file().read_text("utf-8"), package="")
        if not name.startswith("fairbook_book.tooling")
    }
    return execution_cache.module_closure(names)


def verified_key(check: Check) -> str:
    """The key under which a passing outcome of `check` is remembered on this machine.

    It is the shared execution cache's key (:mod:`fairbook_book.tooling.execution_cache`)
    of this module: this file, and every module of ``fairbook`` and ``fairbook_book`` the
    checks import, at any depth (the chapters' code the re-runs call; not the book's
    tooling, which no re-run runs); every file of the two packages that is
    not Python (every recording, the data registry's pins); ``constraints.txt`` and the
    Python version; the kernel signature and every installed distribution. With the check's
    name. Whatever a re-run reads changes it, so a remembered outcome is what the re-run
    would compute again here.
    """
    from fairbook_book.tooling import execution_cache
    from fairbook_book.tooling.chapters import find_root

    parts = execution_cache.code_key_parts(
        _this_file(), _rerun_modules(), check.name, root=find_root(None)
    )
    return parts.key


def remembered_outcome(check: Check) -> dict | None:
    """The passing outcome of `check` remembered on this machine under its current key
    (:func:`verified_key`), as :meth:`Outcome.to_dict` with its ``date``, or None."""
    folder = _verified_dir()
    if folder is None:
        return None
    try:
        data = json.loads(
            (folder / check.name.replace("/", "__") / f"{verified_key(check)}.json").read_text(
                "utf-8"
            )
        )
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("passed") is True else None


def remember_outcome(outcome: Outcome) -> Path | None:
    """Keep a passing `outcome` under its key (:func:`verified_key`) so that the next
    ``make unit`` on this machine, in any copy of the book, need not re-run it; the
    older outcomes of the check go. None when it failed (a failure is always re-run) or
    nothing can be written."""
    import datetime as dt
    import shutil

    from fairbook.atomic import write_atomic

    folder = _verified_dir()
    if folder is None or not outcome.passed:
        return None
    check_folder = folder / outcome.check.name.replace("/", "__")
    path = check_folder / f"{verified_key(outcome.check)}.json"
    data = {**outcome.to_dict(), "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
    text = json.dumps(data, indent=1, default=str) + "\n"
    try:
        check_folder.mkdir(parents=True, exist_ok=True)
        for old in check_folder.glob("*.json"):
            if old != path:
                old.unlink(missing_ok=True)
        write_atomic(path, lambda tmp: tmp.write_text(text, "utf-8"))
    except OSError:
        shutil.rmtree(check_folder, ignore_errors=True)
        return None
    return path
