"""The Softplus bijector."""

from __future__ import annotations

from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import softplus
from .bijector import Bijector

__all__ = ["Softplus"]


def inverse_softplus(y: Tensor) -> Tensor:
    """``log(exp(y) - 1)``, computed as ``y + log(1 - exp(-y))`` (no overflow for large y)."""
    return F.add(y, F.log(F.neg(F.expm1(F.neg(y)))))


class Softplus(Bijector):
    r"""The bijector :math:`y = \log(1 + e^{k x}) / k` of ``sharpness`` :math:`k`.

    Args:
        sharpness (float, list, numpy.ndarray, Tensor): :math:`k`. Default: 1.0.
        name (str): Default: 'Softplus'.

    Examples:
        >>> softplus = msb.Softplus(2.0)
        >>> softplus.forward(Tensor([1, 2, 3], ember.float32))
        [1.063464  2.009075  3.0012379]
    """

    def __init__(self, sharpness: float = 1.0, name: str = "Softplus") -> None:
        param = dict(locals())
        param["param_dict"] = {"sharpness": sharpness}
        super().__init__(name=name, dtype=None, param=param)
        self._sharpness = self._add_parameter(sharpness, "sharpness")

    @property
    def sharpness(self) -> Tensor:
        return self._sharpness

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"sharpness = {self._sharpness}"
        return f"batch_shape = {self.batch_shape}"

    def _scaled(self, value: Tensor) -> tuple[Tensor, Tensor]:
        value = self._check_value_dtype(value)
        sharpness = self.cast_param_by_value(value, self._sharpness)
        return F.mul(sharpness, value), sharpness

    def _forward(self, x: Tensor) -> Tensor:
        scaled, sharpness = self._scaled(x)
        return F.real_div(softplus(scaled), sharpness)

    def _inverse(self, y: Tensor) -> Tensor:
        scaled, sharpness = self._scaled(y)
        return F.real_div(inverse_softplus(scaled), sharpness)

    def _forward_log_jacobian(self, x: Tensor) -> Tensor:
        scaled, _ = self._scaled(x)
        return F.neg(softplus(F.neg(scaled)))  # log sigmoid(k x)

    def _inverse_log_jacobian(self, y: Tensor) -> Tensor:
        scaled, _ = self._scaled(y)
        return F.sub(scaled, inverse_softplus(scaled))
