"""``SGD``: stochastic gradient descent with optional momentum, dampening and Nesterov."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.optim.optimizer import Optimizer, _check_bool, _non_negative
from ember.ops.operations.optim_ops import SGD as ApplySGD


class SGD(Optimizer):
    """``SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
    nesterov=False, loss_scale=1.0)``, as PyTorch defines it: ``g = gradient + weight_decay *
    param`` (every parameter: the decay happens in the update); with momentum,
    ``accum = g`` on the first step, then ``accum = momentum * accum + (1 - dampening) * g``,
    and ``g = accum`` (Nesterov: ``g + momentum * accum``); ``param -= lr * g``.

    The state is ``accum.<name>`` (zeros) and ``stat.<name>`` (ones until the first step).
    Parameter groups may set their own ``weight_decay``."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = type(self).__name__
        momentum = _non_negative(owner, "momentum", momentum)
        self.dampening = _non_negative(owner, "dampening", dampening)
        self.nesterov = _check_bool(owner, "nesterov", nesterov)
        if nesterov and (momentum <= 0.0 or self.dampening != 0.0):
            raise ValueError(f"{owner}: nesterov needs momentum > 0 and dampening 0.0, but got "
                             f"momentum {momentum} and dampening {dampening}")
        kernels: dict[float, ApplySGD] = {}
        self.opts = tuple(kernels.setdefault(d, ApplySGD(self.dampening, d, nesterov))
                          for d in self.group_decay_values)
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum",
                                  requires_grad=False)
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.stat = self.parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.scale_grad(gradients)
        gradients = self.gradients_centralization(gradients)
        lrs = self._each_lr(self.get_lr())
        return tuple(opt(p, g, lr, a, self.momentum, s) for opt, p, g, lr, a, s in zip(
            self.opts, self.parameters, gradients, lrs, self.accum, self.stat))
