"""Gradients of code that reads a Parameter, then updates it (``self.p += 1``), at the top
level, in branches and in loops on tensors, in both modes: the backward pass uses the values
the forward pass read, for integer and floating-point Parameters alike. Expected values: the same
steps on Python numbers, gradients by central finite differences of them."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, ParameterTuple, Tensor, context, nn, ops
from ember.graph.tracer import trace

grad_all = ops.GradOperation(get_all=True)
DTYPES = [np.int32, np.float32]


@pytest.fixture(params=[context.PYNATIVE_MODE, context.GRAPH_MODE], ids=["pynative", "graph"],
                autouse=True, name="mode")
def fixture_mode(request):
    context.set_context(mode=request.param)
    yield request.param
    context.set_context(mode=context.PYNATIVE_MODE)


def top_level(x, p):
    out = x * p
    p += 1
    return out, p


def loop(x, p):
    i = 0
    while i < 3:
        x = x * p
        p += 1
        i += 1
    return x, p


def branch_in_loop(x, p):
    i = 0
    while i < 4:
        if p % 2 == 0:
            p += 1
        x = x * p
        p += 1
        i += 1
    return x, p


def nested_loops(x, p):
    i = 0
    while i < 2:
        j = 0
        while j < 2:
            x = x * p
            p += 1
            j += 1
        x = x + p
        i += 1
    return x, p


def branch_only_updates(x, p=5, q=4):
    out = x + p
    if p > q:
        for _ in range(4):
            p, q = p + 1, q - 3
    q += 15
    if x < q:
        out -= q
    return out, p, q


class Updating(nn.Cell):
    """``step(x, p)`` with ``p`` a Parameter (``self.p``), ``i``/``j`` tensors."""

    def __init__(self, step, dtype):
        super().__init__()
        self.p = Parameter(Tensor(np.array(2, dtype)), name="p")
        self.step = step

    def construct(self, x):
        return self.step(self, x)


def top_level_net(self, x):
    out = x * self.p
    self.p += 1
    return out


def loop_net(self, x):
    i = Tensor(0)
    while i < 3:
        x = x * self.p
        self.p += 1
        i += 1
    return x


def branch_in_loop_net(self, x):
    i = Tensor(0)
    while i < 4:
        if self.p % 2 == 0:
            self.p += 1
        x = x * self.p
        self.p += 1
        i += 1
    return x


def nested_loops_net(self, x):
    i = Tensor(0)
    while i < 2:
        j = Tensor(0)
        while j < 2:
            x = x * self.p
            self.p += 1
            j += 1
        x = x + self.p
        i += 1
    return x


class BranchOnlyUpdates(nn.Cell):
    """A branch that only updates Parameters (its Switch has no outputs)."""

    def __init__(self, dtype):
        super().__init__()
        self.p = Parameter(Tensor(np.array(5, dtype)), name="p")
        self.q = Parameter(Tensor(np.array(4, dtype)), name="q")

    def construct(self, x):
        out = x + self.p
        if self.p > self.q:
            for _ in range(4):
                self.p += 1
                self.q -= 3
        self.q += 15
        if x < self.q:
            out -= self.q
        return out


CASES = [(top_level, top_level_net), (loop, loop_net), (branch_in_loop, branch_in_loop_net),
         (nested_loops, nested_loops_net)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("reference", "step"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_gradient_reads_the_values_before_the_updates(reference, step, dtype):
    x, eps = 3, 1e-3
    out, p = reference(x, 2)
    slope = (reference(x + eps, 2.0)[0] - reference(x - eps, 2.0)[0]) / (2 * eps)
    net = Updating(step, dtype)
    assert net(Tensor(np.array(x, dtype))).asnumpy() == out
    assert net.p.asnumpy() == p
    net = Updating(step, dtype)
    (grad,) = grad_all(net)(Tensor(np.array(x, dtype)))
    assert grad.dtype == net.p.dtype
    np.testing.assert_allclose(grad.asnumpy(), slope, rtol=1e-3)
    assert net.p.asnumpy() == p  # the forward pass updated it once; the backward pass did not


@pytest.mark.parametrize("x", [2, 30])
@pytest.mark.parametrize("dtype", DTYPES)
def test_a_branch_that_only_updates_parameters_in_a_gradient(x, dtype):
    out, p, q = branch_only_updates(x)
    eps = 1e-3
    slope = (branch_only_updates(x + eps)[0] - branch_only_updates(x - eps)[0]) / (2 * eps)
    net = BranchOnlyUpdates(dtype)
    (grad,) = grad_all(net)(Tensor(np.array(x, dtype)))
    np.testing.assert_allclose(grad.asnumpy(), slope, rtol=1e-3)
    assert (net.p.asnumpy(), net.q.asnumpy()) == (p, q)
    assert BranchOnlyUpdates(dtype)(Tensor(np.array(x, dtype))).asnumpy() == out


def test_a_training_step_keeps_no_copy_of_the_weights_it_updates_after_the_backward_pass(mode):
    if mode == context.PYNATIVE_MODE:
        pytest.skip("a graph property")
    net = nn.Dense(2, 2)
    weights = ParameterTuple(net.trainable_params())
    grad = ops.GradOperation(get_by_list=True)

    def train_step(x):
        for w, g in zip(weights, grad(net, weights)(x)):
            ops.assign(w, w - g)
        return x

    graph = trace(train_step, (Tensor(np.ones((1, 2), np.float32)),), "train_step")
    assert [n.prim.name for n in graph.nodes].count("Assign") == 2
    assert not [n for n in graph.nodes if n.prim.name == "Identity"]
