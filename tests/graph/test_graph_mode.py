"""GRAPH_MODE: cells and functions traced into one graph, optimised and compiled; results and
gradients equal PyNative mode's."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import Parameter, ParameterTuple, Tensor, context, nn, ops
from ember.graph import GraphCompileError, compile_count, ms_function
from ember.graph.passes import eliminate_common_subexpressions, eliminate_dead_code
from ember.graph.tracer import trace

RNG = np.random.default_rng(0)


def rand(*shape):
    return Tensor(RNG.standard_normal(shape).astype(np.float32))


class EveryLayer(nn.Cell):
    """One of each layer of the PyNative issue."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2, 2)
        self.avg = nn.AvgPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.body = nn.SequentialCell([nn.Dense(4, 6), nn.ReLU(), nn.Dense(6, 5)])
        self.acts = nn.CellList([nn.Sigmoid(), nn.Tanh(), nn.GELU(), nn.ReLU6()])
        self.drop = nn.Dropout(0.8)
        self.softmax = nn.Softmax()
        self.log_softmax = nn.LogSoftmax()

    def construct(self, x):
        x = self.avg(self.pool(self.bn(self.conv(x))))
        x = self.body(self.flatten(x))
        for act in self.acts:  # a Python loop: unrolled
            x = act(x)
        x = self.drop(x)
        return self.softmax(x), self.log_softmax(x)


def _run(mode, fn):
    context.set_context(mode=mode)
    ember.set_seed(3)
    return fn()


def _both(fn):
    pynative = _run(context.PYNATIVE_MODE, fn)
    graph = _run(context.GRAPH_MODE, fn)
    return pynative, graph


def _close(a, b, rtol=1e-5, atol=1e-6):
    for x, y in zip(a, b, strict=True):
        np.testing.assert_allclose(x.asnumpy(), y.asnumpy(), rtol=rtol, atol=atol)


def test_every_layer_gives_the_same_outputs_in_both_modes():
    x = rand(2, 2, 4, 4)

    def forward():
        net = EveryLayer()
        net.set_train(False)
        return net(x)

    _close(*_both(forward))


def test_every_layer_gives_the_same_gradients_in_both_modes():
    x = rand(2, 2, 4, 4)

    def gradients():
        net = EveryLayer()
        net.set_train()
        loss = nn.WithLossCell(_First(net),
                               nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                reduction="mean"))
        params = ParameterTuple(net.trainable_params())
        grads = ops.GradOperation(get_all=True, get_by_list=True)(loss, params)(
            x, Tensor(np.array([1, 3], np.int32)))
        return [*grads[0], *grads[1], net.bn.moving_mean, net.bn.moving_variance]

    _close(*_both(gradients), rtol=1e-4, atol=1e-6)


class _First(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x):
        return self.net(x)[1]


def test_training_steps_update_parameters_in_place_as_in_pynative():
    x, labels = rand(4, 1, 32, 32), Tensor(RNG.integers(0, 10, 4).astype(np.int32))

    def train():
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "contrib" / "lenet"))
        from lenet import LeNet5

        net = LeNet5()
        step = nn.TrainOneStepCell(
            nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                  reduction="mean")),
            nn.Momentum(net.trainable_params(), 0.1, 0.9))
        step.set_train()
        losses = [step(x, labels) for _ in range(3)]
        return losses + [Tensor(p.asnumpy()) for p in net.trainable_params()]

    pynative, graph = _both(train)
    _close(pynative, graph, rtol=1e-4, atol=1e-6)
    assert graph[0].asnumpy() != graph[2].asnumpy()  # it learned something


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.float32(2)), name="w")

    def construct(self, x):
        return ops.mul(x, self.w)


def test_graphs_are_cached_per_signature_and_phase():
    context.set_context(mode=context.GRAPH_MODE)
    net = Scale()
    start = compile_count()
    net(rand(2, 3))
    net(rand(2, 3))
    assert compile_count() == start + 1
    net(rand(4, 3))
    assert compile_count() == start + 2
    net(Tensor(np.ones((2, 3), np.float64)))
    assert compile_count() == start + 3
    net.set_train()
    net(rand(2, 3))
    assert compile_count() == start + 4


def test_setting_the_mode_in_effect_again_keeps_executors_and_graphs():
    from ember import _executor

    context.set_context(mode=context.GRAPH_MODE)
    add_one = ms_function(lambda x: ops.add(x, 1.0))
    add_one(Tensor(1.0))
    executor, before = _executor.load_graph(), compile_count()
    context.set_context(mode=context.GRAPH_MODE)  # what scripts do before every step
    assert _executor.load_graph() is executor
    np.testing.assert_array_equal(add_one(Tensor(1.0)).asnumpy(), 2.0)
    assert compile_count() == before
    context.set_context(mode=context.PYNATIVE_MODE)  # a real change: a new executor
    assert _executor.load_graph() is not executor


def test_parameters_are_read_at_each_call():
    context.set_context(mode=context.GRAPH_MODE)
    net = Scale()
    x = Tensor(np.ones(2, np.float32))
    assert net(x).asnumpy().tolist() == [2, 2]
    net.w.set_data(Tensor(np.float32(5)))
    assert net(x).asnumpy().tolist() == [5, 5]


def test_ms_function_on_a_function_and_on_construct_in_pynative():
    context.set_context(mode=context.PYNATIVE_MODE)

    @ms_function
    def f(x, y):
        return ops.add(ops.mul(x, y), 1.0)

    start = compile_count()
    np.testing.assert_allclose(f(Tensor(np.float32(2)), Tensor(np.float32(3))).asnumpy(), 7)
    f(Tensor(np.float32(1)), Tensor(np.float32(1)))
    assert compile_count() == start + 1

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.float32(3)), name="w")

        @ms_function
        def construct(self, x):
            return ops.mul(x, self.w)

    net = Net()
    np.testing.assert_allclose(net(Tensor(np.float32(2))).asnumpy(), 6)
    assert compile_count() == start + 2
    assert ember.jit is ember.ms_function


def test_creating_a_parameter_inside_a_compiled_function_is_refused():
    @ms_function
    def f(x):
        w = Parameter(Tensor(np.float32(1)), name="w")
        return ops.mul(x, w)

    with pytest.raises(RuntimeError, match="Parameter cannot be created inside a function "
                                           "compiled into a graph.*test_graph_mode.py"):
        f(Tensor(np.float32(2)))


def test_control_flow_on_tensor_values_names_the_line_and_the_alternative():
    class Branchy(nn.Cell):
        def construct(self, x):
            if float(ops.reduce_sum(x)) > 0:  # a Python float of a tensor: cannot be traced
                return x
            return ops.neg(x)

    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(GraphCompileError, match="test_graph_mode.py:[0-9]+.*ops.Select"):
        Branchy()(rand(3))


def test_python_control_flow_on_python_values_unrolls():
    class Repeat(nn.Cell):
        def __init__(self, times):
            super().__init__()
            self.times = times

        def construct(self, x):
            for _ in range(self.times):
                x = ops.add(x, x)
            return x if self.times else ops.neg(x)

    context.set_context(mode=context.GRAPH_MODE)
    assert Repeat(3)(Tensor(np.float32(1))).asnumpy() == 8
    assert Repeat(0)(Tensor(np.float32(1))).asnumpy() == -1


def test_max_call_depth_bounds_nested_cells():
    class Chain(nn.Cell):
        def __init__(self, depth):
            super().__init__()
            self.inner = Chain(depth - 1) if depth else None

        def construct(self, x):
            return self.inner(x) if self.inner is not None else ops.neg(x)

    context.set_context(mode=context.GRAPH_MODE, max_call_depth=5)
    assert Chain(3)(Tensor(np.float32(1))).asnumpy() == -1
    with pytest.raises(GraphCompileError, match="max_call_depth=5"):
        Chain(8)(Tensor(np.float32(1)))


def test_precompile_only_compiles_without_running():
    context.set_context(mode=context.GRAPH_MODE, precompile_only=True)
    start = compile_count()
    assert Scale()(rand(2)) is None
    assert compile_count() == start + 1


def test_custom_bprop_in_graph_mode():
    class MulWithBprop(nn.Cell):
        def construct(self, x, y):
            return ops.mul(x, y)

        def bprop(self, x, y, out, dout):
            return ops.mul(dout, 10.0), ops.mul(dout, 20.0)

    grads = _both(lambda: ops.GradOperation(get_all=True)(MulWithBprop())(
        Tensor(np.float32(1)), Tensor(np.float32(2))))
    for g in grads:
        assert [t.asnumpy().item() for t in g] == [10, 20]


def test_gradient_of_gradient_in_graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    cube = lambda x: ops.mul(ops.mul(x, x), x)  # noqa: E731
    second = ops.GradOperation()(ops.GradOperation()(cube))
    assert second(Tensor(np.float32(2))).asnumpy() == 12


def test_passes_merge_repeats_and_drop_unused_work():
    def f(x):
        a = ops.exp(x)
        b = ops.exp(x)  # the same as a
        ops.log(x)  # unused
        return ops.add(a, b)

    graph = trace(f, (rand(3),), "f")
    assert [n.prim.name for n in graph.nodes] == ["Exp", "Exp", "Log", "Add"]
    eliminate_dead_code(eliminate_common_subexpressions(graph))
    assert [n.prim.name for n in graph.nodes] == ["Exp", "Add"]
    assert graph.nodes[1].inputs[0] is graph.nodes[1].inputs[1]


def test_constants_are_folded():
    context.set_context(mode=context.GRAPH_MODE)
    table = Tensor(np.arange(4, dtype=np.float32))

    class UsesConstant(nn.Cell):
        def construct(self, x):
            return ops.add(x, ops.exp(table))  # exp(table) is computed once, at compile time

    net = UsesConstant()
    x = rand(4)
    out = net(x)
    graph = next(iter(net._graph_cache.entries.values())).graph
    assert [n.prim.name for n in graph.nodes] == ["Add"]
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() + np.exp(np.arange(4)), rtol=1e-6)


def test_arguments_that_cannot_be_compiled_are_named():
    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(TypeError, match="argument of type ndarray: pass Tensors"):
        Scale()(np.ones(2, np.float32))


def test_hook_backward_runs_at_each_call_of_the_graph(capsys):
    context.set_context(mode=context.GRAPH_MODE)
    hook = ops.HookBackward(lambda grad: print(grad))

    def hook_test(x, y):
        return ops.mul(hook(ops.mul(x, y)), y)

    grad_all = ops.GradOperation(get_all=True)(hook_test)
    for _ in range(2):
        grads = grad_all(Tensor(np.float32(1)), Tensor(np.float32(2)))
    assert capsys.readouterr().out == "(Tensor(shape=[], dtype=Float32, value= 2),)\n" * 2
    assert [g.asnumpy().item() for g in grads] == [4, 4]


def test_backward_hook_replaces_gradients_in_both_modes():
    class Doubler(nn.Cell):
        def construct(self, x):
            return ops.mul(x, 2.0)

    def run():
        seen = []
        net = Doubler()
        net.register_backward_hook(
            lambda cell_id, gin, gout: seen.append(gin[0].asnumpy().item()) or (
                ops.mul(gout[0], 10.0),))
        grad = ops.GradOperation()(lambda x: ops.mul(net(x), 3.0))(Tensor(np.float32(1)))
        return grad.asnumpy().item(), seen

    assert _both(run) == ((60.0, [3.0]), (60.0, [3.0]))


def test_print_inside_a_graph_prints_at_each_call(capsys):
    class Show(nn.Cell):
        def construct(self, x):
            ops.Print()("x is", x)
            return x

    context.set_context(mode=context.GRAPH_MODE)
    net = Show()
    net(Tensor(np.float32(1)))
    net(Tensor(np.float32(2)))
    assert capsys.readouterr().out == ("x is\nTensor(shape=[], dtype=Float32, value= 1)\n"
                                       "x is\nTensor(shape=[], dtype=Float32, value= 2)\n")


def test_reads_of_a_parameter_around_an_in_place_update_are_not_merged():
    p = Parameter(Tensor(np.float32(1)), name="p")

    @ms_function
    def f(x):
        before = ops.mul(p, 2.0)
        ops.assign(p, ops.add(p, x))
        return before, ops.mul(p, 2.0)

    context.set_context(mode=context.GRAPH_MODE)
    before, after = f(Tensor(np.float32(1)))
    assert (before.asnumpy().item(), after.asnumpy().item()) == (2, 4)
    assert p.asnumpy().item() == 2


def test_parameters_and_tuples_of_tensors_as_arguments():
    @ms_function
    def update(p, pair):
        ops.assign(p, ops.add(pair[0], pair[1]))
        return ops.mul(p, 2.0)

    context.set_context(mode=context.GRAPH_MODE)
    p, q = Parameter(Tensor(np.float32(0)), name="p"), Parameter(Tensor(np.float32(0)), name="q")
    one, two = Tensor(np.float32(1)), Tensor(np.float32(2))
    start = compile_count()
    assert update(p, (one, two)).asnumpy() == 6 and p.asnumpy() == 3
    assert update(q, (two, two)).asnumpy() == 8 and q.asnumpy() == 4  # another Parameter
    assert compile_count() == start + 2
    update(q, (one, one))
    assert compile_count() == start + 2 and q.asnumpy() == 2
