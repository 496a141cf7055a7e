"""The Beta distribution."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.layer.math import DiGamma, LBeta
from ember.ops import functional as F
from ember.ops.operations import random_ops as R

from .._utils import check_distribution_name, check_greater_zero, log_generic, where
from .distribution import Distribution
from .gamma import refuse_scalar

__all__ = ["Beta"]


class Beta(Distribution):
    r"""The Beta distribution on [0, 1] of ``concentration1`` :math:`\alpha` and
    ``concentration0`` :math:`\beta`: :math:`f(x) = x^{\alpha-1} (1-x)^{\beta-1} / B(\alpha,
    \beta)`.

    Args:
        concentration1 (list, numpy.ndarray, Tensor): :math:`\alpha > 0`. Default: None.
        concentration0 (list, numpy.ndarray, Tensor): :math:`\beta > 0`. Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): a float type. Default: ember.float32.
        name (str): Default: 'Beta'.

    ``dist_spec_args`` are ``concentration1`` and ``concentration0``.
    """

    _dist_type = "Beta"
    _param_checks = {"concentration1": check_greater_zero,
                     "concentration0": check_greater_zero}

    def __init__(self, concentration1: Any = None, concentration0: Any = None,
                 seed: int | None = None, dtype: mstype.Type = mstype.float32,
                 name: str = "Beta") -> None:
        refuse_scalar("Beta", concentration1=concentration1, concentration0=concentration0)
        super().__init__(seed, dtype, name, dict(locals()))
        self.digamma = DiGamma()
        self.lbeta = LBeta()
        self._gamma = R.Gamma(self.seed)

    def _mean(self, concentration1: Tensor | None = None,
              concentration0: Tensor | None = None) -> Tensor:
        c1, c0 = self._check_param_type(concentration1, concentration0)
        return F.real_div(c1, F.add(c1, c0))

    def _var(self, concentration1: Tensor | None = None,
             concentration0: Tensor | None = None) -> Tensor:
        c1, c0 = self._check_param_type(concentration1, concentration0)
        total = F.add(c1, c0)
        return F.real_div(F.mul(c1, c0), F.mul(F.square(total), F.add(total, 1.0)))

    def _mode(self, concentration1: Tensor | None = None,
              concentration0: Tensor | None = None) -> Tensor:
        c1, c0 = self._check_param_type(concentration1, concentration0)
        mode = F.real_div(F.sub(c1, 1.0), F.sub(F.add(c1, c0), 2.0))
        defined = F.logical_and(F.greater(c1, 1.0), F.greater(c0, 1.0))
        return where(defined, mode, math.nan)

    def _entropy(self, concentration1: Tensor | None = None,
                 concentration0: Tensor | None = None) -> Tensor:
        c1, c0 = self._check_param_type(concentration1, concentration0)
        total = F.add(c1, c0)
        return F.add(F.sub(F.sub(self.lbeta(c1, c0), F.mul(F.sub(c1, 1.0), self.digamma(c1))),
                           F.mul(F.sub(c0, 1.0), self.digamma(c0))),
                     F.mul(F.sub(total, 2.0), self.digamma(total)))

    def _log_prob(self, value: Tensor, concentration1: Tensor | None = None,
                  concentration0: Tensor | None = None) -> Tensor:
        value = self._cast_value(value)
        c1, c0 = self._check_param_type(concentration1, concentration0)
        unnormalized = F.add(F.mul(F.sub(c1, 1.0), log_generic(value)),
                             F.mul(F.sub(c0, 1.0), F.log1p(F.neg(value))))
        return F.sub(unnormalized, self.lbeta(c1, c0))

    def _kl_loss(self, dist: str, concentration1_b: Tensor, concentration0_b: Tensor,
                 concentration1: Tensor | None = None,
                 concentration0: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Beta")
        c1_b = self._cast_other(concentration1_b, "concentration1_b")
        c0_b = self._cast_other(concentration0_b, "concentration0_b")
        c1_a, c0_a = self._check_param_type(concentration1, concentration0)
        total_a, total_b = F.add(c1_a, c0_a), F.add(c1_b, c0_b)
        out = F.sub(self.lbeta(c1_b, c0_b), self.lbeta(c1_a, c0_a))
        out = F.sub(out, F.mul(self.digamma(c1_a), F.sub(c1_b, c1_a)))
        out = F.sub(out, F.mul(self.digamma(c0_a), F.sub(c0_b, c0_a)))
        return F.add(out, F.mul(self.digamma(total_a), F.sub(total_b, total_a)))

    def _cross_entropy(self, dist: str, concentration1_b: Tensor, concentration0_b: Tensor,
                       concentration1: Tensor | None = None,
                       concentration0: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Beta")
        return F.add(self._entropy(concentration1, concentration0),
                     self._kl_loss(dist, concentration1_b, concentration0_b, concentration1,
                                   concentration0))

    def _sample(self, shape: tuple = (), concentration1: Tensor | None = None,
                concentration0: Tensor | None = None) -> Tensor:
        c1, c0 = self._check_param_type(concentration1, concentration0)
        sample_shape = self._sample_shape(shape, c1, c0)
        # X ~ Gamma(c1), Y ~ Gamma(c0) drawn independently in one call; X / (X + Y) ~ Beta
        alphas = F.cast(F.stack([F.broadcast_to(c1, sample_shape),
                                 F.broadcast_to(c0, sample_shape)]), mstype.float32)
        draws = self._gamma((2, *sample_shape), alphas, F.ones_like(alphas))
        x, y = draws[0], draws[1]
        return F.cast(F.real_div(x, F.add(x, y)), self.dtype)
