"""``TimeDistributed``: one layer applied to every time step of a sequence."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F
from ember.ops.primitive import Primitive

__all__ = ["TimeDistributed"]


class TimeDistributed(Cell):
    """``layer`` applied to each slice of the input along ``time_axis``. With
    ``reshape_with_axis`` the time axis is merged into that axis and the layer runs once
    (faster); otherwise the slices run one by one and are stacked (general, e.g. for
    BatchNorm)."""

    def __init__(self, layer: Cell | Primitive, time_axis: int,
                 reshape_with_axis: int | None = None) -> None:
        super().__init__()
        if not isinstance(layer, Cell | Primitive):
            raise TypeError(f"TimeDistributed: layer must be a Cell or Primitive, but got "
                            f"{type(layer).__name__}")
        for name, value in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"TimeDistributed: {name} must be an int, but got {value!r}")
        self.layer = layer
        self.time_axis, self.reshape_with_axis = time_axis, reshape_with_axis

    def construct(self, x: Tensor) -> Any:
        if x.ndim < 3:
            raise ValueError(f"TimeDistributed: the input must be at least 3-D, but got shape "
                             f"{list(x.shape)}")
        t = self.time_axis % x.ndim
        if self.reshape_with_axis is None:
            steps = [self.layer(x[(slice(None),) * t + (i,)]) for i in range(x.shape[t])]
            return F.stack(steps, t)
        r = self.reshape_with_axis % x.ndim
        if r == t:
            raise ValueError("TimeDistributed: reshape_with_axis must differ from time_axis")
        order = [a for a in range(x.ndim) if a != t]
        order.insert(order.index(r) + 1, t)  # time right after the axis it merges into
        moved = F.transpose(x, tuple(order))
        at = order.index(r)
        merged = F.reshape(moved, (*moved.shape[:at], -1, *moved.shape[at + 2:]))
        y = self.layer(merged)
        y = F.reshape(y, (*y.shape[:at], x.shape[r], x.shape[t], *y.shape[at + 1:]))
        back = list(range(y.ndim))
        back.insert(t, back.pop(at + 1))  # the time axis returns to its place
        return F.transpose(y, tuple(back))
