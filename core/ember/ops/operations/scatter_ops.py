"""Scattering: ``updates`` written into a tensor at the positions ``indices`` address.

Three kinds, as in MindSpore:

- ``Scatter<Op>`` (Add, Sub, Mul, Div, Max, Min, Update) update the Parameter ``input_x`` in
  place along its first dimension: ``updates`` has shape ``indices.shape + input_x.shape[1:]``.
- ``ScatterNd<Op>`` (Add, Sub, Update) update the Parameter ``input_x`` in place at the
  positions the last dimension of ``indices`` addresses: ``updates`` has shape
  ``indices.shape[:-1] + input_x.shape[indices.shape[-1]:]``.
- ``ScatterNd`` and ``TensorScatter<Op>`` (Update, Sub, Max, Min) return a new tensor.
- ``ScatterNonAliasingAdd`` is ScatterNdAdd with MindSpore's bprop; ``ScatterElements``
  returns a copy with ``updates`` written element by element along one axis.

In-place updates return the updated Parameter (``pure = False``: graph passes keep them).
Repeated indices combine with the update's operation (they add up for Add); for Update the
last one written wins on the CPU backend and any one may win elsewhere.
"""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import _check_nd_indices, _shape_of, _Strided, gather_nd
from ember.ops.operations.optim_ops import _Update
from ember.ops.primitive import Primitive, Spec, describe
from ember.ops.signature import make_sig, sig_dtype, sig_rw

__all__ = [
    "ScatterAdd", "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterMul", "ScatterSub",
    "ScatterUpdate", "ScatterNd", "ScatterNdAdd", "ScatterNdSub", "ScatterNdUpdate",
    "ScatterElements", "ScatterNonAliasingAdd",
    "TensorCopySlices", "TensorScatterMax", "TensorScatterMin", "TensorScatterSub",
    "TensorScatterUpdate", "UpdateCache", "scatter_nd", "tensor_scatter_update",
]

_INDEX = (mstype.int32, mstype.int64)


def _check_updates(op: str, x: Tensor, updates: Any, want: tuple[int, ...],
                   rule: str) -> None:
    check_tensor(op, "updates", updates, (x.dtype,))
    if updates.shape != want:
        raise ValueError(f"{op}: updates must have shape {rule} = {list(want)}, but got "
                         f"{list(updates.shape)}")


def _check_parameter(op: str, x: Any, dtypes: tuple[mstype.Type, ...]) -> Parameter:
    if not isinstance(x, Parameter):
        raise TypeError(f"{op}: input_x must be a Parameter (it is updated in place), but got "
                        f"{type(x).__name__}")
    check_tensor(op, "input_x", x, dtypes)
    return x


class _Scatter(_Update):
    """``Scatter<Op>(use_locking=False)(input_x, indices, updates)``: ``input_x[indices[i]]
    <op>= updates[i]`` along the first dimension of the Parameter ``input_x``, in place."""

    dtypes: tuple[mstype.Type, ...] = mstype.number_type
    #: As MindSpore 1.6: ``updates`` is converted to the dtype of ``input_x`` when that is
    #: the higher one; the Parameter itself is never converted.
    __mindspore_signature__ = (make_sig("input_x", sig_rw.RW_WRITE, dtype=sig_dtype.T),
                               make_sig("indices", dtype=sig_dtype.T1),
                               make_sig("updates", dtype=sig_dtype.T))

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        if not isinstance(use_locking, bool):
            raise TypeError(f"{self.name}: use_locking must be a bool, but got {use_locking!r}")
        self.use_locking = use_locking

    def infer(self, x: Any, indices: Any, updates: Any) -> Spec:
        _check_parameter(self.name, x, self.dtypes)
        check_tensor(self.name, "indices", indices, _INDEX)
        if not x.ndim:
            raise ValueError(f"{self.name}: input_x must have at least one dimension, but it is "
                             "0-d")
        _check_updates(self.name, x, updates, indices.shape + x.shape[1:],
                       "indices.shape + input_x.shape[1:]")
        return x.shape, x.dtype


class ScatterAdd(_Scatter):
    """Adds ``updates`` to the rows ``indices`` of the Parameter ``input_x``, in place."""


class ScatterSub(_Scatter):
    """Subtracts ``updates`` from the rows ``indices`` of the Parameter ``input_x``."""


class ScatterMul(_Scatter):
    """Multiplies the rows ``indices`` of the Parameter ``input_x`` by ``updates``."""


class ScatterDiv(_Scatter):
    """Divides the rows ``indices`` of the Parameter ``input_x`` by ``updates`` (floats)."""

    dtypes = mstype.float_type


class ScatterMax(_Scatter):
    """The rows ``indices`` of the Parameter ``input_x`` become their maximum with
    ``updates``."""


class ScatterMin(_Scatter):
    """The rows ``indices`` of the Parameter ``input_x`` become their minimum with
    ``updates``."""


class ScatterUpdate(_Scatter):
    """Writes ``updates`` into the rows ``indices`` of the Parameter ``input_x``."""

    dtypes = mstype.all_types


class UpdateCache(Primitive):
    """ScatterUpdate for embedding caches: rows ``indices`` of the Parameter ``input_x`` take
    ``updates``, except where an index is negative or at least ``max_num`` (those are skipped):
    ``UpdateCache()(input_x, indices, updates, max_num)`` -> a one-element tensor of 0, as
    MindSpore's, whose value carries nothing. As MindSpore's kernel, it reads ``indices`` flat
    and ``updates`` as one row per index, whatever their leading shapes."""

    pure = False

    def infer(self, x: Any, indices: Any, updates: Any, max_num: Any) -> Spec:
        _check_parameter(self.name, x, mstype.number_type)
        check_tensor(self.name, "indices", indices, _INDEX)
        if isinstance(max_num, bool) or not isinstance(max_num, int):
            raise TypeError(f"UpdateCache: max_num must be an int, but got {max_num!r}")
        if not x.ndim:
            raise ValueError("UpdateCache: input_x must have at least one dimension")
        check_tensor(self.name, "updates", updates, (x.dtype,))
        lead = updates.ndim - x.ndim + 1
        if lead < 0 or updates.shape[lead:] != x.shape[1:] or \
                math.prod(updates.shape[:lead]) != indices.size:
            raise ValueError(f"UpdateCache: updates must hold one row of input_x.shape[1:] = "
                             f"{list(x.shape[1:])} per index ({indices.size}), but has shape "
                             f"{list(updates.shape)}")
        return (1,), x.dtype


class _ScatterNdInPlace(_Scatter):
    """``ScatterNd<Op>(use_locking=False)(input_x, indices, updates)``: ``updates`` combined
    into the Parameter ``input_x`` at the positions the last dimension of ``indices`` addresses,
    in place."""

    def infer(self, x: Any, indices: Any, updates: Any) -> Spec:
        _check_parameter(self.name, x, self.dtypes)
        depth = _check_nd_indices(self.name, x, indices)
        _check_updates(self.name, x, updates, indices.shape[:-1] + x.shape[depth:],
                       f"indices.shape[:-1] + input_x.shape[{depth}:]")
        return x.shape, x.dtype


class ScatterNdAdd(_ScatterNdInPlace):
    """Adds ``updates`` to the Parameter ``input_x`` at ``indices``, in place."""


class ScatterNdSub(_ScatterNdInPlace):
    """Subtracts ``updates`` from the Parameter ``input_x`` at ``indices``, in place."""


class ScatterNdUpdate(_ScatterNdInPlace):
    """Writes ``updates`` into the Parameter ``input_x`` at ``indices``, in place."""

    dtypes = mstype.all_types


class ScatterNonAliasingAdd(_ScatterNdInPlace):
    """Adds ``updates`` to the Parameter ``input_x`` at the positions the last dimension of
    the int32 ``indices`` addresses, in place: ``ScatterNonAliasingAdd()(input_x, indices,
    updates)``."""

    dtypes = (mstype.float16, mstype.float32, mstype.float64, mstype.int32)

    def __init__(self) -> None:
        super().__init__()

    def infer(self, x: Any, indices: Any, updates: Any) -> Spec:
        check_tensor(self.name, "indices", indices, (mstype.int32,))
        return super().infer(x, indices, updates)

    def bprop(self, x: Tensor, indices: Tensor, updates: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        return dout, None, gather_nd(dout, indices)


class ScatterElements(Primitive):
    """A copy of ``data`` with ``updates`` written element by element along ``axis``:
    ``ScatterElements(axis=0)(data, indices, updates)``, where for axis 0 of a 2-D ``data``
    ``out[indices[i][j]][j] = updates[i][j]``; ``indices`` and ``updates`` have one shape and
    the rank of ``data``, no larger than it in any dimension. An element written twice takes
    one of its updates, which one is not specified."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"ScatterElements: axis must be an int, but got {axis!r}")
        self.axis = axis

    def infer(self, data: Any, indices: Any, updates: Any) -> Spec:
        check_tensor(self.name, "data", data)
        check_tensor(self.name, "indices", indices, _INDEX)
        check_tensor(self.name, "updates", updates, (data.dtype,))
        rank = data.ndim
        if not -rank <= self.axis < max(rank, 1):
            raise ValueError(f"ScatterElements: axis {self.axis} is out of range [{-rank}, "
                             f"{rank}) for data of shape {list(data.shape)}")
        if updates.shape != indices.shape or indices.ndim != rank or any(
                n > m for n, m in zip(indices.shape, data.shape)):
            raise ValueError(f"ScatterElements: indices and updates must have one shape, of the "
                             f"rank of data and no larger in any dimension, but got "
                             f"{describe((data, indices, updates))}")
        return data.shape, data.dtype


class ScatterNd(Primitive):
    """Zeros of ``shape`` with ``updates`` added at the positions ``indices`` address (repeats
    add up): ``ScatterNd()(indices, updates, shape)``."""

    def infer(self, indices: Any, updates: Any, shape: Any) -> Spec:
        shape = _shape_of(self.name, "shape", shape)
        check_tensor(self.name, "indices", indices, _INDEX)
        check_tensor(self.name, "updates", updates, mstype.number_type)
        depth = indices.shape[-1] if indices.ndim else 0
        if not 1 <= depth <= len(shape):
            raise ValueError(f"ScatterNd: the last dimension of indices (shape "
                             f"{list(indices.shape)}) must be in [1, {len(shape)}], the rank of "
                             f"shape {list(shape)}")
        want = indices.shape[:-1] + shape[depth:]
        if updates.shape != want:
            raise ValueError(f"ScatterNd: updates must have shape indices.shape[:-1] + "
                             f"shape[{depth}:] = {list(want)}, but got {list(updates.shape)}")
        return shape, updates.dtype

    def bprop(self, indices: Tensor, updates: Tensor, shape: Any, out: Tensor,
              dout: Tensor) -> tuple:
        return None, gather_nd(dout, indices), None


class _TensorScatter(Primitive):
    """``TensorScatter<Op>()(input_x, indices, updates)``: a copy of ``input_x`` with
    ``updates`` combined in at the positions the last dimension of ``indices`` addresses."""

    dtypes: tuple[mstype.Type, ...] = mstype.number_type

    def infer(self, x: Any, indices: Any, updates: Any) -> Spec:
        check_tensor(self.name, "input_x", x, self.dtypes)
        depth = _check_nd_indices(self.name, x, indices)
        _check_updates(self.name, x, updates, indices.shape[:-1] + x.shape[depth:],
                       f"indices.shape[:-1] + input_x.shape[{depth}:]")
        return x.shape, x.dtype


class TensorScatterUpdate(_TensorScatter):
    """``input_x`` with ``updates`` written at ``indices`` (indices should not repeat)."""

    dtypes = mstype.all_types

    def bprop(self, x: Tensor, indices: Tensor, updates: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        return self(dout, indices, F.zeros_like(updates)), None, gather_nd(dout, indices)


class TensorScatterSub(_TensorScatter):
    """``input_x`` with ``updates`` subtracted at ``indices`` (repeats add up)."""

    def bprop(self, x: Tensor, indices: Tensor, updates: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        return dout, None, F.neg(gather_nd(dout, indices))


class _TensorScatterExtremum(_TensorScatter):
    """TensorScatterMax/Min: the gradient goes to whichever of ``input_x`` and the updates
    holds the result at each position (both where they tie)."""

    def bprop(self, x: Tensor, indices: Tensor, updates: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        dx = F.mul(dout, F.cast(F.equal(x, out), dout.dtype))
        picked = gather_nd(out, indices)
        dupdates = F.mul(gather_nd(dout, indices), F.cast(F.equal(updates, picked), dout.dtype))
        return dx, None, dupdates


class TensorScatterMax(_TensorScatterExtremum):
    """``input_x`` with each position at ``indices`` the maximum of itself and its updates."""


class TensorScatterMin(_TensorScatterExtremum):
    """``input_x`` with each position at ``indices`` the minimum of itself and its updates."""


class TensorCopySlices(Primitive):
    """``x`` with ``value`` written into the slice ``x[begin:end:strides]`` (``value`` holding
    as many elements as the slice, in its order): ``TensorCopySlices()(x, value, begin, end,
    strides)``, the three tuples of ints, no longer than x's rank, ``strides`` all 1 (as in
    MindSpore). Begin and end follow StridedSlice without masks (negative ones count from the
    end); MindSpore's CPU kernel also wants the slice contiguous in memory, ember does not."""

    _masks = (0, 0, 0, 0, 0)
    index = _Strided.index

    def infer(self, x: Any, value: Any, begin: Any, end: Any, strides: Any) -> Spec:
        check_tensor(self.name, "x", x)
        check_tensor(self.name, "value", value, (x.dtype,))
        sliced = self.index(x.shape, begin, end, strides)[1]
        if any(step != 1 for step in strides):
            raise ValueError(f"TensorCopySlices: 'strides' must be all 1, but got {strides}")
        if value.size != math.prod(sliced):
            raise ValueError(f"TensorCopySlices: 'value' of shape {list(value.shape)} must have "
                             f"as many elements as the slice of shape {list(sliced)}")
        return x.shape, x.dtype

    def bprop(self, x: Tensor, value: Tensor, begin: Any, end: Any, strides: Any, out: Tensor,
              dout: Tensor) -> tuple:
        dx = self(dout, F.zeros_like(value), begin, end, strides)
        dvalue = F.reshape(F.strided_slice(dout, begin, end, strides), value.shape)
        return dx, dvalue, None, None, None


scatter_nd = ScatterNd()
tensor_scatter_update = TensorScatterUpdate()

