"""GRAPH_MODE control flow whose branches update Parameters (``self.p += v``, ``ops.assign``):
the updates happen on the path taken, in order, and later reads see them. Expected values
are computed by the same steps on Python ints."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def i32(value):
    return Tensor(np.array(value, np.int32))


class UpdatesInBranch(nn.Cell):
    """A branch that only updates Parameters (it assigns no local variable), the updates
    repeated by an unrolled loop."""

    def __init__(self):
        super().__init__()
        self.a = Parameter(i32(5), name="a")
        self.b = Parameter(i32(4), name="b")

    def construct(self, x):
        out = x + self.a
        if self.a > self.b:
            for _ in range(4):
                self.a += 1
                self.b -= 3
        self.b += 15
        if x < self.b:
            out -= self.b
        return out


def updates_in_branch(x, a=5, b=4):
    out = x + a
    if a > b:
        for _ in range(4):
            a, b = a + 1, b - 3
    b += 15
    if x < b:
        out -= b
    return out, a, b


@pytest.mark.parametrize("x", [2, -30, 20])
def test_a_branch_that_only_updates_parameters_runs(x):
    net = UpdatesInBranch()
    out, a, b = updates_in_branch(x)
    assert int(net(i32(x)).asnumpy()) == out
    assert (int(net.a.asnumpy()), int(net.b.asnumpy())) == (a, b)


def test_the_updates_of_a_branch_run_at_every_call():
    net = UpdatesInBranch()
    a, b = 5, 4
    for _ in range(3):
        out, a, b = updates_in_branch(2, a, b)
        assert int(net(i32(2)).asnumpy()) == out
    assert (int(net.a.asnumpy()), int(net.b.asnumpy())) == (a, b)


def test_repeated_updates_of_a_parameter_in_a_branch_are_not_merged():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(i32(4), name="p")

        def construct(self, x):
            if x > 0:
                self.p += 10
                self.p += 10
            return x

    net = Net()
    net(i32(2))
    assert int(net.p.asnumpy()) == 24
    net(i32(-2))
    assert int(net.p.asnumpy()) == 24


def test_assign_takes_a_python_number_in_the_parameters_dtype():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([0.5], np.float32)), name="w")

        def construct(self, x):
            for i in range(3):
                if x > i:
                    ops.assign(self.w, i)
            return x

    net = Net()
    net(i32(2))
    assert net.w.dtype == Tensor(np.float32(0)).dtype
    np.testing.assert_array_equal(net.w.asnumpy(), np.array([1.0], np.float32))
