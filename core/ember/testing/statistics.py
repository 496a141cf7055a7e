"""The conformance kit's checks of random primitives, which no NumPy reference can predict:
their draws have the distribution's moments or frequencies (in PyNative and Graph mode), and
they repeat after ``set_seed`` while successive draws differ.

A primitive the backend has no kernel for is left out of these checks: its cases in the table
already fail (or are listed as the backend's known gaps).

Bounds are five standard errors of the sample statistic, so a correct backend fails about
once in two million runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ember.backend import MissingKernelError
from ember.common import dtype as mstype
from ember.common import seed as _seed
from ember.common.seed import set_seed
from ember.common.tensor import Tensor
from ember.graph.compiler import ms_function
from ember.ops import operations as P

N = 20000


@dataclass(frozen=True)
class Draw:
    """One random primitive call: ``call()`` returns the draws as a flat NumPy array; ``check``
    asserts their distribution and returns nothing."""

    name: str
    call: Callable[[Any], Any]  # prim -> Tensor (or tuple): the call with fixed inputs
    make: Callable[[], Any]
    check: Callable[[np.ndarray], None]


def _moments(mean: float, var: float, low: float = -math.inf,
             high: float = math.inf) -> Callable[[np.ndarray], None]:
    def check(x: np.ndarray) -> None:
        x = x.astype(np.float64)
        assert low <= x.min() and x.max() < high, f"draws outside [{low}, {high})"
        assert abs(x.mean() - mean) < 5 * math.sqrt(var / x.size), (
            f"mean {x.mean():.4f}, expected {mean}")
        fourth = np.mean((x - mean) ** 4)  # the variance of the sample variance is ~(m4-v^2)/n
        assert abs(x.var() - var) < 5 * math.sqrt(max(fourth - var ** 2, 1e-12) / x.size), (
            f"variance {x.var():.4f}, expected {var}")

    return check


def _frequencies(probs: list[float]) -> Callable[[np.ndarray], None]:
    def check(x: np.ndarray) -> None:
        counts = np.bincount(x.astype(np.int64), minlength=len(probs))
        assert len(counts) == len(probs), f"classes {np.unique(x)} beyond {len(probs)}"
        for k, p in enumerate(probs):
            assert abs(counts[k] / x.size - p) < 5 * math.sqrt(p * (1 - p) / x.size) + 1e-12, (
                f"class {k}: frequency {counts[k] / x.size:.4f}, expected {p}")

    return check


def _scalar(value: float, dtype: mstype.Type = mstype.float32) -> Tensor:
    return Tensor(np.array(value, dtype.np_dtype))


def _choices(out: tuple) -> np.ndarray:
    """RandomChoiceWithMask on 8 True of 20 elements, count 4: the flat positions chosen."""
    index, mask = (o.asnumpy() for o in out)
    assert mask.tolist() == [True] * 4, f"mask {mask}"
    flat = index[:, 0] * 5 + index[:, 1]
    assert len(set(flat.tolist())) == 4 and set(flat.tolist()) <= set(_TRUE), f"chose {flat}"
    return flat


def _permutation(x: np.ndarray) -> None:
    assert np.array_equal(np.sort(x), np.arange(x.size)), "not a permutation"


#: The variance of the standard normal truncated to (-2, 2): 1 - 4 phi(2) / (2 Phi(2) - 1).
_TRUNCATED_VAR = 1 - 4 * math.exp(-2) / math.sqrt(2 * math.pi) / math.erf(math.sqrt(2))

_TRUE = [0, 3, 4, 7, 9, 12, 15, 19]
_MASK = np.isin(np.arange(20), _TRUE).reshape(4, 5)

DRAWS = [
    Draw("StandardNormal", lambda p: p((N,)), P.StandardNormal, _moments(0.0, 1.0)),
    Draw("StandardLaplace", lambda p: p((N,)), P.StandardLaplace, _moments(0.0, 2.0)),
    Draw("TruncatedNormal", lambda p: p((N,)), P.TruncatedNormal,
         _moments(0.0, _TRUNCATED_VAR, -2.0, 2.0)),
    Draw("Randperm", lambda p: p(Tensor(np.array([N], np.int32))),
         lambda: P.Randperm(N), _permutation),
    Draw("UniformReal", lambda p: p((N,)), P.UniformReal, _moments(0.5, 1 / 12, 0.0, 1.0)),
    Draw("UniformInt", lambda p: p((N,), _scalar(-3, mstype.int32), _scalar(5, mstype.int32)),
         P.UniformInt, lambda x: _frequencies([1 / 8] * 8)(x + 3)),
    Draw("Gamma", lambda p: p((N,), _scalar(2.0), _scalar(4.0)), P.Gamma,
         _moments(0.5, 2.0 / 16, 0.0)),
    Draw("Poisson", lambda p: p((N,), _scalar(3.0)), P.Poisson, _moments(3.0, 3.0, 0.0)),
    Draw("RandomCategorical", lambda p: p(Tensor(np.log([[0.2, 0.3, 0.5]]).astype(np.float32)),
                                          N, 0),
         P.RandomCategorical, _frequencies([0.2, 0.3, 0.5])),
    Draw("Multinomial", lambda p: p(Tensor(np.array([1.0, 3.0, 6.0], np.float32)), N),
         P.Multinomial, _frequencies([0.1, 0.3, 0.6])),
    # a channel a draw: the masks of (100, 200) channels of one element each
    Draw("Dropout2D", lambda p: p(Tensor(np.ones((100, 200, 1, 1), np.float32)))[1],
         lambda: P.Dropout2D(0.7), _frequencies([0.3, 0.7])),
    Draw("Dropout3D", lambda p: p(Tensor(np.ones((200, 100, 1, 1, 1), np.float32)))[1],
         lambda: P.Dropout3D(0.4), _frequencies([0.6, 0.4])),
    Draw("DropoutGenMask", lambda p: p((N,), 0.7), P.DropoutGenMask,
         lambda x: _frequencies([0.3, 0.7])(np.unpackbits(x.astype(np.uint8),
                                                          bitorder="little"))),
]


def _values(draw: Draw, prim: Any, graph: bool) -> np.ndarray:
    call = ms_function(lambda: draw.call(prim)) if graph else (lambda: draw.call(prim))
    out = call()
    return out.asnumpy().reshape(-1)


def _runnable() -> list[Draw]:
    """The draws whose primitive the backend has a kernel for."""
    runnable = []
    for draw in DRAWS:
        try:
            draw.call(draw.make())
        except MissingKernelError:
            continue
        runnable.append(draw)
    return runnable


def check_statistics() -> None:
    """Each primitive's draws have its distribution, in PyNative mode and compiled."""
    for draw in _runnable():
        for graph in (False, True):
            try:
                draw.check(_values(draw, draw.make(), graph))
            except AssertionError as exc:
                mode = "Graph mode" if graph else "PyNative mode"
                raise AssertionError(f"{draw.name} in {mode}: {exc}") from None
    prim = P.RandomChoiceWithMask(4)
    picks = np.concatenate([_choices(prim(Tensor(_MASK))) for _ in range(500)])
    _frequencies([1 / 8] * 8)(np.searchsorted(_TRUE, picks))


def check_seeds() -> None:
    """After ``set_seed`` a primitive's draws repeat; successive draws differ; so do
    primitives with different op seeds."""
    saved = _seed._global_seed, _seed._generator
    try:
        for draw in _runnable():
            prim = draw.make()
            set_seed(11)
            first, second = (draw.call(prim).asnumpy() for _ in range(2))
            set_seed(11)
            again = draw.call(prim).asnumpy()
            assert np.array_equal(first, again), f"{draw.name}: set_seed did not repeat"
            assert not np.array_equal(first, second), f"{draw.name}: two draws were equal"
        normal = [P.StandardNormal(seed=s)((64,)).asnumpy() for s in (1, 2)]
        assert not np.array_equal(*normal), "StandardNormal: seeds 1 and 2 drew the same"
    finally:
        _seed._global_seed, _seed._generator = saved  # no fixed seed left behind
