"""Non-maximum suppression of scored boxes (``NMSWithMask``, which MindSpore keeps among its
math operations)."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.ops.operations.math_ops import _check
from ember.ops.primitive import Primitive, Spec, describe

__all__ = ["NMSWithMask"]

_BOX_DTYPES = frozenset((mstype.float16, mstype.float32))


class NMSWithMask(Primitive):
    """Greedy non-maximum suppression: ``NMSWithMask(iou_threshold=0.5)(bboxes)``.

    ``bboxes`` is (N, 5): ``x1, y1, x2, y2, score`` per box. The outputs are the boxes sorted by
    descending score (ties keep their input order), their indices in ``bboxes`` (Int32), and a
    Bool mask of the boxes kept: a box is dropped when its IoU with a kept box of higher score
    exceeds ``iou_threshold`` (IoU = intersection / (area1 + area2 - intersection), areas from
    the coordinates as given; boxes of no area overlap nothing).
    """

    def __init__(self, iou_threshold: float = 0.5) -> None:
        super().__init__()
        if not isinstance(iou_threshold, float):
            raise TypeError(f"For 'NMSWithMask', the type of 'iou_threshold' should be 'float', "
                            f"but got {type(iou_threshold).__name__} ({iou_threshold!r})")
        self.iou_threshold = iou_threshold

    def infer(self, bboxes: Any) -> list[Spec]:
        _check(self.name, "bboxes", bboxes, _BOX_DTYPES)
        if bboxes.ndim != 2 or bboxes.shape[1] != 5 or bboxes.shape[0] == 0:
            raise ValueError(f"NMSWithMask: input 'bboxes' must have shape (N, 5) with N > 0, "
                             f"but got {describe((bboxes,))}")
        n = bboxes.shape[0]
        return [((n, 5), bboxes.dtype), ((n,), mstype.int32), ((n,), mstype.bool_)]
