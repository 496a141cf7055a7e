"""The ScalarAffine bijector."""

from __future__ import annotations

from ember.common.tensor import Tensor
from ember.ops import functional as F

from .bijector import Bijector

__all__ = ["ScalarAffine"]


class ScalarAffine(Bijector):
    """The bijector :math:`y = a x + b` of ``scale`` :math:`a` and ``shift`` :math:`b`.

    Args:
        scale (float, list, numpy.ndarray, Tensor): Default: 1.0.
        shift (float, list, numpy.ndarray, Tensor): Default: 0.0.
        name (str): Default: 'ScalarAffine'.

    Examples:
        >>> scalaraffine = msb.ScalarAffine(1.0, 2.0)
        >>> scalaraffine.forward(Tensor([1, 2, 3], ember.float32))
        [3. 4. 5.]
    """

    def __init__(self, scale: float = 1.0, shift: float = 0.0,
                 name: str = "ScalarAffine") -> None:
        param = dict(locals())
        param["param_dict"] = {"scale": scale, "shift": shift}
        super().__init__(is_constant_jacobian=True, is_injective=True, name=name, dtype=None,
                         param=param)
        self._scale = self._add_parameter(scale, "scale")
        self._shift = self._add_parameter(shift, "shift")

    @property
    def scale(self) -> Tensor:
        return self._scale

    @property
    def shift(self) -> Tensor:
        return self._shift

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"scale = {self._scale}, shift = {self._shift}"
        return f"batch_shape = {self.batch_shape}"

    def _forward(self, x: Tensor) -> Tensor:
        x = self._check_value_dtype(x)
        scale = self.cast_param_by_value(x, self._scale)
        shift = self.cast_param_by_value(x, self._shift)
        return F.add(F.mul(scale, x), shift)

    def _inverse(self, y: Tensor) -> Tensor:
        y = self._check_value_dtype(y)
        scale = self.cast_param_by_value(y, self._scale)
        shift = self.cast_param_by_value(y, self._shift)
        return F.real_div(F.sub(y, shift), scale)

    def _forward_log_jacobian(self, x: Tensor) -> Tensor:
        x = self._check_value_dtype(x)
        return F.log(F.abs(self.cast_param_by_value(x, self._scale)))

    def _inverse_log_jacobian(self, y: Tensor) -> Tensor:
        y = self._check_value_dtype(y)
        return F.neg(F.log(F.abs(self.cast_param_by_value(y, self._scale))))
