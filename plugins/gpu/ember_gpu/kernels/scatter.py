"""Scatter kernels on TensorFlow. A Parameter is a ``tf.Variable`` here, so the in-place
scatters are TensorFlow's resource scatter ops on its handle (eager, or part of a compiled
step); each returns its variable, as the CPU kernels return their updated arrays.

TensorFlow's eager scatters stop half way at an index out of range, so PyNative calls check the
indices first; in a compiled step XLA's scatter skips such an index."""

from __future__ import annotations

import numpy as np

from ember_gpu.device import import_tensorflow
from ember_gpu.kernels.array import _ints, _strided, nd_updates, tensor_scatter

tf = import_tensorflow()
raw = tf.raw_ops


def _check_bounds(shape, indices):
    """Eagerly, raise before an update writes anything when an index row is outside
    ``shape`` (the first ``indices.shape[-1]`` dimensions of the variable)."""
    if not tf.executing_eagerly():
        return
    rows = indices.numpy().reshape(-1, indices.shape[-1])
    sizes = np.array(shape[:indices.shape[-1]])
    bad = (rows < 0) | (rows >= sizes)
    if bad.any():
        raise IndexError(f"index {rows[bad.any(axis=1)][0].tolist()} is out of range for the "
                         f"variable of shape {list(shape)}; the variable is unchanged")


def _scatter(op):
    def kernel(variable, indices, updates):
        _check_bounds(variable.shape, indices[..., None])
        op(resource=variable.handle, indices=indices, updates=updates)
        return variable

    return lambda prim: kernel


def _scatter_nd_in_place(op):
    def kernel(variable, indices, updates):
        _check_bounds(variable.shape, indices)
        indices, updates = nd_updates(variable, indices, updates)
        op(ref=variable.handle, indices=indices, updates=updates)
        return variable

    return lambda prim: kernel


def _scatter_nd(indices, updates, shape):
    if indices.shape.rank == 1:
        indices = raw.ExpandDims(input=indices, axis=0)
        updates = raw.ExpandDims(input=updates, axis=0)
    return raw.ScatterNd(indices=indices, updates=updates,
                         shape=tf.cast(_ints(shape), indices.dtype))


def _update_cache(variable, indices, updates, max_num):
    # Each row takes the last update addressed to it (as the CPU kernel's sequential writes),
    # found with a segment max over update positions: static shapes, which XLA compiles.
    rows = variable.shape[0]
    flat = tf.reshape(indices, [-1])
    keep = (flat >= 0) & (flat < min(max_num, rows))
    last = tf.math.unsorted_segment_max(tf.range(tf.size(flat)), tf.where(keep, flat, -1), rows)
    picked = tf.gather(tf.reshape(updates, [-1, *variable.shape[1:]]), tf.maximum(last, 0))
    written = tf.reshape(last >= 0, [rows] + [1] * (variable.shape.rank - 1))
    variable.assign(tf.where(written, picked, variable), read_value=False)
    return tf.zeros([1], variable.dtype)


def _tensor_copy_slices(prim):
    args = _strided(prim)

    def kernel(x, value, begin, end, strides):
        shape = prim.index(tuple(x.shape), begin, end, strides)[1]
        return raw.TensorStridedSliceUpdate(input=x, value=tf.reshape(value, shape),
                                            **args(x.shape, begin, end, strides))

    return kernel


def _scatter_elements(prim):
    def kernel(data, indices, updates):
        # each element's coordinates, its index in place of the one along axis
        axis = prim.axis % data.shape.rank
        grid = tf.meshgrid(*(tf.range(n, dtype=indices.dtype) for n in indices.shape),
                           indexing="ij")
        grid[axis] = indices
        return raw.TensorScatterUpdate(tensor=data, indices=tf.stack(grid, -1), updates=updates)

    return kernel


KERNELS = {
    "ScatterAdd": _scatter(raw.ResourceScatterAdd),
    "ScatterSub": _scatter(raw.ResourceScatterSub),
    "ScatterMul": _scatter(raw.ResourceScatterMul),
    "ScatterDiv": _scatter(raw.ResourceScatterDiv),
    "ScatterMax": _scatter(raw.ResourceScatterMax),
    "ScatterMin": _scatter(raw.ResourceScatterMin),
    "ScatterUpdate": _scatter(raw.ResourceScatterUpdate),
    "ScatterNdAdd": _scatter_nd_in_place(raw.ResourceScatterNdAdd),
    "ScatterNdSub": _scatter_nd_in_place(raw.ResourceScatterNdSub),
    "ScatterNdUpdate": _scatter_nd_in_place(raw.ResourceScatterNdUpdate),
    "ScatterNonAliasingAdd": _scatter_nd_in_place(raw.ResourceScatterNdAdd),
    "ScatterElements": _scatter_elements,
    "ScatterNd": lambda p: _scatter_nd,
    "TensorScatterUpdate": lambda p: tensor_scatter(raw.TensorScatterUpdate),
    "TensorScatterSub": lambda p: tensor_scatter(raw.TensorScatterSub),
    "TensorScatterMax": lambda p: tensor_scatter(raw.TensorScatterMax),
    "TensorScatterMin": lambda p: tensor_scatter(raw.TensorScatterMin),
    "UpdateCache": lambda p: _update_cache,
    "TensorCopySlices": _tensor_copy_slices,
}
