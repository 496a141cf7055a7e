"""Regression errors, as ``mindspore.nn.MAE`` and ``mindspore.nn.MSE``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.nn.metrics.metric import Metric, rearrange_inputs


class _SampleError(Metric):
    """Sum of ``_error(y_pred - y)`` over all elements, divided by the number of samples
    (the first dimension of ``y``) seen since ``clear``."""

    _error: Callable[[np.ndarray], np.ndarray]  # set by each subclass

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._error_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch: ``update(y_pred, y)``, ``y`` reshaped to ``y_pred``'s shape."""
        if len(inputs) != 2:
            raise ValueError(f"{type(self).__name__}.update: needs 2 inputs (y_pred, y), but "
                             f"got {len(inputs)}")
        y_pred, y = (self._convert_data(x) for x in inputs)
        if y.size != y_pred.size:
            raise ValueError(f"{type(self).__name__}.update: y has {y.size} elements and y_pred "
                             f"{y_pred.size}; they must match")
        self._error_sum += float(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self) -> float:
        if self._samples_num == 0:
            raise self._no_samples()
        return self._error_sum / self._samples_num


class MAE(_SampleError):
    """Mean absolute error: the sum of ``|y - y_pred|`` per sample."""

    _error = staticmethod(np.abs)


class MSE(_SampleError):
    """Mean squared error: the sum of ``(y - y_pred)**2`` per sample."""

    _error = staticmethod(np.square)
