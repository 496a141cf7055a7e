"""Top-k categorical accuracy, as ``mindspore.nn.TopKCategoricalAccuracy``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.nn.metrics.metric import Metric, rearrange_inputs


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the ``k`` highest scores of ``y_pred``
    (N, C); ``y`` holds class indices (N,) or is one-hot (N, C). Ties go to the lower class."""

    def __init__(self, k: int) -> None:
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"{type(self).__name__}: k must be an int, but got "
                            f"{type(k).__name__}")
        if k < 1:
            raise ValueError(f"{type(self).__name__}: k must be at least 1, but got {k}")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        where = f"{type(self).__name__}.update"
        if len(inputs) != 2:
            raise ValueError(f"{where}: needs 2 inputs (y_pred, y), but got {len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and self._check_onehot_data(y):
            y = y.argmax(axis=1)
        if y_pred.ndim != 2 or y.shape != y_pred.shape[:1]:
            raise ValueError(f"{where}: y_pred must be (N, C) and y (N,) class indices or (N, C) "
                             f"one-hot, but got shapes {y_pred.shape} and {y.shape}")
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        self._correct_num += int((top == y.reshape(-1, 1)).any(axis=1).sum())
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        if self._samples_num == 0:
            raise self._no_samples()
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy(1)``."""

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """``TopKCategoricalAccuracy(5)``."""

    def __init__(self) -> None:
        super().__init__(5)
