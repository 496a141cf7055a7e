"""``ConfusionMatrix``, ``ROC`` and ``auc``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.nn.metrics.metric import Metric, rearrange_inputs


class ConfusionMatrix(Metric):
    """Counts ``matrix[true, predicted]`` over updates; ``y_pred`` is class scores (N, C, ...)
    (argmax taken) or labels / probabilities (N, ...) (thresholded at ``threshold`` for 2
    classes). ``normalize``: 'no_norm', 'target' (rows sum to 1), 'prediction' (columns) or
    'all'."""

    def __init__(self, num_classes: int, normalize: str = "no_norm",
                 threshold: float = 0.5) -> None:
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(f"ConfusionMatrix: num_classes must be a positive int, but got "
                             f"{num_classes!r}")
        if normalize not in ("no_norm", "target", "prediction", "all"):
            raise ValueError(f"ConfusionMatrix: normalize must be 'no_norm', 'target', "
                             f"'prediction' or 'all', but got {normalize!r}")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        if len(inputs) != 2:
            raise ValueError(f"ConfusionMatrix.update: needs 2 inputs (y_pred, y), but got "
                             f"{len(inputs)}")
        y_pred, y = (self._convert_data(x) for x in inputs)
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif y_pred.dtype.kind == "f":
            y_pred = (y_pred >= self.threshold).astype(np.int64)
        if y_pred.shape != y.shape:
            raise ValueError(f"ConfusionMatrix.update: y_pred {y_pred.shape} does not match y "
                             f"{y.shape}")
        pairs = self.num_classes * y.reshape(-1).astype(np.int64) + y_pred.reshape(-1).astype(
            np.int64)
        counts = np.bincount(pairs, minlength=self.num_classes ** 2)
        if len(counts) > self.num_classes ** 2:
            raise ValueError(f"ConfusionMatrix.update: labels must be in [0, "
                             f"{self.num_classes})")
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise self._no_samples()
        matrix = self.confusion_matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                matrix = matrix / matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = matrix / matrix.sum(axis=0, keepdims=True)
            elif self.normalize == "all":
                matrix = matrix / matrix.sum()
        return np.nan_to_num(matrix)


def _binary_roc(scores: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, ...]:
    order = np.argsort(-scores, kind="mergesort")
    scores, truth = scores[order], truth[order]
    distinct = np.where(np.diff(scores))[0]
    ends = np.r_[distinct, truth.size - 1]
    tps = np.cumsum(truth)[ends]
    fps = 1 + ends - tps
    thresholds = np.r_[scores[ends][0] + 1, scores[ends]]
    tps, fps = np.r_[0, tps], np.r_[0, fps]
    fpr = fps / fps[-1] if fps[-1] > 0 else np.full_like(fps, np.nan, dtype=float)
    tpr = tps / tps[-1] if tps[-1] > 0 else np.full_like(tps, np.nan, dtype=float)
    return fpr, tpr, thresholds


class ROC(Metric):
    """The receiver operating characteristic: ``eval()`` returns ``(fpr, tpr, thresholds)``;
    binary for 1-D scores (positive class ``pos_label``, default 1), one curve per class for
    scores (N, C) with ``class_num``."""

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        super().__init__()
        self.class_num = class_num
        self.pos_label = 1 if pos_label is None else pos_label
        self.clear()

    def clear(self) -> None:
        self.y_pred: list[np.ndarray] = []
        self.y: list[np.ndarray] = []

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        if len(inputs) != 2:
            raise ValueError(f"ROC.update: needs 2 inputs (y_pred, y), but got {len(inputs)}")
        self.y_pred.append(self._convert_data(inputs[0]))
        self.y.append(self._convert_data(inputs[1]))

    def eval(self) -> Any:
        if not self.y:
            raise self._no_samples()
        y_pred, y = np.concatenate(self.y_pred), np.concatenate(self.y)
        if y_pred.ndim == 1:
            return _binary_roc(y_pred, (y == self.pos_label).astype(np.float64))
        classes = self.class_num or y_pred.shape[1]
        curves = [_binary_roc(y_pred[:, c], (y == c).astype(np.float64)) for c in range(classes)]
        return tuple(list(part) for part in zip(*curves))


def auc(x: Any, y: Any, reorder: bool = False) -> float:
    """The area under the curve through the points (x, y), by the trapezoidal rule."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    if x.shape != y.shape or x.ndim != 1 or x.size < 2:
        raise ValueError(f"auc: x and y must be 1-D of the same length >= 2, but got shapes "
                         f"{x.shape} and {y.shape}")
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    dx = np.diff(x)
    if (dx < 0).any() and (dx > 0).any():
        raise ValueError("auc: x must be monotonic (or pass reorder=True)")
    area = float(np.trapz(y, x) if hasattr(np, "trapz") else np.trapezoid(y, x))
    return -area if (dx <= 0).all() else area
