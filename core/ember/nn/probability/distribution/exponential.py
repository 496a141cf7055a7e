"""The Exponential distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_distribution_name, check_greater_zero, log_generic, where
from .distribution import Distribution

__all__ = ["Exponential"]


class Exponential(Distribution):
    r"""The Exponential distribution of ``rate`` :math:`\lambda`:
    :math:`f(x) = \lambda e^{-\lambda x}` for :math:`x \geq 0`.

    Args:
        rate (int, float, list, numpy.ndarray, Tensor): the rate (> 0). Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Exponential'.

    ``dist_spec_args`` is ``rate``.
    """

    _dist_type = "Exponential"
    _param_checks = {"rate": check_greater_zero}

    def __init__(self, rate: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Exponential") -> None:
        super().__init__(seed, dtype, name, dict(locals()))
        self._uniform = R.UniformReal(self.seed)

    def _mean(self, rate: Tensor | None = None) -> Tensor:
        return F.reciprocal(self._check_param_type(rate))

    _sd = _mean

    def _mode(self, rate: Tensor | None = None) -> Tensor:
        return F.zeros_like(self._check_param_type(rate))

    def _entropy(self, rate: Tensor | None = None) -> Tensor:
        return F.sub(1.0, log_generic(self._check_param_type(rate)))

    def _log_prob(self, value: Tensor, rate: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        log_prob = F.sub(log_generic(rate), F.mul(rate, value))
        return where(F.less(value, 0.0), -math.inf, log_prob)

    def _cdf(self, value: Tensor, rate: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        cdf = F.neg(F.expm1(F.neg(F.mul(rate, value))))
        return where(F.less(value, 0.0), 0.0, cdf)

    def _log_survival(self, value: Tensor, rate: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        log_sf = F.neg(F.mul(rate, value))
        return where(F.less(value, 0.0), 0.0, log_sf)

    def _kl_loss(self, dist: str, rate_b: Tensor, rate: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Exponential")
        rate_b = self._cast_other(rate_b, "rate_b")
        rate_a = self._check_param_type(rate)
        return F.add(F.sub(log_generic(rate_a), log_generic(rate_b)),
                     F.sub(F.real_div(rate_b, rate_a), 1.0))

    def _cross_entropy(self, dist: str, rate_b: Tensor, rate: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Exponential")
        return F.add(self._entropy(rate), self._kl_loss(dist, rate_b, rate))

    def _sample(self, shape: tuple = (), rate: Tensor | None = None) -> Tensor:
        rate = self._check_param_type(rate)
        draws = F.cast(self._uniform(self._sample_shape(shape, rate)), rate.dtype)
        # inverse cdf: -log(1 - u) / rate, u in [0, 1)
        return F.cast(F.real_div(F.neg(F.log1p(F.neg(draws))), rate), self.dtype)
