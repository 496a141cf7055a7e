"""Loss scaling, as ``mindspore.nn.wrap.loss_scale``: ``TrainOneStepWithLossScaleCell`` and the
cells that update the scale, ``DynamicLossScaleUpdateCell`` and ``FixedLossScaleUpdateCell``.

The training step scales the loss's gradient by the loss scale (so small float16 gradients do
not vanish), divides the gradients back, and skips the optimizer's update when a gradient is
infinite or NaN. Everything is expressed with primitives, so the step, skip included, is one
graph in GRAPH_MODE: the optimizer's state is saved before its update and put back with
``Select`` on overflow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.optim.optimizer import Optimizer
from ember.nn.wrap.cell_wrapper import TrainOneStepCell
from ember.ops import functional as F
from ember.ops.composite.grad import value_and_grad
from ember.ops.operations.optim_ops import FloatStatus, assign

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell"]


def _check_scale(owner: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{owner}: {name} must be a number, but got {type(value).__name__}")
    if not value > 0:
        raise ValueError(f"{owner}: {name} must be > 0, but got {value}")
    return value


def _check_overflow(owner: str, overflow: Any) -> Tensor:
    """``overflow`` (a Bool tensor of one element) as a 0-d tensor."""
    if not isinstance(overflow, Tensor) or overflow.dtype is not mstype.bool_ or \
            overflow.size != 1:
        got = (f"shape {list(overflow.shape)}, dtype {overflow.dtype}"
               if isinstance(overflow, Tensor) else type(overflow).__name__)
        raise TypeError(f"{owner}: overflow must be a Bool Tensor of one element, but got {got}")
    return F.reshape(overflow, ())


class DynamicLossScaleUpdateCell(Cell):
    """Updates the loss scale (a Parameter) after each step: on overflow it is divided by
    ``scale_factor`` (not below 1); after ``scale_window`` steps in a row without overflow it is
    multiplied by ``scale_factor``. ``DynamicLossScaleUpdateCell(loss_scale_value,
    scale_factor, scale_window)``; called as ``cell(loss_scale, overflow)``, it returns
    ``overflow``. The step counters are the Parameters ``current_iterator_step`` and
    ``last_overflow_iterator_step``."""

    def __init__(self, loss_scale_value: float, scale_factor: float,
                 scale_window: int) -> None:
        super().__init__()
        owner = type(self).__name__
        self.loss_scale_value = _check_scale(owner, "loss_scale_value", loss_scale_value)
        _check_scale(owner, "scale_factor", scale_factor)
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or \
                scale_window < 1:
            raise ValueError(f"{owner}: scale_window must be an int >= 1, but got "
                             f"{scale_window!r}")
        self.scale_window = Tensor(scale_window, mstype.int32)
        self.scale_factor = Tensor(scale_factor, mstype.float32)
        self.minimum_loss_scale = Tensor(1.0, mstype.float32)
        self.cur_iter = Parameter(Tensor(1, mstype.int32), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(0, mstype.int32),
                                            name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self) -> float:
        """The initial loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow: Tensor) -> Tensor:
        overflow = _check_overflow(self.cls_name, overflow)
        factor = F.cast(self.scale_factor, loss_scale.dtype)
        like_scale = F.reshape(overflow, loss_scale.shape)
        lowered = F.maximum(F.mul(loss_scale, F.reciprocal(factor)),
                            F.cast(self.minimum_loss_scale, loss_scale.dtype))
        scale_on_overflow = F.select(like_scale, lowered, loss_scale)
        should_inc = F.less_equal(self.scale_window,
                                  F.sub(self.cur_iter, self.last_overflow_iter))
        last_overflow_iter = F.select(F.logical_or(overflow, should_inc), self.cur_iter,
                                      self.last_overflow_iter)
        raise_scale = F.logical_and(should_inc, F.logical_not(overflow))
        new_scale = F.select(F.reshape(raise_scale, loss_scale.shape),
                             F.mul(scale_on_overflow, factor), scale_on_overflow)
        next_iter = F.add(self.cur_iter, 1)
        assign(self.last_overflow_iter, last_overflow_iter)
        assign(loss_scale, new_scale)
        assign(self.cur_iter, next_iter)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """Keeps the loss scale as it is: ``FixedLossScaleUpdateCell(loss_scale_value)``; called as
    ``cell(loss_scale, overflow)``, it returns ``overflow``."""

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = _check_scale(type(self).__name__, "loss_scale_value",
                                             loss_scale_value)

    def get_loss_scale(self) -> float:
        """The loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow: Tensor) -> Tensor:
        return _check_overflow(self.cls_name, overflow)


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One training step with loss scaling: ``TrainOneStepWithLossScaleCell(network, optimizer,
    scale_sense)`` returns ``(loss, overflow, loss_scale)``, the scale being the one this step
    used.

    ``scale_sense`` is an update cell (``DynamicLossScaleUpdateCell`` or
    ``FixedLossScaleUpdateCell``), whose initial scale becomes the Parameter ``scale_sense``, or
    a Tensor of shape () or (1,): a scale that only :meth:`set_sense_scale` changes. The loss's
    gradient is the scale, the parameters' gradients are divided by it, and when one of them is
    infinite or NaN the optimizer's update is skipped (its parameters and state keep their
    values) and the update cell lowers the scale.
    """

    def __init__(self, network: Cell, optimizer: Optimizer, scale_sense: Any) -> None:
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = Tensor(scale_sense.get_loss_scale(), mstype.float32)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ValueError(f"TrainOneStepWithLossScaleCell: scale_sense must have shape "
                                 f"() or (1,), but got {list(scale_sense.shape)}")
            value = scale_sense
        else:
            raise TypeError(f"TrainOneStepWithLossScaleCell: scale_sense must be a Cell (a loss "
                            f"scale update cell) or a Tensor, but got "
                            f"{type(scale_sense).__name__}")
        self.scale_sense = Parameter(value, name="scale_sense", requires_grad=False)
        self.base = Tensor(1, mstype.float32)
        self.float_status = FloatStatus()
        # what the optimizer may change, saved before its update for a skipped step
        self._optimizer_state = tuple(optimizer.get_parameters())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is detected, not warned
            return super().__call__(*args, **kwargs)

    def construct(self, *inputs: Any) -> tuple[Tensor, Tensor, Tensor]:
        scale = self.scale_sense
        used_scale = F.cast(scale, scale.dtype)  # a copy: the update cell changes the scale
        losses: list[Tensor] = []

        def scaled_loss(*args: Any) -> Tensor:
            loss = self.network(*args)
            losses.append(loss)
            return F.mul(loss, F.cast(scale, loss.dtype))  # the loss's gradient is the scale

        _, _, grads = value_and_grad(scaled_loss, inputs, self.weights, wrt_inputs=False)
        inverse = F.reciprocal(F.cast(scale, mstype.float32))
        grads = tuple(F.mul(g, F.cast(inverse, g.dtype)) for g in grads)
        if self.reducer_flag:  # the same gradients, overflow included, everywhere
            grads = self.grad_reducer(grads)
        status, grads = self.start_overflow_check(losses[0], grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        self._update_unless(overflow, grads)
        return losses[0], cond, used_scale

    def _update_unless(self, overflow: Tensor, grads: tuple[Tensor, ...]) -> None:
        """The optimizer's update, undone with ``Select`` where ``overflow`` holds."""
        saved = [F.cast(p, p.dtype) for p in self._optimizer_state]  # Cast makes copies
        self.optimizer(grads)
        for param, value in zip(self._optimizer_state, saved):
            skip = F.broadcast_to(F.reshape(overflow, (1,) * param.ndim), param.shape)
            assign(param, F.select(skip, value, param))

    def set_sense_scale(self, sens: Tensor) -> None:
        """Set the loss scale to ``sens``, a Tensor of the scale's shape."""
        if not isinstance(sens, Tensor):
            raise TypeError(f"TrainOneStepWithLossScaleCell: set_sense_scale takes a Tensor, "
                            f"but got {type(sens).__name__}")
        self.scale_sense.set_data(sens)

    def start_overflow_check(self, pre_cond: Any, compute_input: Any) -> tuple[Any, Any]:
        """Start detecting overflow in ``compute_input``: returns ``(status, compute_input)``
        (the status is False: ember checks the gradients' values themselves)."""
        return False, compute_input

    def get_overflow_status(self, status: Any, compute_output: tuple[Tensor, ...]) -> Tensor:
        """A Bool scalar: whether a tensor of ``compute_output`` has an infinity or NaN."""
        flags = [F.cast(self.float_status(g), mstype.float32) for g in compute_output]
        flag_sum = F.reshape(F.addn(flags) if len(flags) > 1 else flags[0], ())
        return F.less_equal(self.base, flag_sum)

    def process_loss_scale(self, overflow: Tensor) -> Tensor:
        """Update the loss scale by the update cell, if there is one; returns ``overflow``."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
