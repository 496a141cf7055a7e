"""``GraphCell``: a loaded graph (``ember.load`` of a MindIR file) run as a cell."""

from __future__ import annotations

from typing import Any

from ember.graph.compiler import CompiledFunction
from ember.graph.ir import Graph
from ember.nn.cell import Cell


class GraphCell(Cell):
    """Runs ``graph`` (from ``ember.load``) on the backend in effect, in either mode, as
    ``mindspore.nn.GraphCell``; its parameters are the graph's, under their own names."""

    def __init__(self, graph: Graph) -> None:
        super().__init__()
        if not isinstance(graph, Graph):
            raise TypeError(f"GraphCell: graph must be the result of ember.load, but got "
                            f"{type(graph).__name__}")
        self.graph = graph
        for v in graph.params:
            self.insert_param_to_cell(v.param.name, v.param, check_name=False)
        self._compiled: dict[int, CompiledFunction] = {}

    def __call__(self, *inputs: Any) -> Any:
        from ember._executor import load_graph

        graph = self.graph
        if len(inputs) != len(graph.inputs):
            raise TypeError(f"GraphCell: the graph takes {len(graph.inputs)} inputs, but got "
                            f"{len(inputs)}")
        for i, (x, v) in enumerate(zip(inputs, graph.inputs)):
            if getattr(x, "shape", None) != v.shape or getattr(x, "dtype", None) != v.dtype:
                raise ValueError(f"GraphCell: input {i} must be a Tensor of shape "
                                 f"{list(v.shape)} and dtype {v.dtype}, but got {x!r}")
        executor = load_graph()
        compiled = self._compiled.get(id(executor))
        if compiled is None:
            compiled = self._compiled[id(executor)] = CompiledFunction(
                graph, executor.compile(graph), executor)
        return compiled(inputs)
