"""Random composites on the random primitives: ``normal``, ``uniform``, ``laplace``,
``gamma``, ``poisson``, ``multinomial``, ``random_categorical``. ``seed`` is the op seed, combined
with the global seed (``ember.set_seed``) as the primitives combine them."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops.operations import random_ops as R


def _seed(op: str, seed: int | None) -> int:
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"{op}: seed must be None or an int >= 0, but got {seed!r}")
    return seed


def _scaled(draws: Tensor, scale: Any, shift: Any) -> Tensor:
    return F.add(F.mul(draws, scale), shift)


def normal(shape: tuple[int, ...], mean: Any, stddev: Any, seed: int | None = None) -> Tensor:
    """Float32 draws from N(mean, stddev²) of ``shape``."""
    return _scaled(R.StandardNormal(_seed("normal", seed))(shape), stddev, mean)


def laplace(shape: tuple[int, ...], mean: Any, lambda_param: Any,
            seed: int | None = None) -> Tensor:
    """Float32 draws from Laplace(mean, lambda_param) of ``shape``."""
    return _scaled(R.StandardLaplace(_seed("laplace", seed))(shape), lambda_param, mean)


def uniform(shape: tuple[int, ...], minval: Any, maxval: Any, seed: int | None = None,
            dtype: mstype.Type = mstype.float32) -> Tensor:
    """Draws from [minval, maxval) of ``shape``: Float32, or Int32 for ``dtype`` int32."""
    seed = _seed("uniform", seed)
    if dtype is mstype.int32:
        bounds = [v if isinstance(v, Tensor) else Tensor(v, mstype.int32)
                  for v in (minval, maxval)]
        return R.UniformInt(seed)(shape, *bounds)
    if dtype is not mstype.float32:
        raise TypeError(f"uniform: dtype must be ember.float32 or ember.int32, but got {dtype}")
    return _scaled(R.UniformReal(seed)(shape), F.sub(maxval, minval), minval)


def gamma(shape: tuple[int, ...], alpha: Tensor, beta: Tensor,
          seed: int | None = None) -> Tensor:
    """Float32 draws from Gamma(alpha, rate beta)."""
    return R.Gamma(_seed("gamma", seed))(shape, alpha, beta)


def poisson(shape: tuple[int, ...], mean: Tensor, seed: int | None = None) -> Tensor:
    """Int32 draws from Poisson(mean)."""
    return R.Poisson(_seed("poisson", seed))(shape, mean)


def multinomial(inputs: Tensor, num_sample: int, replacement: bool = True,
                seed: int | None = None) -> Tensor:
    """``num_sample`` indices per row of ``inputs`` (weights), drawn with replacement."""
    if replacement is not True:
        raise ValueError("multinomial: ember draws with replacement only (replacement=True)")
    return R.Multinomial(_seed("multinomial", seed))(inputs, num_sample)


def random_categorical(logits: Tensor, num_sample: int, seed: int = 0,
                       dtype: mstype.Type = mstype.int64) -> Tensor:
    """``num_sample`` classes per row, drawn with probabilities softmax(logits)."""
    return R.RandomCategorical(dtype)(logits, num_sample, _seed("random_categorical", seed))
