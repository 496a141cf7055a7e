"""Tensor construction, dtypes, printed forms and Parameter."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import ember
from ember import Parameter, ParameterTuple, Tensor


@pytest.mark.parametrize(("data", "dtype", "np_dtype"), [
    (2.0, ember.float32, np.float32),
    (2, ember.int64, np.int64),
    (True, ember.bool_, np.bool_),
    ([1.0, 2.5], ember.float32, np.float32),
    ([1, 2], ember.int64, np.int64),
    ([[True, False]], ember.bool_, np.bool_),
    (np.zeros((2, 3), np.float16), ember.float16, np.float16),
    (np.arange(4, dtype=np.uint8), ember.uint8, np.uint8),
    (np.ones(2, np.float64), ember.float64, np.float64),
])
def test_dtype_follows_the_data(data, dtype, np_dtype):
    t = Tensor(data)
    assert t.dtype is dtype
    assert t.asnumpy().dtype == np_dtype
    np.testing.assert_array_equal(t.asnumpy(), np.asarray(data, np_dtype))


def test_explicit_dtype_converts():
    t = Tensor([1.7, -2.2], ember.int32)
    assert t.dtype is ember.int32 and t.asnumpy().tolist() == [1, -2]
    assert Tensor(Tensor([1, 2]), ember.float32).dtype is ember.float32


def test_attributes():
    t = Tensor(np.zeros((2, 3, 4), np.float32))
    assert (t.shape, t.ndim, t.size, t.itemsize, t.nbytes) == ((2, 3, 4), 3, 24, 4, 96)
    assert len(t) == 2


def test_asnumpy_is_a_copy():
    a = np.ones(3, np.float32)
    t = Tensor(a)
    a[0] = 5
    t.asnumpy()[1] = 7
    assert t.asnumpy().tolist() == [1, 1, 1]


@pytest.mark.parametrize(("tensor", "text"), [
    (Tensor(2.0), "Tensor(shape=[], dtype=Float32, value= 2)"),
    (Tensor(2.5), "Tensor(shape=[], dtype=Float32, value= 2.5)"),
    (Tensor(np.int32(7)), "Tensor(shape=[], dtype=Int32, value= 7)"),
    (Tensor(True), "Tensor(shape=[], dtype=Bool, value= True)"),
    (Tensor(np.array([1, 2, 3], np.int32)), "Tensor(shape=[3], dtype=Int32, value= [1, 2, 3])"),
    (Tensor(np.array([1.0, -2.0], np.float32)),
     "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00, -2.00000000e+00])"),
    (Tensor(np.array([[1, 2], [3, 4]], np.float32)),
     "Tensor(shape=[2, 2], dtype=Float32, value=\n"
     "[[ 1.00000000e+00,  2.00000000e+00],\n"
     " [ 3.00000000e+00,  4.00000000e+00]])"),
])
def test_repr_as_mindspore_prints_it(tensor, text):
    assert repr(tensor) == text


def test_str_is_the_numpy_print():
    assert str(Tensor(np.array([[1, 2], [3, 4]], np.int32))) == "[[1 2]\n [3 4]]"
    assert str(Tensor(2.0)) == "2.0"


def test_bad_data_and_dtype_are_rejected():
    with pytest.raises(TypeError, match="numbers or booleans"):
        Tensor(["a", "b"])
    with pytest.raises(TypeError, match="ember dtype"):
        Tensor([1, 2], "float32")
    with pytest.raises(TypeError, match="no dtype for NumPy dtype"):
        Tensor(np.zeros(2, np.complex64))
    with pytest.raises(TypeError, match="needs input_data"):
        Tensor()


def test_item_and_truth():
    assert Tensor(3.5).item() == 3.5 and float(Tensor(3.5)) == 3.5 and int(Tensor(3)) == 3
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor([1, 2]))


def test_dtype_objects():
    assert str(ember.float32) == "Float32" and repr(ember.uint8) == "UInt8"
    assert ember.dtype.float32 is ember.float32
    assert copy.deepcopy(ember.float16) is ember.float16
    assert ember.dtype.pytype_to_dtype(float) is ember.float64
    assert ember.dtype.dtype_to_nptype(ember.int8) is np.int8


def test_parameter():
    p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
    assert repr(p) == "Parameter (name=w, shape=(2, 2), dtype=Float32, requires_grad=True)"
    assert isinstance(p, Tensor) and p.requires_grad
    # the attributes 1.6's programming guide prints
    assert (p.sliced, p.is_init, p.inited_param, p.layerwise_parallel) == (False, False, None,
                                                                           False)
    p.set_data(Tensor(np.full((2, 2), 3.0, np.float32)))
    assert p.asnumpy().tolist() == [[3, 3], [3, 3]]
    with pytest.raises(ValueError, match="shape \\[3\\].*shape \\[2, 2\\]"):
        p.set_data(Tensor(np.ones(3, np.float32)))
    p.requires_grad = False
    assert not p.requires_grad
    frozen = Parameter(1.0, name="b", requires_grad=False)
    assert frozen.shape == () and not frozen.requires_grad


def test_parameter_tuple():
    a, b = Parameter(1.0, name="a"), Parameter(2.0, name="b")
    params = ParameterTuple([a, b])
    assert params == (a, b)
    moments = params.clone("moments", init="zeros")
    assert [m.name for m in moments] == ["moments.a", "moments.b"]
    assert moments[1].asnumpy() == 0
    with pytest.raises(TypeError, match="only Parameters"):
        ParameterTuple([a, Tensor(1.0)])


def test_set_seed_makes_initializers_reproducible():
    from ember.common import seed

    ember.set_seed(5)
    first = seed.generator().standard_normal(3)
    ember.set_seed(5)
    assert np.array_equal(first, seed.generator().standard_normal(3))
    assert ember.get_seed() == 5
    with pytest.raises(ValueError, match="non-negative int"):
        ember.set_seed(-1)


def test_operators_and_methods_match_numpy():
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    b = np.array([2.0, 4.0, 8.0], np.float32)
    x, y = Tensor(a), Tensor(b)
    cases = {
        "x + y": (x + y, a + b), "2 + x": (2 + x, 2 + a), "x - 1": (x - 1, a - 1),
        "1 - x": (1 - x, 1 - a), "x * y": (x * y, a * b), "x / y": (x / y, a / b),
        "1 / x": (1 / x, 1 / a), "x ** 2": (x ** 2, a ** 2), "-x": (-x, -a),
        "abs(-x)": (abs(-x), a), "x @ x.T": (x @ x.T, a @ a.T),
        "x.sum()": (x.sum(), a.sum()), "x.mean(axis=1)": (x.mean(axis=1), a.mean(axis=1)),
        "x.max(0, True)": (x.max(0, True), a.max(0, keepdims=True)),
        "x.reshape(3, 2)": (x.reshape(3, 2), a.reshape(3, 2)),
        "x.transpose()": (x.transpose(), a.T), "x.flatten()": (x.flatten(), a.ravel()),
        "x.flatten('F')": (x.flatten("F"), a.ravel("F")),
        "x.view(3, 2)": (x.view(3, 2), a.reshape(3, 2)),
        "x.view((6,))": (x.view((6,)), a.reshape(6)),
        "x.expand_dims(0)": (x.expand_dims(0), a[None]),
        "x[1, ::-1]": (x[1, ::-1], a[1, ::-1]), "x[:, [0, 2]]": (x[:, [0, 2]], a[:, [0, 2]]),
        "x.argmax(1)": (x.argmax(1), a.argmax(1)),
    }
    for text, (got, want) in cases.items():
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, err_msg=text)
    assert x.astype(ember.int32).dtype is ember.int32
    assert (x > 2).dtype is ember.bool_
    np.testing.assert_array_equal((x >= y).asnumpy(), a >= b)
    np.testing.assert_array_equal((x == x).asnumpy(), np.ones((2, 3), bool))
    np.testing.assert_array_equal((~(x < 3)).asnumpy(), ~(a < 3))


def test_flatten_order_and_view_shape_are_checked_as_mindspore():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="The order variable should be a string"):
        x.flatten(order=123)
    with pytest.raises(ValueError, match="only `C` and `F` are supported as order, but got X"):
        x.flatten(order="X")
    with pytest.raises(ValueError, match="The shape variable should not be empty"):
        x.view()
    with pytest.raises(ValueError, match="Only one tuple is needed"):
        x.view((2, 3), (3, 2))


def test_mixed_dtypes_promote_as_mindspore():
    i = Tensor(np.array([1, 2], np.int32))
    assert (i + 1).dtype is ember.int32
    assert (i + 1.5).dtype is ember.float32
    assert (i + Tensor(np.array([1.0, 2.0], np.float16))).dtype is ember.float16
    assert (Tensor(np.array([1], np.int8)) + Tensor(np.array([1], np.uint8))).dtype is ember.int16


def test_floor_division_and_modulo_follow_python_signs():
    a = np.array([7, -7, 5, -5], np.int32)
    b = np.array([2, 2, -3, -3], np.int32)
    x, y = Tensor(a), Tensor(b)
    for got, want in ((x % y, a % b), (x // y, a // b), (x % 3, a % 3), (10 % x, 10 % a),
                      (x // 2, a // 2), (10 // x, 10 // a)):
        assert got.dtype is ember.int32
        np.testing.assert_array_equal(got.asnumpy(), want)
    f = Tensor(np.array([7.5, -7.5], np.float32))
    np.testing.assert_allclose((f % 2).asnumpy(), np.array([7.5, -7.5], np.float32) % 2)
