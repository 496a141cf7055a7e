"""The Cauchy distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import check_distribution_name, log_generic, raise_not_defined
from ._location_scale import LocationScale

__all__ = ["Cauchy"]


class Cauchy(LocationScale):
    r"""The Cauchy distribution of location ``loc`` :math:`a` and ``scale`` :math:`b`:
    :math:`f(x) = 1 / (\pi b (1 + ((x - a) / b)^2))`. Its mean, variance and standard
    deviation are undefined (ValueError).

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): the location. Default: None.
        scale (int, float, list, numpy.ndarray, Tensor): the scale (> 0). Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Cauchy'.

    ``dist_spec_args`` are ``loc`` and ``scale``.
    """

    _dist_type = "Cauchy"

    def __init__(self, loc: Any = None, scale: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Cauchy") -> None:
        super().__init__(seed, dtype, name, dict(locals()))

    def _mode(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        return self._check_param_type(loc, scale)[0]

    def _mean(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_defined("mean", "Cauchy")

    def _sd(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_defined("standard deviation", "Cauchy")

    def _var(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_defined("variance", "Cauchy")

    def _entropy(self, loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        _, scale = self._check_param_type(loc, scale)
        return F.add(log_generic(scale), math.log(4.0 * math.pi))

    def _log_prob(self, value: Tensor, loc: Tensor | None = None,
                  scale: Tensor | None = None) -> Tensor:
        z = self._z(value, loc, scale)
        _, scale = self._check_param_type(loc, scale)
        return F.neg(F.add(F.log1p(F.square(z)), log_generic(F.mul(scale, math.pi))))

    def _cdf(self, value: Tensor, loc: Tensor | None = None,
             scale: Tensor | None = None) -> Tensor:
        return F.add(F.mul(F.atan(self._z(value, loc, scale)), 1.0 / math.pi), 0.5)

    def _log_cdf(self, value: Tensor, loc: Tensor | None = None,
                 scale: Tensor | None = None) -> Tensor:
        z = self._z(value, loc, scale)
        return F.sub(F.log1p(F.mul(F.atan(z), 2.0 / math.pi)), math.log(2.0))

    def _kl_loss(self, dist: str, loc_b: Tensor, scale_b: Tensor, loc: Tensor | None = None,
                 scale: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Cauchy")
        loc_b, scale_b = self._cast_other(loc_b, "loc_b"), self._cast_other(scale_b, "scale_b")
        loc_a, scale_a = self._check_param_type(loc, scale)
        spread = F.add(F.square(F.add(scale_a, scale_b)), F.square(F.sub(loc_a, loc_b)))
        return F.sub(log_generic(spread), log_generic(F.mul(F.mul(scale_a, scale_b), 4.0)))

    def _cross_entropy(self, dist: str, loc_b: Tensor, scale_b: Tensor,
                       loc: Tensor | None = None, scale: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Cauchy")
        return F.add(self._entropy(loc, scale), self._kl_loss(dist, loc_b, scale_b, loc, scale))

    def _sample(self, shape: tuple = (), loc: Tensor | None = None,
                scale: Tensor | None = None) -> Tensor:
        loc, scale = self._check_param_type(loc, scale)
        draws = F.cast(self._uniform(self._sample_shape(shape, loc, scale)), loc.dtype)
        quantile = F.add(loc, F.mul(scale, F.tan(F.mul(F.sub(draws, 0.5), math.pi))))
        return F.cast(quantile, self.dtype)
