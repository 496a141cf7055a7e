"""GRAPH_MODE control flow on tensor values: ``if``/``while``/``for``/``break``/``continue``/
``return`` converted into Switch and WhileLoop nodes; values and gradients as in PyNative and
as NumPy computes them (cases modelled on MindSpore's tests/st/control)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, context, nn, ops
from ember.graph import GraphCompileError, ms_function, passes
from ember.graph.autograph import convert
from ember.graph.control_flow import ReverseScan, Switch, WhileLoop, cond, while_loop
from ember.graph.ir import walk
from ember.graph.tracer import trace

grad_all = ops.GradOperation(get_all=True)


def f32(value):
    return Tensor(np.array(value, np.float32))


def i32(value):
    return Tensor(np.array(value, np.int32))


def both_modes(make, *args, grad=False):
    """The results of ``make()(*args)`` (or of its gradients) in PyNative then GRAPH_MODE."""
    results = []
    for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
        context.set_context(mode=mode)
        net = make()
        results.append(grad_all(net)(*args) if grad else net(*args))
    return results


def values(out):
    return [np.asarray(o.asnumpy()) for o in (out if isinstance(out, tuple) else (out,))]


def assert_same(a, b):
    for x, y in zip(values(a), values(b), strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-6)


def nodes_of(graph, kind):
    return [n for g in walk(graph) for n in g.nodes if isinstance(n.prim, kind)]


# -- if ---------------------------------------------------------------------------------------
class SingleIf(nn.Cell):
    def construct(self, x, y):
        x = x + 1
        if x < y:
            y = y + x * x
        else:
            y = y - x
        return y * 5


@pytest.mark.parametrize("x, y", [(2.0, 5.0), (5.0, 2.0)])
def test_if_values_and_gradients_match_pynative_and_formulas(x, y):
    pynative, graph = both_modes(SingleIf, f32(x), f32(y))
    expect = 5 * (y + (x + 1) ** 2) if x + 1 < y else 5 * (y - x - 1)
    np.testing.assert_allclose(values(graph)[0], expect)
    assert_same(pynative, graph)
    pynative, graph = both_modes(SingleIf, f32(x), f32(y), grad=True)
    expect = (10 * (x + 1), 5.0) if x + 1 < y else (-5.0, 5.0)
    np.testing.assert_allclose([g[()] for g in values(graph)], expect)
    assert_same(pynative, graph)


class Helper(nn.Cell):
    """The branch is in a method construct calls (MindSpore's SingleIfNet1)."""

    def construct(self, x, y):
        return self.func(x + 1, y) * 2

    def func(self, x, y):
        if x < y:
            y = y + x
        else:
            y = y - x
        return y + 5


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Helper()

    def construct(self, x, y):
        return self.inner(x, y) * y


def test_control_flow_in_helper_methods_and_cells_called_from_cells():
    context.set_context(mode=context.GRAPH_MODE)
    assert Helper()(i32(2), i32(5)).asnumpy() == 26  # MindSpore's expected value
    for args in ((f32(2), f32(5)), (f32(6), f32(3))):
        assert_same(*both_modes(Outer, *args))
        assert_same(*both_modes(Outer, *args, grad=True))


class EarlyReturn(nn.Cell):
    def construct(self, x):
        if ops.reduce_sum(x) > 0:
            if ops.reduce_max(x) > 2:
                return x * 3
            return x * x
        y = ops.neg(x)
        return y + 1


@pytest.mark.parametrize("x", [[1.0, 3.0], [0.5, 1.0], [-1.0, -2.0]])
def test_return_inside_if_on_a_tensor(x):
    pynative, graph = both_modes(EarlyReturn, f32(x))
    a = np.array(x, np.float32)
    expect = (a * 3 if a.max() > 2 else a * a) if a.sum() > 0 else 1 - a
    np.testing.assert_allclose(values(graph)[0], expect)
    assert_same(*both_modes(EarlyReturn, f32(x), grad=True))


class Expressions(nn.Cell):
    def construct(self, x, y):
        z = x * 2 if x > y else y * 3
        if x > 0 and not y > 5 or x > 100:
            z = z + 1
        return z


@pytest.mark.parametrize("x, y", [(1.0, 2.0), (3.0, 2.0), (-1.0, 7.0), (200.0, 9.0)])
def test_conditional_expressions_and_boolean_operators_on_tensors(x, y):
    pynative, graph = both_modes(Expressions, f32(x), f32(y))
    z = x * 2 if x > y else y * 3
    z += 1 if (x > 0 and not y > 5 or x > 100) else 0
    np.testing.assert_allclose(values(graph)[0], z)
    assert_same(pynative, graph)


class InSequence(nn.Cell):
    def construct(self, x, y):
        if x in (y, y * 2, 3.0):
            x = x + 1
        if x not in [y + 1]:
            x = x * 10
        return x


@pytest.mark.parametrize(("x", "expect"), [(2.0, 30.0), (3.0, 40.0), (5.0, 50.0), (1.0, 2.0)])
def test_a_tensor_in_a_tuple_or_list(x, expect):
    pynative, graph = both_modes(InSequence, f32(x), f32(1.0))
    assert_same(pynative, graph)
    assert values(graph)[0] == expect


def test_a_tensor_in_a_sequence_compares_tensors_of_its_shape_and_dtype_as_mindspore():
    """True when an item of the same shape and dtype equals it everywhere (or a number
    does); Tensors of another shape or dtype are skipped."""
    def f(x, a, b):
        return x in (a, b, b.astype(ember.int32), a[:1]), x not in [a, 7]

    args = f32([1.0, 2.0]), f32([1.0, 3.0]), f32([1.0, 2.0])
    found, missing = ms_function(convert(f))(*args)
    assert found.dtype == ember.bool_ and found.asnumpy() and missing.asnumpy()
    found, missing = ms_function(convert(f))(f32([1.0, 3.0]), f32([1.0, 3.0]), f32([9.0, 9.0]))
    assert found.asnumpy() and not missing.asnumpy()
    found, missing = ms_function(convert(f))(f32([7.0, 7.0]), f32([7.0, 3.0]), f32([7.0, 9.0]))
    assert not found.asnumpy() and not missing.asnumpy()


class IfAny(nn.Cell):
    """MindSpore's test_single_if_any: the branches return shapes [] and [1]."""

    def __init__(self, a, b):
        super().__init__()
        self.a, self.b = a, b

    def construct(self):
        if self.a.all() == self.b:
            return self.a.any()
        return self.b


@pytest.mark.parametrize("b", [[False], [True]])
def test_branches_of_shapes_scalar_and_one_element_join_to_one_element_as_mindspore(b):
    a = Tensor(np.array([True, True, False]))
    pynative, graph = both_modes(lambda: IfAny(a, Tensor(np.array(b))))
    assert graph.shape == (1,) and graph.dtype == ember.bool_
    np.testing.assert_array_equal(graph.asnumpy(), [pynative.asnumpy().item()])
    assert graph.asnumpy()[0]  # a.any() when the test holds, else b


def test_assign_of_one_element_into_a_scalar_parameter_as_mindspore():
    """MindSpore's test_single_for_05: Assign accepts shapes [1] and [] for each other."""
    class AssignInLoop(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Parameter(Tensor(np.array(5, np.int32)), name="a")
            self.b = Parameter(Tensor(np.array(2, np.int32)), name="b")

        def construct(self, x):
            ops.assign(self.a, x + self.a)
            for _ in range(0, 3):
                ops.assign(self.b, x - self.a)
            return x

    results = []
    for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE):
        context.set_context(mode=mode)
        net = AssignInLoop()
        out, grads = net(i32([6])), grad_all(net)(i32([6]))
        results.append((out, grads[0], net.a, net.b))
        assert net.a.shape == () and net.a.asnumpy() == 5 + 6 + 6 and net.b.asnumpy() == -11
    for got, want in zip(*results, strict=True):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


class LoopElse(nn.Cell):
    """``for``/``while`` with ``else`` (which runs unless the loop breaks), on Python values
    and on tensors."""

    def construct(self, x, n):
        for _ in range(3):
            x = x + 1
            break
        else:
            x = x * 100
        i = 0
        while i < n:
            if x > 10:
                break
            x = x * 2
            i = i + 1
        else:
            x = x - 100
        for j in range(n):
            x = x + j
        else:
            x = -x
        return x


@pytest.mark.parametrize(("x", "n"), [(0.0, 2), (0.0, 5), (20.0, 1)])
def test_loops_with_else(x, n):
    pynative, graph = both_modes(LoopElse, f32(x), i32(n))
    assert_same(pynative, graph)
    assert values(graph)[0] == LoopElse().construct(x, n)  # Python's semantics, on floats


# -- while --------------------------------------------------------------------------------------
class WhileSquare(nn.Cell):
    def construct(self, x, y):
        while x < y:
            x = x * x + 1
        return x


def test_while_gradient_matches_pynative_and_finite_differences():
    pynative, graph = both_modes(WhileSquare, f32(1.5), f32(20.0), grad=True)
    assert_same(pynative, graph)
    # three trips: x -> x^2+1 -> ...; d/dx of ((x^2+1)^2+1)^2+1
    x = 1.5
    a = x * x + 1
    b = a * a + 1
    np.testing.assert_allclose(values(graph)[0], 2 * b * 2 * a * 2 * x, rtol=1e-5)
    np.testing.assert_allclose(values(graph)[1], 0)


class SinSteps(nn.Cell):
    """``x = sin(x) * w``, ``n`` times (``n`` a Tensor)."""

    def construct(self, x, w, n):
        i = 0
        while i < n:
            x = ops.sin(x) * w
            i = i + 1
        return x


def _sin_steps_grads(x, w, n):
    """d/dx and d/dw of SinSteps in forward mode, in NumPy."""
    dx, dw = 1.0, 0.0
    for _ in range(n):
        dx, dw = np.cos(x) * w * dx, np.cos(x) * w * dw + np.sin(x)
        x = np.sin(x) * w
    return dx, dw


@pytest.mark.parametrize("n", [0, 1, 8, 16])
def test_a_loop_gradient_runs_each_iteration_once_forward_and_once_backward(n):
    """The backward pass reads the carries the forward pass saved: 2n Sin kernels for n
    iterations, where recomputing each iteration from the loop's start takes n + n(n+1)/2."""
    from ember._executor import load_graph

    context.set_context(mode=context.GRAPH_MODE)
    graph = trace(grad_all(SinSteps()), (f32(0.5), f32(1.2), i32(0)), "grad")
    for run in (passes.eliminate_common_subexpressions, passes.eliminate_dead_code):
        run(graph)
    assert [n.prim.save for n in nodes_of(graph, WhileLoop)] == [True]
    assert len(nodes_of(graph, ReverseScan)) == 1
    calls = []

    def count(node, kernel):
        def counted(*args):
            calls.append(node.prim.name)
            return kernel(*args)
        return counted

    compiled = load_graph().compile(graph, wrap=count)
    dx, dw, dn = compiled(np.float32(0.5), np.float32(1.2), np.int32(n))
    assert calls.count("Sin") == 2 * n
    np.testing.assert_allclose([dx, dw], _sin_steps_grads(0.5, 1.2, n), rtol=1e-5, atol=1e-7)
    assert dn == 0


def test_a_loop_without_a_gradient_saves_nothing_and_a_gradient_of_a_gradient_is_refused():
    graph = trace(SinSteps(), (f32(0.5), f32(1.2), i32(3)), "forward")
    assert [n.prim.save for n in nodes_of(graph, WhileLoop)] == [False]
    context.set_context(mode=context.GRAPH_MODE)
    second = ops.GradOperation()(ops.GradOperation()(SinSteps()))
    with pytest.raises(GraphCompileError, match="gradient of a gradient through a while loop"):
        second(f32(0.5), f32(1.2), i32(3))


class ReturnInLoops(nn.Cell):
    """``return`` inside a ``while`` on tensors, and inside a ``for`` over a Python range
    whose ``if`` is on a tensor; the value returned from inside has the carried shape."""

    def construct(self, x, n):
        i = 0
        while i < n:
            if ops.reduce_sum(x) > 5:
                return x * 2
            x = x * x + 1
            i = i + 1
        for j in range(3):
            x = x - j
            if ops.reduce_sum(x) < -1:
                return x * 3
        return x - 1


def _return_in_loops(x, n):
    """ReturnInLoops in NumPy."""
    for _ in range(n):
        if x.sum() > 5:
            return x * 2
        x = x * x + 1
    for j in range(3):
        x = x - j
        if x.sum() < -1:
            return x * 3
    return x - 1


@pytest.mark.parametrize(("x", "n"), [([1.0, 0.5], 5), ([1.0, 0.5], 1), ([7.0, 0.0], 3),
                                      ([-1.0, 0.2], 0)])
def test_return_inside_loops_on_tensors(x, n):
    pynative, graph = both_modes(ReturnInLoops, f32(x), i32(n))
    assert_same(pynative, graph)
    want = _return_in_loops(np.array(x, np.float32), n)
    np.testing.assert_allclose(values(graph)[0], want, rtol=1e-6)
    assert_same(*both_modes(ReturnInLoops, f32(x), i32(n), grad=True))
    graph = trace(convert(ReturnInLoops().construct), (f32(x), i32(n)), "f")
    assert nodes_of(graph, WhileLoop)  # converted, not unrolled


class BreakInWhile(nn.Cell):
    """MindSpore's if_in_while_break ForwardNet: ``out`` passes 20 on the 7th trip."""

    def __init__(self, max_cycles=10, dtype=ember.int32):
        super().__init__()
        self.max_cycles = max_cycles
        self.i = Tensor(np.array(0), ember.int32)
        self.zero = Tensor(np.array(0), dtype)

    def construct(self, x, y):
        i = self.i
        out = self.zero
        while i < self.max_cycles:
            out = x * y + out
            if out > 20:
                break
            i = i + 1
        return out


def test_break_in_a_while_on_tensors():
    context.set_context(mode=context.GRAPH_MODE)
    assert BreakInWhile()(i32(1), i32(3)).asnumpy() == 21
    pynative, graph = both_modes(lambda: BreakInWhile(dtype=ember.float32), f32(1.0), f32(3.0),
                                 grad=True)
    assert_same(pynative, graph)
    np.testing.assert_allclose([g[()] for g in values(graph)], [21.0, 7.0])


class ElifBreakContinue(nn.Cell):
    def __init__(self, cycles, last):
        super().__init__()
        self.cycles, self.last = cycles, last
        self.step = Tensor(np.array(10), ember.int32)

    def construct(self):
        i = Tensor(np.array(0), ember.int32)
        out = Tensor(np.array(0), ember.int32)
        while i < self.cycles:
            if out < 10:
                out += self.step
            elif out < 20:
                out += self.step
            elif out < 30:
                out += self.step
                if self.last == "continue":
                    continue
            else:
                out += self.step
                if self.last == "break":
                    break
            i = i + 1
        return out + out


@pytest.mark.parametrize("cycles, last, expect", [(4, "break", 80), (4, "continue", 100),
                                                  (5, "none", 100)])
def test_if_elif_else_with_break_and_continue(cycles, last, expect):
    pynative, graph = both_modes(lambda: ElifBreakContinue(cycles, last))
    assert graph.asnumpy() == pynative.asnumpy() == expect


class Nested(nn.Cell):
    """A for loop over a tensor range, a while inside an if, an if inside the while."""

    def construct(self, x, n):
        total = x * 0
        for i in range(n):
            if ops.reduce_sum(x) < 4:
                j = 0
                while j < i:
                    x = x + 0.5 if j < 1 else x * 1.25
                    j += 1
            total = total + x
        return total


def test_nested_control_flow_values_and_gradients():
    for n in (0, 1, 4):
        pynative, graph = both_modes(Nested, f32([0.25, 0.5]), i32(n))
        assert_same(pynative, graph)
    assert_same(*both_modes(Nested, f32([0.25, 0.5]), i32(4), grad=True))


class ForBreak(nn.Cell):
    """A Python ``range`` with a break on a tensor: each trip after the test is a branch."""

    def construct(self, x):
        for _ in range(6):
            if ops.reduce_sum(x) > 10:
                break
            x = x * 2
        return x


def test_for_over_a_python_range_with_a_tensor_break():
    pynative, graph = both_modes(ForBreak, f32([1.0, 2.0]))
    np.testing.assert_allclose(values(graph)[0], [4.0, 8.0])
    assert_same(pynative, graph)
    assert_same(*both_modes(ForBreak, f32([1.0, 2.0]), grad=True))


class Accumulate(nn.Cell):
    """A Parameter updated by Assign inside a loop on a tensor condition."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        self.assign = ops.Assign()

    def construct(self, x, n):
        i = 0
        while i < n:
            self.assign(self.w, self.w * x)
            i += 1
        return self.w + 0


def test_parameters_updated_inside_a_loop():
    pynative, graph = both_modes(Accumulate, f32(2.0), i32(3))
    np.testing.assert_allclose(values(graph)[0], [8.0, 16.0])
    assert_same(pynative, graph)
    context.set_context(mode=context.GRAPH_MODE)
    net = Accumulate()
    net(f32(2.0), i32(2))
    net(f32(3.0), i32(1))  # the compiled graph updates the Parameter at every call
    np.testing.assert_allclose(net.w.asnumpy(), [12.0, 24.0])


class Layers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(2, 2, weight_init="ones"), nn.Tanh(), nn.ReLU()])

    def construct(self, index, x):
        return self.layers[index](x) * x


@pytest.mark.parametrize("index", [0, 1, 2, 9])
def test_switch_layer_indexes_a_cell_list_with_a_tensor(index):
    x = f32([[0.5, -1.5]])
    context.set_context(mode=context.GRAPH_MODE)
    net = Layers()
    out = net(i32(index), x)
    a = np.array([[0.5, -1.5]], np.float32)
    chosen = min(index, 2)
    want = [a @ np.ones((2, 2)) + net.layers[0].bias.asnumpy(), np.tanh(a),
            np.maximum(a, 0)][chosen] * a
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)
    grads = ops.GradOperation(get_by_list=True)(net, ember.ParameterTuple(
        net.trainable_params()))(i32(index), x)
    np.testing.assert_allclose(grads[0].asnumpy(), a.T @ a if chosen == 0 else 0, rtol=1e-6)


def test_a_tuple_of_cells_indexed_by_a_tensor_counts_negative_indices_from_the_end():
    class Pick(nn.Cell):
        def __init__(self):
            super().__init__()
            self.acts = (nn.ReLU(), nn.Tanh(), nn.Sigmoid())

        def construct(self, index, x):
            return self.acts[index](x)

    context.set_context(mode=context.GRAPH_MODE)
    x = np.array([-0.5, 2.0], np.float32)
    np.testing.assert_allclose(Pick()(i32(-1), f32(x)).asnumpy(), 1 / (1 + np.exp(-x)),
                               rtol=1e-6)
    np.testing.assert_allclose(Pick()(i32(-3), f32(x)).asnumpy(), np.maximum(x, 0))


# -- the functional forms, checks and errors ------------------------------------------------
def test_cond_and_while_loop_functions_under_ms_function():
    @ms_function
    def f(x, n):
        i, y = while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 2), [0, x])
        return cond(ops.reduce_sum(y) > 10, lambda a: a - 10, lambda a: a, y), i

    y, i = f(f32([1.0, 2.0]), i32(3))
    np.testing.assert_allclose(y.asnumpy(), [-2.0, 6.0])
    assert i.asnumpy() == 3 and i.dtype == ember.int64


def test_errors_in_a_decorated_function_name_the_users_line():
    @ms_function
    def f(x):
        if ops.reduce_sum(x) > 0:
            x = x * float(ops.reduce_sum(x))  # a Python float of a tensor: not traceable
        return x

    line = f.__wrapped__.__code__.co_firstlineno + 3
    with pytest.raises(GraphCompileError, match=f"test_control_flow.py:{line}\\)"):
        f(f32([1.0, 2.0]))


def test_branches_must_agree_and_the_error_names_the_line():
    class Mismatch(nn.Cell):
        def construct(self, x):
            if ops.reduce_sum(x) > 0:
                y = x
            else:
                y = ops.reduce_sum(x)
            return y

    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(GraphCompileError, match=r"test_control_flow.py:\d+: y is Tensor\(shape"
                                                r"=\[\], dtype=Float32\) in one and Tensor"
                                                r"\(shape=\[2\], dtype=Float32\) in the other"):
        Mismatch()(f32([1.0, 2.0]))


def test_returns_of_different_shapes_are_named_as_the_returned_value():
    class Returns(nn.Cell):
        def construct(self, x):
            if ops.reduce_sum(x) > 0:
                return ops.reduce_sum(x)
            return x

    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(GraphCompileError, match=r"test_control_flow.py:\d+: the returned value "
                                                r"is Tensor\(shape=\[2\]"):
        Returns()(f32([1.0, 2.0]))


def test_loop_carries_keep_their_shape_and_dtype():
    class Grow(nn.Cell):
        def construct(self, x):
            while ops.reduce_sum(x) < 10:
                x = ops.cast(x, ember.float64) * 2
            return x

    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(GraphCompileError, match=r"while at .*test_control_flow.py:\d+: loop "
                                                r"variable x must keep its shape and dtype"):
        Grow()(f32([1.0]))


def test_without_source_the_error_says_so_and_names_the_function():
    namespace = {}
    exec("def branchy(x):\n    if ops.reduce_sum(x) > 0:\n        return x\n    return -x\n",
         {"ops": ops}, namespace)
    context.set_context(mode=context.GRAPH_MODE)
    with pytest.raises(GraphCompileError, match=r"the source of branchy cannot be read"):
        ms_function(namespace["branchy"])(f32([1.0]))


def test_max_call_depth_bounds_recursion_on_tensor_conditions():
    class Countdown(nn.Cell):
        def construct(self, x):
            if x > 0:
                return self.construct(x - 1)
            return x

    context.set_context(mode=context.GRAPH_MODE, max_call_depth=20)
    with pytest.raises(GraphCompileError, match="max_call_depth=20"):
        Countdown()(f32(3.0))


# -- the IR: passes, dumps, the compile cache, the CPU code -------------------------------------
def _traced(fn, *args):
    return trace(fn, args, "f")


def test_a_switch_on_a_constant_becomes_its_branch():
    def f(x):
        return cond(Tensor(True), lambda a: a * 2, lambda a: a - 1, x)

    graph = passes.fold_constants(_traced(f, f32([1.0])), lambda node, arrays: [])
    assert nodes_of(graph, Switch) == [] and [n.prim.name for n in graph.nodes] == ["Mul"]


def test_dead_code_and_common_subexpressions_inside_subgraphs():
    def f(x, y):
        def body(v):
            ops.exp(v)  # unused
            return (ops.mul(v, y) + ops.mul(v, y),)
        return while_loop(lambda v: ops.reduce_sum(v) < 100, body, [x])[0]

    graph = _traced(f, f32([1.0]), f32([2.0]))
    passes.eliminate_common_subexpressions(graph)
    passes.eliminate_dead_code(graph)
    (loop,) = nodes_of(graph, WhileLoop)
    assert [n.prim.name for n in loop.prim.body.nodes] == ["Mul", "Add"]


def test_loops_with_side_effects_are_kept_and_not_merged():
    net = Accumulate()

    def update_only(x, n):
        convert(net.construct)(x, n)

    graph = _traced(update_only, f32(2.0), i32(1))
    passes.eliminate_common_subexpressions(graph)
    passes.eliminate_dead_code(graph)
    assert len(nodes_of(graph, WhileLoop)) == 1  # its result is unused, its Assign is not


def test_save_graphs_writes_the_subgraphs(tmp_path):
    context.set_context(mode=context.GRAPH_MODE, save_graphs=True, save_graphs_path=str(tmp_path))
    assert_same(WhileSquare()(f32(1.5), f32(20.0)), f32(((1.5 ** 2 + 1) ** 2 + 1) ** 2 + 1))
    text = next(tmp_path.glob("*_dce.ir")).read_text()
    assert "WhileLoop(" in text and "# Subgraph: WhileSquare/while_cond_" in text
    assert "# Subgraph: WhileSquare/while_body_" in text and "Less(" in text
    dot = next(tmp_path.glob("*_dce.dot")).read_text()
    assert 'subgraph "cluster_WhileSquare/while_body_' in dot
    source = next(tmp_path.glob("*_backend.py")).read_text()
    assert "while True:" in source and "break" in source


def test_the_cpu_graph_has_python_if_and_while():
    from ember._executor import load_graph

    context.set_context(mode=context.GRAPH_MODE)
    net = SingleIf()
    graph = _traced(lambda x: convert(net.construct)(x, f32(4.0)), f32(1.0))
    compiled = load_graph().compile(graph)
    assert "if v" in compiled.source and "else:" in compiled.source
    assert compiled(np.float32(1.0))[0] == 5 * (4 + 4)


def test_the_compile_cache_stores_control_flow(tmp_path):
    from ember.graph.compiler import compile_stats

    context.set_context(mode=context.GRAPH_MODE, enable_compile_cache=True,
                        compile_cache_path=str(tmp_path))
    first = Nested()(f32([0.25, 0.5]), i32(3))
    loads = compile_stats()["cache_loads"]
    again = Nested()(f32([0.25, 0.5]), i32(3))  # a new cell: its graph comes from the cache
    assert compile_stats()["cache_loads"] == loads + 1
    assert_same(first, again)
    first = GradOfWhileSquare()(f32(1.5), f32(20.0))  # a saving loop and its ReverseScan
    again = GradOfWhileSquare()(f32(1.5), f32(20.0))
    assert compile_stats()["cache_loads"] == loads + 2
    assert_same(first, again)


class GradOfWhileSquare(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = WhileSquare()

    def construct(self, x, y):
        return grad_all(self.net)(x, y)
