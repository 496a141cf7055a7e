"""``nn.Jvp`` and ``nn.Vjp``: Jacobian-vector products of a network, as cells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops.function import jvp, vjp


class _Product(Cell):
    _product: Callable[..., tuple]

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        if not callable(fn):
            raise TypeError(f"{self.cls_name}: fn must be a Cell or function, but got "
                            f"{type(fn).__name__}")
        self.fn = fn

    def construct(self, *args: Any) -> tuple:
        """``construct(*inputs, v)``: the outputs of ``fn(*inputs)`` and the product."""
        if len(args) < 2:
            raise TypeError(f"{self.cls_name}: pass the inputs of fn and then v")
        inputs, v = args[:-1], args[-1]
        single = len(inputs) == 1 and isinstance(inputs[0], Tensor)
        return type(self)._product(self.fn, inputs[0] if single else inputs, v)


class Jvp(_Product):
    """``Jvp(fn)(*inputs, v)`` → ``(fn(*inputs), J·v)``."""

    _product = staticmethod(jvp)


class Vjp(_Product):
    """``Vjp(fn)(*inputs, v)`` → ``(fn(*inputs), vᵀ·J)``."""

    _product = staticmethod(vjp)
