"""Cases for the neural-network primitives of ``ember.ops.operations.nn_ops``.

References compute in float64 and return the primitive's dtype. Convolutions and pools are
direct loops over output pixels and windows, written from the definitions (cross-correlation;
MindSpore's 'valid', 'same' and 'pad' geometry), not from the CPU backend's im2col kernels.

Dropout is checked with ``keep_prob=1.0`` only: any other value draws a random mask, which a
fixed reference cannot predict (its statistics are tested in ``tests/ops/test_nn_ops.py``).
Primitives with several outputs whose backward rule reads only some of them (BatchNorm,
SoftmaxCrossEntropyWithLogits) have their gradients checked through a case that returns the
output that carries them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import nn_ops
from ember.testing.cases import FLOATS, INTS, OpCase
from ember.testing.cases.array import NUMBERS, index, sample

F64 = np.float64
HALF_LOOSE = {np.float16: (1e-2, 1e-2)}  # float16 sums and normalizations
HALF_LOOSER = {np.float16: (3e-2, 3e-2), np.float32: (1e-5, 1e-5)}  # long float16 dot products


def _errstate() -> Any:
    """References follow IEEE arithmetic at inf and NaN without warning."""
    return np.errstate(all="ignore")


def away(rng: np.random.Generator, dtype: type, *shape: int, kinks: tuple[float, ...] = (0.0,),
         low: float = -3.0, high: float = 3.0) -> np.ndarray:
    """Uniform values in [low, high) at least 0.2 from every kink, so finite differences do not
    straddle one."""
    values = rng.uniform(low, high, shape)
    for kink in kinks:
        near = np.abs(values - kink) < 0.2
        values = np.where(near, kink + np.where(values < kink, -0.5, 0.5), values)
    return np.asarray(values).astype(dtype)


def _extremes(rng: np.random.Generator, dtype: type) -> tuple[np.ndarray]:
    return (np.array([np.inf, -np.inf, np.nan, 1e4, -1e4, 0.0, 2.5, -2.5], dtype),)


def output_of(prim: Any, i: int) -> Callable[..., Any]:
    """Output ``i`` of the primitive, for checking the gradients that flow from it alone."""

    def call(*args: Any) -> Any:
        return prim(*args)[i]

    return call


def unary(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    """A reference that applies ``fn`` in float64 and returns the input's dtype."""

    def reference(x: np.ndarray) -> np.ndarray:
        with _errstate():
            return np.asarray(fn(x.astype(F64))).astype(x.dtype)

    return reference


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


_GELU_SCALE = 2 * math.sqrt(2 / math.pi)


def _gelu(x: np.ndarray) -> np.ndarray:
    """MindSpore's tanh GeLU written with the identity 0.5 * (1 + tanh(u)) = sigmoid(2u)."""
    return x * _sigmoid(_GELU_SCALE * (x + 0.044715 * x ** 3))


def _gelu_slope(x: np.ndarray) -> np.ndarray:
    s = _sigmoid(_GELU_SCALE * (x + 0.044715 * x ** 3))
    return s + x * s * (1 - s) * _GELU_SCALE * (1 + 3 * 0.044715 * x ** 2)


def _relu(x: np.ndarray) -> np.ndarray:
    return np.where((x > 0) | np.isnan(x), x, 0)


def _relu6(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x), x, np.where(x > 6, 6, np.where(x > 0, x, 0)))


#: (name, make, float64 formula, kinks to keep gradient inputs away from, dtypes)
Activation = tuple[str, Callable[[], Any], Callable, tuple[float, ...], tuple]

_ACTIVATIONS: list[Activation] = [
    ("ReLU", P.ReLU, _relu, (0.0,), NUMBERS),
    ("ReLU6", P.ReLU6, _relu6, (0.0, 6.0), FLOATS),
    ("Sigmoid", P.Sigmoid, _sigmoid, (), FLOATS),
    ("Tanh", P.Tanh, np.tanh, (), FLOATS),
    ("GeLU", P.GeLU, _gelu, (), FLOATS),
]


def activation_cases(table: list[Activation], extremes: bool = True) -> list[OpCase]:
    """Cases of elementwise activations: 2-D, 4-D, 0-d and empty inputs, gradients away from
    the kinks, and (with ``extremes``) inf and NaN."""
    cases = []
    for name, make, fn, kinks, dtypes in table:
        ref = unary(fn)
        cases += [
            OpCase(f"{name}/2d", name, make,
                   lambda rng, dt, k=kinks: (away(rng, dt, 3, 4, kinks=k, low=-4, high=8),),
                   ref, dtypes, grad=(0,)),
            OpCase(f"{name}/4d", name, make, lambda rng, dt: (sample(rng, dt, 2, 3, 4, 5) * 4,),
                   ref, dtypes),
            OpCase(f"{name}/0d", name, make, lambda rng, dt, k=kinks: (away(rng, dt, kinks=k),),
                   ref, dtypes, grad=(0,)),
            OpCase(f"{name}/empty", name, make, lambda rng, dt: (sample(rng, dt, 0, 3),),
                   ref, dtypes),
        ]
        if extremes:
            cases.append(OpCase(f"{name}/inf-nan", name, make, _extremes, ref, FLOATS))
    return cases


def grad_pair(kinks: tuple[float, ...]) -> Callable[..., tuple]:
    """Inputs (dy, x) of ReluGrad and ReLU6Grad: x away from the kinks."""
    return lambda rng, dt: (sample(rng, dt, 3, 4), away(rng, dt, 3, 4, kinks=kinks, low=-3,
                                                             high=8))


def _masked(keep: Callable[[np.ndarray], np.ndarray]) -> Callable[..., np.ndarray]:
    """ReluGrad/ReLU6Grad: the incoming gradient where ``keep(x)``, else 0."""
    return lambda dy, x: np.where(keep(x), dy, np.zeros_like(dy))


def _gelu_grad(dy: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with _errstate():
        return (dy.astype(F64) * _gelu_slope(x.astype(F64))).astype(dy.dtype)


def _gelu_grad_inputs(x: Callable[[np.random.Generator, type], np.ndarray]) -> Callable:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        xs = x(rng, dt)
        return sample(rng, dt, *xs.shape), xs, unary(_gelu)(xs)

    return inputs


_ACTIVATION_GRADS = [
    OpCase("ReluGrad/2d", "ReluGrad", nn_ops.ReluGrad, grad_pair((0.0,)),
           _masked(lambda x: x > 0), NUMBERS, grad=(0, 1)),
    OpCase("ReluGrad/empty", "ReluGrad", nn_ops.ReluGrad,
           lambda rng, dt: (sample(rng, dt, 0, 2), sample(rng, dt, 0, 2)),
           _masked(lambda x: x > 0), NUMBERS),
    OpCase("ReLU6Grad/2d", "ReLU6Grad", nn_ops.ReLU6Grad, grad_pair((0.0, 6.0)),
           _masked(lambda x: (x > 0) & (x <= 6)), FLOATS, grad=(0, 1)),
    # MindSpore 1.6's CPU kernel (nnacl Relu6Grad) passes dy where 0 < x <= 6
    OpCase("ReLU6Grad/bounds", "ReLU6Grad", nn_ops.ReLU6Grad,
           lambda rng, dt: (np.arange(1, 7, dtype=dt), np.array([-1, 0, 3, 6, 6.5, 9], dt)),
           lambda dy, x: np.array([0, 0, 3, 4, 0, 0], dy.dtype), FLOATS),
    OpCase("SigmoidGrad/2d", "SigmoidGrad", nn_ops.SigmoidGrad,
           lambda rng, dt: (rng.uniform(0.05, 0.95, (3, 4)).astype(dt), sample(rng, dt, 3, 4)),
           lambda y, dy: (dy.astype(F64) * y * (1 - y.astype(F64))).astype(y.dtype), FLOATS,
           grad=(0, 1)),
    OpCase("SigmoidGrad/0d", "SigmoidGrad", nn_ops.SigmoidGrad,
           lambda rng, dt: (np.array(0.25, dt), np.array(-2.0, dt)),
           lambda y, dy: np.array(-2.0 * 0.25 * 0.75, y.dtype), FLOATS, grad=(0, 1)),
    OpCase("TanhGrad/2d", "TanhGrad", nn_ops.TanhGrad,
           lambda rng, dt: (rng.uniform(-0.95, 0.95, (3, 4)).astype(dt), sample(rng, dt, 3, 4)),
           lambda y, dy: (dy.astype(F64) * (1 - y.astype(F64) ** 2)).astype(y.dtype), FLOATS,
           grad=(0, 1)),
    OpCase("GeLUGrad/2d", "GeLUGrad", nn_ops.GeLUGrad,
           _gelu_grad_inputs(lambda rng, dt: sample(rng, dt, 3, 4) * 2), _gelu_grad, FLOATS),
    OpCase("GeLUGrad/large-inputs", "GeLUGrad", nn_ops.GeLUGrad,
           _gelu_grad_inputs(lambda rng, dt: np.array([-300, -20, 0, 20, 300], dt)),
           _gelu_grad, FLOATS),
]


# -- softmax ----------------------------------------------------------------------------------
def _log_softmax(axis: int | tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    """log(exp(x) / sum(exp(x))) over ``axis``, shifted by the maximum; in float64."""

    def log_softmax(x: np.ndarray) -> np.ndarray:
        if x.size == 0:
            return x.astype(F64)
        shifted = x - np.max(x, axis=axis, keepdims=True)
        return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))

    return log_softmax


def _softmax(axis: int | tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    log_softmax = _log_softmax(axis)
    return lambda x: np.exp(log_softmax(x))


def _softmax_extremes(rng: np.random.Generator, dtype: type) -> tuple[np.ndarray]:
    return (np.array([[1000.0, 0.0, -1000.0], [np.nan, 1.0, 2.0], [-np.inf, 0.0, 1.0]], dtype),)


def _softmax_cases() -> list[OpCase]:
    cases = []
    for name, make, formula, axes in [("Softmax", P.Softmax, _softmax, [-1, 0, (0, 2), (1,)]),
                                      ("LogSoftmax", P.LogSoftmax, _log_softmax, [-1, 0, 1])]:
        for axis in axes:
            axis_id = f"axis{axis}" if isinstance(axis, int) else "axes" + "-".join(map(str, axis))
            cases.append(OpCase(f"{name}/{axis_id}", name,
                                lambda m=make, a=axis: m(a),
                                lambda rng, dt: (sample(rng, dt, 2, 3, 4) * 3,),
                                unary(formula(axis)), FLOATS, grad=(0,),
                                tolerance=HALF_LOOSE))
        cases += [
            OpCase(f"{name}/inf-nan", name, make, _softmax_extremes, unary(formula(-1)),
                   FLOATS),
            OpCase(f"{name}/empty-batch", name, make, lambda rng, dt: (sample(rng, dt, 0, 3),),
                   unary(formula(-1)), FLOATS),
            OpCase(f"{name}/empty-axis", name, make, lambda rng, dt: (sample(rng, dt, 2, 0),),
                   unary(formula(-1)), FLOATS),
        ]
    return cases


# -- bias -------------------------------------------------------------------------------------
def _bias_add(channel: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def reference(x: np.ndarray, bias: np.ndarray) -> np.ndarray:
        out = x.copy()
        for c in range(len(bias)):
            np.moveaxis(out, channel, 0)[c] += bias[c]
        return out

    return reference


_BIAS_ADD = [
    OpCase(f"BiasAdd/{case_id}", "BiasAdd", lambda f=fmt: P.BiasAdd(f),
           lambda rng, dt, s=shape: (sample(rng, dt, *s), sample(rng, dt, 3)),
           _bias_add(-1 if fmt == "NHWC" else 1), NUMBERS, grad)
    for case_id, fmt, shape, grad in [
        ("NCHW-4d", "NCHW", (2, 3, 2, 3), (0, 1)),
        ("NCHW-2d", "NCHW", (4, 3), (0, 1)),
        ("NHWC-4d", "NHWC", (2, 2, 3, 3), (0, 1)),
        ("NCDHW-5d", "NCDHW", (2, 3, 2, 1, 2), (0, 1)),
        ("empty-batch", "NCHW", (0, 3), ()),
    ]
]


def _bias_add_grad(channel: int) -> Callable[[np.ndarray], np.ndarray]:
    def reference(dout: np.ndarray) -> np.ndarray:
        moved = np.moveaxis(dout.astype(F64), channel, 0)
        return moved.reshape(moved.shape[0], -1).sum(axis=1).astype(dout.dtype)

    return reference


_BIAS_ADD_GRAD = [
    OpCase(f"BiasAddGrad/{fmt}-{len(shape)}d", "BiasAddGrad",
           lambda f=fmt: nn_ops.BiasAddGrad(f), lambda rng, dt, s=shape: (sample(rng, dt, *s),),
           _bias_add_grad(-1 if fmt == "NHWC" else 1), NUMBERS, (0,), HALF_LOOSE)
    for fmt, shape in [("NCHW", (2, 3, 2, 2)), ("NHWC", (2, 2, 3)), ("NCHW", (4, 3))]
]

_FLATTEN = [
    OpCase(f"Flatten/{len(shape)}d", "Flatten", P.Flatten,
           lambda rng, dt, s=shape: (sample(rng, dt, *s),),
           lambda x: x.reshape(x.shape[0], int(np.prod(x.shape[1:]))), NUMBERS, (0,))
    for shape in [(2, 3, 4), (3,), (0, 2)]
]


# -- convolution --------------------------------------------------------------------------------
def _pair(value: int | tuple[int, ...]) -> tuple[int, int]:
    """(h, w) from an int, (h, w) or (1, 1, h, w)."""
    return (value, value) if isinstance(value, int) else (value[-2], value[-1])


def _geometry(mode: str, size: int, k: int, s: int, d: int,
              pads: tuple[int, int]) -> tuple[int, int, int]:
    """(pad before, pad after, output size) along one axis, from MindSpore's definitions."""
    span = d * (k - 1) + 1
    if mode == "same":  # as many outputs as strides fit, the padding split with less before
        out = math.ceil(size / s)
        total = max(0, (out - 1) * s + span - size)
        return total // 2, total - total // 2, out
    before, after = pads if mode == "pad" else (0, 0)
    return before, after, (size + before + after - span) // s + 1


@dataclass(frozen=True)
class _Conv:
    """One convolution: shapes, attributes, and the three primitives' references as loops
    over output pixels. ``pad_list`` (Conv2DBackpropInput/Filter only) overrides the padding."""

    id: str
    x: tuple[int, int, int, int]
    w: tuple[int, int, int, int]
    pad_mode: str = "valid"
    pad: int | tuple[int, int, int, int] = 0
    stride: int | tuple[int, ...] = 1
    dilation: int | tuple[int, ...] = 1
    group: int = 1
    pad_list: tuple[int, int, int, int] | None = None
    grad: bool = True

    def attrs(self) -> dict[str, Any]:
        attrs = {"pad_mode": self.pad_mode, "pad": self.pad, "stride": self.stride,
                 "dilation": self.dilation, "group": self.group}
        return attrs if self.pad_list is None else {**attrs, "pad_list": self.pad_list}

    def geometry(self) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        """Padding (top, bottom, left, right) and the output shape."""
        mode, pads = ("pad", self.pad_list) if self.pad_list else (
            self.pad_mode, (self.pad,) * 4 if isinstance(self.pad, int) else self.pad)
        per_axis = [_geometry(mode, self.x[2 + a], self.w[2 + a], _pair(self.stride)[a],
                              _pair(self.dilation)[a], pads[2 * a:2 * a + 2]) for a in (0, 1)]
        (top, bottom, ho), (left, right, wo) = per_axis
        return (top, bottom, left, right), (self.x[0], self.w[0], ho, wo)

    def _windows(self) -> Any:
        """(output channel, its input channels, row p, column q, the window's padded-image
        index) for every output pixel."""
        _, (_, out_c, ho, wo) = self.geometry()
        (sh, sw), (dh, dw) = _pair(self.stride), _pair(self.dilation)
        per_group, (kh, kw) = self.w[1], self.w[2:]
        for oc in range(out_c):
            g = oc // (out_c // self.group)
            channels = slice(g * per_group, (g + 1) * per_group)
            for p in range(ho):
                for q in range(wo):
                    yield oc, p, q, (slice(None), channels,
                                     slice(p * sh, p * sh + dh * (kh - 1) + 1, dh),
                                     slice(q * sw, q * sw + dw * (kw - 1) + 1, dw))

    def _padded(self, x: np.ndarray) -> np.ndarray:
        top, bottom, left, right = self.geometry()[0]
        return np.pad(x.astype(F64), ((0, 0), (0, 0), (top, bottom), (left, right)))

    def forward(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        xp, out = self._padded(x), np.zeros(self.geometry()[1])
        for oc, p, q, window in self._windows():
            out[:, oc, p, q] = np.sum(xp[window] * w[oc], axis=(1, 2, 3))
        return out.astype(x.dtype)

    def input_grad(self, dy: np.ndarray, w: np.ndarray, input_size: Any) -> np.ndarray:
        dxp = self._padded(np.zeros(self.x))
        for oc, p, q, window in self._windows():
            dxp[window] += dy[:, oc, p, q, None, None, None].astype(F64) * w[oc]
        top, _, left, _ = self.geometry()[0]
        return dxp[:, :, top:top + self.x[2], left:left + self.x[3]].astype(dy.dtype)

    def filter_grad(self, dy: np.ndarray, x: np.ndarray, filter_size: Any) -> np.ndarray:
        xp, dw = self._padded(x), np.zeros(self.w)
        for oc, p, q, window in self._windows():
            dw[oc] += np.tensordot(dy[:, oc, p, q].astype(F64), xp[window], axes=1)
        return dw.astype(dy.dtype)

    def cases(self) -> list[OpCase]:
        """Cases for Conv2D and, from the same geometry, its two backprop primitives."""
        out_c, k = self.w[0], self.w[2:]
        grad = (0, 1) if self.grad else ()
        dy_shape = self.geometry()[1]
        backprop = [
            OpCase(f"Conv2DBackpropInput/{self.id}", "Conv2DBackpropInput",
                   lambda: P.Conv2DBackpropInput(out_c, k, **self.attrs()),
                   lambda rng, dt: (sample(rng, dt, *dy_shape), sample(rng, dt, *self.w), self.x),
                   self.input_grad, FLOATS, grad, HALF_LOOSER),
            OpCase(f"Conv2DBackpropFilter/{self.id}", "Conv2DBackpropFilter",
                   lambda: nn_ops.Conv2DBackpropFilter(out_c, k, **self.attrs()),
                   lambda rng, dt: (sample(rng, dt, *dy_shape), sample(rng, dt, *self.x), self.w),
                   self.filter_grad, FLOATS, grad, HALF_LOOSER),
        ]
        if self.pad_list is not None:
            return backprop
        if self.id == "same-stride2":  # MindSpore's second name of Conv2DBackpropInput
            backprop.append(OpCase(
                f"Conv2DTranspose/{self.id}", "Conv2DTranspose",
                lambda: P.Conv2DTranspose(out_c, k, **self.attrs()), backprop[0].inputs,
                self.input_grad, FLOATS, grad, HALF_LOOSER))
        return [OpCase(f"Conv2D/{self.id}", "Conv2D",
                       lambda: P.Conv2D(out_c, k, **self.attrs()),
                       lambda rng, dt: (sample(rng, dt, *self.x), sample(rng, dt, *self.w)),
                       self.forward, FLOATS, grad, HALF_LOOSER), *backprop]


_CONVS = [
    _Conv("valid", (1, 2, 5, 5), (2, 2, 3, 3)),
    _Conv("valid-batch", (2, 3, 7, 6), (4, 3, 3, 3), grad=False),
    _Conv("same-stride2", (1, 2, 5, 6), (3, 2, 3, 2), pad_mode="same", stride=2),
    _Conv("same-dilation", (1, 2, 6, 5), (2, 2, 3, 3), pad_mode="same", dilation=(2, 1)),
    _Conv("pad-group-stride", (1, 4, 5, 4), (6, 2, 2, 3), pad_mode="pad", pad=(1, 0, 2, 1),
          stride=(1, 1, 2, 1), group=2),
    _Conv("pad-dilation-depthwise", (1, 2, 5, 5), (2, 1, 2, 2), pad_mode="pad", pad=1,
          dilation=2, group=2),
    _Conv("pad-stride3", (1, 1, 5, 5), (1, 1, 5, 5), pad_mode="pad", pad=1, stride=3),
    _Conv("kernel-1x1", (2, 3, 2, 2), (2, 3, 1, 1)),
    _Conv("empty-batch", (0, 3, 5, 5), (2, 3, 3, 3), stride=2, grad=False),
    _Conv("pad_list", (1, 2, 4, 4), (2, 2, 3, 3), pad_mode="same", pad_list=(1, 2, 0, 1)),
]


# -- pooling ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Pool:
    """One pooling geometry, with references for the four pool primitives as loops over
    windows (only the window's elements inside x count, as with MindSpore's 'SAME')."""

    id: str
    x: tuple[int, int, int, int]
    kernel: int | tuple[int, int]
    strides: int | tuple[int, int]
    pad_mode: str
    grad: bool = True

    def _windows(self) -> Any:
        """(p, q, the window's index in x) for every output pixel."""
        (kh, kw), (sh, sw) = _pair(self.kernel), _pair(self.strides)
        h, w = self.x[2:]
        axes = [_geometry(self.pad_mode.lower(), size, k, s, 1, (0, 0))
                for size, k, s in ((h, kh, sh), (w, kw, sw))]
        (top, _, ho), (left, _, wo) = axes
        for p in range(ho):
            for q in range(wo):
                r, c = p * sh - top, q * sw - left
                yield p, q, (slice(None), slice(None), slice(max(r, 0), r + kh),
                             slice(max(c, 0), c + kw))

    def _out_shape(self) -> tuple[int, ...]:
        p, q, _ = list(self._windows())[-1]
        return (*self.x[:2], p + 1, q + 1)

    def max(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros(self._out_shape(), x.dtype)
        for p, q, window in self._windows():
            out[:, :, p, q] = np.max(x[window], axis=(2, 3))
        return out

    def max_argmax(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The maxima and, for each, the position h * W + w of the first (row-major) in x."""
        argmax = np.zeros(self._out_shape(), np.int32)
        width = x.shape[3]
        for p, q, window in self._windows():
            top, left = window[2].start, window[3].start
            for n, c in np.ndindex(*x.shape[:2]):
                part = x[window][n, c]
                i, j = np.unravel_index(np.argmax(part), part.shape)
                argmax[n, c, p, q] = (top + i) * width + left + j
        return self.max(x), argmax

    def avg(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros(self._out_shape())
        for p, q, window in self._windows():
            out[:, :, p, q] = np.mean(x[window].astype(F64), axis=(2, 3))
        return out.astype(x.dtype)

    def max_grad(self, x: np.ndarray, out: np.ndarray, grad: np.ndarray) -> np.ndarray:
        """Each window's gradient to its first maximum in row-major order."""
        dx = np.zeros(x.shape, F64)
        for p, q, window in self._windows():
            part, at = x[window], dx[window]
            for n, c in np.ndindex(*x.shape[:2]):
                i, j = np.unravel_index(np.argmax(part[n, c]), part.shape[2:])
                at[n, c, i, j] += grad[n, c, p, q]
        return dx.astype(x.dtype)

    def at_max(self, x: np.ndarray, grad: np.ndarray) -> np.ndarray:
        """``grad`` (of x's shape) read at each window's first maximum."""
        n, c = x.shape[:2]
        argmax = self.max_argmax(x)[1]
        return np.take_along_axis(grad.reshape(n, c, math.prod(grad.shape[2:])),
                                  argmax.reshape(n, c, math.prod(argmax.shape[2:])),
                                  2).reshape(argmax.shape)

    def avg_grad(self, x: np.ndarray, out: np.ndarray, grad: np.ndarray) -> np.ndarray:
        dx = np.zeros(x.shape, F64)
        for p, q, window in self._windows():
            count = dx[window].shape[2] * dx[window].shape[3]
            dx[window] += grad[:, :, p, q, None, None] / count
        return dx.astype(x.dtype)

    def cases(self) -> list[OpCase]:
        attrs = (self.kernel, self.strides, self.pad_mode)
        grad = (0,) if self.grad else ()
        out_shape = self._out_shape()

        def grad_inputs(pool: Callable) -> Callable:
            def inputs(rng: np.random.Generator, dt: type) -> tuple:
                x = sample(rng, dt, *self.x)
                return x, pool(x), sample(rng, dt, *out_shape)

            return inputs

        return [
            OpCase(f"MaxPool/{self.id}", "MaxPool", lambda: P.MaxPool(*attrs),
                   lambda rng, dt: (sample(rng, dt, *self.x),), self.max, FLOATS, grad),
            OpCase(f"MaxPoolWithArgmax/{self.id}", "MaxPoolWithArgmax",
                   lambda: P.MaxPoolWithArgmax(*attrs),
                   lambda rng, dt: (sample(rng, dt, *self.x),), self.max_argmax, FLOATS, grad),
            OpCase(f"AvgPool/{self.id}", "AvgPool", lambda: P.AvgPool(*attrs),
                   lambda rng, dt: (sample(rng, dt, *self.x),), self.avg, FLOATS, grad,
                   HALF_LOOSE),
            OpCase(f"MaxPoolGrad/{self.id}", "MaxPoolGrad", lambda: nn_ops.MaxPoolGrad(*attrs),
                   grad_inputs(self.max), self.max_grad, FLOATS, (2,) if self.grad else ()),
            OpCase(f"MaxPoolGradGrad/{self.id}", "MaxPoolGradGrad",
                   lambda: nn_ops.MaxPoolGradGrad(*attrs),
                   lambda rng, dt: (x := sample(rng, dt, *self.x), self.max(x),
                                    sample(rng, dt, *self.x)),
                   lambda x, out, grad: self.at_max(x, grad), FLOATS, grad and (2,)),
            OpCase(f"MaxPoolGradWithArgmax/{self.id}", "MaxPoolGradWithArgmax",
                   lambda: nn_ops.MaxPoolGradWithArgmax(*attrs),
                   lambda rng, dt: (x := sample(rng, dt, *self.x), sample(rng, dt, *out_shape),
                                    self.max_argmax(x)[1]),
                   lambda x, grad, argmax: self.max_grad(x, None, grad), FLOATS,
                   grad and (1,)),
            OpCase(f"MaxPoolGradGradWithArgmax/{self.id}", "MaxPoolGradGradWithArgmax",
                   lambda: nn_ops.MaxPoolGradGradWithArgmax(*attrs),
                   lambda rng, dt: (x := sample(rng, dt, *self.x), sample(rng, dt, *self.x),
                                    self.max_argmax(x)[1]),
                   lambda x, grad, argmax: self.at_max(x, grad), FLOATS, grad and (1,)),
            OpCase(f"AvgPoolGrad/{self.id}", "AvgPoolGrad", lambda: nn_ops.AvgPoolGrad(*attrs),
                   grad_inputs(self.avg), self.avg_grad, FLOATS,
                   (0, 1, 2) if self.grad else (), HALF_LOOSE),
        ]


_POOLS = [
    _Pool("valid-2x2", (2, 3, 4, 6), 2, 2, "valid"),
    _Pool("valid-uneven", (1, 3, 7, 5), (2, 2), (2, 2), "VALID"),
    _Pool("same-stride2x1", (1, 2, 7, 6), (3, 2), (2, 1), "same"),
    _Pool("same-overlap", (1, 2, 5, 5), 3, 1, "SAME"),
    _Pool("same-stride3x2", (2, 1, 6, 7), (3, 2), (3, 2), "Same"),
    _Pool("empty-batch", (0, 2, 4, 4), 2, 1, "valid", grad=False),
]

_POOL_EDGES = [
    OpCase("MaxPool/inf", "MaxPool", lambda: P.MaxPool(2, 2),
           lambda rng, dt: (np.array([[[[1, np.inf, 0, -1], [2, 3, -np.inf, -np.inf],
                                        [-np.inf, -np.inf, 0, 5], [-np.inf, -np.inf, 6, 1]]]],
                                     dt),),
           lambda x: np.array([[[[np.inf, 0], [-np.inf, 6]]]], x.dtype), FLOATS),
    OpCase("MaxPoolWithArgmax/documented-same", "MaxPoolWithArgmax",
           lambda: P.MaxPoolWithArgmax(3, 2, "SAME"),
           lambda rng, dt: (np.array([[[[0, 1, 2, 3, -4, -5], [6, 7, 8, 9, -10, -11],
                                        [12, 13, 14, -15, -16, -17], [18, 19, 20, 21, 22, 23],
                                        [24, 25, 26, 27, 28, 29], [30, 31, 32, 33, 34, 35]]]],
                                     dt),),
           lambda x: (np.array([[[[14, 14, -4], [26, 28, 29], [32, 34, 35]]]], x.dtype),
                      np.array([[[[14, 14, 4], [26, 28, 29], [32, 34, 35]]]], np.int32)),
           FLOATS),
    OpCase("MaxPoolWithArgmax/ties-to-first", "MaxPoolWithArgmax",
           lambda: P.MaxPoolWithArgmax(2, 2),
           lambda rng, dt: (np.array([[[[1, 1, 0, 2], [1, 0, 2, 2], [3, 3, 3, 3],
                                        [3, 3, 3, 3]]]], dt),),
           lambda x: (np.array([[[[1, 2], [3, 3]]]], x.dtype),
                      np.array([[[[0, 3], [8, 10]]]], np.int32)), FLOATS),
    OpCase("MaxPoolGrad/ties-to-first", "MaxPoolGrad", lambda: nn_ops.MaxPoolGrad(2, 2),
           lambda rng, dt: (np.array([[[[1, 1, 0, 2], [1, 0, 2, 2], [3, 3, 3, 3],
                                        [3, 3, 3, 3]]]], dt),
                            np.array([[[[1, 2], [3, 3]]]], dt),
                            np.array([[[[1, 2], [3, 4]]]], dt)),
           lambda x, out, grad: np.array([[[[1, 0, 0, 2], [0, 0, 0, 0], [3, 0, 4, 0],
                                             [0, 0, 0, 0]]]], x.dtype), FLOATS),
]


# -- batch normalization ------------------------------------------------------------------------
def _channel_column(x: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The axes BatchNorm reduces over, and the shape that lays a (C,) vector along them."""
    return (0, *range(2, x.ndim)), (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _batch_norm(training: bool, epsilon: float) -> Callable[..., tuple]:
    """BatchNorm's five outputs: y in x's dtype, the statistics in scale's."""

    def reference(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, mean: np.ndarray,
                  variance: np.ndarray) -> tuple:
        axes, column = _channel_column(x)
        xs = x.astype(F64)
        if training:
            mean, variance = xs.mean(axis=axes), xs.var(axis=axes)
        y = ((xs - mean.reshape(column)) / np.sqrt(variance.reshape(column) + epsilon)
             * scale.reshape(column) + bias.reshape(column))
        n = x.size // x.shape[1]
        stats = ((mean, variance * n / (n - 1), mean, variance) if training
                 else (mean, variance, mean, variance))
        return (y.astype(x.dtype), *(np.asarray(s).astype(scale.dtype) for s in stats))

    return reference


def _bn_inputs(shape: tuple[int, ...], stats: type | None = None) -> Callable[..., tuple]:
    """x (mean 1, deviation 2), positive scale and variance, and normal bias and mean; the
    (C,) tensors in ``stats`` (default: x's dtype)."""

    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        c, st = shape[1], stats or dt
        return ((sample(rng, dt, *shape) * 2 + 1).astype(dt),
                rng.uniform(0.5, 1.5, c).astype(st), sample(rng, st, c), sample(rng, st, c),
                rng.uniform(0.5, 1.5, c).astype(st))

    return inputs


def _batch_norm_grad(training: bool, epsilon: float) -> Callable[..., tuple]:
    """(dx, dscale, dbias) of BatchNorm's y, from the statistics y used."""

    def reference(dy: np.ndarray, x: np.ndarray, scale: np.ndarray, mean: np.ndarray,
                  variance: np.ndarray) -> tuple:
        axes, column = _channel_column(x)
        dys = dy.astype(F64)
        inv = 1 / np.sqrt(variance.astype(F64).reshape(column) + epsilon)
        x_hat = (x.astype(F64) - mean.reshape(column)) * inv
        dbias, dscale = dys.sum(axis=axes), (dys * x_hat).sum(axis=axes)
        if training:
            n = x.size // x.shape[1]
            dx = scale.reshape(column) * inv * (dys - dbias.reshape(column) / n
                                                - x_hat * dscale.reshape(column) / n)
        else:
            dx = dys * scale.reshape(column) * inv
        return dx.astype(x.dtype), dscale.astype(scale.dtype), dbias.astype(scale.dtype)

    return reference


def _bn_grad_inputs(shape: tuple[int, ...], training: bool) -> Callable[..., tuple]:
    """dy, x and scale, with the batch's own mean and variance (training) or moving ones."""

    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        x, scale, _, mean, variance = _bn_inputs(shape)(rng, dt)
        if training:
            axes, _ = _channel_column(x)
            mean = x.astype(F64).mean(axis=axes).astype(dt)
            variance = x.astype(F64).var(axis=axes).astype(dt)
        return sample(rng, dt, *shape), x, scale, mean, variance

    return inputs


_BATCH_NORMS = [  # (id, x shape, epsilon, whether gradients are checked)
    ("2d", (4, 3), 1e-5, True),
    ("4d-epsilon", (2, 3, 3, 2), 1e-3, True),
    ("4d-big", (2, 3, 4, 5), 1e-5, False),
]


def _batch_norm_cases() -> list[OpCase]:
    cases = []
    for training in (True, False):
        mode = "train" if training else "infer"
        for name, shape, epsilon, grad in _BATCH_NORMS:
            reference = _batch_norm(training, epsilon)
            make = functools.partial(P.BatchNorm, training, epsilon)
            cases.append(OpCase(f"BatchNorm/{mode}-{name}", "BatchNorm", make,
                                _bn_inputs(shape), reference, FLOATS, tolerance=HALF_LOOSE))
            if grad:
                cases.append(OpCase(
                    f"BatchNorm/{mode}-{name}-y", "BatchNorm", lambda m=make: output_of(m(), 0),
                    _bn_inputs(shape), lambda *a, r=reference: r(*a)[0], FLOATS,
                    (0, 1, 2, 3, 4), HALF_LOOSE))
            cases.append(OpCase(
                f"BatchNormGrad/{mode}-{name}", "BatchNormGrad",
                functools.partial(nn_ops.BatchNormGrad, training, epsilon),
                _bn_grad_inputs(shape, training), _batch_norm_grad(training, epsilon), FLOATS,
                tolerance=HALF_LOOSE))
        cases.append(OpCase(f"BatchNorm/{mode}-float16-float32-stats", "BatchNorm",
                            functools.partial(P.BatchNorm, training),
                            _bn_inputs((8, 2, 3, 3), np.float32), _batch_norm(training, 1e-5),
                            (np.float16,), tolerance=HALF_LOOSE))
    cases.append(OpCase("BatchNorm/infer-empty-batch", "BatchNorm", P.BatchNorm,
                        _bn_inputs((0, 3)), _batch_norm(False, 1e-5), FLOATS))
    return cases


# -- dropout ----------------------------------------------------------------------------------
_DROPOUT = [
    OpCase("Dropout/keep-all", "Dropout", lambda: P.Dropout(1.0),
           lambda rng, dt: (sample(rng, dt, 2, 3, 4),),
           lambda x: (x.copy(), np.ones_like(x)), FLOATS, grad=(0,)),
    OpCase("Dropout/keep-all-0d", "Dropout", lambda: P.Dropout(1.0),
           lambda rng, dt: (sample(rng, dt),), lambda x: (x.copy(), np.ones_like(x)), FLOATS),
    OpCase("DropoutGrad/keep-0.8", "DropoutGrad", lambda: nn_ops.DropoutGrad(0.8),
           lambda rng, dt: (sample(rng, dt, 3, 4), (rng.random((3, 4)) < 0.5).astype(dt)),
           lambda dy, mask: (dy.astype(F64) * mask / 0.8).astype(dy.dtype), FLOATS,
           grad=(0, 1)),
]


# -- losses -----------------------------------------------------------------------------------
def _softmax_ce(logits: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(loss per row, softmax - labels)."""
    logp = _log_softmax(1)(logits.astype(F64))
    loss = -np.sum(labels * logp, axis=1)
    return loss.astype(logits.dtype), (np.exp(logp) - labels).astype(logits.dtype)


def _sparse_softmax_ce(is_grad: bool) -> Callable[..., np.ndarray]:
    """The mean cross entropy over rows (NaN for none), or its gradient."""

    def reference(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
        n, classes = logits.shape
        logp = _log_softmax(1)(logits.astype(F64))
        hot = np.zeros((n, classes))
        hot[np.arange(n), labels] = 1
        if is_grad:
            return ((np.exp(logp) - hot) / n).astype(logits.dtype)
        loss = -np.sum(hot * logp) / n if n else np.nan
        return np.asarray(loss).astype(logits.dtype)

    return reference


def _one_hot_labels(rng: np.random.Generator, dt: type, n: int, c: int) -> np.ndarray:
    return np.eye(c, dtype=dt)[rng.integers(0, c, n)]


def _soft_labels(rng: np.random.Generator, dt: type, n: int, c: int) -> np.ndarray:
    return rng.dirichlet(np.ones(c), n).astype(dt)


_LOSSES = [
    OpCase("SoftmaxCrossEntropyWithLogits/one-hot", "SoftmaxCrossEntropyWithLogits",
           P.SoftmaxCrossEntropyWithLogits,
           lambda rng, dt: (sample(rng, dt, 4, 5) * 3, _one_hot_labels(rng, dt, 4, 5)),
           _softmax_ce, FLOATS, tolerance=HALF_LOOSE),
    OpCase("SoftmaxCrossEntropyWithLogits/soft-labels", "SoftmaxCrossEntropyWithLogits",
           P.SoftmaxCrossEntropyWithLogits,
           lambda rng, dt: (sample(rng, dt, 3, 4), _soft_labels(rng, dt, 3, 4)),
           _softmax_ce, FLOATS, tolerance=HALF_LOOSE),
    OpCase("SoftmaxCrossEntropyWithLogits/large-logits", "SoftmaxCrossEntropyWithLogits",
           P.SoftmaxCrossEntropyWithLogits,
           lambda rng, dt: (np.array([[1000, 0, -1000], [-1000, 0, 1000]], dt),
                            np.array([[0, 0, 1], [0, 1, 0]], dt)),
           _softmax_ce, FLOATS),
    OpCase("SoftmaxCrossEntropyWithLogits/empty-batch", "SoftmaxCrossEntropyWithLogits",
           P.SoftmaxCrossEntropyWithLogits,
           lambda rng, dt: (sample(rng, dt, 0, 3), sample(rng, dt, 0, 3)),
           _softmax_ce, FLOATS),
    OpCase("SoftmaxCrossEntropyWithLogits/loss", "SoftmaxCrossEntropyWithLogits",
           lambda: output_of(P.SoftmaxCrossEntropyWithLogits(), 0),
           lambda rng, dt: (sample(rng, dt, 3, 4), _soft_labels(rng, dt, 3, 4)),
           lambda logits, labels: _softmax_ce(logits, labels)[0], FLOATS, (0, 1), HALF_LOOSE),
    *(OpCase(f"SparseSoftmaxCrossEntropyWithLogits/{label_dtype.__name__}-labels",
             "SparseSoftmaxCrossEntropyWithLogits", P.SparseSoftmaxCrossEntropyWithLogits,
             lambda rng, dt, ldt=label_dtype: (sample(rng, dt, 4, 5) * 3,
                                               rng.integers(0, 5, 4).astype(ldt)),
             _sparse_softmax_ce(False), FLOATS, (0,), HALF_LOOSE) for label_dtype in INTS),
    OpCase("SparseSoftmaxCrossEntropyWithLogits/is_grad", "SparseSoftmaxCrossEntropyWithLogits",
           lambda: P.SparseSoftmaxCrossEntropyWithLogits(True),
           lambda rng, dt: (sample(rng, dt, 4, 5) * 3, index(0, 3, 4, 3)),
           _sparse_softmax_ce(True), FLOATS, tolerance=HALF_LOOSE),
    OpCase("SparseSoftmaxCrossEntropyWithLogits/empty-batch",
           "SparseSoftmaxCrossEntropyWithLogits", P.SparseSoftmaxCrossEntropyWithLogits,
           lambda rng, dt: (sample(rng, dt, 0, 3), np.zeros(0, np.int32)),
           _sparse_softmax_ce(False), FLOATS),
]


CASES: list[OpCase] = [
    *activation_cases(_ACTIVATIONS),
    *_ACTIVATION_GRADS,
    *_softmax_cases(),
    *_BIAS_ADD,
    *_BIAS_ADD_GRAD,
    *_FLATTEN,
    *(case for conv in _CONVS for case in conv.cases()),
    *(case for pool in _POOLS for case in pool.cases()),
    *_POOL_EDGES,
    *_batch_norm_cases(),
    *_DROPOUT,
    *_LOSSES,
]
