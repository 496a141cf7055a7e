"""nn.Jvp / nn.Vjp and ops.jvp / ops.vjp: products against the Jacobians written by hand, in
both modes, and the structure their arguments must have."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, nn, ops

X = np.array([[1, 2], [3, 4]], np.float32)
Y = np.array([[0.5, -1], [2, 0.25]], np.float32)
V = np.array([[1, -2], [0.5, 3]], np.float32)
W = np.array([[2, 1], [-1, 0.5]], np.float32)


class Cube(nn.Cell):
    def construct(self, x):
        return x ** 3


class CubePlusY(nn.Cell):
    def construct(self, x, y):
        return x ** 3 + x * y


class TwoOutputs(nn.Cell):
    def construct(self, x, y):
        return 2 * x, y ** 3


@pytest.fixture(params=[context.GRAPH_MODE, context.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    context.set_context(mode=request.param)


def test_jvp_of_one_and_of_two_inputs(mode) -> None:
    out, jv = nn.Jvp(Cube())(Tensor(X), Tensor(V))
    np.testing.assert_allclose(out.asnumpy(), X ** 3)
    np.testing.assert_allclose(jv.asnumpy(), 3 * X ** 2 * V, rtol=1e-6)
    out, jv = nn.Jvp(CubePlusY())(Tensor(X), Tensor(Y), (Tensor(V), Tensor(W)))
    np.testing.assert_allclose(out.asnumpy(), X ** 3 + X * Y, rtol=1e-6)
    # d(x^3 + x y) = (3x^2 + y) dx + x dy
    np.testing.assert_allclose(jv.asnumpy(), (3 * X ** 2 + Y) * V + X * W, rtol=1e-6)


def test_vjp_of_one_and_of_two_outputs(mode) -> None:
    out, vj = nn.Vjp(Cube())(Tensor(X), Tensor(V))
    np.testing.assert_allclose(vj.asnumpy(), 3 * X ** 2 * V, rtol=1e-6)
    out, (gx, gy) = nn.Vjp(TwoOutputs())(Tensor(X), Tensor(Y), (Tensor(V), Tensor(W)))
    np.testing.assert_allclose(out[1].asnumpy(), Y ** 3, rtol=1e-6)
    np.testing.assert_allclose(gx.asnumpy(), 2 * V)
    np.testing.assert_allclose(gy.asnumpy(), 3 * Y ** 2 * W, rtol=1e-6)


def test_functional_forms_take_a_tuple_of_inputs() -> None:
    context.set_context(mode=context.PYNATIVE_MODE)
    _, jv = ops.jvp(CubePlusY(), (Tensor(X), Tensor(Y)), (Tensor(V), Tensor(W)))
    np.testing.assert_allclose(jv.asnumpy(), (3 * X ** 2 + Y) * V + X * W, rtol=1e-6)
    _, (gx, gy) = ops.vjp(CubePlusY(), (Tensor(X), Tensor(Y)), Tensor(V))
    np.testing.assert_allclose(gx.asnumpy(), (3 * X ** 2 + Y) * V, rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), X * V, rtol=1e-6)


@pytest.mark.parametrize(("call", "message"), [
    (lambda x, v: nn.Jvp(CubePlusY())((x, x), (v, v)),
     "inputs must be a Tensor or a tuple of Tensors, but got a tuple of 1"),
    (lambda x, v: nn.Jvp(CubePlusY())(x, x, v),
     "inputs are a tuple of 2 Tensors, so v must be a tuple of 2 Tensors too, but got Tensor"),
    (lambda x, v: nn.Jvp(Cube())(x, (v,)), "inputs are a Tensor, so v must be a Tensor too"),
    (lambda x, v: nn.Vjp(Cube())(x, (v, v)),
     "returned a Tensor, so sens must be a Tensor too, but got a tuple of 2"),
    (lambda x, v: nn.Vjp(TwoOutputs())(x, x, v),
     "returned a tuple of 2 Tensors, so sens must be a tuple of 2 Tensors too, but got Tensor"),
])
def test_arguments_of_the_wrong_structure_are_type_errors(mode, call, message) -> None:
    with pytest.raises(TypeError, match=message):
        call(Tensor(X), Tensor(V))
