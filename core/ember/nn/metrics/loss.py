"""The average loss, as ``mindspore.nn.Loss``."""

from __future__ import annotations

from typing import Any

from ember.nn.metrics.metric import Metric, rearrange_inputs


class Loss(Metric):
    """The mean over updates of each update's loss (a scalar, or a vector whose mean is taken)."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._sum_loss = 0.0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one loss value (0-d or 1-d)."""
        if len(inputs) != 1:
            raise ValueError(f"Loss.update: needs 1 input (the loss), but got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim > 1:
            raise ValueError(f"Loss.update: the loss must be 0-d or 1-d, but got shape "
                             f"{loss.shape}")
        self._sum_loss += float(loss.mean())
        self._total_num += 1

    def eval(self) -> float:
        if self._total_num == 0:
            raise self._no_samples()
        return self._sum_loss / self._total_num
