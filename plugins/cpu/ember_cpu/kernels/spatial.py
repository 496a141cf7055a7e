"""Kernels of Pad, MirrorPad, ResizeBilinear and AdaptiveAvgPool2D and their gradients, on
NumPy.

MirrorPad and ResizeBilinear are linear maps applied along each axis on its own: along one
axis, output = M @ input for a small matrix M that the primitive's module gives (a 0/1
selection for MirrorPad, two interpolation weights per row for ResizeBilinear, a window's
mean for AdaptiveAvgPool2D); the gradients
apply the transposes.
"""

from __future__ import annotations

import numpy as np

from ember.ops.operations.spatial_ops import adaptive_matrix, bilinear_matrix, mirror_matrix


def _along(x, matrices, transpose=False):
    """``x`` with ``matrices[i]`` (or its transpose) applied along axis i; None leaves the
    axis as it is."""
    for axis, m in enumerate(matrices):
        if m is not None:
            x = np.moveaxis(np.tensordot(m.T if transpose else m, x, axes=(1, axis)), 0, axis)
    return x


def _wide(x):
    return np.promote_types(x.dtype, np.float32)


def _mirror_pad_grad(prim):
    def kernel(dy, paddings):
        ms = [mirror_matrix(n - a - b, a, b, prim.mode) if a or b else None
              for n, (a, b) in zip(dy.shape, paddings)]
        return _along(dy, [None if m is None else m.astype(dy.dtype) for m in ms],
                      transpose=True)

    return kernel


def _bilinear(align_corners, image_hw, out_hw, dtype):
    return [None, None, *(bilinear_matrix(i, o, align_corners).astype(dtype)
                          for i, o in zip(image_hw, out_hw))]


def _resize_bilinear(prim):
    def kernel(x):
        ms = _bilinear(prim.align_corners, x.shape[2:], prim.size, _wide(x))
        return _along(x.astype(_wide(x), copy=False), ms).astype(x.dtype, copy=False)

    return kernel


def _resize_bilinear_grad(prim):
    def kernel(grads, image):
        ms = _bilinear(prim.align_corners, image.shape[2:], grads.shape[2:], _wide(grads))
        dx = _along(grads.astype(_wide(grads), copy=False), ms, transpose=True)
        return dx.astype(image.dtype, copy=False)

    return kernel


def _adaptive(x, in_hw, out_hw, transpose=False):
    """AdaptiveAvgPool2D of ``x`` from ``in_hw`` to ``out_hw`` (or its gradient)."""
    lead = [None] * (x.ndim - 2)
    ms = [*lead, *(adaptive_matrix(i, o).astype(_wide(x)) for i, o in zip(in_hw, out_hw))]
    return _along(x.astype(_wide(x), copy=False), ms, transpose).astype(x.dtype, copy=False)


def _adaptive_avg_pool(prim):
    def kernel(x):
        out_hw = [n if s is None else s for s, n in zip(prim.output_size, x.shape[-2:])]
        return _adaptive(x, x.shape[-2:], out_hw)

    return kernel


def _roi_regions(prim, rois, shape):
    """(region, image, rows, columns, A_y, A_x) of each region that samples its image: the
    window of rows and columns its samples touch, and its sampling matrices cut to it. Working
    region by region in its window keeps memory at one image, whatever the number of regions."""
    n, _, h, w = shape
    rois = rois.astype(np.float64)
    batch = prim.batch_indices(np, rois).astype(np.int64)
    if batch.size and (batch.min() < 0 or batch.max() >= n):
        raise ValueError(f"{prim.name}: the batch indices of rois must be in [0, {n}), but "
                         f"they range over [{batch.min()}, {batch.max()}]")
    ay, ax = prim.sampling_matrices(np, rois, h, w)
    (y0, y1), (x0, x1) = _window(ay), _window(ax)
    for r in np.flatnonzero((y1 > y0) & (x1 > x0)):
        rows, cols = slice(y0[r], y1[r]), slice(x0[r], x1[r])
        yield r, batch[r], rows, cols, ay[r, :, rows], ax[r, :, cols]


def _window(matrices):
    """[start, stop) of the nonzero columns of each (pooled, length) matrix; empty if none."""
    used = matrices.any(axis=1)
    start = used.argmax(axis=1)
    stop = np.where(used.any(axis=1), used.shape[1] - used[:, ::-1].argmax(axis=1), start)
    return start, stop


def _roi_align(prim):
    def kernel(features, rois):
        dt = _wide(features)
        out = np.zeros((len(rois), features.shape[1], prim.pooled_height, prim.pooled_width),
                       dt)
        for r, b, rows, cols, ay, ax in _roi_regions(prim, rois, features.shape):
            by_cols = np.tensordot(features[b][:, rows, cols], ax.astype(dt), (2, 1))
            out[r] = np.tensordot(ay.astype(dt), by_cols, (1, 1)).transpose(1, 0, 2)
        return out.astype(features.dtype, copy=False)

    return kernel


def _roi_align_grad(prim):
    def kernel(ydiff, rois):
        dt = _wide(ydiff)
        dx = np.zeros(prim.xdiff_shape, dt)
        for r, b, rows, cols, ay, ax in _roi_regions(prim, rois, prim.xdiff_shape):
            by_cols = np.tensordot(ydiff[r], ax.astype(dt), (2, 0))
            dx[b][:, rows, cols] += np.tensordot(ay.astype(dt), by_cols, (0, 1)).transpose(1, 0, 2)
        return dx.astype(ydiff.dtype, copy=False)

    return kernel


KERNELS = {
    "Pad": lambda prim: lambda x: np.pad(x, prim.paddings),
    "MirrorPad": lambda prim: lambda x, paddings: np.pad(x, paddings, mode=prim.mode.lower()),
    "MirrorPadGrad": _mirror_pad_grad,
    "ResizeBilinear": _resize_bilinear,
    "ResizeBilinearGrad": _resize_bilinear_grad,
    "ROIAlign": _roi_align,
    "ROIAlignGrad": _roi_align_grad,
    "AdaptiveAvgPool2D": _adaptive_avg_pool,
    "AdaptiveAvgPool2DGrad": lambda prim: lambda x, grad: _adaptive(
        grad, x.shape[-2:], grad.shape[-2:], transpose=True),
}
