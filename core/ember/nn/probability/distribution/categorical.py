"""The Categorical distribution."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops.operations import random_ops as R

from .._utils import (
    check_distribution_name,
    check_prob,
    check_rank,
    check_sum_equal_one,
    log_generic,
    where,
)
from .distribution import Distribution

__all__ = ["Categorical"]


class Categorical(Distribution):
    """The Categorical distribution over the classes ``0 .. K-1``, their probabilities
    ``probs`` on the last axis (the leading axes are the batch).

    Args:
        probs (list, numpy.ndarray, Tensor): rank >= 1, in (0, 1), each row summing to 1.
            Default: None.
        seed (int): the seed of sampling. Default: None (0).
        dtype (ember.dtype): the type of the samples. Default: ember.int32.
        name (str): Default: 'Categorical'.

    ``dist_spec_args`` is ``probs``.
    """

    _dist_type = "Categorical"
    _param_checks = {"probs": None}
    _dtypes = mstype.number_type

    def __init__(self, probs: Any = None, seed: int | None = None,
                 dtype: mstype.Type = mstype.int32, name: str = "Categorical") -> None:
        super().__init__(seed, dtype, name, dict(locals()))
        if self.probs is not None:
            check_rank(self.probs)
            check_prob(self.probs)
            check_sum_equal_one(self.probs)
            if self.probs.shape[:-1] == ():
                self._is_scalar_batch = True
            self._broadcast_shape = self._broadcast_shape[:-1]
        self._multinomial = R.Multinomial(self.seed)

    def _classes(self, probs: Tensor) -> Tensor:
        """``0 .. K-1`` in ``probs``' dtype."""
        return F.cast(Tensor(np.arange(probs.shape[-1])), probs.dtype)

    def _mean(self, probs: Tensor | None = None) -> Tensor:
        probs = self._check_param_type(probs)
        return F.reduce_sum(F.mul(probs, self._classes(probs)), -1)

    def _mode(self, probs: Tensor | None = None) -> Tensor:
        return F.cast(P.Argmax(axis=-1)(self._check_param_type(probs)), self.dtype)

    def _var(self, probs: Tensor | None = None) -> Tensor:
        probs = self._check_param_type(probs)
        classes = self._classes(probs)
        mean = F.reduce_sum(F.mul(probs, classes), -1)
        return F.sub(F.reduce_sum(F.mul(probs, F.square(classes)), -1), F.square(mean))

    def _entropy(self, probs: Tensor | None = None) -> Tensor:
        probs = self._check_param_type(probs)
        return F.neg(F.reduce_sum(F.mul(probs, log_generic(probs)), -1))

    def _kl_loss(self, dist: str, probs_b: Tensor, probs: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Categorical")
        probs_b = self._cast_other(probs_b, "probs_b")
        probs_a = self._check_param_type(probs)
        log_a = F.log_softmax(log_generic(probs_a), -1)
        log_b = F.log_softmax(log_generic(probs_b), -1)
        return F.reduce_sum(F.mul(F.exp(log_a), F.sub(log_a, log_b)), -1)

    def _cross_entropy(self, dist: str, probs_b: Tensor, probs: Tensor | None = None) -> Tensor:
        check_distribution_name(dist, "Categorical")
        return F.add(self._entropy(probs), self._kl_loss(dist, probs_b, probs))

    def _pick(self, value: Tensor, table: Tensor) -> tuple[Tensor, Tensor]:
        """``table[..., value]`` (value broadcast with the batch) and the floored value."""
        value = self._cast_value(value, table.dtype)
        value = where(F.logical_and(F.less(value, 0.0), F.greater(value, -1.0)), 0.0,
                      F.floor(value))
        value = F.expand_dims(value, -1)
        hit = F.equal(value, self._classes(table))  # (..., K), one True inside [0, K)
        picked = F.reduce_sum(where(hit, table, 0.0), -1)
        return picked, F.squeeze(value, -1)

    def _log_prob(self, value: Tensor, probs: Tensor | None = None) -> Tensor:
        probs = self._check_param_type(probs)
        picked, value = self._pick(value, log_generic(probs))
        outside = F.logical_or(F.less(value, 0.0), F.greater(value, probs.shape[-1] - 1.0))
        return where(outside, math.nan, picked)

    def _cdf(self, value: Tensor, probs: Tensor | None = None) -> Tensor:
        probs = self._check_param_type(probs)
        top = probs.shape[-1] - 1.0
        clipped = F.minimum(self._cast_value(value, probs.dtype), top)
        picked, value = self._pick(clipped, F.cumsum(probs, -1))
        return where(F.less(value, 0.0), 0.0, picked)

    def _sample(self, shape: tuple = (), probs: Tensor | None = None) -> Tensor:
        probs = self._check_param_type(probs)
        sample_shape = self._sample_shape(shape, F.reduce_sum(probs, -1))
        num_classes = probs.shape[-1]
        rows = F.reshape(F.cast(probs, mstype.float32), (-1, num_classes))
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        draws = self._multinomial(rows, count)  # (batch, count)
        return F.cast(F.reshape(F.transpose(draws, (1, 0)), sample_shape), self.dtype)
