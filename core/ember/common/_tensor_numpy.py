"""NumPy-style ``Tensor`` methods of MindSpore 1.6 (``all``, ``clip``, ``std``, ``take``, ...),
each made of primitives; index arithmetic on the static shape happens on the host."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops._rules import axes_of


def _truth(self: Tensor, reduce: type, axis: Any, keepdims: bool) -> Tensor:
    nonzero = F.cast(F.not_equal(self, F.zeros_like(self)), mstype.float32)
    return F.cast(reduce(keepdims)(nonzero, axes_of("Tensor", axis, self.ndim)), mstype.bool_)


def all(self: Tensor, axis: Any = (), keep_dims: bool = False) -> Tensor:  # noqa: A001
    """Whether every element along ``axis`` (all when ``()`` or None) is nonzero."""
    return _truth(self, P.ReduceMin, None if axis == () else axis, keep_dims)


def any(self: Tensor, axis: Any = (), keep_dims: bool = False) -> Tensor:  # noqa: A001
    """Whether some element along ``axis`` (all when ``()`` or None) is nonzero."""
    return _truth(self, P.ReduceMax, None if axis == () else axis, keep_dims)


def argmin(self: Tensor, axis: int | None = None) -> Tensor:
    """Index of the first minimum along ``axis`` (of the flattened tensor when None)."""
    flat = F.reshape(self, (-1,)) if axis is None else self
    return P.Argmax(axis=0 if axis is None else axis)(F.neg(flat))


def clip(self: Tensor, xmin: Any, xmax: Any, dtype: Any = None) -> Tensor:
    """Elements limited to [xmin, xmax] (None: no bound on that side)."""
    if xmin is None and xmax is None:
        raise ValueError("Tensor.clip: xmin and xmax cannot both be None")
    out = self if xmin is None else F.maximum(self, xmin)
    out = out if xmax is None else F.minimum(out, xmax)
    return out if dtype is None else F.cast(out, mstype.pytype_to_dtype(dtype))


def ptp(self: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Maximum minus minimum along ``axis``."""
    axes = axes_of("Tensor", axis, self.ndim)
    return F.sub(P.ReduceMax(keepdims)(self, axes), P.ReduceMin(keepdims)(self, axes))


def var(self: Tensor, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance along ``axis``, dividing by ``n - ddof``."""
    axes = axes_of("Tensor", axis, self.ndim)
    n = int(np.prod([self.shape[a] for a in axes], dtype=np.int64))
    centred = F.sub(self, P.ReduceMean(True)(self, axes))
    return F.real_div(P.ReduceSum(keepdims)(F.square(centred), axes), float(n - ddof))


def std(self: Tensor, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation along ``axis``, dividing by ``n - ddof``."""
    return F.sqrt(var(self, axis, ddof, keepdims))


def swapaxes(self: Tensor, axis1: int, axis2: int) -> Tensor:
    perm = list(range(self.ndim))
    a, b = axes_of("Tensor", (axis1, axis2), self.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return F.transpose(self, tuple(perm))


def expand_as(self: Tensor, x: Tensor) -> Tensor:
    """The tensor broadcast to the shape of ``x``."""
    return F.broadcast_to(self, x.shape)


def fill(self: Tensor, value: bool | int | float) -> Tensor:
    """A tensor of this shape and dtype filled with ``value``."""
    return F.fill(self.dtype, self.shape, value)


def _pick(self: Tensor, flat_positions: np.ndarray, shape: tuple[int, ...]) -> Tensor:
    """Elements at flat positions computed on the host, as a tensor of ``shape``."""
    return F.reshape(F.gather(F.reshape(self, (-1,)), Tensor(flat_positions.reshape(-1)), 0),
                     shape)


def diagonal(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The diagonal of the (axis1, axis2) planes, on a new last axis, as ``numpy.diagonal``."""
    if self.ndim < 2:
        raise ValueError(f"Tensor.diagonal: needs rank >= 2, but the tensor has rank {self.ndim}")
    positions = np.arange(self.size).reshape(self.shape).diagonal(offset, axis1, axis2)
    return _pick(self, positions, positions.shape)


def trace(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1,
          dtype: Any = None) -> Tensor:
    """Sum of the diagonal (``numpy.trace``)."""
    out = P.ReduceSum()(diagonal(self, offset, axis1, axis2), -1)
    return out if dtype is None else F.cast(out, mstype.pytype_to_dtype(dtype))


def repeat(self: Tensor, repeats: Any, axis: int | None = None) -> Tensor:
    """Each element (along ``axis``; of the flattened tensor when None) repeated ``repeats``
    times (an int, or one count per element), as ``numpy.repeat``."""
    positions = np.repeat(np.arange(self.size).reshape(self.shape), repeats, axis)
    return _pick(self, positions, positions.shape)


def resize(self: Tensor, *new_shape: Any) -> Tensor:
    """A tensor of ``new_shape`` filled with this one's elements, repeated cyclically."""
    shape = tuple(new_shape[0]) if len(new_shape) == 1 and isinstance(
        new_shape[0], tuple | list) else new_shape
    positions = np.arange(int(np.prod(shape, dtype=np.int64))) % max(self.size, 1)
    return _pick(self, positions, tuple(shape))


def take(self: Tensor, indices: Any, axis: int | None = None, mode: str = "clip") -> Tensor:
    """Elements at ``indices`` along ``axis`` (of the flattened tensor when None);
    ``mode`` 'clip' limits out-of-range indices, 'wrap' wraps them (constant indices),
    'raise' rejects them."""
    source = F.reshape(self, (-1,)) if axis is None else self
    axis = 0 if axis is None else axes_of("Tensor", axis, self.ndim)[0]
    n = source.shape[axis]
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"Tensor.take: mode must be 'clip', 'wrap' or 'raise', but got {mode!r}")
    if isinstance(indices, Tensor):
        if mode == "wrap":
            raise ValueError("Tensor.take: mode='wrap' needs constant indices (a list or "
                             "NumPy array); use mode='clip' with a Tensor")
        index = F.cast(indices, mstype.int64)
        index = index if mode == "raise" else F.minimum(F.maximum(index, 0), n - 1)
        return F.gather(source, index, axis)
    index = np.asarray(indices, np.int64)
    if mode == "raise" and ((index < -n) | (index >= n)).any():
        raise IndexError(f"Tensor.take: an index of {indices!r} is out of range for size {n}")
    index = np.clip(index, 0, n - 1) if mode == "clip" else index % n
    return F.gather(source, Tensor(index), axis)


def choose(self: Tensor, choices: Any, mode: str = "clip") -> Tensor:
    """``choices[self[i]][i]`` for every position i (``numpy.choose``), indices clipped."""
    if mode != "clip":
        raise ValueError(f"Tensor.choose: ember supports mode='clip', but got {mode!r}")
    items = [c if isinstance(c, Tensor) else Tensor(c) for c in choices]
    dtype = items[0].dtype
    for c in items[1:]:
        dtype = mstype.promote(dtype, c.dtype)
    shape = tuple(np.broadcast_shapes(self.shape, *(c.shape for c in items)))
    stacked = F.stack([F.broadcast_to(F.cast(c, dtype), shape) for c in items], 0)
    which = F.minimum(F.maximum(F.cast(F.broadcast_to(self, shape), mstype.int64), 0),
                      len(items) - 1)
    grids = [Tensor(g.astype(np.int64)) for g in np.indices(shape)]
    return F.gather_nd(stacked, F.stack([which, *grids], -1))


def searchsorted(self: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Where ``v`` would be inserted to keep this sorted 1-D tensor sorted (Int32)."""
    if side not in ("left", "right"):
        raise ValueError(f"Tensor.searchsorted: side must be 'left' or 'right', but got {side!r}")
    if self.ndim != 1:
        raise ValueError(f"Tensor.searchsorted: needs a 1-D tensor, but its shape is "
                         f"{list(self.shape)}")
    a = self if sorter is None else F.gather(self, F.cast(
        sorter if isinstance(sorter, Tensor) else Tensor(sorter), mstype.int64), 0)
    values = F.expand_dims(F.cast(v if isinstance(v, Tensor) else Tensor(v), a.dtype), -1)
    before = F.less(a, values) if side == "left" else F.less_equal(a, values)
    return F.cast(P.ReduceSum()(F.cast(before, mstype.float32), -1), mstype.int32)


def cumsum(self: Tensor, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Running sums along ``axis`` (of the flattened tensor when None)."""
    source = F.reshape(self, (-1,)) if axis is None else self
    if dtype is not None:
        source = F.cast(source, mstype.pytype_to_dtype(dtype))
    return P.CumSum()(source, 0 if axis is None else axis)


def item(self: Tensor, index: Any = None) -> Tensor:
    """One element as a 0-d Tensor, as MindSpore 1.6: the only one when ``index`` is None, the
    one at a flat position (an int) or at one int per dimension (a tuple)."""
    if index is None:
        if self.size != 1:
            raise ValueError(f"Tensor.item: can only convert an array of size 1 to a Python "
                             f"scalar, but the tensor has shape {list(self.shape)}")
        return F.reshape(self, ())
    indices = index if isinstance(index, tuple) else (index,)
    if {type(i) for i in indices} - {int}:
        raise TypeError(f"Tensor.item: the index object cannot be interpreted as an integer, "
                        f"but got {index!r}")
    if len(indices) == 1 and self.ndim != 1:
        return F.reshape(self, (-1,))[indices[0]]
    if len(indices) != self.ndim:
        raise ValueError(f"Tensor.item: incorrect number of indices for array: the tensor has "
                         f"{self.ndim} dimensions, but the index {index!r} has {len(indices)}")
    return self[indices]


def itemset(self: Tensor, *args: Any) -> Tensor:
    """A copy with one element set, as MindSpore 1.6: ``itemset(value)`` for a one-element
    tensor, ``itemset(flat_index, value)`` or ``itemset((i, j, ...), value)``."""
    if len(args) == 1:
        if self.size != 1:
            raise ValueError(f"Tensor.itemset: one argument only sets a one-element tensor, but "
                             f"the tensor has {self.size} elements")
        index: Any = (0,) * self.ndim
    elif len(args) == 2:
        index = args[0] if isinstance(args[0], tuple) else np.unravel_index(args[0], self.shape)
    else:
        raise TypeError(f"Tensor.itemset: takes the value, optionally after an index, but got "
                        f"{len(args)} arguments")
    out = Tensor._make(self._data, self._dtype, self._shape, self._device)
    out._node = self._node
    out[tuple(int(i) for i in index)] = args[-1]
    return out


def from_numpy(array: np.ndarray) -> Tensor:
    """A Tensor of a NumPy array (``Tensor.from_numpy``)."""
    return Tensor(array)


def _strides(self: Tensor) -> tuple[int, ...]:
    """Bytes to step along each axis of the row-major layout."""
    return np.empty(self.shape, self.dtype.np_dtype).strides


TABLE = {
    "all": all, "any": any, "argmin": argmin, "clip": clip, "ptp": ptp, "var": var, "std": std,
    "swapaxes": swapaxes, "expand_as": expand_as, "fill": fill, "diagonal": diagonal,
    "trace": trace, "repeat": repeat, "resize": resize, "take": take, "choose": choose,
    "searchsorted": searchsorted, "item": item, "itemset": itemset, "cumsum": cumsum,
    "from_numpy": staticmethod(from_numpy),
    "strides": property(_strides), "has_init": property(lambda self: False),
}
