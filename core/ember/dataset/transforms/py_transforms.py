"""Python transforms of any column, as ``mindspore.dataset.transforms.py_transforms``: the
combinators (also for PIL images between Python vision transforms) and ``OneHotOp``."""

from __future__ import annotations

import numpy as np

from ember.dataset.transforms._base import (
    Compose,
    RandomApply,
    RandomChoice,
    RandomOrder,
    TensorOperation,
    check_number,
)


class OneHotOp(TensorOperation):
    """Labels (a scalar or 1-D) as one-hot rows ``(labels.size, num_classes)`` of float64,
    smoothed: ``onehot * (1 - smoothing_rate) + smoothing_rate / num_classes``."""

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        self.num_classes = check_number(num_classes, "OneHotOp", "num_classes", 0, integer=True,
                                        low_open=True)
        self.smoothing_rate = check_number(smoothing_rate, "OneHotOp", "smoothing_rate", 0.0,
                                           1.0)

    def _apply(self, label: np.ndarray) -> np.ndarray:
        if label.dtype.kind not in "iu" or label.ndim > 1:
            raise RuntimeError(f"OneHotOp: the label must be an integer scalar or 1-D, but got "
                               f"{label.dtype} of shape {label.shape}")
        if ((label < 0) | (label >= self.num_classes)).any():
            raise RuntimeError(f"OneHotOp: labels must be in [0, {self.num_classes}), but got "
                               f"{label.tolist()}")
        onehot = np.eye(self.num_classes)[label.reshape(-1)]
        return onehot * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes


__all__ = ["Compose", "OneHotOp", "RandomApply", "RandomChoice", "RandomOrder"]
