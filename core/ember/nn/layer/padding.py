"""``Pad`` and ``Roll``: layers that rearrange elements."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer._positions import positions_of, take
from ember.nn.layer.basic import check_choice

__all__ = ["Pad", "Roll"]


class Pad(Cell):
    """Pad every dimension by ``paddings[d] = (before, after)``: with zeros ("CONSTANT"), or
    by mirroring without ("REFLECT") or with ("SYMMETRIC") the edge."""

    _MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}

    def __init__(self, paddings: Any, mode: str = "CONSTANT") -> None:
        super().__init__()
        if not isinstance(paddings, tuple) or not all(
                isinstance(p, tuple) and all(
                    isinstance(v, int) and not isinstance(v, bool) for v in p)
                for p in paddings):
            raise TypeError(f"Pad: paddings must be a tuple of (before, after) pairs of ints, "
                            f"but got {paddings!r}")
        if any(len(p) != 2 for p in paddings) or len(paddings) > 4:
            raise ValueError(f"Pad: paddings must be at most 4 (before, after) pairs, but got "
                             f"{paddings!r}")
        self.paddings = paddings
        self.mode = check_choice("Pad", "mode", mode.upper() if isinstance(mode, str) else mode,
                                 tuple(self._MODES))

    def construct(self, x: Tensor) -> Tensor:
        if len(self.paddings) != x.ndim:
            raise ValueError(f"Pad: paddings has {len(self.paddings)} pairs, but the input has "
                             f"{x.ndim} dimensions")
        if any(v < 0 for p in self.paddings for v in p):  # checked here, as MindSpore does
            raise ValueError(f"Pad: paddings must not be negative, but got {self.paddings!r}")
        mode = self._MODES[self.mode]
        for (before, after), n in zip(self.paddings, x.shape):
            limit = n - 1 if mode == "reflect" else n
            if mode != "constant" and max(before, after) > limit:
                raise ValueError(f"Pad: in {self.mode} mode a padding must be at most {limit} "
                                 f"for a dimension of size {n}, but got ({before}, {after})")
        extra = {"constant_values": -1} if mode == "constant" else {}
        return take(x, np.pad(positions_of(x.shape), self.paddings, mode, **extra))


class Roll(Cell):
    """Elements shifted by ``shift`` along ``axis`` (ints or tuples), wrapping around."""

    def __init__(self, shift: Any, axis: Any) -> None:
        super().__init__()
        shifts = (shift,) if isinstance(shift, int) else tuple(shift)
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shifts) != len(axes):
            raise ValueError(f"Roll: shift and axis must have the same length, but got "
                             f"{shift!r} and {axis!r}")
        self.shift, self.axis = shifts, axes

    def construct(self, x: Tensor) -> Tensor:
        return take(x, np.roll(positions_of(x.shape), self.shift, self.axis))
