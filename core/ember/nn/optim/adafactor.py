"""``AdaFactor``: adaptive learning rates with sublinear memory cost, as
``mindspore.nn.AdaFactor`` (MindSpore 1.6), each parameter updated by the ``FusedAdaFactor``
primitive (the step MindSpore runs on the CPU)."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.initializer import initializer
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.tensor import Tensor
from ember.nn.optim.optimizer import Optimizer, _check_bool
from ember.ops import functional as F
from ember.ops.operations.fused_optim_ops import FusedAdaFactor
from ember.ops.operations.optim_ops import assign_add


def _float(name: str, value: Any, low: float = 0.0, high: float | None = None,
           types: tuple[type, ...] = (float,)) -> float:
    """``value`` of ``types``, at least ``low`` (and below ``high``)."""
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"AdaFactor: {name} must be a float, but got {value!r}")
    if value < low or (high is not None and value >= high):
        bounds = f"in [{low}, {high})" if high is not None else f">= {low}"
        raise ValueError(f"AdaFactor: {name} must be {bounds}, but got {value}")
    return float(value)


class AdaFactor(Optimizer):
    """``AdaFactor(params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
    decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True,
    warmup_init=False, compression=False, loss_scale=1.0)``.

    At step ``t`` (from 1), the second moments decay with ``beta2t = 1 - t ** -decay_rate``;
    with ``relative_step`` the learning rate is ``min(1e-2, 1 / sqrt(t))`` (``1e-6 * t`` in
    place of 1e-2 with ``warmup_init``), else ``learning_rate``; ``scale_parameter`` scales it
    by the root mean square of the parameter (at least ``eps[1]``); see ``FusedAdaFactor``
    for the step. Matrices (rank >= 2) keep factored second moments ``exp_avg_sq_row_<name>``
    and ``exp_avg_sq_col_<name>``, vectors ``exp_avg_sq_<name>``; ``beta1 > 0`` keeps the
    first moment ``exp_avg.<name>``; the step counter is ``afactor_step``. The gradients are
    used as given (no loss-scale division), as MindSpore's."""

    def __init__(self, params: Any, learning_rate: Any = None, eps: Any = (1e-30, 1e-3),
                 clip_threshold: float = 1.0, decay_rate: float = 0.8, beta1: Any = 0.9,
                 weight_decay: float = 0.0, scale_parameter: bool = True,
                 relative_step: bool = True, warmup_init: bool = False,
                 compression: bool = False, loss_scale: float = 1.0) -> None:
        if learning_rate is not None and relative_step:
            raise ValueError("AdaFactor: a learning_rate cannot be combined with relative_step "
                             f"(got learning_rate {learning_rate!r})")
        if warmup_init and not relative_step:
            raise ValueError("AdaFactor: warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("AdaFactor: learning_rate must be given when relative_step is "
                             "False")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        scale_lr = isinstance(learning_rate, float | int)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.scale_lr = scale_lr
        if not isinstance(eps, list | tuple):
            raise TypeError(f"AdaFactor: eps must be a list or tuple, but got "
                            f"{type(eps).__name__}")
        if len(eps) != 2:
            raise ValueError(f"AdaFactor: eps must have 2 values (eps1, eps2), but got "
                             f"{len(eps)}")
        eps = tuple(_float(f"eps{i}", e) for i, e in enumerate(eps))
        clip_threshold = _float("clip_threshold", clip_threshold)
        if not isinstance(decay_rate, float) or not 0.0 < decay_rate < 1.0:
            raise (TypeError if not isinstance(decay_rate, float) else ValueError)(
                f"AdaFactor: decay_rate must be a float in (0.0, 1.0), but got {decay_rate!r}")
        weight_decay = _float("weight_decay", weight_decay, high=1.0, types=(float, int))
        for name, flag in (("scale_parameter", scale_parameter),
                           ("relative_step", relative_step), ("warmup_init", warmup_init),
                           ("compression", compression)):
            _check_bool("AdaFactor", name, flag)
        beta1 = _float("beta1", beta1, types=(float, int))
        self.eps = Tensor(eps, mstype.float32)
        self.clip_threshold = Tensor(clip_threshold, mstype.float32)
        self.decay_rate = -decay_rate
        self.beta1 = Tensor(beta1, mstype.float32)
        self.weight_decay_tensor = Tensor(weight_decay, mstype.float32)
        self.relative_step, self.warmup_init = relative_step, warmup_init
        self.scale_parameter = scale_parameter and self.scale_lr
        self.compression = compression
        self.use_first_moment = beta1 > 0
        self._init_state()
        self.step = Parameter(initializer(0, [1], mstype.float32), "afactor_step")
        self.fused_ada_factor = FusedAdaFactor(self.scale_parameter, self.use_first_moment,
                                               bool(weight_decay))

    def _init_state(self) -> None:
        if self.use_first_moment:
            self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        else:
            placeholder = Parameter(Tensor(0.0, mstype.float32), "exp_avg")
            self.exp_avg = ParameterTuple([placeholder] * len(self.parameters))
        rows, cols, squares = [], [], []
        for p in self.parameters:
            shape, dtype, name = p.shape, p.dtype, p.name
            factored = len(shape) > 1
            rows.append(Parameter(initializer(0, shape[:-1] if factored else (1,), dtype),
                                  f"exp_avg_sq_row_{name}"))
            cols.append(Parameter(initializer(
                0, shape[:-2] + shape[-1:] if factored else (1,), dtype),
                f"exp_avg_sq_col_{name}"))
            sq_dtype = mstype.float16 if self.compression and not factored else dtype
            squares.append(Parameter(initializer(0, (1,) if factored else shape, sq_dtype),
                                     f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(squares)

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        lr = self.get_lr()
        step = assign_add(self.step, Tensor([1.0], mstype.float32))
        if self.scale_lr and self.relative_step:
            floor = F.mul(step, 1e-6) if self.warmup_init else 1e-2
            lrs = (F.minimum(floor, F.real_div(1.0, F.sqrt(step))),) * len(self.parameters)
        else:
            lrs = self._each_lr(lr)
        beta2t = F.sub(1.0, F.pow(step, self.decay_rate))
        return tuple(
            self.fused_ada_factor(self.eps, self.clip_threshold, self.beta1, beta2t,
                                  self.weight_decay_tensor, rate, g, p, m, row, col, sq)
            for rate, g, p, m, row, col, sq in zip(
                lrs, gradients, self.parameters, self.exp_avg, self.exp_avg_sq_row,
                self.exp_avg_sq_col, self.exp_avg_sq))
