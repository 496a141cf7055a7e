"""``ASGD``: averaged stochastic gradient descent, as ``mindspore.nn.ASGD`` (MindSpore 1.6)."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.tensor import Tensor
from ember.nn.optim.adaptive import _either, _fp32, _Rule
from ember.ops import functional as F
from ember.ops.operations.optim_ops import assign, assign_add


def _check_floats(owner: str, **values: Any) -> None:
    for name, value in values.items():
        if not isinstance(value, float):  # MindSpore takes floats only here
            raise TypeError(f"{owner}: {name} must be a float, but got {value!r}")


class ASGD(_Rule):
    """``ASGD(params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0)``:
    with ``eta`` the learning rate on the first step, ``param = param * (1 - lambd * eta) -
    eta * g``; the average ``ax`` becomes ``param`` while ``mu`` is 1, else ``ax += (param -
    ax) * mu``; then ``eta = lr / (1 + lambd * lr * step) ** alpha`` and ``mu = 1 / max(1,
    step - t0)``, ``step`` counting the updates from 1. Computed in float32. The state is
    ``mu_<name>``, ``eta_<name>`` (scalars), ``ax_.<name>`` and ``step``."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_floats("ASGD", lambd=lambd, alpha=alpha, t0=t0)
        self.lambd, self.alpha, self.t0 = lambd, alpha, t0
        self.mu = ParameterTuple([Parameter(Tensor(1.0, mstype.float32), f"mu_{p.name}")
                                  for p in self.parameters])
        self.eta = ParameterTuple([Parameter(Tensor(0.0, mstype.float32), f"eta_{p.name}")
                                   for p in self.parameters])
        self.step = Parameter(Tensor(1.0, mstype.float32), "step")
        self.ax = self.parameters.clone(prefix="ax_", init="zeros")
        self.state_names = ("mu", "eta", "ax")

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        out = super().construct(gradients)
        assign_add(self.step, Tensor(1.0, mstype.float32))
        return out

    def _update(self, p: Tensor, lr: Any, g: Tensor, mu: Tensor, eta: Tensor,
                ax: Tensor) -> Tensor:
        lr = F.reshape(_fp32(lr), ())
        eta_t = _either(F.cast(F.equal(self.step, 1.0), mstype.float32), lr, eta)
        new_p = F.sub(F.mul(_fp32(p), F.sub(1.0, F.mul(eta_t, self.lambd))),
                      F.mul(eta_t, _fp32(g)))
        out = assign(p, F.cast(new_p, p.dtype))
        averaged = F.add(_fp32(ax), F.mul(F.sub(new_p, _fp32(ax)), mu))
        assign(ax, F.cast(_either(F.cast(F.equal(mu, 1.0), mstype.float32), new_p, averaged),
                          ax.dtype))
        decay = F.pow(F.add(F.mul(F.mul(lr, self.lambd), self.step), 1.0), self.alpha)
        assign(eta, F.real_div(lr, decay))
        assign(mu, F.real_div(1.0, F.maximum(F.sub(self.step, self.t0), 1.0)))
        return out
