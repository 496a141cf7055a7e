"""Parameter initializers, as ``mindspore.common.initializer``.

An :class:`Initializer` fills a NumPy array in place (``init(arr)``); :func:`initializer` makes a
Tensor of a shape and dtype from an Initializer, one of its registered names (``"normal"``), a
number or a ready Tensor. Every random draw comes from :func:`ember.common.seed.generator`, so
``ember.set_seed`` makes them reproducible.
"""

from __future__ import annotations

import abc
import math
import numbers
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.seed import generator
from ember.common.tensor import Tensor

__all__ = [
    "Constant", "Dirac", "HeNormal", "HeUniform", "Identity", "Initializer", "Normal", "One",
    "Orthogonal", "Sparse", "TruncatedNormal", "Uniform", "VarianceScaling", "XavierUniform",
    "Zero", "initializer",
]

#: Registered names (lower case) -> Initializer class, as MindSpore's ``_INITIALIZER_ALIAS``.
_ALIASES: dict[str, type[Initializer]] = {}


def _register(*aliases: str) -> Any:
    """Register a class under its lower-cased name and ``aliases``."""
    def decorate(cls: type[Initializer]) -> type[Initializer]:
        for name in (cls.__name__.lower(), *aliases):
            _ALIASES[name] = cls
        return cls

    return decorate


def _number(owner: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: {name} must be a real number, but got {value!r}")
    return value


class Initializer(abc.ABC):
    """Base class of initializers: ``init(arr)`` fills the NumPy array ``arr`` in place.

    A subclass defines ``_initialize(arr)``; the keyword arguments it was built with are kept
    in ``_kwargs``.
    """

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs

    @abc.abstractmethod
    def _initialize(self, arr: np.ndarray) -> None:
        """Fill ``arr`` in place."""

    def __call__(self, arr: np.ndarray) -> np.ndarray:
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"{type(self).__name__}: fills a NumPy array in place, but got "
                            f"{type(arr).__name__}")
        self._initialize(arr)
        return arr

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


@_register("zeros")
class Zero(Initializer):
    """Fill with 0."""

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = 0


@_register("ones")
class One(Initializer):
    """Fill with 1."""

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = 1


class Constant(Initializer):
    """Fill with ``value`` (a number, or an array broadcast to the shape)."""

    def __init__(self, value: Any) -> None:
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = self.value


@_register()
class Normal(Initializer):
    """Draw from N(mean, sigma**2): ``Normal(sigma=0.01, mean=0.0)``."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = _number("Normal", "sigma", sigma)
        self.mean = _number("Normal", "mean", mean)
        if sigma < 0:
            raise ValueError(f"Normal: sigma must be >= 0, but got {sigma}")

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = generator().normal(self.mean, self.sigma, arr.shape)


@_register()
class Uniform(Initializer):
    """Draw from U(-scale, scale): ``Uniform(scale=0.07)``."""

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = _number("Uniform", "scale", scale)

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = generator().uniform(-self.scale, self.scale, arr.shape)


@_register()
class TruncatedNormal(Initializer):
    """Draw from N(0, sigma**2) truncated to [-2 sigma, 2 sigma]:
    ``TruncatedNormal(sigma=0.01)``."""

    def __init__(self, sigma: float = 0.01) -> None:
        super().__init__(sigma=sigma)
        self.sigma = _number("TruncatedNormal", "sigma", sigma)
        if sigma < 0:
            raise ValueError(f"TruncatedNormal: sigma must be >= 0, but got {sigma}")

    def _initialize(self, arr: np.ndarray) -> None:
        rng = generator()
        draws = rng.standard_normal(arr.shape)
        outside = np.abs(draws) > 2
        while outside.any():  # redraw the ~4.6% outside the bounds, vectorised
            draws[outside] = rng.standard_normal(int(outside.sum()))
            outside = np.abs(draws) > 2
        arr[...] = draws * self.sigma


def _calculate_fan_in_and_fan_out(shape: tuple[int, ...]) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight: (in, out) for a matrix ``(out, in)``, times the
    receptive field size (product of the dimensions after the second) for a kernel."""
    if len(shape) < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for a tensor with fewer "
                         f"than 2 dimensions, but got shape {list(shape)}")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


_LINEAR_GAINS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                 "conv_transpose3d", "sigmoid")
_NONLINEARITIES = (*_LINEAR_GAINS, "tanh", "relu", "leaky_relu")


class _He(Initializer):
    """Kaiming He's initializers: the standard deviation is gain / sqrt(fan)."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        owner = type(self).__name__
        if not isinstance(mode, str) or mode.lower() not in ("fan_in", "fan_out"):
            raise ValueError(f"{owner}: mode must be 'fan_in' or 'fan_out', but got {mode!r}")
        if nonlinearity not in _NONLINEARITIES:
            raise ValueError(f"{owner}: nonlinearity must be one of {list(_NONLINEARITIES)}, "
                             f"but got {nonlinearity!r}")
        self.negative_slope = _number(owner, "negative_slope", negative_slope)
        self.mode = mode.lower()
        self.nonlinearity = nonlinearity

    def _gain(self) -> float:
        if self.nonlinearity == "tanh":
            return 5.0 / 3
        if self.nonlinearity == "relu":
            return math.sqrt(2.0)
        if self.nonlinearity == "leaky_relu":
            return math.sqrt(2.0 / (1 + self.negative_slope ** 2))
        return 1.0

    def _std(self, shape: tuple[int, ...]) -> float:
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        return self._gain() / math.sqrt(fan_in if self.mode == "fan_in" else fan_out)


@_register("he_uniform")
class HeUniform(_He):
    """Draw from U(-b, b), b = gain * sqrt(3 / fan):
    ``HeUniform(negative_slope=0, mode='fan_in', nonlinearity='leaky_relu')``."""

    def _initialize(self, arr: np.ndarray) -> None:
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = generator().uniform(-bound, bound, arr.shape)


@_register("he_normal")
class HeNormal(_He):
    """Draw from N(0, (gain / sqrt(fan))**2):
    ``HeNormal(negative_slope=0, mode='fan_in', nonlinearity='leaky_relu')``."""

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = generator().normal(0.0, self._std(arr.shape), arr.shape)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """Draw from U(-b, b), b = gain * sqrt(6 / (fan_in + fan_out)): ``XavierUniform(gain=1)``."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = _number("XavierUniform", "gain", gain)

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = generator().uniform(-bound, bound, arr.shape)


def _rank(owner: str, arr: np.ndarray, ranks: tuple[int, ...]) -> None:
    if arr.ndim not in ranks:
        raise ValueError(f"{owner}: needs a tensor of rank {' or '.join(map(str, ranks))}, but "
                         f"got shape {list(arr.shape)}")


@_register()
class Identity(Initializer):
    """The identity matrix (ones on the main diagonal) of a 2-D tensor."""

    def _initialize(self, arr: np.ndarray) -> None:
        _rank("Identity", arr, (2,))
        arr[...] = np.eye(*arr.shape)


@_register()
class Sparse(Initializer):
    """A 2-D tensor drawn from N(0, sigma²) with ``sparsity`` of each column zero."""

    def __init__(self, sparsity: float, sigma: float = 0.01) -> None:
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity = _number("Sparse", "sparsity", sparsity)
        if not 0 <= sparsity <= 1:
            raise ValueError(f"Sparse: sparsity must be in [0, 1], but got {sparsity}")
        self.sigma = _number("Sparse", "sigma", sigma)

    def _initialize(self, arr: np.ndarray) -> None:
        _rank("Sparse", arr, (2,))
        rows, cols = arr.shape
        rng = generator()
        arr[...] = rng.normal(0.0, self.sigma, arr.shape)
        zeros = int(math.ceil(self.sparsity * rows))
        for col in range(cols):
            arr[rng.permutation(rows)[:zeros], col] = 0


@_register()
class Dirac(Initializer):
    """A 3-D to 5-D convolution kernel that passes its input through (per group): weight
    ``[g * out_per_group + i, i, center...] = 1``."""

    def __init__(self, groups: int = 1) -> None:
        super().__init__(groups=groups)
        if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            raise ValueError(f"Dirac: groups must be a positive int, but got {groups!r}")
        self.groups = groups

    def _initialize(self, arr: np.ndarray) -> None:
        _rank("Dirac", arr, (3, 4, 5))
        if arr.shape[0] % self.groups:
            raise ValueError(f"Dirac: dimension 0 ({arr.shape[0]}) must be divisible by "
                             f"groups ({self.groups})")
        arr[...] = 0
        per_group = arr.shape[0] // self.groups
        center = tuple(n // 2 for n in arr.shape[2:])
        for g in range(self.groups):
            for i in range(min(per_group, arr.shape[1])):
                arr[(g * per_group + i, i, *center)] = 1


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``, from the QR decomposition of a normal draw
    (dimensions after the first are flattened)."""

    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = _number("Orthogonal", "gain", gain)

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim < 2:
            raise ValueError(f"Orthogonal: needs rank >= 2, but got shape {list(arr.shape)}")
        rows, cols = arr.shape[0], int(np.prod(arr.shape[1:]))
        flat = generator().normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        q = q.T if rows < cols else q
        arr[...] = (self.gain * q[:rows, :cols]).reshape(arr.shape)


@_register()
class VarianceScaling(Initializer):
    """Draws with variance ``scale / n``, n the fan-in, fan-out or their mean (``mode``):
    from a normal truncated to 2 standard deviations, a normal, or a uniform
    (``distribution``)."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal") -> None:
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        self.scale = _number("VarianceScaling", "scale", scale)
        if not scale > 0:
            raise ValueError(f"VarianceScaling: scale must be > 0, but got {scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"VarianceScaling: mode must be 'fan_in', 'fan_out' or 'fan_avg', "
                             f"but got {mode!r}")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"VarianceScaling: distribution must be 'uniform', "
                             f"'truncated_normal' or 'untruncated_normal', but got "
                             f"{distribution!r}")
        self.mode, self.distribution = mode, distribution

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        variance = self.scale / max(1.0, n)
        rng = generator()
        if self.distribution == "uniform":
            bound = math.sqrt(3.0 * variance)
            arr[...] = rng.uniform(-bound, bound, arr.shape)
        elif self.distribution == "untruncated_normal":
            arr[...] = rng.normal(0.0, math.sqrt(variance), arr.shape)
        else:  # the standard deviation of N(0, 1) truncated to [-2, 2] is 0.87962566
            TruncatedNormal(math.sqrt(variance) / 0.87962566)._initialize(arr)


def _shape_arg(shape: Any) -> tuple[int, ...] | None:
    if shape is None:
        return None
    dims = (shape,) if isinstance(shape, numbers.Integral) else shape
    if not isinstance(dims, tuple | list) or not all(
            isinstance(n, numbers.Integral) and not isinstance(n, bool) and n > 0 for n in dims):
        raise ValueError(f"initializer: shape must be a positive int or a tuple/list of positive "
                         f"ints, but got {shape!r}")
    return tuple(int(n) for n in dims)


def initializer(init: Any, shape: Any = None, dtype: mstype.Type = mstype.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled by ``init``.

    ``init`` is an :class:`Initializer`, a registered name (``"normal"``, ``"zeros"``,
    ``"xavier_uniform"``, ...; case-insensitive), a number (a :class:`Constant`), or a Tensor or
    NumPy array returned as a Tensor (its shape must equal ``shape`` when given). The values
    are drawn at once (MindSpore draws them lazily, at the first use).
    """
    if isinstance(init, Tensor | np.ndarray):
        if shape is not None and tuple(init.shape) != _shape_arg(shape):
            raise ValueError(f"initializer: the shape of init {list(init.shape)} differs from "
                             f"the requested shape {list(_shape_arg(shape) or ())}")
        return init if isinstance(init, Tensor) else Tensor(init)
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"initializer: unknown initializer name {init!r}; accepted "
                             f"(case-insensitive): {', '.join(sorted(_ALIASES))}")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    elif not isinstance(init, Initializer):
        raise TypeError("initializer: init must be an Initializer, a str, a number, a Tensor or "
                        f"a NumPy array, but got {type(init).__name__}")
    dims = _shape_arg(shape)
    if dims is None:
        raise ValueError(f"initializer: shape is needed to initialize with {init!r}")
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"initializer: dtype must be an ember dtype such as ember.float32, but "
                        f"got {dtype!r}")
    array = np.empty(dims, dtype=dtype.np_dtype)
    init(array)
    return Tensor(array)
