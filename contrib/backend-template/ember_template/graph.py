"""The template's Graph-mode executor: the object ``ember_graph_executor`` returns.

``compile(graph)`` receives the whole traced function as an ``ember.graph.ir.Graph``, after the
core's passes (dead code, common subexpressions, constant folding), and returns a callable:
given the device arrays of ``graph.inputs`` then ``graph.params``, it returns a tuple with the
device arrays of the graph outputs that are Values, in order.

**This is where a real backend compiles.** ember's CPU backend writes one straight-line Python
function; a GPU backend turns the graph into one ``tf.function(jit_compile=True)`` for XLA; an
Ascend one records the aclnn operators of a first run and replays them on its stream.
The template does the least that is correct: it resolves every node's kernel once, moves the
constants to the device once, works out when each intermediate array can be dropped, and
then interprets the node list on every call.

Control flow arrives as nodes whose primitive holds subgraphs (``ember.graph.ir.subgraphs``):
``Switch`` (``prim.branches``; a bool index picks ``branches[1]`` when true, an integer one is
clamped into range), ``WhileLoop`` (``prim.cond``, ``prim.body``, ``prim.count`` carries
first among its inputs; with ``prim.save``, it also returns each carry's values at the start of
every iteration) and ``ReverseScan`` (a loop over those saved iterations, last first: a loop's
gradient). Each subgraph reads only its own inputs; the template runs them with a Python
``if``, ``while`` and ``for``, and keeps the saved iterations in lists, as a backend with
device-side control flow would hand them to its compiler.

Kernels come from ``ember.backend.resolve_kernel``, not from the PyNative executor directly,
so a primitive this backend lacks runs on ``fallback_device_target`` in Graph mode too, when the
user sets one; without it, compiling raises ``MissingKernelError`` naming the primitive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ember.backend import resolve_kernel
from ember.graph.ir import Graph, Node, Value, read_input, subgraphs

from ember_template.device import DEVICE, DeviceArray
from ember_template.executor import TemplateExecutor
from ember_template.kernels import Kernel

#: The PyNative executor's kernels serve the graphs too.
_EAGER = TemplateExecutor()


@dataclass(frozen=True)
class _Step:
    """One node: its kernel, and the values nothing reads after it (dropped right away)."""

    node: Node
    kernel: Kernel | None  # None for a control-flow node
    drop: tuple[int, ...]


class _Program:
    """One graph (the function, or a subgraph) ready to interpret."""

    def __init__(self, graph: Graph, wrap: Any = None) -> None:
        self.graph = graph
        self.arguments = [v.id for v in (*graph.inputs, *graph.params)]
        self.constants = {v.id: DEVICE.from_host(v.array) for v in graph.consts}
        self.results = [v.id for v in graph.outputs if isinstance(v, Value)]
        #: node id -> the programs of its subgraphs, for control-flow nodes
        self.subprograms = {node.id: [_Program(g, wrap) for g in subgraphs(node)]
                            for node in graph.nodes if subgraphs(node)}
        kernels = [None if subgraphs(node) else resolve_kernel(_EAGER, node.prim)
                   for node in graph.nodes]
        if wrap is not None:  # the profiler or the dump observe each node
            kernels = [k if k is None else wrap(node, k)
                       for node, k in zip(graph.nodes, kernels, strict=True)]
        last_read: dict[int, int] = {}
        for i, node in enumerate(graph.nodes):
            for value in _values(node.inputs):
                last_read[value.id] = i
            for value in node.outputs:  # an output nothing reads goes right after its node
                last_read.setdefault(value.id, i)
        kept = set(self.results)
        drops: dict[int, list[int]] = {}
        for value_id, i in last_read.items():
            if value_id not in kept:
                drops.setdefault(i, []).append(value_id)
        self.steps = [_Step(node, kernel, tuple(drops.get(i, ())))
                      for i, (node, kernel) in enumerate(zip(graph.nodes, kernels, strict=True))]

    def run(self, arrays: Any, name: str) -> tuple[DeviceArray, ...]:
        env: dict[int, Any] = dict(self.constants)
        env.update(zip(self.arguments, arrays, strict=True))
        for step in self.steps:
            node = step.node
            args = [read_input(x, env) for x in node.inputs]
            if step.kernel is None:
                out = self.control_flow(node, args, name)
            else:
                try:
                    out = step.kernel(*args)
                except Exception as exc:
                    raise RuntimeError(
                        f"{node.prim.name} failed at {node.source or '<unknown>'} (scope "
                        f"{node.scope}) in graph {name!r}: {type(exc).__name__}: "
                        f"{exc}") from exc
            outs = out if node.multi else (out,)
            env.update(zip((v.id for v in node.outputs), outs, strict=True))
            for value_id in step.drop:
                env.pop(value_id, None)
        return tuple(env[value_id] for value_id in self.results)

    def control_flow(self, node: Node, args: list[Any], name: str) -> tuple:
        programs = self.subprograms[node.id]
        if node.prim.name == "Switch":
            index = DEVICE.to_host(args[0]).item()
            if not isinstance(index, bool):
                index = min(max(int(index), 0), len(programs) - 1)
            return programs[int(index)].run(args[1:], name)
        count = node.prim.count
        if node.prim.name == "ReverseScan":  # the saved iterations, last first
            (body,) = programs
            stacks, rest = args[:count], args[count:]
            size = len(node.prim.body.outputs)
            carries, outside = tuple(rest[:size]), rest[size:]
            for j in reversed(range(len(stacks[0]))):
                carries = body.run([*(s[j] for s in stacks), *carries, *outside], name)
            return carries
        test, body = programs
        carries, outside = tuple(args[:count]), args[count:]
        stacks: list[list[Any]] = [[] for _ in carries]  # filled by a saving loop only
        while DEVICE.to_host(test.run([*carries, *outside], name)[0]).item():
            if node.prim.save:
                for stack, carry in zip(stacks, carries, strict=True):
                    stack.append(carry)
            carries = body.run([*carries, *outside], name)
        return (*carries, *stacks) if node.prim.save else carries


class CompiledGraph:
    """A graph ready to run on the Template device."""

    def __init__(self, graph: Graph, wrap: Any = None) -> None:
        self.graph = graph
        self.program = _Program(graph, wrap)

    def __call__(self, *arrays: DeviceArray) -> tuple[DeviceArray, ...]:
        return self.program.run(arrays, self.graph.name)

    def __repr__(self) -> str:
        g = self.graph
        return (f"<CompiledGraph {g.name!r} on Template: {len(g.inputs)} inputs, "
                f"{len(g.params)} params, {len(g.nodes)} nodes>")


class GraphExecutor:
    """Compiles IR graphs for the Template device (the PyNative executor's ``device``, so
    tensors pass between the two modes without a move)."""

    name = "Template"
    device = DEVICE

    def compile(self, graph: Graph, wrap: Any = None) -> CompiledGraph:
        return CompiledGraph(graph, wrap)


def _values(inputs: Any) -> list[Value]:
    """The Values among a node's inputs, also inside tuples and lists (AddN, Concat)."""
    found: list[Value] = []
    for x in inputs:
        if isinstance(x, Value):
            found.append(x)
        elif isinstance(x, tuple | list):
            found.extend(_values(x))
    return found
