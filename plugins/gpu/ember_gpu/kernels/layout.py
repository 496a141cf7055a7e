"""More layout kernels on TensorFlow: reversing, sorting, space/depth/batch blocks, unstacking,
grids, diagonals, masked filling and padding. TensorFlow's block ops take NHWC on its CPU
device, so the NCHW primitives transpose around them."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow
from ember_gpu.kernels.array import _ints

tf = import_tensorflow()
raw = tf.raw_ops

_TO_NHWC, _TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)


def _nhwc(fn):
    """``fn`` of an NHWC tensor, applied to an NCHW one (bools as uint8, which TensorFlow's
    CPU block ops take)."""

    def kernel(x):
        dtype = x.dtype
        if dtype == tf.bool:
            x = tf.cast(x, tf.uint8)
        out = tf.transpose(fn(tf.transpose(x, _TO_NHWC)), _TO_NCHW)
        return tf.cast(out, tf.bool) if dtype == tf.bool else out

    return kernel


def _reverse_sequence(prim):
    seq_dim, batch_dim = prim.seq_dim, prim.batch_dim
    return lambda x, lengths: raw.ReverseSequence(input=x, seq_lengths=lengths, seq_dim=seq_dim,
                                                  batch_dim=batch_dim)


def _sort(prim):
    axis = prim.axis
    direction = "DESCENDING" if prim.descending else "ASCENDING"

    def kernel(x):
        last = x.shape.rank - 1
        perm = list(range(x.shape.rank))
        perm[axis], perm[last] = perm[last], perm[axis]  # sort along the last dimension
        moved = tf.transpose(x, perm)
        order = tf.argsort(moved, axis=-1, direction=direction, stable=True)
        values = tf.gather(moved, order, axis=last, batch_dims=last)
        return tf.transpose(values, perm), tf.transpose(tf.cast(order, tf.int32), perm)

    return kernel


def _space_to_batch(prim):
    block, pads = _ints(prim.block_shape), _ints(sum(prim.paddings, ()))
    pads = tf.reshape(pads, (2, 2))
    return _nhwc(lambda x: raw.SpaceToBatchND(input=x, block_shape=block, paddings=pads))


def _batch_to_space(prim):
    block, crops = _ints(prim.block_shape), tf.reshape(_ints(sum(prim.crops, ())), (2, 2))
    return _nhwc(lambda x: raw.BatchToSpaceND(input=x, block_shape=block, crops=crops))


def _unstack(prim):
    axis = prim.axis
    return lambda x: tuple(tf.unstack(x, axis=axis))


def _diag(x):
    flat = tf.reshape(x, [-1])
    return tf.reshape(tf.linalg.diag(flat), tuple(x.shape) * 2)


def _diag_part(x):
    half = tuple(x.shape[:x.shape.rank // 2])
    size = int(tf.TensorShape(half).num_elements())
    return tf.reshape(tf.linalg.diag_part(tf.reshape(x, (size, size))), half)


def _masked_fill(x, mask, value):
    shape = tf.broadcast_static_shape(x.shape, mask.shape)
    return tf.where(tf.broadcast_to(mask, shape), tf.broadcast_to(value, shape),
                    tf.broadcast_to(x, shape))


def _padding(prim):
    extra = prim.pad_dim_size - 1

    def kernel(x):
        return tf.pad(x, [(0, 0)] * (x.shape.rank - 1) + [(0, extra)])

    return kernel


def _split_v(prim):
    def kernel(x):
        dim = prim.split_dim % x.ndim
        return tuple(tf.split(x, prim.sizes(x.shape[dim]), axis=dim))

    return kernel


KERNELS = {
    "ReverseV2": lambda p: lambda x: tf.reverse(x, _ints(p.axis)),
    "ReverseSequence": _reverse_sequence,
    "Sort": _sort,
    "SpaceToDepth": lambda p: _nhwc(lambda x: tf.nn.space_to_depth(x, p.block_size)),
    "DepthToSpace": lambda p: _nhwc(lambda x: tf.nn.depth_to_space(x, p.block_size)),
    "SpaceToBatchND": _space_to_batch,
    "BatchToSpaceND": _batch_to_space,
    "SpaceToBatch": _space_to_batch,
    "BatchToSpace": _batch_to_space,
    "SplitV": _split_v,
    "Unstack": _unstack,
    "Unpack": _unstack,
    "Meshgrid": lambda p: lambda *xs: tuple(tf.meshgrid(*xs, indexing=p.indexing)),
    "Eye": lambda p: lambda n, m, t: tf.eye(n, m, dtype=t.np_dtype),
    "Diag": lambda p: _diag,
    "DiagPart": lambda p: _diag_part,
    "MaskedFill": lambda p: _masked_fill,
    "Padding": _padding,
}
