"""Tracing: running a function on symbolic tensors records it as a :class:`Graph`.

While tracing, the :class:`Tracer` stands in for the PyNative executor: every primitive call
reaches its ``kernel``, which records a node instead of computing. Tensors of the trace hold a
graph :class:`Value` as their data and the tracer as their device, so shape/dtype inference,
implicit casts and the autodiff tape run exactly as in PyNative mode; gradients taken inside a
traced function become nodes of the same graph.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ember import _autodiff
from ember._executor import state
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.graph.ir import Graph, Node, Value, flatten
from ember.ops.primitive import user_frame


class GraphCompileError(RuntimeError):
    """A function cannot be compiled into a graph; the message names the user's line."""


class Tracer:
    """The executor in effect while a graph is traced."""

    def __init__(self, graph: Graph, scopes: dict[int, str], max_depth: int) -> None:
        self.graph = graph
        self.device = self
        self.scopes = scopes  # id(cell) -> "Default/conv1-Conv2d"
        self.cells: list[Any] = []  # the cells being called, innermost last
        self.max_depth = max_depth
        #: id(tensor) -> (tensor, value); holding the tensor keeps its id from being reused
        self.captured: dict[int, tuple[Tensor, Value]] = {}
        self.op_count = 0

    # -- the executor protocol ------------------------------------------------------------
    def kernel(self, prim: Any) -> Callable[..., Any]:
        return functools.partial(self.record, prim)

    def to_host(self, data: Any) -> Any:
        raise GraphCompileError(
            f"the value of a Tensor is not known while a graph is compiled (at {user_frame()}): "
            "Python control flow or conversions (if, while, bool(), float(), asnumpy()) on "
            "tensor values cannot be traced. Express the choice with ops.Select (elementwise) "
            "or ops.Maximum/Minimum, keep the condition on Python values, or run this code in "
            "PYNATIVE_MODE")

    # -- recording ----------------------------------------------------------------------------
    def record(self, prim: Any, *arrays: Any) -> Any:
        """Add ``prim(*arrays)`` to the graph and return its output Value(s)."""
        symbolic = [(a.param if a.kind == "param" else Tensor._make(a, a.dtype, a.shape, self))
                    if isinstance(a, Value) else a for a in arrays]
        spec = prim.infer(*symbolic)
        multi = type(spec) is list
        scope = self.scopes.get(id(self.cells[-1]), "Default") if self.cells else "Default"
        if _autodiff.state.backward:  # as MindSpore names the nodes of a backward pass
            scope = f"Gradients/{scope}"
        node = Node(self.graph.new_id(), prim, list(arrays),
                    scope=f"{scope}/{prim.name}-op{self.op_count}", source=user_frame(),
                    multi=multi)
        self.op_count += 1
        node.outputs = [Value(self.graph.new_id(), "node", shape, dtype, node, i)
                        for i, (shape, dtype) in enumerate(spec if multi else [spec])]
        self.graph.nodes.append(node)
        return tuple(node.outputs) if multi else node.outputs[0]

    def capture(self, tensor: Tensor) -> Value:
        """A tensor from outside the trace: a Parameter becomes a graph parameter (read at
        each run), any other tensor a constant."""
        if isinstance(tensor._device, Tracer):
            raise GraphCompileError(
                f"a tensor of another graph being compiled is used at {user_frame()}: nested "
                "compiled functions must receive it as an input")
        found = self.captured.get(id(tensor))
        if found is not None:
            return found[1]
        if isinstance(tensor, Parameter):
            value = Value(self.graph.new_id(), "param", tensor.shape, tensor.dtype,
                          index=len(self.graph.params), param=tensor)
            self.graph.params.append(value)
        else:
            value = Value(self.graph.new_id(), "const", tensor.shape, tensor.dtype,
                          array=tensor.asnumpy())
            self.graph.consts.append(value)
        self.captured[id(tensor)] = (tensor, value)
        return value

    def symbolic_input(self, arg: Any) -> Any:
        """A traced stand-in for one argument of the function: Tensors (also inside tuples and
        lists) become graph inputs; Parameters and other values stay as they are (graph
        parameters where they are used, and constants)."""
        if isinstance(arg, tuple | list):
            return type(arg)(self.symbolic_input(a) for a in arg)
        if not isinstance(arg, Tensor) or isinstance(arg, Parameter):
            return arg  # a Parameter stands for itself: captured where it is used
        value = Value(self.graph.new_id(), "input", arg.shape, arg.dtype,
                      index=len(self.graph.inputs))
        self.graph.inputs.append(value)
        return Tensor._make(value, value.dtype, value.shape, self)

    # -- cells --------------------------------------------------------------------------------
    def call_cell(self, cell: Any, call: Callable[[], Any]) -> Any:
        """Run ``call`` (the cell's construct) inside the cell's scope, bounding the depth."""
        if len(self.cells) >= self.max_depth:
            raise GraphCompileError(
                f"calls nested deeper than max_call_depth={self.max_depth} while compiling "
                f"{type(cell).__name__} (at {user_frame()}): raise it with "
                "set_context(max_call_depth=...) or flatten the recursion")
        self.cells.append(cell)
        try:
            return call()
        finally:
            self.cells.pop()


def scopes_of(root: Any) -> dict[int, str]:
    """The scope full name of every cell under ``root``: ``Default/conv1-Conv2d``."""
    from ember import context

    with_class = context.get_context("reserve_class_name_in_scope")
    found: dict[int, str] = {}
    if root is None or not hasattr(root, "cells_and_names"):
        return found
    for path, cell in root.cells_and_names():
        parent = path.rpartition(".")[0]
        base = found.get(id(_at(root, parent)), "Default") if path else "Default"
        if path:
            name = path.rpartition(".")[2]
            base = f"{base}/{name}-{type(cell).__name__}" if with_class else f"{base}/{name}"
        found.setdefault(id(cell), base)
    return found


def _at(root: Any, path: str) -> Any:
    cell = root
    for part in filter(None, path.split(".")):
        cell = cell._cells[part]
    return cell


def trace(fn: Callable[..., Any], args: tuple, name: str, root: Any = None) -> Graph:
    """Record ``fn(*args)`` as a graph; ``root`` (a Cell) names the scopes."""
    from ember import context

    graph = Graph(name)
    tracer = Tracer(graph, scopes_of(root), context.get_context("max_call_depth"))
    saved = state.eager, state.tracer
    state.eager, state.tracer = tracer, tracer
    try:
        symbolic = [tracer.symbolic_input(a) for a in args]
        out = fn(*symbolic) if root is None else tracer.call_cell(root, lambda: fn(*symbolic))
    finally:
        state.eager, state.tracer = saved
    leaves, graph.out_tree = flatten(out, lambda v: False)
    graph.outputs = [_output_value(tracer, leaf) for leaf in leaves]
    return graph


def _output_value(tracer: Tracer, leaf: Any) -> Any:
    if isinstance(leaf, Tensor):
        return leaf._data if leaf._device is tracer else tracer.capture(leaf)
    return leaf
