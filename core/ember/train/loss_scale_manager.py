"""Loss scale managers, as ``mindspore.train.loss_scale_manager``: the loss scale a training
run starts with, how it changes, and the update cell that changes it inside the training step
(``nn.TrainOneStepWithLossScaleCell``)."""

from __future__ import annotations

import abc
from typing import Any

__all__ = ["DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager"]


class LossScaleManager(abc.ABC):
    """The interface of loss scale managers."""

    @abc.abstractmethod
    def get_loss_scale(self) -> float:
        """The current loss scale."""

    @abc.abstractmethod
    def update_loss_scale(self, overflow: bool) -> None:
        """Adjust the scale on the host after a step that did (or did not) overflow."""

    @abc.abstractmethod
    def get_update_cell(self) -> Any:
        """The cell that adjusts the scale inside the training step, or None."""


class FixedLossScaleManager(LossScaleManager):
    """A loss scale that never changes: ``FixedLossScaleManager(loss_scale=128.0,
    drop_overflow_update=True)``. With ``drop_overflow_update``, steps whose gradients overflow
    are skipped; without, every step updates (then give the optimizer the same
    ``loss_scale``)."""

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, int | float):
            raise TypeError(f"FixedLossScaleManager: loss_scale must be a number, but got "
                            f"{type(loss_scale).__name__}")
        if not loss_scale >= 1:
            raise ValueError(f"FixedLossScaleManager: loss_scale must be >= 1, but got "
                             f"{loss_scale}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError(f"FixedLossScaleManager: drop_overflow_update must be a bool, but "
                            f"got {drop_overflow_update!r}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        """Whether steps that overflow are skipped."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """Nothing: the scale is fixed."""

    def get_update_cell(self) -> Any:
        """``nn.FixedLossScaleUpdateCell(loss_scale)``, or None without
        ``drop_overflow_update`` (a plain training step then suffices)."""
        if not self._drop_overflow_update:
            return None
        from ember.nn.wrap.loss_scale import FixedLossScaleUpdateCell

        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale that adapts: divided by ``scale_factor`` (not below 1) when a step
    overflows, multiplied by it after ``scale_window`` steps without overflow:
    ``DynamicLossScaleManager(init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000)``."""

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: float = 2,
                 scale_window: int = 2000) -> None:
        owner = type(self).__name__
        for name, value in (("init_loss_scale", init_loss_scale),
                            ("scale_factor", scale_factor)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"{owner}: {name} must be a number, but got "
                                f"{type(value).__name__}")
        if not init_loss_scale >= 1:
            raise ValueError(f"{owner}: init_loss_scale must be >= 1, but got "
                             f"{init_loss_scale}")
        if not scale_factor > 0:
            raise ValueError(f"{owner}: scale_factor must be > 0, but got {scale_factor}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int):
            raise TypeError(f"{owner}: scale_window must be an int, but got "
                            f"{type(scale_window).__name__}")
        if scale_window <= 0:
            raise ValueError(f"{owner}: scale_window must be > 0, but got {scale_window}")
        self.loss_scale = init_loss_scale
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def update_loss_scale(self, overflow: bool) -> None:
        """Lower the scale after an overflow; raise it every ``scale_window`` steps without
        one. More than ``bad_step_max`` overflows in a row is an error."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"DynamicLossScaleManager: the loss overflowed {self.bad_step} "
                               f"steps in a row, more than bad_step_max={self.bad_step_max}")
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        """True: steps that overflow are skipped."""
        return True

    def get_update_cell(self) -> Any:
        """``nn.DynamicLossScaleUpdateCell(loss_scale, scale_factor, scale_window)``."""
        from ember.nn.wrap.loss_scale import DynamicLossScaleUpdateCell

        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
