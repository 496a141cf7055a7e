"""Gathers by index and segment reductions on TensorFlow."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow
from ember_gpu.kernels.array import _const, _gather

tf = import_tensorflow()
raw = tf.raw_ops


def _coords(index, dim):
    """GatherD's index as GatherNd's: each element's own position, with ``index`` along
    ``dim``, stacked on a new last axis."""
    grid = tf.meshgrid(*(tf.range(n, dtype=index.dtype) for n in index.shape), indexing="ij")
    grid[dim] = index
    return tf.stack(grid, axis=-1)


def _gather_d(x, dim, index):
    return raw.GatherNd(params=x, indices=_coords(index, dim % x.shape.rank))


def _gather_d_grad(prim):
    def kernel(index, grad):
        return raw.ScatterNd(indices=_coords(index, prim.dim), updates=grad,
                             shape=_const(prim.shape, index.dtype))

    return kernel


def _embedding_lookup(params, indices, offset):
    ids = indices - tf.constant(offset, indices.dtype)
    valid = (ids >= 0) & (ids < params.shape[0])
    rows = raw.GatherV2(params=params, indices=tf.where(valid, ids, tf.zeros_like(ids)), axis=0)
    mask = tf.reshape(valid, tuple(valid.shape) + (1,) * (params.shape.rank - 1))
    return tf.where(mask, rows, tf.zeros_like(rows))


def _segment(op):
    """UnsortedSegment<Op>: ids past the last segment are dropped, as negative ones are."""

    def kernel(x, segment_ids, num_segments):
        ids = tf.where(segment_ids >= num_segments, tf.constant(-1, segment_ids.dtype),
                       segment_ids)
        return op(data=x, segment_ids=ids, num_segments=num_segments)

    return lambda prim: kernel


KERNELS = {
    "GatherD": lambda p: _gather_d,
    "GatherDGrad": _gather_d_grad,
    "SparseGatherV2": lambda p: _gather,
    "EmbeddingLookup": lambda p: _embedding_lookup,
    "UnsortedSegmentSum": _segment(raw.UnsortedSegmentSum),
    "UnsortedSegmentProd": _segment(raw.UnsortedSegmentProd),
    "UnsortedSegmentMax": _segment(raw.UnsortedSegmentMax),
    "UnsortedSegmentMin": _segment(raw.UnsortedSegmentMin),
}
