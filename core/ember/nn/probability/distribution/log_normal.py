"""The LogNormal distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import check_distribution_name, log_generic, where
from ..bijector.exp import Exp
from .normal import Normal
from .transformed_distribution import TransformedDistribution

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    r"""The distribution of :math:`e^X` for :math:`X \sim N(loc, scale^2)`.

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): the mean of :math:`X`. Default: None.
        scale (int, float, list, numpy.ndarray, Tensor): the standard deviation of :math:`X`
            (> 0). Default: None.
        seed (int): the seed of sampling. Default: 0.
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'LogNormal'.

    ``dist_spec_args`` are ``loc`` and ``scale``.
    """

    _dist_type = "LogNormal"
    _param_checks = {"loc": None, "scale": None}

    def __init__(self, loc: Any = None, scale: Any = None, seed: int = 0,
                 dtype: mstype.Type = mstype.float32, name: str = "LogNormal") -> None:
        super().__init__(distribution=Normal(loc, scale, seed=seed, dtype=dtype),
                         bijector=Exp(), seed=seed, name=name)
        self._reset_parameters(loc=loc, scale=scale)

    def _mean(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        return F.exp(F.add(loc, F.mul(F.square(scale), 0.5)))

    def _mode(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        return F.exp(F.sub(loc, F.square(scale)))

    def _var(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        var = F.square(scale)
        return F.mul(F.expm1(var), F.exp(F.add(F.mul(loc, 2.0), var)))

    def _entropy(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        return F.add(F.add(loc, log_generic(scale)), 0.5 + 0.5 * math.log(2.0 * math.pi))

    def _cdf(self, value: Tensor, loc: Tensor | None = None,
             scale: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        loc, scale = self._check_param_type(loc, scale)
        safe = where(F.greater(value, 0.0), value, 1.0)
        cdf = self.distribution("cdf", self.bijector("inverse", safe), loc, scale)
        return where(F.greater(value, 0.0), cdf, 0.0)

    def _log_prob(self, value: Tensor, loc: Tensor | None = None,
                  scale: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        loc, scale = self._check_param_type(loc, scale)
        unadjusted = self.distribution("log_prob", self.bijector("inverse", value), loc, scale)
        return F.add(unadjusted, self.bijector("inverse_log_jacobian", value))

    def _kl_loss(self, dist: str, loc_b: Tensor, scale_b: Tensor, loc: Tensor | None = None,
                 scale: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "LogNormal")
        loc, scale = self._check_param_type(loc, scale)
        return self.distribution("kl_loss", "Normal", loc_b, scale_b, loc, scale)

    def _cross_entropy(self, dist: str, loc_b: Tensor, scale_b: Tensor,
                       loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "LogNormal")
        return F.add(self._entropy(loc, scale), self._kl_loss(dist, loc_b, scale_b, loc, scale))

    def _sample(self, shape: tuple = (), loc: Tensor | None = None,
                scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        draws = self.distribution("sample", shape, loc, scale)
        return self.bijector("forward", F.cast(draws, self.dtype))
