"""Image and bounding-box kernels on NumPy. Sample positions are computed in float32, as
MindSpore's and TensorFlow's kernels compute them."""

from __future__ import annotations

import numpy as np

from ember.ops.operations.image_ops import nearest_sources as _sources


def _resize_nearest(prim):
    (h, w), align = prim.size, prim.align_corners

    def kernel(x):
        rows, cols = _sources(x.shape[2], h, align), _sources(x.shape[3], w, align)
        return x[:, :, rows[:, None], cols[None, :]]

    return kernel


def _resize_nearest_grad(prim):
    align = prim.align_corners

    def kernel(grads, size):
        out = np.zeros(grads.shape[:2] + tuple(size), grads.dtype)
        rows = _sources(size[0], grads.shape[2], align)
        cols = _sources(size[1], grads.shape[3], align)
        np.add.at(out, (slice(None), slice(None), rows[:, None], cols[None, :]), grads)
        return out

    return kernel


def _crop_positions(low, high, n_in, n_out):
    """Sample positions (boxes, n_out) in the source for normalized box edges low/high."""
    low, high = low[:, None], high[:, None]
    span = np.float32(n_in - 1)
    if n_out > 1:
        step = (high - low) * span / np.float32(n_out - 1)
        return low * span + np.arange(n_out, dtype=np.float32) * step
    return np.float32(0.5) * (low + high) * span


def _v2_positions(low, high, n_in, n_out):
    """bilinear_v2's source rows (boxes, n_out) on each side of the sample and the weight of
    the far one: the box's pixels from int(low * n_in) to int(high * n_in), sampled at the
    crop cells' centres (float32, as MindSpore's kernel, which clamps them to the box only)."""
    start = (low * np.float32(n_in)).astype(np.int64)[:, None]
    size = np.maximum((high * np.float32(n_in)).astype(np.int64)[:, None] - start + 1, 1)
    point = ((np.arange(n_out, dtype=np.float32) + np.float32(0.5))
             * (size.astype(np.float32) / np.float32(n_out)) - np.float32(0.5))
    near = np.clip(np.floor(point), 0, size - 1)
    far = np.clip(np.ceil(point), 0, size - 1)
    rows = [np.maximum(start + i.astype(np.int64), 0) for i in (near, far)]
    return rows[0], rows[1], (point - near).astype(np.float32)


def _crop_v2(x, boxes, box_index, crop_size):
    """MindSpore's kernel reads the batch as one flat buffer: a box reaching past the image's
    right (or bottom) edge reads on into the next row (or image), up to the buffer's end."""
    batch, height, width, channels = x.shape
    flat = x.reshape(-1, channels).astype(np.float32)
    top, bottom, dy = _v2_positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
    left, right, dx = _v2_positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
    dy, dx = dy[:, :, None, None], dx[:, None, :, None]
    base = box_index.astype(np.int64)[:, None, None] * height

    def read(rows, cols):
        pixel = (base + rows[:, :, None]) * width + cols[:, None, :]
        return flat[np.minimum(pixel, len(flat) - 1)]

    one = np.float32(1)
    return (read(top, left) * (one - dy) * (one - dx) + read(bottom, right) * dy * dx
            + read(top, right) * (one - dy) * dx + read(bottom, left) * dy * (one - dx))


def _crop_and_resize(prim):
    nearest, fill = prim.method == "nearest", np.float32(prim.extrapolation_value)

    def kernel(x, boxes, box_index, crop_size):
        if prim.method == "bilinear_v2":
            return _crop_v2(x, boxes, box_index, crop_size)
        _, height, width, _ = x.shape
        images = x[box_index].astype(np.float32)
        ys = _crop_positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
        xs = _crop_positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
        inside = (((ys >= 0) & (ys <= height - 1))[:, :, None]
                  & ((xs >= 0) & (xs <= width - 1))[:, None, :])
        batch = np.arange(len(boxes))[:, None, None]

        def read(rows, cols):
            rows = np.clip(rows, 0, height - 1).astype(np.int64)
            cols = np.clip(cols, 0, width - 1).astype(np.int64)
            return images[batch, rows[:, :, None], cols[:, None, :]]

        if nearest:
            out = read(np.floor(ys + np.float32(0.5)), np.floor(xs + np.float32(0.5)))
        else:
            top, left = np.floor(ys), np.floor(xs)
            dy = (ys - top)[:, :, None, None]
            dx = (xs - left)[:, None, :, None]
            upper = read(top, left) + (read(top, np.ceil(xs)) - read(top, left)) * dx
            lower = read(np.ceil(ys), left) + (read(np.ceil(ys), np.ceil(xs))
                                               - read(np.ceil(ys), left)) * dx
            out = upper + (lower - upper) * dy
        return np.where(inside[..., None], out, fill).astype(np.float32)

    return kernel


def _iou(prim):
    iof = prim.mode == "iof"

    def kernel(anchors, gts):
        a, g = anchors[None, :, :], gts[:, None, :]
        one = np.ones((), anchors.dtype)
        w = np.maximum(np.minimum(a[..., 2], g[..., 2]) - np.maximum(a[..., 0], g[..., 0]) + one,
                       0)
        h = np.maximum(np.minimum(a[..., 3], g[..., 3]) - np.maximum(a[..., 1], g[..., 1]) + one,
                       0)
        overlap = w * h
        area_a = (a[..., 2] - a[..., 0] + one) * (a[..., 3] - a[..., 1] + one)
        area_g = (g[..., 2] - g[..., 0] + one) * (g[..., 3] - g[..., 1] + one)
        eps = np.asarray(1e-10, anchors.dtype)
        denominator = area_g + eps if iof else area_a + area_g - overlap + eps
        return (overlap / denominator).astype(anchors.dtype)

    return kernel


def _centers(boxes):
    """Centres and (pixel-inclusive) sizes of boxes: x, y, w, h."""
    w = boxes[:, 2] - boxes[:, 0] + 1
    h = boxes[:, 3] - boxes[:, 1] + 1
    return (boxes[:, 0] + boxes[:, 2]) * 0.5, (boxes[:, 1] + boxes[:, 3]) * 0.5, w, h


def _encode(prim):
    means, stds = np.array(prim.means), np.array(prim.stds)

    def kernel(anchors, gts):
        px, py, pw, ph = _centers(anchors.astype(np.float64))
        gx, gy, gw, gh = _centers(gts.astype(np.float64))
        deltas = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], 1)
        return ((deltas - means) / stds).astype(anchors.dtype)

    return kernel


def _decode(prim):
    means, stds = np.array(prim.means), np.array(prim.stds)
    limit = abs(np.log(prim.wh_ratio_clip))
    height, width = prim.max_shape

    def kernel(anchors, deltas):
        d = deltas.astype(np.float64) * stds + means
        dw, dh = np.clip(d[:, 2], -limit, limit), np.clip(d[:, 3], -limit, limit)
        px, py, pw, ph = _centers(anchors.astype(np.float64))
        gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
        gw, gh = pw * np.exp(dw), ph * np.exp(dh)
        boxes = np.stack([np.clip(gx - gw * 0.5 + 0.5, 0, width),
                          np.clip(gy - gh * 0.5 + 0.5, 0, height),
                          np.clip(gx + gw * 0.5 - 0.5, 0, width),
                          np.clip(gy + gh * 0.5 - 0.5, 0, height)], 1)
        return boxes.astype(anchors.dtype)

    return kernel


def _check_valid(boxes, metas):
    height, width, ratio = metas
    one = np.ones((), boxes.dtype)
    return ((boxes[:, 0] >= 0) & (boxes[:, 1] >= 0) & (boxes[:, 2] <= width * ratio - one)
            & (boxes[:, 3] <= height * ratio - one))


def _nms(prim):
    threshold = prim.iou_threshold

    def kernel(bboxes):
        n = len(bboxes)
        order = n - 1 - np.argsort(bboxes[::-1, 4], kind="stable")[::-1]  # stable, descending
        boxes = bboxes[order]
        x1, y1, x2, y2 = (boxes[:, i] for i in range(4))
        w = np.maximum(np.minimum(x2[:, None], x2) - np.maximum(x1[:, None], x1), 0)
        h = np.maximum(np.minimum(y2[:, None], y2) - np.maximum(y1[:, None], y1), 0)
        area = (x2 - x1) * (y2 - y1)
        with np.errstate(divide="ignore", invalid="ignore"):
            iou = w * h / (area[:, None] + area - w * h)
        suppresses = np.triu(iou > threshold, 1)
        keep = np.ones(n, bool)
        for i in range(n - 1):
            if keep[i]:
                keep &= ~suppresses[i]
        return boxes, np.arange(n, dtype=np.int32), keep

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
