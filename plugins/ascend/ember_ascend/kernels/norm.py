"""Batch normalization on aclnnBatchNorm and aclnnBatchNormBackward.

Both compute in the wider of x's and the scale's dtype (x is cast, as for float16 inputs with
float32 statistics). MindSpore's BatchNorm also returns the batch variance, unbiased, and keeps
the biased one for the gradient: aclnn saves 1/sqrt(var + eps) instead, so the variance is
computed from the saved mean (aclnnSub, aclnnSquare, aclnnMean).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, BoolArray, DeviceArray, DType, IntArray, Scalar, view


def _as(dev: AscendDevice, x: DeviceArray, dtype: np.dtype) -> DeviceArray:
    if x.dtype == dtype:
        return x
    out = dev.empty(x.shape, dtype)
    dev.aclnn("Cast", x, DType(dtype), out)
    return out


def _column(x: DeviceArray) -> tuple[int, ...]:
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _copy(dev: AscendDevice, x: DeviceArray, dtype: np.dtype) -> DeviceArray:
    out = _as(dev, x, dtype)
    if out is x:
        out = dev.empty(x.shape, x.dtype)
        dev.copy(out, x)
    return out


def _batch_norm(prim: Any, dev: AscendDevice) -> Any:
    eps, training = float(prim.epsilon), prim.is_training

    def kernel(x: DeviceArray, scale: DeviceArray, bias: DeviceArray, mean: DeviceArray,
               variance: DeviceArray) -> tuple[DeviceArray, ...]:
        at, stats = np.result_type(x.dtype, scale.dtype), scale.dtype
        xs, y = _as(dev, x, at), dev.empty(x.shape, at)
        saved_mean, invstd = dev.empty(scale.shape, at), dev.empty(scale.shape, at)
        weights = [_as(dev, a, at) for a in (scale, bias)]
        if not training:
            dev.aclnn("BatchNorm", xs, *weights, _as(dev, mean, at), _as(dev, variance, at),
                      False, 0.0, eps, y, saved_mean, invstd)
            moments = [_copy(dev, a, stats) for a in (mean, variance)]
            return _as(dev, y, x.dtype), *moments, *(_copy(dev, a, stats) for a in moments)
        dev.aclnn("BatchNorm", xs, *weights, None, None, True, 0.0, eps, y, saved_mean, invstd)
        centred, squares = dev.empty(x.shape, at), dev.empty(x.shape, at)
        dev.aclnn("Sub", xs, view(saved_mean, _column(x)), Scalar(1, at), centred)
        dev.aclnn("Square", centred, squares)
        biased = dev.empty(scale.shape, at)
        axes = (0, *range(2, x.ndim))
        dev.aclnn("Mean", squares, IntArray(axes), False, DType(at), biased)
        n = x.size // max(x.shape[1], 1)
        unbiased = dev.empty(scale.shape, at)
        dev.aclnn("Mul", biased, dev.constant(n / max(n - 1, 1), at), unbiased)
        batch_mean = _as(dev, saved_mean, stats)
        return (_as(dev, y, x.dtype), batch_mean, _as(dev, unbiased, stats),
                _copy(dev, batch_mean, stats), _as(dev, biased, stats))

    return kernel


def _batch_norm_grad(prim: Any, dev: AscendDevice) -> Any:
    """From the batch's mean and 1/sqrt(var + eps) in training, else the running statistics."""
    eps, training = float(prim.epsilon), prim.is_training

    def kernel(dy: DeviceArray, x: DeviceArray, scale: DeviceArray, mean: DeviceArray,
               variance: DeviceArray) -> tuple[DeviceArray, ...]:
        at = np.result_type(x.dtype, scale.dtype)
        dy, xs, scale_at, mean_at, var_at = (_as(dev, a, at)
                                             for a in (dy, x, scale, mean, variance))
        grads = dev.empty(x.shape, at), dev.empty(scale.shape, at), dev.empty(scale.shape, at)
        if training:
            shifted, invstd = dev.empty(scale.shape, at), dev.empty(scale.shape, at)
            dev.aclnn("Add", var_at, dev.constant(eps, at), Scalar(1, at), shifted)
            dev.aclnn("Rsqrt", shifted, invstd)
            statistics = (None, None, mean_at, invstd)
        else:
            statistics = (mean_at, var_at, None, None)
        dev.aclnn("BatchNormBackward", dy, xs, scale_at, *statistics, training, eps,
                  BoolArray((True, True, True)), *grads)
        return (_as(dev, grads[0], x.dtype), *(_as(dev, g, scale.dtype) for g in grads[1:]))

    return kernel


KERNELS = {
    "BatchNorm": _batch_norm,
    "BatchNormGrad": _batch_norm_grad,
}
