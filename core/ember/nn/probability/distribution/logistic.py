"""The Logistic distribution."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_greater_zero, log_generic, softplus
from .distribution import Distribution

__all__ = ["Logistic"]


class Logistic(Distribution):
    r"""The Logistic distribution of location ``loc`` :math:`a` and ``scale`` :math:`b`:
    :math:`F(x) = \sigma((x - a) / b)`.

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): the location. Default: None.
        scale (int, float, list, numpy.ndarray, Tensor): the scale (> 0). Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Logistic'.

    ``dist_spec_args`` are ``loc`` and ``scale``.
    """

    _dist_type = "Logistic"

    def __init__(self, loc: Any = None, scale: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Logistic") -> None:
        param = dict(locals())
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

    def _mean(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        return self._check_param_type(loc, scale)[0]

    _mode = _mean

    def _sd(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        return F.mul(self._check_param_type(loc, scale)[1], math.pi / math.sqrt(3.0))

    def _entropy(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        return F.add(log_generic(self._check_param_type(loc, scale)[1]), 2.0)

    def _log_prob(self, value: Tensor, loc: Tensor | None = None,
                  scale: Tensor | None = None) -> Tensor:
        z = self._z(value, loc, scale)
        _, scale = self._check_param_type(loc, scale)
        return F.sub(F.sub(F.neg(z), F.mul(softplus(F.neg(z)), 2.0)), log_generic(scale))

    def _cdf(self, value: Tensor, loc: Tensor | None = None,
             scale: Tensor | None = None) -> Tensor:
        return F.sigmoid(self._z(value, loc, scale))

    def _log_cdf(self, value: Tensor, loc: Tensor | None = None,
                 scale: Tensor | None = None) -> Tensor:
        return F.neg(softplus(F.neg(self._z(value, loc, scale))))

    def _survival_function(self, value: Tensor, loc: Tensor | None = None,
                           scale: Tensor | None = None) -> Tensor:
        return F.sigmoid(F.neg(self._z(value, loc, scale)))

    def _log_survival(self, value: Tensor, loc: Tensor | None = None,
                      scale: Tensor | None = None) -> Tensor:
        return F.neg(softplus(self._z(value, loc, scale)))

    def _sample(self, shape: tuple = (), loc: Tensor | None = None,
                scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        draws = F.cast(self._uniform(self._sample_shape(shape, loc, scale)), loc.dtype)
        draws = F.maximum(draws, float(np.finfo(np.float32).tiny))
        logit = F.sub(F.log(draws), F.log1p(F.neg(draws)))
        return F.cast(F.add(F.mul(logit, scale), loc), self.dtype)
