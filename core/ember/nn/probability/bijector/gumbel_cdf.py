"""The GumbelCDF bijector."""

from __future__ import annotations

from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import check_greater_zero
from .bijector import Bijector

__all__ = ["GumbelCDF"]


class GumbelCDF(Bijector):
    r"""The bijector :math:`y = \exp(-\exp(-(x - a) / b))`, the cdf of the Gumbel distribution
    of ``loc`` :math:`a` and ``scale`` :math:`b`.

    Args:
        loc (float, list, numpy.ndarray, Tensor): :math:`a`. Default: 0.0.
        scale (float, list, numpy.ndarray, Tensor): :math:`b > 0`. Default: 1.0.
        name (str): Default: 'GumbelCDF'.

    Examples:
        >>> gumbel_cdf = msb.GumbelCDF(1.0, 2.0)
        >>> gumbel_cdf.forward(Tensor([1, 2, 3], ember.float32))
        [0.36787945 0.54523915 0.6922006 ]
    """

    def __init__(self, loc: float = 0.0, scale: float = 1.0, name: str = "GumbelCDF") -> None:
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        super().__init__(name=name, param=param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        check_greater_zero(self._scale, "scale")

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"loc = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self.batch_shape}"

    def _loc_scale(self, value: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        value = self._check_value_dtype(value)
        return (value, self.cast_param_by_value(value, self._loc),
                self.cast_param_by_value(value, self._scale))

    def _forward(self, x: Tensor) -> Tensor:
        x, loc, scale = self._loc_scale(x)
        return F.exp(F.neg(F.exp(F.neg(F.real_div(F.sub(x, loc), scale)))))

    def _inverse(self, y: Tensor) -> Tensor:
        y, loc, scale = self._loc_scale(y)
        return F.sub(loc, F.mul(scale, F.log(F.neg(F.log(y)))))

    def _forward_log_jacobian(self, x: Tensor) -> Tensor:
        x, loc, scale = self._loc_scale(x)
        z = F.real_div(F.sub(x, loc), scale)
        return F.sub(F.neg(F.add(z, F.exp(F.neg(z)))), F.log(scale))

    def _inverse_log_jacobian(self, y: Tensor) -> Tensor:
        y, _, scale = self._loc_scale(y)
        return F.log(F.real_div(scale, F.neg(F.mul(y, F.log(y)))))
