"""Cases for the quantization primitives of ``ember.ops.operations._quant_ops``.

References are the formulas of MindSpore 1.6's GPU kernels in float64: a range nudged so
that 0 is a level, values clipped to it and rounded half up to a level; the batch-norm folds
per channel (axis 1). BatchNormFold updates its Parameters: its cases run it twice
(``twice``), the second call reading the statistics the first one wrote.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.ops.operations import _quant_ops as Q
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.array import sample
from ember.testing.cases.optim import twice

F32 = (np.float32,)
F64 = np.float64
STEP = np.int32


def _per(v: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    return v.reshape([-1 if i == axis else 1 for i in range(ndim)])


def _nudge(minimum: np.ndarray, maximum: np.ndarray, bits: int, narrow: bool,
           symmetric: bool) -> tuple:
    """A symmetric range's zero point is the middle level, rounded up."""
    lo, hi = minimum.astype(F64), maximum.astype(F64)
    if symmetric:
        hi = np.maximum(np.abs(lo), hi)
        lo = -hi
    q_min, q_max = float(narrow), 2.0 ** bits - 1
    scale = (hi - lo) / (q_max - q_min)
    zero = np.clip(np.floor(q_min - lo / np.where(scale == 0, 1, scale) + 0.5), q_min, q_max)
    if symmetric:
        zero = np.where(scale == 0, 0, np.floor((q_min + q_max) / 2 + 0.5))
    return (q_min - zero) * scale, (q_max - zero) * scale, scale


def _fake_quant(bits: int, narrow: bool, symmetric: bool, axis: int | None) -> Any:
    def reference(x: np.ndarray, minimum: np.ndarray, maximum: np.ndarray) -> np.ndarray:
        low, high, scale = _nudge(minimum, maximum, bits, narrow, symmetric)
        if axis is not None:
            low, high, scale = (_per(v, axis, x.ndim) for v in (low, high, scale))
        levels = np.floor((np.clip(x, low, high) - low) / np.where(scale == 0, 1, scale) + 0.5)
        return (levels * scale + low).astype(x.dtype)

    return reference


def _fake_quant_grad(bits: int, narrow: bool, symmetric: bool, axis: int | None) -> Any:
    def reference(dout: np.ndarray, x: np.ndarray, minimum: np.ndarray,
                  maximum: np.ndarray) -> np.ndarray:
        low, high, _ = _nudge(minimum, maximum, bits, narrow, symmetric)
        if axis is not None:
            low, high = _per(low, axis, x.ndim), _per(high, axis, x.ndim)
        return np.where((x < low) | (x > high), 0, dout).astype(dout.dtype)

    return reference


def _ranges(channels: int) -> Any:
    """x of shape (2, channels, 5) in [-3, 5); per-channel ranges around [-2, 4] (a range
    holding 0 or not, an empty range)."""

    def inputs(rng: np.random.Generator, dtype: type) -> tuple:
        x = rng.uniform(-3, 5, (2, channels, 5)).astype(dtype)
        lows = np.array([-2.0, 0.5, 1.0, -1.0][:channels], dtype)
        highs = np.array([4.0, 3.0, 1.0, -0.5][:channels], dtype)
        return x, lows, highs

    return inputs


def _layer_range(rng: np.random.Generator, dtype: type) -> tuple:
    return (rng.uniform(-3, 5, (2, 3, 4)).astype(dtype), np.array([-2.1], dtype),
            np.array([3.7], dtype))


def _with_dout(make: Any) -> Any:
    def inputs(rng: np.random.Generator, dtype: type) -> tuple:
        x, *ranges = make(rng, dtype)
        return (sample(rng, dtype, *x.shape), x, *ranges)

    return inputs


_LAYER = [("8bit", 8, False, False), ("narrow", 8, True, False), ("symmetric", 8, False, True),
          ("4bit", 4, False, False), ("7bit-narrow-symmetric", 7, True, True)]
_CHANNEL = [("8bit", 8, False, False), ("4bit-narrow", 4, True, False),
            ("symmetric", 8, False, True)]


def _fake_quant_cases() -> list[OpCase]:
    cases = []
    for label, bits, narrow, sym in _LAYER:
        attrs = {"num_bits": bits, "narrow_range": narrow, "symmetric": sym}
        cases += [
            OpCase(f"FakeQuantPerLayer/{label}", "FakeQuantPerLayer",
                   lambda a=attrs: Q.FakeQuantPerLayer(**a), _layer_range,
                   _fake_quant(bits, narrow, sym, None), F32),
            OpCase(f"FakeQuantPerLayerGrad/{label}", "FakeQuantPerLayerGrad",
                   lambda a=attrs: Q.FakeQuantPerLayerGrad(**a), _with_dout(_layer_range),
                   _fake_quant_grad(bits, narrow, sym, None), F32)]
    for label, bits, narrow, sym in _CHANNEL:
        attrs = {"num_bits": bits, "narrow_range": narrow, "symmetric": sym}
        cases += [
            OpCase(f"FakeQuantPerChannel/{label}", "FakeQuantPerChannel",
                   lambda a=attrs: Q.FakeQuantPerChannel(**a), _ranges(4),
                   _fake_quant(bits, narrow, sym, 1), F32),
            OpCase(f"FakeQuantPerChannelGrad/{label}", "FakeQuantPerChannelGrad",
                   lambda a=attrs: Q.FakeQuantPerChannelGrad(**a), _with_dout(_ranges(4)),
                   _fake_quant_grad(bits, narrow, sym, 1), F32)]
    cases.append(OpCase("FakeQuantPerChannel/axis0", "FakeQuantPerChannel",
                        lambda: Q.FakeQuantPerChannel(channel_axis=0),
                        lambda rng, dt: tuple(a.transpose(1, 0, 2) if a.ndim == 3 else a
                                              for a in _ranges(3)(rng, dt)),
                        _fake_quant(8, False, False, 0), F32))
    return cases


# -- min/max statistics ---------------------------------------------------------------------
def _min_max(ema: float | None, axis: int | None) -> Any:
    def reference(x: np.ndarray, minimum: np.ndarray, maximum: np.ndarray) -> tuple:
        axes = None if axis is None else tuple(i for i in range(x.ndim) if i != axis)
        lo, hi = np.min(x, axis=axes).astype(F64), np.max(x, axis=axes).astype(F64)
        if ema is not None:
            lo, hi = ema * minimum + (1 - ema) * lo, ema * maximum + (1 - ema) * hi
        lo, hi = np.minimum(lo, 0), np.maximum(hi, 0)
        return tuple(a.reshape(minimum.shape).astype(x.dtype) for a in (lo, hi))

    return reference


_MIN_MAX = [
    OpCase("MinMaxUpdatePerLayer/plain", "MinMaxUpdatePerLayer", Q.MinMaxUpdatePerLayer,
           _layer_range, _min_max(None, None), (np.float16, np.float32)),
    OpCase("MinMaxUpdatePerLayer/positive", "MinMaxUpdatePerLayer", Q.MinMaxUpdatePerLayer,
           lambda rng, dt: (rng.uniform(1, 2, (3, 4)).astype(dt), np.array([0.5], dt),
                            np.array([3.0], dt)), _min_max(None, None), F32),
    OpCase("MinMaxUpdatePerLayer/ema", "MinMaxUpdatePerLayer",
           lambda: Q.MinMaxUpdatePerLayer(ema=True, ema_decay=0.9), _layer_range,
           _min_max(0.9, None), F32),
    OpCase("MinMaxUpdatePerChannel/plain", "MinMaxUpdatePerChannel", Q.MinMaxUpdatePerChannel,
           _ranges(4), _min_max(None, 1), (np.float16, np.float32)),
    OpCase("MinMaxUpdatePerChannel/ema-axis0", "MinMaxUpdatePerChannel",
           lambda: Q.MinMaxUpdatePerChannel(ema=True, ema_decay=0.75, channel_axis=0),
           lambda rng, dt: (rng.uniform(-3, 5, (3, 4)).astype(dt),
                            np.array([-1.0, 0.0, 2.0], dt), np.array([1.0, 3.0, 4.0], dt)),
           _min_max(0.75, 0), F32),
]


# -- batch-norm folding ---------------------------------------------------------------------
def _stats(x: np.ndarray) -> tuple:
    axes = (0, *range(2, x.ndim))
    xw = x.astype(F64)
    return xw.mean(axis=axes), xw.var(axis=axes), xw.size // x.shape[1]


def _fold_inputs(step: int, ndim: int = 4) -> Any:
    def inputs(rng: np.random.Generator, dtype: type) -> tuple:
        shape = (3, 4, 2, 3)[:ndim]
        return (rng.uniform(-1, 3, shape).astype(dtype), rng.uniform(-1, 1, 4).astype(dtype),
                rng.uniform(0.5, 2, 4).astype(dtype), np.array([step], STEP))

    return inputs


def _batch_norm_fold(momentum: float, eps: float, folding: bool) -> Any:
    """The second of two calls: outputs of the batch, the statistics after one update."""

    def reference(x: np.ndarray, mean: np.ndarray, variance: np.ndarray, step: Any) -> tuple:
        mean, variance = mean.astype(F64), variance.astype(F64)
        batch_mean, batch_var, n = _stats(x)
        if folding:
            mean = momentum * mean + (1 - momentum) * batch_mean
            variance = momentum * variance + (1 - momentum) * batch_var * n / (n - 1)
            outs = (batch_mean, np.sqrt(batch_var + eps))
        else:
            outs = (np.zeros(4), np.ones(4))
        return tuple(a.astype(x.dtype) for a in (*outs, mean, np.sqrt(variance + eps)))

    return reference


def _batch_norm_fold_grad(folding: bool, eps: float) -> Any:
    def reference(d_mean: np.ndarray, d_std: np.ndarray, x: np.ndarray, *_: Any) -> np.ndarray:
        mean, var, n = _stats(x)
        std = np.sqrt(var + eps)  # the batch std BatchNormFold gives
        centered = x - _per(mean, 1, x.ndim)
        dx = (_per(d_mean, 1, x.ndim) + _per(d_std / std, 1, x.ndim) * centered) / n
        return (dx if folding else np.zeros_like(dx)).astype(x.dtype)

    return reference


def _fold_grad_inputs(step: int) -> Any:
    def inputs(rng: np.random.Generator, dtype: type) -> tuple:
        x = rng.uniform(-1, 3, (3, 4, 2, 3)).astype(dtype)
        mean, var, _ = _stats(x)
        return (sample(rng, dtype, 4), sample(rng, dtype, 4), x, mean.astype(dtype),
                np.sqrt(var + 1e-5).astype(dtype), np.array([step], STEP))

    return inputs


def _fold2_inputs(step: int, dout: bool = False) -> Any:
    def inputs(rng: np.random.Generator, dtype: type) -> tuple:
        x = sample(rng, dtype, 2, 3, 2, 2)
        vectors = [rng.uniform(0.5, 2, 3).astype(dtype) for _ in range(6)]
        if dout:  # dout, x, gamma, batch_std, batch_mean, running_std, running_mean
            return (sample(rng, dtype, *x.shape), x, *vectors[1:], np.array([step], STEP))
        return (x, *vectors, np.array([step], STEP))

    return inputs


def _fold2(freeze: int) -> Any:
    def reference(x: np.ndarray, beta: np.ndarray, gamma: np.ndarray, b_std: np.ndarray,
                  b_mean: np.ndarray, r_std: np.ndarray, r_mean: np.ndarray,
                  step: np.ndarray) -> np.ndarray:
        c = [a.astype(F64) for a in (beta, gamma, b_std, b_mean, r_std, r_mean)]
        beta, gamma, b_std, b_mean, r_std, r_mean = (_per(a, 1, x.ndim) for a in c)
        if step[0] >= freeze:
            y = x + beta - gamma * r_mean / r_std
        else:
            y = x * r_std / b_std + beta - gamma * b_mean / b_std
        return y.astype(x.dtype)

    return reference


def _fold2_grad(freeze: int) -> Any:
    def reference(dout: np.ndarray, x: np.ndarray, gamma: np.ndarray, b_std: np.ndarray,
                  b_mean: np.ndarray, r_std: np.ndarray, r_mean: np.ndarray,
                  step: np.ndarray) -> tuple:
        axes = (0, 2, 3)
        d_beta = dout.astype(F64).sum(axis=axes)
        if step[0] >= freeze:
            outs = (np.zeros(3), np.zeros(3), d_beta, -d_beta * r_mean / r_std, dout)
        else:
            d_std = (d_beta * gamma * b_mean - (dout * x).astype(F64).sum(axis=axes) * r_std)
            outs = (d_std / b_std ** 2, -d_beta * gamma / b_std, d_beta,
                    -d_beta * b_mean / b_std, dout * _per(r_std / b_std, 1, 4))
        return tuple(np.asarray(a).astype(dout.dtype) for a in outs)

    return reference


def _correction_inputs(rng: np.random.Generator, dtype: type) -> tuple:
    return (sample(rng, dtype, 3, 2, 4), rng.uniform(0.5, 2, 3).astype(dtype),
            rng.uniform(0.5, 2, 3).astype(dtype))


def _correction_mul(x: np.ndarray, batch_std: np.ndarray, running_std: np.ndarray) -> Any:
    return (x * _per(batch_std.astype(F64) / running_std, 0, x.ndim)).astype(x.dtype)


def _correction_mul_grad(dout: np.ndarray, x: np.ndarray, batch_std: np.ndarray,
                         running_std: np.ndarray) -> tuple:
    dx = dout * _per(batch_std.astype(F64) / running_std, 0, x.ndim)
    d_std = (dout.astype(F64) * x).sum(axis=(1, 2)) / running_std
    return dx.astype(x.dtype), d_std.astype(x.dtype)


HALF = {np.float16: (5e-3, 5e-3)}

_FOLD = [
    OpCase("BatchNormFold/folding", "BatchNormFold",
           lambda: twice(Q.BatchNormFold(momentum=0.9, freeze_bn=10), (1, 2)), _fold_inputs(3),
           _batch_norm_fold(0.9, 1e-5, True), (np.float32, np.float64)),
    OpCase("BatchNormFold/frozen", "BatchNormFold",
           lambda: twice(Q.BatchNormFold(momentum=0.5, epsilon=1e-3, freeze_bn=2), (1, 2)),
           _fold_inputs(2), _batch_norm_fold(0.5, 1e-3, False), (np.float32, np.float64)),
    OpCase("BatchNormFold/inference-2d", "BatchNormFold",
           lambda: Q.BatchNormFold(is_training=False), _fold_inputs(0, ndim=2),
           _batch_norm_fold(0.9, 1e-5, False), FLOATS, tolerance=HALF),
    OpCase("BatchNormFoldGrad/folding", "BatchNormFoldGrad",
           lambda: Q.BatchNormFoldGrad(freeze_bn=5), _fold_grad_inputs(4),
           _batch_norm_fold_grad(True, 1e-5), (np.float32, np.float64)),
    OpCase("BatchNormFoldGrad/frozen", "BatchNormFoldGrad",
           lambda: Q.BatchNormFoldGrad(freeze_bn=5), _fold_grad_inputs(5),
           _batch_norm_fold_grad(False, 1e-5), (np.float32, np.float64)),
    *(OpCase(f"BatchNormFold2/{label}", "BatchNormFold2", lambda: Q.BatchNormFold2(freeze_bn=3),
             _fold2_inputs(step), _fold2(3), FLOATS, (0, 1, 2, 3, 4), HALF)
      for label, step in (("folding", 2), ("frozen", 3))),
    *(OpCase(f"BatchNormFold2Grad/{label}", "BatchNormFold2Grad",
             lambda: Q.BatchNormFold2Grad(freeze_bn=3), _fold2_inputs(step, dout=True),
             _fold2_grad(3), (np.float32, np.float64))
      for label, step in (("folding", 0), ("frozen", 7))),
    OpCase("CorrectionMul/axis0", "CorrectionMul", Q.CorrectionMul, _correction_inputs,
           _correction_mul, FLOATS, (0, 1), HALF),
    OpCase("CorrectionMulGrad/axis0", "CorrectionMulGrad", Q.CorrectionMulGrad,
           lambda rng, dt: (sample(rng, dt, 3, 2, 4), *_correction_inputs(rng, dt)),
           _correction_mul_grad, (np.float32, np.float64)),
    OpCase("CorrectionMulGradReduce/axis1", "CorrectionMulGradReduce",
           lambda: Q.CorrectionMulGradReduce(channel_axis=1),
           lambda rng, dt: (sample(rng, dt, 2, 3, 4),),
           lambda m: m.astype(F64).sum(axis=(0, 2)).astype(m.dtype), (np.float32, np.float64)),
]

CASES: list[OpCase] = [*_fake_quant_cases(), *_MIN_MAX, *_FOLD]
