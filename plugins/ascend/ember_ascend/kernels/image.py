"""Image primitives: nearest-neighbour resizing as gathers along H and W (aclnnGatherV2, its
gradient aclnnIndexAdd) at source positions fixed by the shapes, and bounding-box primitives
(IOU, BoundingBoxEncode, BoundingBoxDecode, CheckValid) composed of elementwise aclnn
operators over strided views of the boxes' columns; boxes are (x1, y1, x2, y2) with
pixel-inclusive sizes (x2 - x1 + 1), as MindSpore's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.ops.operations.image_ops import nearest_sources
from ember_ascend.device import AscendDevice, DeviceArray, Scalar, TensorList, View
from ember_ascend.kernels.common import Arithmetic, cast


def _resize_nearest(prim: Any, dev: AscendDevice) -> Any:
    (height, width), align = prim.size, prim.align_corners

    def kernel(x: DeviceArray) -> DeviceArray:
        for axis, size in ((2, height), (3, width)):
            shape = tuple(size if i == axis else d for i, d in enumerate(x.shape))
            out = dev.empty(shape, x.dtype)
            if out.size:
                sources = nearest_sources(x.shape[axis], size, align)
                dev.aclnn("GatherV2", x, axis, dev.constant(sources, np.int64), out)
            x = out
        return x

    return kernel


def _resize_nearest_grad(prim: Any, dev: AscendDevice) -> Any:
    """Each gradient added at its source position, along W then H (aclnnIndexAdd)."""
    align = prim.align_corners

    def kernel(grads: DeviceArray, size: tuple[int, int]) -> DeviceArray:
        for axis in (3, 2):
            n = size[axis - 2]
            out = dev.zero(dev.empty(tuple(n if i == axis else d
                                           for i, d in enumerate(grads.shape)), grads.dtype))
            if grads.size:
                sources = nearest_sources(n, grads.shape[axis], align)
                dev.aclnn("IndexAdd", out, axis, dev.constant(sources, np.int64), grads,
                          Scalar(1, grads.dtype), out)
            grads = out
        return grads

    return kernel


def _column(boxes: DeviceArray, i: int, shape: tuple[int, ...] | None = None,
            strides: tuple[int, ...] | None = None) -> View:
    """Column ``i`` of (N, k) ``boxes``: (N,), or the given broadcast shape and strides."""
    row = boxes.shape[1]
    return View(boxes, shape or (boxes.shape[0],), strides or (row,), i)


def _wide(x: DeviceArray) -> np.dtype:
    """float16 boxes are computed in float32."""
    return np.dtype(np.float32) if x.dtype == np.float16 else x.dtype


def _iou(prim: Any, dev: AscendDevice) -> Any:
    """(M, N) overlaps of ground truths and anchors over their union ('iou') or over the
    ground truth's area ('iof')."""
    iof = prim.mode == "iof"

    def kernel(anchors: DeviceArray, gts: DeviceArray) -> DeviceArray:
        a, n, m = Arithmetic(dev, anchors.dtype), anchors.shape[0], gts.shape[0]

        def anchor(i: int) -> View:
            return _column(anchors, i, (1, n), (0, anchors.shape[1]))

        def gt(i: int) -> View:
            return _column(gts, i, (m, 1), (gts.shape[1], 0))

        def extent(lo: int, hi: int) -> DeviceArray:
            inner = a.sub(a.op("Minimum", anchor(hi), gt(hi)),
                          a.op("Maximum", anchor(lo), gt(lo)))
            return a.op("Maximum", a.add(inner, 1), 0)

        def area(box: Any) -> DeviceArray:
            return a.mul(a.add(a.sub(box(2), box(0)), 1), a.add(a.sub(box(3), box(1)), 1))

        overlap = a.mul(extent(0, 2), extent(1, 3))
        union = area(gt) if iof else a.sub(a.add(area(anchor), area(gt)), overlap)
        return a.div(overlap, a.add(union, 1e-10))

    return kernel


def _centers(a: Arithmetic, boxes: DeviceArray) -> tuple[DeviceArray, ...]:
    """Centres and sizes (x, y, w, h) of (N, 4) boxes."""
    col = [_column(boxes, i) for i in range(4)]
    return (a.mul(a.add(col[0], col[2]), 0.5), a.mul(a.add(col[1], col[3]), 0.5),
            a.add(a.sub(col[2], col[0]), 1), a.add(a.sub(col[3], col[1]), 1))


def _stacked(dev: AscendDevice, columns: list[DeviceArray], dtype: Any) -> DeviceArray:
    """(N, 4) of four (N,) columns (aclnnStack), in ``dtype``."""
    out = dev.empty((columns[0].shape[0], len(columns)), columns[0].dtype)
    if out.size:
        dev.aclnn("Stack", TensorList(tuple(columns)), 1, out)
    return cast(dev, out, dtype)


def _encode(prim: Any, dev: AscendDevice) -> Any:
    """((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph)), less means, over stds."""
    means, stds = prim.means, prim.stds

    def kernel(anchors: DeviceArray, gts: DeviceArray) -> DeviceArray:
        dtype = _wide(anchors)
        a = Arithmetic(dev, dtype)
        px, py, pw, ph = _centers(a, cast(dev, anchors, dtype))
        gx, gy, gw, gh = _centers(a, cast(dev, gts, dtype))
        deltas = [a.div(a.sub(gx, px), pw), a.div(a.sub(gy, py), ph),
                  a.op("Log", a.div(gw, pw)), a.op("Log", a.div(gh, ph))]
        return _stacked(dev, [a.div(a.sub(d, mean), std)
                              for d, mean, std in zip(deltas, means, stds)], anchors.dtype)

    return kernel


def _decode(prim: Any, dev: AscendDevice) -> Any:
    """Boxes from anchors and deltas (times stds, plus means; the size deltas clipped to
    |log(wh_ratio_clip)|), clipped to max_shape."""
    means, stds = prim.means, prim.stds
    limit = abs(float(np.log(prim.wh_ratio_clip)))
    height, width = prim.max_shape

    def kernel(anchors: DeviceArray, deltas: DeviceArray) -> DeviceArray:
        dtype = _wide(anchors)
        a = Arithmetic(dev, dtype)
        wide = cast(dev, deltas, dtype)

        def clip(x: DeviceArray, low: float, high: float) -> DeviceArray:
            return a.op("Minimum", a.op("Maximum", x, low), high)

        d = [a.add(a.mul(_column(wide, i), std), mean) for i, (mean, std) in
             enumerate(zip(means, stds))]
        px, py, pw, ph = _centers(a, cast(dev, anchors, dtype))
        gx, gy = a.add(px, a.mul(pw, d[0])), a.add(py, a.mul(ph, d[1]))
        gw = a.mul(pw, a.op("Exp", clip(d[2], -limit, limit)))
        gh = a.mul(ph, a.op("Exp", clip(d[3], -limit, limit)))
        half_w, half_h = a.mul(gw, 0.5), a.mul(gh, 0.5)
        return _stacked(dev, [clip(a.add(a.sub(gx, half_w), 0.5), 0, width),
                              clip(a.add(a.sub(gy, half_h), 0.5), 0, height),
                              clip(a.sub(a.add(gx, half_w), 0.5), 0, width),
                              clip(a.sub(a.add(gy, half_h), 0.5), 0, height)], anchors.dtype)

    return kernel


def _check_valid(prim: Any, dev: AscendDevice) -> Any:
    """x1 >= 0, y1 >= 0, x2 <= width * ratio - 1 and y2 <= height * ratio - 1, of img_metas
    (height, width, ratio)."""
    def kernel(boxes: DeviceArray, metas: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, boxes.dtype)
        height, width, ratio = (View(metas, (), (), i) for i in range(3))

        def bound(size: View) -> DeviceArray:  # size * ratio - 1, unsigned-safe (alpha 1)
            return a.op("Sub", a.mul(size, ratio), 1, Scalar(1, boxes.dtype))

        col = [_column(boxes, i) for i in range(4)]
        tests = [a.compare("GeTensor", col[0], 0), a.compare("GeTensor", col[1], 0),
                 a.compare("LeTensor", col[2], bound(width)),
                 a.compare("LeTensor", col[3], bound(height))]
        valid = tests[0]
        for test in tests[1:]:
            valid = a.op("LogicalAnd", valid, test, out_dtype=np.bool_)
        return valid

    return kernel


KERNELS = {
    "ResizeNearestNeighbor": _resize_nearest,
    "ResizeNearestNeighborGrad": _resize_nearest_grad,
    "IOU": _iou,
    "BoundingBoxEncode": _encode,
    "BoundingBoxDecode": _decode,
    "CheckValid": _check_valid,
}
