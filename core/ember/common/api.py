"""``mindspore.common.api``: ``ms_function``/``jit`` and the cell graph executor of the tests."""

from __future__ import annotations

from typing import Any

from ember.graph.compiler import jit, ms_function, ms_memory_recycle
from ember.graph.ir import Graph
from ember.graph.tracer import trace


class _CellGraphExecutor:
    """Front-end compilation of a Cell, as MindSpore's unit tests drive it.

    ``compile(net, *inputs)`` traces ``net.construct`` into a graph, checking every shape and
    dtype rule without running a kernel, and returns the phase name; ``net(*inputs)`` runs it.
    """

    def __init__(self) -> None:
        self.graphs: dict[str, Graph] = {}

    def compile(self, obj: Any, *args: Any, phase: str = "predict", do_convert: bool = True,
                auto_parallel_mode: bool = False) -> str:
        if not hasattr(obj, "construct"):
            raise TypeError(f"_cell_graph_executor.compile: obj must be a Cell, but got "
                            f"{type(obj).__name__}")
        name = f"{phase}.{type(obj).__name__}.{id(obj)}"
        self.graphs[name] = trace(lambda *a: obj._run_construct(a, {}), args,
                                  type(obj).__name__, obj)
        return name

    def has_compiled(self, phase: str = "predict") -> bool:
        return any(key.startswith(phase + ".") for key in self.graphs)

    def __call__(self, obj: Any, *args: Any, phase: str = "predict") -> Any:
        return obj(*args)


_cell_graph_executor = _CellGraphExecutor()
_executor = _cell_graph_executor  # the name MindSpore used before 1.3

__all__ = ["_cell_graph_executor", "jit", "ms_function", "ms_memory_recycle"]
