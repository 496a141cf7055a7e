"""The base of distributions given by one probability of success and sampled from uniform
draws (Bernoulli, Geometric)."""

from __future__ import annotations

from ember.common import dtype as mstype
from ember.ops.operations import random_ops as R

from .._utils import check_prob
from .distribution import Distribution


class SuccessProbability(Distribution):
    """``probs`` (in [0, 1]) as the parameter, samples of a number dtype, and a
    ``UniformReal`` sampler seeded with the distribution's seed."""

    _param_checks = {"probs": lambda probs, _: check_prob(probs)}
    _dtypes = mstype.number_type

    def __init__(self, seed: int | None, dtype: mstype.Type, name: str, param: dict) -> None:
        super().__init__(seed, dtype, name, param)
        self._uniform = R.UniformReal(self.seed)

