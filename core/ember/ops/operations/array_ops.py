"""Layout: reshaping, transposing, joining, splitting, slicing, gathering, broadcasting."""

from __future__ import annotations

import math
from typing import Any

from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.primitive import Primitive, Spec


def _shape_arg(op: str, shape: Any) -> tuple[int, ...]:
    if not isinstance(shape, tuple | list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in shape):
        raise TypeError(f"{op}: shape must be a tuple of ints, but got {shape!r}")
    return tuple(shape)


class Reshape(Primitive):
    """``x`` with a new shape of the same size; one dimension may be -1."""

    def infer(self, x: Any, shape: Any) -> Spec:
        check_tensor(self.name, "x", x)
        shape = _shape_arg(self.name, shape)
        size = math.prod(x.shape)
        known = math.prod(n for n in shape if n != -1)
        if shape.count(-1) > 1 or any(n < -1 for n in shape):
            raise ValueError(f"Reshape: shape {list(shape)} may hold at most one -1 and no "
                             "other negative size")
        if -1 in shape:
            if known == 0 or size % known:
                raise ValueError(f"Reshape: cannot reshape a tensor of shape {list(x.shape)} "
                                 f"(size {size}) into {list(shape)}")
            shape = tuple(size // known if n == -1 else n for n in shape)
        elif known != size:
            raise ValueError(f"Reshape: cannot reshape a tensor of shape {list(x.shape)} "
                             f"(size {size}) into {list(shape)} (size {known})")
        return shape, x.dtype

    def bprop(self, x: Tensor, shape: Any, out: Tensor, dout: Tensor) -> tuple:
        return reshape(dout, x.shape), None


class BroadcastTo(Primitive):
    """``x`` broadcast to ``shape``: ``BroadcastTo(shape)(x)``; -1 keeps a dimension."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        super().__init__()
        self.shape = _shape_arg(self.name, shape)

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x)
        lead = len(self.shape) - x.ndim
        if lead < 0:
            raise ValueError(f"BroadcastTo: cannot broadcast shape {list(x.shape)} to the "
                             f"shorter {list(self.shape)}")
        out = []
        for i, n in enumerate(self.shape):
            have = x.shape[i - lead] if i >= lead else 1
            if n == -1:
                if i < lead:
                    raise ValueError(f"BroadcastTo: -1 at new dimension {i} of "
                                     f"{list(self.shape)} has no size to keep")
                n = have
            if have not in (1, n):
                raise ValueError(f"BroadcastTo: cannot broadcast shape {list(x.shape)} to "
                                 f"{list(self.shape)}; each dimension must be equal or 1")
            out.append(n)
        return tuple(out), x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (F.sum_to(dout, x.shape),)


def broadcast_to(x: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Functional form of ``BroadcastTo``."""
    return BroadcastTo(shape)(x)


reshape = Reshape()
