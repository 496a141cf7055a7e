"""``Rprop``: resilient backpropagation, as ``mindspore.nn.Rprop`` (MindSpore 1.6)."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.optim.adaptive import _either, _fp32, _Rule
from ember.ops import functional as F
from ember.ops.operations.optim_ops import assign, assign_add


def _pair(name: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, tuple):
        raise TypeError(f"Rprop: {name} must be a tuple, but got {type(value).__name__}")
    if len(value) != 2:
        raise ValueError(f"Rprop: {name} must be a tuple of 2 floats, but got {len(value)} "
                         "values")
    return value


class Rprop(_Rule):
    """``Rprop(params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0),
    weight_decay=0.0)``: each element's step size (the learning rate at first) is multiplied
    by ``etaplus`` where the gradient kept its sign since the last step, by ``etaminus`` where
    it flipped (and that gradient is then taken as 0), and clipped to ``step_sizes``;
    ``param -= sign(g) * step_size``. Computed in float32. The state is ``prev.<name>`` (the
    last gradient), ``step_size.<name>`` and ``step``."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50.0), weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        etaminus, etaplus = _pair("etas", etas)
        smallest, largest = _pair("step_sizes", step_sizes)
        for name, value in (("etaminus", etaminus), ("etaplus", etaplus),
                            ("min_step_sizes", smallest), ("max_step_sizes", largest)):
            if not isinstance(value, float):
                raise TypeError(f"Rprop: {name} must be a float, but got {value!r}")
        if smallest > largest:
            raise ValueError(f"Rprop: the maximal step size must not be less than the minimal "
                             f"one, but got {smallest} > {largest}")
        if not 0.0 < etaminus < 1.0:
            raise ValueError(f"Rprop: etaminus must be in (0.0, 1.0), but got {etaminus}")
        if etaplus <= 1.0:
            raise ValueError(f"Rprop: etaplus must be greater than 1.0, but got {etaplus}")
        self.etaminus, self.etaplus = etaminus, etaplus
        self.step_size_min, self.step_size_max = smallest, largest
        self._init_state(prev="zeros", step_size="zeros")
        self.step = Parameter(Tensor(0.0, mstype.float32), "step")

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        out = super().construct(gradients)
        assign_add(self.step, Tensor(1.0, mstype.float32))
        return out

    def _update(self, p: Tensor, lr: Any, g: Tensor, prev: Tensor,
                step_size: Tensor) -> Tensor:
        first = F.cast(F.equal(self.step, 0.0), mstype.float32)
        size = _either(first, F.mul(F.ones_like(_fp32(step_size)), F.reshape(_fp32(lr), ())),
                       _fp32(step_size))
        g = _fp32(g)
        product = F.mul(g, _fp32(prev))
        flipped = F.less(product, 0.0)
        factor = F.select(F.greater(product, 0.0), F.fill(mstype.float32, g.shape, self.etaplus),
                          F.select(flipped, F.fill(mstype.float32, g.shape, self.etaminus),
                                   F.ones_like(g)))
        size = F.minimum(F.maximum(F.mul(size, factor), self.step_size_min), self.step_size_max)
        g = F.select(flipped, F.zeros_like(g), g)
        out = assign(p, F.cast(F.sub(_fp32(p), F.mul(F.sign(g), size)), p.dtype))
        assign(prev, F.cast(g, prev.dtype))
        assign(step_size, F.cast(size, step_size.dtype))
        return out
