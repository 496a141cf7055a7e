"""The primitives answered in Python (``value_ops``): the values MindSpore 1.6's docstrings
print, the dtypes its infer_value rules give, both modes, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import ember as ms
from ember import Tensor, context, nn
from ember.ops import functional as F
from ember.ops import operations as P


def test_ones_and_zeros_as_documented():
    np.testing.assert_array_equal(P.Ones()((2, 2), ms.float32).asnumpy(), [[1, 1], [1, 1]])
    zeros = P.Zeros()(3, ms.int32)
    assert zeros.dtype is ms.int32 and zeros.shape == (3,)
    np.testing.assert_array_equal(zeros.asnumpy(), [0, 0, 0])
    assert P.Ones()((1,), ms.bool_).asnumpy().tolist() == [True]


@pytest.mark.parametrize("shape, error", [([2, 2], TypeError), ((2, 1.5), TypeError),
                                          ((2, 0), ValueError), (-1, ValueError)])
def test_ones_rejects_bad_shapes(shape, error):
    with pytest.raises(error, match="Ones: 'shape'"):
        P.Ones()(shape, ms.float32)


def test_zeros_rejects_a_non_dtype():
    with pytest.raises(TypeError, match="Zeros: 'type'"):
        P.Zeros()((2,), np.float32)


def test_scalar_conversions_as_documented():
    assert P.ScalarCast()(255.0, ms.int32) == 255 and type(P.ScalarCast()(1, ms.float16)) is float
    assert P.ScalarCast()(0, ms.bool_) is False
    one = P.ScalarToArray()(1.0)
    assert one.dtype is ms.float32 and one.shape == () and one.asnumpy() == 1.0
    assert P.ScalarToArray()(3).dtype is ms.int32
    made = P.ScalarToTensor()(1, ms.float32)
    assert made.dtype is ms.float32 and made.asnumpy() == 1.0
    assert P.ScalarToTensor()(7).dtype is ms.float32
    assert P.ScalarToTensor()(2.5, ms.float64).asnumpy() == 2.5


def test_tuple_to_array_as_documented():
    out = P.TupleToArray()((1, 2, 3))
    assert out.dtype is ms.int32 and out.asnumpy().tolist() == [1, 2, 3]
    assert P.TupleToArray()((1.5, 2.0)).dtype is ms.float32
    assert P.TupleToArray()(range(4)).asnumpy().tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("call, error, match", [
    (lambda: P.TupleToArray()([1, 2]), TypeError, "must be a tuple"),
    (lambda: P.TupleToArray()(()), ValueError, "must not be empty"),
    (lambda: P.TupleToArray()((1, 2.0)), TypeError, "one type"),
    (lambda: P.TupleToArray()((1, "a")), TypeError, r"input_x\[1\]"),
    (lambda: P.ScalarToArray()(True), TypeError, "ScalarToArray: 'input_x'"),
    (lambda: P.ScalarToTensor()(1, ms.bool_), TypeError, "ScalarToTensor: 'dtype'"),
    (lambda: P.ScalarCast()("1", ms.int32), TypeError, "ScalarCast: 'input_x'"),
    (lambda: P.ScalarCast()(1, int), TypeError, "ScalarCast: 'input_y'"),
])
def test_conversion_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_type_checks_as_documented():
    assert P.IsSubClass()(ms.int32, ms.intc) is True
    assert P.IsSubClass()(ms.float16, ms.float32) is False
    assert P.IsSubClass()(ms.float16, ms.common.dtype.float_type) is True
    assert P.IsInstance()(1, ms.int32) is False  # a Python int is Int64
    assert P.IsInstance()(1, ms.int64) and P.IsInstance()(True, ms.bool_)
    assert P.IsInstance()(2.0, ms.float32)
    assert P.IsInstance()(Tensor(np.ones(2, np.float32)), ms.float32) is False
    with pytest.raises(TypeError, match="IsInstance: 'type_'"):
        P.IsInstance()(1, int)
    with pytest.raises(TypeError, match="IsSubClass: 'sub_type'"):
        P.IsSubClass()(1, ms.int32)


def test_same_type_shape():
    x = Tensor(np.array([[2, 2], [2, 2]], np.float32))
    assert P.SameTypeShape()(x, Tensor(np.zeros((2, 2), np.float32))) is x
    with pytest.raises(TypeError, match="same dtype"):
        P.SameTypeShape()(x, Tensor(np.zeros((2, 2), np.float16)))
    with pytest.raises(ValueError, match="same shape"):
        P.SameTypeShape()(x, Tensor(np.zeros((2, 3), np.float32)))
    with pytest.raises(TypeError, match="input_y"):
        P.SameTypeShape()(x, 1.0)


def test_depend_and_identity_return_their_input():
    x = Tensor(np.ones(3, np.float32))
    assert P.Depend()(x, x * 2) is x and F.depend(x, 1) is x
    assert P.identity()(x) is x and F.identity(x) is x


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ones, self.depend, self.cast = P.Ones(), P.Depend(), P.ScalarCast()
        self.to_array = P.TupleToArray()

    def construct(self, x):
        y = self.depend(x, x * 2)
        return y + self.ones((3,), ms.float32) * self.cast(2.7, ms.int32) \
            + self.to_array((1.0, 2.0, 3.0))


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_in_both_modes(mode):
    context.set_context(mode=mode)
    out = _Net()(Tensor(np.array([0.5, 1.0, 1.5], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [3.5, 5.0, 6.5])


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_scalar_functions_in_a_hypermap_as_the_programming_guide(mode):
    """1.6's programming guide: a MultitypeFuncGraph adds numbers with ops.scalar_add and
    tensors with ops.tensor_add, and HyperMap maps it over mixed tuples."""
    from ember import ops

    add = ops.MultitypeFuncGraph("add")
    add.register("Number", "Number")(lambda x, y: ops.scalar_add(x, y))
    add.register("Tensor", "Tensor")(lambda x, y: ops.tensor_add(x, y))

    class Net(nn.Cell):
        def construct(self, a, b):
            return ops.HyperMap(add)((a, b, 1), (b, a, 2))

    context.set_context(mode=mode)
    try:
        out = Net()(Tensor(1.0, ms.float32), Tensor(3.0, ms.float32))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert [float(t.asnumpy()) for t in out[:2]] == [4.0, 4.0] and out[2] == 3


def test_scalar_functions_compute_on_python_values():
    assert (F.scalar_sub(7, 2), F.scalar_div(7, 2), F.scalar_floordiv(7, 2)) == (5, 3.5, 3)
    assert F.scalar_mod(7, 3) == 1 and F.scalar_pow(2, 10) == 1024 and F.scalar_usub(3) == -3
    assert F.scalar_log(np.e) == pytest.approx(1.0)
    assert F.scalar_lt(1, 2) and not F.scalar_eq(1, 2) and F.bool_or(False, True)
    assert F.string_eq("a", "a") and F.string_concat("em", "ber") == "ember"
