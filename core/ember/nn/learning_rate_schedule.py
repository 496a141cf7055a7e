"""Learning rates that change with the step: cells ``schedule(global_step) -> lr``, as
``mindspore.nn.learning_rate_schedule``.

An optimizer given a ``LearningRateSchedule`` calls it with its ``global_step`` (an Int32
Parameter of shape (1,)) at every update, so the schedule is part of the training graph. The
formulas, including their float32 arithmetic and MindSpore's quirks, are MindSpore 1.6's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F

__all__ = ["CosineDecayLR", "ExponentialDecayLR", "InverseDecayLR", "LearningRateSchedule",
           "NaturalExpDecayLR", "PolynomialDecayLR", "WarmUpLR"]


# -- argument checks shared with nn.dynamic_lr ----------------------------------------------
def check_float(owner: str, name: str, value: Any, positive: bool = True) -> float:
    """``value`` if it is a float (ints are not accepted, as in MindSpore) greater than 0, or
    at least 0 when not ``positive``."""
    if not isinstance(value, float):
        raise TypeError(f"{owner}: {name} must be a float, but got {type(value).__name__}")
    if not math.isfinite(value) or (value <= 0 if positive else value < 0):
        bound = "> 0" if positive else ">= 0"
        raise ValueError(f"{owner}: {name} must be a finite float {bound}, but got {value}")
    return value


def check_positive_int(owner: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{owner}: {name} must be an int, but got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{owner}: {name} must be > 0, but got {value}")
    return value


def check_bool(owner: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{owner}: {name} must be a bool, but got {value!r}")
    return value


# -- floor and ceiling of the non-negative values a step gives, from casts -------------------
def _floor(x: Tensor) -> Tensor:
    return F.cast(F.cast(x, mstype.int32), mstype.float32)  # truncation is floor for x >= 0


def _ceil(x: Tensor) -> Tensor:
    down = _floor(x)
    return F.add(down, F.cast(F.less(down, x), mstype.float32))


def _step(global_step: Any) -> Tensor:
    if not isinstance(global_step, Tensor):
        raise TypeError(f"a learning-rate schedule takes global_step as a Tensor, but got "
                        f"{type(global_step).__name__}")
    return F.cast(global_step, mstype.float32)


class LearningRateSchedule(Cell):
    """The base of learning-rate schedules: a subclass computes the learning rate of the step
    ``global_step`` (a Tensor) in ``construct(global_step)``, from ember ops."""


class _DecayLR(LearningRateSchedule):
    """``learning_rate``, ``decay_rate``, ``decay_steps`` and ``is_stair``, checked."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False) -> None:
        super().__init__()
        owner = type(self).__name__
        self.learning_rate = check_float(owner, "learning_rate", learning_rate)
        self.decay_rate = check_float(owner, "decay_rate", decay_rate)
        self.decay_steps = check_positive_int(owner, "decay_steps", decay_steps)
        self.is_stair = check_bool(owner, "is_stair", is_stair)

    def _ratio(self, global_step: Any) -> Tensor:
        """``global_step / decay_steps``, floored when ``is_stair``."""
        p = F.div(_step(global_step), self.decay_steps)
        return _floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** p`` with ``p = global_step / decay_steps``, floored when
    ``is_stair``: ``ExponentialDecayLR(learning_rate, decay_rate, decay_steps,
    is_stair=False)``."""

    def construct(self, global_step: Tensor) -> Tensor:
        return F.mul(F.pow(self.decay_rate, self._ratio(global_step)), self.learning_rate)


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * e ** (-decay_rate * p)``: ``NaturalExpDecayLR(learning_rate,
    decay_rate, decay_steps, is_stair=False)``. As MindSpore computes it, ``p`` is
    ``global_step`` itself, or with ``is_stair`` ``floor(global_step / decay_steps) *
    decay_steps``."""

    def construct(self, global_step: Tensor) -> Tensor:
        p = _step(global_step)
        if self.is_stair:
            p = F.mul(_floor(F.div(p, self.decay_steps)), self.decay_steps)
        return F.mul(F.pow(math.e, F.mul(p, -self.decay_rate)), self.learning_rate)


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * p)`` with ``p = global_step / decay_steps``,
    floored when ``is_stair``: ``InverseDecayLR(learning_rate, decay_rate, decay_steps,
    is_stair=False)``."""

    def construct(self, global_step: Tensor) -> Tensor:
        denominator = F.add(F.mul(self._ratio(global_step), self.decay_rate), 1.0)
        return F.div(self.learning_rate, denominator)


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(global_step, decay_steps) /
    decay_steps))``: ``CosineDecayLR(min_lr, max_lr, decay_steps)``.

    ``global_step`` is an integer Tensor (the optimizer's step counter); the
    ``decay_steps + 1`` values the formula can take are computed once, here, and looked up.
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        owner = type(self).__name__
        self.min_lr = check_float(owner, "min_lr", min_lr, positive=False)
        self.max_lr = check_float(owner, "max_lr", max_lr)
        self.decay_steps = check_positive_int(owner, "decay_steps", decay_steps)
        if min_lr >= max_lr:
            raise ValueError(f"{owner}: max_lr must be greater than min_lr, but got min_lr "
                             f"{min_lr} and max_lr {max_lr}")
        steps = np.arange(decay_steps + 1)
        table = min_lr + 0.5 * (max_lr - min_lr) * (1 + np.cos(np.pi * steps / decay_steps))
        self.table = Tensor(table.astype(np.float32))

    def construct(self, global_step: Tensor) -> Tensor:
        if not isinstance(global_step, Tensor) or global_step.dtype not in mstype.int_type:
            got = global_step.dtype if isinstance(global_step, Tensor) else type(global_step)
            raise TypeError(f"CosineDecayLR: global_step must be an integer Tensor (a step "
                            f"number), but got {got}")
        return F.gather(self.table, F.minimum(global_step, self.decay_steps), 0)


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - step / decay) ** power +
    end_learning_rate`` with ``step = min(global_step, decay_steps)`` and ``decay =
    decay_steps``; with ``update_decay_steps``, ``step = global_step`` and ``decay =
    decay_steps * max(ceil(global_step / decay_steps), 1)``:
    ``PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power,
    update_decay_steps=False)``."""

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int,
                 power: float, update_decay_steps: bool = False) -> None:
        super().__init__()
        owner = type(self).__name__
        self.start_learning_rate = check_float(owner, "learning_rate", learning_rate)
        self.end_learning_rate = check_float(owner, "end_learning_rate", end_learning_rate,
                                             positive=False)
        self.decay_steps = check_positive_int(owner, "decay_steps", decay_steps)
        self.power = check_float(owner, "power", power)
        self.update_decay_steps = check_bool(owner, "update_decay_steps", update_decay_steps)
        self.diff_learning_rate = learning_rate - end_learning_rate

    def construct(self, global_step: Tensor) -> Tensor:
        step = _step(global_step)
        if self.update_decay_steps:
            periods = F.maximum(_ceil(F.div(step, self.decay_steps)), 1.0)
            p = F.div(step, F.mul(periods, self.decay_steps))
        else:
            p = F.div(F.minimum(step, float(self.decay_steps)), self.decay_steps)
        decayed = F.pow(F.sub(1.0, p), self.power)
        return F.add(F.mul(decayed, self.diff_learning_rate), self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(global_step, warmup_steps) / warmup_steps``:
    ``WarmUpLR(learning_rate, warmup_steps)``."""

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        owner = type(self).__name__
        self.learning_rate = check_float(owner, "learning_rate", learning_rate, positive=False)
        self.warmup_steps = check_positive_int(owner, "warmup_steps", warmup_steps)

    def construct(self, global_step: Tensor) -> Tensor:
        if not isinstance(global_step, Tensor):
            _step(global_step)  # raises, naming the argument
        warmed = F.cast(F.minimum(global_step, self.warmup_steps), mstype.float32)
        return F.mul(F.div(warmed, self.warmup_steps), self.learning_rate)
