"""Image and bounding-box kernels on TensorFlow, built from gathers and scatters that XLA
compiles (TensorFlow's CropAndResize and ResizeNearestNeighborGrad have no XLA kernel)."""

from __future__ import annotations

import math

import numpy as np

from ember.ops.operations.image_ops import nearest_sources
from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops


def _resize_nearest(prim):
    (h, w), align = prim.size, prim.align_corners

    def kernel(x):
        rows = nearest_sources(x.shape[2], h, align)
        cols = nearest_sources(x.shape[3], w, align)
        return tf.gather(tf.gather(x, rows, axis=2), cols, axis=3)

    return kernel


def _resize_nearest_grad(prim):
    align = prim.align_corners

    def kernel(grads, size):
        rows = nearest_sources(size[0], grads.shape[2], align)
        cols = nearest_sources(size[1], grads.shape[3], align)
        at = np.stack(np.meshgrid(rows, cols, indexing="ij"), -1)  # (h, w, 2) sources
        out = tf.scatter_nd(at, tf.transpose(grads, (2, 3, 0, 1)),
                            (*size, *grads.shape[:2]))
        return tf.transpose(out, (2, 3, 0, 1))

    return kernel


def _crop_positions(low, high, n_in, n_out):
    """Sample positions (boxes, n_out) in the source for normalized box edges low/high."""
    low, high = low[:, None], high[:, None]
    span = float(n_in - 1)
    if n_out > 1:
        return low * span + tf.range(n_out, dtype=tf.float32) * ((high - low) * span
                                                                 / (n_out - 1))
    return 0.5 * (low + high) * span


def _v2_positions(low, high, n_in, n_out):
    """bilinear_v2's rows on each side of the sample and the far one's weight (as the CPU
    kernel: edges truncated to pixels, cell centres sampled, clamped to the box only)."""
    start = tf.cast(low * n_in, tf.int32)[:, None]
    size = tf.maximum(tf.cast(high * n_in, tf.int32)[:, None] - start + 1, 1)
    point = ((tf.range(n_out, dtype=tf.float32) + 0.5)
             * (tf.cast(size, tf.float32) / n_out) - 0.5)
    top = tf.cast(size - 1, tf.float32)
    near = tf.clip_by_value(tf.floor(point), 0.0, top)
    far = tf.clip_by_value(tf.math.ceil(point), 0.0, top)
    rows = [tf.maximum(start + tf.cast(i, tf.int32), 0) for i in (near, far)]
    return rows[0], rows[1], point - near


def _crop_v2(x, boxes, box_index, crop_size):
    # MindSpore's kernel reads the batch as one flat buffer (a box past an edge reads on).
    _, height, width, channels = x.shape
    flat = tf.cast(tf.reshape(x, [-1, channels]), tf.float32)
    top, bottom, dy = _v2_positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
    left, right, dx = _v2_positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
    dy, dx = dy[:, :, None, None], dx[:, None, :, None]
    base = tf.cast(box_index, tf.int32)[:, None, None] * height

    def read(rows, cols):
        pixel = (base + rows[:, :, None]) * width + cols[:, None, :]
        return tf.gather(flat, tf.minimum(pixel, flat.shape[0] - 1))

    return (read(top, left) * (1 - dy) * (1 - dx) + read(bottom, right) * dy * dx
            + read(top, right) * (1 - dy) * dx + read(bottom, left) * dy * (1 - dx))


def _crop_and_resize(prim):
    # TensorFlow's own CropAndResize has no XLA kernel: the same sampling with gathers.
    nearest, fill = prim.method == "nearest", prim.extrapolation_value

    def kernel(x, boxes, box_index, crop_size):
        if prim.method == "bilinear_v2":
            return _crop_v2(x, boxes, box_index, crop_size)
        _, height, width, _ = x.shape
        images = tf.cast(tf.gather(x, box_index), tf.float32)
        ys = _crop_positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
        xs = _crop_positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
        inside = ((ys >= 0) & (ys <= height - 1))[:, :, None] & (
            (xs >= 0) & (xs <= width - 1))[:, None, :]

        def read(rows, cols):
            rows = tf.cast(tf.clip_by_value(rows, 0, height - 1), tf.int32)
            cols = tf.cast(tf.clip_by_value(cols, 0, width - 1), tf.int32)
            picked = tf.gather(images, rows, axis=1, batch_dims=1)  # (boxes, ch, W, C)
            return tf.gather(picked, cols, axis=2, batch_dims=1)  # (boxes, ch, cw, C)

        if nearest:
            out = read(tf.floor(ys + 0.5), tf.floor(xs + 0.5))
        else:
            top, left, bottom, right = tf.floor(ys), tf.floor(xs), tf.math.ceil(ys), \
                tf.math.ceil(xs)
            dy = (ys - top)[:, :, None, None]
            dx = (xs - left)[:, None, :, None]
            upper = read(top, left) + (read(top, right) - read(top, left)) * dx
            lower = read(bottom, left) + (read(bottom, right) - read(bottom, left)) * dx
            out = upper + (lower - upper) * dy
        return tf.where(inside[..., None], out, tf.constant(fill, tf.float32))

    return kernel


def _iou(prim):
    iof = prim.mode == "iof"

    def kernel(anchors, gts):
        a, g = anchors[None, :, :], gts[:, None, :]
        zero = tf.zeros((), anchors.dtype)
        w = tf.maximum(tf.minimum(a[..., 2], g[..., 2]) - tf.maximum(a[..., 0], g[..., 0]) + 1,
                       zero)
        h = tf.maximum(tf.minimum(a[..., 3], g[..., 3]) - tf.maximum(a[..., 1], g[..., 1]) + 1,
                       zero)
        overlap = w * h
        area_a = (a[..., 2] - a[..., 0] + 1) * (a[..., 3] - a[..., 1] + 1)
        area_g = (g[..., 2] - g[..., 0] + 1) * (g[..., 3] - g[..., 1] + 1)
        eps = tf.constant(1e-10, anchors.dtype)
        return overlap / (area_g + eps if iof else area_a + area_g - overlap + eps)

    return kernel


def _centers(boxes):
    w = boxes[:, 2] - boxes[:, 0] + 1
    h = boxes[:, 3] - boxes[:, 1] + 1
    return (boxes[:, 0] + boxes[:, 2]) * 0.5, (boxes[:, 1] + boxes[:, 3]) * 0.5, w, h


def _encode(prim):
    means, stds = tf.constant(prim.means, tf.float64), tf.constant(prim.stds, tf.float64)

    def kernel(anchors, gts):
        px, py, pw, ph = _centers(tf.cast(anchors, tf.float64))
        gx, gy, gw, gh = _centers(tf.cast(gts, tf.float64))
        deltas = tf.stack([(gx - px) / pw, (gy - py) / ph, tf.math.log(gw / pw),
                           tf.math.log(gh / ph)], 1)
        return tf.cast((deltas - means) / stds, anchors.dtype)

    return kernel


def _decode(prim):
    means, stds = tf.constant(prim.means, tf.float64), tf.constant(prim.stds, tf.float64)
    limit = abs(math.log(prim.wh_ratio_clip))
    height, width = (float(n) for n in prim.max_shape)

    def kernel(anchors, deltas):
        d = tf.cast(deltas, tf.float64) * stds + means
        dw = tf.clip_by_value(d[:, 2], -limit, limit)
        dh = tf.clip_by_value(d[:, 3], -limit, limit)
        px, py, pw, ph = _centers(tf.cast(anchors, tf.float64))
        gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
        gw, gh = pw * tf.exp(dw), ph * tf.exp(dh)
        boxes = tf.stack([tf.clip_by_value(gx - gw * 0.5 + 0.5, 0.0, width),
                          tf.clip_by_value(gy - gh * 0.5 + 0.5, 0.0, height),
                          tf.clip_by_value(gx + gw * 0.5 - 0.5, 0.0, width),
                          tf.clip_by_value(gy + gh * 0.5 - 0.5, 0.0, height)], 1)
        return tf.cast(boxes, anchors.dtype)

    return kernel


def _check_valid(boxes, metas):
    height, width, ratio = metas[0], metas[1], metas[2]
    zero, one = tf.zeros((), boxes.dtype), tf.ones((), boxes.dtype)
    return ((boxes[:, 0] >= zero) & (boxes[:, 1] >= zero)
            & (boxes[:, 2] <= width * ratio - one) & (boxes[:, 3] <= height * ratio - one))


def _nms(prim):
    threshold = prim.iou_threshold

    def kernel(bboxes):
        n = bboxes.shape[0]
        order = tf.argsort(bboxes[:, 4], direction="DESCENDING", stable=True)
        boxes = tf.gather(bboxes, order)
        x1, y1, x2, y2 = (boxes[:, i] for i in range(4))
        zero = tf.zeros((), boxes.dtype)
        w = tf.maximum(tf.minimum(x2[:, None], x2) - tf.maximum(x1[:, None], x1), zero)
        h = tf.maximum(tf.minimum(y2[:, None], y2) - tf.maximum(y1[:, None], y1), zero)
        area = (x2 - x1) * (y2 - y1)
        iou = w * h / (area[:, None] + area - w * h)
        above = tf.linalg.band_part(tf.ones((n, n)), 0, -1) - tf.eye(n)  # j > i
        suppresses = (iou > tf.constant(threshold, boxes.dtype)) & (above > 0)

        def step(i, keep):
            return i + 1, keep & ~(keep[i] & suppresses[i])

        _, keep = tf.while_loop(lambda i, keep: i < n, step, (0, tf.ones([n], tf.bool)))
        return boxes, tf.range(n, dtype=tf.int32), keep

    return kernel


KERNELS = {
    "ResizeNearestNeighbor": _resize_nearest,
    "ResizeNearestNeighborGrad": _resize_nearest_grad,
    "CropAndResize": _crop_and_resize,
    "IOU": _iou,
    "BoundingBoxEncode": _encode,
    "BoundingBoxDecode": _decode,
    "CheckValid": lambda p: _check_valid,
    "NMSWithMask": _nms,
}
