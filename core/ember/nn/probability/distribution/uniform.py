"""The Uniform distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_distribution_name, check_greater, log_generic, where
from .distribution import Distribution

__all__ = ["Uniform"]


class Uniform(Distribution):
    """The continuous Uniform distribution on [``low``, ``high``].

    Args:
        low (int, float, list, numpy.ndarray, Tensor): the lower bound. Default: None.
        high (int, float, list, numpy.ndarray, Tensor): the upper bound (> low). Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Uniform'.

    ``dist_spec_args`` are ``low`` and ``high``.
    """

    _dist_type = "Uniform"
    _param_checks = {"low": None, "high": None}

    def __init__(self, low: Any = None, high: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Uniform") -> None:
        super().__init__(seed, dtype, name, dict(locals()))
        if self.low is not None and self.high is not None:
            check_greater(self.low, self.high, "low", "high")
        self._uniform = R.UniformReal(self.seed)

    def _mean(self, low: Tensor | None = None, high: Tensor | None = None) -> Tensor:
        low, high = self._check_param_type(low, high)
        return F.mul(F.add(low, high), 0.5)

    def _var(self, low: Tensor | None = None, high: Tensor | None = None) -> Tensor:
        low, high = self._check_param_type(low, high)
        return F.real_div(F.square(F.sub(high, low)), 12.0)

    def _entropy(self, low: Tensor | None = None, high: Tensor | None = None) -> Tensor:
        low, high = self._check_param_type(low, high)
        return log_generic(F.sub(high, low))

    def _prob(self, value: Tensor, low: Tensor | None = None,
              high: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        low, high = self._check_param_type(low, high)
        inside = F.logical_and(F.greater_equal(value, low), F.less_equal(value, high))
        return where(inside, F.reciprocal(F.sub(high, low)), 0.0)

    def _cdf(self, value: Tensor, low: Tensor | None = None,
             high: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        low, high = self._check_param_type(low, high)
        cdf = F.real_div(F.sub(value, low), F.sub(high, low))
        return where(F.less(value, low), 0.0, where(F.less(value, high), cdf, 1.0))

    def _kl_loss(self, dist: str, low_b: Tensor, high_b: Tensor, low: Tensor | None = None,
                 high: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Uniform")
        low_b, high_b = self._cast_other(low_b, "low_b"), self._cast_other(high_b, "high_b")
        low_a, high_a = self._check_param_type(low, high)
        kl = F.sub(log_generic(F.sub(high_b, low_b)), log_generic(F.sub(high_a, low_a)))
        covered = F.logical_and(F.less_equal(low_b, low_a), F.less_equal(high_a, high_b))
        return where(covered, kl, math.inf)

    def _cross_entropy(self, dist: str, low_b: Tensor, high_b: Tensor,
                       low: Tensor | None = None, high: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Uniform")
        return F.add(self._entropy(low, high), self._kl_loss(dist, low_b, high_b, low, high))

    def _sample(self, shape: tuple = (), low: Tensor | None = None,
                high: Tensor | None = None) -> Tensor:
        low, high = self._check_param_type(low, high)
        draws = F.cast(self._uniform(self._sample_shape(shape, low, high)), low.dtype)
        return F.cast(F.add(F.mul(draws, F.sub(high, low)), low), self.dtype)
