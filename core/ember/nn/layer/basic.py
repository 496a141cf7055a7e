"""Basic layers: ``Dense``, ``Flatten``, ``Dropout``; and the argument checks the layers share."""

from __future__ import annotations

import math
import numbers
from typing import Any

from ember.common import dtype as mstype
from ember.common.initializer import initializer
from ember.common.parameter import Parameter
from ember.common.seed import generator, get_seed
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.activation import get_activation
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops.primitive import Primitive

__all__ = ["ClipByNorm", "Dense", "Dropout", "Flatten", "L1Regularizer", "Norm", "OneHot"]


# -- argument checks shared by the layers -------------------------------------------------------
def check_int(layer: str, name: str, value: Any, minimum: int = 1) -> int:
    """``value`` if it is an int >= ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{layer}: '{name}' must be an int, but got {value!r}")
    if value < minimum:
        raise ValueError(f"{layer}: '{name}' must be an int >= {minimum}, but got {value}")
    return value


def check_bool(layer: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{layer}: '{name}' must be a bool, but got {value!r}")
    return value


def check_number(layer: str, name: str, value: Any, low: float, high: float,
                 low_open: bool = False) -> float:
    """``value`` if it is a real number in [low, high] (or (low, high] with ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{layer}: '{name}' must be a number, but got {value!r}")
    if not (low < value if low_open else low <= value) or value > high:
        interval = f"{'(' if low_open else '['}{low}, {high}]"
        raise ValueError(f"{layer}: '{name}' must be in {interval}, but got {value}")
    return value


def check_choice(layer: str, name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{layer}: '{name}' must be a str, but got {value!r}")
    if value not in choices:
        raise ValueError(f"{layer}: '{name}' must be one of {list(choices)}, but got {value!r}")
    return value


def is_int(value: Any, minimum: int) -> bool:
    """Whether ``value`` is an int (not a bool) >= ``minimum``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def check_window(layer: str, name: str, value: Any) -> int | tuple[int, int]:
    """``value`` if it is a positive int or a tuple of two positive ints."""
    if not isinstance(value, int | tuple) or isinstance(value, bool):
        raise TypeError(f"{layer}: '{name}' must be an int or a tuple of two ints, but got "
                        f"{value!r}")
    if not (is_int(value, 1) or isinstance(value, tuple) and len(value) == 2
            and all(is_int(v, 1) for v in value)):
        raise ValueError(f"{layer}: '{name}' must be a positive int or a tuple of two positive "
                         f"ints, but got {value!r}")
    return value


def pair(layer: str, name: str, value: Any) -> tuple[int, int]:
    """A positive int or a tuple of two, as a (height, width) pair."""
    checked = check_window(layer, name, value)
    return (checked, checked) if isinstance(checked, int) else checked


def check_input(layer: str, x: Any, rank: int, exact: bool = False) -> Tensor:
    """``x`` if it is a Tensor of rank ``rank`` (or more, unless ``exact``)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{layer}: the input must be a Tensor, but got {type(x).__name__}")
    if x.ndim < rank or exact and x.ndim != rank:
        raise ValueError(f"{layer}: the input must have {rank}{'' if exact else ' or more'} "
                         f"dimensions, but got shape {list(x.shape)}")
    return x


def make_parameter(layer: str, arg: str, init: Any, shape: tuple[int, ...], name: str,
                   requires_grad: bool = True) -> Parameter:
    """The Parameter ``name`` of ``shape`` initialized by the layer argument ``arg``."""
    try:
        data = initializer(init, shape)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{layer}: '{arg}': {exc}") from None
    return Parameter(data, name=name, requires_grad=requires_grad)


# -- layers -------------------------------------------------------------------------------------
class Dense(Cell):
    """Fully connected layer ``activation(x @ weight.T + bias)`` over the last axis of ``x``.

    ``Dense(in_channels, out_channels, weight_init='normal', bias_init='zeros', has_bias=True,
    activation=None)``: parameters ``weight`` (out_channels, in_channels) and ``bias``
    (out_channels,); ``activation`` is a name (``'relu'``), a Cell or a Primitive.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal",
                 bias_init: Any = "zeros", has_bias: bool = True, activation: Any = None) -> None:
        super().__init__()
        self.in_channels = check_int("Dense", "in_channels", in_channels)
        self.out_channels = check_int("Dense", "out_channels", out_channels)
        self.has_bias = check_bool("Dense", "has_bias", has_bias)
        act = get_activation(activation, "Dense") if isinstance(activation, str) else activation
        if act is not None and not isinstance(act, Cell | Primitive):
            raise TypeError("Dense: 'activation' must be a str, a Cell or a Primitive, but got "
                            f"{type(activation).__name__}")
        self.matmul = P.MatMul(transpose_b=True)
        self.bias_add = P.BiasAdd()
        self.weight = make_parameter("Dense", "weight_init", weight_init,
                                     (out_channels, in_channels), "weight")
        self.bias = make_parameter("Dense", "bias_init", bias_init, (out_channels,),
                                   "bias") if has_bias else None
        self.activation = act
        self.activation_flag = act is not None

    def construct(self, x: Tensor) -> Tensor:
        shape = check_input("Dense", x, 2).shape
        if len(shape) != 2:
            x = F.reshape(x, (-1, shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(shape) != 2:
            x = F.reshape(x, shape[:-1] + (self.out_channels,))
        return x

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """``x`` reshaped to (batch, everything else): ``Flatten()(x)``."""

    def construct(self, x: Tensor) -> Tensor:
        shape = check_input("Flatten", x, 1).shape
        return F.reshape(x, (shape[0], math.prod(shape[1:])))


class Dropout(Cell):
    """In training, zero each element with probability 1 - keep_prob and scale the rest by
    1 / keep_prob; the identity otherwise: ``Dropout(keep_prob=0.5, dtype=ember.float32)``."""

    def __init__(self, keep_prob: float = 0.5, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        if not isinstance(keep_prob, float):
            raise TypeError(f"Dropout: 'keep_prob' must be a float, but got {keep_prob!r}")
        self.keep_prob = check_number("Dropout", "keep_prob", keep_prob, 0.0, 1.0, low_open=True)
        if dtype not in mstype.number_type:
            raise TypeError(f"Dropout: 'dtype' must be a number dtype such as ember.float32, but "
                            f"got {dtype!r}")
        self.dtype = dtype
        # As MindSpore's graph seeds: fixed under ember.set_seed, different for each layer.
        self.seed0, self.seed1 = (0, 0) if get_seed() is None else (
            get_seed(), int(generator().integers(1, 2**31 - 1)))
        self.dropout = P.Dropout(keep_prob, self.seed0, self.seed1)

    def construct(self, x: Tensor) -> Tensor:
        if not self.training or self.keep_prob == 1.0:
            return x
        return self.dropout(x)[0]

    def extend_repr(self) -> str:
        return f"keep_prob={self.keep_prob}, dtype={self.dtype}"


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    return tuple(range(ndim)) if axis is None or axis == () else (
        (axis,) if isinstance(axis, int) else tuple(axis))


class Norm(Cell):
    """The L2 norm over ``axis`` (all axes for ``()``): ``sqrt(sum(x**2))``."""

    def __init__(self, axis: Any = (), keep_dims: bool = False) -> None:
        super().__init__()
        if not (isinstance(axis, int) and not isinstance(axis, bool) or isinstance(axis, tuple)):
            raise TypeError(f"Norm: axis must be an int or a tuple of ints, but got {axis!r}")
        self.axis = axis
        self.keep_dims = check_bool("Norm", "keep_dims", keep_dims)

    def construct(self, x: Tensor) -> Tensor:
        return F.sqrt(P.ReduceSum(self.keep_dims)(F.square(x), _axes(self.axis, x.ndim)))


class ClipByNorm(Cell):
    """``x * clip_norm / max(l2_norm(x), clip_norm)``: x rescaled so that its L2 norm over
    ``axis`` (all axes when None) is at most ``clip_norm``."""

    def __init__(self, axis: Any = None) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Tensor, clip_norm: Any) -> Tensor:
        squares = F.square(F.cast(x, mstype.float32))
        l2 = F.sqrt(P.ReduceSum(True)(squares, _axes(self.axis, x.ndim)))
        clip = F.cast(clip_norm, mstype.float32) if isinstance(clip_norm, Tensor) else (
            float(clip_norm))
        scale = F.real_div(clip, F.maximum(l2, clip))
        return F.cast(F.mul(F.cast(x, mstype.float32), scale), x.dtype)


class OneHot(Cell):
    """Indices to one-hot vectors of ``depth`` along ``axis``, with ``on_value`` and
    ``off_value`` of ``dtype``."""

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0,
                 off_value: float = 0.0, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__()
        self.depth = check_int("OneHot", "depth", depth, 1)
        self.on_value, self.off_value = Tensor(on_value, dtype), Tensor(off_value, dtype)
        self.onehot = P.OneHot(axis)

    def construct(self, indices: Tensor) -> Tensor:
        return self.onehot(indices, self.depth, self.on_value, self.off_value)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``; ``scale`` a positive number."""

    def __init__(self, scale: float) -> None:
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, int | float):
            raise TypeError(f"L1Regularizer: scale must be a number, but got {scale!r}")
        if not (scale > 0 and math.isfinite(scale)):
            raise ValueError(f"L1Regularizer: scale must be a positive finite number, but got "
                             f"{scale}")
        self.scale = float(scale)

    def construct(self, weights: Tensor) -> Tensor:
        return F.mul(P.ReduceSum()(F.abs(weights), ()), self.scale)
