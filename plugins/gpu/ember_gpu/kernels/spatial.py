"""Kernels of Pad, MirrorPad, ResizeBilinear and AdaptiveAvgPool2D and their gradients, on
TensorFlow.

ResizeBilinear, AdaptiveAvgPool2D and MirrorPadGrad apply, along each axis, the small
matrices of these linear maps that the primitives' module gives (TF's own resize ops
compute float64 in float32).
"""

from __future__ import annotations

from ember.ops.operations.spatial_ops import adaptive_matrix, bilinear_matrix, mirror_matrix
from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
tnp = tf.experimental.numpy
raw = tf.raw_ops


def _along(x, matrices, transpose=False):
    """``x`` with ``matrices[i]`` (NumPy, or its transpose) applied along axis i; None leaves
    the axis as it is."""
    for axis, m in enumerate(matrices):
        if m is not None:
            m = tf.constant(m.T if transpose else m, x.dtype)
            x = tf.experimental.numpy.moveaxis(tf.tensordot(m, x, [[1], [axis]]), 0, axis)
    return x


def _wide(x):
    return tf.cast(x, tf.float64 if x.dtype == tf.float64 else tf.float32)


def _mirror_pad_grad(prim):
    def kernel(dy, paddings):
        ms = [mirror_matrix(n - a - b, a, b, prim.mode) if a or b else None
              for n, (a, b) in zip(dy.shape, paddings)]
        return _along(dy, ms, transpose=True)

    return kernel


def _bilinear(prim, image_hw, out_hw):
    return [None, None, *(bilinear_matrix(i, o, prim.align_corners)
                          for i, o in zip(image_hw, out_hw))]


def _resize_bilinear(prim):
    def kernel(x):
        return tf.cast(_along(_wide(x), _bilinear(prim, x.shape[2:], prim.size)), x.dtype)

    return kernel


def _resize_bilinear_grad(prim):
    def kernel(grads, image):
        ms = _bilinear(prim, image.shape[2:], grads.shape[2:])
        return tf.cast(_along(_wide(grads), ms, transpose=True), image.dtype)

    return kernel


def _adaptive(x, in_hw, out_hw, transpose=False):
    """AdaptiveAvgPool2D of ``x`` from ``in_hw`` to ``out_hw`` (or its gradient)."""
    ms = [None] * (x.shape.rank - 2) + [adaptive_matrix(i, o) for i, o in zip(in_hw, out_hw)]
    return tf.cast(_along(_wide(x), ms, transpose), x.dtype)


def _adaptive_avg_pool(prim):
    def kernel(x):
        out_hw = [n if s is None else s for s, n in zip(prim.output_size, x.shape[-2:])]
        return _adaptive(x, x.shape[-2:], out_hw)

    return kernel


def _roi_samples(prim, rois, shape, dtype):
    """(flat, row weights, column weights) of the regions' samples: ``flat`` (n, rows,
    columns) indexes an (N*H*W, C) view of the images."""
    _, _, h, w = shape
    rois = tf.cast(rois, tf.float64)
    rows, row_weights, cols, col_weights = prim.sample_points(tnp, rois, h, w)
    batch = tf.cast(prim.batch_indices(tnp, rois), tf.int32)[:, None, None]
    rows = tf.reshape(tf.cast(rows, tf.int32), [-1, rows.shape[1] * rows.shape[2], 1])
    cols = tf.reshape(tf.cast(cols, tf.int32), [-1, 1, cols.shape[1] * cols.shape[2]])
    return (batch * h + rows) * w + cols, tf.cast(row_weights, dtype), tf.cast(col_weights, dtype)


def _roi_align(prim):
    def kernel(features, rois):
        x = _wide(features)
        n, c, h, w = features.shape
        flat, wy, wx = _roi_samples(prim, rois, features.shape, x.dtype)
        pixels = tf.reshape(tf.transpose(x, [0, 2, 3, 1]), [n * h * w, c])
        picked = tf.reshape(tf.gather(pixels, flat), [-1, *wy.shape[1:], *wx.shape[1:], c])
        return tf.cast(tf.einsum("rpk,rpkqlc,rql->rcpq", wy, picked, wx), features.dtype)

    return kernel


def _roi_align_grad(prim):
    def kernel(ydiff, rois):
        dy = _wide(ydiff)
        n, c, h, w = prim.xdiff_shape
        flat, wy, wx = _roi_samples(prim, rois, prim.xdiff_shape, dy.dtype)
        parts = tf.einsum("rpk,rcpq,rql->rpkqlc", wy, dy, wx)
        dx = tf.math.unsorted_segment_sum(tf.reshape(parts, [-1, c]), tf.reshape(flat, [-1]),
                                          n * h * w)
        return tf.cast(tf.transpose(tf.reshape(dx, [n, h, w, c]), [0, 3, 1, 2]), ydiff.dtype)

    return kernel


KERNELS = {
    "Pad": lambda prim: lambda x: tf.pad(x, prim.paddings),
    "MirrorPad": lambda prim: lambda x, paddings: raw.MirrorPad(input=x, paddings=paddings,
                                                                mode=prim.mode),
    "MirrorPadGrad": _mirror_pad_grad,
    "ResizeBilinear": _resize_bilinear,
    "ResizeBilinearGrad": _resize_bilinear_grad,
    "ROIAlign": _roi_align,
    "ROIAlignGrad": _roi_align_grad,
    "AdaptiveAvgPool2D": _adaptive_avg_pool,
    "AdaptiveAvgPool2DGrad": lambda prim: lambda x, grad: _adaptive(
        grad, x.shape[-2:], grad.shape[-2:], transpose=True),
}
