"""Scatter kernels on TensorFlow. A Parameter is a ``tf.Variable`` here, so the in-place
scatters are TensorFlow's resource scatter ops on its handle (eager, or part of a compiled
step); each returns its variable, as the CPU kernels return their updated arrays."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow
from ember_gpu.kernels.array import _ints, nd_updates, tensor_scatter

tf = import_tensorflow()
raw = tf.raw_ops


def _scatter(op):
    def kernel(variable, indices, updates):
        op(resource=variable.handle, indices=indices, updates=updates)
        return variable

    return lambda prim: kernel


def _scatter_nd_in_place(op):
    def kernel(variable, indices, updates):
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
    "ScatterNd": lambda p: _scatter_nd,
    "TensorScatterUpdate": lambda p: tensor_scatter(raw.TensorScatterUpdate),
    "TensorScatterSub": lambda p: tensor_scatter(raw.TensorScatterSub),
    "TensorScatterMax": lambda p: tensor_scatter(raw.TensorScatterMax),
    "TensorScatterMin": lambda p: tensor_scatter(raw.TensorScatterMin),
}
