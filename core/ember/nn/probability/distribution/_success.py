"""The base of distributions given by one probability of success and sampled from uniform
draws (Bernoulli, Geometric)."""

from __future__ import annotations

from typing import Any

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops.operations import random_ops as R

from .._utils import check_prob
from .distribution import Distribution


class SuccessProbability(Distribution):
    """``probs`` (in [0, 1]) as the parameter, samples of a number dtype, and a
    ``UniformReal`` sampler seeded with the distribution's seed."""

    def __init__(self, probs: Any, seed: int | None, dtype: mstype.Type, name: str,
                 param: dict) -> None:
        param["param_dict"] = {"probs": probs}
        Validator.check_type_name("dtype", dtype, mstype.number_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_prob(self._probs)
        self._uniform = R.UniformReal(self.seed)

    @property
    def probs(self) -> Tensor | None:
        return self._probs

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"probs = {self._probs}"
        return f"batch_shape = {self._broadcast_shape}"
