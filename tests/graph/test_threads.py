"""Tracing is per thread: while one thread compiles a graph, the primitives another thread calls
run eagerly, not into that graph."""

from __future__ import annotations

import threading

import numpy as np

from ember import Tensor, context, nn, ops


class Waits(nn.Cell):
    """Holds its trace open until the other thread has run its operators."""

    def __init__(self, started: threading.Event, done: threading.Event):
        super().__init__()
        self.started, self.done = started, done

    def construct(self, x):
        y = ops.mul(x, 2.0)
        self.started.set()
        assert self.done.wait(30)
        return ops.add(y, 1.0)


def test_another_threads_operators_are_not_captured_by_a_trace():
    context.set_context(mode=context.GRAPH_MODE)
    started, done = threading.Event(), threading.Event()
    results: dict[str, object] = {}

    def compile_in_thread():
        try:
            results["graph"] = Waits(started, done)(Tensor(np.ones(3, np.float32))).asnumpy()
        except BaseException as exc:  # reported below
            results["graph"] = exc

    worker = threading.Thread(target=compile_in_thread)
    worker.start()
    assert started.wait(30)
    try:
        x = Tensor(np.arange(4, dtype=np.float32))
        eager = [ops.add(x, float(i)).asnumpy() for i in range(50)]
    finally:
        done.set()
        worker.join(30)
    for i, got in enumerate(eager):
        np.testing.assert_array_equal(got, np.arange(4) + i)
    np.testing.assert_array_equal(results["graph"], [3.0, 3.0, 3.0])
