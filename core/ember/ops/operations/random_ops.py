"""Random primitives: draws from standard distributions, seeded as MindSpore seeds them.

Each primitive takes ``seed`` and ``seed2`` (non-negative ints; ``seed2`` wins when set, as in
MindSpore's kernels). With either of them, or the global seed (``ember.set_seed``), set, a
primitive's sequence of draws repeats from the start after each ``set_seed``; with none, each
run draws fresh numbers. Every call draws anew
(``pure = False``: graph passes never merge or precompute them). Shapes are tuples of
positive ints given as Python values.
"""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.ops._rules import broadcast_shape, check_tensor
from ember.ops.operations.array_ops import _int_attr, _ints
from ember.ops.primitive import Primitive, Spec

__all__ = [
    "Gamma", "LogUniformCandidateSampler", "Multinomial", "Poisson", "RandomCategorical",
    "RandomChoiceWithMask", "Randperm", "StandardLaplace", "StandardNormal", "TruncatedNormal",
    "UniformCandidateSampler", "UniformInt", "UniformReal",
]


def _shape(op: str, shape: Any) -> tuple[int, ...]:
    shape = _ints(op, "shape", shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"{op}: shape {list(shape)} must not hold negative sizes")
    return shape


def _scalar(op: str, name: str, value: Any, dtypes: tuple) -> None:
    check_tensor(op, name, value, dtypes)
    if value.ndim:
        raise ValueError(f"{op}: {name} must be a 0-d Tensor, but got shape {list(value.shape)}")


class _Random(Primitive):
    """``seed`` and ``seed2`` of a random primitive."""

    pure = False

    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        self.seed = _int_attr(self.name, "seed", seed, minimum=0)
        self.seed2 = _int_attr(self.name, "seed2", seed2, minimum=0)

    @property
    def seeds(self) -> tuple[int, int]:
        """The seed pair kernels draw with: MindSpore 1.6's kernels take ``seed2`` when it is
        set, else ``seed``, so ``(10, 10)`` and ``(0, 10)`` draw the same numbers."""
        return 0, self.seed2 or self.seed


class _Standard(_Random):
    """A float32 tensor of ``shape`` from a fixed distribution: ``<Op>(seed, seed2)(shape)``."""

    def infer(self, shape: Any) -> Spec:
        return _shape(self.name, shape), mstype.float32


class StandardNormal(_Standard):
    """Draws from the standard normal distribution."""


class StandardLaplace(_Standard):
    """Draws from the Laplace distribution of location 0 and scale 1."""


class UniformReal(_Standard):
    """Draws uniformly from [0, 1)."""


class TruncatedNormal(_Random):
    """Draws from the standard normal distribution truncated to (-2, 2) (a draw two standard
    deviations or more from the mean is drawn again), of ``dtype``:
    ``TruncatedNormal(seed=0, dtype=mstype.float32)(shape)``, every size of ``shape`` positive.
    Only ``seed`` seeds it (with the global seed); it has no ``seed2``."""

    def __init__(self, seed: int = 0, dtype: mstype.Type = mstype.float32) -> None:
        super().__init__(seed, 0)
        if dtype not in mstype.float_type:
            raise TypeError(f"TruncatedNormal: dtype must be float16, float32 or float64, but "
                            f"got {dtype!r}")
        self.dtype = dtype

    def infer(self, shape: Any) -> Spec:
        shape = _ints(self.name, "shape", shape)
        for i, n in enumerate(shape):
            if n <= 0:
                raise ValueError(f"TruncatedNormal: {i}th value of shape must be positive, but "
                                 f"got {n}")
        return shape, self.dtype


class Randperm(_Random):
    """A random permutation of 0 .. n-1 for the int32 ``n`` of shape (1,), 0 <= n <=
    ``max_length``, padded to ``max_length`` with ``pad``: ``Randperm(max_length=1, pad=-1,
    dtype=mstype.int32)(n)``. It has no seeds of its own: the global seed seeds it."""

    dtypes = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8,
              mstype.uint16, mstype.uint32, mstype.uint64)

    def __init__(self, max_length: int = 1, pad: int = -1,
                 dtype: mstype.Type = mstype.int32) -> None:
        super().__init__()
        self.pad = _int_attr(self.name, "pad", pad)
        self.max_length = _int_attr(self.name, "max_length", max_length, minimum=1)
        if dtype not in self.dtypes:
            raise TypeError(f"Randperm: dtype must be one of "
                            f"[{', '.join(map(str, self.dtypes))}], but got {dtype!r}")
        self.dtype = dtype

    def infer(self, n: Any) -> Spec:
        check_tensor(self.name, "n", n, (mstype.int32,))
        if n.shape != (1,):
            raise ValueError(f"Randperm: n must have shape (1,), but got {list(n.shape)}")
        return (self.max_length,), self.dtype

    def count(self, n: Any) -> int:
        """The permutation's length from the kernel's host copy of ``n``; ValueError outside
        [0, max_length]."""
        count = int(n.reshape(-1)[0])
        if not 0 <= count <= self.max_length:
            raise ValueError(f"Randperm: n must be in [0, max_length={self.max_length}], but "
                             f"got {count}")
        return count


class UniformInt(_Random):
    """Int32 draws uniformly from [minval, maxval): ``UniformInt(seed, seed2)(shape, minval,
    maxval)``, the bounds 0-d int32 Tensors."""

    def infer(self, shape: Any, minval: Any, maxval: Any) -> Spec:
        _scalar(self.name, "minval", minval, (mstype.int32,))
        _scalar(self.name, "maxval", maxval, (mstype.int32,))
        return _shape(self.name, shape), mstype.int32


class Gamma(_Random):
    """Float32 draws from Gamma(``alpha``, rate ``beta``), of the broadcast shape of ``shape``,
    ``alpha`` and ``beta``: ``Gamma(seed, seed2)(shape, alpha, beta)``."""

    def infer(self, shape: Any, alpha: Any, beta: Any) -> Spec:
        check_tensor(self.name, "alpha", alpha, (mstype.float32,))
        check_tensor(self.name, "beta", beta, (mstype.float32,))
        params = broadcast_shape(self.name, alpha.shape, beta.shape)
        return broadcast_shape(self.name, _shape(self.name, shape), params), mstype.float32


class Poisson(_Random):
    """Int32 draws from Poisson(``mean``), of the broadcast shape of ``shape`` and ``mean``:
    ``Poisson(seed, seed2)(shape, mean)``."""

    def infer(self, shape: Any, mean: Any) -> Spec:
        check_tensor(self.name, "mean", mean, (mstype.float32,))
        return broadcast_shape(self.name, _shape(self.name, shape), mean.shape), mstype.int32


class RandomChoiceWithMask(_Random):
    """Up to ``count`` positions of the True elements of the bool ``input_x`` (rank 1 to 5), in
    random order: ``RandomChoiceWithMask(count=256, seed, seed2)(input_x)`` -> (index of shape
    (count, rank), int32, zeros past the last True; mask (count,), True where index is one)."""

    def __init__(self, count: int = 256, seed: int = 0, seed2: int = 0) -> None:
        super().__init__(seed, seed2)
        self.count = _int_attr(self.name, "count", count, minimum=1)

    def infer(self, x: Any) -> list[Spec]:
        check_tensor(self.name, "input_x", x, (mstype.bool_,))
        if not 1 <= x.ndim <= 5:
            raise ValueError(f"RandomChoiceWithMask: input_x must have rank 1 to 5, but got "
                             f"shape {list(x.shape)}")
        return [((self.count, x.ndim), mstype.int32), ((self.count,), mstype.bool_)]


def _num_sample(op: str, value: Any) -> int:
    return _int_attr(op, "num_sample", value, minimum=1)


class RandomCategorical(Primitive):
    """``num_sample`` class indices per row of the 2-d ``logits``, drawn with probabilities
    softmax(logits): ``RandomCategorical(dtype=mstype.int64)(logits, num_sample, seed=0)``."""

    pure = False

    def __init__(self, dtype: mstype.Type = mstype.int64) -> None:
        super().__init__()
        if dtype not in (mstype.int16, mstype.int32, mstype.int64):
            raise TypeError(f"RandomCategorical: dtype must be int16, int32 or int64, but got "
                            f"{dtype!r}")
        self.dtype = dtype

    def infer(self, logits: Any, num_sample: Any, seed: Any = 0) -> Spec:
        check_tensor(self.name, "logits", logits, mstype.float_type)
        if logits.ndim != 2:
            raise ValueError(f"RandomCategorical: logits must be 2-d, but got shape "
                             f"{list(logits.shape)}")
        _int_attr(self.name, "seed", seed, minimum=0)
        return (logits.shape[0], _num_sample(self.name, num_sample)), self.dtype


class Multinomial(_Random):
    """``num_sample`` indices per row of ``x`` (1-d or 2-d non-negative weights), drawn with
    replacement with probabilities proportional to the weights: ``Multinomial(seed,
    seed2)(x, num_sample)`` -> int32."""

    def infer(self, x: Any, num_sample: Any) -> Spec:
        check_tensor(self.name, "x", x, (mstype.float16, mstype.float32))
        if x.ndim not in (1, 2):
            raise ValueError(f"Multinomial: x must be 1-d or 2-d, but got shape "
                             f"{list(x.shape)}")
        return x.shape[:-1] + (_num_sample(self.name, num_sample),), mstype.int32


class _CandidateSampler(_Random):
    """``num_sampled`` classes of [0, range_max) for a batch of ``true_classes`` (batch_size,
    num_true) -> (sampled_candidates (num_sampled,) of true_classes' dtype, true_expected_count
    of true_classes' shape, sampled_expected_count (num_sampled,)), both float32.

    With ``unique`` the draws are taken with rejection until ``num_sampled`` distinct classes
    are found (with ``remove_accidental_hits``, classes of ``true_classes`` are rejected too,
    unless fewer than ``num_sampled`` would be left). A class of probability p under the
    distribution is expected ``p * num_sampled`` times when every draw was kept, else
    ``1 - (1 - p) ** tries`` for the ``tries`` draws made. Only ``seed`` seeds it (with the
    global seed); it has no ``seed2``."""

    true_dtypes: tuple = (mstype.int32, mstype.int64)

    def __init__(self, num_true: int, num_sampled: int, unique: bool, range_max: int,
                 seed: int = 0, remove_accidental_hits: bool = False) -> None:
        op = self.name
        for name, value in (("unique", unique), ("remove_accidental_hits",
                                                 remove_accidental_hits)):
            if not isinstance(value, bool):
                raise TypeError(f"{op}: {name} must be a bool, but got {value!r}")
        super().__init__(seed, 0)
        self.num_true = _int_attr(op, "num_true", num_true, minimum=1)
        self.num_sampled = _int_attr(op, "num_sampled", num_sampled, minimum=1)
        self.range_max = _int_attr(op, "range_max", range_max, minimum=1)
        if unique and num_sampled > range_max:
            raise ValueError(f"{op}: num_sampled must be at most range_max ({range_max}) when "
                             f"unique is True, but got {num_sampled}")
        self.unique, self.remove_accidental_hits = unique, remove_accidental_hits

    def infer(self, true_classes: Any) -> list[Spec]:
        check_tensor(self.name, "true_classes", true_classes, self.true_dtypes)
        if true_classes.ndim != 2 or true_classes.shape[1] != self.num_true:
            raise ValueError(f"{self.name}: true_classes must have shape (batch_size, "
                             f"num_true={self.num_true}), but got {list(true_classes.shape)}")
        sampled = (self.num_sampled,)
        return [(sampled, true_classes.dtype), (true_classes.shape, mstype.float32),
                (sampled, mstype.float32)]

    def expected_count(self, xp: Any, classes: Any, tries: Any) -> Any:
        """How often each of ``classes`` is expected among the samples (float32), after
        ``tries`` draws (``num_sampled`` when every draw was kept); ``xp`` is the kernel's
        array namespace (NumPy, ``tf.experimental.numpy``)."""
        p = self.probability(xp, xp.asarray(classes, dtype=xp.float64))
        n = self.num_sampled
        return xp.asarray(xp.where(tries == n, p * n, 1 - (1 - p) ** tries), dtype=xp.float32)

    def probability(self, xp: Any, classes: Any) -> Any:
        """The probability of each of ``classes`` (float64) under the sampled distribution."""
        return xp.ones_like(classes) / self.range_max


class UniformCandidateSampler(_CandidateSampler):
    """Candidate sampling with every class of [0, range_max) equally likely:
    ``UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)``."""


class LogUniformCandidateSampler(_CandidateSampler):
    """Candidate sampling from the log-uniform (Zipfian) distribution, class c drawn with
    probability ``log((c + 2) / (c + 1)) / log(range_max + 1)``, on int64 ``true_classes``:
    ``LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5,
    seed=0)(true_classes)``."""

    true_dtypes = (mstype.int64,)

    def __init__(self, num_true: int = 1, num_sampled: int = 5, unique: bool = True,
                 range_max: int = 5, seed: int = 0) -> None:
        super().__init__(num_true, num_sampled, unique, range_max, seed)

    def probability(self, xp: Any, classes: Any) -> Any:
        return xp.log((classes + 2) / (classes + 1)) / math.log1p(self.range_max)
