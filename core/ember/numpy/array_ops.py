"""Array manipulation of ``mindspore.numpy``: reshaping, joining, splitting, reordering and
picking elements, each made of ember primitives (index arithmetic on the static shape happens
on the host at trace time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.numpy._utils import (
    check_axes,
    check_axis,
    check_int,
    named,
    shape_of,
    to_tensor,
    to_tensors,
)
from ember.ops import functional as F
from ember.ops import operations as P


def _tensor(op: str, a: Any) -> Tensor:
    return to_tensor(op, "a", a)


def transpose(a: Any, axes: Any = None) -> Tensor:
    """``a`` with its axes permuted (reversed when ``axes`` is None)."""
    a = _tensor("transpose", a)
    if axes is None:
        return F.transpose(a, tuple(reversed(range(a.ndim))))
    perm = tuple(check_axis("transpose", x, a.ndim) for x in axes)
    if sorted(perm) != list(range(a.ndim)):
        raise ValueError(f"transpose: axes {axes!r} is not a permutation of {a.ndim} axes")
    return F.transpose(a, perm)


def expand_dims(a: Any, axis: Any) -> Tensor:
    """``a`` with a new axis of length 1 at each position in ``axis``."""
    a = _tensor("expand_dims", a)
    for x in check_axes("expand_dims", axis, a.ndim + len(np.atleast_1d(axis))):
        a = F.expand_dims(a, x)
    return a


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """``a`` without the length-1 axes (those in ``axis`` only, when given)."""
    a = _tensor("squeeze", a)
    axes = tuple(i for i, s in enumerate(a.shape) if s == 1) if axis is None else check_axes(
        "squeeze", axis, a.ndim)
    if any(a.shape[x] != 1 for x in axes):
        raise ValueError(f"squeeze: axis {axis!r} has a length other than 1 in shape {a.shape}")
    return F.reshape(a, tuple(s for i, s in enumerate(a.shape) if i not in axes))


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """``a`` with the ``source`` axes moved to the ``destination`` positions."""
    a = _tensor("moveaxis", a)
    src = [check_axis("moveaxis", s, a.ndim) for s in np.atleast_1d(source).tolist()]
    dst = [check_axis("moveaxis", d, a.ndim) for d in np.atleast_1d(destination).tolist()]
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of axes")
    order = [x for x in range(a.ndim) if x not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return F.transpose(a, tuple(order))


def rollaxis(x: Any, axis: int, start: int = 0) -> Tensor:
    """``x`` with ``axis`` moved to lie before position ``start``."""
    x = to_tensor("rollaxis", "x", x)
    axis = check_axis("rollaxis", axis, x.ndim)
    start = check_int("rollaxis", "start", start)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"rollaxis: start {start} is out of range for rank {x.ndim}")
    start %= x.ndim + 1
    return moveaxis(x, axis, start - 1 if start > axis else start)


def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    """``x`` with two axes interchanged."""
    x = to_tensor("swapaxes", "x", x)
    perm = list(range(x.ndim))
    a, b = check_axis("swapaxes", axis1, x.ndim), check_axis("swapaxes", axis2, x.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return F.transpose(x, tuple(perm))


def reshape(x: Any, new_shape: Any) -> Tensor:
    """``x`` with a new shape (one entry may be -1)."""
    x = to_tensor("reshape", "x", x)
    shape = (new_shape,) if isinstance(new_shape, int) else new_shape
    if not isinstance(shape, tuple | list) or not all(isinstance(s, int) for s in shape):
        raise TypeError(f"reshape: new_shape must be an int or a tuple of ints, but got "
                        f"{new_shape!r}")
    return F.reshape(x, tuple(shape))


def ravel(x: Any) -> Tensor:
    """``x`` flattened to 1-D."""
    return F.reshape(to_tensor("ravel", "x", x), (-1,))


def _arrays(op: str, arrays: Any) -> list[Tensor]:
    if isinstance(arrays, Tensor):
        return [arrays[i] for i in range(arrays.shape[0])]
    if not isinstance(arrays, tuple | list) or not arrays:
        raise TypeError(f"{op}: arrays must be a non-empty tuple or list of Tensors, but got "
                        f"{type(arrays).__name__}")
    return to_tensors(op, *arrays)


def concatenate(arrays: Any, axis: int | None = 0) -> Tensor:
    """The tensors joined along an existing ``axis`` (flattened first when None)."""
    if isinstance(arrays, Tensor):
        return ravel(arrays) if axis is None else _join(
            "concatenate", list(arrays[i] for i in range(arrays.shape[0])), axis)
    items = _arrays("concatenate", arrays)
    if axis is None:
        return F.concat(tuple(ravel(t) for t in items), 0)
    return _join("concatenate", items, axis)


def _join(op: str, items: list[Tensor], axis: int) -> Tensor:
    axis = check_axis(op, axis, items[0].ndim)
    rest = [t.shape[:axis] + t.shape[axis + 1:] for t in items]
    if any(r != rest[0] or t.ndim != items[0].ndim for r, t in zip(rest, items)):
        raise ValueError(f"{op}: all shapes must match except on axis {axis}, but got "
                         f"{[t.shape for t in items]}")
    return items[0] if len(items) == 1 else F.concat(tuple(items), axis)


def stack(arrays: Any, axis: int = 0) -> Tensor:
    """The tensors joined along a new ``axis``."""
    items = _arrays("stack", arrays)
    if any(t.shape != items[0].shape for t in items):
        raise ValueError(f"stack: all shapes must be equal, but got {[t.shape for t in items]}")
    return F.stack(tuple(items), check_axis("stack", axis, items[0].ndim + 1))


def _grown_shape(ndim: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's placement of the new axes of ``atleast_{ndim}d``: a vector becomes a row
    (2-D) or (1, n, 1) (3-D); a matrix gets a trailing axis."""
    if len(shape) == 0:
        return (1,) * ndim
    if len(shape) == 1:
        return (1, *shape, 1)[:ndim] if ndim > 1 else shape
    return shape + (1,) * (ndim - len(shape))


def _atleast(op: str, ndim: int) -> Callable:
    def atleast(*arys: Any) -> Any:
        out = [to_tensor(op, "arys", a) for a in arys]
        out = [F.reshape(t, _grown_shape(ndim, t.shape)) if t.ndim < ndim else t for t in out]
        return out[0] if len(out) == 1 else out

    return named(atleast, op, f"Each input viewed with at least {ndim} dimensions.")


atleast_1d = _atleast("atleast_1d", 1)
atleast_2d = _atleast("atleast_2d", 2)
atleast_3d = _atleast("atleast_3d", 3)


def hstack(tup: Any) -> Tensor:
    """The tensors joined column-wise (along axis 1; axis 0 for 1-D inputs)."""
    items = [atleast_1d(t) for t in _arrays("hstack", tup)]
    return _join("hstack", items, 0 if items[0].ndim == 1 else 1)


def vstack(tup: Any) -> Tensor:
    """The tensors joined row-wise (along axis 0, 1-D inputs as rows)."""
    return _join("vstack", [atleast_2d(t) for t in _arrays("vstack", tup)], 0)


def dstack(tup: Any) -> Tensor:
    """The tensors joined depth-wise (along axis 2)."""
    return _join("dstack", [atleast_3d(t) for t in _arrays("dstack", tup)], 2)


def column_stack(tup: Any) -> Tensor:
    """1-D tensors as columns of a 2-D tensor; 2-D tensors joined along axis 1."""
    items = [F.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in _arrays("column_stack", tup)]
    return _join("column_stack", items, 1)


def append(arr: Any, values: Any, axis: int | None = None) -> Tensor:
    """``values`` appended to ``arr`` along ``axis`` (both flattened when None)."""
    arr, values = to_tensors("append", arr, values)
    if axis is None:
        return F.concat((ravel(arr), ravel(values)), 0)
    return _join("append", [arr, values], axis)


def where(condition: Any, x: Any = None, y: Any = None) -> Tensor:
    """Elements of ``x`` where ``condition`` holds, of ``y`` elsewhere (broadcasting)."""
    if x is None or y is None:
        raise ValueError("where: ember needs both x and y (the one-argument form returns "
                         "data-dependent shapes; use nonzero on the host)")
    condition = to_tensor("where", "condition", condition)
    x, y = to_tensors("where", x, y)
    if condition.dtype is not mstype.bool_:
        condition = F.not_equal(condition, F.zeros_like(condition))
    return F.where(condition, x, y)


def _index_of(a: Tensor) -> np.ndarray:
    return np.arange(a.size).reshape(a.shape)


def _pick(a: Tensor, positions: np.ndarray) -> Tensor:
    """The elements of ``a`` at host-computed flat positions, shaped like ``positions``."""
    flat = F.gather(F.reshape(a, (-1,)), Tensor(positions.reshape(-1).astype(np.int32)), 0)
    return F.reshape(flat, positions.shape)


def tile(a: Any, reps: Any) -> Tensor:
    """``a`` repeated ``reps`` times along each axis."""
    a = _tensor("tile", a)
    reps = shape_of("tile", reps)
    rank = max(a.ndim, len(reps))
    a = F.reshape(a, (1,) * (rank - a.ndim) + a.shape)
    return F.tile(a, (1,) * (rank - len(reps)) + reps)


def broadcast_to(array: Any, shape: Any) -> Tensor:
    """``array`` broadcast to ``shape``."""
    array = to_tensor("broadcast_to", "array", array)
    shape = shape_of("broadcast_to", shape)
    try:
        np.broadcast_shapes(array.shape, shape)
    except ValueError:
        raise ValueError(f"broadcast_to: cannot broadcast shape {array.shape} to {shape}") from None
    return F.broadcast_to(array, shape)


def broadcast_arrays(*args: Any) -> list[Tensor]:
    """The inputs broadcast against each other."""
    items = [to_tensor("broadcast_arrays", "args", a) for a in args]
    shape = tuple(np.broadcast_shapes(*(t.shape for t in items)))
    return [F.broadcast_to(t, shape) for t in items]


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """Elements shifted by ``shift`` along ``axis`` (of the flattened tensor when None)."""
    a = _tensor("roll", a)
    return _pick(a, np.roll(_index_of(a), shift, axis))


def flip(m: Any, axis: Any = None) -> Tensor:
    """``m`` with the order of elements reversed along ``axis`` (all axes when None)."""
    m = to_tensor("flip", "m", m)
    check_axes("flip", axis, m.ndim)
    return _pick(m, np.flip(_index_of(m), axis))


def flipud(m: Any) -> Tensor:
    """``m`` reversed along axis 0."""
    return flip(m, 0)


def fliplr(m: Any) -> Tensor:
    """``m`` reversed along axis 1."""
    return flip(m, 1)


def rot90(a: Any, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Tensor:
    """``a`` rotated by 90 degrees ``k`` times in the plane of ``axes``."""
    a = _tensor("rot90", a)
    if a.ndim < 2:
        raise ValueError(f"rot90: a must have rank >= 2, but got rank {a.ndim}")
    return _pick(a, np.rot90(_index_of(a), check_int("rot90", "k", k), axes))


def _sections(op: str, n: int, indices_or_sections: Any, even: bool) -> list[int]:
    """The split points along an axis of length ``n``."""
    if isinstance(indices_or_sections, int | np.integer):
        sections = check_int(op, "indices_or_sections", indices_or_sections, 1)
        if even and n % sections:
            raise ValueError(f"{op}: an axis of length {n} cannot be split into {sections} "
                             f"equal sections")
        sizes = [n // sections + (i < n % sections) for i in range(sections)]
        return np.cumsum(sizes)[:-1].tolist()
    if not isinstance(indices_or_sections, tuple | list):
        raise TypeError(f"{op}: indices_or_sections must be an int or a list of ints, but got "
                        f"{indices_or_sections!r}")
    return [int(i) for i in indices_or_sections]


#: What the split functions return: a tuple for a number of sections (1.6's Split), else a list.
Pieces = tuple[Tensor, ...] | list[Tensor]


def _split(op: str, x: Any, indices_or_sections: Any, axis: int, even: bool) -> Pieces:
    x = to_tensor(op, "x", x)
    axis = check_axis(op, axis, x.ndim)
    n = x.shape[axis]
    bounds = [0, *(min(max(p, 0), n) for p in _sections(op, n, indices_or_sections, even)), n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        begin = [0] * x.ndim
        size = list(x.shape)
        begin[axis], size[axis] = lo, max(hi - lo, 0)
        out.append(F.tensor_slice(x, tuple(begin), tuple(size)))
    return tuple(out) if isinstance(indices_or_sections, int) else out


def split(x: Any, indices_or_sections: Any, axis: int = 0) -> Pieces:
    """``x`` split into equal sections, or at the given indices, along ``axis``."""
    return _split("split", x, indices_or_sections, axis, True)


def array_split(x: Any, indices_or_sections: Any, axis: int = 0) -> Pieces:
    """``split`` that allows sections of unequal length."""
    return _split("array_split", x, indices_or_sections, axis, False)


def hsplit(x: Any, indices_or_sections: Any) -> Pieces:
    """``split`` along axis 1 (axis 0 for 1-D inputs)."""
    x = to_tensor("hsplit", "x", x)
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, True)


def vsplit(x: Any, indices_or_sections: Any) -> Pieces:
    """``split`` along axis 0."""
    return _split("vsplit", x, indices_or_sections, 0, True)


def dsplit(x: Any, indices_or_sections: Any) -> Pieces:
    """``split`` along axis 2."""
    return _split("dsplit", x, indices_or_sections, 2, True)


def take(a: Any, indices: Any, axis: int | None = None, mode: str = "clip") -> Tensor:
    """Elements at ``indices`` along ``axis`` (of the flattened tensor when None)."""
    return _tensor("take", a).take(indices, axis, mode)


def take_along_axis(arr: Any, indices: Any, axis: int | None) -> Tensor:
    """Values of ``arr`` at ``indices`` matched along ``axis`` (``numpy.take_along_axis``)."""
    arr = to_tensor("take_along_axis", "arr", arr)
    indices = to_tensor("take_along_axis", "indices", indices, mstype.int32)
    if axis is None:
        return take_along_axis(ravel(arr), ravel(indices), 0)
    axis = check_axis("take_along_axis", axis, arr.ndim)
    if indices.ndim != arr.ndim:
        raise ValueError(f"take_along_axis: indices must have rank {arr.ndim}, but got "
                         f"{indices.ndim}")
    shape = tuple(np.broadcast_shapes(
        indices.shape, arr.shape[:axis] + (1,) + arr.shape[axis + 1:]))
    index = F.broadcast_to(indices, shape)
    index = F.select(F.less(index, 0), F.add(index, arr.shape[axis]), index)
    source = F.broadcast_to(arr, shape[:axis] + (arr.shape[axis],) + shape[axis + 1:])
    return F.gather_d(source, axis, index)


def repeat(a: Any, repeats: Any, axis: int | None = None) -> Tensor:
    """Each element (along ``axis``; of the flattened tensor when None) repeated."""
    a = _tensor("repeat", a)
    if axis is not None:
        check_axis("repeat", axis, a.ndim)
    return a.repeat(repeats, axis)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Tensor:
    """Elements of the first ``choicelist`` entry whose ``condlist`` entry holds, else
    ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"select: condlist and choicelist must have the same length, but got "
                         f"{len(condlist)} and {len(choicelist)}")
    *choices, fallback = to_tensors("select", *choicelist, default)
    out = fallback
    for cond, choice in reversed(list(zip(condlist, choices))):
        out = where(to_tensor("select", "condlist", cond, mstype.bool_), choice, out)
    return out


def choose(a: Any, choices: Any, mode: str = "clip") -> Tensor:
    """``choices[a[i]][i]`` at every position i, indices clipped."""
    return to_tensor("choose", "a", a, mstype.int32).choose(choices, mode)


def size(a: Any, axis: int | None = None) -> int:
    """The number of elements (along ``axis`` when given)."""
    a = _tensor("size", a)
    return a.size if axis is None else a.shape[check_axis("size", axis, a.ndim)]


def array_str(a: Any) -> str:
    """The values of ``a`` as a string (PyNative)."""
    return str(_tensor("array_str", a))


def unique(x: Any, return_inverse: bool = False) -> Any:
    """The sorted distinct values of ``x`` (PyNative: the result's size depends on the values),
    and with ``return_inverse`` the index of each element's value."""
    flat = ravel(to_tensor("unique", "x", x))
    values, _ = F.unique(flat)
    values = F.sort(values)[0]
    if not return_inverse:
        return values
    hits = F.equal(F.expand_dims(flat, -1), F.expand_dims(values, 0))
    return values, P.Argmax(axis=-1)(F.cast(hits, mstype.float32))


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple[Tensor, ...]:
    """The coordinates in an array of ``shape`` of flat ``indices``."""
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', but got {order!r}")
    indices = to_tensor("unravel_index", "indices", indices, mstype.int32)
    dims = shape_of("unravel_index", shape)
    out = []
    rest = indices
    for n in (reversed(dims) if order == "C" else dims):
        out.append(F.floormod(rest, n))
        rest = F.floordiv(rest, n)
    return tuple(reversed(out)) if order == "C" else tuple(out)


def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> Tensor:
    """``func1d`` applied to every 1-D slice along ``axis``; results stacked in its place."""
    arr = to_tensor("apply_along_axis", "arr", arr)
    axis = check_axis("apply_along_axis", axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    rows = F.reshape(moved, (-1, arr.shape[axis]))
    results = [func1d(rows[i], *args, **kwargs) for i in range(rows.shape[0])]
    out = F.stack(tuple(to_tensor("apply_along_axis", "func1d result", r) for r in results), 0)
    out = F.reshape(out, moved.shape[:-1] + out.shape[1:])
    return moveaxis(out, tuple(range(arr.ndim - 1, out.ndim)),
                    tuple(range(axis, axis + out.ndim - arr.ndim + 1))) if out.ndim >= arr.ndim \
        else out


def apply_over_axes(func: Callable, a: Any, axes: Any) -> Tensor:
    """``func(a, axis)`` applied for each axis in turn, keeping the rank."""
    a = _tensor("apply_over_axes", a)
    for axis in np.atleast_1d(axes).tolist():
        out = func(a, axis)
        a = out if out.ndim == a.ndim else F.expand_dims(out, axis)
    return a


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Tensor:
    """``funclist[i](x)`` (or the constant) where ``condlist[i]`` holds; a list one longer
    than ``condlist`` gives the value where no condition holds."""
    x = to_tensor("piecewise", "x", x)
    conds = [condlist] if isinstance(condlist, Tensor) and condlist.ndim == x.ndim \
        and condlist.dtype is mstype.bool_ else list(condlist)
    if len(funclist) not in (len(conds), len(conds) + 1):
        raise ValueError(f"piecewise: funclist needs {len(conds)} or {len(conds) + 1} entries, "
                         f"but got {len(funclist)}")

    def value(f: Any) -> Tensor:
        return to_tensors("piecewise", x, f(x, *args, **kw) if callable(f) else f)[1]

    out = value(funclist[-1]) if len(funclist) > len(conds) else F.zeros_like(x)
    for cond, f in zip(conds, funclist):
        out = where(to_tensor("piecewise", "condlist", cond, mstype.bool_), value(f), out)
    return F.cast(out, x.dtype)


__all__ = ["transpose", "expand_dims", "squeeze", "rollaxis", "swapaxes", "reshape", "ravel",
           "concatenate", "where", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack",
           "hstack", "dstack", "vstack", "stack", "unique", "moveaxis", "tile", "broadcast_to",
           "broadcast_arrays", "append", "roll", "split", "vsplit", "flip", "flipud", "fliplr",
           "hsplit", "dsplit", "take_along_axis", "take", "repeat", "rot90", "select",
           "array_split", "choose", "size", "array_str", "apply_along_axis", "piecewise",
           "unravel_index", "apply_over_axes"]
