"""The base of distributions given by a location and a scale and sampled by inverting their cdf
at uniform draws (Cauchy, Logistic)."""

from __future__ import annotations

from typing import Any

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_greater_zero
from .distribution import Distribution


class LocationScale(Distribution):
    """``loc`` and ``scale`` (> 0) as parameters, ``_z`` the standardised value, and a
    ``UniformReal`` sampler seeded with the distribution's seed."""

    def __init__(self, loc: Any, scale: Any, seed: int | None, dtype: mstype.Type, name: str,
                 param: dict) -> None:
        param["param_dict"] = {"loc": loc, "scale": scale}
        Validator.check_type_name("dtype", dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        if self._scale is not None:
            check_greater_zero(self._scale, "scale")
        self._uniform = R.UniformReal(self.seed)

    @property
    def loc(self) -> Tensor | None:
        return self._loc

    @property
    def scale(self) -> Tensor | None:
        return self._scale

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"location = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self._broadcast_shape}"

    def _z(self, value: Tensor, loc: Tensor | None, scale: Tensor | None) -> Tensor:
        value = self._cast_value(value)
        loc, scale = self._check_param_type(loc, scale)
        return F.real_div(F.sub(value, loc), scale)
