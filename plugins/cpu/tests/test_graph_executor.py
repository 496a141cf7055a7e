"""The CPU Graph-mode executor: hand-built IR graphs compiled to straight-line Python, checked
against the same primitives run in PyNative mode."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import _plugins, context, ops
from ember.backend import MissingKernelError
from ember.common import dtype as mstype
from ember.graph.ir import Graph, Node, Value
from ember.ops.operations import nn_ops
from ember.ops.primitive import Primitive
from ember_cpu import plugin
from ember_cpu.graph import CompiledGraph, GraphExecutor


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)
    yield
    context.reset_context()


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


class Builder:
    """Builds a Graph by hand; every node is also run eagerly on example values, which gives
    the output Values their shapes and dtypes and the reference results."""

    def __init__(self, name="g"):
        self.graph = Graph(name)
        self.eager = {}  # value id -> the eager Tensor standing for it
        self.args = []  # the arrays to call the compiled graph with: inputs, then params
        self.param_args = []

    def _value(self, kind, tensor, **kw):
        value = Value(self.graph.new_id(), kind, tensor.shape, tensor.dtype, **kw)
        self.eager[value.id] = tensor
        return value

    def input(self, array):
        value = self._value("input", ember.Tensor(array), index=len(self.graph.inputs))
        self.graph.inputs.append(value)
        self.args.append(array.copy())
        return value

    def param(self, array, name):
        # The graph's Parameter and the eager one are separate, so in-place updates of one
        # cannot be mistaken for updates of the other.
        graph_param = ember.Parameter(ember.Tensor(array.copy()), name=name)
        value = self._value("param", ember.Parameter(ember.Tensor(array.copy()), name=name),
                            index=len(self.graph.params), param=graph_param)
        self.graph.params.append(value)
        self.param_args.append(graph_param._data)
        return value

    def const(self, array):
        value = self._value("const", ember.Tensor(array), array=array.copy())
        self.graph.consts.append(value)
        return value

    def op(self, prim, *inputs, scope=None, source=None):
        n = len(self.graph.nodes)
        out = Primitive.__call__(prim, *[self.eager[x.id] if isinstance(x, Value) else x
                                         for x in inputs])
        multi = isinstance(out, tuple)
        node = Node(self.graph.new_id(), prim, list(inputs),
                    scope=scope or f"Default/{prim.name}-op{n}",
                    source=source or f"model.py:{10 + n}", multi=multi)
        for i, tensor in enumerate(out if multi else (out,)):
            value = self._value("node", tensor, node=node, index=i)
            node.outputs.append(value)
        self.graph.nodes.append(node)
        return tuple(node.outputs) if multi else node.outputs[0]

    def compile(self, *outputs):
        self.graph.outputs = list(outputs)
        return GraphExecutor().compile(self.graph)

    def run(self, compiled):
        return compiled(*self.args, *self.param_args)

    def expected(self, *values):
        return [self.eager[v.id].asnumpy() for v in values]


def _check(b, compiled, *outputs):
    got = b.run(compiled)
    want = b.expected(*outputs)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert isinstance(g, np.ndarray) and g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
    return got


def _node_lines(source):
    return [line.strip() for line in source.splitlines() if " = k" in line
            or line.strip().startswith("k")]


# -- the plugin hook --------------------------------------------------------------------------
def test_plugin_provides_the_graph_executor_for_cpu_only():
    executor = _plugins.registry().plugin_manager.hook.ember_graph_executor(
        device_target="CPU", context={})
    assert isinstance(executor, GraphExecutor)
    assert executor.device is None and executor.name == "CPU"
    assert plugin.ember_graph_executor(device_target="GPU", context={}) is None


# -- graphs -----------------------------------------------------------------------------------
def test_single_node():
    b = Builder()
    x, y = b.input(_rand(2, 3)), b.input(_rand(2, 3, seed=1))
    z = b.op(ops.Add(), x, y)
    compiled = b.compile(z)
    assert isinstance(compiled, CompiledGraph)
    _check(b, compiled, z)
    assert compiled.run(*b.args)[0].shape == (2, 3)  # the raw generated function


def test_chain_frees_intermediates_after_their_last_use():
    b = Builder()
    x = b.input(_rand(2, 3, 4))
    m = b.op(ops.Mul(), x, x)
    s = b.op(ops.Add(), m, x)
    r = b.op(ops.ReduceSum(keep_dims=True), s, (0, 2))
    t = b.op(nn_ops.ReLU(), b.op(ops.Sub(), r, m))
    compiled = b.compile(t, r)
    _check(b, compiled, t, r)
    lines = [line.strip() for line in compiled.source.splitlines()]
    deleted = [name for line in lines if line.startswith("del ")
               for name in line[4:].split(", ")]
    assert f"v{m.id}" in deleted and f"v{s.id}" in deleted  # intermediates
    assert f"v{r.id}" not in deleted and f"v{t.id}" not in deleted  # graph outputs
    assert "a0" not in deleted  # the caller's array
    # m is read last by Sub: deleted right after that line, not before
    sub = next(i for i, line in enumerate(lines) if "# Sub" in line)
    assert lines[sub + 1].startswith("del ") and f"v{m.id}" in lines[sub + 1]


def test_constants_and_params():
    b = Builder()
    x = b.input(_rand(4, 3))
    w = b.param(_rand(3, 5, seed=1), "fc.weight")
    bias = b.param(_rand(5, seed=2), "fc.bias")
    c = b.const(np.full((4, 5), 0.5, np.float32))
    y = b.op(nn_ops.BiasAdd(), b.op(ops.MatMul(), x, w), bias)
    z = b.op(ops.Mul(), y, c)
    compiled = b.compile(z, c)
    got = _check(b, compiled, z, c)
    assert got[1] is b.graph.consts[0].array  # a const output is returned as it is
    assert compiled.source.startswith("def run(a0, p0, p1):")


def test_multi_output_nodes():
    b = Builder()
    x = b.input(_rand(6, 4))
    labels = b.input(np.eye(4, dtype=np.float32)[[0, 1, 2, 3, 0, 1]])
    first, second, third = b.op(ops.Split(0, 3), x)
    loss, grad = b.op(nn_ops.SoftmaxCrossEntropyWithLogits(), x, labels)
    total = b.op(ops.Add(), first, third)  # second is never read
    index, value = b.op(ops.ArgMaxWithValue(axis=1), total)
    compiled = b.compile(loss, grad, index, value, second)
    _check(b, compiled, loss, grad, index, value, second)
    assert f"v{first.id}, v{second.id}, v{third.id} = k0(a0)" in compiled.source


def test_unused_outputs_of_a_multi_output_node_are_dropped_at_once():
    b = Builder()
    x = b.input(_rand(4, 2))
    first, second = b.op(ops.Split(0, 2), x)
    y = b.op(ops.Neg(), first)
    compiled = b.compile(y)
    _check(b, compiled, y)
    lines = [line.strip() for line in compiled.source.splitlines()]
    split = next(i for i, line in enumerate(lines) if "# Split" in line)
    assert lines[split + 1] == f"del v{second.id}"


def test_output_that_is_an_input_or_a_param_is_returned_as_it_is():
    b = Builder()
    x = b.input(_rand(2, 2))
    p = b.param(_rand(2, 2, seed=1), "p")
    y = b.op(ops.Mul(), x, p)
    compiled = b.compile(x, y, p, x)
    got = _check(b, compiled, x, y, p, x)
    assert got[0] is b.args[0] and got[3] is b.args[0] and got[2] is b.param_args[0]


def test_graph_without_nodes():
    b = Builder()
    x = b.input(_rand(3))
    compiled = b.compile(x)
    assert b.run(compiled)[0] is b.args[0]


def test_python_outputs_are_left_to_the_core():
    b = Builder()
    x = b.input(_rand(3))
    y = b.op(ops.Exp(), x)
    compiled = b.compile(1.5, y, None, "text", x)
    _check(b, compiled, y, x)
    empty = Builder()
    empty.input(_rand(3))
    assert empty.run(empty.compile(3)) == ()


def test_inline_python_inputs():
    b = Builder()
    x = b.input(_rand(2, 3, 4))
    half = b.op(ops.Cast(), x, mstype.float16)  # a dtype: bound as a global
    r = b.op(ops.ReduceMean(keep_dims=False), x, (0, 2))  # a tuple literal
    f = b.op(ops.Fill(), mstype.int32, (2, 3), 7)
    inf = b.op(ops.Fill(), mstype.float32, [3], float("inf"))  # not a literal: a global
    t = b.op(ops.Transpose(), x, (2, 0, 1))
    compiled = b.compile(half, r, f, inf, t)
    _check(b, compiled, half, r, f, inf, t)
    source = compiled.source
    assert "(a0, (0, 2))" in source and "(2, 0, 1))" in source and ", [3], q" in source
    assert "(a0, q" in source  # the dtype


def test_kernel_factories_are_called_once_at_compile_time(monkeypatch):
    from ember_cpu.kernels import KERNELS

    made = []
    add = KERNELS["Add"]
    monkeypatch.setitem(KERNELS, "Add", lambda prim: made.append(prim) or add(prim))
    b = Builder()
    x = b.input(_rand(3))
    y = b.op(ops.Add(), b.op(ops.Add(), x, x), x)
    made.clear()  # the eager reference made its own
    compiled = b.compile(y)
    assert len(made) == 2
    for _ in range(3):
        _check(b, compiled, y)
    assert len(made) == 2


def test_source_has_one_line_per_node_and_no_dispatch():
    b = Builder()
    x = b.input(_rand(2, 2))
    y = b.op(ops.Add(), x, x)
    y = b.op(ops.Mul(), y, x)
    a, c = b.op(ops.Split(1, 2), y)
    z = b.op(ops.Sub(), a, c)
    compiled = b.compile(z)
    _check(b, compiled, z)
    lines = _node_lines(compiled.source)
    assert len(lines) == len(b.graph.nodes) == 4
    for i, (line, node) in enumerate(zip(lines, b.graph.nodes, strict=True)):
        assert f"k{i}(" in line and node.prim.name in line and node.scope in line
    assert " for " not in compiled.source and "[" not in compiled.source.split("#")[0]
    names = set(compiled.run.__code__.co_names)
    assert names <= {"k0", "k1", "k2", "k3", "_fail", "Exception"}
    compile(compiled.source, "<check>", "exec")  # valid Python as it stands


# -- errors -----------------------------------------------------------------------------------
def test_missing_kernel_is_reported_at_compile_time():
    class Frobnicate(Primitive):
        def infer(self, x):
            return x.shape, x.dtype

    b = Builder()
    x = b.input(_rand(2))
    node = Node(b.graph.new_id(), Frobnicate(), [x], scope="Default/Frobnicate-op0",
                source="model.py:7")
    node.outputs = [Value(b.graph.new_id(), "node", (2,), mstype.float32, node)]
    b.graph.nodes.append(node)
    with pytest.raises(MissingKernelError, match=r"CPU \(ember-cpu\).*Frobnicate") as info:
        b.compile(node.outputs[0])
    assert info.value.primitive == "Frobnicate" and info.value.backend == "CPU (ember-cpu)"


def test_runtime_error_names_primitive_scope_and_source_line():
    b = Builder()
    x, y = b.input(_rand(2, 3)), b.input(_rand(2, 3, seed=1))
    s = b.op(ops.Mul(), x, x)
    z = b.op(ops.Add(), s, y, scope="Default/net-Net/Add-op1", source="train.py:42")
    compiled = b.compile(z)
    with pytest.raises(RuntimeError) as info:
        compiled(_rand(2, 3), _rand(3, 2))  # Mul runs, Add cannot broadcast
    msg = str(info.value)
    assert msg.startswith("Add failed at train.py:42 (scope Default/net-Net/Add-op1) on inputs "
                          "(Tensor(shape=[2, 3], dtype=Float32), Tensor(shape=[2, 3], "
                          "dtype=Float32)): ValueError: ")
    assert "could not be broadcast" in msg
    assert info.value.__cause__ is None and info.value.__suppress_context__
    assert (info.value.primitive, info.value.scope, info.value.source) == (
        "Add", "Default/net-Net/Add-op1", "train.py:42")
    _check(b, compiled, z)  # still runs afterwards


def test_graph_reading_an_unknown_value_is_rejected():
    b = Builder()
    x = b.input(_rand(2))
    stray = Value(999, "input", (2,), mstype.float32)
    b.op(ops.Add(), x, x)
    b.graph.nodes[0].inputs[1] = stray
    with pytest.raises(ValueError, match="not an input, parameter or constant"):
        b.compile(b.graph.nodes[0].outputs[0])


# -- in-place updates -------------------------------------------------------------------------
def test_apply_momentum_updates_the_param_arrays_in_place():
    b = Builder("momentum")
    grad_in = b.input(_rand(3, 2))
    var = b.param(_rand(3, 2, seed=1), "w")
    acc = b.param(np.zeros((3, 2), np.float32), "moments.w")
    grad = b.op(ops.Mul(), grad_in, grad_in)
    b.op(ops.ApplyMomentum(), var, acc, 0.1, grad, 0.9)
    compiled = b.compile()
    assert "k1(p0, p1, 0.1, v" in compiled.source  # result unused: a bare call
    var_array, acc_array = b.param_args
    assert b.run(compiled) == ()
    # the eager reference ran one step while building; run the second one too
    eager_var, eager_acc = b.eager[var.id], b.eager[acc.id]
    assert b.run(compiled) == ()
    ops.ApplyMomentum()(eager_var, eager_acc, 0.1, b.eager[grad.id], 0.9)
    assert b.param_args[0] is var_array and var.param._data is var_array
    np.testing.assert_allclose(var_array, eager_var.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(acc_array, eager_acc.asnumpy(), rtol=1e-6)
    assert var.param._data is var_array and acc.param._data is acc_array


def test_apply_momentum_output_is_the_param_array():
    b = Builder()
    grad = b.input(_rand(4))
    var = b.param(_rand(4, seed=1), "w")
    acc = b.param(_rand(4, seed=2), "m")
    out = b.op(ops.ApplyMomentum(use_nesterov=True), var, acc, 0.01, grad, 0.9)
    compiled = b.compile(out)
    (got,) = _check(b, compiled, out)
    assert got is b.param_args[0]
    np.testing.assert_allclose(var.param._data, b.eager[var.id].asnumpy(), rtol=1e-6)
