"""Math primitives against NumPy oracles: values, dtypes, shapes, gradients and error paths."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gradcheck import check_grad

from ember import Tensor, ops
from ember.common import dtype as mstype

RNG = np.random.default_rng(0)
F64 = np.float64


def t(array, dtype=None):
    return Tensor(np.asarray(array, dtype=dtype))


def check(out, want, dtype, rtol=1e-6):
    """``out`` has ``dtype``, the shape of ``want`` and its values (NaN where it has NaN)."""
    assert out.dtype is dtype
    assert out.shape == np.shape(want)
    got = out.asnumpy()
    assert got.dtype == dtype.np_dtype
    if dtype in mstype.float_type:
        np.testing.assert_allclose(got.astype(F64), want, rtol=rtol, atol=1e-7)
    else:
        np.testing.assert_array_equal(got, want)


def sample(shape, dtype, low=0.5, high=2.0):
    if np.dtype(dtype).kind == "f":
        return RNG.uniform(low, high, shape).astype(dtype)
    return RNG.integers(int(low), int(high) + 1, shape).astype(dtype)


# -- binary arithmetic ----------------------------------------------------------------------
def _int_or_float(fn):
    """An oracle computed in float64, truncated toward zero for integer results."""
    def oracle(x, y):
        out = fn(x.astype(F64), y.astype(F64))
        return np.trunc(out) if x.dtype.kind in "iu" else out
    return oracle


ARITH = [
    ("add", ops.add, np.add),
    ("sub", ops.sub, np.subtract),
    ("mul", ops.mul, np.multiply),
    ("div", ops.div, _int_or_float(np.divide)),
    ("real_div", ops.real_div, _int_or_float(np.divide)),
    ("pow", ops.pow, _int_or_float(np.power)),
    ("maximum", ops.maximum, np.maximum),
    ("minimum", ops.minimum, np.minimum),
]
SHAPES = [((3, 4), (3, 4)), ((2, 1, 4), (3, 1)), ((), (2, 3)), ((4,), ()), ((0, 3), (3,))]
DTYPES = [(np.float32, mstype.float32), (np.float64, mstype.float64), (np.int32, mstype.int32),
          (np.float16, mstype.float16)]


@pytest.mark.parametrize("name, op, oracle", ARITH, ids=[a[0] for a in ARITH])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("np_dtype, dtype", DTYPES, ids=lambda d: str(d))
def test_arith_forward(name, op, oracle, shapes, np_dtype, dtype):
    x = sample(shapes[0], np_dtype, 1, 5)
    y = sample(shapes[1], np_dtype, 1, 3)
    want = oracle(x, y).astype(np_dtype).astype(F64)
    check(op(Tensor(x), Tensor(y)), want, dtype, rtol=1e-3 if np_dtype == np.float16 else 1e-6)


def test_int_div_truncates_and_saturates_on_zero():
    x = t([7, -7, 7, -7, 6, 0, 5, -5], np.int32)
    y = t([2, 2, -2, -2, 3, 0, 0, 0], np.int32)
    big, small = np.iinfo(np.int32).max, np.iinfo(np.int32).min
    for op in (ops.div, ops.real_div):
        check(op(x, y), [3, -3, -3, 3, 2, 0, big, small], mstype.int32)
    check(ops.div(t([9, 0], np.uint8), t([0, 0], np.uint8)), [255, 0], mstype.uint8)
    huge = np.array([2**64 - 7, 2**64 - 1, 5], np.uint64)  # exact, not through float64
    quotient = ops.div(Tensor(huge), Tensor(np.array([2, 0, 0], np.uint64))).asnumpy()
    assert quotient.dtype == np.uint64
    assert quotient.tolist() == [2**63 - 4, 2**64 - 1, 2**64 - 1]


def test_float_div_by_zero_is_inf_and_nan_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = ops.div(t([1, -1, 0], np.float32), t([0, 0, 0], np.float32))
    check(out, [np.inf, -np.inf, np.nan], mstype.float32)


def test_int_pow_goes_through_double_precision():
    check(ops.pow(t([2, 3, -2, 0], np.int32), t([-1, 2, 3, 0], np.int32)), [0, 9, -8, 1],
          mstype.int32)


def test_maximum_minimum_propagate_nan():
    x, y = t([np.nan, 1, 2], np.float32), t([0, np.nan, 3], np.float32)
    check(ops.maximum(x, y), [np.nan, np.nan, 3], mstype.float32)
    check(ops.minimum(x, y), [np.nan, np.nan, 2], mstype.float32)


def test_bool_add_and_mul_are_or_and_and():
    x, y = t([True, True, False]), t([True, False, False])
    check(ops.add(x, y), [True, True, False], mstype.bool_)
    check(ops.mul(x, y), [True, False, False], mstype.bool_)


PROMOTIONS = [
    ("int32+float16", t([1, 2], np.int32), t([0.5, 0.5], np.float16), [1.5, 2.5], mstype.float16),
    ("int8+uint8", t([-1, 2], np.int8), t([200, 1], np.uint8), [199, 3], mstype.int16),
    ("bool+int64", t([True, False]), t([1, 1], np.int64), [2, 1], mstype.int64),
    ("int32+float", t([1, 2], np.int32), 2.5, [3.5, 4.5], mstype.float32),
    ("int64+float", t([1, 2], np.int64), 0.5, [1.5, 2.5], mstype.float32),
    ("bool+int", t([True, False]), 1, [2, 1], mstype.int64),  # a Python int is Int64 in MindSpore
    ("bool+bool", t([True, False]), True, [True, True], mstype.bool_),
    ("float16+int", t([1, 2], np.float16), 3, [4, 5], mstype.float16),
    ("float64+float", t([1, 2], np.float64), 0.25, [1.25, 2.25], mstype.float64),
    ("int+int8", 3, t([1, 2], np.int8), [4, 5], mstype.int8),
    ("numpy scalar", t([1, 2], np.float32), np.float64(0.5), [1.5, 2.5], mstype.float32),
    ("numpy array", t([1, 2], np.float32), np.array([1, 2], np.float64), [2, 4], mstype.float64),
]


@pytest.mark.parametrize("name, x, y, want, dtype", PROMOTIONS, ids=[p[0] for p in PROMOTIONS])
def test_add_promotes_dtypes_and_scalars(name, x, y, want, dtype):
    check(ops.add(x, y), want, dtype)


def test_scalar_first_operand_keeps_its_position():
    check(ops.sub(3.0, t([1, 2], np.int32)), [2, 1], mstype.float32)
    check(ops.div(1, t([2.0, 4.0], np.float32)), [0.5, 0.25], mstype.float32)
    check(ops.pow(2, t([3, 4], np.int32)), [8, 16], mstype.int32)


# -- comparisons and logic ------------------------------------------------------------------
COMPARE = [
    (ops.equal, np.equal), (ops.not_equal, np.not_equal), (ops.greater, np.greater),
    (ops.greater_equal, np.greater_equal), (ops.less, np.less), (ops.less_equal, np.less_equal),
]


@pytest.mark.parametrize("op, oracle", COMPARE, ids=lambda c: getattr(c, "name", ""))
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("np_dtype", [np.float32, np.int32, np.uint8])
def test_comparisons_give_bool(op, oracle, shapes, np_dtype):
    x, y = sample(shapes[0], np_dtype, 0, 3), sample(shapes[1], np_dtype, 0, 3)
    check(op(Tensor(x), Tensor(y)), oracle(x.astype(F64), y.astype(F64)), mstype.bool_)


def test_comparisons_with_scalars_and_nan():
    x = t([0.5, 1.0, np.nan], np.float32)
    check(ops.greater(x, 0), [True, True, False], mstype.bool_)
    check(ops.equal(x, x), [True, True, False], mstype.bool_)
    check(ops.not_equal(x, x), [False, False, True], mstype.bool_)
    check(ops.less(t([1, 2], np.int32), 1.5), [True, False], mstype.bool_)
    check(ops.equal(t([True, False]), t([True, True])), [True, False], mstype.bool_)


@pytest.mark.parametrize("op, oracle", [(ops.logical_and, np.logical_and),
                                        (ops.logical_or, np.logical_or)])
def test_logical_binary(op, oracle):
    x = np.array([[True, False], [True, True]])
    y = np.array([True, False])
    check(op(Tensor(x), Tensor(y)), oracle(x, y), mstype.bool_)
    check(op(Tensor(x), False), oracle(x, False), mstype.bool_)


def test_logical_not_and_select():
    cond = np.array([[True, False, True]])
    check(ops.logical_not(Tensor(cond)), ~cond, mstype.bool_)
    x, y = np.arange(3, dtype=np.int32)[None], -np.arange(3, dtype=np.int32)[None]
    check(ops.select(Tensor(cond), Tensor(x), Tensor(y)), np.where(cond, x, y), mstype.int32)
    empty = np.zeros((0, 2), bool)
    check(ops.select(Tensor(empty), t(np.zeros((0, 2)), np.float32),
                     t(np.zeros((0, 2)), np.float32)), np.zeros((0, 2)), mstype.float32)


def test_functional_select_takes_one_number():
    # MindSpore 1.6's ops.select docstring: [True, False] between [2, 3] and 2.0 gives [2, 2]
    cond, x = Tensor(np.array([True, False])), t(np.array([2, 3]), np.float32)
    check(ops.select(cond, x, 2.0), np.array([2, 2]), mstype.float32)
    check(ops.select(cond, 7, t(np.array([1, 2]), np.int32)), np.array([7, 2]), mstype.int32)
    with pytest.raises(TypeError, match="y is int, so x must be a Tensor of Int32"):
        ops.select(cond, x, 2)
    with pytest.raises(TypeError, match="x is a number, so y must be a Tensor, but got float"):
        ops.select(cond, 1.0, 2.0)
    with pytest.raises(ValueError, match=r"x must have cond's shape \[2\], but got \[1\]"):
        ops.select(cond, t(np.array([1.0]), np.float32), 2.0)


# -- unary ----------------------------------------------------------------------------------
UNARY = [
    ("neg", ops.neg, np.negative, (np.float32, np.int32, np.int8)),
    ("square", ops.square, np.square, (np.float32, np.int32, np.float64)),
    ("abs", ops.abs, np.abs, (np.float32, np.int32, np.int8)),
    ("sign", ops.sign, np.sign, (np.float32, np.int32)),
    ("exp", ops.exp, np.exp, (np.float32, np.float64, np.float16)),
    ("log", ops.log, np.log, (np.float32, np.float64, np.float16)),
    ("sqrt", ops.sqrt, np.sqrt, (np.float32, np.float64, np.float16)),
    ("rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x), (np.float32, np.float64)),
    ("reciprocal", ops.reciprocal, lambda x: 1 / x, (np.float32, np.float64)),
]


@pytest.mark.parametrize("name, op, oracle, dtypes", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("shape", [(2, 3), (), (0,)], ids=str)
def test_unary_forward(name, op, oracle, dtypes, shape):
    signed = name in ("neg", "abs", "sign", "square")
    for np_dtype in dtypes:
        x = sample(shape, np_dtype, -5 if signed else 1, 5)
        want = oracle(x.astype(F64)).astype(np_dtype).astype(F64)
        check(op(Tensor(x)), want, mstype.from_numpy(np_dtype),
              rtol=1e-3 if np_dtype == np.float16 else 1e-6)


def test_unary_special_values_without_warnings():
    x = t([0, -1, np.inf], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check(ops.log(x), [-np.inf, np.nan, np.inf], mstype.float32)
        check(ops.sqrt(x), [0, np.nan, np.inf], mstype.float32)
        check(ops.rsqrt(x), [np.inf, np.nan, 0], mstype.float32)
        check(ops.reciprocal(x), [np.inf, -1, 0], mstype.float32)
        check(ops.exp(t([1000, -np.inf], np.float32)), [np.inf, 0], mstype.float32)


@pytest.mark.parametrize("np_dtype", [np.float16, np.int8, np.bool_])
def test_zeros_like_ones_like(np_dtype):
    x = Tensor(np.zeros((2, 0, 3), np_dtype))
    dtype = mstype.from_numpy(np_dtype)
    check(ops.zeros_like(x), np.zeros((2, 0, 3)), dtype)
    check(ops.ones_like(Tensor(np.zeros((2, 3), np_dtype))), np.ones((2, 3)), dtype)


# -- casts, fills, sums of lists --------------------------------------------------------------
def test_cast():
    check(ops.cast(t([1.7, -1.7], np.float32), mstype.int32), [1, -1], mstype.int32)
    check(ops.cast(t([0, 2], np.int32), mstype.bool_), [False, True], mstype.bool_)
    check(ops.cast(2.5, mstype.float16), 2.5, mstype.float16)
    check(ops.cast(True, mstype.int8), 1, mstype.int8)


@pytest.mark.parametrize("dtype, shape, value", [
    (mstype.float32, (2, 3), 1.5), (mstype.int32, (4,), 7), (mstype.bool_, (2, 2), True),
    (mstype.float16, (), -2), (mstype.int8, (0, 3), 1), (mstype.int32, [2], 2.9),
])
def test_fill(dtype, shape, value):
    check(ops.fill(dtype, shape, value), np.full(tuple(shape), value, dtype.np_dtype), dtype)


def test_addn():
    xs = [sample((2, 3), np.float32) for _ in range(3)]
    check(ops.addn(tuple(map(Tensor, xs))), xs[0].astype(F64) + xs[1] + xs[2], mstype.float32)
    check(ops.AddN()([t([1, 2], np.int8)]), [1, 2], mstype.int8)


# -- reductions -----------------------------------------------------------------------------
def _mean_oracle(x, axis=None, keepdims=False):
    out = np.mean(x.astype(F64), axis=axis, keepdims=keepdims)
    return np.trunc(out) if x.dtype.kind in "iu" else out


REDUCE = [(ops.ReduceSum, np.sum), (ops.ReduceMean, _mean_oracle), (ops.ReduceMax, np.max),
          (ops.ReduceMin, np.min)]
AXES = [(), 0, -1, (0, 2), [1], []]


@pytest.mark.parametrize("prim, oracle", REDUCE, ids=lambda r: getattr(r, "__name__", ""))
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keep_dims", [False, True])
@pytest.mark.parametrize("np_dtype", [np.float32, np.int32])
def test_reduce_forward(prim, oracle, axis, keep_dims, np_dtype):
    x = sample((2, 3, 4), np_dtype, -9, 9)
    np_axis = None if axis in ((), []) else tuple(axis) if isinstance(axis, list) else axis
    want = oracle(x.astype(F64) if np_dtype == np.float32 else x, axis=np_axis, keepdims=keep_dims)
    check(prim(keep_dims)(Tensor(x), axis), np.asarray(want), mstype.from_numpy(np_dtype))


def test_reduce_defaults_edges_and_dtypes():
    x = t([[1, 2], [3, 4]], np.float32)
    check(ops.reduce_sum(x), 10, mstype.float32)
    check(ops.ReduceMean(keep_dims=True)(x), [[2.5]], mstype.float32)
    check(ops.reduce_max(t(3.0, np.float32)), 3.0, mstype.float32)
    check(ops.reduce_sum(t(3.0, np.float32), 0), 3.0, mstype.float32)
    check(ops.reduce_sum(t([100, 100], np.int8)), -56, mstype.int8)
    check(ops.reduce_mean(t([1, 2], np.float16)), 1.5, mstype.float16)
    check(ops.reduce_max(t([True, False])), True, mstype.bool_)
    empty = Tensor(np.zeros((0, 3), np.float32))
    check(ops.reduce_sum(empty, 0), np.zeros(3), mstype.float32)
    check(ops.reduce_mean(Tensor(np.zeros((2, 0), np.float32)), 1), [np.nan, np.nan],
          mstype.float32)
    check(ops.reduce_max(empty, 1), np.zeros(0), mstype.float32)


def test_argmax_and_argmax_with_value():
    x = np.array([[1, 9, 9], [7, 2, 5]], np.float32)
    check(ops.argmax(Tensor(x)), [1, 0], mstype.int32)
    check(ops.Argmax(axis=0, output_type=mstype.int64)(Tensor(x)), [1, 0, 0], mstype.int64)
    assert ops.ArgMax is ops.Argmax
    index, value = ops.argmax_with_value(Tensor(x))
    check(index, [1, 0, 0], mstype.int32)
    check(value, [7, 9, 9], mstype.float32)
    index, value = ops.ArgMaxWithValue(axis=-1, keep_dims=True)(t(x, np.int32))
    check(index, [[1], [0]], mstype.int32)
    check(value, [[9], [7]], mstype.int32)


# -- matrix products ------------------------------------------------------------------------
def _oracle_matmul(x, y, ta, tb):
    x, y = x.astype(F64), y.astype(F64)
    return (np.swapaxes(x, -1, -2) if ta else x) @ (np.swapaxes(y, -1, -2) if tb else y)


TRANSPOSES = [(False, False), (True, False), (False, True), (True, True)]


@pytest.mark.parametrize("ta, tb", TRANSPOSES)
def test_matmul(ta, tb):
    x = sample((4, 3) if ta else (3, 4), np.float32)
    y = sample((5, 4) if tb else (4, 5), np.float32)
    check(ops.MatMul(ta, tb)(Tensor(x), Tensor(y)), _oracle_matmul(x, y, ta, tb), mstype.float32,
          rtol=1e-5)


@pytest.mark.parametrize("ta, tb", TRANSPOSES)
@pytest.mark.parametrize("xb, yb", [((2,), (2,)), ((2, 1), (1, 3)), ((1,), (4,))], ids=str)
def test_batch_matmul_broadcasts_batches(ta, tb, xb, yb):
    x = sample((*xb, 4, 3) if ta else (*xb, 3, 4), np.float32)
    y = sample((*yb, 5, 4) if tb else (*yb, 4, 5), np.float32)
    check(ops.BatchMatMul(ta, tb)(Tensor(x), Tensor(y)), _oracle_matmul(x, y, ta, tb),
          mstype.float32, rtol=1e-5)


def test_matmul_ints_and_empty_inner_dimension():
    x, y = np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(12, dtype=np.int32).reshape(3, 4)
    check(ops.matmul(Tensor(x), Tensor(y)), x @ y, mstype.int32)
    check(ops.matmul(t(np.zeros((2, 0)), np.float32), t(np.zeros((0, 3)), np.float32)),
          np.zeros((2, 3)), mstype.float32)
    check(ops.batch_matmul(t(np.ones((0, 2, 3)), np.float32), t(np.ones((1, 3, 1)), np.float32)),
          np.zeros((0, 2, 1)), mstype.float32)


# -- gradients ------------------------------------------------------------------------------
def f64(shape, low=0.5, high=2.0):
    return Tensor(RNG.uniform(low, high, shape))


GRAD_SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2,))]


@pytest.mark.parametrize("name, op, oracle", ARITH, ids=[a[0] for a in ARITH])
@pytest.mark.parametrize("shapes", GRAD_SHAPES, ids=str)
def test_arith_gradients(name, op, oracle, shapes):
    check_grad(op, f64(shapes[0]), f64(shapes[1], 2.5, 4))


UNARY_GRAD = [(ops.neg, -2, 2), (ops.square, -2, 2), (ops.abs, 0.5, 2), (ops.abs, -2, -0.5),
              (ops.sign, 0.5, 2), (ops.exp, -2, 2), (ops.log, 0.5, 3), (ops.sqrt, 0.5, 3),
              (ops.rsqrt, 0.5, 3), (ops.reciprocal, 0.5, 3), (ops.zeros_like, -1, 1),
              (ops.ones_like, -1, 1)]


@pytest.mark.parametrize("op, low, high", UNARY_GRAD, ids=lambda u: getattr(u, "name", str(u)))
def test_unary_gradients(op, low, high):
    check_grad(op, f64((2, 3), low, high))


@pytest.mark.parametrize("prim", [ops.ReduceSum, ops.ReduceMean, ops.ReduceMax, ops.ReduceMin],
                         ids=lambda p: p.__name__)
@pytest.mark.parametrize("axis", [(), 1, (0, 2), -1])
@pytest.mark.parametrize("keep_dims", [False, True])
def test_reduce_gradients(prim, axis, keep_dims):
    check_grad(lambda x: prim(keep_dims)(x, axis), f64((2, 3, 2)))


def test_extreme_gradients_split_among_ties_and_maximum_gives_ties_to_y():
    x = t([[1, 3, 3], [2, 0, 1]], np.float32)
    grad = ops.GradOperation()(lambda x: ops.reduce_max(x, 1))
    np.testing.assert_allclose(grad(x).asnumpy(), [[0, 0.5, 0.5], [1, 0, 0]])
    grad = ops.GradOperation()(lambda x: ops.ReduceMin()(x))
    np.testing.assert_allclose(grad(x).asnumpy(), [[0, 0, 0], [0, 1, 0]])
    x, y = t([1, 2, 0], np.float32), t([1, 1, 1], np.float32)
    grads = ops.GradOperation(get_all=True)(ops.maximum)(x, y)
    np.testing.assert_allclose([g.asnumpy() for g in grads], [[0, 1, 0], [1, 0, 1]])
    grads = ops.GradOperation(get_all=True)(ops.minimum)(x, y)
    np.testing.assert_allclose([g.asnumpy() for g in grads], [[0, 0, 1], [1, 1, 0]])


def test_select_and_argmax_with_value_gradients():
    cond = t([[True, False, True], [False, False, True]])
    check_grad(lambda x, y: ops.select(cond, x, y), f64((2, 3)), f64((2, 3)))
    check_grad(lambda x: ops.ArgMaxWithValue(axis=1)(x)[1], f64((3, 4)))
    check_grad(lambda x: ops.ArgMaxWithValue(axis=0, keep_dims=True)(x)[1], f64((3, 4)))


@pytest.mark.parametrize("ta, tb", TRANSPOSES)
def test_matmul_gradients(ta, tb):
    k = 3 if ta else 2
    y_shape = (4, k) if tb else (k, 4)
    check_grad(ops.MatMul(ta, tb), f64((3, 2)), f64(y_shape))
    check_grad(ops.BatchMatMul(ta, tb), f64((2, 1, 3, 2)), f64((1, 2, *y_shape)))


def test_addn_and_cast_gradients():
    check_grad(lambda x, y: ops.addn([x, y, x]), f64((2, 2)), f64((2, 2)))
    grad = ops.GradOperation()(lambda x: ops.cast(x, mstype.float64))
    g = grad(t([1, 2], np.float32))
    assert g.dtype is mstype.float32
    np.testing.assert_allclose(g.asnumpy(), [1, 1])


def test_non_differentiable_ops_pass_zero_gradients():
    def fn(x, y):
        mask = ops.logical_and(ops.greater(x, y), ops.logical_not(ops.equal(x, y)))
        picked = ops.cast(ops.argmax(x), mstype.float32)
        return ops.add(ops.mul(ops.cast(mask, mstype.float32), x), picked)

    grads = ops.GradOperation(get_all=True)(fn)(t([1, 5, 3], np.float32), t([2, 2, 2], np.float32))
    np.testing.assert_allclose([g.asnumpy() for g in grads], [[0, 1, 1], [0, 0, 0]])
    grad = ops.GradOperation()(lambda x: ops.mul(ops.sign(x), x))
    np.testing.assert_allclose(grad(t([-2, 3], np.float32)).asnumpy(), [-1, 1])


SECOND = [
    ("pow", lambda x: ops.pow(x, 3), lambda x: 6 * x),
    ("exp", ops.exp, np.exp),
    ("log", ops.log, lambda x: -1 / x**2),
    ("sqrt", ops.sqrt, lambda x: -0.25 * x**-1.5),
    ("rsqrt", ops.rsqrt, lambda x: 0.75 * x**-2.5),
    ("reciprocal", ops.reciprocal, lambda x: 2 / x**3),
    ("div", lambda x: ops.div(1, ops.mul(x, x)), lambda x: 6 / x**4),
    ("square", ops.square, lambda x: 2 + 0 * x),
]


@pytest.mark.parametrize("name, fn, oracle", SECOND, ids=[s[0] for s in SECOND])
def test_second_derivatives(name, fn, oracle):
    x = np.array([0.5, 1.5, 3.0])
    second = ops.GradOperation()(ops.GradOperation()(fn))(Tensor(x))
    np.testing.assert_allclose(second.asnumpy(), oracle(x), rtol=1e-10)


# -- errors ---------------------------------------------------------------------------------
ERRORS = [
    (lambda: ops.add(1, 2), TypeError, r"Add: at least one input must be a Tensor"),
    (lambda: ops.add(t([1.0]), "a"), TypeError, r"Add: the input beside a Tensor .* got str"),
    (lambda: ops.mul(t([1.0]), [1, 2]), TypeError, r"Mul: .* number .* got list"),
    (lambda: ops.add(t(np.ones((2, 3))), t(np.ones(4))), ValueError,
     r"Add: shapes \[2, 3\] and \[4\] cannot be broadcast"),
    (lambda: ops.sub(t([True]), t([False])), TypeError,
     r"Sub: inputs must have dtype in \[.*Float64\], but got \(Tensor\(shape=\[1\], dtype=Bool"),
    (lambda: ops.div(t([True]), t([True])), TypeError, r"Div: inputs must have dtype in"),
    (lambda: ops.greater(t(np.ones(2)), t(np.ones(3))), ValueError, r"Greater: shapes"),
    (lambda: ops.logical_and(t([1.0]), t([True])), TypeError,
     r"LogicalAnd: inputs must have dtype in \[Bool\], but got .*Float64"),
    (lambda: ops.logical_not(t([1], np.int32)), TypeError,
     r"LogicalNot: input 'x' must have dtype in \[Bool\], but got Int32"),
    (lambda: ops.exp(t([True])), TypeError,
     r"Exp: input 'x' must have dtype in \[.*Int32.*Float64\], but got Bool"),
    (lambda: ops.sqrt([1.0]), TypeError, r"Sqrt: input 'x' must be a Tensor, but got list"),
    (lambda: ops.neg(t([True])), TypeError, r"Neg: input 'x' must have dtype in .* got Bool"),
    (lambda: ops.select(t([1], np.int32), t([1.0]), t([2.0])), TypeError,
     r"Select: input 'cond' must have dtype in \[Bool\]"),
    (lambda: ops.select(t([True]), t([1.0]), t([2], np.int32)), TypeError,
     r"Select: inputs 'x' and 'y' must have the same dtype"),
    (lambda: ops.select(t([True, False]), t([1.0]), t([2.0])), ValueError,
     r"Select: inputs 'cond', 'x' and 'y' must have the same shape, but got \(Tensor\(shape=\[2\]"),
    (lambda: ops.ReduceSum(keep_dims=1), TypeError, r"ReduceSum: keep_dims must be a bool"),
    (lambda: ops.reduce_sum(t(np.ones((2, 3))), 2), ValueError,
     r"ReduceSum: axis 2 is out of range \[-2, 2\)"),
    (lambda: ops.reduce_mean(t(np.ones((2, 3))), 1.0), TypeError,
     r"ReduceMean: axis must be an int or a tuple of ints"),
    (lambda: ops.reduce_sum(t([True])), TypeError, r"ReduceSum: input 'x' must have dtype in"),
    (lambda: ops.reduce_max(t(np.ones((2, 0))), 1), ValueError,
     r"ReduceMax: cannot reduce an empty axis .* no identity"),
    (lambda: ops.ReduceMin()(t(np.ones((0,)))), ValueError, r"ReduceMin: cannot reduce an empty"),
    (lambda: ops.Argmax(axis=1.0), TypeError, r"Argmax: axis must be an int, but got 1.0"),
    (lambda: ops.Argmax(output_type=mstype.float32), TypeError,
     r"Argmax: output_type must be ember.int32 or ember.int64, but got Float32"),
    (lambda: ops.argmax(t(1.0)), ValueError, r"Argmax: input 'x' must have rank >= 1"),
    (lambda: ops.Argmax(axis=2)(t(np.ones((2, 3)))), ValueError, r"Argmax: axis 2 is out of range"),
    (lambda: ops.argmax(t(np.ones((2, 0)))), ValueError, r"Argmax: axis -1 of .* is empty"),
    (lambda: ops.argmax(t([True])), TypeError, r"Argmax: input 'x' must have dtype in"),
    (lambda: ops.ArgMaxWithValue(keep_dims=None), TypeError,
     r"ArgMaxWithValue: keep_dims must be a bool"),
    (lambda: ops.MatMul(transpose_a=1), TypeError, r"MatMul: transpose_a must be a bool"),
    (lambda: ops.MatMul()(t(np.ones((2, 3, 4))), t(np.ones((4, 2)))), ValueError,
     r"MatMul: inputs must be 2-D, but got \(Tensor\(shape=\[2, 3, 4\]"),
    (lambda: ops.matmul(t(np.ones((2, 3))), t(np.ones((2, 3)))), ValueError,
     r"MatMul: the inner dimensions must be equal, but got 3 and 2"),
    (lambda: ops.MatMul()(t(np.ones((2, 3)), np.float32), t(np.ones((3, 2)))), TypeError,
     r"MatMul: inputs must have the same dtype, but got .*Float32.*Float64"),
    (lambda: ops.matmul(t([[True]]), t([[True]])), TypeError, r"MatMul: input 'x' must have"),
    (lambda: ops.batch_matmul(t(np.ones((2, 3))), t(np.ones((3, 2)))), ValueError,
     r"BatchMatMul: inputs must have the same rank, at least 3"),
    (lambda: ops.batch_matmul(t(np.ones((1, 2, 2, 3))), t(np.ones((2, 3, 2)))), ValueError,
     r"BatchMatMul: inputs must have the same rank"),
    (lambda: ops.batch_matmul(t(np.ones((2, 2, 3))), t(np.ones((3, 3, 2)))), ValueError,
     r"BatchMatMul: shapes \[2\] and \[3\] cannot be broadcast"),
    (lambda: ops.BatchMatMul(transpose_b=True)(t(np.ones((1, 2, 3))), t(np.ones((1, 3, 2)))),
     ValueError, r"BatchMatMul: the inner dimensions .* 3 and 2 .* transpose_b=True"),
    (lambda: ops.cast(t([1.0]), np.float32), TypeError, r"Cast: dtype must be an ember dtype"),
    (lambda: ops.cast("1", mstype.float32), TypeError, r"Cast: input 'x' must be a Tensor"),
    (lambda: ops.fill(np.float32, (2,), 1), TypeError, r"Fill: dtype must be an ember dtype"),
    (lambda: ops.fill(mstype.float32, (2, -1), 1), TypeError,
     r"Fill: shape must be a tuple of non-negative ints, but got \(2, -1\)"),
    (lambda: ops.fill(mstype.float32, (2,), "1"), TypeError, r"Fill: value must be a number"),
    (lambda: ops.addn([]), TypeError, r"AddN: inputs must be a non-empty tuple or list"),
    (lambda: ops.addn(t([1.0])), TypeError, r"AddN: inputs must be a non-empty tuple or list"),
    (lambda: ops.addn([t([1.0]), t([1.0, 2.0])]), ValueError,
     r"AddN: inputs must all have the same shape and dtype"),
    (lambda: ops.addn([t([1.0]), 1.0]), TypeError, r"AddN: input 'inputs\[1\]' must be a Tensor"),
]


@pytest.mark.parametrize("call, error, match", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- names ----------------------------------------------------------------------------------
def test_functional_names_follow_mindspore():
    pairs = [
        (ops.tensor_add, ops.Add), (ops.tensor_sub, ops.Sub), (ops.tensor_mul, ops.Mul),
        (ops.tensor_div, ops.RealDiv), (ops.div, ops.Div), (ops.tensor_pow, ops.Pow),
        (ops.pows, ops.Pow), (ops.tensor_exp, ops.Exp), (ops.neg_tensor, ops.Neg),
        (ops.tensor_gt, ops.Greater), (ops.tensor_ge, ops.GreaterEqual),
        (ops.tensor_lt, ops.Less), (ops.tensor_le, ops.LessEqual), (ops.absolute, ops.Abs),
        (ops.addn, ops.AddN), (ops.fill, ops.Fill),
(ops.reduce_mean, ops.ReduceMean),
        (ops.batch_matmul, ops.BatchMatMul), (ops.functional.matmul, ops.MatMul),
    ]
    for instance, prim in pairs:
        assert type(instance) is prim, (instance, prim)
    assert ops.tensor_add is ops.add and ops.pows is ops.pow and ops.absolute is ops.abs
    assert ops.reduce_sum.keep_dims is False
    assert (ops.argmax.axis, ops.argmax.output_type) == (-1, mstype.int32)
    assert (ops.argmax_with_value.axis, ops.argmax_with_value.keep_dims) == (0, False)


@pytest.mark.parametrize("np_dtype, float_type", [(np.int8, mstype.float16),
                                                  (np.uint8, mstype.float16),
                                                  (np.int16, mstype.float32),
                                                  (np.int32, mstype.float64),
                                                  (np.int64, mstype.float64)])
def test_exp_and_sqrt_of_integers_are_floats_as_numpy_computes_them(np_dtype, float_type):
    x = np.array([[1, 2], [4, 9]], np_dtype)
    values = x.astype(np.float64)
    for prim, fn in ((ops.Exp(), np.exp), (ops.Sqrt(), np.sqrt)):
        out = prim(Tensor(x))
        assert out.dtype is float_type
        np.testing.assert_allclose(out.asnumpy(), fn(values), rtol=1e-3)
    assert ops.Sqrt()(Tensor(np.int64([4, 9]))).asnumpy().tolist() == [2.0, 3.0]
