"""The threads of the CPU kernels that split their work into blocks (convolutions, large
matrix products).

NumPy releases the GIL inside BLAS calls and array copies, so the blocks of one kernel run on
several cores from a small pool of Python threads. The CPU executors hold NumPy's BLAS to one
thread (``hold_blas``; ``EMBER_CPU_HOLD_BLAS=0`` opts out): a kernel too small to split runs on
one core, where two-thread BLAS calls on a loaded machine measured 10x slower (LeNet-5's step,
batch 32: 25 ms against 2.5).
The count is what the BLAS itself reads: ``OMP_NUM_THREADS`` (or
``OPENBLAS_NUM_THREADS``), else the cores this process may run on; ``1`` runs every block in
the calling thread. Pool threads block on a queue while they wait, where BLAS threads spin: on a
machine whose cores are busy with other work this costs little.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from ember_cpu._env import switched_on

_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")
HOLD_ENV = "EMBER_CPU_HOLD_BLAS"
_SHARED_BLOCKS = 4


@functools.cache
def count() -> int:
    """How many threads a kernel's blocks may use."""
    for name in _ENV:
        setting = os.environ.get(name, "").split(",")[0].strip()
        if setting:
            if not setting.isdigit() or int(setting) < 1:
                raise ValueError(f"{name} must be a positive integer, but got {setting!r}")
            return int(setting)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(count() - 1, thread_name_prefix="ember-cpu")


@functools.cache
def hold_blas() -> bool:
    """Hold NumPy's BLAS to one thread for the rest of the process (once); True when held
    (False: ``EMBER_CPU_HOLD_BLAS=0`` leaves the BLAS threads as they are)."""
    if not switched_on(HOLD_ENV):
        return False
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    return True


def blocks(items: int, item_bytes: int, block_bytes: int) -> list[tuple[int, int]]:
    """``range(items)`` cut into (start, stop) blocks of equal size, about ``block_bytes``
    each (an item being ``item_bytes``), at most one an item. Work of fewer than
    ``_SHARED_BLOCKS`` blocks stays in the calling thread (``each``: handing a block to another
    thread costs about 0.1 ms, and LeNet-5's batch-32 step ran 10-25% slower with its
    two-block convolutions shared); work of more is cut into a multiple of the thread count,
    so that the threads share it evenly."""
    cuts = -(-items * item_bytes // block_bytes)
    if cuts >= _SHARED_BLOCKS:
        cuts = -(-cuts // count()) * count()
    cuts = min(items, cuts)
    bounds = [items * i // max(cuts, 1) for i in range(cuts + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


def each(run: Callable[[int], object], blocks: int, shared_from: int = _SHARED_BLOCKS) -> None:
    """``run(i)`` for every block ``i`` in ``range(blocks)``: shared round-robin between the
    calling thread and the pool's where there are ``shared_from`` blocks or more, else all in
    the calling thread."""
    threads = min(count(), blocks) if blocks >= shared_from else 1
    if threads <= 1:
        for i in range(blocks):
            run(i)
        return

    def share(first: int) -> None:
        for i in range(first, blocks, threads):
            run(i)

    others = [_pool().submit(share, t) for t in range(1, threads)]
    try:
        share(0)
    finally:  # no block still writes once this returns or raises
        wait(others)
    for future in others:
        future.result()
