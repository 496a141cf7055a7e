"""Neural-network primitives: activations, softmax, bias, convolution, pooling, batch norm,
dropout and losses, with the backward primitives their gradients are written with.

Layouts are MindSpore's: images NCHW, convolution weights (out_channel, in_channel / group,
kernel_h, kernel_w).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeGuard

import numpy as np

from ember._autodiff import needs_grad
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations._paths import forwarding
from ember.ops.primitive import Primitive, Spec

__all__ = [
    "AvgPool",
    "BatchNorm",
    "BiasAdd",
    "Conv2D",
    "Conv2DBackpropInput",
    "Conv2DTranspose",
    "Dropout",
    "Flatten",
    "GeLU",
    "LogSoftmax",
    "MaxPool",
    "MaxPoolWithArgmax",
    "ReLU",
    "ReLU6",
    "Sigmoid",
    "Softmax",
    "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits",
    "Tanh",
    "bias_add",
    "gelu",
    "log_softmax",
    "relu",
    "relu6",
    "sigmoid",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "sparse_softmax_cross_entropy_with_logits",
    "tanh",
]

# MindSpore 1.6 defines these in ops.operations.nn_ops too; ember in modules of their kind.
__getattr__ = forwarding(__name__, """
    Adam AdamWeightDecay ApplyAdaMax ApplyAdadelta ApplyAdagrad ApplyAdagradV2
    ApplyAdamWithAmsgrad ApplyAddSign ApplyCenteredRMSProp ApplyFtrl ApplyGradientDescent
    ApplyKerasMomentum ApplyMomentum
    ApplyPowerSign ApplyProximalAdagrad ApplyProximalGradientDescent ApplyRMSProp
    AvgPool3D BCEWithLogitsLoss BinaryCrossEntropy CeLU ComputeAccidentalHits Conv3D
    Conv3DBackpropInput Conv3DTranspose CTCLoss Dropout2D Dropout3D DropoutDoMask
    DropoutGenMask Elu FastGeLU FastGelu FusedSparseAdam FusedSparseFtrl
    FusedSparseLazyAdam FusedSparseProximalAdagrad Gelu HShrink HSigmoid HSwish InTopK
    KLDivLoss L2Loss L2Normalize LayerNorm LRN LSTM MaxPool3D MirrorPad Mish NLLLoss
    OneHot Pad PReLU ResizeBilinear ROIAlign SeLU SGD SigmoidCrossEntropyWithLogits
    SmoothL1Loss SoftMarginLoss Softplus SoftShrink Softsign SparseApplyAdadelta
    SparseApplyAdagrad SparseApplyAdagradV2 SparseApplyFtrl SparseApplyProximalAdagrad
    SparseApplyRMSProp TopK
    AdamNoUpdateParam ApplyAdagradDA LARSUpdate SparseApplyFtrlV2
    CTCGreedyDecoder
""")

_FLOAT = mstype.float_type


# -- attribute and input checks -------------------------------------------------------------
def _check_bool(op: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{op}: '{name}' must be a bool, but got {value!r}")
    return value


def _check_int(op: str, name: str, value: Any, minimum: int | None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{op}: '{name}' must be an int, but got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{op}: '{name}' must be an int >= {minimum}, but got {value}")
    return value


def _check_fraction(op: str, name: str, value: Any, zero_ok: bool) -> float:
    """A float in [0, 1] (``zero_ok``) or in (0, 1]."""
    if not isinstance(value, float):
        raise TypeError(f"{op}: '{name}' must be a float, but got {value!r}")
    if not (0.0 <= value if zero_ok else 0.0 < value) or value > 1.0:
        raise ValueError(f"{op}: '{name}' must be in {'[0, 1]' if zero_ok else '(0, 1]'}, "
                         f"but got {value}")
    return value


def _check_choice(op: str, name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{op}: '{name}' must be a str, but got {value!r}")
    if value not in choices:
        raise ValueError(f"{op}: '{name}' must be one of {list(choices)}, but got {value!r}")
    return value


def _check_format(op: str, data_format: Any, choices: tuple[str, ...] = ("NCHW",)) -> str:
    if data_format == "NHWC" and "NHWC" not in choices:
        raise ValueError(f"{op}: data_format 'NHWC' is not supported (MindSpore runs it only on "
                         f"GPU); accepted: {list(choices)}")
    return _check_choice(op, "data_format", data_format, choices)


def _is_ints(value: Any) -> TypeGuard[tuple[int, ...] | list[int]]:
    return isinstance(value, tuple | list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def _check_window(op: str, name: str, value: Any, full: bool,
                  axes: str = "hw") -> tuple[int, ...]:
    """A positive int, one per spatial axis (``axes``: "hw" or "dhw") or, where ``full``,
    the same after (1, 1): one int per spatial axis."""
    n = len(axes)
    sizes = (value,) * n if isinstance(value, int) and not isinstance(value, bool) else value
    if (not _is_ints(sizes) or len(sizes) not in ((n, n + 2) if full else (n,))
            or (len(sizes) == n + 2 and tuple(sizes[:2]) != (1, 1)) or min(sizes) < 1):
        one = f"({', '.join(axes)})"
        forms = f"int, {one} or (1, 1, {one[1:]}" if full else f"int or {one}"
        raise ValueError(f"{op}: '{name}' must be a positive {forms}, but got {value!r}")
    return tuple(sizes[-n:])


_SIDES = {"hw": ("top", "bottom", "left", "right"),
          "dhw": ("head", "tail", "top", "bottom", "left", "right")}


def _check_pads(op: str, name: str, value: Any, axes: str = "hw",
                per_axis: bool = False) -> tuple[int, ...]:
    """A non-negative int or one (before, after) pair per spatial axis, as the flat tuple;
    with ``per_axis``, also one int per axis for both its sides."""
    sides = _SIDES[axes]
    pads = (value,) * len(sides) if isinstance(value, int) and not isinstance(value,
                                                                             bool) else value
    if per_axis and _is_ints(pads) and len(pads) == len(axes):
        pads = tuple(p for p in pads for _ in range(2))
    if not _is_ints(pads) or len(pads) != len(sides) or min(pads) < 0:
        one = f", a tuple of {len(axes)} ({', '.join(axes)})" if per_axis else ""
        raise ValueError(f"{op}: '{name}' must be a non-negative int{one} or a tuple of "
                         f"{len(sides)} ({', '.join(sides)}), but got {value!r}")
    return tuple(pads)


def _check_shape(op: str, name: str, value: Any, rank: int) -> tuple[int, ...]:
    if not _is_ints(value) or len(value) != rank or min(value) < 0:
        raise ValueError(f"{op}: '{name}' must be a tuple of {rank} non-negative ints, but got "
                         f"{value!r}")
    return tuple(value)


def _check_rank(op: str, name: str, x: Tensor, ranks: tuple[int, ...]) -> None:
    if x.ndim not in ranks:
        raise ValueError(f"{op}: '{name}' must have rank {' or '.join(map(str, ranks))}, but got "
                         f"shape {list(x.shape)}")


def _check_like(op: str, names: tuple[str, ...], tensors: tuple[Tensor, ...],
                shape: bool = True) -> None:
    """The tensors after the first have its dtype and, if ``shape``, its shape."""
    first = tensors[0]
    for name, t in zip(names[1:], tensors[1:], strict=True):
        if t.dtype is not first.dtype:
            raise TypeError(f"{op}: '{name}' must have the dtype of '{names[0]}' "
                            f"({first.dtype}), but got {t.dtype}")
        if shape and t.shape != first.shape:
            raise ValueError(f"{op}: '{name}' must have the shape of '{names[0]}' "
                             f"{list(first.shape)}, but got {list(t.shape)}")


def _check_inputs(op: str, names: tuple[str, ...], inputs: tuple,
                  dtypes: tuple[mstype.Type, ...] = _FLOAT, shape: bool = True) -> None:
    for name, value in zip(names, inputs, strict=True):
        check_tensor(op, name, value, dtypes)
    _check_like(op, names, inputs, shape)


def _window_geometry(pad_mode: str, size: int, k: int, s: int, d: int,
                     pads: tuple[int, int], ceil: bool = False,
                     clip: bool = False) -> tuple[int, int, int]:
    """(padding before, padding after, output size) of a window of ``k`` taps ``d`` apart,
    moved by ``s`` over ``size`` elements, padded as MindSpore's 'valid', 'same' or 'pad'.

    With ``ceil`` ('valid' and 'pad'; 'same' has no remainder to round), the output size is
    rounded up rather than down, and the padding after grows by what the last window needs;
    with ``clip`` too, a last window starting past the image and the padding before is
    dropped (MindSpore's AvgPool3D and PyTorch's rule; MindSpore's MaxPool3D keeps it)."""
    span = d * (k - 1) + 1
    if pad_mode == "same":
        out = -(-size // s)
        need = max(0, (out - 1) * s + span - size)
        return need // 2, need - need // 2, out
    lo, hi = pads if pad_mode == "pad" else (0, 0)
    room = size + lo + hi - span
    out = max(0, (-(-room // s) if ceil else room // s) + 1)
    if clip and out > 1 and (out - 1) * s >= size + lo:
        out -= 1
    return lo, max(hi, (out - 1) * s + span - size - lo) if ceil else hi, out


def _windows_geometry(pad_mode: str, spatial: tuple[int, ...], kernel: tuple[int, ...],
                      stride: tuple[int, ...], dilation: tuple[int, ...],
                      pads: tuple[int, ...], ceil: bool = False,
                      clip: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``_window_geometry`` along each spatial axis: (flat (before, after) padding, output)."""
    per_axis = [_window_geometry(pad_mode, n, k, s, d, pads[2 * i:2 * i + 2], ceil, clip)
                for i, (n, k, s, d) in enumerate(zip(spatial, kernel, stride, dilation))]
    return (tuple(p for lo, hi, _ in per_axis for p in (lo, hi)),
            tuple(out for _, _, out in per_axis))


def _window_divisors(spatial: tuple[int, ...], kernel: tuple[int, ...],
                     stride: tuple[int, ...], pads: tuple[int, ...], out: tuple[int, ...],
                     include_pad: bool = False, override: int = 0) -> np.ndarray:
    """What an average pool divides each output cell's window sum by (float64, of shape
    ``out``): ``override`` where it is not 0; else the number of the window's elements inside
    the image or, with ``include_pad``, inside the image and its padding ``pads`` (flat
    (before, after) per axis, without what a ceil-mode output adds after it)."""
    if override:
        return np.full(out, float(override))
    counts = []
    for n, k, s, o, lo, hi in zip(spatial, kernel, stride, out, pads[::2], pads[1::2],
                                  strict=True):
        first, last = (-lo, n + hi) if include_pad else (0, n)
        start = np.arange(o) * s - lo
        counts.append(np.minimum(start + k, last) - np.maximum(start, first))
    return functools.reduce(np.multiply.outer, counts).astype(np.float64)


def _cast_to(x: Tensor, dtype: mstype.Type) -> Tensor:
    return x if x.dtype is dtype else F.cast(x, dtype)


def _keep_sum(x: Tensor, axes: tuple[int, ...]) -> Tensor:
    """``x`` summed over ``axes``, kept as dimensions of size 1."""
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    return F.reshape(F.reduce_sum(x, axes), shape)


class _Family(Primitive):
    """A primitive whose backward primitives share its attributes (convolutions, pools)."""

    _sibling_attrs: Callable[[], dict[str, Any]]  # the attributes its siblings are made with

    def _sibling(self, cls: type[Primitive]) -> Any:
        """The primitive of class ``cls`` with this one's attributes, made once until one of them
        changes (so its kernel is made once too)."""
        made = self.__dict__.setdefault("_made", {})  # as Primitive._derived's, by class
        if cls not in made:
            made[cls] = cls(**self._sibling_attrs())
        return made[cls]


# -- activations ----------------------------------------------------------------------------
class _Elementwise(Primitive):
    """Inputs of one shape and dtype (named ``_inputs``); the output is like the first."""

    _inputs: tuple[str, ...] = ("x",)
    _dtypes: tuple[mstype.Type, ...] = _FLOAT

    def infer(self, *inputs: Any) -> Spec:
        if len(inputs) != len(self._inputs):
            raise TypeError(f"{self.name} takes {len(self._inputs)} input(s) "
                            f"({', '.join(self._inputs)}), but got {len(inputs)}")
        _check_inputs(self.name, self._inputs, inputs, self._dtypes)
        return inputs[0]._shape, inputs[0]._dtype


class ReLU(_Elementwise):
    """``max(x, 0)``, elementwise, for any number dtype: ``ReLU()(x)``."""

    bprop_reads_inputs = False  # the output only

    _dtypes = mstype.number_type

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (_relu_grad(dout, out),)


class ReluGrad(_Elementwise):
    """``y_backprop`` where ``x > 0``, else 0: ``ReluGrad()(y_backprop, x)``."""

    _inputs = ("y_backprop", "x")
    _dtypes = mstype.number_type

    def bprop(self, dy: Tensor, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return _relu_grad(dout, x), F.zeros_like(x)


class ReLU6(_Elementwise):
    """``min(max(x, 0), 6)``, elementwise: ``ReLU6()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (_relu6_grad(dout, x),)


class ReLU6Grad(_Elementwise):
    """``y_grad`` where ``0 < x <= 6``, else 0 (as MindSpore's kernel): ``ReLU6Grad()(y_grad,
    x)``."""

    _inputs = ("y_grad", "x")

    def bprop(self, dy: Tensor, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return _relu6_grad(dout, x), F.zeros_like(x)


class Sigmoid(_Elementwise):
    """``1 / (1 + exp(-x))``, elementwise: ``Sigmoid()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (_sigmoid_grad(out, dout),)


class SigmoidGrad(_Elementwise):
    """``dy * y * (1 - y)`` for ``y = sigmoid(x)``: ``SigmoidGrad()(y, dy)``."""

    _inputs = ("y", "dy")

    def bprop(self, y: Tensor, dy: Tensor, out: Tensor, dout: Tensor) -> tuple:
        d_y = F.mul(F.mul(dout, dy), F.sub(1.0, F.mul(y, 2.0)))
        return d_y, _sigmoid_grad(y, dout)


class Tanh(_Elementwise):
    """Hyperbolic tangent, elementwise: ``Tanh()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (_tanh_grad(out, dout),)


class TanhGrad(_Elementwise):
    """``dy * (1 - y**2)`` for ``y = tanh(x)``: ``TanhGrad()(y, dy)``."""

    _inputs = ("y", "dy")

    def bprop(self, y: Tensor, dy: Tensor, out: Tensor, dout: Tensor) -> tuple:
        d_y = F.mul(F.mul(F.mul(dout, dy), y), -2.0)
        return d_y, _tanh_grad(y, dout)


class GeLU(_Elementwise):
    """Gaussian error linear unit in MindSpore's tanh form:
    ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))``: ``GeLU()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (_gelu_grad(dout, x, out),)


class GeLUGrad(_Elementwise):
    """The derivative of GeLU at ``x`` times ``y_backprop``:
    ``GeLUGrad()(y_backprop, x, y)`` with ``y = gelu(x)``."""

    _inputs = ("y_backprop", "x", "y")


# -- softmax --------------------------------------------------------------------------------
def _check_axes(op: str, axes: tuple[int, ...], x: Tensor) -> tuple[int, ...]:
    """``axes`` as non-negative axes of ``x``; ValueError naming ``op`` if one is out of range
    or repeated."""
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            raise ValueError(f"{op}: axis {a} is out of range [{-x.ndim}, {x.ndim}) for x of "
                             f"shape {list(x.shape)}")
    result = tuple(a % x.ndim for a in axes)
    if len(set(result)) != len(result):
        raise ValueError(f"{op}: axis {axes} repeats an axis of x of shape {list(x.shape)}")
    return result


class Softmax(Primitive):
    """``exp(x) / sum(exp(x))`` over ``axis`` (an int or a tuple of ints):
    ``Softmax(axis=-1)(x)``."""

    def __init__(self, axis: int | tuple[int, ...] = -1) -> None:
        super().__init__()
        axes = (axis,) if isinstance(axis, int) and not isinstance(axis, bool) else axis
        if not _is_ints(axes):
            raise TypeError(f"Softmax: 'axis' must be an int or a tuple of ints, "
                            f"but got {axis!r}")
        self.axis: tuple[int, ...] = tuple(axes)

    def infer(self, x: Any) -> Spec:
        if not self.axis:  # as MindSpore 1.6, an empty tuple fails when the op is used
            raise ValueError("Softmax: 'axis' must name at least one axis, but got ()")
        check_tensor(self.name, "x", x, _FLOAT)
        _check_axes(self.name, self.axis, x)
        return x._shape, x._dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        axes = _check_axes(self.name, self.axis, x)
        return (F.mul(out, F.sub(dout, _keep_sum(F.mul(out, dout), axes))),)


class LogSoftmax(Primitive):
    """``x - log(sum(exp(x)))`` over ``axis``: ``LogSoftmax(axis=-1)(x)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"LogSoftmax: 'axis' must be an int, but got {axis!r}")
        self.axis = axis
        self._softmax = Softmax(axis)

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x, _FLOAT)
        _check_axes(self.name, (self.axis,), x)
        return x._shape, x._dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        axes = _check_axes(self.name, (self.axis,), x)
        return (F.sub(dout, F.mul(self._softmax(x), _keep_sum(dout, axes))),)


# -- bias -----------------------------------------------------------------------------------
class BiasAdd(Primitive):
    """``x`` plus the 1-D ``bias`` along the channel axis of ``data_format`` ('NCHW': axis 1,
    'NHWC': the last, 'NCDHW': axis 1 of a 5-D ``x``): ``BiasAdd()(x, bias)``."""

    bprop_reads_inputs = bprop_reads_out = False  # shapes and dtypes only

    def __init__(self, data_format: str = "NCHW") -> None:
        super().__init__()
        self.data_format = _check_format(self.name, data_format, ("NCHW", "NHWC", "NCDHW"))
        self._grad = BiasAddGrad(self.data_format)

    def _channel_axis(self, x: Tensor) -> int:
        return x.ndim - 1 if self.data_format == "NHWC" else 1

    def infer(self, x: Any, bias: Any) -> Spec:
        _check_inputs(self.name, ("x", "bias"), (x, bias), mstype.number_type, shape=False)
        if x.ndim < 2 or self.data_format == "NCDHW" and x.ndim != 5:
            rank = "5" if self.data_format == "NCDHW" else ">= 2"
            raise ValueError(f"BiasAdd: 'x' must have rank {rank} for data_format "
                             f"{self.data_format!r}, but got shape {list(x.shape)}")
        channels = x.shape[self._channel_axis(x)]
        if bias.shape != (channels,):
            raise ValueError(f"BiasAdd: 'bias' must have shape [{channels}] (the channels of x "
                             f"of shape {list(x.shape)} in {self.data_format}), but got "
                             f"{list(bias.shape)}")
        return x._shape, x._dtype

    def bprop(self, x: Tensor, bias: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return dout, self._grad(dout) if needs_grad(bias) else None


class BiasAddGrad(Primitive):
    """The gradient of BiasAdd with respect to its bias: ``dout`` summed over every axis but
    the channel axis of ``data_format``: ``BiasAddGrad(data_format="NCHW")(dout)``."""

    def __init__(self, data_format: str = "NCHW") -> None:
        super().__init__()
        self.data_format = _check_format(self.name, data_format, ("NCHW", "NHWC", "NCDHW"))

    def channel(self, ndim: int) -> int:
        return ndim - 1 if self.data_format == "NHWC" else 1

    def axes(self, ndim: int) -> tuple[int, ...]:
        """The axes summed over."""
        return tuple(i for i in range(ndim) if i != self.channel(ndim))

    def infer(self, dout: Any) -> Spec:
        check_tensor(self.name, "dout", dout, mstype.number_type)
        if dout.ndim < 2:
            raise ValueError(f"BiasAddGrad: 'dout' must have rank >= 2, but got shape "
                             f"{list(dout.shape)}")
        return (dout.shape[self.channel(dout.ndim)],), dout.dtype

    def bprop(self, dout: Tensor, out: Tensor, grad: Tensor) -> tuple:
        shape = [1] * dout.ndim
        shape[self.channel(dout.ndim)] = grad.shape[0]
        return (F.broadcast_to(F.reshape(grad, tuple(shape)), dout.shape),)


class Flatten(Primitive):
    """``x`` as (N, the product of the other dimensions): ``Flatten()(x)``."""

    bprop_reads_inputs = bprop_reads_out = False  # shapes and dtypes only

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "input_x", x)
        if x.ndim < 1:
            raise ValueError(f"Flatten: 'input_x' must have rank >= 1, but got shape "
                             f"{list(x.shape)}")
        return (x.shape[0], math.prod(x.shape[1:])), x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (F.reshape(dout, x.shape),)


# -- convolution ----------------------------------------------------------------------------
class _ConvBase(_Family):
    """The attributes, geometry and shape checks that a convolution and its backward
    primitives share, over the spatial axes ``_axes`` ("hw": 2-D; "dhw": 3-D). ``pad_list``,
    where given, is the padding (before, after per axis) to use."""

    _axes = "hw"
    _formats: tuple[str, ...] = ("NCHW",)
    pad_list: tuple[int, ...] | None = None

    def __init__(self, out_channel: int, kernel_size: int | tuple[int, ...], mode: int,
                 pad_mode: str, pad: int | tuple[int, ...], stride: Any, dilation: Any,
                 group: int, data_format: str) -> None:
        super().__init__()
        op, axes = self.name, self._axes
        self.out_channel = _check_int(op, "out_channel", out_channel, 1)
        self.kernel_size = _check_window(op, "kernel_size", kernel_size, False, axes)
        if mode != 1 or not isinstance(mode, int) or isinstance(mode, bool):
            raise ValueError(f"{op}: 'mode' must be 1, but got {mode!r}")
        self.mode = mode
        self.pad_mode = _check_choice(op, "pad_mode", pad_mode, ("valid", "same", "pad"))
        self.pad = _check_pads(op, "pad", pad, axes)
        if pad_mode != "pad" and any(self.pad):
            raise ValueError(f"{op}: 'pad' must be 0 when 'pad_mode' is {pad_mode!r} (only "
                             f"'pad' uses it), but got {pad!r}")
        self.stride = (1, 1, *_check_window(op, "stride", stride, True, axes))
        self.dilation = (1, 1, *_check_window(op, "dilation", dilation, True, axes))
        self.group = _check_int(op, "group", group, 1)
        if out_channel % group:
            raise ValueError(f"{op}: 'out_channel' ({out_channel}) must be divisible by "
                             f"'group' ({group})")
        self.data_format = _check_format(op, data_format, self._formats)

    def _sibling_attrs(self) -> dict[str, Any]:
        explicit = self.pad_list is not None
        return {"out_channel": self.out_channel, "kernel_size": self.kernel_size,
                "mode": self.mode, "pad_mode": "pad" if explicit else self.pad_mode,
                "pad": self.pad_list if explicit else self.pad, "stride": self.stride,
                "dilation": self.dilation, "group": self.group,
                "data_format": self.data_format}

    def geometry(self, spatial: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Padding (before, after per spatial axis, flat) and output size for an input of
        spatial size ``spatial``."""
        mode, pads = ("pad", self.pad_list) if self.pad_list is not None else (
            self.pad_mode, self.pad)
        return _windows_geometry(mode, spatial, self.kernel_size, self.stride[2:],
                                 self.dilation[2:], pads)

    def conv_channels(self) -> int:
        """The output channels of the convolution (this primitive's or the one it is the
        gradient of)."""
        return self.out_channel

    def _out_shape(self, x_shape: tuple[int, ...], w_shape: tuple[int, ...]) -> tuple[int, ...]:
        """The (checked) output shape of the convolution of ``x_shape`` by ``w_shape``."""
        op, out_channel = self.name, self.conv_channels()
        if w_shape[0] != out_channel or tuple(w_shape[2:]) != self.kernel_size:
            raise ValueError(f"{op}: the weight must have shape [out_channel, in_channel / "
                             f"group, *kernel_size] = [{out_channel}, _, "
                             f"{', '.join(map(str, self.kernel_size))}], but got "
                             f"{list(w_shape)}")
        if x_shape[1] != w_shape[1] * self.group:
            raise ValueError(f"{op}: x of shape {list(x_shape)} has {x_shape[1]} channels, but "
                             f"the weight of shape {list(w_shape)} with group {self.group} "
                             f"expects {w_shape[1] * self.group}")
        _, out = self.geometry(x_shape[2:])
        if min(out) < 1:
            raise ValueError(f"{op}: x of shape {list(x_shape)} is too small for kernel "
                             f"{list(self.kernel_size)} with dilation {list(self.dilation[2:])} "
                             f"and pad_mode {self.pad_mode!r}: the output would be "
                             f"{' x '.join(map(str, out))}")
        return (x_shape[0], out_channel, *out)

    def _check_dout(self, dout: Tensor, expected: tuple[int, ...]) -> None:
        if dout.shape != expected:
            raise ValueError(f"{self.name}: 'dout' must have the convolution's output shape "
                             f"{list(expected)}, but got {list(dout.shape)}")

    def _input_grad_spec(self, dout: Any, weight: Any, input_size: Any) -> Spec:
        """The checked output of a gradient with respect to the input (of ``input_size``)."""
        rank = len(self._axes) + 2
        _check_inputs(self.name, ("dout", "weight"), (dout, weight), shape=False)
        _check_rank(self.name, "weight", weight, (rank,))
        input_size = _check_shape(self.name, "input_size", input_size, rank)
        self._check_dout(dout, self._out_shape(input_size, weight.shape))
        return input_size, dout.dtype

    def _filter_grad_spec(self, dout: Any, x: Any, filter_size: Any) -> Spec:
        """The checked output of a gradient with respect to the weight (of ``filter_size``)."""
        rank = len(self._axes) + 2
        _check_inputs(self.name, ("dout", "x"), (dout, x), shape=False)
        _check_rank(self.name, "x", x, (rank,))
        filter_size = _check_shape(self.name, "filter_size", filter_size, rank)
        self._check_dout(dout, self._out_shape(x.shape, filter_size))
        return filter_size, dout.dtype


class Conv2D(_ConvBase):
    """2-D cross-correlation of NCHW ``x`` with weight (out_channel, C / group, kh, kw):
    ``Conv2D(out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
    group=1, data_format="NCHW")(x, weight)``."""

    bprop_reads_out = False

    def __init__(self, out_channel: int, kernel_size: int | tuple[int, int], mode: int = 1,
                 pad_mode: str = "valid", pad: int | tuple[int, int, int, int] = 0,
                 stride: Any = 1, dilation: Any = 1, group: int = 1,
                 data_format: str = "NCHW") -> None:
        super().__init__(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                         data_format)

    def infer(self, x: Any, weight: Any) -> Spec:
        _check_inputs(self.name, ("x", "weight"), (x, weight), shape=False)
        _check_rank(self.name, "x", x, (4,))
        _check_rank(self.name, "weight", weight, (4,))
        return self._out_shape(x.shape, weight.shape), x.dtype

    def bprop(self, x: Tensor, w: Tensor, out: Tensor, dout: Tensor) -> tuple:
        dx = self._sibling(Conv2DBackpropInput)(dout, w, x.shape) if needs_grad(x) else None
        dw = self._sibling(Conv2DBackpropFilter)(dout, x, w.shape) if needs_grad(w) else None
        return dx, dw


class _Conv2DBackprop(_ConvBase):
    """MindSpore's argument order: (out_channel, kernel_size, pad_mode, pad, pad_list, mode,
    stride, dilation, group, data_format)."""

    def __init__(self, out_channel: int, kernel_size: int | tuple[int, int],
                 pad_mode: str = "valid", pad: int | tuple[int, int, int, int] = 0,
                 pad_list: tuple[int, int, int, int] | None = None, mode: int = 1,
                 stride: Any = 1, dilation: Any = 1, group: int = 1,
                 data_format: str = "NCHW") -> None:
        super().__init__(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                         data_format)
        if pad_list is not None:
            self.pad_list = _check_pads(self.name, "pad_list", pad_list)

    def _weight_shape(self, operand: Any, size: Any) -> Any:
        """The shape of the convolution's weight among the inputs."""
        raise NotImplementedError

    def __call__(self, dout: Any, operand: Any, size: Any) -> Any:
        """As in MindSpore 1.6, the weight's shape gives the kernel: ``out_channel`` and
        ``kernel_size`` other than it are overridden."""
        shape = self._weight_shape(operand, size)
        if (isinstance(shape, tuple | list) and len(shape) == 4
                and (shape[0], tuple(shape[2:])) != (self.out_channel, self.kernel_size)):
            attrs = self._sibling_attrs()
            return self._derived(
                type(self), shape[0], tuple(shape[2:]), attrs["pad_mode"], attrs["pad"], None,
                self.mode, self.stride, self.dilation, self.group, self.data_format,
            )(dout, operand, size)
        return super().__call__(dout, operand, size)


class Conv2DBackpropInput(_Conv2DBackprop):
    """The gradient of Conv2D with respect to its input, of shape ``input_size``:
    ``Conv2DBackpropInput(out_channel, kernel_size, ...)(dout, weight, input_size)``."""

    def _weight_shape(self, weight: Any, input_size: Any) -> Any:
        return getattr(weight, "shape", None)

    def infer(self, dout: Any, weight: Any, input_size: Any) -> Spec:
        return self._input_grad_spec(dout, weight, input_size)

    def bprop(self, dout: Tensor, w: Tensor, input_size: Any, out: Tensor,
              grad: Tensor) -> tuple:
        return (self._sibling(Conv2D)(grad, w),
                self._sibling(Conv2DBackpropFilter)(dout, grad, w.shape), None)


class Conv2DTranspose(Conv2DBackpropInput):
    """Transposed 2-D convolution, which is Conv2DBackpropInput under MindSpore's second name:
    ``Conv2DTranspose(out_channel, kernel_size, ...)(dout, weight, input_size)``."""


class Conv2DBackpropFilter(_Conv2DBackprop):
    """The gradient of Conv2D with respect to its weight, of shape ``filter_size``:
    ``Conv2DBackpropFilter(out_channel, kernel_size, ...)(dout, x, filter_size)``."""

    def _weight_shape(self, x: Any, filter_size: Any) -> Any:
        return filter_size

    def infer(self, dout: Any, x: Any, filter_size: Any) -> Spec:
        return self._filter_grad_spec(dout, x, filter_size)

    def bprop(self, dout: Tensor, x: Tensor, filter_size: Any, out: Tensor,
              grad: Tensor) -> tuple:
        return (self._sibling(Conv2D)(x, grad),
                self._sibling(Conv2DBackpropInput)(dout, grad, x.shape), None)


# -- pooling --------------------------------------------------------------------------------
class _PoolBase(_Family):
    """Pooling attributes as MindSpore stores them: kernel_size and strides as (1, 1, h, w),
    pad_mode upper-case ('VALID' or 'SAME', given in either case)."""

    def __init__(self, kernel_size: int | tuple[int, int] = 1, strides: int | tuple[int, int] = 1,
                 pad_mode: str = "valid", data_format: str = "NCHW") -> None:
        super().__init__()
        op = self.name
        self.kernel_size = (1, 1, *_check_window(op, "kernel_size", kernel_size, False))
        self.strides = (1, 1, *_check_window(op, "strides", strides, False))
        self.pad_mode = _check_choice(op, "pad_mode", pad_mode.upper() if isinstance(
            pad_mode, str) else pad_mode, ("VALID", "SAME"))
        self.data_format = _check_format(op, data_format)

    def _sibling_attrs(self) -> dict[str, Any]:
        return {"kernel_size": self.kernel_size[2:], "strides": self.strides[2:],
                "pad_mode": self.pad_mode, "data_format": self.data_format}

    def geometry(self, hw: tuple[int, ...]) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
        """Padding (top, bottom, left, right) and output (height, width) for an input of
        (height, width) ``hw``."""
        mode, (kh, kw), (sh, sw) = self.pad_mode.lower(), self.kernel_size[2:], self.strides[2:]
        top, bottom, ho = _window_geometry(mode, hw[0], kh, sh, 1, (0, 0))
        left, right, wo = _window_geometry(mode, hw[1], kw, sw, 1, (0, 0))
        return (top, bottom, left, right), (ho, wo)

    def divisor(self, hw: tuple[int, ...]) -> np.ndarray:
        """What AvgPool divides each window's sum by, of the output's (height, width): the
        number of its elements inside the image (float64)."""
        pads, out = self.geometry(hw)
        return _window_divisors(hw, self.kernel_size[2:], self.strides[2:], pads, out)

    def _out_shape(self, x: Tensor) -> tuple[int, ...]:
        check_tensor(self.name, "x", x, _FLOAT)
        _check_rank(self.name, "x", x, (4,))
        _, (ho, wo) = self.geometry(x.shape[2:])
        if ho < 1 or wo < 1:
            raise ValueError(f"{self.name}: x of shape {list(x.shape)} is too small for "
                             f"kernel_size {list(self.kernel_size[2:])} with pad_mode "
                             f"{self.pad_mode!r}: the output would be {ho} x {wo}")
        return (*x.shape[:2], ho, wo)


class _Pool(_PoolBase):
    def infer(self, x: Any) -> Spec:
        return self._out_shape(x), x.dtype


class _PoolGrad(_PoolBase):
    """Inputs (x_origin, out_origin, grad): the pool's input, its output and the output's
    gradient; the result is the gradient with respect to ``x_origin``."""

    def infer(self, x: Any, out: Any, grad: Any) -> Spec:
        out_shape = self._out_shape(x)
        _check_inputs(self.name, ("x_origin", "out_origin", "grad"), (x, out, grad),
                      shape=False)
        for name, t in (("out_origin", out), ("grad", grad)):
            if t.shape != out_shape:
                raise ValueError(f"{self.name}: '{name}' must have the pool's output shape "
                                 f"{list(out_shape)}, but got {list(t.shape)}")
        return x._shape, x._dtype


class MaxPool(_Pool):
    """The maximum of each window of NCHW ``x``:
    ``MaxPool(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW")(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (self._sibling(MaxPoolGrad)(x, out, dout),)


class MaxPoolWithArgmax(_Pool):
    """The maximum of each window of NCHW ``x`` and where it is, as the int32 position
    ``h * W + w`` in its (H, W) plane of ``x`` (the first in row-major order where several
    are equal, as MaxPoolGrad routes): ``MaxPoolWithArgmax(kernel_size=1, strides=1,
    pad_mode="valid", data_format="NCHW")(x)`` -> (output, argmax)."""

    def infer(self, x: Any) -> list[Spec]:
        shape = self._out_shape(x)
        return [(shape, x.dtype), (shape, mstype.int32)]

    def bprop(self, x: Tensor, out: tuple, dout: tuple) -> tuple:
        return (self._sibling(MaxPoolGradWithArgmax)(x, dout[0], out[1]),)


class MaxPoolGrad(_PoolGrad):
    """``grad`` routed to the first maximum of each window:
    ``MaxPoolGrad(kernel_size, strides, pad_mode)(x_origin, out_origin, grad)``."""

    def bprop(self, x: Tensor, out: Tensor, grad: Tensor, dx: Tensor, dout: Tensor) -> tuple:
        return F.zeros_like(x), F.zeros_like(out), self._sibling(MaxPoolGradGrad)(x, out, dout)


class MaxPoolGradGrad(_PoolBase):
    """The gradient of MaxPoolGrad: ``grad`` (of x's shape) read at each window's first
    maximum: ``MaxPoolGradGrad(kernel_size=1, strides=1, pad_mode="valid")(x_origin,
    out_origin, grad)``, of the pool's output shape."""

    def infer(self, x: Any, out: Any, grad: Any) -> Spec:
        out_shape = self._out_shape(x)
        _check_inputs(self.name, ("x_origin", "out_origin", "grad"), (x, out, grad),
                      shape=False)
        for name, t, shape in (("out_origin", out, out_shape), ("grad", grad, x.shape)):
            if t.shape != shape:
                raise ValueError(f"{self.name}: '{name}' must have shape {list(shape)}, but got "
                                 f"{list(t.shape)}")
        return out_shape, x.dtype

    def bprop(self, x: Tensor, out: Tensor, grad: Tensor, result: Tensor,
              dout: Tensor) -> tuple:
        return F.zeros_like(x), F.zeros_like(out), self._sibling(MaxPoolGrad)(x, out, dout)


class _ArgmaxPoolGrad(_PoolBase):
    """Inputs (x, grad, argmax): MaxPoolWithArgmax's input, a gradient, and the positions
    ``h * W + w`` it gives (int32 or int64, of the pool's output shape)."""

    def _check(self, x: Any, grad: Any, argmax: Any, grad_shape: Callable) -> tuple[int, ...]:
        out_shape = self._out_shape(x)
        check_tensor(self.name, "grad", grad, (x.dtype,))
        check_tensor(self.name, "argmax", argmax, (mstype.int32, mstype.int64))
        for name, t, shape in (("argmax", argmax, out_shape),
                               ("grad", grad, grad_shape(x.shape, out_shape))):
            if t.shape != shape:
                raise ValueError(f"{self.name}: '{name}' must have shape {list(shape)}, but got "
                                 f"{list(t.shape)}")
        return out_shape


class MaxPoolGradWithArgmax(_ArgmaxPoolGrad):
    """``grad`` (of the pool's output shape) added up at the positions ``argmax`` of each
    plane of ``x``: ``MaxPoolGradWithArgmax(kernel_size=1, strides=1, pad_mode="valid")(x,
    grad, argmax)``, of x's shape."""

    def infer(self, x: Any, grad: Any, argmax: Any) -> Spec:
        self._check(x, grad, argmax, lambda x_shape, out_shape: out_shape)
        return x.shape, grad.dtype

    def bprop(self, x: Tensor, grad: Tensor, argmax: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        return (F.zeros_like(x), self._sibling(MaxPoolGradGradWithArgmax)(x, dout, argmax),
                F.zeros_like(argmax))


class MaxPoolGradGradWithArgmax(_ArgmaxPoolGrad):
    """``grad`` (of x's shape) read at the positions ``argmax`` of each plane:
    ``MaxPoolGradGradWithArgmax(kernel_size=1, strides=1, pad_mode="valid")(x, grad,
    argmax)``, of the pool's output shape."""

    def infer(self, x: Any, grad: Any, argmax: Any) -> Spec:
        return self._check(x, grad, argmax, lambda x_shape, out_shape: x_shape), grad.dtype

    def bprop(self, x: Tensor, grad: Tensor, argmax: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        return (F.zeros_like(x), self._sibling(MaxPoolGradWithArgmax)(x, dout, argmax),
                F.zeros_like(argmax))


class AvgPool(_Pool):
    """The mean of each window of NCHW ``x`` (with 'SAME', of its elements inside ``x``):
    ``AvgPool(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW")(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (self._sibling(AvgPoolGrad)(x, out, dout),)


class AvgPoolGrad(_PoolGrad):
    """``grad`` spread evenly over each window:
    ``AvgPoolGrad(kernel_size, strides, pad_mode)(x_origin, out_origin, grad)``."""

    def bprop(self, x: Tensor, out: Tensor, grad: Tensor, dx: Tensor, dout: Tensor) -> tuple:
        return F.zeros_like(x), F.zeros_like(out), self._sibling(AvgPool)(dout)


# -- batch normalization --------------------------------------------------------------------
class BatchNorm(Primitive):
    """Batch normalization of (N, C) or NCHW ``x`` per channel:
    ``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW")(x, scale,
    bias, mean, variance)`` -> (y, batch_mean, batch_variance, reserve_space_1,
    reserve_space_2).

    Training: ``y`` uses the batch's statistics; ``batch_mean`` is their mean and
    ``batch_variance`` their unbiased variance (divided by n - 1, as the moving variance is
    updated on GPU and Ascend); ``reserve_space_1`` and ``reserve_space_2`` are the mean and
    the biased variance ``y`` used. The inputs ``mean`` and ``variance`` are not read and not
    updated: ``nn.BatchNorm2d`` updates its moving statistics from ``batch_mean`` and
    ``batch_variance`` with ``momentum``. Inference: ``y`` uses ``mean`` and ``variance``,
    which are also returned as the four other outputs.
    """

    def __init__(self, is_training: bool = False, epsilon: float = 1e-5, momentum: float = 0.1,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        self.is_training = _check_bool(self.name, "is_training", is_training)
        self.epsilon = _check_fraction(self.name, "epsilon", epsilon, zero_ok=False)
        self.momentum = _check_fraction(self.name, "momentum", momentum, zero_ok=True)
        self.data_format = _check_format(self.name, data_format)
        self._grad = BatchNormGrad(is_training, epsilon, data_format)

    def infer(self, x: Any, scale: Any, bias: Any, mean: Any, variance: Any) -> list[Spec]:
        op = self.name
        check_tensor(op, "x", x, _FLOAT)
        _check_rank(op, "x", x, (2, 4))
        _check_inputs(op, ("scale", "bias"), (scale, bias))
        _check_inputs(op, ("mean", "variance"), (mean, variance))
        channels = x.shape[1]
        for name, t in (("scale", scale), ("mean", mean)):
            if t.shape != (channels,):
                raise ValueError(f"{op}: '{name}' must have shape [{channels}] (the channels "
                                 f"of x of shape {list(x.shape)}), but got {list(t.shape)}")
        if self.is_training and x.size == 0:
            raise ValueError(f"{op}: in training, x must hold values to take statistics of, "
                             f"but its shape is {list(x.shape)}")
        stats = ((channels,), scale.dtype)
        return [(x.shape, x.dtype), stats, stats, stats, stats]

    def bprop(self, x: Tensor, scale: Tensor, bias: Tensor, mean: Tensor, variance: Tensor,
              out: tuple, dout: tuple) -> tuple:
        if self.is_training:
            dx, dscale, dbias = self._grad(dout[0], x, scale, out[3], out[4])
            return (dx, dscale, dbias, F.zeros_like(mean) if needs_grad(mean) else None,
                    F.zeros_like(variance) if needs_grad(variance) else None)
        dx, dscale, dbias = self._grad(dout[0], x, scale, mean, variance)
        dmean = dvariance = None
        if needs_grad(mean):
            dmean = _cast_to(F.neg(F.reduce_sum(dx, (0, *range(2, x.ndim)))), mean.dtype)
        if needs_grad(variance):
            dvariance = _cast_to(F.real_div(F.mul(F.mul(dscale, scale), -0.5),
                                            F.add(variance, self.epsilon)), mean.dtype)
        return dx, dscale, dbias, dmean, dvariance


class BatchNormGrad(Primitive):
    """Gradients of BatchNorm's ``y`` with respect to x, scale and bias, from the statistics
    ``y`` used: ``BatchNormGrad(is_training, epsilon)(dy, x, scale, reserve_space_1,
    reserve_space_2)`` -> (dx, dscale, dbias). MindSpore 1.6's sixth input, the
    ``reserve_space_3`` of cuDNN and Ascend, may follow; no backend here reads it."""

    def __init__(self, is_training: bool = False, epsilon: float = 1e-5,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        self.is_training = _check_bool(self.name, "is_training", is_training)
        self.epsilon = _check_fraction(self.name, "epsilon", epsilon, zero_ok=False)
        self.data_format = _check_format(self.name, data_format)

    def prepare(self, args: tuple) -> tuple:
        if len(args) == 6:
            check_tensor(self.name, "reserve_space_3", args[5])
            return args[:5]
        return args

    def infer(self, dy: Any, x: Any, scale: Any, mean: Any, variance: Any) -> list[Spec]:
        op = self.name
        _check_inputs(op, ("dy", "x"), (dy, x))
        _check_rank(op, "x", x, (2, 4))
        _check_inputs(op, ("scale",), (scale,))
        _check_inputs(op, ("reserve_space_1", "reserve_space_2"), (mean, variance))
        for name, t in (("scale", scale), ("reserve_space_1", mean)):
            if t.shape != (x.shape[1],):
                raise ValueError(f"{op}: '{name}' must have shape [{x.shape[1]}], but got "
                                 f"{list(t.shape)}")
        stats = ((x.shape[1],), scale.dtype)
        return [(x.shape, x.dtype), stats, stats]


# -- dropout --------------------------------------------------------------------------------
class Dropout(Primitive):
    """Zeroes each element of ``x`` with probability ``1 - keep_prob`` and scales the rest by
    ``1 / keep_prob``: ``Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)`` -> (output, mask), the
    mask of 0s and 1s having the shape and dtype of ``x``. The masks drawn are reproducible
    under ``ember.set_seed`` or nonzero seeds."""

    pure = False  # each call draws a new mask

    def __init__(self, keep_prob: float = 0.5,
                 Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803 (MindSpore's names)
        super().__init__()
        self.keep_prob = _check_fraction(self.name, "keep_prob", keep_prob, zero_ok=False)
        self.seed0 = _check_int(self.name, "Seed0", Seed0, 0)
        self.seed1 = _check_int(self.name, "Seed1", Seed1, 0)
        self._grad = DropoutGrad(keep_prob)

    def infer(self, x: Any) -> list[Spec]:
        check_tensor(self.name, "x", x, _FLOAT)
        return [(x.shape, x.dtype), (x.shape, x.dtype)]

    def bprop(self, x: Tensor, out: tuple, dout: tuple) -> tuple:
        return (self._grad(dout[0], out[1]),)


class DropoutGrad(Primitive):
    """``dy * mask / keep_prob``: ``DropoutGrad(keep_prob=0.5)(dy, mask)``."""

    def __init__(self, keep_prob: float = 0.5) -> None:
        super().__init__()
        self.keep_prob = _check_fraction(self.name, "keep_prob", keep_prob, zero_ok=False)

    def infer(self, dy: Any, mask: Any) -> Spec:
        _check_inputs(self.name, ("dy", "mask"), (dy, mask))
        return dy.shape, dy.dtype

    def bprop(self, dy: Tensor, mask: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return self(dout, mask), self(dout, dy)


# -- losses ---------------------------------------------------------------------------------
class SoftmaxCrossEntropyWithLogits(Primitive):
    """Cross entropy of softmax(``logits``) against one-hot (or soft) ``labels``, both (N, C):
    ``SoftmaxCrossEntropyWithLogits()(logits, labels)`` -> (loss of shape (N,),
    backprop = softmax(logits) - labels). Gradients flow from ``loss`` only."""

    def __init__(self) -> None:
        super().__init__()
        self._log_softmax = LogSoftmax(-1)

    def infer(self, logits: Any, labels: Any) -> list[Spec]:
        _check_inputs(self.name, ("logits", "labels"), (logits, labels))
        _check_rank(self.name, "logits", logits, (2,))
        return [(logits.shape[:1], logits.dtype), (logits.shape, logits.dtype)]

    def bprop(self, logits: Tensor, labels: Tensor, out: tuple, dout: tuple) -> tuple:
        dloss = F.reshape(dout[0], (logits.shape[0], 1))
        return (F.mul(out[1], dloss) if needs_grad(logits) else None,
                F.mul(self._log_softmax(logits), F.neg(dloss)) if needs_grad(labels) else None)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mean cross entropy of softmax(``logits``) (N, C) against class indices ``labels`` (N,)
    of int32 or int64: ``SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels)``;
    with ``is_grad=True``, its gradient with respect to ``logits`` instead."""

    bprop_reads_out = False

    def __init__(self, is_grad: bool = False) -> None:
        super().__init__()
        self.is_grad = _check_bool(self.name, "is_grad", is_grad)

    def infer(self, logits: Any, labels: Any) -> Spec:
        op = self.name
        check_tensor(op, "logits", logits, _FLOAT)
        check_tensor(op, "labels", labels, (mstype.int32, mstype.int64))
        _check_rank(op, "logits", logits, (2,))
        if labels.shape != logits.shape[:1]:
            raise ValueError(f"{op}: 'labels' must have shape [{logits.shape[0]}] (one class "
                             f"index per row of logits of shape {list(logits.shape)}), but got "
                             f"{list(labels.shape)}")
        return (logits.shape if self.is_grad else ()), logits.dtype

    def bprop(self, logits: Tensor, labels: Tensor, out: Tensor, dout: Tensor) -> tuple:
        if self.is_grad:
            raise RuntimeError(f"{self.name} with is_grad=True is a gradient; ember does not "
                               "differentiate it")
        return F.mul(_sparse_softmax_ce_grad(logits, labels), dout), None


# -- functional forms and the instances backward rules use -----------------------------------
bias_add = BiasAdd()
relu = ReLU()
relu6 = ReLU6()
sigmoid = Sigmoid()
tanh = Tanh()
gelu = GeLU()
softmax = Softmax()
log_softmax = LogSoftmax()
softmax_cross_entropy_with_logits = SoftmaxCrossEntropyWithLogits()
sparse_softmax_cross_entropy_with_logits = SparseSoftmaxCrossEntropyWithLogits()

_relu_grad = ReluGrad()
_relu6_grad = ReLU6Grad()
_sigmoid_grad = SigmoidGrad()
_tanh_grad = TanhGrad()
_gelu_grad = GeLUGrad()
_sparse_softmax_ce_grad = SparseSoftmaxCrossEntropyWithLogits(is_grad=True)
