"""The base of distributions given by a location and a scale and sampled by inverting their cdf
at uniform draws (Cauchy, Logistic)."""

from __future__ import annotations

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_greater_zero
from .distribution import Distribution


class LocationScale(Distribution):
    """``loc`` and ``scale`` (> 0) as parameters, ``_z`` the standardised value, and a
    ``UniformReal`` sampler seeded with the distribution's seed."""

    _param_checks = {"loc": None, "scale": check_greater_zero}
    _repr_labels = {"loc": "location"}

    def __init__(self, seed: int | None, dtype: mstype.Type, name: str, param: dict) -> None:
        super().__init__(seed, dtype, name, param)
        self._uniform = R.UniformReal(self.seed)

    def _z(self, value: Tensor, loc: Tensor | None, scale: Tensor | None) -> Tensor:
        value = self._cast_value(value)
        loc, scale = self._check_param_type(loc, scale)
        return F.real_div(F.sub(value, loc), scale)
