"""The GPU backend's Graph-mode executor: an IR graph becomes one XLA-compiled ``tf.function``.

``GraphExecutor(device).compile(graph)`` returns a :class:`CompiledGraph`. Its body walks the
graph's nodes in order and calls each node's kernel, the same TensorFlow kernels PyNative mode
runs; ``tf.function`` traces that walk once into a TensorFlow graph and, with
``jit_compile=True``, XLA compiles it whole. So a call costs one launch of compiled code, and a
training step (forward, backward and the optimizer's in-place updates of the Parameters, which
are ``tf.Variable`` arguments) is one compiled call.

Control flow maps to TensorFlow's functional control flow, which XLA compiles: a ``Switch``
node becomes ``tf.cond`` (a bool index) or ``tf.switch_case`` (an integer one), a ``WhileLoop``
``tf.while_loop``; their subgraphs run as the branch and loop functions, reading the node's
other inputs (Parameters' variables included) from the enclosing function. A loop whose
gradient is taken writes its carries into a ``tf.TensorArray`` each, of dynamic size, which
its ``ReverseScan`` (a ``tf.while_loop`` backwards) reads; XLA needs static sizes, so such a graph
runs as a plain ``tf.function`` (TensorFlow under XLA asks for ``maximum_iterations``, which a
MindSpore loop does not give).

A graph that calls Python (hooks, ``ops.Print``, primitives run by ``fallback_device_target``)
cannot be compiled whole by XLA: it runs as a plain ``tf.function``, with those nodes as
``tf.numpy_function`` calls, and XLA compiles the clusters around them when
``enable_graph_kernel`` is on (auto-clustering).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ember._executor import FallbackKernel
from ember.backend import resolve_kernel
from ember.graph.ir import Graph, Node, Value, read_input, subgraphs, walk
from ember_gpu.device import TfDevice
from ember_gpu.executor import TfExecutor
from ember_gpu.kernels.python import python_call


class CompiledGraph:
    """A graph ready to run: call it with the input arrays, then the parameter variables."""

    def __init__(self, graph: Graph, device: TfDevice,
                 wrap: Callable[..., Any] | None = None) -> None:
        tf = device.tf
        self.graph = graph
        self.device = device
        eager = TfExecutor(device)
        #: The kernel of every primitive node, those of the subgraphs included, by node id.
        self.kernels = {node.id: self._node_kernel(node, resolve_kernel(eager, node.prim))
                        for g in walk(graph) for node in g.nodes if not subgraphs(node)}
        #: Whether XLA compiles the graph whole: not when a node calls back into Python or
        #: uses a TensorFlow op XLA lacks (its kernel says ``xla = False``), nor when a loop
        #: saves its iterations for a gradient (TensorArrays of a size known at run time
        #: only, which XLA cannot compile).
        self.jit = not any(getattr(k, "calls_python", False) or not getattr(k, "xla", True)
                           for k in self.kernels.values()) and not any(
            getattr(n.prim, "save", False) for g in walk(graph) for n in g.nodes)
        #: Observed (``wrap``: the profiler or the dump): the nodes run eagerly, one by one,
        #: each kernel wrapped, so that each node's time and values are seen.
        self.eager = wrap is not None
        if wrap is not None:
            nodes = {node.id: node for g in walk(graph) for node in g.nodes}
            self.kernels = {i: wrap(nodes[i], k) for i, k in self.kernels.items()}
            self.jit = False
        self.function = tf.function(self._body, jit_compile=True if self.jit else None,
                                    autograph=False)
        self._concrete: Any = None

    def _node_kernel(self, node: Node, kernel: Callable[..., Any]) -> Callable[..., Any]:
        if not isinstance(kernel, FallbackKernel):
            return kernel
        tf = self.device.tf

        def on_host(*arrays: Any) -> Any:  # the fallback kernel counts, warns and moves
            result = kernel(*map(tf.constant, arrays))
            return tuple(r.numpy() for r in result) if node.multi else result.numpy()

        return python_call(on_host, [(v.shape, v.dtype) for v in node.outputs], node.multi)

    def _body(self, *arrays: Any) -> tuple:
        """The graph's computation on TensorFlow values; traced once by ``tf.function``."""
        tf = self.device.tf
        # An in-place update's result is its Variable: return the value it holds now.
        return tuple(tf.identity(out) for out in self._run(self.graph, arrays))

    def _run(self, graph: Graph, arrays: Any) -> list[Any]:
        """``graph`` on TensorFlow values (its inputs, then its parameters): the values of
        its outputs that are Values."""
        tf = self.device.tf
        env: dict[int, Any] = {v.id: tf.constant(v.array) for v in graph.consts}
        env.update(zip((v.id for v in (*graph.inputs, *graph.params)), arrays, strict=True))
        for node in graph.nodes:
            args = [read_input(x, env) for x in node.inputs]
            if subgraphs(node):
                with tf.name_scope(_tf_scope(node)):
                    out = self._control_flow(node, args)
            else:
                try:
                    with tf.name_scope(_tf_scope(node)):  # TF's op names, errors and traces
                        out = self.kernels[node.id](*args)
                except Exception as exc:
                    raise RuntimeError(
                        f"{node.prim.name} failed at {node.source or '<unknown>'} (scope "
                        f"{node.scope}) while graph {self.graph.name!r} was compiled for the "
                        f"GPU backend: {type(exc).__name__}: {exc}") from exc
            env.update(zip((v.id for v in node.outputs), out if node.multi else (out,),
                           strict=True))
        return [env[v.id] for v in graph.outputs if isinstance(v, Value)]

    def _control_flow(self, node: Node, args: list[Any]) -> tuple:
        """A ``Switch`` as ``tf.cond``/``tf.switch_case``, a ``WhileLoop`` and a ``ReverseScan``
        as ``tf.while_loop``."""
        tf = self.device.tf
        prim = node.prim
        if prim.name == "Switch":
            index, operands = tf.reshape(args[0], []), args[1:]
            branches = [lambda g=g: self._run(g, operands) for g in prim.branches]
            if index.dtype == tf.bool:
                return tuple(tf.cond(index, branches[1], branches[0]))
            index = tf.clip_by_value(tf.cast(index, tf.int32), 0, len(branches) - 1)
            return tuple(tf.switch_case(index, branches))
        count = prim.count
        if prim.name == "ReverseScan":  # the stacks' rows backwards: a loop over their index
            stacks, rest = args[:count], args[count:]
            size = len(prim.body.outputs)
            carries = [tf.convert_to_tensor(a) for a in rest[:size]]
            outside = rest[size:]

            def back(j: Any, *c: Any) -> list[Any]:
                rows = [s.read(j - 1) for s in stacks]
                return [j - 1, *self._run(prim.body, [*rows, *c, *outside])]

            return tuple(tf.while_loop(lambda j, *c: j > 0, back,
                                       [stacks[0].size(), *carries])[1:])
        carries = [tf.convert_to_tensor(a) for a in args[:count]]  # a variable's value
        outside = args[count:]
        # The trip count (tf.while_loop needs a loop variable; a saving loop writes there),
        # then, for a saving loop, one TensorArray per carry.
        extra = [tf.constant(0)] + [tf.TensorArray(c.dtype, size=0, dynamic_size=True,
                                                   element_shape=c.shape)
                                    for c in (carries if prim.save else ())]

        def test(*c: Any) -> Any:
            return tf.reshape(self._run(prim.cond, [*c[:count], *outside])[0], [])

        def body(*c: Any) -> list[Any]:
            trips, stacks = c[count], c[count + 1:]
            return [*self._run(prim.body, [*c[:count], *outside]), trips + 1,
                    *(s.write(trips, v) for s, v in zip(stacks, c))]

        result = tf.while_loop(test, body, [*carries, *extra])
        return (*result[:count], *result[count + 1:])

    def __call__(self, *arrays: Any) -> tuple:
        # The concrete function traced for this call's signature (the core compiles a graph per
        # input signature): calling it directly skips tf.function's per-call matching of every
        # argument, ~45 us an argument for the Parameters' variables.
        if self.eager:
            return self._body(*self._inputs(arrays))
        if self._concrete is None:
            self._concrete = self.function.get_concrete_function(*self._inputs(arrays))
        try:
            return self._concrete(*self._inputs(arrays))
        except self.device.tf.errors.OpError as exc:
            raise self._failure(exc) from None

    def _failure(self, exc: Exception) -> Exception:
        """A TensorFlow error at run time as the RuntimeError that names the node it came from
        (its TensorFlow ops are named after the node's scope)."""
        text = str(exc)
        nodes = [n for g in walk(self.graph) for n in g.nodes]
        node = next((n for n in reversed(nodes) if f"{_tf_scope(n)}/" in text), None)
        if node is None:
            return exc
        first = getattr(exc, "message", text).strip().splitlines()[0]
        return RuntimeError(f"{node.prim.name} failed at {node.source or '<unknown>'} (scope "
                            f"{node.scope}) in graph {self.graph.name!r} on the GPU backend: "
                            f"{type(exc).__name__}: {first}")

    def _inputs(self, arrays: tuple) -> tuple:
        """Graph inputs as tensors (the result of an in-place update is a variable), then the
        parameters' variables."""
        count, variable = len(self.graph.inputs), self.device.tf.Variable
        if any(isinstance(a, variable) for a in arrays[:count]):
            read = self.device.tf.convert_to_tensor
            return (*(read(a) for a in arrays[:count]), *arrays[count:])
        return arrays

    def __repr__(self) -> str:
        g = self.graph
        how = "XLA" if self.jit else "tf.function, calling Python"
        return (f"<CompiledGraph {g.name!r} on {self.device.name} ({how}): {len(g.inputs)} "
                f"inputs, {len(g.params)} params, {len(g.nodes)} nodes>")


def _tf_scope(node: Node) -> str:
    """The node's scope as a TensorFlow name scope (letters, digits and ``._-/`` only)."""
    return re.sub(r"[^A-Za-z0-9._\-/]", "_", node.scope).strip("/") or "node"


class GraphExecutor:
    """Compiles IR graphs into XLA computations on the backend's device (the PyNative
    executor's, so tensors pass between the two modes without a move)."""

    name = "GPU"

    def __init__(self, device: TfDevice) -> None:
        self.device = device

    def compile(self, graph: Graph, wrap: Callable[..., Any] | None = None) -> CompiledGraph:
        """``wrap(node, kernel)``, when given, replaces each node's kernel, and the graph runs
        node by node (the profiler and the dump observe the nodes through it)."""
        return CompiledGraph(graph, self.device, wrap)
