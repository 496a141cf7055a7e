"""Gathers by index and segment reductions on NumPy."""

from __future__ import annotations

import numpy as np


def _coords(index, dim):
    """The full NumPy index of GatherD: each element's own position, with ``index`` along
    ``dim``."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _gather_d(x, dim, index):
    dim %= x.ndim
    return np.asarray(x[_coords(index, dim)])


def _gather_d_grad(prim):
    def kernel(index, grad):
        out = np.zeros(prim.shape, grad.dtype)
        np.add.at(out, _coords(index, prim.dim), grad)
        return out

    return kernel


def _embedding_lookup(params, indices, offset):
    ids = indices - offset
    valid = (ids >= 0) & (ids < params.shape[0])
    out = params[np.where(valid, ids, 0)]
    out[~valid] = 0
    return out


def _extreme(dtype, lowest):
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    return info.min if lowest else info.max


def _segment(ufunc, initial):
    """UnsortedSegment<Op>: ``ufunc.at`` into a tensor filled with ``initial(dtype)``."""

    def kernel(x, segment_ids, num_segments):
        ids = segment_ids.reshape(-1)
        rows = x.reshape((ids.size,) + x.shape[segment_ids.ndim:])
        out = np.full((num_segments,) + rows.shape[1:], initial(x.dtype), x.dtype)
        valid = (ids >= 0) & (ids < num_segments)
        ufunc.at(out, ids[valid], rows[valid])
        return out

    return lambda prim: kernel


KERNELS = {
    "GatherD": lambda p: _gather_d,
    "GatherDGrad": _gather_d_grad,
    "SparseGatherV2": lambda p: lambda x, indices, axis: np.asarray(np.take(x, indices, axis)),
    "EmbeddingLookup": lambda p: _embedding_lookup,
    "UnsortedSegmentSum": _segment(np.add, lambda dt: 0),
    "UnsortedSegmentProd": _segment(np.multiply, lambda dt: 1),
    "UnsortedSegmentMax": _segment(np.maximum, lambda dt: _extreme(dt, lowest=True)),
    "UnsortedSegmentMin": _segment(np.minimum, lambda dt: _extreme(dt, lowest=False)),
}
