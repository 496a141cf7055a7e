"""Layout kernels on TensorFlow: reshaping, joining, splitting, slicing, gathering, scattering.

Shapes, axes and slice bounds arrive as Python values; they become cached int32 constants
(:func:`_ints`), which TensorFlow converts faster than tuples and XLA sees as compile-time
constants.
"""

from __future__ import annotations

import functools
from typing import Any

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops

#: Same-width stand-ins for dtypes some TensorFlow CPU kernels lack (Tile: uint16).
_STAND_IN = {tf.uint16: tf.int16}


@functools.lru_cache(maxsize=4096)
def _const(values: tuple[int, ...], dtype: Any = tf.int32) -> Any:
    """``values`` as a 1-d eager constant, made outside any graph being traced."""
    with tf.init_scope():
        return tf.constant(values, dtype, shape=(len(values),))


def _ints(values: Any) -> Any:
    """A shape, permutation or slice bound (tuple or list of ints) as an int32 constant."""
    return _const(tuple(values))


def _bitwise(fn: Any) -> Any:
    """``fn(x, *args)``, run on the bits of ``x`` as a same-width dtype where TensorFlow has
    no kernel for ``x``'s own."""

    def kernel(x: Any, *args: Any) -> Any:
        stand_in = _STAND_IN.get(x.dtype)
        if stand_in is None:
            return fn(x, *args)
        return raw.Bitcast(input=fn(raw.Bitcast(input=x, type=stand_in), *args), type=x.dtype)

    return kernel


def _wrap(indices: Any, n: int | tuple[int, ...]) -> Any:
    """Indices in [-n, n) as indices in [0, n), a negative one counting from the end: ``n`` is
    the size of the dimension indexed, or a tuple of the sizes the last axis of ``indices``
    addresses."""
    if indices.dtype not in (tf.int32, tf.int64):
        indices = raw.Cast(x=indices, DstT=tf.int32)
    if isinstance(n, tuple):
        n = _const(n, indices.dtype)
    return raw.SelectV2(condition=raw.Less(x=indices, y=0), t=raw.AddV2(x=indices, y=n),
                        e=indices)


# -- reshaping ------------------------------------------------------------------------------
def _squeeze(prim):
    axis = list(prim.axis)
    return lambda x: raw.Squeeze(input=x, axis=axis)


def _broadcast_to(prim):
    target = prim.shape

    def kernel(x):  # -1 keeps x's size of that dimension
        lead = len(target) - x.shape.rank
        shape = [x.shape[i - lead] if n == -1 else n for i, n in enumerate(target)]
        return raw.BroadcastTo(input=x, shape=_ints(shape))

    return kernel


@_bitwise
def _tile(x, multiples):
    lead = len(multiples) - x.shape.rank
    if lead:
        x = raw.Reshape(tensor=x, shape=_ints((1,) * lead + tuple(x.shape)))
    return raw.Tile(input=x, multiples=_ints(multiples))


# -- joining and splitting ------------------------------------------------------------------
def _concat(prim):
    axis = prim.axis

    def kernel(*xs):
        if len(xs) == 1:  # ConcatV2 joins two tensors or more
            return raw.Identity(input=xs[0])
        return raw.ConcatV2(values=xs, axis=axis)

    return kernel


def _stack(prim):
    axis = prim.axis
    return lambda *xs: raw.Pack(values=xs, axis=axis)


def _split(prim):
    axis, num = prim.axis, prim.output_num
    return lambda x: tuple(raw.Split(axis=axis, value=x, num_split=num))


# -- slicing --------------------------------------------------------------------------------
def _strided_args(index: tuple) -> dict[str, Any]:
    """TensorFlow's StridedSlice arguments for a NumPy basic index of slices, None (new axes)
    and non-negative ints (removed axes), as ``StridedSlice.index`` gives it."""
    begin, end, strides = [], [], []
    masks = dict.fromkeys(("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask"), 0)
    for j, item in enumerate(index):
        bit = 1 << j
        if item is None:
            masks["new_axis_mask"] |= bit
            item = slice(0, 1, 1)
        elif not isinstance(item, slice):
            masks["shrink_axis_mask"] |= bit
            item = slice(item, item + 1, 1)
        if item.start is None:
            masks["begin_mask"] |= bit
        if item.stop is None:
            masks["end_mask"] |= bit
        begin.append(item.start or 0)
        end.append(item.stop or 0)
        strides.append(item.step or 1)
    return dict(begin=_ints(begin), end=_ints(end), strides=_ints(strides), **masks)


def _strided(prim):
    """``(shape, begin, end, strides)`` -> the StridedSlice arguments of ``prim``'s slice of a
    tensor of ``shape``, remembered per call site."""

    @functools.lru_cache(maxsize=64)
    def args(shape, begin, end, strides):
        return _strided_args(prim.index(shape, begin, end, strides)[0])

    return lambda shape, *spec: args(tuple(shape), *map(tuple, spec))


def _strided_slice(prim):
    args = _strided(prim)
    return lambda x, *spec: raw.StridedSlice(input=x, **args(x.shape, *spec))


def _strided_slice_grad(prim):
    args = _strided(prim)

    def kernel(dy, shapex, *spec):
        sliced = prim.index(shapex, *spec)[1]
        if tuple(dy.shape) != sliced:  # dy of another shape of the slice's size
            dy = raw.Reshape(tensor=dy, shape=_ints(sliced))
        return raw.StridedSliceGrad(shape=_ints(shapex), dy=dy, **args(shapex, *spec))

    return kernel


def _slice_grad(prim):
    strided = _strided_slice_grad(prim.strided_grad)
    return lambda dy, x, begin, size: strided(dy, *prim.strided(tuple(x.shape), begin, size))


# -- gathering and scattering ---------------------------------------------------------------
def _gather(params, indices, axis):
    axis %= params.shape.rank
    return raw.GatherV2(params=params, indices=_wrap(indices, params.shape[axis]),
                        axis=axis)


def _depth(x, indices):
    """The sizes of the dimensions of ``x`` that the last dimension of ``indices`` addresses."""
    return tuple(x.shape[:indices.shape[-1]])


def _gather_nd(x, indices):
    """As MindSpore's GPU kernel: an index outside [-n, n) gathers zeros (XLA would clamp)."""
    depth = _depth(x, indices)
    wrapped = _wrap(indices, depth)
    inside = tf.reduce_all((wrapped >= 0) & (wrapped < _const(depth, wrapped.dtype)), axis=-1)
    got = raw.GatherNd(params=x, indices=tf.where(inside[..., None], wrapped, 0))
    inside = tf.reshape(inside, [*inside.shape, *[1] * (x.shape.rank - len(depth))])
    return tf.where(inside, got, tf.zeros_like(got))


def nd_updates(x, indices, updates):
    """``indices`` and ``updates`` of an n-d scatter into ``x`` as TensorFlow reads them."""
    if indices.shape.rank == 1:  # one index, which TensorFlow would read as several of depth 1
        indices = raw.ExpandDims(input=indices, axis=0)
        updates = raw.ExpandDims(input=updates, axis=0)
    return _wrap(indices, _depth(x, indices)), updates


def tensor_scatter(op):
    """A TensorScatter kernel from TensorFlow's op of the same kind."""

    def kernel(x, indices, updates):
        indices, updates = nd_updates(x, indices, updates)
        return op(tensor=x, indices=indices, updates=updates)

    return kernel


def _scalar(x):
    """A one-element tensor as a 0-d one."""
    return raw.Reshape(tensor=x, shape=_ints(())) if x.shape.rank else x


def _one_hot(prim):
    axis = prim.axis

    def kernel(indices, depth, on_value, off_value):
        return raw.OneHot(indices=indices, depth=depth, on_value=_scalar(on_value),
                          off_value=_scalar(off_value), axis=axis)

    return kernel


KERNELS = {
    "Reshape": lambda p: lambda x, shape: raw.Reshape(tensor=x, shape=_ints(shape)),
    "FlattenGrad": lambda p: lambda x, shape: raw.Reshape(tensor=x, shape=_ints(shape)),
    "Transpose": lambda p: lambda x, perm: raw.Transpose(x=x, perm=_ints(perm)),
    "ExpandDims": lambda p: lambda x, axis: raw.ExpandDims(input=x, axis=axis),
    "Squeeze": _squeeze,
    "Identity": lambda p: lambda x: raw.Identity(input=x),
    "BroadcastTo": _broadcast_to,
    "Tile": lambda p: _tile,
    "Concat": _concat,
    "Stack": _stack,
    "ParallelConcat": _concat,
    "Split": _split,
    "Slice": lambda p: lambda x, begin, size: raw.Slice(input=x, begin=_ints(begin),
                                                         size=_ints(size)),
    "StridedSlice": _strided_slice,
    "StridedSliceGrad": _strided_slice_grad,
    "SliceGrad": _slice_grad,
    "Gather": lambda p: _gather,
    "GatherNd": lambda p: _gather_nd,
    "TensorScatterAdd": lambda p: tensor_scatter(raw.TensorScatterAdd),
    "OneHot": _one_hot,
}
