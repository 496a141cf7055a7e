"""Collectives: the core's kernels, which call the communicator (``ember_gpu.communicator``:
host staging through the CPU backend's MPI communicator), marked as calling Python so that
graph.py does not ask XLA to compile their graphs whole."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember.ops.operations.comm_ops import COLLECTIVE_KERNELS


def _calls_python(factory: Callable[[Any], Callable[..., Any]]) -> Callable[[Any], Any]:
    """The kernel factory, its kernels marked as calling Python (graph.py then does not ask
    XLA to compile their graphs whole)."""
    def make(prim: Any) -> Callable[..., Any]:
        kernel = factory(prim)

        def run(*arrays: Any) -> Any:
            return kernel(*arrays)

        run.calls_python = True  # type: ignore[attr-defined]
        return run

    return make


KERNELS = {name: _calls_python(factory) for name, factory in COLLECTIVE_KERNELS.items()}
