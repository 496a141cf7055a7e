"""Accuracy, as ``mindspore.nn.Accuracy``."""

from __future__ import annotations

from typing import Any

from ember.nn.metrics.metric import EvaluationBase, rearrange_inputs


class Accuracy(EvaluationBase):
    """The fraction of samples predicted right.

    'classification': the arg-max of ``y_pred`` over axis 1 equals the label. 'multilabel': every
    class of a sample matches. ``eval()`` is a float.
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        y_pred, y = self._prepare(inputs)
        if self._type == "classification":
            right = y_pred.argmax(axis=1) == y
        else:
            classes = self._class_num
            right = (y_pred.swapaxes(1, -1).reshape(-1, classes)
                     == y.swapaxes(1, -1).reshape(-1, classes)).all(axis=1)
        self._correct_num += int(right.sum())
        self._total_num += int(right.size)

    def eval(self) -> float:
        if self._total_num == 0:
            raise self._no_samples()
        return self._correct_num / self._total_num
