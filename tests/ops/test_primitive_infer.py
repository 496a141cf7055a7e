"""PyNative reuses a primitive's inferred output for a repeated input signature, infers again
after an attribute changes, and always infers for primitives defined outside ember."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import Tensor, ops
from ember.ops.primitive import Primitive


def _counted(prim: Primitive) -> list:
    calls = []
    infer = prim.infer

    def counting(*args):
        calls.append(args)
        return infer(*args)

    prim.infer = counting
    return calls


def test_a_repeated_signature_is_inferred_once():
    matmul = ops.MatMul()
    calls = _counted(matmul)
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))
    for _ in range(3):
        assert matmul(x, y).shape == (2, 4)
    assert len(calls) == 1
    assert matmul(Tensor(np.ones((5, 3), np.float32)), y).shape == (5, 4)
    assert matmul(x.astype(ember.float64), y.astype(ember.float64)).dtype == ember.float64
    assert len(calls) == 3


def test_values_and_types_of_other_inputs_are_part_of_the_signature():
    reshape = ops.Reshape()
    x = Tensor(np.arange(6, dtype=np.float32))
    assert reshape(x, (2, 3)).shape == (2, 3)
    assert reshape(x, (3, 2)).shape == (3, 2)
    with pytest.raises(TypeError):
        reshape(x, (2.0, 3))


def test_an_attribute_change_infers_again():
    matmul = ops.MatMul()
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="inner dimensions"):
        matmul(x, x)
    matmul.add_prim_attr("transpose_b", True)
    assert matmul(x, x).shape == (2, 2)
    matmul.transpose_b = False
    with pytest.raises(ValueError, match="inner dimensions"):
        matmul(x, x)


def test_primitives_defined_outside_ember_infer_at_every_call():
    class Twice(Primitive):
        def infer(self, x):
            calls.append(x)
            return x.shape, x.dtype

    calls: list = []
    assert not Twice.cache_infer
    twice = Twice()
    x = Tensor(np.ones(2, np.float32))
    with pytest.raises(RuntimeError):  # no kernel for it: inferred, then refused
        twice(x)
    with pytest.raises(RuntimeError):
        twice(x)
    assert len(calls) == 2


def test_a_backward_primitive_is_made_once_and_again_after_an_attribute_changes(monkeypatch):
    from ember.ops.operations import norm_ops

    made = []
    init = norm_ops.LayerNormGrad.__init__

    def counting(self, *args):
        made.append(args)
        init(self, *args)

    monkeypatch.setattr(norm_ops.LayerNormGrad, "__init__", counting)
    norm = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    gamma, beta = Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32))
    weights = Tensor(np.array([[1, -2, 3], [0, 1, 5]], np.float32))
    grad = ops.GradOperation()(lambda x: norm(x, gamma, beta)[0] * weights)
    first = grad(x).asnumpy()
    for _ in range(2):
        np.testing.assert_array_equal(grad(x).asnumpy(), first)
    assert made == [(1, 1, 1e-7)]
    norm.add_prim_attr("epsilon", 1.0)  # a large epsilon damps the gradient
    damped = grad(x).asnumpy()
    assert made == [(1, 1, 1e-7), (1, 1, 1.0)]
    assert np.abs(damped).max() < np.abs(first).max()
