"""Run every benchmark in this folder: a table on stdout and JSON on disk.

Each ``bench_*.py`` module defines ``BENCHMARKS``: a list of :class:`Benchmark`. A benchmark
times ember and a reference measured in the same run (bare NumPy, hand-written code,
TensorFlow), and reports both with their ratio. A module whose work cannot run in this process
(bench_dist.py launches MPI processes) defines ``measure(budget)`` instead, returning the rows.

    python contrib/bench/run.py [--only SUBSTRING] [--json bench.json]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Benchmark:
    """``ember()`` and ``reference()`` each do one unit of work (one call, one step)."""

    name: str
    ember: Callable[[], object]
    reference: Callable[[], object]
    reference_name: str
    goal: str = ""  # the target, shown next to the figures


def _calls_per_round(fn: Callable[[], object], seconds: float) -> int:
    fn()  # warm up (caches, compilation)
    calls, start = 1, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds / 4:
        fn()
        calls += 1
    return max(1, int(calls * seconds / max(elapsed, 1e-9)))


def best_seconds_pair(ours: Callable[[], object], reference: Callable[[], object],
                      budget: float = 1.0, repeats: int = 7) -> tuple[float, float]:
    """The fastest per-call time of each over ``repeats`` rounds, the two measured in
    alternating rounds so that a slower or faster moment of the machine affects both."""
    per_round = budget / repeats / 2
    counts = _calls_per_round(ours, per_round), _calls_per_round(reference, per_round)
    best = [float("inf"), float("inf")]
    gc.collect()
    for _ in range(repeats):
        for i, (fn, count) in enumerate(zip((ours, reference), counts)):
            start = time.perf_counter()
            for _ in range(count):
                fn()
            best[i] = min(best[i], (time.perf_counter() - start) / count)
    return best[0], best[1]


def _load(path: Path) -> object:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fmt(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run benchmarks whose name contains this")
    parser.add_argument("--json", default="bench.json", help="where to write the results")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per measurement")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'benchmark':<44} {'ember':>10} {'reference':>10} {'ratio':>7}  reference / goal")
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        module = _load(path)
        if hasattr(module, "measure"):
            try:
                measured = [r for r in module.measure(args.budget) if args.only in r["name"]]
            except ImportError as exc:  # what it launches is not installed here
                print(f"{path.name}: not run: {exc}", flush=True)
                continue
        else:
            measured = []
            for bench in module.BENCHMARKS:
                if args.only not in bench.name:
                    continue
                ours, ref = best_seconds_pair(bench.ember, bench.reference, args.budget)
                measured.append({"name": bench.name, "ember_s": ours, "reference_s": ref,
                                 "ratio": ours / ref, "reference": bench.reference_name,
                                 "goal": bench.goal})
        for row in measured:
            print(f"{row['name']:<44} {_fmt(row['ember_s']):>10} {_fmt(row['reference_s']):>10} "
                  f"{row['ratio']:>6.2f}x  {row['reference']}; {row['goal']}", flush=True)
        rows.extend(measured)
    report = {"python": platform.python_version(), "machine": platform.machine(),
              "results": rows}
    Path(args.json).write_text(json.dumps(report, indent=2))
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
