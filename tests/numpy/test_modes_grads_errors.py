"""ember.numpy inside a Cell's construct in GRAPH_MODE (same results as PyNative), its
gradients against finite differences, and its error messages."""

from __future__ import annotations

import numpy as onp
import pytest

import ember.numpy as mnp
from ember import Tensor, context, nn
from ember.testing.gradcheck import check_grad

RNG = onp.random.default_rng(1)
X = RNG.standard_normal((3, 4)).astype(onp.float32)
Y = RNG.standard_normal((4, 2)).astype(onp.float32)


class Model(nn.Cell):
    """A construct made of mnp calls, as model scripts write them."""

    def construct(self, x, y):
        h = mnp.matmul(x, y) + mnp.ones((3, 2))
        h = mnp.where(h > 0, h, mnp.zeros_like(h))
        joined = mnp.concatenate((h, mnp.flip(h, 1)), axis=1)
        stats = mnp.stack((mnp.mean(joined, 0), mnp.std(joined, 0)))
        grid = mnp.arange(4).reshape(1, 4).astype(mnp.float32)
        return mnp.sum(mnp.square(stats - grid), axis=1), mnp.tril(mnp.dot(x, x.T)), \
            mnp.cumsum(mnp.clip(x, -0.5, 0.5), 1), mnp.isclose(x, mnp.abs(x))


def _run(mode):
    context.set_context(mode=mode)
    return [o.asnumpy() for o in Model()(Tensor(X), Tensor(Y))]


def test_graph_mode_matches_pynative_and_numpy():
    eager, graph = _run(context.PYNATIVE_MODE), _run(context.GRAPH_MODE)
    for e, g in zip(eager, graph):
        onp.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    h = onp.maximum(X @ Y + 1, 0)
    joined = onp.concatenate((h, h[:, ::-1]), 1)
    stats = onp.stack((joined.mean(0), joined.std(0)))
    onp.testing.assert_allclose(graph[0], ((stats - onp.arange(4)) ** 2).sum(1), rtol=1e-5)
    onp.testing.assert_allclose(graph[1], onp.tril(X @ X.T), rtol=1e-5)
    onp.testing.assert_allclose(graph[2], onp.clip(X, -0.5, 0.5).cumsum(1), rtol=1e-5)
    assert (graph[3] == onp.isclose(X, onp.abs(X))).all()


def _f64(shape, seed):
    return Tensor(onp.random.default_rng(seed).uniform(0.5, 1.5, shape))


GRAD_CASES = [
    ("mean_var", lambda x: mnp.var(x, 1) + mnp.mean(x, 0).sum(), [(3, 4)]),
    ("std", lambda x: mnp.std(x, 0, ddof=1), [(3, 4)]),
    ("dot", lambda a, b: mnp.dot(a, b), [(2, 3), (3, 4)]),
    ("tensordot", lambda a, b: mnp.tensordot(a, b, ((0, 1), (1, 0))), [(2, 3), (3, 2)]),
    ("log_exp_sqrt", lambda x: mnp.log2(x) + mnp.exp(x) * mnp.sqrt(x), [(2, 3)]),
    ("power_divide", lambda a, b: mnp.divide(mnp.power(a, 2.5), b), [(2, 3), (2, 3)]),
    ("layout", lambda x: mnp.flip(mnp.moveaxis(mnp.tile(x, (2, 1)), 0, 1), 0), [(2, 3)]),
    ("split_stack", lambda x: mnp.stack(mnp.split(x, 2, 1), 0) * 2, [(2, 4)]),
    ("tril_trace", lambda x: mnp.tril(x) + mnp.trace(x), [(3, 3)]),
    ("pad", lambda x: mnp.pad(x, ((1, 2), (0, 1))), [(2, 3)]),
    ("logaddexp_hypot", lambda a, b: mnp.logaddexp(a, b) + mnp.hypot(a, b), [(2, 3), (2, 3)]),
    ("cov", lambda x: mnp.cov(x), [(2, 5)]),
    ("convolve", lambda a, v: mnp.convolve(a, v, "same"), [(5,), (3,)]),
    ("norm_kron", lambda a, b: mnp.norm(mnp.kron(a, b), axis=1), [(2, 2), (2, 3)]),
]


@pytest.mark.parametrize("name,fn,shapes", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients_match_finite_differences(name, fn, shapes):
    check_grad(fn, *(_f64(s, i) for i, s in enumerate(shapes)))


ERRORS = [
    (lambda: mnp.zeros((2, -1)), TypeError, "zeros: shape must be"),
    (lambda: mnp.ones(3, dtype="complex64"), TypeError, "ones: dtype must be"),
    (lambda: mnp.arange(0, 5, 0), ValueError, "arange: step must not be 0"),
    (lambda: mnp.array(["a"]), TypeError, "array: obj must be a Tensor, number"),
    (lambda: mnp.sum(mnp.ones((2, 2)), 2), ValueError, "sum: axis 2 is out of range"),
    (lambda: mnp.mean(mnp.ones(2), axis="0"), TypeError, "mean: axis must be"),
    (lambda: mnp.concatenate((mnp.ones((2, 2)), mnp.ones((3, 3)))), ValueError,
     "concatenate: all shapes must match except on axis 0"),
    (lambda: mnp.split(mnp.ones(5), 2), ValueError, "split: an axis of length 5 cannot be split"),
    (lambda: mnp.squeeze(mnp.ones((2, 1)), 0), ValueError, "squeeze: axis 0 has a length"),
    (lambda: mnp.transpose(mnp.ones((2, 3)), (0, 0)), ValueError, "transpose: axes (0, 0)"),
    (lambda: mnp.add(mnp.ones(2), mnp.ones(3)), ValueError, "Add"),
    (lambda: mnp.gcd(mnp.ones(2), 2), TypeError, "gcd: inputs must be integers"),
    (lambda: mnp.broadcast_to(mnp.ones(3), (2, 4)), ValueError, "broadcast_to: cannot broadcast"),
    (lambda: mnp.norm(mnp.ones((2, 2)), 2), ValueError, "norm: ember supports matrix ord"),
    (lambda: mnp.meshgrid(mnp.ones(2), indexing="xx"), ValueError, "meshgrid: indexing must"),
    (lambda: mnp.pad(mnp.ones(2), 1, mode="median"), ValueError, "pad: mode must be"),
    (lambda: mnp.where(mnp.ones(2)), ValueError, "where: ember needs both x and y"),
    (lambda: mnp.clip(mnp.ones(2), None, None), ValueError, "clip: a_min and a_max"),
]


@pytest.mark.parametrize("call,error,message", ERRORS, ids=[e[2][:24] for e in ERRORS])
def test_bad_input_names_function_and_argument(call, error, message):
    with pytest.raises(error, match=None) as info:
        call()
    assert message in str(info.value)
