"""The Gamma distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.layer.math import DiGamma, IGamma, LGamma
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_distribution_name, check_greater_zero, log_generic, where
from .distribution import Distribution

__all__ = ["Gamma"]


def refuse_scalar(dist: str, **params: Any) -> None:
    """MindSpore's Gamma, Beta and Poisson take their parameters as lists or Tensors only."""
    for name, value in params.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise TypeError(f"For {dist}, input {name} can't be scalar: give a list or a "
                            f"Tensor, e.g. [{value}]")


class Gamma(Distribution):
    r"""The Gamma distribution of ``concentration`` :math:`\alpha` and ``rate``
    :math:`\beta`: :math:`f(x) = \beta^\alpha x^{\alpha - 1} e^{-\beta x} / \Gamma(\alpha)`.

    Args:
        concentration (list, numpy.ndarray, Tensor): :math:`\alpha > 0`. Default: None.
        rate (list, numpy.ndarray, Tensor): :math:`\beta > 0`. Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Gamma'.

    ``dist_spec_args`` are ``concentration`` and ``rate``.
    """

    _dist_type = "Gamma"
    _param_checks = {"concentration": check_greater_zero, "rate": check_greater_zero}

    def __init__(self, concentration: Any = None, rate: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.float32, name: str = "Gamma") -> None:
        refuse_scalar("Gamma", concentration=concentration, rate=rate)
        super().__init__(seed, dtype, name, dict(locals()))
        self.lgamma = LGamma()
        self.digamma = DiGamma()
        self.igamma = IGamma()
        self._gamma = R.Gamma(self.seed)

    def _mean(self, concentration: Tensor | None = None, rate: Tensor | None = None) -> Tensor:
        concentration, rate = self._check_param_type(concentration, rate)
        return F.real_div(concentration, rate)

    def _var(self, concentration: Tensor | None = None, rate: Tensor | None = None) -> Tensor:
        concentration, rate = self._check_param_type(concentration, rate)
        return F.real_div(concentration, F.square(rate))

    def _sd(self, concentration: Tensor | None = None, rate: Tensor | None = None) -> Tensor:
        concentration, rate = self._check_param_type(concentration, rate)
        return F.real_div(F.sqrt(concentration), rate)

    def _mode(self, concentration: Tensor | None = None, rate: Tensor | None = None) -> Tensor:
        concentration, rate = self._check_param_type(concentration, rate)
        mode = F.real_div(F.sub(concentration, 1.0), rate)
        return where(F.greater(concentration, 1.0), mode, math.nan)

    def _entropy(self, concentration: Tensor | None = None,
                 rate: Tensor | None = None) -> Tensor:
        concentration, rate = self._check_param_type(concentration, rate)
        return F.add(F.add(F.sub(concentration, log_generic(rate)), self.lgamma(concentration)),
                     F.mul(F.sub(1.0, concentration), self.digamma(concentration)))

    def _log_prob(self, value: Tensor, concentration: Tensor | None = None,
                  rate: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        concentration, rate = self._check_param_type(concentration, rate)
        unnormalized = F.sub(F.mul(F.sub(concentration, 1.0), log_generic(value)),
                             F.mul(rate, value))
        normalization = F.sub(self.lgamma(concentration),
                              F.mul(concentration, log_generic(rate)))
        return F.sub(unnormalized, normalization)

    def _cdf(self, value: Tensor, concentration: Tensor | None = None,
             rate: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        concentration, rate = self._check_param_type(concentration, rate)
        return self.igamma(concentration, F.mul(rate, value))

    def _kl_loss(self, dist: str, concentration_b: Tensor, rate_b: Tensor,
                 concentration: Tensor | None = None, rate: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Gamma")
        c_b = self._cast_other(concentration_b, "concentration_b")
        r_b = self._cast_other(rate_b, "rate_b")
        c_a, r_a = self._check_param_type(concentration, rate)
        terms = (F.mul(F.sub(c_a, c_b), self.digamma(c_a)),
                 F.sub(self.lgamma(c_b), self.lgamma(c_a)),
                 F.mul(c_b, F.sub(log_generic(r_a), log_generic(r_b))),
                 F.mul(c_a, F.sub(F.real_div(r_b, r_a), 1.0)))
        return F.add(F.add(terms[0], terms[1]), F.add(terms[2], terms[3]))

    def _cross_entropy(self, dist: str, concentration_b: Tensor, rate_b: Tensor,
                       concentration: Tensor | None = None,
                       rate: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Gamma")
        return F.add(self._entropy(concentration, rate),
                     self._kl_loss(dist, concentration_b, rate_b, concentration, rate))

    def _sample(self, shape: tuple = (), concentration: Tensor | None = None,
                rate: Tensor | None = None) -> Tensor:
        concentration, rate = self._check_param_type(concentration, rate)
        sample_shape = self._sample_shape(shape, concentration, rate)
        draws = self._gamma(sample_shape, F.cast(concentration, mstype.float32),
                            F.cast(rate, mstype.float32))
        return F.cast(draws, self.dtype)
