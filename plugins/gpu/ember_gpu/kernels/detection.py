"""Non-maximum suppression on TensorFlow, compiled by XLA (also when run eagerly): the greedy
pass is a loop over the boxes, which XLA runs on the device."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_gpu.kernels.conv import _compiled
from ember_gpu.kernels.math import Kernel, _cast, raw, tf


def _nms_with_mask(prim: Any) -> Kernel:
    """Boxes by descending score (TopK keeps ties in input order); a box is dropped when a kept
    box of higher score overlaps it with an IoU above the threshold, IoUs in the boxes' dtype."""
    threshold = np.float32(prim.iou_threshold)

    def kernel(bboxes: Any) -> tuple:
        n = bboxes.shape[0]
        _, order = raw.TopKV2(input=bboxes[:, 4], k=n, sorted=True)
        boxes = tf.gather(bboxes, order)
        x1, y1, x2, y2 = (boxes[:, k] for k in range(4))
        area = (x2 - x1) * (y2 - y1)
        width = tf.maximum(tf.minimum(x2[:, None], x2) - tf.maximum(x1[:, None], x1), 0)
        height = tf.maximum(tf.minimum(y2[:, None], y2) - tf.maximum(y1[:, None], y1), 0)
        inter = width * height
        iou = inter / (area[:, None] + area - inter)
        later = tf.range(n)[None, :] > tf.range(n)[:, None]
        drops = tf.logical_and(_cast(iou, tf.float32) > threshold, later)  # row i drops these

        def step(i: Any, keep: Any) -> tuple:
            dropped = tf.logical_and(keep[i], drops[i])
            return i + 1, tf.logical_and(keep, tf.logical_not(dropped))

        _, keep = tf.while_loop(lambda i, keep: i < n, step,
                                (tf.constant(0), tf.ones([n], tf.bool)))
        return boxes, order, keep

    return _compiled(kernel)


KERNELS = {
    "NMSWithMask": _nms_with_mask,
}
