"""MaxPool3D and AvgPool3D's MindSpore 1.6 arguments (ceil_mode, count_include_pad,
divisor_override, a (d, h, w) pad_list): the errors bad values get, the output shapes, the
documented values, and the conformance kit's NumPy references cross-checked once against
PyTorch's pools. (Values on every backend, both modes and gradients are the kit's.)"""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P
from ember.ops.operations import _grad_ops as G
from ember.ops.operations import conv_ops
from ember.testing.cases.conv3d import _Pool


def t(array, dtype=np.float32):
    return Tensor(np.asarray(array, dtype=dtype))


# -- attributes ------------------------------------------------------------------------------
def test_defaults_are_mindspore_16s():
    avg, mx = P.AvgPool3D(), P.MaxPool3D()
    assert (avg.ceil_mode, avg.count_include_pad, avg.divisor_override) == (False, True, 0)
    assert mx.ceil_mode is False and mx.pad_mode == "VALID"
    assert P.MaxPool3D(2, 1, "pad", (1, 2, 3)).pad_list == (1, 1, 2, 2, 3, 3)
    grad = P.AvgPool3D(2, 1, "pad", 1, True, False, 3)._sibling(conv_ops.AvgPool3DGrad)
    assert (grad.ceil_mode, grad.count_include_pad, grad.divisor_override) == (True, False, 3)
    assert P.MaxPool3D(2, 1, "pad", 1, True)._sibling(G.MaxPool3DGrad).ceil_mode is True


@pytest.mark.parametrize("make, error, message", [
    (lambda: P.MaxPool3D(2, 2, "valid", ceil_mode=True), ValueError,
     r"MaxPool3D: When the 'pad_mode' is 'same' or 'valid', the 'ceil_mode' only supports "
     r"'None', but got True"),
    (lambda: P.MaxPool3D(2, 2, "same", ceil_mode=False), ValueError,
     r"MaxPool3D: When the 'pad_mode' is 'same' or 'valid', the 'ceil_mode' only supports"),
    (lambda: P.MaxPool3D(2, 2, "pad", 1, ceil_mode=1), TypeError,
     r"MaxPool3D: 'ceil_mode' must be a bool, but got 1"),
    (lambda: P.MaxPool3D(2, 2, "valid", ceil_mode="yes"), TypeError,
     r"MaxPool3D: 'ceil_mode' must be a bool"),
    (lambda: P.MaxPool3D(2, 2, "pad", (1, 2)), ValueError,
     r"MaxPool3D: 'pad_list' must be a non-negative int, a tuple of 3 \(d, h, w\) or a tuple "
     r"of 6 \(head, tail, top, bottom, left, right\), but got \(1, 2\)"),
    (lambda: P.MaxPool3D(2, 2, "pad", (1, -1, 0)), ValueError,
     r"MaxPool3D: 'pad_list' must be a non-negative int"),
    (lambda: P.MaxPool3D(2, 2, "valid", (1, 0, 0)), ValueError,
     r"MaxPool3D: 'pad_list' must be 0 when 'pad_mode' is 'valid'"),
    (lambda: G.MaxPool3DGrad(2, 2, "valid", ceil_mode=True), ValueError,
     r"MaxPool3DGrad: When the 'pad_mode' is 'same' or 'valid', the 'ceil_mode'"),
    (lambda: P.AvgPool3D(ceil_mode=None), TypeError,
     r"AvgPool3D: 'ceil_mode' must be a bool, but got None"),
    (lambda: P.AvgPool3D(count_include_pad=1), TypeError,
     r"AvgPool3D: 'count_include_pad' must be a bool, but got 1"),
    (lambda: P.AvgPool3D(divisor_override=2.0), TypeError,
     r"AvgPool3D: 'divisor_override' must be an int, but got 2.0"),
    (lambda: P.AvgPool3D(divisor_override=True), TypeError,
     r"AvgPool3D: 'divisor_override' must be an int, but got True"),
    (lambda: P.AvgPool3D(divisor_override=-1), ValueError,
     r"AvgPool3D: 'divisor_override' must be an int >= 0, but got -1"),
    (lambda: P.AvgPool3D(2, 1, "pad", (1, 1, 1)), ValueError,
     r"AvgPool3D: 'pad' must be a non-negative int or a tuple of 6"),
    (lambda: G.AvgPool3DGrad(count_include_pad="no"), TypeError,
     r"AvgPool3DGrad: 'count_include_pad' must be a bool"),
])
def test_bad_attributes(make, error, message):
    with pytest.raises(error, match=message):
        make()


# -- shapes ----------------------------------------------------------------------------------
def _shape(prim, dhw):
    return prim(Tensor(np.zeros((1, 1, *dhw), np.float32))).shape


def test_ceil_mode_output_shapes():
    # (n + before + after - k) / s + 1 = (5 + 1 + 1 - 2) / 2 + 1 = 3.5
    assert _shape(P.MaxPool3D(2, 2, "pad", 1), (5, 5, 5)) == (1, 1, 3, 3, 3)
    assert _shape(P.AvgPool3D(2, 2, "pad", 1), (5, 5, 5)) == (1, 1, 3, 3, 3)
    # MindSpore 1.6's MaxPool3D rounds up plainly; its AvgPool3D (and PyTorch) drops the last
    # window, which would start in the padding after (at 6 of the padded 0..6)
    assert _shape(P.MaxPool3D(2, 2, "pad", 1, True), (5, 5, 5)) == (1, 1, 4, 4, 4)
    assert _shape(P.AvgPool3D(2, 2, "pad", 1, True), (5, 5, 5)) == (1, 1, 3, 3, 3)
    # (4 + 0 + 1 - 2) / 2 + 1 = 2.5: the third window reaches past the padding
    assert _shape(P.MaxPool3D(2, 2, "pad", (0, 1, 0, 1, 0, 1), True), (4, 4, 4)) == (1, 1, 3, 3, 3)
    # AvgPool3D rounds 'valid' up too; 'same' has nothing to round
    assert _shape(P.AvgPool3D(2, 2, "valid", ceil_mode=True), (5, 4, 3)) == (1, 1, 3, 2, 2)
    assert _shape(P.AvgPool3D(3, 2, "same", ceil_mode=True), (5, 4, 3)) == (1, 1, 3, 2, 2)


def test_divisor_and_geometry_of_ceil_mode():
    pool = P.AvgPool3D((1, 1, 3), (1, 1, 2), "pad", (0, 0, 0, 0, 1, 1), ceil_mode=True)
    # width 6 padded to 8, windows at -1, 1, 3, 5: the last one reaches one past the padding
    assert pool.geometry((1, 1, 6)) == ((0, 0, 0, 0, 1, 2), (1, 1, 4))
    np.testing.assert_array_equal(pool.divisor((1, 1, 6)), [[[3, 3, 3, 2]]])
    pool.count_include_pad = False
    np.testing.assert_array_equal(pool.divisor((1, 1, 6)), [[[2, 3, 3, 1]]])
    pool.divisor_override = 5
    np.testing.assert_array_equal(pool.divisor((1, 1, 6)), [[[5, 5, 5, 5]]])


# -- values ----------------------------------------------------------------------------------
def test_documented_values():
    x = t(np.arange(1 * 2 * 2 * 2 * 3).reshape((1, 2, 2, 2, 3)))
    np.testing.assert_array_equal(P.MaxPool3D(2, 1, "valid")(x).asnumpy(),
                                  [[[[[10, 11]]], [[[22, 23]]]]])
    np.testing.assert_array_equal(P.AvgPool3D(2, 1, "valid")(x).asnumpy(),
                                  [[[[[5, 6]]], [[[17, 18]]]]])


def test_count_include_pad_on_a_corner():
    x = t(np.ones((1, 1, 2, 2, 2)))
    include = P.AvgPool3D(2, 2, "pad", 1)(x).asnumpy()
    exclude = P.AvgPool3D(2, 2, "pad", 1, count_include_pad=False)(x).asnumpy()
    override = P.AvgPool3D(2, 2, "pad", 1, divisor_override=2)(x).asnumpy()
    np.testing.assert_allclose(include, np.full((1, 1, 2, 2, 2), 1 / 8))
    np.testing.assert_allclose(exclude, np.ones((1, 1, 2, 2, 2)))
    np.testing.assert_allclose(override, np.full((1, 1, 2, 2, 2), 1 / 2))


# -- the kit's references against PyTorch ----------------------------------------------------
# symmetric padding of at most half the window (PyTorch's pools take no other), and no
# MaxPool3D window starting in the padding after (PyTorch drops it, MindSpore keeps it)
_TORCH_POOLS = [
    _Pool("valid", (2, 3, 5, 6, 7), (2, 3, 2), (2, 2, 3), "valid"),
    _Pool("pad", (1, 2, 5, 6, 7), (2, 3, 3), (1, 2, 2), "pad", (1, 1, 0, 0, 1, 1)),
    _Pool("pad-ceil", (1, 2, 6, 7, 6), (3, 3, 2), 2, "pad", (1, 1, 1, 1, 0, 0),
          ceil_mode=True),
    _Pool("pad-ceil-clip", (1, 2, 5, 5, 5), 2, 2, "pad", 1, ceil_mode=True, max=False),
    _Pool("valid-ceil", (1, 1, 5, 5, 4), (2, 1, 3), (2, 3, 2), "valid", ceil_mode=True,
          max=False),
]


@pytest.mark.parametrize("pool", _TORCH_POOLS, ids=lambda p: p.id)
@pytest.mark.parametrize("include_pad, divisor", [(True, 0), (False, 0), (True, 3),
                                                  (False, 5)])
def test_kit_references_match_torch(pool, include_pad, divisor):
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    pool = _Pool(pool.id, pool.x, pool.kernel, pool.strides, pool.pad_mode, pool.pad,
                 ceil_mode=pool.ceil_mode, count_include_pad=include_pad,
                 divisor_override=divisor, max=pool.max)
    pads = (pool.pad,) * 3 if isinstance(pool.pad, int) else pool.pad[::2]
    args = {"kernel_size": pool.kernel, "stride": pool.strides, "padding": pads,
            "ceil_mode": bool(pool.ceil_mode)}
    x = np.random.default_rng(0).standard_normal(pool.x)
    expected = functional.avg_pool3d(torch.from_numpy(x), count_include_pad=include_pad,
                                     divisor_override=divisor or None, **args).numpy()
    np.testing.assert_allclose(pool.avg_ref(x), expected, rtol=1e-12, atol=1e-12)
    avg = P.AvgPool3D(pool.kernel, pool.strides, pool.pad_mode, pool.pad,
                      bool(pool.ceil_mode), include_pad, divisor)
    np.testing.assert_allclose(avg(Tensor(x)).asnumpy(), expected, rtol=1e-12, atol=1e-12)

    # the gradient: torch's autograd against the kit's reference
    leaf = torch.from_numpy(x).requires_grad_()
    dy = np.random.default_rng(1).standard_normal(expected.shape)
    functional.avg_pool3d(leaf, count_include_pad=include_pad,
                          divisor_override=divisor or None, **args).backward(
        torch.from_numpy(dy))
    np.testing.assert_allclose(pool.avg_grad(x, expected, dy), leaf.grad.numpy(), rtol=1e-12,
                               atol=1e-12)
    if pool.max and not divisor:
        expected = functional.max_pool3d(torch.from_numpy(x), **args).numpy()
        np.testing.assert_array_equal(pool.max_ref(x), expected)
        mx = P.MaxPool3D(pool.kernel, pool.strides, pool.pad_mode, pool.pad, pool.ceil_mode)
        np.testing.assert_array_equal(mx(Tensor(x)).asnumpy(), expected)
