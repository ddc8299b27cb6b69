"""Measure how far re-runs under different kernel signatures move from the recordings.

``python -m fairbook_book.tooling.kernel_spread`` runs ``fairbook-book verify --json`` once
per kernel
setting of this machine — the default (PyTorch capped at AVX2) and
``FAIRBOOK_NATIVE_ISA=1`` (the processor's own kernels) — each in a fresh process, so that
the setting is read before PyTorch's first operation, and writes the largest absolute and
relative deviation of each check over both, with the signatures and the machine, to
``fairbook/build/kernel_spread.json``. :mod:`.verify` derives its tolerances from
that file. Run it on a machine whose signature differs from the recordings' (another BLAS
core type, another instruction set) and commit the file with the machine named.

The project never sets ``OPENBLAS_CORETYPE``; the variants here change only PyTorch's,
oneDNN's and MKL's instruction sets.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from fairbook.instruction_set import OPT_OUT, PINNED, _cpu_model

from .verify import SPREAD_FILE

__all__ = ["VARIANTS", "merge", "main"]

#: The kernel settings measured: name → environment variables added.
VARIANTS: dict[str, dict[str, str]] = {
    "capped at AVX2 (default)": {},
    "native (FAIRBOOK_NATIVE_ISA=1)": {"FAIRBOOK_NATIVE_ISA": "1"},
}


def merge(runs: Mapping[str, Sequence[Mapping]]) -> dict:
    """The largest deviation of each check over several ``fairbook-book verify --json`` runs.

    Parameters
    ----------
    runs : mapping
        Variant name → the list of outcome dicts ``fairbook-book verify --json`` printed.

    Returns
    -------
    dict
        ``{"checks": {name: {"max_abs", "max_rel", "per_variant", "flips"}}, "signatures":
        {variant: signature}}``.

    Examples
    --------
    >>> a = [{"check": "07/seeds", "max_abs": 1e-3, "max_rel": 2e-3, "flips": [], "here": {}}]
    >>> b = [{"check": "07/seeds", "max_abs": 4e-3, "max_rel": 1e-3, "flips": [], "here": {}}]
    >>> merge({"x": a, "y": b})["checks"]["07/seeds"]["max_abs"]
    0.004
    """
    checks: dict[str, dict] = {}
    signatures = {}
    for variant, outcomes in runs.items():
        for o in outcomes:
            signatures[variant] = o.get("here", {})
            entry = checks.setdefault(
                o["check"], {"max_abs": 0.0, "max_rel": 0.0, "per_variant": {}, "flips": []}
            )
            if o.get("max_abs") is None:
                entry["per_variant"][variant] = {"status": o.get("status")}
                continue
            entry["max_abs"] = max(entry["max_abs"], float(o["max_abs"]))
            entry["max_rel"] = max(entry["max_rel"], float(o["max_rel"]))
            entry["per_variant"][variant] = {
                "max_abs": o["max_abs"],
                "max_rel": o["max_rel"],
                "status": o.get("status"),
            }
            entry["flips"] += [f"{variant}: {f}" for f in o.get("flips", [])]
    return {"checks": checks, "signatures": signatures}


def _run(variant_env: Mapping[str, str]) -> list[dict]:
    env = {**os.environ, **variant_env}
    env.pop("FAIRBOOK_FORCE_SIGNATURE", None)
    if env.get(OPT_OUT, "0") not in ("", "0"):
        # this process imported fairbook, which capped the kernels in its environment; the
        # native variant's child must not inherit the cap (a value the user set differs from
        # the cap's and is kept)
        for name, value in PINNED.items():
            if env.get(name) == value:
                env.pop(name)
    out = subprocess.run(
        [sys.executable, "-m", "fairbook", "verify", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if not out.stdout.strip():
        raise RuntimeError(f"fairbook-book verify printed nothing:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m fairbook_book.tooling.kernel_spread [--out FILE]``: measure and write."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = Path(args[args.index("--out") + 1]) if "--out" in args else SPREAD_FILE
    runs = {name: _run(env) for name, env in VARIANTS.items()}
    spread = merge(runs)
    spread["measured"] = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "command": "python -m fairbook_book.tooling.kernel_spread",
        "against": "the committed recordings (AVX2 machines, signature unknown)",
    }
    out.write_text(json.dumps(spread, indent=1, sort_keys=True) + "\n", "utf-8")
    for name, entry in spread["checks"].items():
        print(f"{name}: max abs {entry['max_abs']:.3g}, max rel {entry['max_rel']:.3g}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
