"""Random primitives and Dropout on aclnn's Philox operators (aclnnInplaceUniform,
aclnnInplaceNormal, aclnnInplaceBernoulli, aclnnMultinomial), each call at its own (seed,
offset) of the primitive's stream; StandardLaplace, RandomCategorical, RandomChoiceWithMask,
Randperm, TruncatedNormal, Gamma and Poisson are composed of them (the last three in rounds
until every element is drawn, each round's pending mask read back to the host).

A recorded operator would repeat its seed and offset, so a graph holding one of these kernels
(marked ``draws``) runs node by node and draws anew on each call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common import seed as _seed
from ember_ascend.device import (
    AscendDevice,
    DeviceArray,
    IntArray,
    Scalar,
    View,
    contiguous_strides,
)
from ember_ascend.kernels.common import Arithmetic, cast
from ember_ascend.kernels.elementwise import _dropout_grad

_PER_COUNTER = 4  # Philox gives four 32-bit numbers a counter: offsets are multiples of 4


class _Stream:
    """The (seed, offset) of one primitive's draws. The seed comes from the primitive's seeds
    and the global seed (``op_generator``) and is made again after each ``ember.set_seed``;
    each call moves the offset past the numbers it draws."""

    def __init__(self, seed0: int, seed1: int) -> None:
        self.seeds = seed0, seed1
        self.made_under: Any = None  # the global generator when the seed was made
        self.seed = self.offset = 0

    def __call__(self, numbers: int) -> tuple[int, int]:
        if self.made_under is not _seed.generator():
            self.made_under = _seed.generator()
            self.seed = int(_seed.op_generator(*self.seeds).integers(2 ** 63))
            self.offset = 0
        offset = self.offset
        self.offset += -(-numbers // _PER_COUNTER) * _PER_COUNTER
        return self.seed, offset


def _drawing(draw: Callable[..., Any],
             seeds: Callable[[Any], tuple[int, int]] = lambda p: p.seeds) -> Any:
    """A kernel factory: ``draw(prim, dev, stream, *inputs)`` with the primitive's stream."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        stream = _Stream(*seeds(prim))

        def kernel(*inputs: Any) -> Any:
            return draw(prim, dev, stream, *inputs)

        kernel.draws = True  # type: ignore[attr-defined]
        return kernel

    return factory


def _fill(dev: AscendDevice, stream: _Stream, op: str, shape: tuple[int, ...], dtype: Any,
          *args: Any, per_element: int = 1) -> DeviceArray:
    """A new array of ``shape`` filled by the in-place operator ``op(out, *args, seed,
    offset)``, which draws ``per_element`` numbers an element."""
    out = dev.empty(shape, dtype)
    if out.size:
        dev.aclnn(op, out, *args, *stream(out.size * per_element))
    return out


def _uniform(dev: AscendDevice, stream: _Stream, shape: tuple[int, ...], dtype: Any,
             low: float = 0.0, high: float = 1.0) -> DeviceArray:
    return _fill(dev, stream, "InplaceUniform", shape, dtype, float(low), float(high))


def _standard_normal(prim: Any, dev: AscendDevice, stream: _Stream, shape: tuple) -> Any:
    return _fill(dev, stream, "InplaceNormal", shape, np.float32, 0.0, 1.0, per_element=2)


def _truncated_normal(prim: Any, dev: AscendDevice, stream: _Stream, shape: tuple) -> Any:
    """Normal draws (aclnnInplaceNormal, in float32; float64 for float64), in rounds that draw
    again the elements two standard deviations or more from 0, until none is left."""
    wide = np.float64 if prim.dtype.np_dtype == np.float64 else np.float32
    a = Arithmetic(dev, wide)
    state = {"out": _fill(dev, stream, "InplaceNormal", shape, wide, 0.0, 1.0, per_element=2)}

    def outside() -> DeviceArray:
        return a.compare("GeTensor", a.op("Abs", state["out"]), 2.0)

    def step() -> DeviceArray:
        fresh = _fill(dev, stream, "InplaceNormal", shape, wide, 0.0, 1.0, per_element=2)
        state["out"] = a.where(outside(), fresh, state["out"])
        return outside()

    _until_all(dev, outside(), step)
    return cast(dev, state["out"], prim.dtype.np_dtype)


def _randperm(prim: Any, dev: AscendDevice, stream: _Stream, n: DeviceArray) -> Any:
    """A uniform key for each of the first n places, 2 for the rest, sorted (aclnnSort): the
    first n positions of the order are a permutation of 0 .. n-1; pad after them."""
    count, size = prim.count(dev.to_host(n)), prim.max_length
    a = Arithmetic(dev, np.float32)
    inside = dev.constant(np.arange(size) < count, np.bool_)
    keys = a.where(inside, _uniform(dev, stream, (size,), np.float32), 2.0)
    values, order = dev.empty(keys.shape, np.float32), dev.empty(keys.shape, np.int64)
    dev.aclnn("Sort", keys, True, 0, False, values, order)
    return cast(dev, Arithmetic(dev, np.int64).where(inside, order, prim.pad),
                prim.dtype.np_dtype)


def _laplace(prim: Any, dev: AscendDevice, stream: _Stream, shape: tuple) -> Any:
    """log(2u) for u < 1/2, else -log(2 - 2u), of u uniform in [tiny, 1)."""
    u = _uniform(dev, stream, shape, np.float32, float(np.finfo(np.float32).tiny))
    a = Arithmetic(dev, np.float32)
    below = a.op("Log", a.mul(u, 2))
    above = a.op("Neg", a.op("Log", a.add(2, u, -2)))
    return a.where(a.compare("LtTensor", u, 0.5), below, above)


def _uniform_int(prim: Any, dev: AscendDevice, stream: _Stream, shape: tuple,
                 minval: DeviceArray, maxval: DeviceArray) -> Any:
    """Integers in [minval, maxval) (aclnnInplaceUniform takes its bounds as doubles: they
    are read back to the host)."""
    low, high = (int(dev.to_host(v)) for v in (minval, maxval))
    if low >= high:
        raise ValueError(f"UniformInt: minval ({low}) must be less than maxval ({high})")
    return _uniform(dev, stream, shape, np.int32, low, high)


def _broadcast(dev: AscendDevice, x: DeviceArray, shape: tuple[int, ...]) -> DeviceArray:
    """``x`` in float32, expanded to ``shape`` (aclnnExpand)."""
    out = dev.empty(shape, np.float32)
    dev.aclnn("Expand", cast(dev, x, np.float32), IntArray(shape), out)
    return out


def _any(dev: AscendDevice, mask: DeviceArray) -> bool:
    """Whether any element of ``mask`` is True (aclnnAny, read back to the host)."""
    flag = dev.empty((), np.bool_)
    dev.aclnn("Any", mask, IntArray(tuple(range(mask.ndim))), False, flag)
    return bool(dev.to_host(flag).item())


def _until_all(dev: AscendDevice, pending: DeviceArray, step: Callable[[], DeviceArray]) -> None:
    """Rounds of ``step`` (which returns the new pending mask) while any element is pending."""
    while _any(dev, pending):
        pending = step()


def _refuse(dev: AscendDevice, a: Arithmetic, op: str, name: str, values: DeviceArray) -> None:
    """ValueError where any of ``values`` is not positive (``op`` "LeTensor") or negative
    ("LtTensor"), as NumPy's samplers refuse them."""
    if _any(dev, a.compare(op, values, 0)):
        what = "positive" if op == "LeTensor" else "non-negative"
        raise ValueError(f"{name} must be {what}")


def _gamma(prim: Any, dev: AscendDevice, stream: _Stream, shape: tuple, alpha: DeviceArray,
           beta: DeviceArray) -> Any:
    """Marsaglia and Tsang's method: rounds of a normal and a uniform draw for the elements
    not yet accepted, until none is left; below alpha 1, Gamma(alpha + 1) * u^(1 / alpha);
    over the rate beta."""
    size = np.broadcast_shapes(tuple(shape), alpha.shape, beta.shape)
    out = dev.empty(size, np.float32)
    if not out.size:
        return out
    a = Arithmetic(dev, np.float32)
    alpha, beta = _broadcast(dev, alpha, size), _broadcast(dev, beta, size)
    _refuse(dev, a, "LeTensor", "Gamma: alpha", alpha)
    _refuse(dev, a, "LeTensor", "Gamma: beta", beta)
    small = a.compare("LtTensor", alpha, 1)
    d = a.add(a.where(small, a.add(alpha, 1), alpha), -1 / 3)
    c = a.op("Rsqrt", a.mul(d, 9))
    state = {"result": dev.zero(out), "pending": a.compare("GtTensor", alpha, 0)}
    tiny = float(np.finfo(np.float32).tiny)

    def step() -> DeviceArray:
        x = _fill(dev, stream, "InplaceNormal", size, np.float32, 0.0, 1.0, per_element=2)
        u = _uniform(dev, stream, size, np.float32, tiny)
        t = a.add(a.mul(c, x), 1)
        v = a.mul(a.mul(t, t), t)
        bound = a.add(a.sub(a.add(a.mul(a.mul(x, x), 0.5), d), a.mul(d, v)),
                      a.mul(d, a.op("Log", v)))
        accepted = a.op("LogicalAnd", a.positive(v), a.compare("LtTensor", a.op("Log", u), bound),
                        out_dtype=np.bool_)
        take = a.op("LogicalAnd", state["pending"], accepted, out_dtype=np.bool_)
        state["result"] = a.where(take, a.mul(d, v), state["result"])
        state["pending"] = a.op("LogicalAnd", state["pending"], a.op("LogicalNot", take,
                                                                     out_dtype=np.bool_),
                                out_dtype=np.bool_)
        return state["pending"]

    _until_all(dev, state["pending"], step)
    u = _uniform(dev, stream, size, np.float32, tiny)
    boost = a.op("PowTensorTensor", u, a.div(1, alpha))
    result = a.where(small, a.mul(state["result"], boost), state["result"])
    return a.div(result, beta)


def _poisson(prim: Any, dev: AscendDevice, stream: _Stream, shape: tuple,
             mean: DeviceArray) -> Any:
    """The number of arrivals before time 1 of exponential gaps of mean 1 / mean: rounds of a
    uniform draw for the elements still counting, until none is left (about mean + 1
    rounds)."""
    size = np.broadcast_shapes(tuple(shape), mean.shape)
    count = dev.zero(dev.empty(size, np.float32))
    if not count.size:
        return cast(dev, count, np.int32)
    a = Arithmetic(dev, np.float32)
    rate = _broadcast(dev, mean, size)
    _refuse(dev, a, "LtTensor", "Poisson: mean", rate)
    state = {"time": dev.zero(dev.empty(size, np.float32)), "count": count,
             "pending": a.positive(rate)}
    tiny = float(np.finfo(np.float32).tiny)

    def step() -> DeviceArray:
        gap = a.div(a.op("Neg", a.op("Log", _uniform(dev, stream, size, np.float32, tiny))), rate)
        state["time"] = a.add(state["time"], gap)
        arrived = a.op("LogicalAnd", state["pending"], a.compare("LtTensor", state["time"], 1),
                       out_dtype=np.bool_)
        state["count"] = a.add(state["count"], cast(dev, arrived, np.float32))
        state["pending"] = arrived
        return arrived

    _until_all(dev, state["pending"], step)
    return cast(dev, state["count"], np.int32)


def _dropout(prim: Any, dev: AscendDevice, stream: _Stream, x: DeviceArray) -> Any:
    """The mask: 1 with probability keep_prob (aclnnInplaceBernoulli) in x's dtype; the output
    x * mask / keep_prob (DropoutGrad's formula)."""
    mask = _fill(dev, stream, "InplaceBernoulli", x.shape, x.dtype,
                 Scalar(prim.keep_prob, np.float32))
    return _dropout_grad(prim, dev)(x, mask), mask


def _channel_dropout(prim: Any, dev: AscendDevice, stream: _Stream, x: DeviceArray) -> Any:
    """One Bernoulli draw per (sample, channel), expanded over the map (aclnnExpand); the
    output x * kept / keep_prob, computed in float32 (float64 for float64 x)."""
    wide = np.float64 if x.dtype == np.float64 else np.float32
    kept = _fill(dev, stream, "InplaceBernoulli", x.shape[:2] + (1,) * (x.ndim - 2), wide,
                 Scalar(prim.keep_prob, np.float32))
    a = Arithmetic(dev, wide)
    scale = 1 / prim.keep_prob if prim.keep_prob else 0.0
    out = cast(dev, a.mul(a.mul(cast(dev, x, wide), kept), scale), x.dtype)
    mask = dev.empty(x.shape, np.bool_)
    if mask.size:
        dev.aclnn("Expand", a.positive(kept), IntArray(x.shape), mask)
    return out, mask


def _sample(dev: AscendDevice, stream: _Stream, weights: DeviceArray, count: int) -> DeviceArray:
    """``count`` int64 classes a row of ``weights`` (1-d or 2-d), drawn with replacement with
    probabilities proportional to the weights (aclnnMultinomial)."""
    out = dev.empty((*weights.shape[:-1], count), np.int64)
    if out.size:
        dev.aclnn("Multinomial", weights, count, True, *stream(out.size), out)
    return out


def _multinomial(prim: Any, dev: AscendDevice, stream: _Stream, x: DeviceArray,
                 num_sample: int) -> Any:
    return cast(dev, _sample(dev, stream, x, num_sample), np.int32)


def _categorical(prim: Any, dev: AscendDevice) -> Any:
    """Classes drawn with probabilities softmax(logits): one stream per ``seed`` argument."""
    streams: dict[int, _Stream] = {}

    def kernel(logits: DeviceArray, num_sample: int, seed: int = 0) -> DeviceArray:
        stream = streams.setdefault(seed, _Stream(seed, 0))
        probs = dev.empty(logits.shape, logits.dtype)
        if probs.size:
            dev.aclnn("Softmax", logits, logits.ndim - 1, probs)
        return cast(dev, _sample(dev, stream, probs, num_sample), prim.dtype.np_dtype)

    kernel.draws = True  # type: ignore[attr-defined]
    return kernel


def _choice_with_mask(prim: Any, dev: AscendDevice, stream: _Stream, x: DeviceArray) -> Any:
    """The True elements in random order: a uniform key for each True, 2 for each False,
    sorted (aclnnSort); the first ``count`` positions, unravelled, with the mask key < 2.
    Zeros and False past the last True."""
    count, rank = prim.count, x.ndim
    index, mask = dev.zero(dev.empty((count, rank), np.int32)), dev.empty((count,), np.bool_)
    dev.zero(mask)
    taken = min(count, x.size)
    if not taken:
        return index, mask
    a = Arithmetic(dev, np.float32)
    flat = View(x, (x.size,), (1,))
    keys = a.where(flat, _uniform(dev, stream, (x.size,), np.float32), 2.0)
    values, order = dev.empty(keys.shape, np.float32), dev.empty(keys.shape, np.int64)
    dev.aclnn("Sort", keys, True, 0, False, values, order)
    chosen = a.compare("LtTensor", View(values, (taken,), (1,)), 2.0)
    dev.aclnn("InplaceCopy", View(mask, (taken,), (1,)), chosen)
    i = Arithmetic(dev, np.int64)
    column = View(order, (taken, 1), (1, 1))
    position = i.op("RemainderTensorTensor",
                    i.op("FloorDivide", column, dev.constant(contiguous_strides(x.shape),
                                                             np.int64)),
                    dev.constant(x.shape, np.int64))
    position = i.where(View(chosen, (taken, 1), (1, 1)), position, 0)
    dev.aclnn("InplaceCopy", View(index, (taken, rank), (rank, 1)),
              cast(dev, position, np.int32))
    return index, mask


KERNELS = {
    "StandardNormal": _drawing(_standard_normal),
    "StandardLaplace": _drawing(_laplace),
    "UniformReal": _drawing(lambda prim, dev, stream, shape: _uniform(dev, stream, shape,
                                                                      np.float32)),
    "TruncatedNormal": _drawing(_truncated_normal),
    "Randperm": _drawing(_randperm),
    "UniformInt": _drawing(_uniform_int),
    "Gamma": _drawing(_gamma),
    "Poisson": _drawing(_poisson),
    "Multinomial": _drawing(_multinomial),
    "RandomCategorical": _categorical,
    "RandomChoiceWithMask": _drawing(_choice_with_mask),
    "Dropout": _drawing(_dropout, seeds=lambda p: (p.seed0, p.seed1)),
    "Dropout2D": _drawing(_channel_dropout),
    "Dropout3D": _drawing(_channel_dropout),
}
