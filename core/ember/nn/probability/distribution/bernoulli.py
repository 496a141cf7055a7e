"""The Bernoulli distribution."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import (
    check_distribution_name,
    clamp_probs,
    log_generic,
    where,
)
from ._success import SuccessProbability

__all__ = ["Bernoulli"]


class Bernoulli(SuccessProbability):
    """The Bernoulli distribution: 1 with probability ``probs``, else 0.

    Args:
        probs (float, list, numpy.ndarray, Tensor): the probability of 1, in (0, 1).
            Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): the type of the samples. Default: ember.int32.
        name (str): Default: 'Bernoulli'.

    ``dist_spec_args`` is ``probs``.

    Examples:
        >>> b = msd.Bernoulli(0.5, dtype=ember.int32)
        >>> b.prob(Tensor([1.0, 0.0, 1.0])).shape
        (3,)
    """

    _dist_type = "Bernoulli"

    def __init__(self, probs: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.int32, name: str = "Bernoulli") -> None:
        super().__init__(seed, dtype, name, dict(locals()))

    def _mean(self, probs1: Tensor | None = None) -> Tensor:
        return self._check_param_type(probs1)

    def _mode(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        return F.cast(F.greater(probs1, 0.5), self.dtype)

    def _var(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        return F.mul(probs1, F.sub(1.0, probs1))

    def _entropy(self, probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        probs0 = F.sub(1.0, probs1)
        return F.neg(F.add(F.mul(probs0, log_generic(probs0)),
                           F.mul(probs1, log_generic(probs1))))

    def _log_prob(self, value: Tensor, probs1: Tensor | None = None) -> Tensor:
        value = self._cast_value(value, self.parameter_type)
        probs1 = clamp_probs(self._check_param_type(probs1))
        return F.add(F.mul(F.log(probs1), value),
                     F.mul(F.log1p(F.neg(probs1)), F.sub(1.0, value)))

    def _cdf(self, value: Tensor, probs1: Tensor | None = None) -> Tensor:
        value = F.floor(self._cast_value(value, self.parameter_type))
        probs1 = self._check_param_type(probs1)
        return where(F.less(value, 0.0), 0.0, where(F.less(value, 1.0), F.sub(1.0, probs1), 1.0))

    def _kl_loss(self, dist: str, probs1_b: Tensor, probs1: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Bernoulli")
        probs1_b = self._cast_other(probs1_b, "probs1_b")
        probs1_a = self._check_param_type(probs1)
        probs0_a, probs0_b = F.sub(1.0, probs1_a), F.sub(1.0, probs1_b)
        return F.add(F.mul(probs1_a, log_generic(F.real_div(probs1_a, probs1_b))),
                     F.mul(probs0_a, log_generic(F.real_div(probs0_a, probs0_b))))

    def _cross_entropy(self, dist: str, probs1_b: Tensor,
                       probs1: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Bernoulli")
        return F.add(self._entropy(probs1), self._kl_loss(dist, probs1_b, probs1))

    def _sample(self, shape: tuple = (), probs1: Tensor | None = None) -> Tensor:
        probs1 = self._check_param_type(probs1)
        draws = F.cast(self._uniform(self._sample_shape(shape, probs1)), probs1.dtype)
        return F.cast(F.less(draws, probs1), self.dtype)
