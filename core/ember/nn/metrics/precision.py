"""Precision and recall, as ``mindspore.nn.Precision`` and ``mindspore.nn.Recall``."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ember.nn.metrics.metric import EvaluationBase, rearrange_inputs


class _PrecisionRecall(EvaluationBase):
    """True positives over positives: predicted positives (precision) or actual ones (recall).

    'classification': one value per class, accumulated over updates. 'multilabel': one value per
    sample (as MindSpore), concatenated over updates. ``eval(average=True)``: their mean.
    """

    _over_predicted: bool

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        self._class_num = 0
        empty = np.empty(0) if self._type == "multilabel" else 0
        self._true_positives: Any = empty
        self._positives: Any = empty

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        y_pred, y = self._prepare(inputs)
        classes = self._class_num
        if self._type == "classification":
            one_hot = np.eye(classes)
            y = one_hot[y.reshape(-1)]
            y_pred = one_hot[y_pred.argmax(axis=1).reshape(-1)]
            true_positives = (y * y_pred).sum(axis=0)
            positives = (y_pred if self._over_predicted else y).sum(axis=0)
            self._true_positives = self._true_positives + true_positives
            self._positives = self._positives + positives
        else:
            y_pred = y_pred.swapaxes(0, 1).reshape(classes, -1)
            y = y.swapaxes(0, 1).reshape(classes, -1)
            true_positives = (y * y_pred).sum(axis=0)
            positives = (y_pred if self._over_predicted else y).sum(axis=0)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._positives = np.concatenate((self._positives, positives))

    def eval(self, average: bool = False) -> np.ndarray | np.float64:
        """Per class ('classification') or per sample ('multilabel'); their mean if
        ``average``."""
        if self._class_num == 0:
            raise self._no_samples()
        if not isinstance(average, bool):
            raise TypeError(f"{type(self).__name__}.eval: average must be a bool, but got "
                            f"{type(average).__name__}")
        result = self._true_positives / (self._positives + self.eps)
        return result.mean() if average else result


class Precision(_PrecisionRecall):
    """Precision, ``true_positive / (true_positive + false_positive)``."""

    _over_predicted = True


class Recall(_PrecisionRecall):
    """Recall, ``true_positive / (true_positive + false_negative)``."""

    _over_predicted = False
