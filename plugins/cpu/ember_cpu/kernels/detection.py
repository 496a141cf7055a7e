"""Non-maximum suppression on NumPy."""

from __future__ import annotations

import numpy as np

from ember_cpu.kernels.math import _quiet


def _nms_with_mask(prim):
    """Boxes by descending score; then, for each box still kept, every later box whose IoU with
    it exceeds the threshold is dropped. IoUs are computed in the boxes' dtype."""
    threshold = np.float32(prim.iou_threshold)

    @_quiet
    def kernel(bboxes):
        order = np.argsort(-bboxes[:, 4], kind="stable")
        boxes = bboxes[order]
        x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
        area = (x2 - x1) * (y2 - y1)
        keep = np.ones(len(boxes), np.bool_)
        zero = np.zeros((), boxes.dtype)
        for i in range(len(boxes) - 1):
            if keep[i]:
                rest = slice(i + 1, None)
                width = np.maximum(np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]), zero)
                height = np.maximum(np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]),
                                    zero)
                inter = width * height
                iou = inter / (area[i] + area[rest] - inter)
                keep[rest] &= ~(iou.astype(np.float32) > threshold)
        return boxes, order.astype(np.int32), keep

    return kernel


KERNELS = {
    "NMSWithMask": _nms_with_mask,
}
