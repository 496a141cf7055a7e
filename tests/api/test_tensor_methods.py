"""MindSpore 1.6's NumPy-style Tensor methods, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import ember as ms
from ember import Tensor, context, ops

A = np.array([[1.0, -2.0, 3.0], [4.0, 0.0, -6.0]], np.float32)


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)


@pytest.mark.parametrize("method, args, oracle", [
    ("all", (), lambda a: a.all()), ("all", (1,), lambda a: a.all(1)),
    ("any", ((0,), True), lambda a: a.any(0, keepdims=True)),
    ("argmin", (), lambda a: a.argmin()), ("argmin", (1,), lambda a: a.argmin(1)),
    ("clip", (-1, 2), lambda a: a.clip(-1, 2)), ("clip", (None, 0), lambda a: a.clip(None, 0)),
    ("ptp", (1,), lambda a: np.ptp(a, 1)), ("var", (), lambda a: a.var()),
    ("var", (0, 1, True), lambda a: a.var(0, ddof=1, keepdims=True)),
    ("std", (1,), lambda a: a.std(1)), ("swapaxes", (0, 1), lambda a: a.swapaxes(0, 1)),
    ("diagonal", (), lambda a: a.diagonal()), ("diagonal", (1,), lambda a: a.diagonal(1)),
    ("trace", (), lambda a: a.trace()), ("repeat", (2,), lambda a: a.repeat(2)),
    ("repeat", ([1, 3], 0), lambda a: a.repeat([1, 3], 0)),
    ("resize", ((4, 2),), lambda a: np.resize(a, (4, 2))),
    ("take", ([0, 5, 9],), lambda a: a.take([0, 5, 9], mode="clip")),
    ("take", ([-1, 4], 1, "wrap"), lambda a: a.take([-1, 4], 1, mode="wrap")),
    ("fill", (7.0,), lambda a: np.full_like(a, 7.0)),
    ("cumsum", (), lambda a: a.cumsum()), ("cumsum", (1,), lambda a: a.cumsum(1)),
])
def test_method_matches_numpy(method, args, oracle):
    out = getattr(Tensor(A), method)(*args)
    expected = np.asarray(oracle(A.copy()))
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    assert out.shape == expected.shape


def test_take_with_tensor_indices_clips():
    out = Tensor(A).take(Tensor(np.array([[1, 9]], np.int32)), axis=1)
    np.testing.assert_array_equal(out.asnumpy(), A.take([[1, 9]], axis=1, mode="clip"))
    with pytest.raises(ValueError, match="mode='wrap' needs constant indices"):
        Tensor(A).take(Tensor(np.array([1])), mode="wrap")


def test_choose_and_searchsorted():
    index = np.array([0, 1, 1, 0])
    choices = [np.arange(4), np.arange(10, 14)]
    np.testing.assert_array_equal(Tensor(index).choose(choices).asnumpy(),
                                  np.choose(index, choices))
    a, v = np.array([1, 3, 5, 7], np.float32), np.array([3, 6, 0, 9], np.float32)
    for side in ("left", "right"):
        out = Tensor(a).searchsorted(Tensor(v), side=side)
        np.testing.assert_array_equal(out.asnumpy(), np.searchsorted(a, v, side))
        assert out.dtype is ms.int32


def test_itemset_returns_a_new_tensor():
    x = Tensor(A)
    np.testing.assert_array_equal(x.itemset(4, 9.0).asnumpy(),
                                  np.where(np.arange(6).reshape(2, 3) == 4, 9.0, A))
    np.testing.assert_array_equal(x.itemset((0, 2), 5).asnumpy()[0, 2], 5.0)
    np.testing.assert_array_equal(x.asnumpy(), A)  # unchanged
    assert Tensor(np.array([2], np.int32)).itemset(3).asnumpy().tolist() == [3]
    with pytest.raises(ValueError, match="one argument only sets a one-element tensor"):
        x.itemset(1.0)


def test_properties_and_from_numpy():
    x = Tensor(A)
    assert x.strides == A.strides and x.has_init is False
    assert Tensor.from_numpy(A).dtype is ms.float32


def test_var_is_differentiable():
    grad = ops.GradOperation()(lambda x: x.var())(Tensor(np.array([1.0, 2.0, 6.0], np.float32)))
    a = np.array([1.0, 2.0, 6.0])
    np.testing.assert_allclose(grad.asnumpy(), 2 * (a - a.mean()) / 3, rtol=1e-6)


def test_equality_with_a_non_number_is_a_plain_bool():
    # MindSpore 1.6's Tensor.__eq__/__ne__: elementwise against a Tensor or a number, else
    # False / True (so ``x != 'zero'`` and ``x == None`` never reach the Equal primitive)
    x = Tensor(np.array([1, 2], np.float32))
    assert (x == "zero") is False and (x != "zero") is True
    assert (x == None) is False and (x != None) is True  # noqa: E711
    assert (x == 2).asnumpy().tolist() == [False, True]
    assert (x != np.float32(1)).asnumpy().tolist() == [False, True]
