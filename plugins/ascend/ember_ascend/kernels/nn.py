"""Activations, softmax and losses, 2-D and 3-D convolutions and pools on aclnn.

The first-generation 910 has no aclnnConvolution: there Conv2D runs as the aclop operator of
the same name (NCHW, pads [top, bottom, left, right]); Conv3D (NCDHW) needs aclnn. aclnn's
convolutions and pools take one padding per side pair (pools at most half the window): where
the sides differ ('same' with an odd total, a pad_list) or a pool's padding passes half its
window, the input is padded explicitly (zeros; -inf for max pooling) and the gradients cut
back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import (
    AscendDevice,
    BoolArray,
    DeviceArray,
    DType,
    IntArray,
    Scalar,
    View,
    contiguous_strides,
    first_generation,
    view,
)
from ember_ascend.driver import FORMAT_NCDHW, FORMAT_NCHW
from ember_ascend.kernels.common import Arithmetic, backward, unary
from ember_ascend.kernels.spatial import placed


def _scalars(*values: float) -> Any:
    """The operator attributes ``values`` as scalars of the input's dtype."""
    return lambda dtype: tuple(Scalar(v, dtype) for v in values)


def _scaled_elu(prim: Any, dev: AscendDevice) -> Any:
    """SeLU and CeLU as aclnnElu: ``scale * (x > 0 ? x : alpha * (exp(x * input_scale) - 1))``
    with SeLU's constants, or CeLU's ``alpha`` (scale 1, input scale ``1 / alpha``)."""
    selu = prim.name == "SeLU"
    alpha, scale, input_scale = (prim.alpha, prim.scale, 1) if selu else (
        prim.alpha, 1, 1 / prim.alpha)
    return unary("Elu", extra=_scalars(alpha, scale, input_scale))(prim, dev)


def _mish(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, x.dtype)
        softplus = a.op("Softplus", x, *_scalars(1, 20)(x.dtype))
        return a.mul(x, a.op("Tanh", softplus))

    return kernel


def _shrink(prim: Any, dev: AscendDevice) -> Any:
    """HShrink: x where |x| > lambd, else 0; SoftShrink: that, moved toward 0 by lambd."""
    lambd, soft = prim.lambd, prim.name == "SoftShrink"

    def kernel(x: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, x.dtype)
        kept = a.compare("GtTensor", a.op("Abs", x), lambd)
        if soft:
            x = a.sub(x, a.mul(a.op("Sign", x), lambd))
        return a.where(kept, x, 0)

    return kernel


def _gelu_grad(prim: Any, dev: AscendDevice) -> Any:
    def kernel(dy: DeviceArray, x: DeviceArray, y: DeviceArray) -> DeviceArray:
        out = dev.empty(dy.shape, dy.dtype)
        dev.aclnn("GeluBackwardV2", dy, x, b"tanh", out)
        return out

    return kernel


def _elu_grad(prim: Any, dev: AscendDevice) -> Any:
    def kernel(dy: DeviceArray, y: DeviceArray) -> DeviceArray:
        out = dev.empty(dy.shape, dy.dtype)
        one = Scalar(1, y.dtype)
        dev.aclnn("EluBackward", dy, one, one, one, True, y, out)  # from the result y
        return out

    return kernel


def _softmax(op: str) -> Any:
    """aclnn ``op`` over one axis; over several, the axes permuted to the end (aclnnPermute)
    and read as one, then permuted back."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        axes = prim.axis if isinstance(prim.axis, tuple | list) else (prim.axis,)

        def kernel(x: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, x.dtype)
            ndim = max(x.ndim, 1)
            dims = sorted({a % ndim for a in axes})
            if len(dims) == 1:
                dev.aclnn(op, x, dims[0], out)
                return out
            order = tuple(i for i in range(x.ndim) if i not in dims) + tuple(dims)
            moved = tuple(x.shape[i] for i in order)
            kept = moved[:x.ndim - len(dims)]
            flat = (*kept, int(np.prod(moved[len(kept):], dtype=np.int64)))
            permuted, result = dev.empty(moved, x.dtype), dev.empty(moved, x.dtype)
            if x.size:
                dev.aclnn("Permute", x, IntArray(order), permuted)
                dev.aclnn(op, view(permuted, flat), len(flat) - 1, view(result, flat))
                dev.aclnn("Permute", result, IntArray(tuple(np.argsort(order).tolist())), out)
            return out

        return kernel

    return factory


def _softmax_ce(prim: Any, dev: AscendDevice) -> Any:
    def kernel(logits: DeviceArray, labels: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
        loss = dev.empty(logits.shape[:1], logits.dtype)
        backprop = dev.empty(logits.shape, logits.dtype)
        dev.aclnn("SoftmaxCrossEntropyWithLogits", logits, labels, loss, backprop)
        return loss, backprop

    return kernel


def _sparse_softmax_ce(prim: Any, dev: AscendDevice) -> Any:
    """Mean loss: LogSoftmax then NLLLoss (mean). Gradient: (softmax - one_hot(labels)) / N."""
    is_grad = prim.is_grad

    def kernel(logits: DeviceArray, labels: DeviceArray) -> DeviceArray:
        n, classes = logits.shape
        dtype = logits.dtype
        if is_grad:
            probabilities = dev.empty(logits.shape, dtype)
            dev.aclnn("Softmax", logits, 1, probabilities)
            hot = dev.empty(logits.shape, dtype)
            dev.aclnn("OneHot", labels, classes, dev.constant(1, dtype), dev.constant(0, dtype),
                      1, hot)
            difference = dev.empty(logits.shape, dtype)
            dev.aclnn("Sub", probabilities, hot, Scalar(1, dtype), difference)
            grad = dev.empty(logits.shape, dtype)
            dev.aclnn("Mul", difference, dev.constant(1 / max(n, 1), dtype), grad)
            return grad
        logp = dev.empty(logits.shape, dtype)
        dev.aclnn("LogSoftmax", logits, 1, logp)
        loss, total = dev.empty((), dtype), dev.empty((), dtype)
        ones = dev.constant(np.ones(classes, dtype), dtype)
        dev.aclnn("NLLLoss", logp, labels, ones, 1, -100, loss, total)
        return loss

    return kernel


def _bias_add(prim: Any, dev: AscendDevice) -> Any:
    last = prim.data_format == "NHWC"

    def kernel(x: DeviceArray, bias: DeviceArray) -> DeviceArray:
        shape = bias.shape if last else (bias.shape[0], *(1,) * (x.ndim - 2))
        out = dev.empty(x.shape, x.dtype)
        dev.aclnn("Add", x, view(bias, shape), Scalar(1, x.dtype), out)
        return out

    return kernel


def _bias_add_grad(prim: Any, dev: AscendDevice) -> Any:
    def kernel(dout: DeviceArray) -> DeviceArray:
        axes = tuple(prim.axes(dout.ndim))
        out = dev.empty(tuple(d for i, d in enumerate(dout.shape) if i not in axes), dout.dtype)
        dev.aclnn("ReduceSum", dout, IntArray(axes), False, DType(dout.dtype), out)
        return out

    return kernel


def _pads(prim: Any, spatial: tuple[int, ...]) -> tuple[tuple[int, ...], Any]:
    """The padding aclnn applies on both sides of each spatial axis, and the padding
    (before, after of each axis) to apply to the input first where the sides differ (None
    where they do not): aclnn pads both sides alike."""
    pads, _ = prim.geometry(spatial)
    before, after = tuple(pads[0::2]), tuple(pads[1::2])
    return (before, None) if before == after else ((0,) * len(before), tuple(pads))


def _padded(dev: AscendDevice, x: DeviceArray, pads: Any, fill: float = 0) -> DeviceArray:
    """``x`` (N, C, *spatial) with ``pads`` (before, after of each axis) of ``fill`` around
    it."""
    grown = tuple(d + lo + hi for d, lo, hi in zip(x.shape[2:], pads[0::2], pads[1::2]))
    return placed(dev, x, (*x.shape[:2], *grown), (0, 0, *pads[0::2]), fill)


def _cropped(dev: AscendDevice, grad: DeviceArray, pads: Any,
             spatial: tuple[int, ...]) -> DeviceArray:
    """The gradient of a padded input cut back to the input's spatial shape."""
    strides = contiguous_strides(grad.shape)
    out = dev.empty((*grad.shape[:2], *spatial), grad.dtype)
    if out.size:
        offset = sum(lo * st for lo, st in zip(pads[0::2], strides[2:]))
        dev.aclnn("InplaceCopy", out, View(grad, out.shape, strides, offset))
    return out


def _image(a: DeviceArray) -> Any:
    """``a`` as an NCHW image, or NCDHW with three spatial axes."""
    return view(a, fmt=FORMAT_NCHW if a.ndim == 4 else FORMAT_NCDHW)


def _conv(prim: Any, dev: AscendDevice) -> Any:
    """Conv2D and Conv3D by aclnnConvolution; Conv2D by aclop on the first-generation 910."""
    def kernel(x: DeviceArray, w: DeviceArray) -> DeviceArray:
        pads, out_spatial = prim.geometry(x.shape[2:])
        out = dev.empty((x.shape[0], prim.out_channel, *out_spatial), x.dtype)
        if first_generation(dev.soc) and x.ndim == 4:
            dev.aclop("Conv2D", [x, w], [out], {
                "strides": (1, 1, *prim.stride[2:]), "pads": tuple(pads),
                "dilations": (1, 1, *prim.dilation[2:]), "groups": prim.group,
                "data_format": "NCHW"})
            return out
        padding, explicit = _pads(prim, x.shape[2:])
        if explicit:
            x = _padded(dev, x, explicit)
        dev.aclnn("Convolution", _image(x), _image(w), None, IntArray(prim.stride[2:]),
                  IntArray(padding), IntArray(prim.dilation[2:]), False,
                  IntArray((0,) * len(padding)), prim.group, _image(out), dev.cube)
        return out

    return kernel


def _conv_backward(prim: Any, dev: AscendDevice, dout: DeviceArray, x: DeviceArray,
                   w: DeviceArray, wanted: int) -> DeviceArray:
    """One gradient of a convolution (0: input, 1: weight) by aclnnConvolutionBackward; with
    unequal sides, of the explicitly padded input (the input's gradient then cut back)."""
    padding, explicit = _pads(prim, x.shape[2:])
    source = _padded(dev, x, explicit) if explicit else x
    grad = dev.empty(source.shape if wanted == 0 else w.shape, dout.dtype)
    outs: list[Any] = [None, None, None]
    outs[wanted] = _image(grad)
    dev.aclnn("ConvolutionBackward", _image(dout), _image(source), _image(w), IntArray((0,)),
              IntArray(prim.stride[2:]), IntArray(padding), IntArray(prim.dilation[2:]), False,
              IntArray((0,) * len(padding)), prim.group,
              BoolArray(tuple(i == wanted for i in range(3))), dev.cube, *outs)
    return _cropped(dev, grad, explicit, x.shape[2:]) if explicit and wanted == 0 else grad


def _conv_backprop_input(prim: Any, dev: AscendDevice) -> Any:
    def kernel(dout: DeviceArray, w: DeviceArray, input_size: tuple[int, ...]) -> DeviceArray:
        x = dev.zero(dev.empty(tuple(input_size), dout.dtype))  # the operator reads its shape
        return _conv_backward(prim, dev, dout, x, w, 0)

    return kernel


def _conv_backprop_filter(prim: Any, dev: AscendDevice) -> Any:
    def kernel(dout: DeviceArray, x: DeviceArray, filter_size: tuple[int, ...]) -> DeviceArray:
        w = dev.empty(tuple(filter_size), dout.dtype)
        return _conv_backward(prim, dev, dout, x, w, 1)

    return kernel


def _swapped(factory: Any) -> Any:
    """A backprop kernel taking the 3-D primitives' order: (weight or x, dout, size)."""
    def make(prim: Any, dev: AscendDevice) -> Any:
        kernel = factory(prim, dev)
        return lambda a, dout, size: kernel(dout, a, size)

    return make


def _window(prim: Any, padding: tuple[int, ...]) -> tuple[Any, ...]:
    return (IntArray(prim.kernel_size[2:]), IntArray(prim.strides[2:]), IntArray(padding),
            IntArray((1,) * len(padding)), False)


def _pool_pads(prim: Any, spatial: tuple[int, ...]) -> tuple[tuple[int, ...], Any]:
    """:func:`_pads` for a pool, the padding applied explicitly also where it passes half the
    window (aclnn's pools take at most kernelSize/2)."""
    padding, explicit = _pads(prim, spatial)
    if explicit is None and any(p > k // 2 for p, k in zip(padding, prim.kernel_size[2:])):
        return (0,) * len(padding), tuple(prim.geometry(spatial)[0])
    return padding, explicit


def _pooled(a: DeviceArray) -> Any:
    """``a`` as a pool's operand: NCHW for the 2-D pools, ND for the 3-D ones."""
    return _image(a) if a.ndim == 4 else a


def mask_shape(x_shape: tuple[int, ...], kernel_hw: tuple[int, int],
               out_hw: tuple[int, int]) -> tuple[int, int, int, int]:
    """The INT8 mask of aclnnMaxPool2dWithMask: [N, C, kh*kw, (ceil(Ho*Wo/16)+1)*32]."""
    n, c = x_shape[:2]
    cells = out_hw[0] * out_hw[1]
    return n, c, kernel_hw[0] * kernel_hw[1], (-(-cells // 16) + 1) * 32


def _max_pool_indexed(prim: Any, dev: AscendDevice, x: DeviceArray) -> tuple[Any, ...]:
    """(out, where the maxima are, window, the input pooled): 2-D by aclnnMaxPool2dWithMask
    (its INT8 mask), 3-D by aclnnMaxPool3dWithArgmax (int32 indices); x padded with -inf
    first where aclnn cannot pad it."""
    _, out_spatial = prim.geometry(x.shape[2:])
    padding, explicit = _pool_pads(prim, x.shape[2:])
    if explicit:
        x = _padded(dev, x, explicit, -np.inf)
    window = _window(prim, padding)
    out = dev.empty((*x.shape[:2], *out_spatial), x.dtype)
    if x.ndim == 4:
        op, where = "MaxPool2dWithMask", dev.empty(
            mask_shape(x.shape, prim.kernel_size[2:], out_spatial), np.int8)
    else:
        op, where = "MaxPool3dWithArgmax", dev.empty(out.shape, np.int32)
    dev.aclnn(op, _pooled(x), *window, _pooled(out), where)
    return out, where, window, x


def _avg_pool_of(dev: AscendDevice, prim: Any, x: DeviceArray) -> tuple[Any, ...]:
    """(window, the input pooled, output spatial shape, what to divide the pooled means by or
    None, the padding applied to x or None). aclnn's average pools (ceilMode,
    countIncludePad and divisorOverride off) divide by a window's elements inside what they
    pool. Where the primitive divides by its elements inside x (AvgPool; AvgPool3D without
    count_include_pad or divisor_override), aclnn pads x itself where it can; otherwise x is
    padded explicitly (zeros, ceil_mode's extra windows included), aclnn divides by the whole
    window, and the means are divided again by the primitive's ``divisor()`` over the
    window's size."""
    spatial = x.shape[2:]
    pads, out_spatial = prim.geometry(spatial)
    inside = not getattr(prim, "count_include_pad", False) and not getattr(
        prim, "divisor_override", 0)
    if inside:
        padding, explicit = _pool_pads(prim, spatial)
    else:
        padding, explicit = (0,) * len(spatial), tuple(pads) if any(pads) else None
    window = (*_window(prim, padding)[:3], False, False, 0)
    source = _padded(dev, x, explicit) if explicit else x
    if inside and not explicit:
        return window, source, out_spatial, None, explicit
    scale = prim.divisor(spatial) / np.prod(prim.kernel_size[2:])
    divide = None if np.all(scale == 1) else dev.constant(scale[None, None], x.dtype)
    return window, source, out_spatial, divide, explicit


def _cube(dev: AscendDevice, x: DeviceArray) -> tuple[Any, ...]:
    """The cubeMathType argument aclnnAvgPool2d(Backward) takes (the 3-D ones take none)."""
    return (dev.cube,) if x.ndim == 4 else ()


def _average(dev: AscendDevice, window: tuple[Any, ...], x: DeviceArray,
             out_spatial: tuple[int, ...]) -> DeviceArray:
    out = dev.empty((*x.shape[:2], *out_spatial), x.dtype)
    dev.aclnn(f"AvgPool{x.ndim - 2}d", _pooled(x), *window, *_cube(dev, x), _pooled(out))
    return out


def _avg_pool(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> DeviceArray:
        window, source, out_spatial, divide, _ = _avg_pool_of(dev, prim, x)
        out = _average(dev, window, source, out_spatial)
        if divide is None:
            return out
        ratio = dev.empty(out.shape, out.dtype)
        dev.aclnn("Div", out, divide, ratio)
        return ratio

    return kernel


def _avg_pool_grad(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, y: DeviceArray, dout: DeviceArray) -> DeviceArray:
        window, source, _, divide, explicit = _avg_pool_of(dev, prim, x)
        if divide is not None:
            scaled = dev.empty(dout.shape, dout.dtype)
            dev.aclnn("Div", dout, divide, scaled)
            dout = scaled
        grad = dev.empty(source.shape, dout.dtype)
        dev.aclnn(f"AvgPool{x.ndim - 2}dBackward", _pooled(dout), _pooled(source), *window,
                  *_cube(dev, x), _pooled(grad))
        return grad if source is x else _cropped(dev, grad, explicit, x.shape[2:])

    return kernel


def _max_pool(prim: Any, dev: AscendDevice) -> Any:
    return lambda x: _max_pool_indexed(prim, dev, x)[0]


def _max_pool_grad(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, y: DeviceArray, dout: DeviceArray) -> DeviceArray:
        _, where, window, source = _max_pool_indexed(prim, dev, x)
        grad = dev.empty(source.shape, dout.dtype)
        op = "MaxPool2dWithMaskBackward" if x.ndim == 4 else "MaxPool3dWithArgmaxBackward"
        dev.aclnn(op, _pooled(dout), _pooled(source), where, *window, _pooled(grad))
        return grad if source is x else _cropped(dev, grad, _pool_pads(prim, x.shape[2:])[1],
                                                 x.shape[2:])

    return kernel


KERNELS = {
    "ReLU": unary("Relu"),
    "ReluGrad": backward("ThresholdBackward", output_first=False, extra=_scalars(0)),
    "HSwish": unary("Hardswish"),
    "HSwishGrad": backward("HardswishBackward", output_first=False),
    "HSigmoid": unary("Hardsigmoid"),
    "HSigmoidGrad": backward("HardsigmoidBackward", output_first=False),
    "Softsign": unary("Softsign"),
    # MindSpore's Elu: alpha 1 (scale and input scale 1); Softplus: beta 1, and above the
    # threshold 20 x itself (equal to log(1 + exp(x)) in float32)
    "Elu": unary("Elu", extra=_scalars(1, 1, 1)),
    "SeLU": _scaled_elu,
    "CeLU": _scaled_elu,
    "Mish": _mish,
    "SoftShrink": _shrink,
    "HShrink": _shrink,
    "EluGrad": _elu_grad,
    "Softplus": unary("Softplus", extra=_scalars(1, 20)),
    "SoftplusGrad": backward("SoftplusBackward", output_first=False, extra=_scalars(1, 20)),
    "ReLU6": unary("Hardtanh", extra=_scalars(0, 6)),
    "ReLU6Grad": backward("HardtanhBackward", output_first=False, extra=_scalars(0, 6)),
    # MindSpore's GeLU is the tanh approximation: aclnnGeluV2 with approximate=1 (tanh)
    "GeLU": unary("GeluV2", extra=lambda dtype: (1,)),
    "GeLUGrad": _gelu_grad,
    "Sigmoid": unary("Sigmoid"),
    "SigmoidGrad": backward("SigmoidBackward", output_first=True),
    "Tanh": unary("Tanh"),
    "TanhGrad": backward("TanhBackward", output_first=True),
    "Softmax": _softmax("Softmax"),
    "LogSoftmax": _softmax("LogSoftmax"),
    "SoftmaxCrossEntropyWithLogits": _softmax_ce,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_softmax_ce,
    "BiasAdd": _bias_add,
    "BiasAddGrad": _bias_add_grad,
    "Conv2D": _conv,
    "Conv2DBackpropInput": _conv_backprop_input,
    "Conv2DTranspose": _conv_backprop_input,
    "Conv2DBackpropFilter": _conv_backprop_filter,
    "Conv3D": _conv,
    "Conv3DBackpropInput": _swapped(_conv_backprop_input),
    "Conv3DTranspose": lambda prim, dev: _swapped(_conv_backprop_input)(
        prim.as_backprop_input(), dev),
    "Conv3DBackpropFilter": _swapped(_conv_backprop_filter),
    "AvgPool": _avg_pool,
    "AvgPoolGrad": _avg_pool_grad,
    "MaxPool": _max_pool,
    "MaxPoolGrad": _max_pool_grad,
    "AvgPool3D": _avg_pool,
    "AvgPool3DGrad": _avg_pool_grad,
    "MaxPool3D": _max_pool,
    "MaxPool3DGrad": _max_pool_grad,
}
