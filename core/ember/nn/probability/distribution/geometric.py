"""The Geometric distribution."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import check_distribution_name, log_generic, where
from ._success import SuccessProbability

__all__ = ["Geometric"]


class Geometric(SuccessProbability):
    """The Geometric distribution: the number of failures before the first success of
    Bernoulli trials of success probability ``probs``, ``P(k) = (1 - p)^k p`` for k >= 0.

    Args:
        probs (float, list, numpy.ndarray, Tensor): the probability of success, in (0, 1).
            Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): the type of the samples. Default: ember.int32.
        name (str): Default: 'Geometric'.

    ``dist_spec_args`` is ``probs``.
    """

    _dist_type = "Geometric"

    def __init__(self, probs: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.int32, name: str = "Geometric") -> None:
        super().__init__(seed, dtype, name, dict(locals()))

    def _mean(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        return F.real_div(F.sub(1.0, probs1), probs1)

    def _mode(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        return F.cast(F.zeros_like(probs1), self.dtype)

    def _var(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        return F.real_div(F.sub(1.0, probs1), F.square(probs1))

    def _entropy(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        probs0 = F.sub(1.0, probs1)
        total = F.add(F.mul(probs0, log_generic(probs0)), F.mul(probs1, log_generic(probs1)))
        return F.real_div(F.neg(total), probs1)

    def _prob(self, value: Tensor, probs1: Tensor | None = None) -> Tensor:
        value = F.floor(self._cast_value(value, self.parameter_type))
        probs1 = self._check_param_type(probs1)
        pmf = F.exp(F.add(F.mul(F.log1p(F.neg(probs1)), value), F.log(probs1)))
        return where(F.less(value, 0.0), 0.0, pmf)

    def _cdf(self, value: Tensor, probs1: Tensor | None = None) -> Tensor:
        value = F.floor(self._cast_value(value, self.parameter_type))
        probs1 = self._check_param_type(probs1)
        cdf = F.sub(1.0, F.pow(F.sub(1.0, probs1), F.add(value, 1.0)))
        return where(F.less(value, 0.0), 0.0, cdf)

    def _kl_loss(self, dist: str, probs1_b: Tensor, probs1: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Geometric")
        probs1_b = self._cast_other(probs1_b, "probs1_b")
        probs1_a = self._check_param_type(probs1)
        probs0_a, probs0_b = F.sub(1.0, probs1_a), F.sub(1.0, probs1_b)
        return F.add(log_generic(F.real_div(probs1_a, probs1_b)),
                     F.mul(F.real_div(probs0_a, probs1_a),
                           log_generic(F.real_div(probs0_a, probs0_b))))

    def _cross_entropy(self, dist: str, probs1_b: Tensor,
                       probs1: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Geometric")
        return F.add(self._entropy(probs1), self._kl_loss(dist, probs1_b, probs1))

    def _sample(self, shape: tuple = (), probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        draws = F.cast(self._uniform(self._sample_shape(shape, probs1)), probs1.dtype)
        # inverse cdf: floor(log(1 - u) / log(1 - p)), u in [0, 1)
        return F.cast(F.floor(F.real_div(F.log1p(F.neg(draws)), F.log1p(F.neg(probs1)))),
                      self.dtype)
