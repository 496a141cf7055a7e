"""Array creation of ``mindspore.numpy``: constants are built on the host from Python values
(shape arithmetic at trace time); anything computed from a Tensor goes through primitives."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.numpy._utils import (
    cast_to,
    check_axes,
    check_dtype,
    check_int,
    host_array,
    named,
    narrow,
    shape_of,
    to_tensor,
)
from ember.ops import functional as F
from ember.ops.operations.array_ops import Identity


def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """A Tensor of ``obj``; Python ints are Int32 and floats Float32 unless ``dtype``."""
    out = to_tensor("array", "obj", obj, check_dtype("array", dtype))
    check_int("array", "ndmin", ndmin, 0)
    return F.reshape(out, (1,) * (ndmin - out.ndim) + out.shape) if out.ndim < ndmin else out


def asarray(a: Any, dtype: Any = None) -> Tensor:
    """``a`` as a Tensor (``a`` itself when it already is one of ``dtype``)."""
    return to_tensor("asarray", "a", a, check_dtype("asarray", dtype))


def asfarray(a: Any, dtype: Any = mstype.float32) -> Tensor:
    """``a`` as a floating-point Tensor (Float32 unless ``dtype`` is another float)."""
    dtype = check_dtype("asfarray", dtype)
    if not mstype.is_float(dtype):
        dtype = mstype.float32
    return to_tensor("asfarray", "a", a, dtype)


def copy_(a: Any) -> Tensor:
    """A new Tensor with the values of ``a``."""
    return Identity()(to_tensor("copy", "a", a))


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value`` (a number or a broadcastable Tensor)."""
    shape = shape_of("full", shape)
    dtype = check_dtype("full", dtype)
    if isinstance(fill_value, Tensor):
        return F.broadcast_to(cast_to(fill_value, dtype), shape)
    value = host_array("full", "fill_value", fill_value, dtype)
    return Tensor(np.broadcast_to(value, shape).copy())


def _filled(op: str, value: int) -> Any:
    def create(shape: Any, dtype: Any = mstype.float32) -> Tensor:
        dtype = check_dtype(op, dtype) or mstype.float32
        return F.fill(dtype, shape_of(op, shape), value)

    return named(create, op,
                 f"A tensor of ``shape`` filled with {value} (Float32 unless ``dtype``).")


ones = _filled("ones", 1)
zeros = _filled("zeros", 0)
empty = _filled("empty", 0)
empty.__doc__ = "A tensor of ``shape`` (ember fills it with zeros; Float32 unless ``dtype``)."


def _like(op: str, value: Any) -> Any:
    def create(a: Any, dtype: Any = None, shape: Any = None) -> Tensor:
        a = to_tensor(op, "a", a)
        dtype = check_dtype(op, dtype) or a.dtype
        shape = a.shape if shape is None else shape_of(op, shape)
        return F.fill(dtype, shape, value)

    return named(create, op, f"A tensor shaped and typed like ``a`` (or ``dtype``/``shape``) "
                             f"filled with {value}.")


ones_like = _like("ones_like", 1)
zeros_like = _like("zeros_like", 0)
empty_like = _like("empty_like", 0)


def full_like(a: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> Tensor:
    """A tensor shaped and typed like ``a`` (or ``dtype``/``shape``) filled with
    ``fill_value``."""
    a = to_tensor("full_like", "a", a)
    dtype = check_dtype("full_like", dtype) or a.dtype
    return full(a.shape if shape is None else shape, fill_value, dtype)


def _number(op: str, name: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{op}: {name} must be a number, but got {type(value).__name__}")
    return value


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Tensor:
    """Evenly spaced values in [start, stop); Int32 for integer arguments, Float32 when one is
    a float, unless ``dtype``."""
    if stop is None:
        start, stop = 0, start
    args = [_number("arange", n, v) for n, v in
            (("start", start), ("stop", stop), ("step", 1 if step is None else step))]
    if args[2] == 0:
        raise ValueError("arange: step must not be 0")
    values = np.arange(*args)
    return Tensor(values.astype((check_dtype("arange", dtype) or (
        mstype.int32 if values.dtype.kind in "iu" else mstype.float32)).np_dtype))


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced samples over [start, stop] (Float32 unless ``dtype``)."""
    dtype = check_dtype("linspace", dtype) or mstype.float32
    check_int("linspace", "num", num, 0)
    step_count = (num - 1) if endpoint else num
    positions = np.arange(num, dtype=np.float32) / max(step_count, 1)
    if isinstance(start, Tensor) or isinstance(stop, Tensor):
        lo = to_tensor("linspace", "start", start, mstype.float32)
        hi = to_tensor("linspace", "stop", stop, mstype.float32)
        shape = tuple(np.broadcast_shapes(lo.shape, hi.shape))
        ramp = Tensor(positions.reshape((num,) + (1,) * len(shape)))
        out = F.add(lo, F.mul(ramp, F.sub(hi, lo)))
        out = F.transpose(out, _axis_order(axis, out.ndim)) if out.ndim > 1 else out
        step = F.real_div(F.sub(hi, lo), float(max(step_count, 1)))
    else:
        lo = host_array("linspace", "start", start).astype(np.float64)
        hi = host_array("linspace", "stop", stop).astype(np.float64)
        values = np.linspace(lo, hi, num, endpoint, axis=axis)
        out = Tensor(values.astype(np.float32))
        step = (hi - lo) / max(step_count, 1)
        step = Tensor(np.float32(step)) if np.ndim(step) else float(step)
    out = cast_to(out, dtype)
    return (out, step) if retstep else out


def _axis_order(axis: int, ndim: int) -> tuple[int, ...]:
    axis = check_axes("linspace", axis, ndim)[0]
    order = list(range(1, ndim))
    order.insert(axis, 0)
    return tuple(order)


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: float = 10.0,
             dtype: Any = None, axis: int = 0) -> Tensor:
    """``base ** linspace(start, stop)`` (Float32 unless ``dtype``)."""
    exponents = linspace(start, stop, num, endpoint, False, mstype.float32, axis)
    return cast_to(F.pow(Tensor(np.float32(base)), exponents),
                   check_dtype("logspace", dtype) or mstype.float32)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Tensor:
    """``num`` samples spaced evenly on a log scale between ``start`` and ``stop``."""
    lo = to_tensor("geomspace", "start", start, mstype.float32)
    hi = to_tensor("geomspace", "stop", stop, mstype.float32)
    exponents = linspace(F.log(lo), F.log(hi), num, endpoint, False, mstype.float32, axis)
    return cast_to(F.exp(exponents), check_dtype("geomspace", dtype) or mstype.float32)


def _host_matrix(op: str, values: np.ndarray, dtype: Any, default: mstype.Type) -> Tensor:
    return Tensor(values.astype((check_dtype(op, dtype) or default).np_dtype))


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:  # noqa: N803
    """A 2-D tensor with ones on the k-th diagonal (Float32 unless ``dtype``)."""
    check_int("eye", "N", N, 0)
    M = N if M is None else check_int("eye", "M", M, 0)  # noqa: N806
    return _host_matrix("eye", np.eye(N, M, check_int("eye", "k", k)), dtype, mstype.float32)


def identity(n: int, dtype: Any = mstype.float32) -> Tensor:
    """The ``n`` x ``n`` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = mstype.float32) -> Tensor:  # noqa: N803
    """Ones at and below the k-th diagonal, zeros elsewhere."""
    check_int("tri", "N", N, 0)
    M = N if M is None else check_int("tri", "M", M, 0)  # noqa: N806
    return _host_matrix("tri", np.tri(N, M, check_int("tri", "k", k)), dtype, mstype.float32)


def _triangle(op: str, m: Any, k: int, lower: bool) -> Tensor:
    m = to_tensor(op, "m", m)
    check_int(op, "k", k)
    if m.ndim < 1:
        raise ValueError(f"{op}: m must have rank >= 1, but got a scalar")
    if m.ndim == 1:
        m = F.broadcast_to(m, (m.shape[0], m.shape[0]))
    n, cols = m.shape[-2:]
    keep = np.tri(n, cols, k, dtype=bool) if lower else ~np.tri(n, cols, k - 1, dtype=bool)
    keep = Tensor(np.broadcast_to(keep, m.shape).copy())
    return F.select(keep, m, F.zeros_like(m))


def tril(m: Any, k: int = 0) -> Tensor:
    """``m`` with the elements above the k-th diagonal zeroed."""
    return _triangle("tril", m, k, True)


def triu(m: Any, k: int = 0) -> Tensor:
    """``m`` with the elements below the k-th diagonal zeroed."""
    return _triangle("triu", m, k, False)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The diagonal of the (axis1, axis2) planes, on a new last axis."""
    a = to_tensor("diagonal", "a", a)
    if a.ndim < 2:
        raise ValueError(f"diagonal: a must have rank >= 2, but got rank {a.ndim}")
    return a.diagonal(check_int("diagonal", "offset", offset), axis1, axis2)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """Sum along the diagonal of the (axis1, axis2) planes."""
    out = F.reduce_sum(diagonal(a, offset, axis1, axis2), -1)
    return cast_to(out, check_dtype("trace", dtype))


def diag(v: Any, k: int = 0) -> Tensor:
    """The k-th diagonal of a 2-D ``v``, or a 2-D tensor with the 1-D ``v`` on it."""
    v = to_tensor("diag", "v", v)
    k = check_int("diag", "k", k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError(f"diag: v must be 1-D or 2-D, but got rank {v.ndim}")
    n = v.shape[0] + abs(k)
    rows = np.arange(v.shape[0]) + max(-k, 0)
    cols = np.arange(v.shape[0]) + max(k, 0)
    index = Tensor(np.stack([rows, cols], -1).astype(np.int32))
    return F.scatter_nd(index, v, (n, n))


def diagflat(v: Any, k: int = 0) -> Tensor:
    """A 2-D tensor with the flattened ``v`` on the k-th diagonal."""
    return diag(F.reshape(to_tensor("diagflat", "v", v), (-1,)), k)


def diag_indices(n: int, ndim: int = 2) -> tuple[Tensor, ...]:
    """Indices of the main diagonal of an ``n`` x ... x ``n`` array."""
    return tuple(Tensor(i.astype(np.int32)) for i in np.diag_indices(
        check_int("diag_indices", "n", n, 0), check_int("diag_indices", "ndim", ndim, 1)))


def _index_pair(op: str, pair: tuple[np.ndarray, np.ndarray]) -> tuple[Tensor, Tensor]:
    return Tensor(pair[0].astype(np.int32)), Tensor(pair[1].astype(np.int32))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """Row and column indices of the upper triangle of an (n, m) array."""
    return _index_pair("triu_indices", np.triu_indices(check_int("triu_indices", "n", n, 0),
                                                       check_int("triu_indices", "k", k), m))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Tensor, Tensor]:
    """Row and column indices of the lower triangle of an (n, m) array."""
    return _index_pair("tril_indices", np.tril_indices(check_int("tril_indices", "n", n, 0),
                                                       check_int("tril_indices", "k", k), m))


def triu_indices_from(arr: Tensor, k: int = 0) -> tuple[Tensor, Tensor]:
    """``triu_indices`` for the shape of the 2-D ``arr``."""
    arr = to_tensor("triu_indices_from", "arr", arr)
    if arr.ndim != 2:
        raise ValueError(f"triu_indices_from: arr must be 2-D, but got rank {arr.ndim}")
    return triu_indices(arr.shape[0], k, arr.shape[1])


def tril_indices_from(arr: Tensor, k: int = 0) -> tuple[Tensor, Tensor]:
    """``tril_indices`` for the shape of the 2-D ``arr``."""
    arr = to_tensor("tril_indices_from", "arr", arr)
    if arr.ndim != 2:
        raise ValueError(f"tril_indices_from: arr must be 2-D, but got rank {arr.ndim}")
    return tril_indices(arr.shape[0], k, arr.shape[1])


def indices(dimensions: Any, dtype: Any = mstype.int32, sparse: bool = False) -> Any:
    """A grid of indices over ``dimensions``: one stacked tensor, or a tuple when sparse."""
    grids = np.indices(shape_of("indices", dimensions), sparse=sparse)
    dtype = check_dtype("indices", dtype) or mstype.int32
    if sparse:
        return tuple(Tensor(g.astype(dtype.np_dtype)) for g in grids)
    return Tensor(grids.astype(dtype.np_dtype))


def meshgrid(*xi: Any, sparse: bool = False, indexing: str = "xy") -> tuple[Tensor, ...]:
    """Coordinate tensors from 1-D coordinate vectors (``indexing`` 'xy' or 'ij')."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', but got {indexing!r}")
    vectors = [F.reshape(to_tensor("meshgrid", "xi", x), (-1,)) for x in xi]
    n = len(vectors)
    shape = [v.shape[0] for v in vectors]
    if indexing == "xy" and n > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, v in enumerate(vectors):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and n > 1 else i
        view = F.reshape(v, tuple(-1 if a == axis else 1 for a in range(n)))
        out.append(view if sparse else F.broadcast_to(view, tuple(shape)))
    return tuple(out)


class _Grid:
    """``mgrid[...]`` / ``ogrid[...]``: dense or open grids from slices (MindSpore 1.6)."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, keys: Any) -> Any:
        keys = keys if isinstance(keys, tuple) else (keys,)
        for key in keys:
            if not isinstance(key, slice):
                raise TypeError(f"{'ogrid' if self.sparse else 'mgrid'}: index with slices "
                                f"such as [0:5, 0:3], but got {key!r}")
        grid = (np.ogrid if self.sparse else np.mgrid)[keys if len(keys) > 1 else keys[0]]
        if isinstance(grid, tuple | list):
            return [Tensor(narrow(np.asarray(g))) for g in grid]
        return Tensor(narrow(grid))


mgrid = _Grid(False)
ogrid = _Grid(True)


def ix_(*args: Any) -> tuple[Tensor, ...]:
    """Open-mesh index tensors from 1-D integer or boolean sequences."""
    out = []
    for i, arg in enumerate(args):
        t = to_tensor("ix_", "args", arg)
        if t.ndim != 1:
            raise ValueError(f"ix_: each argument must be 1-D, but argument {i} has rank {t.ndim}")
        out.append(F.reshape(t, tuple(-1 if a == i else 1 for a in range(len(args)))))
    return tuple(out)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of the 1-D ``x``: columns are powers of ``x``."""
    x = to_tensor("vander", "x", x)
    if x.ndim != 1:
        raise ValueError(f"vander: x must be 1-D, but got rank {x.ndim}")
    n = x.shape[0] if N is None else check_int("vander", "N", N, 0)
    powers = np.arange(n) if increasing else np.arange(n)[::-1].copy()
    return F.pow(F.expand_dims(x, 1), Tensor(powers.astype(x.dtype.np_dtype)))


def _window(op: str, fn: Any) -> Any:
    def window(M: int) -> Tensor:  # noqa: N803
        return Tensor(fn(check_int(op, "M", M)).astype(np.float32))

    return named(window, op, f"The {op} window of ``M`` points (Float32).")


hamming = _window("hamming", np.hamming)
hanning = _window("hanning", np.hanning)
bartlett = _window("bartlett", np.bartlett)
blackman = _window("blackman", np.blackman)


def bin_edges(op: str, a: Tensor, bins: Any, range: Any) -> Tensor:  # noqa: A002
    """The bin edges of ``op`` (``histogram_bin_edges`` and the histograms): ``bins`` itself
    when a 1-D sequence, else ``bins + 1`` Float32 edges over ``range`` (the min and max of
    ``a`` if None), an empty range widened by 0.5 on each side as NumPy does."""
    if not isinstance(bins, int | np.integer):
        edges = to_tensor(op, "bins", bins)
        if edges.ndim != 1 or edges.shape[0] < 1:
            raise ValueError(f"{op}: bins must be an int or a 1-D sequence of edges, but got "
                             f"shape {edges.shape}")
        if not isinstance(bins, Tensor) and (np.diff(host_array(op, "bins", bins)) < 0).any():
            raise ValueError(f"{op}: bins must increase monotonically, but got {bins!r}")
        return edges
    n = check_int(op, "bins", bins, 1)
    if range is None:
        flat = F.cast(F.reshape(a, (-1,)), mstype.float32)
        lo, hi = F.reduce_min(flat), F.reduce_max(flat)
        empty = F.equal(lo, hi)
        lo, hi = F.select(empty, F.sub(lo, 0.5), lo), F.select(empty, F.add(hi, 0.5), hi)
        return linspace(lo, hi, n + 1)
    try:
        lo, hi = (float(v) for v in range)
    except (TypeError, ValueError):
        raise TypeError(f"{op}: range must be a pair of numbers (lower, upper), but got "
                        f"{range!r}") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo <= hi):
        raise ValueError(f"{op}: range must be finite with lower <= upper, but got {range!r}")
    return linspace(lo - 0.5, hi + 0.5, n + 1) if lo == hi else linspace(lo, hi, n + 1)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None,  # noqa: A002
                        weights: Any = None) -> Tensor:
    """Edges of ``bins`` equal-width bins over ``range`` (the min and max of ``a`` if None),
    or ``bins`` itself when a 1-D sequence of edges."""
    a = to_tensor("histogram_bin_edges", "a", a)
    if weights is not None:
        shape = to_tensor("histogram_bin_edges", "weights", weights).shape
        if shape != a.shape:
            raise ValueError(f"histogram_bin_edges: weights must have the shape of a, {a.shape}, "
                             f"but got {shape}")
    return bin_edges("histogram_bin_edges", a, bins, range)


def _block(x: Tensor, axis: int, n: int, value: Any) -> Tensor:
    """A constant block shaped like ``x`` but ``n`` long along ``axis``."""
    return F.fill(x.dtype, x.shape[:axis] + (int(n),) + x.shape[axis + 1:], value)


def pad(arr: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Tensor:
    """``arr`` padded by ``pad_width`` ((before, after) per axis, or one pair/int for all);
    modes 'constant', 'edge', 'reflect', 'symmetric' and 'wrap'."""
    arr = to_tensor("pad", "arr", arr)
    widths = np.broadcast_to(np.asarray(pad_width, np.int64), (arr.ndim, 2))
    if (widths < 0).any():
        raise ValueError(f"pad: pad_width must be non-negative, but got {pad_width!r}")
    if mode == "constant":
        out = arr
        for axis, (before, after) in enumerate(widths):
            parts = [_block(out, axis, before, constant_values), out,
                     _block(out, axis, after, constant_values)]
            out = F.concat(tuple(p for p in parts if p.shape[axis]), axis)
        return out
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        raise ValueError(f"pad: mode must be 'constant', 'edge', 'reflect', 'symmetric' or "
                         f"'wrap', but got {mode!r}")
    positions = np.pad(np.arange(arr.size).reshape(arr.shape), widths, mode=mode)
    return F.reshape(F.gather(F.reshape(arr, (-1,)), Tensor(positions.reshape(-1)), 0),
                     positions.shape)


__all__ = ["array", "asarray", "asfarray", "ones", "zeros", "full", "arange", "linspace",
           "logspace", "eye", "identity", "empty", "empty_like", "ones_like", "zeros_like",
           "full_like", "diagonal", "tril", "triu", "tri", "trace", "meshgrid", "mgrid",
           "ogrid", "diagflat", "diag", "diag_indices", "ix_", "indices", "geomspace",
           "vander", "hamming", "hanning", "bartlett", "blackman", "triu_indices",
           "tril_indices", "triu_indices_from", "tril_indices_from", "histogram_bin_edges",
           "pad"]
