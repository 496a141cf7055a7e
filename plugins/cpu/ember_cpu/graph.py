"""The CPU backend's Graph-mode executor: an IR graph compiled into straight-line Python.

``GraphExecutor().compile(graph)`` writes one Python function for the whole graph, one line per
node, as a person would write it by hand::

    def run(a0, p0, p1):
        try:
            v4 = k0(a0, p0)  # MatMul Default/fc-Dense/MatMul-op0
            v6 = k1(v4, p1)  # BiasAdd Default/fc-Dense/BiasAdd-op1
            del v4
            v8, v9 = k2(v6, (0, 1))  # ArgMaxWithValue Default/ArgMaxWithValue-op2
            del v6, v8
        except Exception as e:
            raise _fail(e) from None
        return (v9,)

Arguments are the graph's input arrays (``graph.inputs`` order) then its parameter arrays
(``graph.params`` order); the result is the tuple of the graph outputs that are Values, in order
(outputs that are plain Python values are left to the core). The kernels (``k<i>``, one per
node, made once here by the eager executor), the constant arrays (``c<i>``) and the inline
inputs that are not literals (``q<i>``: dtypes and other objects) are globals of the function,
so running it costs exactly the kernel calls: no dispatch loop, no per-node lookup. Each
intermediate array is deleted right after its last use so NumPy frees it early; in-place kernels
(ApplyMomentum, Assign) get the very arrays the caller passed. The ``try`` costs nothing until a
kernel raises; then the failing line names the node, and the error names its primitive, scope
and the user's source line.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable
from typing import Any

from ember.backend import MissingKernelError, resolve_kernel
from ember.common import dtype as mstype
from ember.graph.ir import Graph, Node, Value, subgraphs
from ember_cpu.executor import NumpyExecutor

#: The eager executor's kernels serve the graphs too (and its fallback, when the user sets one).
_EAGER = NumpyExecutor()

_compiled = itertools.count()
_LITERALS = (type(None), bool, int, str, bytes)
_FIRST_BODY_LINE = 3  # line 1: def run(...), line 2: try:


class CompiledGraph:
    """A graph compiled for the CPU: call it with the input arrays then the parameter arrays.

    ``run`` is the generated function itself (calling the CompiledGraph calls it with no extra
    Python frame); ``source`` is its text, one line per node, for ``save_graphs``.
    """

    __slots__ = ("run", "source", "graph", "__weakref__")

    def __init__(self, run: Callable[..., tuple], source: str, graph: Graph) -> None:
        self.run = run
        self.source = source
        self.graph = graph

    # ``compiled(*arrays)`` looks ``__call__`` up on the class; a property whose getter is the
    # C-level attrgetter hands back ``self.run``, which CPython then calls with the arguments.
    # Same result as ``def __call__(self, *a): return self.run(*a)``, without its frame.
    __call__ = property(operator.attrgetter("run"))

    def __repr__(self) -> str:
        g = self.graph
        return (f"<CompiledGraph {g.name!r} on CPU: {len(g.inputs)} inputs, {len(g.params)} "
                f"params, {len(g.nodes)} nodes>")


class GraphExecutor:
    """Compiles IR graphs into Python functions over NumPy arrays (host memory: ``device``
    is None, as for the PyNative executor)."""

    device = None
    name = "CPU"

    def compile(self, graph: Graph, wrap: Callable[..., Any] | None = None) -> CompiledGraph:
        """``wrap(node, kernel)``, when given, replaces each node's kernel (the profiler and
        the dump observe the nodes through it)."""
        return _Generator(graph, wrap).build()


class _Generator:
    """Writes the source of one graph's function and the globals it needs."""

    def __init__(self, graph: Graph, wrap: Callable[..., Any] | None = None) -> None:
        self.graph = graph
        self.wrap = wrap
        self.globals: dict[str, Any] = {}
        self.names: dict[int, str] = {}  # value id -> its name in the source
        self.kinds: dict[int, str] = {}  # value id -> kind, for the values of this graph
        self.q_ids: dict[int, str] = {}  # id(inline object) -> its global's name
        self.kernel_count = 0  # kernels k0, k1, ... and constants c0, c1, ... so far
        self.const_count = 0

    # -- names ----------------------------------------------------------------------------
    def declare(self, value: Any, name: str, what: str) -> None:
        if not isinstance(value, Value):
            raise ValueError(f"graph {self.graph.name!r}: {what} must be a Value, but got "
                             f"{value!r}")
        if value.id in self.names:
            raise ValueError(f"graph {self.graph.name!r}: value {value!r} is declared twice "
                             f"(as {self.names[value.id]} and as {name})")
        self.names[value.id] = name
        self.kinds[value.id] = value.kind

    def ref(self, value: Value, where: str) -> str:
        name = self.names.get(value.id)
        if name is None:
            raise ValueError(f"graph {self.graph.name!r}: {where} reads {value!r}, which is "
                             "not an input, parameter or constant of the graph, nor the output "
                             "of an earlier node")
        return name

    def inline(self, x: Any, where: str, reads: list[int]) -> str:
        """The source text of one node input: a value's name, a literal, or the name of a
        global bound to the object; ``reads`` gets the ids of the Values it reads."""
        if isinstance(x, Value):
            reads.append(x.id)
            return self.ref(x, where)
        t = type(x)
        if t in _LITERALS or (t is float and math.isfinite(x)):
            return repr(x)
        if t is tuple or t is list:
            items = [self.inline(item, where, reads) for item in x]
            if t is list:
                return "[" + ", ".join(items) + "]"
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        name = self.q_ids.get(id(x))
        if name is None:
            name = self.q_ids[id(x)] = f"q{len(self.q_ids)}"
            self.globals[name] = x
        return name

    # -- the function ---------------------------------------------------------------------
    def build(self) -> CompiledGraph:
        graph = self.graph
        args = []
        for i, v in enumerate(graph.inputs):
            self.declare(v, f"a{i}", f"input {i}")
            args.append(f"a{i}")
        for i, v in enumerate(graph.params):
            self.declare(v, f"p{i}", f"param {i}")
            args.append(f"p{i}")
        self.lines_of: dict[int, Node] = {}
        self.body: list[str] = []
        self.block(graph, 0)
        returned = [self.ref(out, f"output {i}") for i, out in enumerate(graph.outputs)
                    if isinstance(out, Value)]
        lines = [f"def run({', '.join(args)}):"]
        if self.body:
            lines.append("    try:")
            lines.extend("        " + line for line in self.body)
            lines.append("    except Exception as e:")
            lines.append("        raise _fail(e) from None")
        tail = ", ".join(returned) + ("," if len(returned) == 1 else "")
        lines.append(f"    return ({tail})")
        source = "\n".join(lines) + "\n"

        filename = f"<ember-graph {graph.name} #{next(_compiled)}>"
        code = compile(source, filename, "exec")
        namespace = dict(self.globals, __name__="ember_cpu.graph.generated",
                         _fail=_Failure(self.lines_of))
        exec(code, namespace)
        run = namespace["run"]
        namespace["_fail"].code = run.__code__
        return CompiledGraph(run, source, graph)

    def emit(self, depth: int, line: str, node: Node | None = None) -> None:
        if node is not None:
            self.lines_of[_FIRST_BODY_LINE + len(self.body)] = node
        self.body.append("    " * depth + line)

    def block(self, graph: Graph, depth: int) -> None:
        """The statements of ``graph`` (the function, or a subgraph inlined into an ``if`` or
        ``while``) at indentation ``depth``; its inputs are already named."""
        for v in graph.consts:
            self.declare(v, f"c{self.const_count}", f"const of {graph.name}")
            self.globals[f"c{self.const_count}"] = v.array
            self.const_count += 1
        calls = []  # (node, its inputs' source text, the ids of the Values it reads)
        for node in graph.nodes:
            where = f"node {node.scope} ({node.prim.name})"
            reads: list[int] = []
            text = ", ".join(self.inline(x, where, reads) for x in node.inputs)
            calls.append((node, text, reads))
            if not node.multi and len(node.outputs) != 1:
                raise ValueError(f"graph {graph.name!r}: {where} is not multi-output but has "
                                 f"{len(node.outputs)} outputs")
            if not subgraphs(node):
                self.globals[f"k{self.kernel_count}"] = self.kernel(node)
                self.kernel_count += 1
            for out in node.outputs:
                self.declare(out, f"v{out.id}", f"output {out.index} of {where}")
        kept = {v.id for v in graph.outputs if isinstance(v, Value)}

        # The last node that reads each intermediate value: it is deleted after that line.
        last: dict[int, int] = {}
        for i, (_, _, reads) in enumerate(calls):
            for vid in reads:
                last[vid] = i
        own = {v.id for node in graph.nodes for v in node.outputs}
        dead_after: dict[int, list[str]] = {}
        for vid, i in last.items():
            if vid in own and vid not in kept:
                dead_after.setdefault(i, []).append(self.names[vid])

        kernel = self.kernel_count - sum(not subgraphs(n) for n in graph.nodes)
        for i, (node, text, _) in enumerate(calls):
            outs = [f"v{v.id}" for v in node.outputs]
            unused = [name for v, name in zip(node.outputs, outs, strict=True)
                      if v.id not in last and v.id not in kept]
            if subgraphs(node):
                self.control_flow(node, outs, depth)
            else:
                call = f"k{kernel}({text})"
                kernel += 1
                if len(unused) == len(outs):
                    stmt = call  # nothing reads the result (an in-place update, or dead code)
                    unused = []
                elif node.multi:
                    stmt = f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"
                else:
                    stmt = f"{outs[0]} = {call}"
                self.emit(depth, f"{stmt}  # {node.prim.name} {_one_line(node.scope)}", node)
            dead = unused + dead_after.get(i, [])
            if dead:
                self.emit(depth, f"del {', '.join(dead)}")

    def control_flow(self, node: Node, outs: list[str], depth: int) -> None:
        """A ``Switch`` as ``if``/``elif``/``else``, a ``WhileLoop`` as ``while True`` (a
        saving one appends its carries to lists), a ``ReverseScan`` as a ``for`` over those
        lists backwards: each subgraph inlined, its inputs named as the node's inputs (or the
        loop's carries)."""
        where = f"node {node.scope} ({node.prim.name})"
        names = [self.inline(x, where, []) for x in node.inputs]
        comment = f"  # {node.prim.name} {_one_line(node.scope)}"
        if node.prim.name == "Switch":
            index, operands = names[0], names[1:]
            branches = node.prim.branches
            if node.inputs[0].dtype is mstype.bool_:
                heads = [f"if {index}:" + comment, "else:"]
                order = [branches[1], branches[0]]
            else:
                heads = [f"if {index} <= 0:" + comment]
                heads += [f"elif {index} == {i}:" for i in range(1, len(branches) - 1)]
                heads += ["else:"] if len(branches) > 1 else []
                order = list(branches)
            for head, branch in zip(heads, order, strict=True):
                self.emit(depth, head, node)
                self.subgraph(branch, operands, outs, depth + 1)
            return
        count = node.prim.count
        if node.prim.name == "ReverseScan":  # stacks, carries, other inputs
            stacks, rest = names[:count], names[count:]
            carries = outs
            rows = [f"r{v.id}" for v in node.prim.body.inputs[:count]]
            j = f"j{node.id}"
            self.emit(depth, f"{_tuple(carries)} = {_tuple(rest[:len(carries)])}", node)
            self.emit(depth, f"for {j} in range(len({stacks[0]}) - 1, -1, -1):" + comment,
                      node)
            self.emit(depth + 1, f"{_tuple(rows)} = {_tuple([f'{s}[{j}]' for s in stacks])}")
            self.subgraph(node.prim.body, [*rows, *carries, *rest[len(carries):]], carries,
                          depth + 1)
            return
        carries, stacks, outside = outs[:count], outs[count:], names[count:]
        if count:
            self.emit(depth, f"{_tuple(carries)} = {_tuple(names[:count])}", node)
        if stacks:  # a saving loop: each carry's value at the start of every iteration
            self.emit(depth, f"{_tuple(stacks)} = {_tuple(['[]'] * len(stacks))}", node)
        self.emit(depth, "while True:" + comment, node)
        test = self.subgraph(node.prim.cond, [*carries, *outside], [], depth + 1)
        self.emit(depth + 1, f"if not {test[0]}:", node)
        self.emit(depth + 2, "break")
        for stack, carry in zip(stacks, carries):
            self.emit(depth + 1, f"{stack}.append({carry})")
        self.subgraph(node.prim.body, [*carries, *outside], carries, depth + 1)

    def subgraph(self, graph: Graph, inputs: list[str], outs: list[str],
                 depth: int) -> list[str]:
        """Inline ``graph`` with its inputs named ``inputs``; assign its outputs to ``outs``
        (or, with none, return their names)."""
        for v, name in zip(graph.inputs, inputs, strict=True):
            self.names[v.id] = name
            self.kinds[v.id] = "input"
        start = len(self.body)
        self.block(graph, depth)
        results = [self.ref(v, f"output of {graph.name}") for v in graph.outputs]
        if outs:
            self.emit(depth, f"{_tuple(outs)} = {_tuple(results)}")
        elif len(self.body) == start:
            self.emit(depth, "pass")
        return results

    def kernel(self, node: Node) -> Callable[..., Any]:
        try:
            kernel = resolve_kernel(_EAGER, node.prim)
        except MissingKernelError as err:
            if hasattr(err, "add_note"):  # Python 3.11+
                err.add_note(f"used at {node.source or '<unknown>'} (scope {node.scope}) in "
                             f"graph {self.graph.name!r}")
            raise
        return kernel if self.wrap is None else self.wrap(node, kernel)


class _Failure:
    """Turns an error raised by a kernel of the generated function into the RuntimeError
    that names the node: primitive, scope, the user's source line and its inputs."""

    def __init__(self, lines_of: dict[int, Node]) -> None:
        self.lines_of = lines_of
        self.code: Any = None

    def __call__(self, exc: Exception) -> BaseException:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code is not self.code:
            tb = tb.tb_next
        node = None if tb is None else self.lines_of.get(tb.tb_lineno)
        if node is None:
            return exc
        err = RuntimeError(
            f"{node.prim.name} failed at {node.source or '<unknown>'} (scope {node.scope}) on "
            f"inputs ({_describe(node.inputs)}): {type(exc).__name__}: {exc}")
        err.primitive, err.scope, err.source = node.prim.name, node.scope, node.source
        return err


def _describe(inputs: list[Any]) -> str:
    """Inputs as PyNative errors show them: shapes and dtypes of tensors, values of the rest."""
    return ", ".join(f"Tensor(shape={list(v.shape)}, dtype={v.dtype})" if isinstance(v, Value)
                     else repr(v) for v in inputs)


def _tuple(names: list[str]) -> str:
    return ", ".join(names) + ("," if len(names) == 1 else "")


def _one_line(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ")
