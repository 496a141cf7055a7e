"""The Gumbel distribution."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.layer.math import LGamma
from ember.ops import functional as F

from .._utils import check_distribution_name, check_tuple, log_generic
from ..bijector.gumbel_cdf import GumbelCDF
from ..bijector.invert import Invert
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform

__all__ = ["Gumbel"]

_EULER_GAMMA = float(np.euler_gamma)


class Gumbel(TransformedDistribution):
    r"""The Gumbel distribution of ``loc`` :math:`a` and ``scale`` :math:`b`:
    :math:`F(x) = \exp(-\exp(-(x - a) / b))`, built as the inverse Gumbel cdf of a Uniform
    variable. Its parameters are fixed at construction (no ``dist_spec_args``).

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): the location.
        scale (int, float, list, numpy.ndarray, Tensor): the scale (> 0).
        seed (int): the seed of sampling. Default: 0.
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Gumbel'.
    """

    _dist_type = "Gumbel"
    _param_checks = {"loc": None, "scale": None}

    def __init__(self, loc: Any, scale: Any, seed: int = 0,
                 dtype: mstype.Type = mstype.float32, name: str = "Gumbel") -> None:
        Validator.check_type_name("dtype", dtype, mstype.float_type, type(self).__name__)
        gumbel_cdf = GumbelCDF(loc, scale)
        super().__init__(distribution=Uniform(0.0, 1.0, seed=seed, dtype=dtype),
                         bijector=Invert(gumbel_cdf), seed=seed, name=name)
        self._reset_parameters(loc=loc, scale=scale)
        self._gumbel_bijector = gumbel_cdf
        self.lgamma = LGamma()

    def _loc_scale(self) -> tuple[Tensor, Tensor]:
        return self._check_param_type(None, None)

    def _mean(self) -> Tensor:
        loc, scale = self._loc_scale()
        return F.add(loc, F.mul(scale, _EULER_GAMMA))

    def _mode(self) -> Tensor:
        return self._loc_scale()[0]

    def _sd(self) -> Tensor:
        return F.mul(self._loc_scale()[1], math.pi / math.sqrt(6.0))

    def _entropy(self) -> Tensor:
        return F.add(log_generic(self._loc_scale()[1]), 1.0 + _EULER_GAMMA)

    def _log_prob(self, value: Tensor) -> Tensor:
        value = self._cast_value(value)
        loc, scale = self._loc_scale()
        z = F.real_div(F.sub(value, loc), scale)
        return F.sub(F.neg(F.add(z, F.exp(F.neg(z)))), log_generic(scale))

    def _cdf(self, value: Tensor) -> Tensor:
        return self._gumbel_bijector("forward", self._cast_value(value))

    def _kl_loss(self, dist: str, loc_b: Tensor, scale_b: Tensor) -> Tensor:
        check_distribution_name(dist, "Gumbel")
        loc_b, scale_b = self._cast_other(loc_b, "loc_b"), self._cast_other(scale_b, "scale_b")
        loc, scale = self._loc_scale()
        ratio = F.real_div(scale, scale_b)
        out = F.add(log_generic(F.real_div(scale_b, scale)),
                    F.mul(F.sub(ratio, 1.0), _EULER_GAMMA))
        out = F.add(out, F.real_div(F.sub(loc, loc_b), scale_b))
        return F.add(out, F.expm1(F.add(F.real_div(F.sub(loc_b, loc), scale_b),
                                        self.lgamma(F.add(ratio, 1.0)))))

    def _cross_entropy(self, dist: str, loc_b: Tensor, scale_b: Tensor) -> Tensor:
        check_distribution_name(dist, "Gumbel")
        return F.add(self._entropy(), self._kl_loss(dist, loc_b, scale_b))

    def _sample(self, shape: tuple = ()) -> Tensor:
        shape = check_tuple(shape, "shape") + tuple(self._broadcast_shape)
        draws = F.cast(self.distribution("sample", shape), self.dtype)
        draws = F.maximum(draws, float(np.finfo(np.float32).tiny))  # the inverse cdf at 0 is -inf
        return self.bijector("forward", draws)
