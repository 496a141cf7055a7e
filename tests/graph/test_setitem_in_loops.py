"""GRAPH_MODE ``x[i, ...] = v`` where ``i`` is a tensor of the graph (a while loop's counter):
the positions are computed by the graph, ``x`` is carried by the loop; values as NumPy
computes them, gradients as central finite differences of the NumPy function."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, nn, ops

grad_all = ops.GradOperation(get_all=True)


@pytest.fixture(autouse=True)
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def rows_to_max(i, end, x):
    x = x.copy()
    while i < end:
        x[i, :, 0:2] = x[i].max()
        i += 1
    return x


class RowsToMax(nn.Cell):
    def construct(self, i, end, x):
        while i < end:
            x[i, :, 0:2] = x[i, :, :].max()
            i = i + 1
        return x


def column_from_vector(x, v):
    i = 0
    while i < x.shape[0]:
        x = x.copy()
        x[i, 1] = v[i] * 2
        i += 1
    return x


class ColumnFromVector(nn.Cell):
    def construct(self, x, v):
        i = Tensor(0)
        while i < x.shape[0]:
            x[i, 1] = v[i] * 2
            i += 1
        return x


def finite_differences(fn, args, which, eps=1e-3):
    base = [a.astype(np.float64) for a in args]
    grad = np.zeros_like(base[which])
    for pos in np.ndindex(grad.shape):
        up, down = [a.copy() for a in base], [a.copy() for a in base]
        up[which][pos] += eps
        down[which][pos] -= eps
        grad[pos] = (fn(*up).sum() - fn(*down).sum()) / (2 * eps)
    return grad


def test_rows_set_from_their_maximum_in_a_loop():
    x = np.random.default_rng(0).standard_normal((3, 2, 3)).astype(np.float32)
    out = RowsToMax()(Tensor(np.int32(0)), Tensor(np.int32(2)), Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), rows_to_max(0, 2, x), rtol=1e-6)
    grads = grad_all(RowsToMax())(Tensor(np.int32(0)), Tensor(np.int32(2)), Tensor(x))
    want = finite_differences(lambda x: rows_to_max(0, 2, x), [x], 0)
    np.testing.assert_allclose(grads[2].asnumpy(), want, atol=1e-2)


def test_an_element_set_from_another_tensor_in_a_loop():
    rng = np.random.default_rng(1)
    x, v = rng.standard_normal((3, 2)).astype(np.float32), np.float32([1, 2, 3])
    out = ColumnFromVector()(Tensor(x), Tensor(v))
    np.testing.assert_allclose(out.asnumpy(), column_from_vector(x, v))
    grads = grad_all(ColumnFromVector())(Tensor(x), Tensor(v))
    for which in (0, 1):
        want = finite_differences(column_from_vector, [x, v], which)
        np.testing.assert_allclose(grads[which].asnumpy(), want, atol=1e-2)
