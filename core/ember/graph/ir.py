"""The graph IR: one function as a straight line of primitive calls.

A :class:`Graph` has values of four kinds: the function's tensor ``input``\\s, the
``param``\\s it reads (bound to Parameter objects), ``const`` tensors (host arrays baked in at
trace time) and the outputs of its ``node``\\s. ``nodes`` are in execution order, which is
also a topological order; a node's non-tensor inputs (axes, shapes, dtypes) are stored inline
as Python values. Primitives with side effects (``Primitive.side_effect``) update Parameters
in place and are never removed or merged by the passes.

Control flow is a node whose primitive holds subgraphs (``ember.graph.control_flow``:
``Switch`` runs one of its ``branches``, ``WhileLoop`` its ``body`` while its ``cond`` holds).
A subgraph reads only its own inputs: the node passes it every value it uses, those of the
enclosing graph included, so each graph stays a closed function. Value ids are unique across a
graph and all its subgraphs (they share one counter).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ember.common import dtype as mstype


class Value:
    """A tensor of the graph: its kind, shape, dtype, and where it comes from."""

    __slots__ = ("id", "kind", "shape", "dtype", "node", "index", "param", "array")

    def __init__(self, id: int, kind: str, shape: tuple[int, ...], dtype: mstype.Type,
                 node: Node | None = None, index: int = 0, param: Any = None,
                 array: np.ndarray | None = None) -> None:
        self.id = id
        self.kind = kind  # "input", "param", "const" or "node"
        self.shape = shape
        self.dtype = dtype
        self.node = node  # the producer, for kind "node"
        self.index = index  # which output of the producer, or which input of the graph
        self.param = param  # the Parameter, for kind "param"
        self.array = array  # the host array, for kind "const"

    @property
    def name(self) -> str:
        return {"input": "%arg", "param": "%param", "const": "%const"}.get(
            self.kind, "%") + str(self.id)

    def __repr__(self) -> str:
        return f"{self.name}:{list(self.shape)}:{self.dtype}"


@dataclass(eq=False)
class Node:
    """One primitive call: ``outputs = prim(*inputs)``."""

    id: int
    prim: Any
    inputs: list[Any]  # Values, and Python values for non-tensor inputs
    outputs: list[Value] = field(default_factory=list)
    scope: str = "Default"
    source: str = ""
    multi: bool = False  # the primitive returns a tuple (even of one tensor)

    @property
    def side_effect(self) -> bool:
        return getattr(self.prim, "side_effect", False)

    def tensor_inputs(self) -> list[Value]:
        return [v for v in self.inputs if isinstance(v, Value)]


@dataclass(eq=False)
class Graph:
    """A traced function: inputs, captured parameters and constants, nodes, outputs."""

    name: str
    inputs: list[Value] = field(default_factory=list)
    params: list[Value] = field(default_factory=list)
    consts: list[Value] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    #: The flat outputs: Values, or Python values the function returned as they are.
    outputs: list[Any] = field(default_factory=list)
    #: How to rebuild the function's return value from the flat outputs (see ``unflatten``).
    out_tree: Any = None
    #: The enclosing graph, for a subgraph of a control-flow node (ids come from its counter).
    parent: Graph | None = field(default=None, repr=False)
    _next_id: int = 0

    def new_id(self) -> int:
        if self.parent is not None:
            return self.parent.new_id()
        self._next_id += 1
        return self._next_id - 1

    def __repr__(self) -> str:
        return f"<Graph {self.name!r}: {len(self.inputs)} inputs, {len(self.nodes)} nodes>"

    def users(self) -> dict[int, list[Node]]:
        """Value id -> the nodes that read it."""
        found: dict[int, list[Node]] = {}
        for node in self.nodes:
            for v in node.tensor_inputs():
                found.setdefault(v.id, []).append(node)
        return found


def subgraphs(node: Node) -> tuple[Graph, ...]:
    """The subgraphs of a control-flow node (none for a primitive call)."""
    return getattr(node.prim, "graphs", ())


def walk(graph: Graph) -> list[Graph]:
    """``graph`` and every subgraph nested in it, outermost first."""
    found = [graph]
    for node in graph.nodes:
        for sub in subgraphs(node):
            found.extend(walk(sub))
    return found


# -- nested outputs ---------------------------------------------------------------------------
def flatten(value: Any, is_leaf: Any) -> tuple[list[Any], Any]:
    """The leaves of nested tuples, lists and dicts (their values), and a tree to rebuild them
    with ``unflatten``: ``(kind, [(offset, subtree), ...])``, the kind of a dict being
    ``(dict, keys)``."""
    if isinstance(value, tuple | list | dict) and not is_leaf(value):
        leaves: list[Any] = []
        trees = []
        for item in (value.values() if isinstance(value, dict) else value):
            sub_leaves, sub_tree = flatten(item, is_leaf)
            trees.append((len(leaves), sub_tree))
            leaves.extend(sub_leaves)
        kind = (dict, tuple(value)) if isinstance(value, dict) else type(value)
        return leaves, (kind, trees)
    return [value], None


def unflatten(tree: Any, leaves: list[Any], start: int = 0) -> Any:
    if tree is None:
        return leaves[start]
    kind, trees = tree
    items = (unflatten(sub, leaves, start + offset) for offset, sub in trees)
    return dict(zip(kind[1], items)) if type(kind) is tuple else kind(items)


def read_input(x: Any, arrays: Mapping[int, Any]) -> Any:
    """One node input when a graph runs: a Value's array from ``arrays`` (keyed by value id),
    tuples and lists item by item (AddN, Concat), any other input (an axis, a shape, a dtype)
    as it is. For executors that walk a graph's nodes."""
    if isinstance(x, Value):
        return arrays[x.id]
    if isinstance(x, tuple | list):
        return type(x)(read_input(item, arrays) for item in x)
    return x
