"""Graph passes: dead-code elimination, common-subexpression elimination, constant folding, and
a ReLU moved after the max-pool that reads it.

Each pass takes a graph and returns it changed in place. Only pure nodes (``Primitive.pure``:
no side effect, no randomness) are removed, merged or folded. A control-flow node is pure when
every node of its subgraphs is; each pass also runs inside the subgraphs (whose values are
their own: a subgraph reads only its inputs), and constant folding replaces a ``Switch`` whose
index is a constant by the branch it picks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ember.graph.ir import Graph, Node, Value, subgraphs


def _pure(node: Node) -> bool:
    return getattr(node.prim, "pure", True)


def eliminate_dead_code(graph: Graph) -> Graph:
    """Drop pure nodes none of whose outputs is used, and parameters/constants nobody reads."""
    for node in graph.nodes:
        for sub in subgraphs(node):
            eliminate_dead_code(sub)
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


def drop_parameter_copies(graph: Graph) -> Graph:
    """Read a Parameter itself instead of an ``Identity`` copy of it (those the autodiff tape
    makes) where no node updates it between the copy and the copy's last reader; a copy the
    graph returns stays one."""
    for node in graph.nodes:
        for sub in subgraphs(node):
            drop_parameter_copies(sub)
    last_read: dict[int, int] = {}
    updates: dict[int, list[int]] = {}
    for i, node in enumerate(graph.nodes):
        for v in node.tensor_inputs():
            last_read[v.id] = i
            if not _pure(node) and v.param is not None:
                updates.setdefault(v.id, []).append(i)
    returned = {v.id for v in graph.outputs if isinstance(v, Value)}
    replace: dict[int, Value] = {}
    kept: list[Node] = []
    for i, node in enumerate(graph.nodes):
        source, out = (node.inputs[0], node.outputs[0]) if node.prim.name == "Identity" else (
            None, None)
        if (isinstance(source, Value) and source.param is not None and out.id not in returned
                and not any(i < j <= last_read.get(out.id, i)
                            for j in updates.get(source.id, ()))):
            replace[out.id] = source
        else:
            kept.append(node)
    graph.nodes = kept
    _rewire(graph, replace)
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


def _resolve(replace: dict[int, Value], x: Any) -> Any:
    """``x`` after the replacements (which may chain), if it is a Value."""
    while isinstance(x, Value) and x.id in replace:
        x = replace[x.id]
    return x


def _rewire(graph: Graph, replace: dict[int, Value]) -> None:
    """Make every reader of a replaced value read its replacement."""
    if not replace:
        return
    for node in graph.nodes:
        node.inputs = [_resolve(replace, v) for v in node.inputs]
    graph.outputs = [_resolve(replace, v) for v in graph.outputs]


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    """Merge pure nodes that apply the same primitive, attributes and inputs; and constants
    with the same values."""
    for node in graph.nodes:
        for sub in subgraphs(node):
            eliminate_common_subexpressions(sub)
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
                key = (type(node.prim), _frozen(node.prim.attrs), _frozen(node.inputs),
                       state)
            except TypeError:
                key = None
        else:  # it may update its Parameter inputs in place: later reads are new values
            for v in node.tensor_inputs():
                if v.param is not None:  # a parameter, or a subgraph input standing for one
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
    todo = list(reversed(graph.nodes))
    while todo:
        node = todo.pop()
        node.inputs = [_resolve(replace, v) for v in node.inputs]
        tensors = node.tensor_inputs()
        if subgraphs(node):
            branch = _chosen_branch(node)
            if branch is None:
                for sub in subgraphs(node):
                    fold_constants(sub, evaluate)
                kept.append(node)
                continue
            replace.update(_inline(graph, node, branch))
            todo.extend(reversed(branch.nodes))
            continue
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


def _chosen_branch(node: Node) -> Graph | None:
    """The branch a ``Switch`` always takes (its index is a constant), or None."""
    index = node.inputs[0] if node.inputs else None
    if not hasattr(node.prim, "branches") or not isinstance(index, Value) or (
            index.kind != "const"):
        return None
    branches = node.prim.branches
    if index.array.dtype == np.bool_:
        return branches[int(bool(index.array))]
    return branches[min(max(int(index.array), 0), len(branches) - 1)]


def _inline(graph: Graph, node: Node, branch: Graph) -> dict[int, Value]:
    """Move ``branch``'s nodes and constants into ``graph`` in place of ``node``; returns the
    replacements of its inputs (by the node's) and of the node's outputs (by its results)."""
    replace = {v.id: x for v, x in zip(branch.inputs, node.inputs[1:], strict=True)}
    graph.consts.extend(branch.consts)
    for sub in (s for n in branch.nodes for s in subgraphs(n)):
        sub.parent = graph
    replace.update((v.id, r) for v, r in zip(node.outputs, branch.outputs, strict=True))
    return replace


#: max-pool primitives and their backward primitives (inputs: x, out, dout)
_MAX_POOLS = {"MaxPool": "MaxPoolGrad", "MaxPool3D": "MaxPool3DGrad"}


def pool_before_relu(graph: Graph) -> Graph:
    """Rewrite ``MaxPool(ReLU(x))`` as ``ReLU(MaxPool(x))`` (and the backward with it), so
    that the ReLU and its gradient run on the pooled tensor, a quarter of the size for 2x2
    windows. Exact: ReLU is monotone, so both forms give the same output, and a window's
    gradient goes to the same element (its first maximum when that is positive, nowhere
    otherwise). Only where nothing else reads the ReLU's output: its backward
    ``ReluGrad(MaxPoolGrad(y, pooled, dp), y)`` becomes ``MaxPoolGrad(x, MaxPool(x),
    ReluGrad(dp, pooled))``."""
    for node in graph.nodes:
        for sub in subgraphs(node):
            pool_before_relu(sub)
    returned = {v.id for v in _values(graph.outputs)}
    readers = _readers(graph)
    for relu in [n for n in graph.nodes if n.prim.name == "ReLU"]:
        y = relu.outputs[0]
        match = None if y.id in returned else _relu_pool(y, readers, returned)
        if match is not None:
            _swap(graph, relu, *match)
            readers = _readers(graph)
    return graph


def _readers(graph: Graph) -> dict[int, list[tuple[Node, int]]]:
    """Value id -> (node, input position) of each read; position -1 inside a tuple or list."""
    found: dict[int, list[tuple[Node, int]]] = {}
    for node in graph.nodes:
        for i, x in enumerate(node.inputs):
            for v in _values(x):
                found.setdefault(v.id, []).append((node, i if x is v else -1))
    return found


def _values(x: Any) -> list[Value]:
    """The Values in one node input (tuples and lists item by item) or list of outputs."""
    if isinstance(x, Value):
        return [x]
    if isinstance(x, tuple | list):
        return [v for item in x for v in _values(item)]
    return []


def _relu_pool(y: Value, readers: dict[int, list[tuple[Node, int]]],
               returned: set[int]) -> tuple[Node, list[tuple[Node, Node]]] | None:
    """The max-pool reading ReLU output ``y`` and the (MaxPoolGrad, ReluGrad) pairs of its
    backward, when these are all that read ``y``; else None."""
    reads = readers.get(y.id, [])
    pools = [n for n, i in reads if i == 0 and n.prim.name in _MAX_POOLS]
    if len(pools) != 1:
        return None
    pool = pools[0]
    pooled = pool.outputs[0]
    if _has_empty_windows(pool.prim, y.shape):
        return None
    pairs = []
    for node, i in reads:
        if node.prim.name != _MAX_POOLS[pool.prim.name]:
            continue
        grad = node.outputs[0]
        after = readers.get(grad.id, [])
        if (i != 0 or node.inputs[1] is not pooled or node.prim.attrs != pool.prim.attrs
                or grad.id in returned or len(after) != 1
                or after[0][0].prim.name != "ReluGrad" or after[0][1] != 0
                or after[0][0].inputs[1] is not y):
            return None
        pairs.append((node, after[0][0]))
    if len(reads) != 1 + 2 * len(pairs):
        return None
    return pool, pairs


def _has_empty_windows(prim: Any, shape: tuple[int, ...]) -> bool:
    """Whether a window of the max-pool ``prim`` over ``shape`` holds padding only (large
    'pad' padding, MaxPool3D's ceil_mode): its maximum is -inf, which ReLU after the pool
    would turn into 0, so the rewrite would not be exact."""
    pads, out = prim.geometry(tuple(shape[2:]))
    return any(k <= lo or (o - 1) * s - lo >= n for n, k, s, lo, o in zip(
        shape[2:], prim.kernel_size[2:], prim.strides[2:], pads[::2], out))


def _swap(graph: Graph, relu: Node, pool: Node, pairs: list[tuple[Node, Node]]) -> None:
    """Move each ReLU (forward and backward) after its max-pool; see ``pool_before_relu``."""
    x, pooled = relu.inputs[0], pool.outputs[0]
    position = {id(n): i for i, n in enumerate(graph.nodes)}

    def place(node: Node, where: Node, inputs: list[Any], output: Value) -> None:
        graph.nodes[position[id(where)]] = node
        node.inputs, node.outputs = inputs, [output]
        output.node, output.index = node, 0

    early = Value(graph.new_id(), "node", pooled.shape, pooled.dtype)
    place(pool, relu, [x, *pool.inputs[1:]], early)
    place(relu, pool, [early], pooled)
    for pool_grad, relu_grad in pairs:
        dp = pool_grad.inputs[2]
        dx = relu_grad.outputs[0]
        masked = Value(graph.new_id(), "node", dp.shape, dp.dtype)
        place(relu_grad, pool_grad, [dp, pooled], masked)
        place(pool_grad, relu_grad, [x, early, masked], dx)
