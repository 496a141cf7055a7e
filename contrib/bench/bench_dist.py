"""Data parallel on MPI: a LeNet-5 training step (graph mode) of 2 ranks with batch 16 each
against 1 rank with batch 32, the same global batch; and the all-reduce bandwidth of the CPU
backend's communicator (the AllReduce primitive) against a bare mpi4py ``Allreduce`` of the
same buffers.

The ranks must call their collectives in step, so they cannot be timed by run.py's adaptive
loop in this process: :func:`measure` launches ``mpirun -n 2 python bench_dist.py --worker``,
whose ranks run fixed counts between barriers (best of several rounds) and rank 0 reports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

MB = 2**20
SIZES_MB = (1, 16)
ROUNDS = 5


def _best_pair(comm: object, ours: Callable[[], object], reference: Callable[[], object],
               count: int) -> tuple[float, float]:
    """The fastest round's seconds per call of each, measured in alternating rounds (so that
    a busier moment of the machine affects both), each round started together on every rank
    and ended when the slowest rank is done."""
    best = [float("inf"), float("inf")]
    for _ in range(ROUNDS):
        for i, fn in enumerate((ours, reference)):
            fn()
            comm.Barrier()
            start = time.perf_counter()
            for _ in range(count):
                fn()
            comm.Barrier()
            best[i] = min(best[i], (time.perf_counter() - start) / count)
    return best[0], best[1]


def worker(steps: int) -> None:
    from lenet_step import BATCH, batch, seeded_lenet, train_cell
    from mpi4py import MPI

    from ember import Tensor, context, ops
    from ember.communication import get_rank, init
    from ember.communication.management import communicator

    context.set_context(mode=context.GRAPH_MODE, device_target="CPU")
    init()
    comm, rank = MPI.COMM_WORLD, get_rank()
    images, labels = batch()
    times: dict[str, float] = {}
    one = train_cell(seeded_lenet())  # stand-alone: rank 0 alone, the others wait
    x, y = Tensor(images), Tensor(labels)
    context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    half = slice(rank * BATCH // 2, (rank + 1) * BATCH // 2)
    both = train_cell(seeded_lenet())
    xs, ys = Tensor(images[half]), Tensor(labels[half])
    times["two ranks, batch 16 each"], times["one rank, batch 32"] = _best_pair(
        comm, lambda: both(xs, ys), (lambda: one(x, y)) if rank == 0 else (lambda: None), steps)
    params = len(both.weights)  # one AllReduce per gradient: split the buckets everywhere
    context.set_auto_parallel_context(all_reduce_fusion_config=list(range(1, params)))
    unfused = train_cell(seeded_lenet())
    context.set_auto_parallel_context(all_reduce_fusion_config=[])
    times["fused"], times["unfused"] = _best_pair(comm, lambda: both(xs, ys),
                                                  lambda: unfused(xs, ys), steps)
    world = communicator("hccl_world_group")
    for name, step in (("fused", both), ("unfused", unfused)):
        before = world.calls
        step(xs, ys)
        times[f"{name} collectives"] = world.calls - before
    all_reduce = ops.AllReduce()
    for size in SIZES_MB:
        buffer = np.ones(size * MB // 4, np.float32)
        out, tensor = np.empty_like(buffer), Tensor(buffer)
        times[f"ember {size} MB"], times[f"mpi4py {size} MB"] = _best_pair(
            comm, lambda t=tensor: all_reduce(t),
            lambda b=buffer, o=out: comm.Allreduce(b, o), 20)
    if rank == 0:
        print(json.dumps(times))


def measure(budget: float = 1.0) -> list[dict]:
    """The rows of run.py's table, measured by a launch of 2 processes (ImportError without
    mpi4py and mpirun: pip install "ember-core[dist]")."""
    import shutil

    import mpi4py  # noqa: F401

    from ember.communication.management import mpirun_command

    if shutil.which("mpirun") is None:
        raise ImportError('mpirun is not installed: pip install "ember-core[dist]"')

    steps = max(5, int(20 * budget))
    command = [*mpirun_command(2), sys.executable, __file__, "--worker", str(steps)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    if run.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{run.stdout}\n{run.stderr}")
    t = json.loads(run.stdout.strip().splitlines()[-1])
    rows = [{"name": "data parallel LeNet-5 step, 2 ranks x 16",
             "ember_s": t["two ranks, batch 16 each"], "reference_s": t["one rank, batch 32"],
             "reference": "1 rank, batch 32 (same global batch)",
             "goal": "< 1x with a core per rank"}]
    rows.append({"name": f"DP LeNet-5 step, {t['fused collectives']} fused AllReduce",
                 "ember_s": t["fused"], "reference_s": t["unfused"],
                 "reference": f"{t['unfused collectives']} AllReduce, one per gradient",
                 "goal": "< 1x"})
    for size in SIZES_MB:
        ours, bare = t[f"ember {size} MB"], t[f"mpi4py {size} MB"]
        rows.append({"name": f"all-reduce {size} MB, 2 ranks: {size / ours:.0f} MB/s",
                     "ember_s": ours, "reference_s": bare,
                     "reference": f"bare mpi4py Allreduce: {size / bare:.0f} MB/s",
                     "goal": "~1x"})
    for row in rows:
        row["ratio"] = row["ember_s"] / row["reference_s"]
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if sys.argv[1:2] == ["--worker"]:
        worker(int(sys.argv[2]))
    else:
        for row in measure():
            print(f"{row['name']:<44} {row['ember_s'] * 1e3:8.3f} ms "
                  f"{row['reference_s'] * 1e3:8.3f} ms {row['ratio']:6.2f}x  "
                  f"{row['reference']}; {row['goal']}")
