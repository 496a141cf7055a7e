"""``TransformedDistribution``: the distribution of ``Y = f(X)`` for a bijector ``f``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F

from .._utils import exp_generic, log_generic, where
from ..bijector.bijector import Bijector
from .distribution import Distribution

__all__ = ["TransformedDistribution"]


class TransformedDistribution(Distribution):
    """The distribution of ``Y = bijector(X)``, ``X`` drawn from ``distribution``:
    ``log p_Y(y) = log p_X(f^-1(y)) + log |d f^-1 / dy|``, ``cdf_Y(y) = cdf_X(f^-1(y))``
    (for an increasing ``f``), samples ``f(x)``. ``mean`` is defined for a linear ``f`` only.

    Args:
        bijector (Bijector): the transformation.
        distribution (Distribution): the distribution of ``X``, of a float dtype.
        seed (int): the seed of sampling. Default: None (0).
        name (str): Default: 'transformed_distribution'.

    The ``dist_spec_args`` of ``distribution`` may follow the value of every function.
    """

    def __init__(self, bijector: Bijector, distribution: Distribution, seed: int | None = None,
                 name: str = "transformed_distribution") -> None:
        param = dict(locals())
        Validator.check_value_type("bijector", bijector, [Bijector], type(self).__name__)
        Validator.check_value_type("distribution", distribution, [Distribution],
                                   type(self).__name__)
        Validator.check_type_name("dtype", distribution.dtype, mstype.float_type,
                                  type(self).__name__)
        super().__init__(seed, distribution.dtype, name, param)
        self._bijector = bijector
        self._distribution = distribution
        self._is_linear_transformation = bijector.is_constant_jacobian
        self._is_scalar_batch = distribution.is_scalar_batch and bijector.is_scalar_batch
        self._batch_shape = distribution.batch_shape
        self.parameter_type = distribution.parameter_type
        if self._batch_shape is None or bijector.batch_shape is None:
            self._broadcast_shape = None
        else:
            self._broadcast_shape = tuple(np.broadcast_shapes(self._batch_shape,
                                                              bijector.batch_shape))

    @property
    def bijector(self) -> Bijector:
        return self._bijector

    @property
    def distribution(self) -> Distribution:
        return self._distribution

    @property
    def is_linear_transformation(self) -> bool:
        return self._is_linear_transformation

    def _cdf(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return self.distribution("cdf", self.bijector("inverse", value), *args, **kwargs)

    def _log_cdf(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return log_generic(self._cdf(value, *args, **kwargs))

    def _survival_function(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return F.sub(1.0, self._cdf(value, *args, **kwargs))

    def _log_survival(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return log_generic(self._survival_function(value, *args, **kwargs))

    def _log_prob(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        inverse = self.bijector("inverse", value)
        unadjusted = self.distribution("log_prob", inverse, *args, **kwargs)
        adjusted = F.add(unadjusted, self.bijector("inverse_log_jacobian", value))
        # outside the support the density stays 0 whatever the Jacobian is there
        return where(F.equal(unadjusted, -np.inf), unadjusted, adjusted)

    def _prob(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return exp_generic(self._log_prob(value, *args, **kwargs))

    def _sample(self, *args: Any, **kwargs: Any) -> Tensor:
        return self.bijector("forward", self.distribution("sample", *args, **kwargs))

    def _mean(self, *args: Any, **kwargs: Any) -> Tensor:
        if not self.is_linear_transformation:
            raise ValueError("mean function should be implemented for non-linear "
                             "transformation")
        return self.bijector("forward", self.distribution("mean", *args, **kwargs))


Bijector._transform = (Distribution, TransformedDistribution)
