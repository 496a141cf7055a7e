"""Cases for ``ember.ops.operations.image_ops``. References follow the formulas of the
primitives' documentation one pixel or one box at a time."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import image_ops
from ember.testing.cases import OpCase
from ember.testing.cases.array import NUMBERS, index, sample

BOX_FLOATS = (np.float16, np.float32)
#: float16 box arithmetic rounds at about 1e-3 of the box coordinates (tens of pixels).
_BOX_TOLERANCE = {np.float16: (2e-2, 2e-2)}


def _source(i: int, n_in: int, n_out: int, align: bool) -> int:
    if align and n_out > 1:
        return min(int(math.floor(i * np.float32((n_in - 1) / (n_out - 1)) + 0.5)), n_in - 1)
    return min(int(math.floor(i * np.float32(n_in / n_out))), n_in - 1)


def _resize(size: tuple, align: bool) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        out = np.empty(x.shape[:2] + size, x.dtype)
        for i, j in np.ndindex(*size):
            out[:, :, i, j] = x[:, :, _source(i, x.shape[2], size[0], align),
                                _source(j, x.shape[3], size[1], align)]
        return out

    return reference


def _resize_grad(align: bool) -> Callable[..., np.ndarray]:
    def reference(grads: np.ndarray, size: tuple) -> np.ndarray:
        out = np.zeros(grads.shape[:2] + tuple(size), grads.dtype)
        for i, j in np.ndindex(*grads.shape[2:]):
            out[:, :, _source(i, size[0], grads.shape[2], align),
                _source(j, size[1], grads.shape[3], align)] += grads[:, :, i, j]
        return out

    return reference


def _crop(method: str, fill: float) -> Callable[..., np.ndarray]:
    """TensorFlow's crop_and_resize, one sample point at a time."""

    def reference(x, boxes, box_index, crop_size):
        _, height, width, channels = x.shape
        out = np.empty((len(boxes), *crop_size, channels), np.float32)
        for b, (y1, x1, y2, x2) in enumerate(boxes.astype(np.float64)):
            image = x[box_index[b]].astype(np.float64)
            for i, j in np.ndindex(*crop_size):
                y = (y1 * (height - 1) + i * (y2 - y1) * (height - 1) / (crop_size[0] - 1)
                     if crop_size[0] > 1 else 0.5 * (y1 + y2) * (height - 1))
                xx = (x1 * (width - 1) + j * (x2 - x1) * (width - 1) / (crop_size[1] - 1)
                      if crop_size[1] > 1 else 0.5 * (x1 + x2) * (width - 1))
                if not (0 <= y <= height - 1 and 0 <= xx <= width - 1):
                    out[b, i, j] = fill
                elif method == "nearest":
                    out[b, i, j] = image[int(math.floor(y + 0.5)), int(math.floor(xx + 0.5))]
                else:
                    t, l_ = math.floor(y), math.floor(xx)
                    bt, r = math.ceil(y), math.ceil(xx)
                    top = image[t, l_] + (image[t, r] - image[t, l_]) * (xx - l_)
                    bottom = image[bt, l_] + (image[bt, r] - image[bt, l_]) * (xx - l_)
                    out[b, i, j] = top + (bottom - top) * (y - t)
        return out

    return reference


def _crop_v2(x, boxes, box_index, crop_size):
    """MindSpore's bilinear_v2, one sample point at a time: box edges truncated to pixels,
    cell centres sampled, indices clamped to the box, pixels read from the flat batch."""
    _, height, width, channels = x.shape
    flat = x.reshape(-1, channels).astype(np.float64)
    out = np.empty((len(boxes), *crop_size, channels), np.float32)

    def side(low, high, n_in, n_out, k):
        start = int(np.float32(low) * np.float32(n_in))
        size = max(int(np.float32(high) * np.float32(n_in)) - start + 1, 1)
        point = (k + 0.5) * size / n_out - 0.5
        near = min(max(math.floor(point), 0), size - 1)
        far = min(max(math.ceil(point), 0), size - 1)
        return max(start + near, 0), max(start + far, 0), point - near

    def read(b, row, col):
        return flat[min((box_index[b] * height + row) * width + col, len(flat) - 1)]

    for b, (y1, x1, y2, x2) in enumerate(boxes):
        for i, j in np.ndindex(*crop_size):
            top, bottom, dy = side(y1, y2, height, crop_size[0], i)
            left, right, dx = side(x1, x2, width, crop_size[1], j)
            out[b, i, j] = (read(b, top, left) * (1 - dy) * (1 - dx)
                            + read(b, bottom, right) * dy * dx
                            + read(b, top, right) * (1 - dy) * dx
                            + read(b, bottom, left) * dy * (1 - dx))
    return out


def _boxes(rng: np.random.Generator, dt: type, n: int, scale: float = 20.0) -> np.ndarray:
    """``n`` boxes (x1, y1, x2, y2) with x1 <= x2 and y1 <= y2, coordinates in [0, 2*scale]."""
    corners = rng.uniform(0, scale, (n, 2))
    sizes = rng.uniform(1, scale, (n, 2))
    return np.hstack([corners, corners + sizes]).astype(dt)


def _iou(mode: str) -> Callable[..., np.ndarray]:
    def reference(anchors: np.ndarray, gts: np.ndarray) -> np.ndarray:
        out = np.empty((len(gts), len(anchors)), anchors.dtype)
        for i, g in enumerate(gts.astype(np.float64)):
            for j, a in enumerate(anchors.astype(np.float64)):
                w = max(min(a[2], g[2]) - max(a[0], g[0]) + 1, 0)
                h = max(min(a[3], g[3]) - max(a[1], g[1]) + 1, 0)
                area_a = (a[2] - a[0] + 1) * (a[3] - a[1] + 1)
                area_g = (g[2] - g[0] + 1) * (g[3] - g[1] + 1)
                out[i, j] = w * h / (area_g if mode == "iof" else area_a + area_g - w * h)
        return out

    return reference


def _encode(means: tuple, stds: tuple) -> Callable[..., np.ndarray]:
    def reference(anchors: np.ndarray, gts: np.ndarray) -> np.ndarray:
        out = np.empty(anchors.shape, anchors.dtype)
        for k, (p, g) in enumerate(zip(anchors.astype(np.float64), gts.astype(np.float64))):
            pw, ph = p[2] - p[0] + 1, p[3] - p[1] + 1
            gw, gh = g[2] - g[0] + 1, g[3] - g[1] + 1
            d = [((g[0] + g[2]) - (p[0] + p[2])) / 2 / pw, ((g[1] + g[3]) - (p[1] + p[3])) / 2 / ph,
                 math.log(gw / pw), math.log(gh / ph)]
            out[k] = [(v - m) / s for v, m, s in zip(d, means, stds)]
        return out

    return reference


def _decode(max_shape: tuple, clip: float) -> Callable[..., np.ndarray]:
    def reference(anchors: np.ndarray, deltas: np.ndarray) -> np.ndarray:
        out = np.empty(anchors.shape, anchors.dtype)
        limit = abs(math.log(clip))
        for k, (p, d) in enumerate(zip(anchors.astype(np.float64), deltas.astype(np.float64))):
            pw, ph = p[2] - p[0] + 1, p[3] - p[1] + 1
            cx, cy = (p[0] + p[2]) / 2 + pw * d[0], (p[1] + p[3]) / 2 + ph * d[1]
            w = pw * math.exp(min(max(d[2], -limit), limit))
            h = ph * math.exp(min(max(d[3], -limit), limit))
            bounds = (max_shape[1], max_shape[0]) * 2
            corners = (cx - w / 2 + 0.5, cy - h / 2 + 0.5, cx + w / 2 - 0.5, cy + h / 2 - 0.5)
            out[k] = [min(max(c, 0), b) for c, b in zip(corners, bounds)]
        return out

    return reference


def _check_valid(boxes: np.ndarray, metas: np.ndarray) -> np.ndarray:
    h, w, r = (float(v) for v in metas)
    return np.array([b[0] >= 0 and b[1] >= 0 and b[2] <= w * r - 1 and b[3] <= h * r - 1
                     for b in boxes.astype(np.float64)], bool)


def _nms(threshold: float) -> Callable[..., tuple]:
    def reference(bboxes: np.ndarray) -> tuple:
        order = sorted(range(len(bboxes)), key=lambda i: (-float(bboxes[i, 4]), i))
        boxes = bboxes[order]
        keep = [True] * len(boxes)
        for i, a in enumerate(boxes.astype(np.float64)):
            if not keep[i]:
                continue
            for j in range(i + 1, len(boxes)):
                b = boxes[j].astype(np.float64)
                w = max(min(a[2], b[2]) - max(a[0], b[0]), 0)
                h = max(min(a[3], b[3]) - max(a[1], b[1]), 0)
                union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
                if w * h / union > threshold:
                    keep[j] = False
        return boxes, np.arange(len(boxes), dtype=np.int32), np.array(keep)

    return reference


def _scored(rng: np.random.Generator, dt: type) -> np.ndarray:
    """Six boxes in two overlapping clusters, with distinct scores."""
    base = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [0, 2, 10, 12],
                     [20, 20, 30, 30], [21, 20, 31, 30], [40, 0, 45, 5]], np.float64)
    scores = rng.permutation(6)[:, None] / 6 + 0.05
    return np.hstack([base + rng.uniform(0, 0.5, base.shape), scores]).astype(dt)


CASES: list[OpCase] = [
    OpCase("ResizeNearestNeighbor/up", "ResizeNearestNeighbor",
           lambda: P.ResizeNearestNeighbor((5, 7)),
           lambda rng, dt: (sample(rng, dt, 2, 3, 3, 4),), _resize((5, 7), False), NUMBERS,
           grad=(0,)),
    OpCase("ResizeNearestNeighbor/down-align-corners", "ResizeNearestNeighbor",
           lambda: P.ResizeNearestNeighbor([2, 3], align_corners=True),
           lambda rng, dt: (sample(rng, dt, 1, 2, 5, 7),), _resize((2, 3), True), NUMBERS,
           grad=(0,)),
    OpCase("ResizeNearestNeighborGrad/up", "ResizeNearestNeighborGrad",
           lambda: image_ops.ResizeNearestNeighborGrad(),
           lambda rng, dt: (sample(rng, dt, 1, 2, 5, 7), (3, 4)), _resize_grad(False),
           NUMBERS, grad=(0,)),
    OpCase("CropAndResize/bilinear-extrapolated", "CropAndResize", P.CropAndResize,
           lambda rng, dt: (sample(rng, dt, 2, 5, 6, 3),
                            np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.3, 0.6, 1.3],
                                      [0.5, 0.4, 0.5, 0.4]], np.float32),
                            index(1, 0, 1), (3, 4)),
           _crop("bilinear", 0.0), NUMBERS),
    OpCase("CropAndResize/nearest-one-row", "CropAndResize",
           lambda: P.CropAndResize("nearest", -1.0),
           lambda rng, dt: (sample(rng, dt, 1, 6, 5, 2),
                            np.array([[0.13, 0.07, 0.91, 0.83], [0.3, -0.5, 0.7, 0.4]],
                                     np.float32), index(0, 0), (1, 3)),
           _crop("nearest", -1.0), NUMBERS),
    OpCase("CropAndResize/bilinear-v2", "CropAndResize", lambda: P.CropAndResize("bilinear_v2"),
           lambda rng, dt: (sample(rng, dt, 2, 6, 5, 2),
                            np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.5, 0.5, 0.0],
                                      [0.3, 0.0, 0.9, 1.6]], np.float32),
                            index(1, 0, 0), (3, 4)),
           _crop_v2, NUMBERS, tolerance={dt: (1e-5, 1e-5) for dt in NUMBERS}),  # float32 out
    OpCase("IOU/iou", "IOU", P.IOU,
           lambda rng, dt: (_boxes(rng, dt, 4), _boxes(rng, dt, 3)), _iou("iou"), BOX_FLOATS,
           tolerance=_BOX_TOLERANCE),
    OpCase("IOU/iof", "IOU", lambda: P.IOU("iof"),
           lambda rng, dt: (_boxes(rng, dt, 2), _boxes(rng, dt, 3)), _iou("iof"), BOX_FLOATS,
           tolerance=_BOX_TOLERANCE),
    OpCase("BoundingBoxEncode/means-stds", "BoundingBoxEncode",
           lambda: P.BoundingBoxEncode((0.0, 0.1, 0.0, -0.1), (0.1, 0.1, 0.2, 0.2)),
           lambda rng, dt: (_boxes(rng, dt, 4), _boxes(rng, dt, 4)),
           _encode((0.0, 0.1, 0.0, -0.1), (0.1, 0.1, 0.2, 0.2)), BOX_FLOATS,
           tolerance=_BOX_TOLERANCE),
    OpCase("BoundingBoxDecode/clipped", "BoundingBoxDecode",
           lambda: P.BoundingBoxDecode((30, 25), wh_ratio_clip=0.2),
           lambda rng, dt: (_boxes(rng, dt, 5), sample(rng, dt, 5, 4)),
           _decode((30, 25), 0.2), BOX_FLOATS, tolerance=_BOX_TOLERANCE),
    OpCase("CheckValid/mixed", "CheckValid", P.CheckValid,
           lambda rng, dt: (np.array([[0, 0, 10, 10], [-1, 2, 5, 5], [3, 3, 59, 29],
                                      [3, 3, 60, 29], [3, 3, 20, 30]], dt),
                            np.array([20, 40, 1.5], dt)),
           _check_valid, BOX_FLOATS),
    OpCase("CheckValid/integers", "CheckValid", P.CheckValid,
           lambda rng, dt: (np.array([[5, 0, 10, 70], [2, 2, 8, 10], [1, 2, 30, 200]], dt),
                            np.array([76, 128, 1], dt)),
           _check_valid, (np.int16, np.uint8)),
    OpCase("NMSWithMask/two-clusters", "NMSWithMask", lambda: P.NMSWithMask(0.5),
           lambda rng, dt: (_scored(rng, dt),), _nms(0.5), BOX_FLOATS,
           tolerance=_BOX_TOLERANCE),
]
