"""Benchmark: Bayes by Backprop training on COMPAS and T = 10 inference on Adult.

Both are timed against a named baseline in the same run: the same model and objective,
but with a **per-sample Python loop** over the Monte Carlo samples (one weight draw and
one forward pass at a time, then concatenated) instead of fairbook's one batched product
for all samples.

* Training: COMPAS at the chapter's full-profile settings (Zafar et al.'s features, 50/50
  split, one hidden layer of 100, 10 epochs, batch 256, ``mc_train`` = 10, λ = 2000).
  Early stopping is off (``validation_fraction=0``) so both run all 10 epochs, the worst
  case. Goal: < 30 s.
* Inference: ``predict_proba_samples(X, T=10)`` on the 15,060 Adult test rows with the
  paper's Adult network (no hidden layer). Goal: < 1 s. The same is timed for the COMPAS
  network (100 hidden units) on Adult-sized input as a harder case.

Timing: ``time.perf_counter``, best of ``--repeats`` (5; training ``--train-repeats``, 3),
the two methods taking turns; ``torch.set_num_threads`` 1 and 2 (the machine has 2 cores, shared).
Run ``python benchmarks/bench_bnn.py [--repeats 3] [--threads 1 2]``; writes
``benchmarks/results/bench_bnn.json`` with the command, date and machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import numpy as np
import torch
from _harness import machine, write_result

from fairbook.data.tabular import adult_data, compas_data
from fairbook.uncertainty import BNNClassifier
from fairbook.uncertainty.bayes_by_backprop import BayesianMLP, softmax64


class LoopedMLP(BayesianMLP):
    """The baseline network: draws and applies one weight sample at a time."""

    def forward(self, x, n_samples, generator):
        outs, ratios = [], []
        for _ in range(n_samples):
            logits, log_ratio = super().forward(x, 1, generator)
            outs.append(logits)
            ratios.append(log_ratio)
        return torch.cat(outs), torch.cat(ratios)


class LoopedBNN(BNNClassifier):
    """BNNClassifier whose training forward loops over the ``mc_train`` samples."""

    def _build(self, n_features, n_classes, generator):
        sizes = (n_features, *self.hidden_sizes, n_classes)
        return LoopedMLP(
            sizes,
            prior=self.prior,
            generator=generator,
            mu_init_std=self.mu_init_std,
            rho_init=self.rho_init,
        )


def looped_predict(model: BNNClassifier, X: np.ndarray, T: int, seed: int = 0) -> np.ndarray:
    """Baseline inference: T separate draws and forward passes, stacked."""
    x = torch.from_numpy(X.astype(np.float32))
    generator = torch.Generator().manual_seed(seed)
    parts = []
    with torch.no_grad():
        for _ in range(T):
            weights, _ = model.network_.sample(1, generator)
            parts.append(softmax64(BayesianMLP.apply(x, weights)))
    return np.concatenate(parts, axis=0)


def compas_model(cls, seed=0, threads=1):
    return cls(
        (100,),
        epochs=10,
        batch_size=256,
        lam=2000.0,
        mc_train=10,
        lr=0.01,
        mu_init_std="fan_in",
        validation_fraction=0.0,
        seed=seed,
        n_threads=threads,
        progress=False,
    )


def interleaved(fast_fn, slow_fn, repeats):
    """Time both methods ``repeats`` times, taking turns; best of each and all times."""
    times = {"fast": [], "slow": []}
    results = {}
    for _ in range(repeats):
        for name, fn in (("fast", fast_fn), ("slow", slow_fn)):
            start = time.perf_counter()
            results[name] = fn()
            times[name].append(time.perf_counter() - start)
    return (
        min(times["fast"]),
        times["fast"],
        results["fast"],
        min(times["slow"]),
        times["slow"],
        results["slow"],
    )


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="inference repeats")
    parser.add_argument("--train-repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "bench_bnn.json"))
    args = parser.parse_args(argv)

    compas = compas_data(seed=0)
    adult = adult_data()
    results = []
    for threads in args.threads:
        torch.set_num_threads(threads)
        # ---- training on COMPAS
        fast, fast_all, model, slow, slow_all, looped = interleaved(
            lambda t=threads: compas_model(BNNClassifier, threads=t).fit(
                compas.X_train, compas.y_train
            ),
            lambda t=threads: compas_model(LoopedBNN, threads=t).fit(
                compas.X_train, compas.y_train
            ),
            args.train_repeats,
        )
        accuracy = [
            float((m.predict(compas.X_test) == compas.y_test).mean()) for m in (model, looped)
        ]
        results.append(
            {
                "task": "train COMPAS (100 hidden, 10 epochs, batch 256, M=10)",
                "threads": threads,
                "rows": int(len(compas.X_train)),
                "fairbook_s": fast,
                "loop_baseline_s": slow,
                "speedup": slow / fast,
                "all_fairbook_s": fast_all,
                "all_baseline_s": slow_all,
                "test_accuracy_fairbook_vs_baseline": accuracy,
                "goal_s": 30.0,
                "meets_goal": bool(fast < 30.0),
            }
        )
        print(
            f"[{threads} thread(s)] COMPAS training: fairbook {fast:.2f} s, "
            f"per-sample loop {slow:.2f} s ({slow / fast:.1f}x); accuracy {accuracy}"
        )
        # ---- inference on Adult
        for label, hidden in (
            ("Adult network (no hidden layer)", ()),
            ("100 hidden units", (100,)),
        ):
            net = BNNClassifier(
                hidden,
                epochs=1,
                batch_size=256,
                seed=0,
                n_threads=threads,
                mu_init_std="fan_in",
                progress=False,
            )
            net.fit(adult.X_train[:2000], adult.y_train[:2000])
            X = adult.X_test
            net.predict_proba_samples(X[:100], T=10)  # warm-up
            looped_predict(net, X[:100], 10)
            fast, fast_all, probs, slow, slow_all, probs_loop = interleaved(
                lambda n=net, X=X: n.predict_proba_samples(X, T=10),
                lambda n=net, X=X: looped_predict(n, X, 10),
                args.repeats,
            )
            assert probs.shape == probs_loop.shape == (10, len(X), 2)
            results.append(
                {
                    "task": f"predict T=10 on Adult test, {label}",
                    "threads": threads,
                    "rows": int(len(X)),
                    "fairbook_s": fast,
                    "loop_baseline_s": slow,
                    "speedup": slow / fast,
                    "all_fairbook_s": fast_all,
                    "all_baseline_s": slow_all,
                    "goal_s": 1.0,
                    "meets_goal": bool(fast < 1.0),
                }
            )
            print(
                f"[{threads} thread(s)] Adult inference, {label}: fairbook {fast * 1e3:.1f} "
                f"ms, per-sample loop {slow * 1e3:.1f} ms ({slow / fast:.1f}x)"
            )
    report = {
        "command": "python benchmarks/bench_bnn.py " + " ".join(argv or sys.argv[1:]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "note": "speedup = per-sample-loop baseline / fairbook, same process; best of "
        "the repeats; the machine is shared, so absolute seconds carry load",
        "results": results,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_result(args.out, report)
    return report


if __name__ == "__main__":
    main()
