"""Graph passes: dead-code elimination, common-subexpression elimination, constant folding.

Each pass takes a graph and returns it changed in place. Only pure nodes (``Primitive.pure``:
no side effect, no randomness) are removed, merged or folded.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ember.graph.ir import Graph, Node, Value


def _pure(node: Node) -> bool:
    return getattr(node.prim, "pure", True)


def eliminate_dead_code(graph: Graph) -> Graph:
    """Drop pure nodes none of whose outputs is used, and parameters/constants nobody reads."""
    live = {v.id for v in graph.outputs if isinstance(v, Value)}
    kept: list[Node] = []
    for node in reversed(graph.nodes):
        if not _pure(node) or any(v.id in live for v in node.outputs):
            kept.append(node)
            live.update(v.id for v in node.tensor_inputs())
    graph.nodes = kept[::-1]
    graph.params = [v for v in graph.params if v.id in live]
    graph.consts = [v for v in graph.consts if v.id in live]
    return graph


def _frozen(value: Any) -> Any:
    """A hashable stand-in for an attribute or inline input; TypeError if there is none."""
    if isinstance(value, Value):
        return ("value", value.id)
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    hash(value)
    return (type(value).__name__, value)


def _rewire(graph: Graph, replace: dict[int, Value]) -> None:
    """Make every reader of a replaced value read its replacement."""
    if not replace:
        return
    for node in graph.nodes:
        node.inputs = [replace.get(v.id, v) if isinstance(v, Value) else v
                       for v in node.inputs]
    graph.outputs = [replace.get(v.id, v) if isinstance(v, Value) else v
                     for v in graph.outputs]


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    """Merge pure nodes that apply the same primitive, attributes and inputs; and constants
    with the same values."""
    replace: dict[int, Value] = {}
    consts: dict[Any, Value] = {}
    for value in graph.consts:
        key = _frozen(value.array)
        replace_with = consts.setdefault(key, value)
        if replace_with is not value:
            replace[value.id] = replace_with
    seen: dict[Any, Node] = {}
    kept: list[Node] = []
    versions: dict[int, int] = {}  # parameter value id -> impure nodes that took it so far
    for node in graph.nodes:
        node.inputs = [replace.get(v.id, v) if isinstance(v, Value) else v
                       for v in node.inputs]
        key = None
        if _pure(node):
            try:
                state = tuple(versions.get(v.id, 0) for v in node.tensor_inputs())
                key = (type(node.prim), _frozen(node.prim.attrs()), _frozen(node.inputs),
                       state)
            except TypeError:
                key = None
        else:  # it may update its Parameter inputs in place: later reads are new values
            for v in node.tensor_inputs():
                if v.kind == "param":
                    versions[v.id] = versions.get(v.id, 0) + 1
        earlier = seen.get(key) if key is not None else None
        if earlier is not None:
            replace.update((v.id, e) for v, e in zip(node.outputs, earlier.outputs))
            continue
        if key is not None:
            seen[key] = node
        kept.append(node)
    graph.nodes = kept
    graph.consts = [v for v in graph.consts if v.id not in replace]
    _rewire(graph, replace)
    return graph


#: Results larger than this many elements stay computed at run time rather than stored.
FOLD_LIMIT = 1 << 16


def fold_constants(graph: Graph, evaluate: Callable[[Node, list[Any]], list[np.ndarray]]
                   ) -> Graph:
    """Compute, at compile time, pure nodes whose tensor inputs are all constants; their
    outputs become constants. ``evaluate(node, inputs)`` runs one node on host arrays."""
    replace: dict[int, Value] = {}
    kept: list[Node] = []
    for node in graph.nodes:
        node.inputs = [replace.get(v.id, v) if isinstance(v, Value) else v
                       for v in node.inputs]
        tensors = node.tensor_inputs()
        foldable = (_pure(node) and tensors and all(v.kind == "const" for v in tensors)
                    and sum(math.prod(v.shape) for v in node.outputs) <= FOLD_LIMIT)
        if not foldable:
            kept.append(node)
            continue
        arrays = [v.array if isinstance(v, Value) else v for v in node.inputs]
        for value, array in zip(node.outputs, evaluate(node, arrays)):
            const = Value(graph.new_id(), "const", value.shape, value.dtype, array=array)
            graph.consts.append(const)
            replace[value.id] = const
    graph.nodes = kept
    _rewire(graph, replace)
    return graph
