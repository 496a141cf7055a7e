"""The PowerTransform bijector."""

from __future__ import annotations

from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import check_greater_equal_zero, where
from .bijector import Bijector

__all__ = ["PowerTransform"]


class PowerTransform(Bijector):
    r"""The bijector :math:`y = (1 + c x)^{1/c}` of ``power`` :math:`c \geq 0`, and
    :math:`y = e^x` for :math:`c = 0`.

    Args:
        power (float, list, numpy.ndarray, Tensor): :math:`c`. Default: 0.
        name (str): Default: 'PowerTransform'.

    Examples:
        >>> powertransform = msb.PowerTransform(0.5)
        >>> powertransform.forward(Tensor([1, 2, 3], ember.float32))
        [2.25 4.   6.25]
    """

    def __init__(self, power: float = 0.0, name: str = "PowerTransform") -> None:
        param = dict(locals())
        param["param_dict"] = {"power": power}
        super().__init__(name=name, param=param)
        self._power = self._add_parameter(power, "power")
        check_greater_equal_zero(self._power, "Power")

    @property
    def power(self) -> Tensor:
        return self._power

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"power = {self._power}"
        return f"batch_shape = {self.batch_shape}"

    def _power_of(self, value: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """``value``, the power broadcast with it, and the power with 1 where it is 0."""
        value = self._check_value_dtype(value)
        power = self.cast_param_by_value(value, self._power)
        power = F.add(power, F.zeros_like(F.add(value, power)))
        is_zero = F.equal(power, 0.0)
        return F.add(value, F.zeros_like(power)), power, where(is_zero, 1.0, power)

    def _forward(self, x: Tensor) -> Tensor:
        x, power, safe = self._power_of(x)
        return where(F.equal(power, 0.0), F.exp(x), F.exp(F.real_div(F.log1p(F.mul(x, safe)),
                                                                      safe)))

    def _inverse(self, y: Tensor) -> Tensor:
        y, power, safe = self._power_of(y)
        return where(F.equal(power, 0.0), F.log(y),
                     F.real_div(F.expm1(F.mul(F.log(y), safe)), safe))

    def _forward_log_jacobian(self, x: Tensor) -> Tensor:
        x, power, safe = self._power_of(x)
        return where(F.equal(power, 0.0), x,
                     F.mul(F.sub(F.reciprocal(safe), 1.0), F.log1p(F.mul(x, safe))))

    def _inverse_log_jacobian(self, y: Tensor) -> Tensor:
        y = self._check_value_dtype(y)
        power = self.cast_param_by_value(y, self._power)
        return F.mul(F.sub(power, 1.0), F.log(y))
