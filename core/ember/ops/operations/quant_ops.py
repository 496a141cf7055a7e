"""Quantization-aware training primitives of MindSpore 1.6's ``_quant_ops``: fake quantization
per layer and per channel, the gradients its backward rules use, and the min/max statistics
it quantizes with. (The batch-norm folding primitives live in ``fold_ops``.)

The formulas are those of 1.6's GPU kernels: the range [min, max] is nudged so that 0 is
exactly representable, values are clipped to the nudged range and rounded to one of
``2 ** num_bits`` levels (from 1 with ``narrow_range``); ``symmetric`` first widens the range
to [-m, m], m = max(|min|, max). Each primitive writes its formula once with an array
namespace ``xp`` (NumPy or TensorFlow's), which the backends' kernels call.
"""

from __future__ import annotations

from typing import Any

from ember._autodiff import needs_grad
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.nn_ops import _check_bool, _check_fraction, _check_int
from ember.ops.primitive import Primitive, Spec

__all__ = ["FakeQuantPerChannel", "FakeQuantPerChannelGrad", "FakeQuantPerLayer",
           "FakeQuantPerLayerGrad", "MinMaxUpdatePerChannel", "MinMaxUpdatePerLayer"]

_QUANT_FLOAT = (mstype.float16, mstype.float32)
_BITS = (4, 7, 8)


def _check_floats(op: str, names: tuple[str, ...], inputs: tuple) -> None:
    for name, value in zip(names, inputs, strict=True):
        check_tensor(op, name, value, _QUANT_FLOAT)


def _check_range(op: str, x: Tensor, minimum: Tensor, maximum: Tensor,
                 axis: int | None) -> None:
    """``min`` and ``max`` are of one shape, rank 1; per channel (``axis`` not None) of the
    size of x's channel axis."""
    if minimum.shape != maximum.shape:
        raise ValueError(f"{op}: 'min' and 'max' must have one shape, but got "
                         f"{list(minimum.shape)} and {list(maximum.shape)}")
    if minimum.ndim != 1:
        raise ValueError(f"{op}: 'min' must have rank 1, but got shape {list(minimum.shape)}")
    if axis is not None and minimum.shape[0] != x.shape[axis]:
        raise ValueError(f"{op}: 'min' must have {x.shape[axis]} values (x's channel axis "
                         f"{axis}, of x of shape {list(x.shape)}), but got {minimum.shape[0]}")


def _channel_axis(op: str, channel_axis: int, x: Tensor) -> int:
    """The channel axis of ``x``: 0 for a vector, as MindSpore's rule."""
    if x.ndim == 1:
        return 0
    if channel_axis >= x.ndim:
        raise ValueError(f"{op}: 'channel_axis' must be less than x's rank {x.ndim}, but got "
                         f"{channel_axis}")
    return channel_axis


def along(xp: Any, v: Any, axis: int, ndim: int) -> Any:
    """The vector ``v`` shaped to broadcast along ``axis`` of an array of rank ``ndim``."""
    return xp.reshape(v, [-1 if i == axis else 1 for i in range(ndim)])


def _check_ema(op: str, ema: Any, ema_decay: Any) -> tuple[bool, float]:
    ema = _check_bool(op, "ema", ema)
    if ema and not ema_decay:
        raise ValueError(f"{op}: 'ema' needs a non-zero 'ema_decay', but got {ema_decay!r}")
    return ema, _check_fraction(op, "ema_decay", ema_decay, zero_ok=True)


# -- min/max statistics ---------------------------------------------------------------------
class _MinMaxUpdate(Primitive):
    def __init__(self, ema: bool = False, ema_decay: float = 0.999) -> None:
        super().__init__()
        self.ema, self.ema_decay = _check_ema(self.name, ema, ema_decay)

    def infer(self, x: Any, minimum: Any, maximum: Any) -> list[Spec]:
        _check_floats(self.name, ("x", "min", "max"), (x, minimum, maximum))
        _check_range(self.name, x, minimum, maximum, self.axis(x))
        return [(minimum.shape, minimum.dtype), (maximum.shape, maximum.dtype)]

    def axis(self, x: Tensor) -> int | None:
        return None

    def update(self, xp: Any, x_min: Any, x_max: Any, minimum: Any, maximum: Any) -> tuple:
        """(min, max) from the batch's extremes: with ``ema``, ``ema_decay * old + (1 -
        ema_decay) * batch``; then min at most 0 and max at least 0."""
        if self.ema:
            d = self.ema_decay
            x_min, x_max = d * minimum + (1 - d) * x_min, d * maximum + (1 - d) * x_max
        return xp.minimum(x_min, 0 * x_min), xp.maximum(x_max, 0 * x_max)

    def bprop(self, x: Tensor, minimum: Tensor, maximum: Tensor, out: tuple,
              dout: tuple) -> tuple:
        return tuple(F.zeros_like(t) if needs_grad(t) else None for t in (x, minimum, maximum))


class MinMaxUpdatePerLayer(_MinMaxUpdate):
    """The range of ``x`` as (min, max) of shape (1,), optionally an exponential moving
    average with the previous range: ``MinMaxUpdatePerLayer(ema=False, ema_decay=0.999)(x,
    min, max)``; the range always holds 0."""

    def forward(self, xp: Any, x: Any, minimum: Any, maximum: Any) -> tuple:
        x_min = xp.reshape(xp.min(x), [1])
        return self.update(xp, x_min, xp.reshape(xp.max(x), [1]), minimum, maximum)


class MinMaxUpdatePerChannel(_MinMaxUpdate):
    """MinMaxUpdatePerLayer for each index of ``x``'s ``channel_axis``:
    ``MinMaxUpdatePerChannel(ema=False, ema_decay=0.999, channel_axis=1)(x, min, max)``."""

    def __init__(self, ema: bool = False, ema_decay: float = 0.999,
                 channel_axis: int = 1) -> None:
        super().__init__(ema, ema_decay)
        self.channel_axis = _check_int(self.name, "channel_axis", channel_axis, 0)

    def axis(self, x: Tensor) -> int:
        return _channel_axis(self.name, self.channel_axis, x)

    def forward(self, xp: Any, x: Any, minimum: Any, maximum: Any) -> tuple:
        axis = 0 if len(x.shape) == 1 else self.channel_axis
        others = tuple(i for i in range(len(x.shape)) if i != axis)
        return self.update(xp, xp.min(x, axis=others), xp.max(x, axis=others), minimum,
                           maximum)


# -- fake quantization ----------------------------------------------------------------------
class _FakeQuant(Primitive):
    """The attributes and formulas the fake quantizers and their gradients share."""

    per_channel = False

    def __init__(self, num_bits: int = 8, quant_delay: int = 0, symmetric: bool = False,
                 narrow_range: bool = False) -> None:
        super().__init__()
        op = self.name
        if _check_int(op, "num_bits", num_bits, 1) not in _BITS:
            raise ValueError(f"{op}: 'num_bits' must be one of {list(_BITS)}, but got "
                             f"{num_bits}")
        self.num_bits = num_bits
        self.quant_delay = _check_int(op, "quant_delay", quant_delay, 0)
        self.symmetric = _check_bool(op, "symmetric", symmetric)
        self.narrow_range = _check_bool(op, "narrow_range", narrow_range)

    def axis(self, x: Tensor) -> int | None:
        return _channel_axis(self.name, self.channel_axis, x) if self.per_channel else None

    def nudge(self, xp: Any, ndim: int, minimum: Any, maximum: Any) -> tuple:
        """(nudged min, nudged max, scale), shaped to broadcast against x of rank ``ndim``:
        ``scale = (max - min) / (quant_max - quant_min)`` (0 for an empty range), the zero
        point ``quant_min - min / scale`` rounded into [quant_min, quant_max] (of a symmetric
        range, the middle level rounded up)."""
        if self.per_channel:
            axis = 0 if ndim == 1 else self.channel_axis
            minimum, maximum = along(xp, minimum, axis, ndim), along(xp, maximum, axis, ndim)
        q_min, q_max = float(self.narrow_range), float(2 ** self.num_bits - 1)
        if self.symmetric:  # the middle level, exactly (in floats, a tie rounded either way)
            maximum = xp.maximum(xp.abs(minimum), maximum)
            minimum = -maximum
            zero_point = (q_min + q_max + 1) // 2 + 0 * maximum
        span = maximum - minimum
        empty = span == 0
        scale = span / (q_max - q_min)
        if not self.symmetric:
            zero_point = q_min - minimum / xp.where(empty, 1 + 0 * span, scale)
            zero_point = xp.clip(xp.floor(zero_point + 0.5), q_min, q_max)
        zero_point = xp.where(empty, 0 * span, zero_point)
        return (q_min - zero_point) * scale, (q_max - zero_point) * scale, scale

    def quantize(self, xp: Any, x: Any, minimum: Any, maximum: Any) -> Any:
        """``x`` clipped to the nudged range and rounded to its nearest level."""
        low, high, scale = self.nudge(xp, len(x.shape), minimum, maximum)
        steps = (xp.clip(x, low, high) - low) / xp.where(scale == 0, 1 + 0 * scale, scale)
        return xp.floor(steps + 0.5) * scale + low

    def pass_through(self, xp: Any, dout: Any, x: Any, minimum: Any, maximum: Any) -> Any:
        """``dout`` where ``x`` lies in the nudged range, else 0 (the straight-through
        estimator)."""
        low, high, _ = self.nudge(xp, len(x.shape), minimum, maximum)
        return xp.where((x < low) | (x > high), 0 * dout, dout)


class _FakeQuantForward(_FakeQuant):
    def __init__(self, num_bits: int = 8, ema: bool = False, ema_decay: float = 0.999,
                 quant_delay: int = 0, symmetric: bool = False, narrow_range: bool = False,
                 training: bool = True) -> None:
        super().__init__(num_bits, quant_delay, symmetric, narrow_range)
        self.ema, self.ema_decay = _check_ema(self.name, ema, ema_decay)
        self.training = _check_bool(self.name, "training", training)

    def infer(self, x: Any, minimum: Any, maximum: Any) -> Spec:
        _check_floats(self.name, ("x", "min", "max"), (x, minimum, maximum))
        if x.ndim < 1:
            raise ValueError(f"{self.name}: 'x' must have rank >= 1, but got a scalar")
        _check_range(self.name, x, minimum, maximum, self.axis(x))
        return x.shape, x.dtype

    def bprop(self, x: Tensor, minimum: Tensor, maximum: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        dx = self._derived(self.gradient, *self.gradient_attrs())(dout, x, minimum, maximum)
        return (dx, *(F.zeros_like(t) if needs_grad(t) else None for t in (minimum, maximum)))


class _FakeQuantGrad(_FakeQuant):
    def infer(self, dout: Any, x: Any, minimum: Any, maximum: Any) -> Spec:
        _check_floats(self.name, ("dout", "x", "min", "max"), (dout, x, minimum, maximum))
        if dout.shape != x.shape:
            raise ValueError(f"{self.name}: 'dout' must have the shape of 'x' "
                             f"{list(x.shape)}, but got {list(dout.shape)}")
        _check_range(self.name, x, minimum, maximum, self.axis(x))
        return dout.shape, dout.dtype


class FakeQuantPerLayerGrad(_FakeQuantGrad):
    """The gradient of FakeQuantPerLayer: ``FakeQuantPerLayerGrad(num_bits=8, quant_delay=0,
    symmetric=False, narrow_range=False)(dout, x, min, max)`` is ``dout`` where ``x`` lies
    in the nudged range and 0 elsewhere; ``dout`` itself for the first ``quant_delay``
    calls."""


class FakeQuantPerLayer(_FakeQuantForward):
    """Quantize and dequantize ``x`` with one range: ``FakeQuantPerLayer(num_bits=8,
    ema=False, ema_decay=0.999, quant_delay=0, symmetric=False, narrow_range=False,
    training=True)(x, min, max)``, ``min`` and ``max`` of shape (1,). In training, the first
    ``quant_delay`` calls return ``x`` unchanged. ``num_bits`` is 4, 7 or 8."""

    gradient = FakeQuantPerLayerGrad

    def gradient_attrs(self) -> tuple:
        return self.num_bits, self.quant_delay, self.symmetric, self.narrow_range


class FakeQuantPerChannelGrad(_FakeQuantGrad):
    """The gradient of FakeQuantPerChannel: ``FakeQuantPerChannelGrad(num_bits=8,
    quant_delay=0, symmetric=False, narrow_range=False, channel_axis=1)(dout, x, min,
    max)``, as FakeQuantPerLayerGrad with one range per index of ``channel_axis``."""

    per_channel = True

    def __init__(self, num_bits: int = 8, quant_delay: int = 0, symmetric: bool = False,
                 narrow_range: bool = False, channel_axis: int = 1) -> None:
        super().__init__(num_bits, quant_delay, symmetric, narrow_range)
        self.channel_axis = _check_int(self.name, "channel_axis", channel_axis, 0)


class FakeQuantPerChannel(_FakeQuantForward):
    """FakeQuantPerLayer with one range per index of ``x``'s ``channel_axis`` (axis 0 of a
    vector): ``FakeQuantPerChannel(num_bits=8, ema=False, ema_decay=0.999, quant_delay=0,
    symmetric=False, narrow_range=False, training=True, channel_axis=1)(x, min, max)``."""

    per_channel = True
    gradient = FakeQuantPerChannelGrad

    def __init__(self, num_bits: int = 8, ema: bool = False, ema_decay: float = 0.999,
                 quant_delay: int = 0, symmetric: bool = False, narrow_range: bool = False,
                 training: bool = True, channel_axis: int = 1) -> None:
        super().__init__(num_bits, ema, ema_decay, quant_delay, symmetric, narrow_range,
                         training)
        self.channel_axis = _check_int(self.name, "channel_axis", channel_axis, 0)

    def gradient_attrs(self) -> tuple:
        return (self.num_bits, self.quant_delay, self.symmetric, self.narrow_range,
                self.channel_axis)
