"""``Tensor.__getitem__``: NumPy indexing built from differentiable layout primitives.

Basic indices (ints, slices, None, Ellipsis) become one StridedSlice. Advanced indices (integer
lists, arrays and Tensors; boolean masks; bools) then pick with Gather when there is one, or with
GatherNd on the indices broadcast together, and the picked dimensions land where NumPy puts them:
in place when the advanced indices are adjacent in the index, first otherwise.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ember._executor import symbolic
from ember.common import dtype as mstype
from ember.common.tensor import Tensor

_INTEGER = (*mstype.int_type, *mstype.uint_type)
_FULL = ("slice", slice(None), 1)

#: One index item: (kind, value, how many dimensions of the tensor it uses). Kinds: "new"
#: (None), "ellipsis", "slice", "int", "array" (an integer array or Tensor), "mask" (a boolean
#: array, value as NumPy), "bool" (a Python or 0-d boolean).
Item = tuple[str, Any, int]


def getitem(tensor: Tensor, index: Any) -> Tensor:
    """``tensor[index]`` with NumPy's semantics, differentiable with respect to ``tensor``."""
    from ember.ops.operations import array_ops as A

    items = [_item(i) for i in (index if isinstance(index, tuple) else (index,))]
    if sum(kind == "ellipsis" for kind, _, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(n for _, _, n in items)
    if used > tensor.ndim:
        raise IndexError(f"too many indices for a tensor of dimension {tensor.ndim}: the index "
                         f"{index!r} uses {used}")
    if not any(kind in ("array", "mask", "bool") for kind, _, _ in items):
        return _strided(A, tensor, items)

    # NumPy's rule: next to an advanced index, an int is a 0-d advanced index too.
    basic: list[Item] = []
    picks: list[tuple[int, Any]] = []  # (dimension of the sliced tensor, index array)
    positions = []  # of the advanced items in the index, to tell whether they are adjacent
    dim = at = 0  # dimension of the sliced tensor, of ``tensor``
    for pos, (kind, value, n) in enumerate(items):
        if kind in ("new", "slice", "ellipsis"):
            width = tensor.ndim - used if kind == "ellipsis" else 1
            basic.append((kind, value, n))
            dim += width
            at += width - (kind == "new")
            continue
        positions.append(pos)
        if kind == "bool":  # a new dimension, of length 1 if True and 0 if False
            basic.append(("new", None, 0))
            picks.append((dim, np.zeros(int(value), np.int64)))
            dim += 1
            continue
        if kind == "mask":
            if value.shape != tensor.shape[at:at + n]:
                raise IndexError(f"boolean index of shape {list(value.shape)} does not match "
                                 f"the tensor's dimensions {at}..{at + n - 1}, of shape "
                                 f"{list(tensor.shape[at:at + n])}")
            arrays: list[Any] = list(np.nonzero(value))
        else:
            arrays = [np.asarray(value, np.int64) if kind == "int" else value]
            _check_bounds(arrays[0], at, tensor.shape[at])
        basic += [_FULL] * n
        picks += [(dim + i, a) for i, a in enumerate(arrays)]
        dim += n
        at += n

    if any(kind == "new" or (kind == "slice" and value != slice(None))
           for kind, value, _ in basic):
        tensor = _strided(A, tensor, basic)
    adjacent = positions == list(range(positions[0], positions[-1] + 1))
    if len(picks) == 1:
        axis, array = picks[0]
        return A.gather(tensor, _index_tensor(array, (mstype.int32, mstype.int64)), axis)
    return _gather_nd(A, tensor, picks, adjacent)


def _item(item: Any) -> Item:
    """One index item, classified; IndexError for what cannot index a tensor."""
    if item is None:
        return ("new", None, 0)
    if item is Ellipsis:
        return ("ellipsis", None, 0)
    if isinstance(item, slice):
        bounds = [None if v is None else operator.index(v)
                  for v in (item.start, item.stop, item.step)]
        if bounds[2] == 0:
            raise ValueError("slice step cannot be zero")
        return ("slice", slice(*bounds), 1)
    if isinstance(item, bool | np.bool_):
        return ("bool", bool(item), 0)
    if isinstance(item, int | np.integer):
        return ("int", int(item), 1)
    if isinstance(item, Tensor):
        if item.dtype is mstype.bool_:
            return _mask(item.asnumpy())
        if item.dtype not in _INTEGER:
            raise IndexError(f"a Tensor index must have an integer or bool dtype, but got "
                             f"{item.dtype}")
        return ("array", item, 1)
    if isinstance(item, list | tuple | np.ndarray):
        array = np.asarray(item)
        if array.dtype == np.bool_:
            return _mask(array)
        if array.size == 0:
            array = array.astype(np.int64)
        if array.dtype.kind not in "iu":
            raise IndexError(f"an array or list index must hold integers or bools, but got "
                             f"{array.dtype} from {item!r}")
        return ("array", array.astype(np.int64), 1)
    raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None, bools, and integer "
                     f"or boolean lists, arrays and Tensors are valid indices, but got "
                     f"{type(item).__name__}")


def _mask(array: np.ndarray) -> Item:
    return ("bool", bool(array), 0) if array.ndim == 0 else ("mask", array, array.ndim)


def _check_bounds(array: Any, axis: int, n: int) -> None:
    """IndexError for constant indices outside [-n, n) (Gather checks Tensor indices)."""
    if isinstance(array, np.ndarray) and array.size:
        bad = array[(array < -n) | (array >= n)]
        if bad.size:
            raise IndexError(f"index {bad.flat[0]} is out of bounds for axis {axis} with size "
                             f"{n}")


def _index_tensor(array: Any, dtypes: tuple[mstype.Type, ...]) -> Tensor:
    """An index as a Tensor of one of ``dtypes`` (int64 unless it already is one)."""
    if isinstance(array, np.ndarray):
        return Tensor(array)
    if array.dtype in dtypes:
        return array
    from ember.ops import functional as F

    return F.cast(array, mstype.int64)


def _strided(A: Any, tensor: Tensor, items: list[Item]) -> Tensor:
    """The basic items (ints, slices, None, Ellipsis) as one StridedSlice."""
    begin, end, strides = [], [], []
    masks = [0] * 5  # begin, end, ellipsis, new axis, shrink axis
    for j, (kind, value, _) in enumerate(items):
        if kind == "slice":
            masks[0] |= (value.start is None) << j
            masks[1] |= (value.stop is None) << j
            begin.append(value.start or 0)
            end.append(value.stop or 0)
            strides.append(1 if value.step is None else value.step)
            continue
        if kind == "int":
            masks[4] |= 1 << j
            begin.append(value)
        else:
            masks[2 if kind == "ellipsis" else 3] |= 1 << j
            begin.append(0)
        end.append(begin[-1] + 1)
        strides.append(1)
    return A.strided_slice(tensor, tuple(begin), tuple(end), tuple(strides), *masks)


def _gather_nd(A: Any, tensor: Tensor, picks: list[tuple[int, Any]], adjacent: bool) -> Tensor:
    """Several advanced indices: broadcast together, they pick with one GatherNd."""
    try:
        batch = np.broadcast_shapes(*(tuple(a.shape) for _, a in picks))
    except ValueError:
        shapes = " ".join(str(list(a.shape)) for _, a in picks)
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with "
                         f"shapes {shapes}") from None
    dims = [d for d, _ in picks]
    order = dims + [d for d in range(tensor.ndim) if d not in dims]
    if order != sorted(order):
        tensor = A.transpose(tensor, tuple(order))
    if all(isinstance(a, np.ndarray) for _, a in picks):
        indices = Tensor(np.stack([np.broadcast_to(a, batch) for _, a in picks], -1))
    else:
        indices = A.stack([A.broadcast_to(_index_tensor(a, (mstype.int64,)), batch)
                           for _, a in picks], -1)
    out = A.gather_nd(tensor, indices)
    if adjacent and dims[0]:  # the picked dimensions go back where the advanced indices were
        nb, before = len(batch), dims[0]
        out = A.transpose(out, (*range(nb, nb + before), *range(nb),
                                *range(nb + before, out.ndim)))
    return out


def setitem(tensor: Tensor, index: Any, value: Any) -> None:
    """``tensor[index] = value`` with NumPy's semantics: the tensor takes new values (made by
    primitives, so gradients flow to ``value`` and to the kept elements of ``tensor``)."""
    from ember import _autodiff
    from ember.ops import functional as F

    old = Tensor._make(tensor._data, tensor._dtype, tensor._shape, tensor._device)
    _autodiff.move_output(tensor, old)
    tensor, target = old, tensor
    if isinstance(value, Tensor):
        value = F.cast(value, tensor.dtype) if value.dtype is not tensor.dtype else value
    elif isinstance(value, bool | int | float | list | tuple | np.ndarray):
        value = Tensor(np.asarray(value), tensor.dtype)
    else:
        raise TypeError(f"Tensor.__setitem__: value must be a Tensor, number, list or tuple, "
                        f"but got {type(value).__name__}")
    items = index if isinstance(index, tuple) else (index,)
    if isinstance(index, Tensor) and index.dtype is mstype.bool_ and index.shape == tensor.shape:
        # a whole-shape mask needs no values on the host (works while a graph is traced)
        new = F.select(index, F.broadcast_to(value, tensor.shape), tensor)
    elif any(map(symbolic, items)):
        new = _set_traced(tensor, index, value)
    else:
        host = tuple(i.asnumpy() if isinstance(i, Tensor) else i for i in items)
        try:
            positions = np.arange(tensor.size).reshape(tensor.shape)[host]
        except IndexError as exc:
            raise IndexError(f"Tensor.__setitem__: {exc}") from None
        positions = np.asarray(positions)
        try:
            updates = F.broadcast_to(value, positions.shape)
        except (ValueError, RuntimeError):
            raise ValueError(f"Tensor.__setitem__: value of shape {list(value.shape)} cannot be "
                             f"broadcast to the indexed shape {list(positions.shape)}") from None
        flat_pos = positions.reshape(-1)
        # NumPy keeps the last of repeated positions
        last = len(flat_pos) - 1 - np.unique(flat_pos[::-1], return_index=True)[1]
        chosen = Tensor(flat_pos[last].reshape(-1, 1))
        picked = F.gather(F.reshape(updates, (-1,)), Tensor(last), 0)
        flat = F.reshape(tensor, (-1,))
        keep = np.ones(tensor.size, np.bool_)
        keep[flat_pos] = False
        base = F.mul(flat, Tensor(keep.astype(tensor.dtype.np_dtype)))
        new = F.reshape(F.tensor_scatter_add(base, chosen, picked), tensor.shape)
    target._data, target._device = new._data, new._device
    _autodiff.move_output(new, target)


def _set_traced(tensor: Tensor, index: Any, value: Tensor) -> Tensor:
    """``tensor`` with ``value`` at ``index``, an index holding tensors of a graph being traced
    (a loop's counter): the graph computes the positions, as ``tensor[index]`` of their
    numbers, and writes ``value`` there with TensorScatterUpdate (positions should not repeat:
    which of repeated values lands is the backend's choice)."""
    from ember.ops import functional as F

    positions = getitem(Tensor(np.arange(tensor.size).reshape(tensor.shape)), index)
    updates = F.reshape(F.broadcast_to(value, positions.shape), (-1,))
    flat = F.tensor_scatter_update(F.reshape(tensor, (-1,)), F.reshape(positions, (-1, 1)),
                                   updates)
    return F.reshape(flat, tensor.shape)
