"""Learning rates for every step computed ahead, as lists, as ``mindspore.nn.dynamic_lr``.

Pass the list to an optimizer as its ``learning_rate``: step ``i`` uses item ``i``. The epoch of
step ``i`` is ``floor(i / step_per_epoch)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ember.nn.learning_rate_schedule import check_bool, check_float, check_positive_int

__all__ = ["cosine_decay_lr", "exponential_decay_lr", "inverse_decay_lr",
           "natural_exp_decay_lr", "piecewise_constant_lr", "polynomial_decay_lr", "warmup_lr"]


def piecewise_constant_lr(milestone: Sequence[int], learning_rates: Sequence[float]
                          ) -> list[float]:
    """``learning_rates[t]`` for the steps in ``[milestone[t-1], milestone[t])``; the list has
    ``milestone[-1]`` items. ``milestone`` is increasing, of positive ints."""
    owner = "piecewise_constant_lr"
    for name, value in (("milestone", milestone), ("learning_rates", learning_rates)):
        if not isinstance(value, list | tuple):
            raise TypeError(f"{owner}: {name} must be a list or tuple, but got "
                            f"{type(value).__name__}")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"{owner}: milestone and learning_rates must have the same length, "
                         f"but got {len(milestone)} and {len(learning_rates)}")
    lr: list[float] = []
    last = 0
    for i, (step, rate) in enumerate(zip(milestone, learning_rates)):
        check_positive_int(owner, f"milestone[{i}]", step)
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not math.isfinite(
                rate):
            raise TypeError(f"{owner}: learning_rates[{i}] must be a finite number, but got "
                            f"{rate!r}")
        if step < last:
            raise ValueError(f"{owner}: milestone must increase, but milestone[{i}] = {step} "
                             f"is below milestone[{i - 1}] = {last}")
        lr += [rate] * (step - last)
        last = step
    return lr


def _per_step(owner: str, total_step: Any, step_per_epoch: Any, epochs: tuple[str, Any],
              rate: Callable[[int], float]) -> list[float]:
    """``rate(epoch)`` for each of ``total_step`` steps, the arguments checked."""
    check_positive_int(owner, "total_step", total_step)
    check_positive_int(owner, "step_per_epoch", step_per_epoch)
    check_positive_int(owner, *epochs)
    return [rate(i // step_per_epoch) for i in range(total_step)]


def _check_decay(owner: str, learning_rate: Any, decay_rate: Any, is_stair: Any) -> None:
    check_float(owner, "learning_rate", learning_rate)
    check_float(owner, "decay_rate", decay_rate)
    check_bool(owner, "is_stair", is_stair)


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                         step_per_epoch: int, decay_epoch: int, is_stair: bool = False
                         ) -> list[float]:
    """``learning_rate * decay_rate ** (epoch / decay_epoch)`` (the exponent floored when
    ``is_stair``) for each of ``total_step`` steps."""
    _check_decay("exponential_decay_lr", learning_rate, decay_rate, is_stair)

    def rate(epoch: int) -> float:
        p = epoch // decay_epoch if is_stair else epoch / decay_epoch
        return learning_rate * decay_rate ** p

    return _per_step("exponential_decay_lr", total_step, step_per_epoch,
                     ("decay_epoch", decay_epoch), rate)


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                         step_per_epoch: int, decay_epoch: int, is_stair: bool = False
                         ) -> list[float]:
    """``learning_rate * e ** (-decay_rate * epoch)``, with ``epoch`` rounded down to a
    multiple of ``decay_epoch`` when ``is_stair``, for each of ``total_step`` steps."""
    _check_decay("natural_exp_decay_lr", learning_rate, decay_rate, is_stair)

    def rate(epoch: int) -> float:
        p = epoch // decay_epoch * decay_epoch if is_stair else epoch
        return learning_rate * math.e ** (-decay_rate * p)

    return _per_step("natural_exp_decay_lr", total_step, step_per_epoch,
                     ("decay_epoch", decay_epoch), rate)


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                     step_per_epoch: int, decay_epoch: int, is_stair: bool = False
                     ) -> list[float]:
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` (the ratio floored when
    ``is_stair``) for each of ``total_step`` steps."""
    _check_decay("inverse_decay_lr", learning_rate, decay_rate, is_stair)

    def rate(epoch: int) -> float:
        if is_stair:
            return learning_rate / (1 + decay_rate * (epoch // decay_epoch))
        return learning_rate / (1 + decay_rate * epoch / decay_epoch)

    return _per_step("inverse_decay_lr", total_step, step_per_epoch,
                     ("decay_epoch", decay_epoch), rate)


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list[float]:
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(epoch, decay_epoch) /
    decay_epoch))`` for each of ``total_step`` steps."""
    owner = "cosine_decay_lr"
    check_float(owner, "min_lr", min_lr, positive=False)
    check_float(owner, "max_lr", max_lr)
    if min_lr >= max_lr:
        raise ValueError(f"{owner}: max_lr must be greater than min_lr, but got min_lr "
                         f"{min_lr} and max_lr {max_lr}")
    delta = 0.5 * (max_lr - min_lr)

    def rate(epoch: int) -> float:
        return min_lr + delta * (1 + math.cos(math.pi * min(epoch, decay_epoch) / decay_epoch))

    return _per_step(owner, total_step, step_per_epoch, ("decay_epoch", decay_epoch), rate)


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int,
                        step_per_epoch: int, decay_epoch: int, power: float,
                        update_decay_epoch: bool = False) -> list[float]:
    """``(learning_rate - end_learning_rate) * (1 - e / d) ** power + end_learning_rate`` with
    ``e = min(epoch, decay_epoch)`` and ``d = decay_epoch``; with ``update_decay_epoch``,
    ``e = epoch`` and ``d = decay_epoch * max(ceil(epoch / decay_epoch), 1)``."""
    owner = "polynomial_decay_lr"
    check_float(owner, "learning_rate", learning_rate)
    check_float(owner, "end_learning_rate", end_learning_rate, positive=False)
    check_float(owner, "power", power)
    check_bool(owner, "update_decay_epoch", update_decay_epoch)
    delta = learning_rate - end_learning_rate

    def rate(epoch: int) -> float:
        if update_decay_epoch:
            decay, done = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            decay, done = decay_epoch, min(epoch, decay_epoch)
        return delta * (1 - done / decay) ** power + end_learning_rate

    return _per_step(owner, total_step, step_per_epoch, ("decay_epoch", decay_epoch), rate)


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int,
              warmup_epoch: int) -> list[float]:
    """``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` for each of ``total_step``
    steps."""
    check_float("warmup_lr", "learning_rate", learning_rate, positive=False)

    def rate(epoch: int) -> float:
        return learning_rate * min(epoch, warmup_epoch) / warmup_epoch

    return _per_step("warmup_lr", total_step, step_per_epoch, ("warmup_epoch", warmup_epoch),
                     rate)
