"""Layout kernels on NumPy."""

from __future__ import annotations

import numpy as np


def _broadcast_to(prim):
    def kernel(x):
        lead = len(prim.shape) - x.ndim
        shape = [x.shape[i - lead] if n == -1 else n for i, n in enumerate(prim.shape)]
        return np.broadcast_to(x, shape)

    return kernel


def _squeeze(prim):
    axis = prim.axis

    def kernel(x):
        if not axis:
            return np.squeeze(x)
        return np.squeeze(x, axis=tuple({a % x.ndim for a in axis}))

    return kernel


def _slice(prim):
    def kernel(x, begin, size):
        return np.asarray(x[tuple(slice(b, None if s == -1 else b + s)
                                  for b, s in zip(begin, size, strict=True))])

    return kernel


def _strided_slice(prim):
    def kernel(x, begin, end, strides):
        return np.asarray(x[prim.index(x.shape, begin, end, strides)[0]])

    return kernel


def _strided_slice_grad(prim):
    def kernel(dy, shapex, begin, end, strides):
        out = np.zeros(shapex, dy.dtype)
        index, sliced = prim.index(shapex, begin, end, strides)
        out[index] = dy.reshape(sliced)
        return out

    return kernel


def _slice_grad(prim):
    strided = _strided_slice_grad(prim.strided_grad)
    return lambda dy, x, begin, size: strided(dy, *prim.strided(x.shape, begin, size))


def _at(indices):
    """An index array whose last dimension addresses leading dimensions, as NumPy's index."""
    return tuple(np.moveaxis(indices, -1, 0))


def _tensor_scatter_add(prim):
    def kernel(x, indices, updates):
        out = x.copy()
        np.add.at(out, _at(indices), updates)
        return out

    return kernel


def _one_hot(prim):
    def kernel(indices, depth, on_value, off_value):
        axis = indices.ndim if prim.axis == -1 else prim.axis
        positions = np.arange(depth).reshape((depth,) + (1,) * (indices.ndim - axis))
        hot = np.expand_dims(indices, axis) == positions
        return np.where(hot, on_value.reshape(()), off_value.reshape(()))

    return kernel


KERNELS = {
    "Reshape": lambda p: np.reshape,
    "FlattenGrad": lambda p: np.reshape,
    "Transpose": lambda p: np.transpose,
    "ExpandDims": lambda p: np.expand_dims,
    "Squeeze": _squeeze,
    "Identity": lambda p: np.copy,  # a copy: Parameters it reads change in place
    "BroadcastTo": _broadcast_to,
    "Tile": lambda p: np.tile,
    "Concat": lambda p: lambda *xs: np.concatenate(xs, axis=p.axis),
    "Stack": lambda p: lambda *xs: np.stack(xs, axis=p.axis),
    "ParallelConcat": lambda p: lambda *xs: np.concatenate(xs, axis=0),
    "Split": lambda p: lambda x: tuple(np.split(x, p.output_num, axis=p.axis)),
    "Slice": _slice,
    "StridedSlice": _strided_slice,
    "StridedSliceGrad": _strided_slice_grad,
    "SliceGrad": _slice_grad,
    "Gather": lambda p: lambda x, indices, axis: np.asarray(np.take(x, indices, axis=axis)),
    "GatherNd": lambda p: lambda x, indices: np.asarray(x[_at(indices)]),
    "TensorScatterAdd": _tensor_scatter_add,
    "OneHot": _one_hot,
}
