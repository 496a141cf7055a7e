"""Activation cells, each applying one primitive, and ``get_activation`` by name."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["ELU", "GELU", "FastGelu", "HShrink", "HSigmoid", "HSwish", "LeakyReLU", "LogSigmoid",
           "LogSoftmax", "PReLU", "ReLU", "ReLU6", "Sigmoid", "SoftShrink", "Softmax", "Tanh",
           "get_activation"]


class _Activation(Cell):
    """A cell applying the primitive named ``_primitive`` (built with ``*args``) to its input."""

    _primitive: ClassVar[str]

    def __init__(self, *args: Any) -> None:
        super().__init__()
        self.activation = getattr(P, self._primitive)(*args)

    def construct(self, x: Tensor) -> Tensor:
        return self.activation(x)


class ReLU(_Activation):
    """``max(x, 0)``, elementwise: ``ReLU()(x)``."""

    _primitive = "ReLU"


class ReLU6(_Activation):
    """``min(max(x, 0), 6)``, elementwise: ``ReLU6()(x)``."""

    _primitive = "ReLU6"


class Sigmoid(_Activation):
    """``1 / (1 + exp(-x))``, elementwise: ``Sigmoid()(x)``."""

    _primitive = "Sigmoid"


class Tanh(_Activation):
    """``tanh(x)``, elementwise: ``Tanh()(x)``."""

    _primitive = "Tanh"


class GELU(_Activation):
    """Gaussian error linear unit (tanh approximation), elementwise: ``GELU()(x)``."""

    _primitive = "GeLU"


class Softmax(_Activation):
    """``exp(x) / sum(exp(x))`` along ``axis``: ``Softmax(axis=-1)(x)``."""

    _primitive = "Softmax"

    def __init__(self, axis: int | tuple[int, ...] = -1) -> None:
        super().__init__(axis)


class LogSoftmax(_Activation):
    """``x - log(sum(exp(x)))`` along ``axis``: ``LogSoftmax(axis=-1)(x)``."""

    _primitive = "LogSoftmax"

    def __init__(self, axis: int = -1) -> None:
        super().__init__(axis)


class _Formula(Cell):
    """An activation written with several primitives in ``construct``."""


class LeakyReLU(_Formula):
    """``x`` where positive, ``alpha * x`` elsewhere."""

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, int | float):
            raise TypeError(f"LeakyReLU: alpha must be a number, but got {alpha!r}")
        self.alpha = float(alpha)

    def construct(self, x: Tensor) -> Tensor:
        return F.select(F.greater(x, 0), x, F.mul(x, self.alpha))


class ELU(_Formula):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere (alpha 1.0, as MindSpore)."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        if alpha != 1.0:
            raise ValueError(f"ELU: alpha must be 1.0 in MindSpore 1.6, but got {alpha!r}")
        self.alpha = alpha

    def construct(self, x: Tensor) -> Tensor:
        negative = F.mul(F.sub(F.exp(F.minimum(x, 0.0)), 1.0), self.alpha)
        return F.select(F.greater(x, 0), x, negative)


class HSigmoid(_Formula):
    """Hard sigmoid: ``relu6(x + 3) / 6``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.real_div(F.relu6(F.add(x, 3.0)), 6.0)


class HSwish(_Formula):
    """Hard swish: ``x * relu6(x + 3) / 6``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.mul(x, F.real_div(F.relu6(F.add(x, 3.0)), 6.0))


class LogSigmoid(_Formula):
    """``log(sigmoid(x))``."""

    def construct(self, x: Tensor) -> Tensor:
        return F.log(F.sigmoid(x))


class FastGelu(_Formula):
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, as MindSpore's FastGeLU."""

    def construct(self, x: Tensor) -> Tensor:
        absolute = F.abs(x)
        return F.mul(F.real_div(x, F.add(F.exp(F.mul(absolute, -1.702)), 1.0)),
                     F.exp(F.mul(F.sub(x, absolute), 0.851)))


class _Shrink(_Formula):
    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        if isinstance(lambd, bool) or not isinstance(lambd, int | float) or lambd < 0:
            raise ValueError(f"{self.cls_name}: lambd must be a number >= 0, but got {lambd!r}")
        self.lambd = float(lambd)


class SoftShrink(_Shrink):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between."""

    def construct(self, x: Tensor) -> Tensor:
        return F.select(F.greater(x, self.lambd), F.sub(x, self.lambd), F.select(
            F.less(x, -self.lambd), F.add(x, self.lambd), F.zeros_like(x)))


class HShrink(_Shrink):
    """``x`` where ``|x| > lambd``, 0 elsewhere."""

    def construct(self, x: Tensor) -> Tensor:
        return F.select(F.greater(F.abs(x), self.lambd), x, F.zeros_like(x))


class PReLU(_Formula):
    """``max(x, 0) + w * min(x, 0)`` with a learned ``w`` (one, or one per channel)."""

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"PReLU: channel must be a positive int, but got {channel!r}")
        data = np.full(channel, w, np.float32) if isinstance(w, int | float) else w
        self.w = Parameter(Tensor(data, mstype.float32), name="a")
        if self.w.shape != (channel,):
            raise ValueError(f"PReLU: w must have shape [{channel}], but got "
                             f"{list(self.w.shape)}")

    def construct(self, x: Tensor) -> Tensor:
        w = F.reshape(self.w, (1, -1) + (1,) * (x.ndim - 2)) if x.ndim > 1 else self.w
        return F.add(F.relu(x), F.mul(w, F.minimum(x, 0.0)))


_ACTIVATIONS: dict[str, type[Cell]] = {
    "softmax": Softmax, "logsoftmax": LogSoftmax, "relu": ReLU, "relu6": ReLU6, "tanh": Tanh,
    "gelu": GELU, "sigmoid": Sigmoid, "prelu": PReLU, "leakyrelu": LeakyReLU,
    "hswish": HSwish, "hsigmoid": HSigmoid, "logsigmoid": LogSigmoid, "fast_gelu": FastGelu,
    "elu": ELU, "softshrink": SoftShrink, "hshrink": HShrink,
}


def get_activation(name: str, prim_name: str | None = None) -> Cell | None:
    """A new activation cell from its name (``'relu'``, ``'softmax'``, ...); None for None or
    the empty name (MindSpore's tests pass ``activation=''`` for none)."""
    if name is None or name == "":
        return None
    owner = prim_name or "get_activation"
    if name not in _ACTIVATIONS:
        raise ValueError(f"{owner}: unknown activation {name!r}; accepted: "
                         f"{', '.join(_ACTIVATIONS)}")
    return _ACTIVATIONS[name]()
