"""The Invert bijector."""

from __future__ import annotations

from ember._checkparam import Validator
from ember.common.tensor import Tensor

from .bijector import Bijector

__all__ = ["Invert"]


class Invert(Bijector):
    """The inverse of ``bijector``: its forward is ``bijector``'s inverse and so on.

    Args:
        bijector (Bijector): the bijector to invert.
        name (str): Default: 'Invert' + bijector.name.

    Examples:
        >>> inv_exp = msb.Invert(msb.Exp())
        >>> inv_exp.forward(Tensor([1, 2, 3], ember.float32))
        [0.        0.6931472 1.0986123]
    """

    def __init__(self, bijector: Bijector, name: str = "") -> None:
        param = dict(locals())
        Validator.check_value_type("bijector", bijector, [Bijector], "Invert")
        name = name or "Invert" + bijector.name
        param["name"] = name
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian,
                         is_injective=bijector.is_injective, name=name, dtype=bijector.dtype,
                         param=param)
        self._bijector = bijector
        self._batch_shape = bijector.batch_shape
        self._is_scalar_batch = bijector.is_scalar_batch

    @property
    def bijector(self) -> Bijector:
        return self._bijector

    def forward(self, x: Tensor) -> Tensor:
        return self._bijector("inverse", x)

    def inverse(self, y: Tensor) -> Tensor:
        return self._bijector("forward", y)

    def forward_log_jacobian(self, x: Tensor) -> Tensor:
        return self._bijector("inverse_log_jacobian", x)

    def inverse_log_jacobian(self, y: Tensor) -> Tensor:
        return self._bijector("forward_log_jacobian", y)
