"""Neural-network primitives against NumPy oracles: values, dtypes, shapes, gradients, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gradcheck import check_grad

from ember import Tensor, ops
from ember.common import dtype as mstype
from ember.common import seed
from ember.ops import operations as P
from ember.ops.operations import nn_ops, norm_ops

RNG = np.random.default_rng(0)
F64 = np.float64


def t(array, dtype=None):
    return Tensor(np.asarray(array, dtype=dtype))


def randn(*shape, dtype=F64):
    return Tensor(RNG.standard_normal(shape).astype(dtype))


def check(out, want, dtype, rtol=1e-6, atol=1e-7):
    """``out`` has ``dtype``, the shape of ``want`` and its values (NaN where it has NaN)."""
    assert out.dtype is dtype
    assert out.shape == np.shape(want)
    got = out.asnumpy()
    assert got.dtype == dtype.np_dtype
    np.testing.assert_allclose(got.astype(F64), want, rtol=rtol, atol=atol)


TOL = {np.float16: 3e-3, np.float32: 1e-5, np.float64: 1e-12}
FLOATS = [(np.float16, mstype.float16), (np.float32, mstype.float32),
          (np.float64, mstype.float64)]


# -- activations ----------------------------------------------------------------------------
def _gelu(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


ACTIVATIONS = [
    ("relu", P.ReLU(), lambda x: np.where((x > 0) | np.isnan(x), x, 0.0)),
    ("relu6", P.ReLU6(), lambda x: np.minimum(np.maximum(x, 0.0), 6.0)),
    ("sigmoid", P.Sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
    ("tanh", P.Tanh(), np.tanh),
    ("gelu", P.GeLU(), _gelu),
]


@pytest.mark.parametrize("name, op, oracle", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
@pytest.mark.parametrize("shape", [(), (0, 3), (2, 3, 4)], ids=str)
@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
def test_activation_forward(name, op, oracle, shape, np_dtype, dtype):
    x = (RNG.standard_normal(shape) * 4).astype(np_dtype)
    check(op(Tensor(x)), oracle(x.astype(F64)), dtype, rtol=TOL[np_dtype],
          atol=TOL[np_dtype])


@pytest.mark.parametrize("name, op, oracle", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_extremes(name, op, oracle):
    x = np.array([np.inf, -np.inf, np.nan, 1e4, -1e4, 0.0], np.float32)
    with np.errstate(all="ignore"):
        want = oracle(x.astype(F64))
    with np.errstate(invalid="ignore"):  # gelu(-inf) is -inf * 0: NaN, as the formula says
        check(op(Tensor(x)), want, mstype.float32)


@pytest.mark.parametrize("name, op, oracle", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_grad(name, op, oracle):
    x = RNG.uniform(0.2, 2.0, (3, 4)) * RNG.choice([-1, 1], (3, 4))
    x[0, :2] = [5.0, 7.0]  # both sides of ReLU6's upper kink
    check_grad(op, Tensor(x))


def test_relu_accepts_integers_and_its_functional_forms():
    check(P.ReLU()(t([-3, 0, 4], np.int32)), [0, 0, 4], mstype.int32)
    check(P.ReLU()(t([0, 200], np.uint8)), [0, 200], mstype.uint8)
    for fn, op in [(ops.relu, P.ReLU), (ops.relu6, P.ReLU6), (ops.sigmoid, P.Sigmoid),
                   (ops.tanh, P.Tanh), (ops.gelu, P.GeLU),
                   (ops.bias_add, P.BiasAdd)]:
        assert type(fn) is op


def test_gelu_grad_of_large_half_precision_inputs():
    x = t([-300.0, -20.0, 20.0, 300.0], np.float16)
    dx = nn_ops.GeLUGrad()(t(np.ones(4), np.float16), x, ops.gelu(x))
    check(dx, [0, 0, 1, 1], mstype.float16)


GRAD_PRIMS = [
    ("ReluGrad", nn_ops.ReluGrad(), 2),
    ("ReLU6Grad", nn_ops.ReLU6Grad(), 2),
    ("SigmoidGrad", nn_ops.SigmoidGrad(), 2),
    ("TanhGrad", nn_ops.TanhGrad(), 2),
    ("DropoutGrad", nn_ops.DropoutGrad(0.8), 2),
]


@pytest.mark.parametrize("name, op, arity", GRAD_PRIMS, ids=[g[0] for g in GRAD_PRIMS])
def test_activation_grad_primitives_are_differentiable(name, op, arity):
    args = [RNG.uniform(0.2, 0.9, (2, 3)) * RNG.choice([-1, 1], (2, 3)) for _ in range(arity)]
    check_grad(op, *map(Tensor, args))


# -- softmax --------------------------------------------------------------------------------
def _softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [-1, 0, (0, 2), (1,)], ids=str)
@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
def test_softmax_and_log_softmax(axis, np_dtype, dtype):
    x = (RNG.standard_normal((2, 3, 4)) * 3).astype(np_dtype)
    want = _softmax(x.astype(F64), axis)
    check(P.Softmax(axis)(Tensor(x)), want, dtype, rtol=TOL[np_dtype], atol=TOL[np_dtype])
    assert P.Softmax(axis).axis == (axis if isinstance(axis, tuple) else (axis,))
    if isinstance(axis, int):
        check(P.LogSoftmax(axis)(Tensor(x)), np.log(want), dtype, rtol=TOL[np_dtype],
              atol=3 * TOL[np_dtype])


def test_softmax_edges():
    big = np.array([[1000.0, 0.0, -1000.0], [np.nan, 1.0, 2.0]], np.float32)
    with np.errstate(all="ignore"):
        check(ops.softmax(Tensor(big)), [[1, 0, 0], [np.nan] * 3], mstype.float32)
        check(ops.log_softmax(Tensor(big)), [[0, -1000, -2000], [np.nan] * 3], mstype.float32)
    check(ops.softmax(Tensor(np.zeros((0, 3), np.float32))), np.zeros((0, 3)), mstype.float32)
    check(ops.log_softmax(Tensor(np.zeros((2, 0)))), np.zeros((2, 0)), mstype.float64)


@pytest.mark.parametrize("op", [P.Softmax(), P.Softmax((0, 1)), P.Softmax(0), P.LogSoftmax(),
                                P.LogSoftmax(0)], ids=repr)
def test_softmax_grad(op):
    check_grad(op, randn(3, 4))


# -- bias -----------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt, shape", [("NCHW", (2, 3, 4, 5)), ("NCHW", (2, 3)),
                                        ("NHWC", (2, 4, 5, 3)), ("NCDHW", (2, 3, 2, 2, 2))])
def test_bias_add(fmt, shape):
    x = RNG.standard_normal(shape)
    b = RNG.standard_normal(3)
    channel = -1 if fmt == "NHWC" else 1
    bias = b.reshape([3 if i == channel % len(shape) else 1 for i in range(len(shape))])
    check(P.BiasAdd(fmt)(Tensor(x), Tensor(b)), x + bias, mstype.float64)
    check_grad(P.BiasAdd(fmt), randn(*shape), randn(3))


def test_bias_add_integers_and_empty_batch():
    x = np.arange(12, dtype=np.int32).reshape(2, 3, 2)
    check(ops.bias_add(Tensor(x), t([1, 2, 3], np.int32)), x + [[1], [2], [3]],
          mstype.int32)
    check(ops.bias_add(Tensor(np.zeros((0, 3), np.float32)), t([1, 2, 3], np.float32)),
          np.zeros((0, 3)), mstype.float32)


# -- convolution ----------------------------------------------------------------------------
def _same_pads(size, k, s, d=1):
    out = -(-size // s)
    need = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
    return need // 2, need - need // 2


def _conv(x, w, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1), group=1):
    """Direct cross-correlation: one output pixel at a time."""
    x = np.pad(x.astype(F64), ((0, 0), (0, 0), pads[:2], pads[2:]))
    (n, _, h, wd), (o, cg, kh, kw) = x.shape, w.shape
    (sh, sw), (dh, dw) = stride, dilation
    ho, wo = (h - dh * (kh - 1) - 1) // sh + 1, (wd - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, ho, wo))
    for oc in range(o):
        g = oc // (o // group)
        for p in range(ho):
            for q in range(wo):
                patch = x[:, g * cg:(g + 1) * cg, p * sh:p * sh + dh * (kh - 1) + 1:dh,
                          q * sw:q * sw + dw * (kw - 1) + 1:dw]
                out[:, oc, p, q] = np.sum(patch * w[oc], axis=(1, 2, 3))
    return out


CONVS = [  # (x shape, weight shape, attributes, padding the oracle applies)
    ((2, 3, 7, 6), (4, 3, 3, 3), {}, (0, 0, 0, 0)),
    ((2, 3, 7, 6), (4, 3, 3, 2), {"pad_mode": "same", "stride": 2},
     _same_pads(7, 3, 2) + _same_pads(6, 2, 2)),
    ((1, 2, 8, 9), (2, 2, 3, 3), {"pad_mode": "same", "dilation": (2, 1)},
     _same_pads(8, 3, 1, 2) + _same_pads(9, 3, 1)),
    ((2, 4, 6, 5), (6, 2, 2, 3), {"pad_mode": "pad", "pad": (1, 0, 2, 1), "group": 2,
                                  "stride": (1, 1, 2, 1)}, (1, 0, 2, 1)),
    ((1, 1, 5, 5), (1, 1, 5, 5), {"pad_mode": "pad", "pad": 1, "stride": 3}, (1, 1, 1, 1)),
    ((0, 3, 5, 5), (2, 3, 3, 3), {"stride": 2}, (0, 0, 0, 0)),
]


def _conv_prim(cls, w_shape, attrs):
    return cls(w_shape[0], w_shape[2:], **attrs)


@pytest.mark.parametrize("x_shape, w_shape, attrs, pads", CONVS, ids=str)
@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
def test_conv2d_forward(x_shape, w_shape, attrs, pads, np_dtype, dtype):
    x = RNG.standard_normal(x_shape).astype(np_dtype)
    w = RNG.standard_normal(w_shape).astype(np_dtype)
    s, d = attrs.get("stride", 1), attrs.get("dilation", 1)
    want = _conv(x, w.astype(F64), (s, s) if isinstance(s, int) else s[-2:], pads,
                 (d, d) if isinstance(d, int) else d, attrs.get("group", 1))
    tol = 3e-2 if np_dtype == np.float16 else TOL[np_dtype] * 10
    check(_conv_prim(P.Conv2D, w_shape, attrs)(Tensor(x), Tensor(w)), want, dtype, tol, tol)


@pytest.mark.parametrize("x_shape, w_shape, attrs, pads", CONVS[:5], ids=str)
def test_conv2d_grads(x_shape, w_shape, attrs, pads):
    x, w = randn(*x_shape), randn(*w_shape)
    conv = _conv_prim(P.Conv2D, w_shape, attrs)
    check_grad(conv, x, w)
    dout = conv(x, w)
    bpi = _conv_prim(P.Conv2DBackpropInput, w_shape, attrs)
    bpf = _conv_prim(nn_ops.Conv2DBackpropFilter, w_shape, attrs)
    check_grad(lambda d, w_: bpi(d, w_, x_shape), randn(*dout.shape), w)
    check_grad(lambda d, x_: bpf(d, x_, w_shape), randn(*dout.shape), x)


def test_conv2d_backprop_primitives_match_the_oracle_adjoint():
    """<conv(x, w), dy> = <x, dx(dy, w)> = <w, dw(dy, x)>."""
    x, w = RNG.standard_normal((2, 3, 6, 6)), RNG.standard_normal((4, 3, 3, 3))
    dy = RNG.standard_normal((2, 4, 3, 3))
    attrs = {"pad_mode": "same", "stride": 2}
    inner = np.sum(_conv(x, w, (2, 2), _same_pads(6, 3, 2) * 2) * dy)
    dx = _conv_prim(P.Conv2DBackpropInput, w.shape, attrs)(Tensor(dy), Tensor(w), x.shape)
    dw = _conv_prim(nn_ops.Conv2DBackpropFilter, w.shape, attrs)(Tensor(dy), Tensor(x), w.shape)
    assert dx.shape == x.shape and dw.shape == w.shape
    np.testing.assert_allclose(np.sum(dx.asnumpy() * x), inner, rtol=1e-10)
    np.testing.assert_allclose(np.sum(dw.asnumpy() * w), inner, rtol=1e-10)


def test_conv2d_backprop_primitives_take_the_kernel_from_the_weight():
    """As in MindSpore 1.6, out_channel and kernel_size other than the weight's are ignored."""
    x, w = RNG.standard_normal((1, 2, 6, 6)), RNG.standard_normal((3, 2, 3, 3))
    dy = RNG.standard_normal((1, 3, 4, 4))
    inner = np.sum(_conv(x, w) * dy)
    dx = P.Conv2DBackpropInput(4, 1)(Tensor(dy), Tensor(w), x.shape)
    dw = nn_ops.Conv2DBackpropFilter(4, 1)(Tensor(dy), Tensor(x), w.shape)
    assert dx.shape == x.shape and dw.shape == w.shape
    np.testing.assert_allclose(np.sum(dx.asnumpy() * x), inner, rtol=1e-10)
    np.testing.assert_allclose(np.sum(dw.asnumpy() * w), inner, rtol=1e-10)


def test_conv2d_backprop_empty_batch_and_list_sizes():
    w = randn(4, 3, 3, 3)
    dx = P.Conv2DBackpropInput(4, 3)(randn(0, 4, 4, 4), w, [0, 3, 6, 6])
    check(dx, np.zeros((0, 3, 6, 6)), mstype.float64)
    dw = nn_ops.Conv2DBackpropFilter(4, 3)(randn(0, 4, 4, 4), randn(0, 3, 6, 6), [4, 3, 3, 3])
    check(dw, np.zeros((4, 3, 3, 3)), mstype.float64)


def test_conv2d_attributes_as_mindspore_stores_them():
    conv = P.Conv2D(8, 3, pad_mode="pad", pad=1, stride=(2, 1), dilation=2, group=2)
    assert conv.kernel_size == (3, 3) and conv.pad == (1, 1, 1, 1)
    assert conv.stride == (1, 1, 2, 1) and conv.dilation == (1, 1, 2, 2)
    assert (conv.mode, conv.group, conv.data_format) == (1, 2, "NCHW")
    bpi = P.Conv2DBackpropInput(8, 3, "valid", 0, (1, 2, 0, 1))
    assert bpi.pad_list == (1, 2, 0, 1)
    assert bpi.geometry((5, 5)) == ((1, 2, 0, 1), (6, 4))


# -- pooling --------------------------------------------------------------------------------
def _pool(x, k, s, mode, reduce):
    """Direct pooling, one output pixel at a time, over the window's elements inside x."""
    (n, c, h, w), (kh, kw), (sh, sw) = x.shape, k, s
    if mode == "same":
        (top, _), (left, _) = _same_pads(h, kh, sh), _same_pads(w, kw, sw)
        ho, wo = -(-h // sh), -(-w // sw)
    else:
        top = left = 0
        ho, wo = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.zeros((n, c, ho, wo))
    for p in range(ho):
        for q in range(wo):
            r, col = p * sh - top, q * sw - left
            window = x[:, :, max(r, 0):r + kh, max(col, 0):col + kw]
            out[:, :, p, q] = reduce(window.astype(F64), axis=(2, 3))
    return out


POOLS = [  # (x shape, kernel_size, strides, pad_mode)
    ((2, 3, 8, 6), (2, 2), (2, 2), "valid"),
    ((2, 3, 7, 5), (2, 2), (2, 2), "VALID"),
    ((1, 2, 7, 6), (3, 2), (2, 1), "same"),
    ((1, 2, 5, 5), (3, 3), (1, 1), "SAME"),
    ((2, 1, 6, 7), (3, 2), (3, 2), "Same"),
    ((0, 2, 4, 4), (2, 2), (1, 1), "valid"),
]


@pytest.mark.parametrize("x_shape, k, s, mode", POOLS, ids=str)
@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
@pytest.mark.parametrize("cls, reduce", [(P.MaxPool, np.max), (P.AvgPool, np.mean)],
                         ids=["max", "avg"])
def test_pool_forward(cls, reduce, x_shape, k, s, mode, np_dtype, dtype):
    x = RNG.standard_normal(x_shape).astype(np_dtype)
    want = _pool(x, k, s, mode.lower(), reduce)
    check(cls(k, s, mode)(Tensor(x)), want, dtype, TOL[np_dtype], TOL[np_dtype])


@pytest.mark.parametrize("x_shape, k, s, mode", POOLS[:5], ids=str)
@pytest.mark.parametrize("cls", [P.MaxPool, P.AvgPool], ids=["max", "avg"])
def test_pool_grad(cls, x_shape, k, s, mode):
    check_grad(cls(k, s, mode), randn(*x_shape))


def test_max_pool_grad_routes_ties_to_the_first_maximum():
    x = t([[[[1, 1, 0, 2], [1, 0, 2, 2], [3, 3, 3, 3], [3, 3, 3, 3]]]], np.float32)
    out = P.MaxPool(2, 2)(x)
    dx = nn_ops.MaxPoolGrad(2, 2)(x, out, t([[[[1, 2], [3, 4]]]], np.float32))
    check(dx, [[[[1, 0, 0, 2], [0, 0, 0, 0], [3, 0, 4, 0], [0, 0, 0, 0]]]], mstype.float32)


def test_avg_pool_grad_is_differentiable():
    x = randn(1, 2, 5, 4)
    pool = P.AvgPool(3, 2, "same")
    out = pool(x)
    check_grad(lambda a, o, g: nn_ops.AvgPoolGrad(3, 2, "same")(a, o, g), x, out, randn(*out.shape))


def test_pool_attributes_as_mindspore_stores_them():
    pool = P.MaxPool(kernel_size=(3, 2), strides=2, pad_mode="same")
    assert pool.kernel_size == (1, 1, 3, 2) and pool.strides == (1, 1, 2, 2)
    assert pool.pad_mode == "SAME" and pool.data_format == "NCHW"
    assert P.AvgPool().kernel_size == (1, 1, 1, 1) and P.AvgPool().pad_mode == "VALID"


# -- batch normalization --------------------------------------------------------------------
def _bn_inputs(shape, dtype=F64, stats=F64):
    c = shape[1]
    return (Tensor(RNG.standard_normal(shape).astype(dtype) * 2 + 1),
            Tensor(RNG.uniform(0.5, 1.5, c).astype(stats)),
            Tensor(RNG.standard_normal(c).astype(stats)),
            Tensor(RNG.standard_normal(c).astype(stats)),
            Tensor(RNG.uniform(0.5, 1.5, c).astype(stats)))


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 4, 5)], ids=str)
@pytest.mark.parametrize("training", [True, False], ids=["train", "infer"])
def test_batch_norm_forward(shape, training):
    x, scale, bias, mean, var = _bn_inputs(shape)
    xs = x.asnumpy()
    axes = (0, 2, 3)[:len(shape) - 1]
    column = (1, 3) + (1,) * (len(shape) - 2)
    if training:
        m, v = xs.mean(axis=axes), xs.var(axis=axes)
        n = xs.size // 3
        want_stats = [m, v * n / (n - 1), m, v]
    else:
        m, v = mean.asnumpy(), var.asnumpy()
        want_stats = [m, v, m, v]
    want = ((xs - m.reshape(column)) / np.sqrt(v.reshape(column) + 1e-3)
            * scale.asnumpy().reshape(column) + bias.asnumpy().reshape(column))
    out = P.BatchNorm(training, epsilon=1e-3)(x, scale, bias, mean, var)
    assert len(out) == 5
    check(out[0], want, mstype.float64, rtol=1e-10)
    for got, stat in zip(out[1:], want_stats, strict=True):
        check(got, stat, mstype.float64, rtol=1e-10)


def test_batch_norm_mixed_precision():
    x, scale, bias, mean, var = _bn_inputs((8, 2, 3, 3), np.float16, np.float32)
    out = P.BatchNorm(True)(x, scale, bias, mean, var)
    assert out[0].dtype is mstype.float16
    assert all(o.dtype is mstype.float32 and o.shape == (2,) for o in out[1:])
    np.testing.assert_allclose(out[1].asnumpy(), x.asnumpy().astype(F64).mean(axis=(0, 2, 3)),
                               rtol=1e-5)


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 3, 2)], ids=str)
@pytest.mark.parametrize("training", [True, False], ids=["train", "infer"])
def test_batch_norm_grad(shape, training):
    bn = P.BatchNorm(training)
    check_grad(lambda *a: bn(*a)[0], *_bn_inputs(shape), rtol=1e-5, atol=1e-6)


# -- dropout --------------------------------------------------------------------------------
@pytest.fixture
def _own_seed(monkeypatch):
    """Lets a test call set_seed and restores the global seed afterwards."""
    monkeypatch.setattr(seed, "_global_seed", seed._global_seed)
    monkeypatch.setattr(seed, "_generator", seed._generator)


@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
def test_dropout_masks_and_scales(np_dtype, dtype):
    x = RNG.uniform(1, 2, (200, 50)).astype(np_dtype)
    out, mask = P.Dropout(0.7)(Tensor(x))
    assert mask.dtype is dtype and mask.shape == x.shape and out.dtype is dtype
    m = mask.asnumpy()
    assert set(np.unique(m)) == {0, 1}
    assert abs(m.mean() - 0.7) < 0.02
    check(out, x.astype(F64) * m / 0.7, dtype, TOL[np_dtype], TOL[np_dtype])
    out, mask = P.Dropout(1.0)(Tensor(x))
    check(out, x, dtype)


def test_dropout_is_reproducible_under_seeds(_own_seed):
    x = Tensor(np.ones((4, 5), np.float32))
    seed.set_seed(7)
    drop = P.Dropout(0.5)
    first, second = drop(x)[1].asnumpy(), drop(x)[1].asnumpy()
    assert not np.array_equal(first, second)  # one op draws a new mask each call
    seed.set_seed(7)
    np.testing.assert_array_equal(drop(x)[1].asnumpy(), first)
    np.testing.assert_array_equal(P.Dropout(0.5)(x)[1].asnumpy(), first)
    a, b = P.Dropout(0.5, Seed0=3, Seed1=4)(x)[1], P.Dropout(0.5, Seed0=3, Seed1=4)(x)[1]
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_dropout_grad():
    check_grad(lambda x: P.Dropout(0.6, Seed0=5, Seed1=1)(x)[0], randn(4, 6))


# -- losses ---------------------------------------------------------------------------------
def _log_softmax(x):
    s = x - x.max(axis=1, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=1, keepdims=True))


@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
def test_softmax_cross_entropy_with_logits(np_dtype, dtype):
    logits = (RNG.standard_normal((4, 5)) * 3).astype(np_dtype)
    labels = np.eye(5)[[0, 3, 4, 1]].astype(np_dtype)
    loss, backprop = P.SoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(labels))
    logp = _log_softmax(logits.astype(F64))
    tol = TOL[np_dtype] * 3
    check(loss, -(logp * labels).sum(axis=1), dtype, tol, tol)
    check(backprop, np.exp(logp) - labels, dtype, tol, tol)


def test_softmax_cross_entropy_with_logits_grad():
    labels = Tensor(RNG.dirichlet(np.ones(4), 3))  # soft labels: a gradient for them too
    check_grad(lambda lg, lb: ops.softmax_cross_entropy_with_logits(lg, lb)[0], randn(3, 4),
               labels)


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("np_dtype, dtype", FLOATS, ids=lambda d: str(d))
def test_sparse_softmax_cross_entropy(label_dtype, np_dtype, dtype):
    logits = (RNG.standard_normal((4, 5)) * 3).astype(np_dtype)
    labels = np.array([0, 3, 4, 3], label_dtype)
    logp = _log_softmax(logits.astype(F64))
    tol = TOL[np_dtype] * 3
    loss = P.SparseSoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(labels))
    check(loss, -logp[np.arange(4), labels].mean(), dtype, tol, tol)
    grad = P.SparseSoftmaxCrossEntropyWithLogits(True)(Tensor(logits), Tensor(labels))
    check(grad, (np.exp(logp) - np.eye(5)[labels]) / 4, dtype, tol, tol)


def test_sparse_softmax_cross_entropy_grad_and_edges():
    labels = t([2, 0, 1], np.int32)
    check_grad(lambda lg: ops.sparse_softmax_cross_entropy_with_logits(lg, labels), randn(3, 4))
    empty = ops.sparse_softmax_cross_entropy_with_logits(Tensor(np.zeros((0, 3), np.float32)),
                                                         t([], np.int32))
    assert empty.shape == () and np.isnan(empty.asnumpy())
    with pytest.raises(RuntimeError, match=r"SparseSoftmaxCrossEntropyWithLogits.*labels must "
                                           r"be class indices in \[0, 4\)"):
        ops.sparse_softmax_cross_entropy_with_logits(randn(3, 4), t([0, 4, 1], np.int32))


# -- error paths ----------------------------------------------------------------------------
X4 = randn(2, 3, 6, 6)
W4 = randn(4, 3, 3, 3)

ERRORS = [
    # attributes
    (lambda: P.Conv2D(0, 3), ValueError, r"Conv2D: 'out_channel' must be an int >= 1"),
    (lambda: P.Conv2D(4, (3,)), ValueError, r"Conv2D: 'kernel_size' must be a positive int "
                                            r"or \(h, w\)"),
    (lambda: P.Conv2D(4, 3, pad_mode="SAME"), ValueError,
     r"Conv2D: 'pad_mode' must be one of \['valid', 'same', 'pad'\], but got 'SAME'"),
    (lambda: P.Conv2D(4, 3, pad=1), ValueError, r"Conv2D: 'pad' must be 0 when 'pad_mode' is "
                                                r"'valid'"),
    (lambda: P.Conv2D(4, 3, pad_mode="pad", pad=(1, 2)), ValueError,
     r"Conv2D: 'pad' must be a non-negative int or a tuple of 4"),
    (lambda: P.Conv2D(4, 3, mode=2), ValueError, r"Conv2D: 'mode' must be 1, but got 2"),
    (lambda: P.Conv2D(4, 3, stride=(2, 2, 1, 1)), ValueError,
     r"Conv2D: 'stride' must be a positive int, \(h, w\) or \(1, 1, h, w\)"),
    (lambda: P.Conv2D(4, 3, group=3), ValueError, r"Conv2D: 'out_channel' \(4\) must be "
                                                  r"divisible by 'group' \(3\)"),
    (lambda: P.Conv2D(4, 3, data_format="NHWC"), ValueError,
     r"Conv2D: data_format 'NHWC' is not supported .*only on GPU"),
    (lambda: P.Conv2D(4.0, 3), TypeError, r"Conv2D: 'out_channel' must be an int"),
    (lambda: P.MaxPool(0), ValueError, r"MaxPool: 'kernel_size' must be a positive int or "
                                       r"\(h, w\), but got 0"),
    (lambda: P.AvgPool(2, (1, 1, 2, 2)), ValueError, r"AvgPool: 'strides' must be a positive"),
    (lambda: P.MaxPool(2, 2, "pad"), ValueError,
     r"MaxPool: 'pad_mode' must be one of \['VALID', 'SAME'\], but got 'PAD'"),
    (lambda: P.MaxPool(2, 2, 1), TypeError, r"MaxPool: 'pad_mode' must be a str"),
    (lambda: P.AvgPool(data_format="NCDHW"), ValueError,
     r"AvgPool: 'data_format' must be one of \['NCHW'\]"),
    (lambda: P.BiasAdd("NDHWC"), ValueError, r"BiasAdd: 'data_format' must be one of "
                                             r"\['NCHW', 'NHWC', 'NCDHW'\]"),
    (lambda: P.Softmax(())(Tensor(np.ones(2, np.float32))), ValueError,
     r"Softmax: 'axis' must name at least one axis"),
    (lambda: P.Softmax(1.0), TypeError, r"Softmax: 'axis' must be an int"),
    (lambda: P.LogSoftmax((0,)), TypeError, r"LogSoftmax: 'axis' must be an int"),
    (lambda: P.BatchNorm(1), TypeError, r"BatchNorm: 'is_training' must be a bool"),
    (lambda: P.BatchNorm(epsilon=0.0), ValueError, r"BatchNorm: 'epsilon' must be in \(0, 1\]"),
    (lambda: P.BatchNorm(momentum=1.5), ValueError, r"BatchNorm: 'momentum' must be in "
                                                    r"\[0, 1\]"),
    (lambda: P.BatchNorm(epsilon=1), TypeError, r"BatchNorm: 'epsilon' must be a float"),
    (lambda: P.Dropout(0.0), ValueError, r"Dropout: 'keep_prob' must be in \(0, 1\]"),
    (lambda: P.Dropout(1), TypeError, r"Dropout: 'keep_prob' must be a float"),
    (lambda: P.Dropout(0.5, Seed0=-1), ValueError, r"Dropout: 'Seed0' must be an int >= 0"),
    (lambda: P.SparseSoftmaxCrossEntropyWithLogits(1), TypeError,
     r"SparseSoftmaxCrossEntropyWithLogits: 'is_grad' must be a bool"),
    # inputs
    (lambda: P.ReLU()(t([True])), TypeError, r"ReLU: input 'x' must have dtype in"),
    (lambda: P.Sigmoid()(t([1, 2])), TypeError, r"Sigmoid: input 'x' must have dtype in "
                                                r"\[Float16, Float32, Float64\], but got Int64"),
    (lambda: P.Tanh()([1.0]), TypeError, r"Tanh: input 'x' must be a Tensor, but got list"),
    (lambda: P.ReLU()(randn(2), randn(2)), TypeError, r"ReLU takes 1 input\(s\) \(x\), but "
                                                      r"got 2"),
    (lambda: nn_ops.ReluGrad()(randn(2), randn(3)), ValueError,
     r"ReluGrad: 'x' must have the shape of 'y_backprop' \[2\], but got \[3\]"),
    (lambda: nn_ops.SigmoidGrad()(randn(2), randn(2, dtype=np.float32)), TypeError,
     r"SigmoidGrad: 'dy' must have the dtype of 'y' \(Float64\), but got Float32"),
    (lambda: P.Softmax(2)(randn(2, 2)), ValueError, r"Softmax: axis 2 is out of range \[-2, 2\) "
                                                    r"for x of shape \[2, 2\]"),
    (lambda: P.LogSoftmax()(randn()), ValueError, r"LogSoftmax: axis -1 is out of range"),
    (lambda: P.Softmax((1, -1))(randn(2, 2)), ValueError, r"Softmax: axis \(1, -1\) repeats an "
                                                           r"axis of x of shape \[2, 2\]"),
    (lambda: P.BiasAdd()(randn(2, 3), randn(2)), ValueError,
     r"BiasAdd: 'bias' must have shape \[3\] \(the channels of x of shape \[2, 3\] in NCHW\), "
     r"but got \[2\]"),
    (lambda: P.BiasAdd()(randn(3), randn(3)), ValueError, r"BiasAdd: 'x' must have rank >= 2"),
    (lambda: P.BiasAdd("NCDHW")(randn(2, 3, 4, 4), randn(3)), ValueError,
     r"BiasAdd: 'x' must have rank 5 for data_format 'NCDHW'"),
    (lambda: P.BiasAdd()(randn(2, 3), randn(3, dtype=np.float32)), TypeError,
     r"BiasAdd: 'bias' must have the dtype of 'x' \(Float64\), but got Float32"),
    (lambda: P.Conv2D(4, 3)(randn(3, 6, 6), W4), ValueError,
     r"Conv2D: 'x' must have rank 4, but got shape \[3, 6, 6\]"),
    (lambda: P.Conv2D(5, 3)(X4, W4), ValueError,
     r"Conv2D: the weight must have shape \[out_channel, in_channel / group, \*kernel_size\] = "
     r"\[5, _, 3, 3\], but got \[4, 3, 3, 3\]"),
    (lambda: P.Conv2D(4, 3)(randn(2, 2, 6, 6), W4), ValueError,
     r"Conv2D: x of shape \[2, 2, 6, 6\] has 2 channels, but the weight of shape "
     r"\[4, 3, 3, 3\] with group 1 expects 3"),
    (lambda: P.Conv2D(4, 3)(X4, randn(4, 3, 3, 3, dtype=np.float32)), TypeError,
     r"Conv2D: 'weight' must have the dtype of 'x' \(Float64\), but got Float32"),
    (lambda: P.Conv2D(4, 3)(t(np.ones((2, 3, 6, 6), np.int32)), W4), TypeError,
     r"Conv2D: input 'x' must have dtype in \[Float16, Float32, Float64\], but got Int32"),
    (lambda: P.Conv2D(4, 3, dilation=3)(X4, W4), ValueError,
     r"Conv2D: x of shape \[2, 3, 6, 6\] is too small for kernel \[3, 3\] with dilation "
     r"\[3, 3\] and pad_mode 'valid': the output would be 0 x 0"),
    (lambda: P.Conv2DBackpropInput(4, 3)(randn(2, 4, 3, 3), W4, X4.shape), ValueError,
     r"Conv2DBackpropInput: 'dout' must have the convolution's output shape \[2, 4, 4, 4\], "
     r"but got \[2, 4, 3, 3\]"),
    (lambda: P.Conv2DBackpropInput(4, 3)(randn(2, 4, 4, 4), W4, (2, 3, 6)), ValueError,
     r"Conv2DBackpropInput: 'input_size' must be a tuple of 4 non-negative ints"),
    (lambda: nn_ops.Conv2DBackpropFilter(4, 3)(randn(2, 4, 4, 4), X4, (4, 3, 2, 2)), ValueError,
     r"Conv2DBackpropFilter: 'dout' must have the convolution's output shape \[2, 4, 5, 5\]"),
    (lambda: P.MaxPool(2, 2)(randn(3, 4, 4)), ValueError, r"MaxPool: 'x' must have rank 4"),
    (lambda: P.AvgPool(2, 2)(t(np.ones((1, 1, 4, 4), np.int32))), TypeError,
     r"AvgPool: input 'x' must have dtype in"),
    (lambda: P.MaxPool(5, 1)(randn(1, 1, 4, 6)), ValueError,
     r"MaxPool: x of shape \[1, 1, 4, 6\] is too small for kernel_size \[5, 5\] with pad_mode "
     r"'VALID': the output would be 0 x 2"),
    (lambda: nn_ops.MaxPoolGrad(2, 2)(X4, randn(2, 3, 2, 2), randn(2, 3, 3, 3)), ValueError,
     r"MaxPoolGrad: 'out_origin' must have the pool's output shape \[2, 3, 3, 3\], but got "
     r"\[2, 3, 2, 2\]"),
    (lambda: P.BatchNorm()(randn(2, 3, 4), *[randn(3)] * 4), ValueError,
     r"BatchNorm: 'x' must have rank 2 or 4, but got shape \[2, 3, 4\]"),
    (lambda: P.BatchNorm()(randn(2, 3), randn(2), randn(2), randn(3), randn(3)), ValueError,
     r"BatchNorm: 'scale' must have shape \[3\] \(the channels of x of shape \[2, 3\]\), but got "
     r"\[2\]"),
    (lambda: P.BatchNorm()(randn(2, 3), randn(3), randn(3, dtype=np.float32), randn(3),
                           randn(3)), TypeError,
     r"BatchNorm: 'bias' must have the dtype of 'scale' \(Float64\), but got Float32"),
    (lambda: P.BatchNorm(True)(randn(0, 3), *[randn(3)] * 4), ValueError,
     r"BatchNorm: in training, x must hold values to take statistics of"),
    (lambda: P.Dropout()(t([1, 2], np.int32)), TypeError, r"Dropout: input 'x' must have dtype"),
    (lambda: nn_ops.DropoutGrad()(randn(2), randn(3)), ValueError,
     r"DropoutGrad: 'mask' must have the shape of 'dy'"),
    (lambda: P.SoftmaxCrossEntropyWithLogits()(randn(2, 3), randn(2, 4)), ValueError,
     r"SoftmaxCrossEntropyWithLogits: 'labels' must have the shape of 'logits' \[2, 3\], but "
     r"got \[2, 4\]"),
    (lambda: P.SoftmaxCrossEntropyWithLogits()(randn(3), randn(3)), ValueError,
     r"SoftmaxCrossEntropyWithLogits: 'logits' must have rank 2"),
    (lambda: P.SparseSoftmaxCrossEntropyWithLogits()(randn(2, 3), randn(2)), TypeError,
     r"SparseSoftmaxCrossEntropyWithLogits: input 'labels' must have dtype in \[Int32, Int64\]"),
    (lambda: P.SparseSoftmaxCrossEntropyWithLogits()(randn(2, 3), t([0, 1, 2], np.int32)),
     ValueError, r"SparseSoftmaxCrossEntropyWithLogits: 'labels' must have shape \[2\] \(one "
                 r"class index per row of logits of shape \[2, 3\]\), but got \[3\]"),
]


@pytest.mark.parametrize("call, exc, match", ERRORS, ids=[e[2][:60] for e in ERRORS])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_gradients_of_gradient_primitives_without_a_rule_are_refused():
    labels = t([0, 1], np.int32)
    with pytest.raises(RuntimeError, match="is_grad=True is a gradient"):
        check_grad(lambda lg: P.SparseSoftmaxCrossEntropyWithLogits(True)(lg, labels),
                   randn(2, 3))
    with pytest.raises(RuntimeError, match="L2NormalizeGrad has no backward rule"):
        x = randn(2, 3)
        check_grad(lambda g: norm_ops.L2NormalizeGrad()(x, P.L2Normalize()(x), g), randn(2, 3))


def test_grad_ops_module_gathers_the_backward_primitives():
    from ember.ops.operations import _grad_ops as G

    assert G.ReluGrad is nn_ops.ReluGrad and "Conv2DBackpropFilter" in G.__all__
    assert all(name.endswith("Grad") or "GradWith" in name or "Backprop" in name
               for name in G.__all__)
    assert G.MaxPoolGradWithArgmax is nn_ops.MaxPoolGradWithArgmax
    dy, x = t([1.0, 2.0, 3.0]), t([-1.0, 0.5, 2.0])
    np.testing.assert_array_equal(G.ReluGrad()(dy, x).asnumpy(), [0.0, 2.0, 3.0])


def test_batch_norm_grad_takes_mindspore_1_6s_sixth_input():
    dy, x = RNG.normal(size=(4, 3)), RNG.normal(size=(4, 3))
    scale, mean, var = np.ones(3), x.mean(0), x.var(0)
    args = [Tensor(a.astype(np.float32)) for a in (dy, x, scale, mean, var)]
    grad = nn_ops.BatchNormGrad(True)
    five, six = grad(*args), grad(*args, Tensor(np.zeros(3, np.float32)))
    for a, b in zip(five, six):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    # dbias is the sum of dy over the batch
    np.testing.assert_allclose(six[2].asnumpy(), dy.sum(0), rtol=1e-5)
    with pytest.raises(TypeError, match="BatchNormGrad: input 'reserve_space_3'"):
        grad(*args, 0)
