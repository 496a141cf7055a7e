"""Value-shaped primitives: MindSpore's documented examples in PyNative mode, and GRAPH_MODE's
error that names the primitive and the user's line."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, nn, ops
from ember.ops import operations as P


def test_unique_documented_example():
    y, idx = ops.unique(Tensor(np.array([1, 2, 5, 2], np.int32)))
    assert y.shape == (3,) and idx.shape == (4,)
    np.testing.assert_array_equal(y.asnumpy(), [1, 2, 5])
    np.testing.assert_array_equal(idx.asnumpy(), [0, 1, 2, 1])


def test_masked_select_documented_example_and_gradient():
    x = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    mask = Tensor(np.array([True, False, True, False]))
    out = ops.masked_select(x, mask)
    assert out.shape == (2,)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 3.0])
    grad = ops.GradOperation()(lambda x: ops.reduce_sum(ops.masked_select(x, mask)))(x)
    np.testing.assert_array_equal(grad.asnumpy(), [1.0, 0.0, 1.0, 0.0])


def test_dynamic_shape_is_an_int32_tensor():
    out = P.DynamicShape()(Tensor(np.ones((3, 2, 1), np.float32)))
    assert str(out) == "[3 2 1]" and out.dtype == ops.dtype(Tensor(np.int32(1)))


class _Uniq(nn.Cell):
    def construct(self, x):
        return P.Unique()(x)


def test_graph_mode_names_the_primitive_and_the_line():
    context.set_context(mode=context.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match=r"Unique cannot be compiled into a graph \(at "
                                               r".*test_dynamic_ops.py:\d+\)"):
            _Uniq()(Tensor(np.array([1, 2, 2], np.int32)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


ERRORS = [
    ("unique-rank", lambda: ops.unique(Tensor(np.ones((2, 2), np.int32))), ValueError,
     r"Unique: input_x must be 1-d, but got shape \[2, 2\]"),
    ("pad-num", lambda: P.UniqueWithPad()(Tensor(np.ones(2, np.int32)), 1.0), TypeError,
     "UniqueWithPad: pad_num must be an int, but got 1.0"),
    ("mask-dtype", lambda: ops.masked_select(Tensor([1.0]), Tensor([1.0])), TypeError,
     "MaskedSelect: input 'mask' must have dtype in"),
    ("mask-shape", lambda: ops.masked_select(Tensor(np.ones(2)), Tensor(np.ones(3, bool))),
     ValueError, r"MaskedSelect: shapes \[2\] and \[3\] cannot be broadcast"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
