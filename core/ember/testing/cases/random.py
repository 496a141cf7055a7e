"""Cases for ``ember.ops.operations.random_ops`` whose result is certain: empty shapes,
one-value ranges, zero means, one True element, permutations of one or none, probability-one
classes (candidate samplers over one class). They check shapes, dtypes and both modes; the
distributions themselves are checked by ``ember.testing.statistics``."""

from __future__ import annotations

import numpy as np

from ember.common import dtype as mstype
from ember.ops import operations as P
from ember.testing.cases import OpCase

F32 = (np.float32,)


def _empty(prim: str) -> OpCase:
    return OpCase(f"{prim}/empty", prim, getattr(P, prim), lambda rng, dt: ((2, 0),),
                  lambda shape: np.zeros(shape, np.float32), F32)


def _one_true(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.array([[1, 2], [0, 0], [0, 0]], np.int32), np.array([True, False, False])


def _one_class(num_sampled: int):
    """A candidate sampler's outputs when class 0 is the only class: every draw is kept, so
    each class is expected ``num_sampled`` times."""

    def reference(true_classes: np.ndarray) -> tuple:
        return (np.zeros(num_sampled, true_classes.dtype),
                np.full(true_classes.shape, num_sampled, np.float32),
                np.full(num_sampled, num_sampled, np.float32))

    return reference


_CERTAIN = np.array([[-1e9, 0.0, -1e9], [0.0, -1e9, -1e9]], np.float32)

CASES: list[OpCase] = [
    _empty("StandardNormal"),
    _empty("StandardLaplace"),
    _empty("UniformReal"),
    OpCase("Randperm/one-and-pad", "Randperm", lambda: P.Randperm(4, pad=7),
           lambda rng, dt: (np.array([1], np.int32),),
           lambda n: np.array([0, 7, 7, 7], np.int32), F32),
    OpCase("Randperm/none-int64", "Randperm", lambda: P.Randperm(3, dtype=mstype.int64),
           lambda rng, dt: (np.array([0], np.int32),),
           lambda n: np.full(3, -1, np.int64), F32),
    OpCase("UniformInt/one-value", "UniformInt", lambda: P.UniformInt(seed=1),
           lambda rng, dt: ((3, 4), np.array(5, np.int32), np.array(6, np.int32)),
           lambda shape, lo, hi: np.full(shape, 5, np.int32), F32),
    OpCase("Gamma/empty-broadcast", "Gamma", P.Gamma,
           lambda rng, dt: ((2, 0), np.ones(1, np.float32), np.ones(1, np.float32)),
           lambda shape, a, b: np.zeros((2, 0), np.float32), F32),
    OpCase("Poisson/zero-mean", "Poisson", lambda: P.Poisson(3, 4),
           lambda rng, dt: ((2, 3), np.zeros(3, np.float32)),
           lambda shape, mean: np.zeros((2, 3), np.int32), F32),
    OpCase("RandomChoiceWithMask/one-true", "RandomChoiceWithMask",
           lambda: P.RandomChoiceWithMask(3),
           lambda rng, dt: (np.array([[False] * 3, [False, False, True]]),), _one_true, F32),
    OpCase("RandomCategorical/certain", "RandomCategorical", P.RandomCategorical,
           lambda rng, dt: (_CERTAIN, 4, 2),
           lambda logits, n, seed: np.array([[1] * 4, [0] * 4], np.int64), F32),
    OpCase("Multinomial/one-hot-weights", "Multinomial", P.Multinomial,
           lambda rng, dt: (np.array([[0, 0, 1], [1, 0, 0]], np.float32), 5),
           lambda x, n: np.array([[2] * 5, [0] * 5], np.int32), F32),
    OpCase("UniformCandidateSampler/one-class", "UniformCandidateSampler",
           lambda: P.UniformCandidateSampler(2, 1, True, 1, seed=1, remove_accidental_hits=True),
           lambda rng, dt: (np.zeros((3, 2), dt),), _one_class(1), (np.int32, np.int64)),
    OpCase("UniformCandidateSampler/one-class-repeated", "UniformCandidateSampler",
           lambda: P.UniformCandidateSampler(1, 3, False, 1),
           lambda rng, dt: (np.zeros((2, 1), dt),), _one_class(3), (np.int32, np.int64)),
    OpCase("LogUniformCandidateSampler/one-class", "LogUniformCandidateSampler",
           lambda: P.LogUniformCandidateSampler(1, 4, False, 1),
           lambda rng, dt: (np.zeros((2, 1), dt),), _one_class(4), (np.int64,)),
]
