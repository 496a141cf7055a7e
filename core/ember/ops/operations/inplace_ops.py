"""``InplaceAdd``, ``InplaceSub`` and ``InplaceUpdate``: rows of ``x`` named by the attribute
``indices`` combined with the rows of ``v``. Despite the names they return a new tensor, as
MindSpore's do; ``x`` is left as it was.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import gather
from ember.ops.primitive import Primitive, Spec, describe

__all__ = ["InplaceAdd", "InplaceSub", "InplaceUpdate"]

_DTYPES = (mstype.int32, mstype.float16, mstype.float32, mstype.float64)


class _Inplace(Primitive):
    """``Inplace<Op>(indices)(x, v)``: ``x`` with ``x[indices[i]] <op>= v[i]``; ``indices`` an
    int or a tuple of ints in [0, x.shape[0]), ``v`` of shape ``(len(indices), *x.shape[1:])``.
    """

    def __init__(self, indices: int | tuple[int, ...]) -> None:
        super().__init__()
        if not isinstance(indices, int | tuple) or isinstance(indices, bool):
            raise TypeError(f"{self.name}: indices must be an int or a tuple of ints, but got "
                            f"{indices!r}")
        indices = (indices,) if isinstance(indices, int) else indices
        for item in indices:
            if not isinstance(item, int) or isinstance(item, bool):
                raise TypeError(f"{self.name}: each item of indices must be an int, but got "
                                f"{item!r}")
        self.indices = indices

    def infer(self, x: Any, v: Any) -> Spec:
        check_tensor(self.name, "x", x, _DTYPES)
        check_tensor(self.name, "v", v, (x.dtype,))
        want = (len(self.indices), *x.shape[1:])
        if not x.ndim or v.shape != want:
            raise ValueError(f"{self.name}: v must have shape (len(indices), *x.shape[1:]) = "
                             f"{list(want)}, but got ({describe((x, v))})")
        for i in self.indices:
            if not 0 <= i < x.shape[0]:
                raise ValueError(f"{self.name}: the value of indices must be in [0, "
                                 f"{x.shape[0]}), but got {i}")
        return x.shape, x.dtype

    def _rows(self, dout: Tensor) -> Tensor:
        """The rows of ``dout`` that ``indices`` name, in their order."""
        return gather(dout, Tensor(np.array(self.indices, np.int32)), 0)


class InplaceAdd(_Inplace):
    """``x`` with the rows of ``v`` added at ``indices`` (repeated indices add up)."""

    def bprop(self, x: Tensor, v: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return dout, self._rows(dout)


class InplaceSub(_Inplace):
    """``x`` with the rows of ``v`` subtracted at ``indices`` (repeated indices add up)."""

    def bprop(self, x: Tensor, v: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return dout, F.neg(self._rows(dout))


class InplaceUpdate(_Inplace):
    """``x`` with its rows at ``indices`` replaced by the rows of ``v`` (an index named twice
    takes one of its rows, which one is not specified)."""

    def bprop(self, x: Tensor, v: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return self(dout, F.zeros_like(v)), self._rows(dout)
