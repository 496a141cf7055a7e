"""The CPU convolutions (their phase planes, wide outputs and permuted taps) against a direct
sum over kernel taps, on geometries the conformance kit does not list: every stride up to 3
with dilations, asymmetric padding, groups, kernels narrower than the stride, 3-D images."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ember.ops.operations import conv_ops, nn_ops
from ember_cpu.kernels import KERNELS


def _windows(xp, w_spatial, stride, dilation, out):
    """For each kernel tap: (tap, the padded image's elements under it for every output)."""
    for tap in itertools.product(*(range(k) for k in w_spatial)):
        yield tap, (..., *(slice(i * d, i * d + (o - 1) * s + 1, s)
                           for i, s, d, o in zip(tap, stride, dilation, out)))


def _reference(x, w, dout, pads, stride, dilation, group):
    """(output, input gradient, filter gradient) as sums over kernel taps."""
    n, c, *spatial = x.shape
    o, per_group, *kernel = w.shape
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), *zip(pads[::2], pads[1::2])])
    out_size = dout.shape[2:]
    xg = xp.reshape(n, group, per_group, *xp.shape[2:])
    wg = w.astype(np.float64).reshape(group, o // group, per_group, *kernel)
    dg = dout.astype(np.float64).reshape(n, group, o // group, *out_size)
    y = np.zeros(dg.shape)
    dxp = np.zeros(xg.shape)
    dw = np.zeros(wg.shape)
    axes = "hwd"[:len(spatial)]
    for tap, at in _windows(xg, kernel, stride, dilation, out_size):
        k = wg[(..., *tap)]  # (group, O / group, C / group)
        y += np.einsum(f"ngc{axes},goc->ngo{axes}", xg[at], k)
        dxp[at] += np.einsum(f"ngo{axes},goc->ngc{axes}", dg, k)
        dw[(..., *tap)] = np.einsum(f"ngc{axes},ngo{axes}->goc", xg[at], dg)
    inside = (..., *(slice(a, a + s) for a, s in zip(pads[::2], spatial)))
    return (y.reshape(n, o, *out_size), dxp.reshape(xp.shape)[inside], dw.reshape(w.shape))


GEOMETRIES = [  # (x shape, w shape, pad, stride, dilation, group)
    ((2, 3, 9, 8), (4, 3, 3, 3), (1, 1, 1, 1), 2, 1, 1),
    ((2, 2, 10, 11), (2, 2, 3, 2), (0, 2, 1, 0), (3, 2), 1, 1),
    ((1, 4, 11, 9), (6, 2, 3, 3), (2, 1, 0, 1), (2, 3), (2, 1), 2),
    ((3, 2, 8, 8), (3, 2, 1, 1), (0, 0, 0, 0), 2, 1, 1),
    ((2, 3, 7, 9), (2, 3, 2, 2), (0, 0, 0, 0), 3, 1, 1),
    ((2, 2, 9, 9), (4, 1, 3, 3), (1, 1, 1, 1), 2, 2, 2),
    ((2, 6, 6, 7), (6, 6, 5, 3), (2, 2, 1, 1), 1, 1, 1),
    ((1, 2, 12, 5), (3, 2, 4, 1), (1, 2, 0, 0), (3, 1), (2, 1), 1),
    # stride 1 with more output channels than input ones: the input gradient sums shifted rows
    ((2, 3, 7, 9), (8, 3, 3, 5), (1, 0, 2, 2), 1, (1, 2), 1),
    ((3, 4, 8, 6), (6, 2, 3, 3), (0, 0, 0, 0), 1, 1, 2),
    ((2, 2, 5, 5), (4, 2, 1, 1), (1, 1, 0, 2), 1, 1, 1),
]


def _check(classes, x_shape, w_shape, **args):
    """The kernels of a convolution primitive and its two backprop ones, against
    ``_reference``."""
    prims = [cls(out_channel=w_shape[0], kernel_size=w_shape[2:], pad_mode="pad", **args)
             for cls in classes]
    pads, out_size = prims[0].geometry(x_shape[2:])
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    dout = rng.standard_normal((x_shape[0], w_shape[0], *out_size)).astype(np.float32)
    y, dx, dw = _reference(x, w, dout, pads, prims[0].stride[2:], prims[0].dilation[2:],
                           args["group"])
    conv, backprop_input, backprop_filter = (KERNELS[p.name](p) for p in prims)
    # the 3-D backprop primitives take (weight, dout, size) and (x, dout, size)
    three_d = len(x_shape) == 5
    np.testing.assert_allclose(conv(x, w), y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(backprop_input(*((w, dout) if three_d else (dout, w)), x_shape),
                               dx, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(backprop_filter(*((x, dout) if three_d else (dout, x)),
                                               w_shape), dw, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("x_shape, w_shape, pad, stride, dilation, group", GEOMETRIES)
def test_conv2d_and_its_gradients_match_a_sum_over_taps(x_shape, w_shape, pad, stride,
                                                        dilation, group):
    _check((nn_ops.Conv2D, nn_ops.Conv2DBackpropInput, nn_ops.Conv2DBackpropFilter), x_shape,
           w_shape, pad=pad, stride=stride, dilation=dilation, group=group)


@pytest.mark.parametrize("stride, dilation", [(2, 1), ((1, 2, 3), (2, 1, 1)), (1, 2)])
def test_conv3d_and_its_gradients_match_a_sum_over_taps(stride, dilation):
    _check((conv_ops.Conv3D, conv_ops.Conv3DBackpropInput, conv_ops.Conv3DBackpropFilter),
           (2, 2, 7, 8, 6), (4, 1, 3, 2, 3), pad=(1, 0, 0, 1, 2, 1), stride=stride,
           dilation=dilation, group=2)
