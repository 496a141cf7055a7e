"""The Poisson distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.layer.math import IGamma, LGamma
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_greater_zero, log_generic, where
from .distribution import Distribution
from .gamma import refuse_scalar

__all__ = ["Poisson"]


class Poisson(Distribution):
    r"""The Poisson distribution of ``rate`` :math:`\lambda`:
    :math:`P(k) = \lambda^k e^{-\lambda} / k!` for integers :math:`k \geq 0`.

    Args:
        rate (list, numpy.ndarray, Tensor): :math:`\lambda > 0`. Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): the type of the samples. Default: ember.float32.
        name (str): Default: 'Poisson'.

    ``dist_spec_args`` is ``rate``.
    """

    _dist_type = "Poisson"
    _param_checks = {"rate": check_greater_zero}
    _dtypes = mstype.number_type

    def __init__(self, rate: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Poisson") -> None:
        refuse_scalar("Poisson", rate=rate)
        super().__init__(seed, dtype, name, dict(locals()))
        self.lgamma = LGamma()
        self.igamma = IGamma()
        self._poisson = R.Poisson(self.seed)

    def _mean(self, rate: Tensor | None = None) -> Tensor:
        return self._check_param_type(rate)

    _var = _mean

    def _mode(self, rate: Tensor | None = None) -> Tensor:
        return F.floor(self._check_param_type(rate))

    def _log_prob(self, value: Tensor, rate: Tensor | None = None) -> Tensor:
        value = self._cast_value(value, self.parameter_type)
        rate = self._check_param_type(rate)
        safe = F.maximum(value, 0.0)
        log_prob = F.sub(F.sub(F.mul(log_generic(rate), safe), self.lgamma(F.add(safe, 1.0))),
                         rate)
        return where(F.less(value, 0.0), -math.inf, log_prob)

    def _cdf(self, value: Tensor, rate: Tensor | None = None) -> Tensor:
        value = F.floor(self._cast_value(value, self.parameter_type))
        rate = self._check_param_type(rate)
        # P(X <= k) = 1 - P(k + 1, rate), P the regularized lower incomplete gamma function
        cdf = F.sub(1.0, self.igamma(F.add(F.maximum(value, 0.0), 1.0), rate))
        return where(F.less(value, 0.0), 0.0, cdf)

    def _sample(self, shape: tuple = (), rate: Tensor | None = None) -> Tensor:
        rate = F.cast(self._check_param_type(rate), mstype.float32)
        draws = self._poisson(self._sample_shape(shape, rate), rate)
        return F.cast(draws, self.dtype)
