"""The Logistic distribution."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import log_generic, softplus
from ._location_scale import LocationScale

__all__ = ["Logistic"]


class Logistic(LocationScale):
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
        super().__init__(seed, dtype, name, dict(locals()))

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
