"""Activation cells, each applying one primitive, and ``get_activation`` by name."""

from __future__ import annotations

from typing import Any, ClassVar

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import operations as P

__all__ = ["GELU", "LogSoftmax", "ReLU", "ReLU6", "Sigmoid", "Softmax", "Tanh", "get_activation"]


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


_ACTIVATIONS: dict[str, type[Cell]] = {
    "softmax": Softmax, "logsoftmax": LogSoftmax, "relu": ReLU, "relu6": ReLU6, "tanh": Tanh,
    "gelu": GELU, "sigmoid": Sigmoid,
}


def get_activation(name: str, prim_name: str | None = None) -> Cell | None:
    """A new activation cell from its name (``'relu'``, ``'softmax'``, ...); None for None."""
    if name is None:
        return None
    owner = prim_name or "get_activation"
    if name not in _ACTIVATIONS:
        raise ValueError(f"{owner}: unknown activation {name!r}; accepted: "
                         f"{', '.join(_ACTIVATIONS)}")
    return _ACTIVATIONS[name]()
