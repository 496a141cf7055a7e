"""The Normal distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_distribution_name, check_greater_zero, log_generic
from .distribution import Distribution

__all__ = ["Normal"]


class Normal(Distribution):
    r"""The Normal distribution of mean :math:`\mu` and standard deviation :math:`\sigma`:
    :math:`f(x) = \exp(-(x - \mu)^2 / 2\sigma^2) / (\sigma\sqrt{2\pi})`.

    Args:
        mean (int, float, list, numpy.ndarray, Tensor): the mean. Default: None.
        sd (int, float, list, numpy.ndarray, Tensor): the standard deviation (> 0).
            Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Normal'.

    ``dist_spec_args`` are ``mean`` and ``sd``; those not given at construction must be given
    to every call.

    Examples:
        >>> n = msd.Normal(3.0, 4.0)
        >>> n.prob(Tensor([1.0, 2.0, 3.0])).shape
        (3,)
    """

    _dist_type = "Normal"
    _param_checks = {"mean": None,
                     "sd": lambda sd, _: check_greater_zero(sd, "Standard deviation")}
    _repr_labels = {"sd": "standard deviation"}

    def __init__(self, mean: Any = None, sd: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Normal") -> None:
        super().__init__(seed, dtype, name, dict(locals()))
        self._normal = R.StandardNormal(self.seed)

    def _mean(self, mean: Tensor | None = None, sd: Tensor | None = None) -> Tensor:
        return self._check_param_type(mean, sd)[0]

    _mode = _mean

    def _sd(self, mean: Tensor | None = None, sd: Tensor | None = None) -> Tensor:
        return self._check_param_type(mean, sd)[1]

    def _entropy(self, mean: Tensor | None = None, sd: Tensor | None = None) -> Tensor:
        _, sd = self._check_param_type(mean, sd)
        return F.add(log_generic(sd), 0.5 * math.log(2.0 * math.pi * math.e))

    def _log_prob(self, value: Tensor, mean: Tensor | None = None,
                  sd: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        mean, sd = self._check_param_type(mean, sd)
        z = F.real_div(F.sub(value, mean), sd)
        return F.sub(F.sub(F.mul(F.square(z), -0.5), 0.5 * math.log(2.0 * math.pi)),
                     log_generic(sd))

    def _cdf(self, value: Tensor, mean: Tensor | None = None,
             sd: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        mean, sd = self._check_param_type(mean, sd)
        z = F.real_div(F.sub(value, mean), F.mul(sd, math.sqrt(2.0)))
        return F.mul(F.add(F.erf(z), 1.0), 0.5)

    def _kl_loss(self, dist: str, mean_b: Tensor, sd_b: Tensor, mean: Tensor | None = None,
                 sd: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Normal")
        mean_b, sd_b = self._cast_other(mean_b, "mean_b"), self._cast_other(sd_b, "sd_b")
        mean_a, sd_a = self._check_param_type(mean, sd)
        diff_log_scale = F.sub(log_generic(sd_a), log_generic(sd_b))
        squared_diff = F.square(F.real_div(F.sub(mean_a, mean_b), sd_b))
        return F.sub(F.mul(F.add(squared_diff, F.expm1(F.mul(diff_log_scale, 2.0))), 0.5),
                     diff_log_scale)

    def _cross_entropy(self, dist: str, mean_b: Tensor, sd_b: Tensor,
                       mean: Tensor | None = None, sd: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Normal")
        return F.add(self._entropy(mean, sd), self._kl_loss(dist, mean_b, sd_b, mean, sd))

    def _sample(self, shape: tuple = (), mean: Tensor | None = None,
                sd: Tensor | None = None) -> Tensor:
        mean, sd = self._check_param_type(mean, sd)
        draws = F.cast(self._normal(self._sample_shape(shape, mean, sd)), sd.dtype)
        return F.cast(F.add(F.mul(draws, sd), mean), self.dtype)
