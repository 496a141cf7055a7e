"""Layout: reshaping, transposing, joining, splitting, slicing, gathering, broadcasting."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations._paths import forwarding
from ember.ops.primitive import Primitive, Spec

__all__ = [
    "DType",
    "dtype",
    "BroadcastTo", "Concat", "ExpandDims", "Gather", "GatherNd", "Identity", "OneHot",
    "ParallelConcat", "Rank",
    "Reshape", "Shape", "Size", "Slice", "Split", "Squeeze", "Stack", "StridedSlice",
    "StridedSliceGrad", "TensorScatterAdd", "Tile", "Transpose",
    "broadcast_to", "concat", "expand_dims", "gather", "gather_nd", "one_hot", "rank", "reshape",
    "shape", "size", "split", "squeeze", "stack", "strided_slice", "tensor_scatter_add",
    "tensor_slice", "tile", "transpose",
]

# MindSpore 1.6 defines these in ops.operations.array_ops too; ember in modules of their kind.
__getattr__ = forwarding(__name__, """
    Argmax ArgMaxWithValue Argmin ArgMinWithValue BatchToSpace BatchToSpaceND Cast
    DepthToSpace Diag DiagPart DynamicShape EmbeddingLookup Eye Fill GatherD GatherV2
    InvertPermutation IsInstance IsSubClass MaskedFill MaskedSelect Meshgrid Ones
    OnesLike Pack Padding Range ResizeNearestNeighbor ReverseSequence ReverseV2 Rint
    SameTypeShape ScalarToArray ScalarToTensor ScatterAdd ScatterDiv ScatterMax
    ScatterMin
    ScatterMul ScatterNd ScatterNdAdd ScatterNdSub ScatterNdUpdate ScatterSub
    ScatterUpdate Select Sort SpaceToBatch SpaceToBatchND SpaceToDepth SparseGatherV2
    SplitV TensorScatterMax TensorScatterMin TensorScatterSub TensorScatterUpdate Unique
    UniqueWithPad Unpack UnsortedSegmentMax UnsortedSegmentMin UnsortedSegmentProd
    TupleToArray UnsortedSegmentSum Unstack Zeros ZerosLike
    SearchSorted TruncatedNormal
    InplaceUpdate NonZero ScatterElements ScatterNonAliasingAdd
""")

_INDEX = (mstype.int32, mstype.int64)


# -- argument checks ------------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(op: str, name: str, value: Any) -> tuple[int, ...]:
    """``value``, a tuple or list of ints, as a tuple; TypeError naming op and input if not."""
    if type(value) is tuple and all(type(v) is int for v in value):
        return value
    if not isinstance(value, tuple | list) or not all(_is_int(v) for v in value):
        raise TypeError(f"{op}: {name} must be a tuple of ints, but got {value!r}")
    return tuple(value)


def _int_attr(op: str, name: str, value: Any, minimum: int | None = None) -> int:
    if not _is_int(value):
        raise TypeError(f"{op}: {name} must be an int, but got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{op}: {name} must be at least {minimum}, but got {value}")
    return value


def _axis(op: str, axis: Any, ndim: int, new: bool = False) -> int:
    """``axis`` of a rank-``ndim`` tensor as a non-negative int; ``new``: a position to insert."""
    _int_attr(op, "axis", axis)
    bound = ndim + 1 if new else ndim
    if not -bound <= axis < bound:
        raise ValueError(f"{op}: axis {axis} is out of range [{-bound}, {bound}) for a tensor "
                         f"of rank {ndim}")
    return axis % bound


def _shape_of(op: str, name: str, value: Any) -> tuple[int, ...]:
    shape = _ints(op, name, value)
    if any(n < 0 for n in shape):
        raise ValueError(f"{op}: {name} {list(shape)} must not hold negative sizes")
    return shape


def _prim(cls: type, *attrs: Any) -> Any:
    """A shared instance of ``cls(*attrs)``: functional forms and bprops reuse one per attribute
    set, so its kernel is looked up once."""
    try:
        return _prim_cached(cls, *attrs)
    except TypeError:  # an unhashable attribute (a list), or a bad one that __init__ names
        return cls(*(tuple(a) if isinstance(a, list) else a for a in attrs))


@functools.lru_cache(maxsize=512, typed=True)
def _prim_cached(cls: type, *attrs: Any) -> Any:
    return cls(*attrs)


# -- reshaping ------------------------------------------------------------------------------
class Reshape(Primitive):
    """``x`` with a new shape of the same size; one dimension may be -1."""

    bprop_reads_inputs = bprop_reads_out = False  # shapes and dtypes only

    def infer(self, x: Any, shape: Any) -> Spec:
        check_tensor(self.name, "x", x)
        shape = _ints(self.name, "shape", shape)
        size = math.prod(x.shape)
        known = math.prod(n for n in shape if n != -1)
        if shape.count(-1) > 1 or any(n < -1 for n in shape):
            raise ValueError(f"Reshape: shape {list(shape)} may hold at most one -1 and no "
                             "other negative size")
        if -1 in shape:
            if known == 0 or size % known:
                raise ValueError(f"Reshape: cannot reshape a tensor of shape {list(x.shape)} "
                                 f"(size {size}) into {list(shape)}")
            shape = tuple(size // known if n == -1 else n for n in shape)
        elif known != size:
            raise ValueError(f"Reshape: cannot reshape a tensor of shape {list(x.shape)} "
                             f"(size {size}) into {list(shape)} (size {known})")
        return shape, x.dtype

    def bprop(self, x: Tensor, shape: Any, out: Tensor, dout: Tensor) -> tuple:
        return reshape(dout, x.shape), None


class FlattenGrad(Reshape):
    """Flatten's gradient as 1.6's ``_grad_ops`` names it: Reshape of ``x`` to ``shape``:
    ``FlattenGrad()(x, shape)``."""


class Transpose(Primitive):
    """``x`` with its dimensions permuted: ``Transpose()(x, perm)``; output dim i is x's perm[i]."""

    def infer(self, x: Any, perm: Any) -> Spec:
        check_tensor(self.name, "x", x)
        perm = _ints(self.name, "perm", perm)
        if sorted(perm) != list(range(x.ndim)):
            raise ValueError(f"Transpose: perm {list(perm)} must be a permutation of "
                             f"0..{x.ndim - 1} for x of shape {list(x.shape)}")
        return tuple(x.shape[p] for p in perm), x.dtype

    def bprop(self, x: Tensor, perm: Any, out: Tensor, dout: Tensor) -> tuple:
        inverse = sorted(range(len(perm)), key=perm.__getitem__)
        return transpose(dout, tuple(inverse)), None


class ExpandDims(Primitive):
    """``x`` with a new dimension of size 1 at ``axis``: ``ExpandDims()(x, axis)``."""

    def infer(self, x: Any, axis: Any) -> Spec:
        check_tensor(self.name, "x", x)
        axis = _axis(self.name, axis, x.ndim, new=True)
        return x.shape[:axis] + (1,) + x.shape[axis:], x.dtype

    def bprop(self, x: Tensor, axis: int, out: Tensor, dout: Tensor) -> tuple:
        return reshape(dout, x.shape), None


class Squeeze(Primitive):
    """``x`` without its size-1 dimensions ``axis`` (an int or tuple; () for all of them):
    ``Squeeze(axis=())(x)``."""

    def __init__(self, axis: int | tuple[int, ...] = ()) -> None:
        super().__init__()
        if not _is_int(axis) and not (isinstance(axis, tuple) and all(map(_is_int, axis))):
            raise TypeError(f"Squeeze: axis must be an int or a tuple of ints, but got {axis!r}")
        self.axis = (axis,) if _is_int(axis) else axis

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x)
        if not self.axis:
            return tuple(n for n in x.shape if n != 1), x.dtype
        axes = {_axis(self.name, a, x.ndim) for a in self.axis}
        for a in sorted(axes):
            if x.shape[a] != 1:
                raise ValueError(f"Squeeze: cannot squeeze dimension {a} of x with shape "
                                 f"{list(x.shape)}: its size is {x.shape[a]}, not 1")
        return tuple(n for i, n in enumerate(x.shape) if i not in axes), x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (reshape(dout, x.shape),)


class Identity(Primitive):
    """A tensor equal to ``x``: ``Identity()(x)``."""

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x)
        return x.shape, x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (dout,)


class BroadcastTo(Primitive):
    """``x`` broadcast to ``shape``: ``BroadcastTo(shape)(x)``; -1 keeps a dimension."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        super().__init__()
        self.shape = _ints(self.name, "shape", shape)

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x)
        lead = len(self.shape) - x.ndim
        if lead < 0:
            raise ValueError(f"BroadcastTo: cannot broadcast shape {list(x.shape)} to the "
                             f"shorter {list(self.shape)}")
        out = []
        for i, n in enumerate(self.shape):
            have = x.shape[i - lead] if i >= lead else 1
            if n == -1:
                if i < lead:
                    raise ValueError(f"BroadcastTo: -1 at new dimension {i} of "
                                     f"{list(self.shape)} has no size to keep")
                n = have
            if have not in (1, n):
                raise ValueError(f"BroadcastTo: cannot broadcast shape {list(x.shape)} to "
                                 f"{list(self.shape)}; each dimension must be equal or 1")
            out.append(n)
        return tuple(out), x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (F.sum_to(dout, x.shape),)


class Tile(Primitive):
    """``x`` repeated ``multiples[i]`` times along dimension i (x's shape padded with leading
    1s): ``Tile()(x, multiples)``."""

    def infer(self, x: Any, multiples: Any) -> Spec:
        check_tensor(self.name, "x", x)
        multiples = _ints(self.name, "multiples", multiples)
        if any(m < 1 for m in multiples):
            raise ValueError(f"Tile: multiples {list(multiples)} must all be positive")
        if len(multiples) < x.ndim:
            raise ValueError(f"Tile: multiples {list(multiples)} must have at least one entry "
                             f"per dimension of x, shape {list(x.shape)}")
        padded = (1,) * (len(multiples) - x.ndim) + x.shape
        return tuple(n * m for n, m in zip(padded, multiples, strict=True)), x.dtype

    def bprop(self, x: Tensor, multiples: Any, out: Tensor, dout: Tensor) -> tuple:
        padded = (1,) * (len(multiples) - x.ndim) + x.shape
        blocks = tuple(v for m, n in zip(multiples, padded, strict=True) for v in (m, n))
        summed = F.reduce_sum(reshape(dout, blocks), tuple(range(0, len(blocks), 2)))
        return reshape(summed, x.shape), None


# -- joining and splitting ------------------------------------------------------------------
class _Join(Primitive):
    """Joins a tuple or list of tensors along ``axis``. The tensors are passed on as separate
    inputs, so the kernel gets ``*arrays`` and autodiff gives each tensor its gradient."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        self.axis = _int_attr(self.name, "axis", axis)

    def __call__(self, input_x: Any) -> Any:
        if not isinstance(input_x, tuple | list):
            raise TypeError(f"{self.name}: input_x must be a tuple or list of Tensors, but got "
                            f"{type(input_x).__name__}")
        if not input_x:
            raise ValueError(f"{self.name}: input_x must hold at least one Tensor, but got an "
                             "empty sequence")
        return super().__call__(*input_x)

    def _check(self, xs: tuple) -> None:
        for i, x in enumerate(xs):
            check_tensor(self.name, f"input_x[{i}]", x)
        if any(x.dtype is not xs[0].dtype for x in xs):
            raise TypeError(f"{self.name}: all tensors of input_x must have the same dtype, but "
                            f"got [{', '.join(str(x.dtype) for x in xs)}]")


class Concat(_Join):
    """The tensors of ``input_x`` joined along the existing dimension ``axis``:
    ``Concat(axis=0)(input_x)``."""

    def infer(self, *xs: Any) -> Spec:
        self._check(xs)
        first = xs[0]
        axis = _axis(self.name, self.axis, first.ndim)
        rest = first.shape[:axis] + first.shape[axis + 1:]
        for i, x in enumerate(xs):
            if x.ndim != first.ndim or x.shape[:axis] + x.shape[axis + 1:] != rest:
                raise ValueError(f"Concat: input_x[{i}] of shape {list(x.shape)} cannot be "
                                 f"joined to input_x[0] of shape {list(first.shape)} along axis "
                                 f"{self.axis}; all other dimensions must be equal")
        total = sum(x.shape[axis] for x in xs)
        return first.shape[:axis] + (total,) + first.shape[axis + 1:], first.dtype

    def bprop(self, *args: Any) -> tuple:
        *xs, out, dout = args
        axis = self.axis % out.ndim
        grads, offset = [], 0
        for x in xs:
            begin = tuple(offset if d == axis else 0 for d in range(out.ndim))
            grads.append(tensor_slice(dout, begin, x.shape))
            offset += x.shape[axis]
        return tuple(grads)


class ParallelConcat(Concat):
    """The tensors of ``values``, each of one shape (1, ...), joined along their first
    dimension: ``ParallelConcat()(values)``."""

    def __init__(self) -> None:
        super().__init__(0)

    def infer(self, *xs: Any) -> Spec:
        for i, x in enumerate(xs):
            check_tensor(self.name, f"values[{i}]", x)
            if not x.ndim or x.shape[0] != 1 or x.shape != xs[0].shape:
                raise ValueError(f"ParallelConcat: values[{i}] has shape {list(x.shape)}, but "
                                 f"all must have the shape of values[0], {list(xs[0].shape)}, "
                                 "whose first dimension is 1")
        return super().infer(*xs)


class Stack(_Join):
    """The tensors of ``input_x`` (all of one shape) joined along a new dimension ``axis``:
    ``Stack(axis=0)(input_x)``."""

    def infer(self, *xs: Any) -> Spec:
        self._check(xs)
        first = xs[0]
        axis = _axis(self.name, self.axis, first.ndim, new=True)
        for i, x in enumerate(xs):
            if x.shape != first.shape:
                raise ValueError(f"Stack: input_x[{i}] has shape {list(x.shape)}, but all "
                                 f"tensors must have the shape of input_x[0], "
                                 f"{list(first.shape)}")
        return first.shape[:axis] + (len(xs),) + first.shape[axis:], first.dtype

    def bprop(self, *args: Any) -> tuple:
        *xs, out, dout = args
        parts = _prim(Split, self.axis % out.ndim, len(xs))(dout)
        return tuple(reshape(p, x.shape) for p, x in zip(parts, xs, strict=True))


class Split(Primitive):
    """``x`` cut into ``output_num`` equal parts along ``axis``, returned as a tuple:
    ``Split(axis=0, output_num=1)(x)``."""

    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        super().__init__()
        self.axis = _int_attr(self.name, "axis", axis)
        self.output_num = _int_attr(self.name, "output_num", output_num, minimum=1)

    def infer(self, x: Any) -> list[Spec]:
        check_tensor(self.name, "x", x)
        axis = _axis(self.name, self.axis, x.ndim)
        n = x.shape[axis]
        if n % self.output_num:
            raise ValueError(f"Split: dimension {axis} of x with shape {list(x.shape)} has size "
                             f"{n}, which cannot be split into {self.output_num} equal parts")
        part = x.shape[:axis] + (n // self.output_num,) + x.shape[axis + 1:]
        return [(part, x.dtype)] * self.output_num

    def bprop(self, x: Tensor, out: tuple, dout: tuple) -> tuple:
        return (_prim(Concat, self.axis)(dout),)


# -- slicing --------------------------------------------------------------------------------
class Slice(Primitive):
    """The block of ``x`` that starts at ``begin`` and spans ``size`` (-1: to the end of the
    dimension): ``Slice()(x, begin, size)``."""

    def infer(self, x: Any, begin: Any, size: Any) -> Spec:
        check_tensor(self.name, "x", x)
        return _sliced(self.name, x.shape, begin, size), x.dtype

    def bprop(self, x: Tensor, begin: Any, size: Any, out: Tensor, dout: Tensor) -> tuple:
        end = tuple(b + n for b, n in zip(begin, out.shape, strict=True))
        grad = _prim(StridedSliceGrad)(dout, x.shape, tuple(begin), end, (1,) * x.ndim)
        return grad, None, None


def _sliced(op: str, shape: tuple[int, ...], begin: Any, size: Any) -> tuple[int, ...]:
    """The shape of Slice's block of a tensor of ``shape`` (a size of -1: to the end)."""
    begin = _ints(op, "begin", begin)
    size = _ints(op, "size", size)
    if len(begin) != len(shape) or len(size) != len(shape):
        raise ValueError(f"{op}: begin {list(begin)} and size {list(size)} must each have "
                         f"one entry per dimension of x, shape {list(shape)}")
    out = []
    for d, (b, s, n) in enumerate(zip(begin, size, shape, strict=True)):
        s = n - b if s == -1 else s
        if b < 0 or s < 0 or b + s > n:
            raise ValueError(f"{op}: begin {list(begin)} and size {list(size)} reach outside "
                             f"x of shape {list(shape)} at dimension {d}; begin must be "
                             ">= 0, size >= 0 or -1, and begin + size <= the dimension")
        out.append(s)
    return tuple(out)


class SliceGrad(Primitive):
    """The gradient of Slice: ``dy`` placed at ``begin`` in zeros of the shape and dtype of
    ``x``: ``SliceGrad()(dy, x, begin, size)``. Backends run it as the StridedSliceGrad of
    :meth:`strided`."""

    bprop_reads_inputs = False

    def infer(self, dy: Any, x: Any, begin: Any, size: Any) -> Spec:
        check_tensor(self.name, "dy", dy)
        check_tensor(self.name, "x", x, (dy.dtype,))
        sliced = _sliced(self.name, x.shape, begin, size)
        if dy.shape != sliced:
            raise ValueError(f"SliceGrad: dy has shape {list(dy.shape)}, but the slice of x of "
                             f"shape {list(x.shape)} has shape {list(sliced)}")
        return x.shape, x.dtype

    @property
    def strided_grad(self) -> StridedSliceGrad:
        """The StridedSliceGrad backends run this as, with the arguments of :meth:`strided`."""
        return self._derived(StridedSliceGrad)

    @staticmethod
    def strided(x_shape: tuple[int, ...], begin: Any, size: Any) -> tuple:
        """The arguments (shapex, begin, end, strides) of the same StridedSliceGrad."""
        end = tuple(n if s == -1 else b + s for b, s, n in zip(begin, size, x_shape))
        return tuple(x_shape), tuple(begin), end, (1,) * len(x_shape)

    def bprop(self, dy: Tensor, x: Tensor, begin: Any, size: Any, out: Tensor,
              dout: Tensor) -> tuple:
        return _prim(Slice)(dout, begin, size), None, None, None


@functools.lru_cache(maxsize=1024)
def _strided_index(op: str, shape: tuple[int, ...], begin: tuple[int, ...],
                   end: tuple[int, ...], strides: tuple[int, ...],
                   masks: tuple[int, ...]) -> tuple[tuple, tuple[int, ...]]:
    """The NumPy basic index that StridedSlice's arguments describe, and its result's shape."""
    begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask = masks
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"{op}: begin {list(begin)}, end {list(end)} and strides "
                         f"{list(strides)} must have the same length")
    if 0 in strides:
        raise ValueError(f"{op}: strides {list(strides)} must not contain 0")
    spec = range(len(begin))
    ellipsis = next((j for j in spec if ellipsis_mask >> j & 1), None)
    used = sum(1 for j in spec if j != ellipsis and not new_axis_mask >> j & 1)
    if used > len(shape):
        raise ValueError(f"{op}: begin {list(begin)} with new_axis_mask {new_axis_mask} and "
                         f"ellipsis_mask {ellipsis_mask} indexes {used} dimensions, but x has "
                         f"shape {list(shape)}")
    index: list[Any] = []
    out: list[int] = []
    dim = 0
    for j in spec:
        if j == ellipsis:
            fill = len(shape) - used
            index += [slice(None)] * fill
            out += shape[dim:dim + fill]
            dim += fill
        elif new_axis_mask >> j & 1:
            index.append(None)
            out.append(1)
        elif shrink_axis_mask >> j & 1:
            at, n = 0 if begin_mask >> j & 1 else begin[j], shape[dim]
            if not -n <= at < n:
                raise IndexError(f"{op}: index {at} is out of range [{-n}, {n}) for dimension "
                                 f"{dim} of x with shape {list(shape)}")
            if strides[j] < 0:
                raise IndexError(f"{op}: shrinking dimension {dim} needs a positive stride, but "
                                 f"got {strides[j]}")
            index.append(at % n)
            dim += 1
        else:
            s = slice(None if begin_mask >> j & 1 else begin[j],
                      None if end_mask >> j & 1 else end[j], strides[j])
            index.append(s)
            out.append(len(range(*s.indices(shape[dim]))))
            dim += 1
    out += shape[dim:]
    return tuple(index), tuple(out)


class _Strided(Primitive):
    """StridedSlice and its gradient: the five masks, and the index they describe."""

    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0,
                 new_axis_mask: int = 0, shrink_axis_mask: int = 0) -> None:
        super().__init__()
        self.begin_mask = _int_attr(self.name, "begin_mask", begin_mask, 0)
        self.end_mask = _int_attr(self.name, "end_mask", end_mask, 0)
        self.ellipsis_mask = _int_attr(self.name, "ellipsis_mask", ellipsis_mask, 0)
        self.new_axis_mask = _int_attr(self.name, "new_axis_mask", new_axis_mask, 0)
        self.shrink_axis_mask = _int_attr(self.name, "shrink_axis_mask", shrink_axis_mask, 0)
        if ellipsis_mask & (ellipsis_mask - 1):
            raise ValueError(f"{self.name}: ellipsis_mask {ellipsis_mask} may have at most one "
                             "bit set (one ellipsis)")
        self._masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)

    def index(self, shape: tuple[int, ...], begin: Any, end: Any,
              strides: Any) -> tuple[tuple, tuple[int, ...]]:
        """The NumPy index this slice takes of a tensor of ``shape``, and the result's shape."""
        return _strided_index(self.name, tuple(shape), _ints(self.name, "begin", begin),
                              _ints(self.name, "end", end), _ints(self.name, "strides", strides),
                              self._masks)


class StridedSlice(_Strided):
    """``x[begin:end:strides]`` dimension by dimension, with MindSpore's (TensorFlow's) masks:
    ``StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)(x, begin,
    end, strides)``."""

    def infer(self, x: Any, begin: Any, end: Any, strides: Any) -> Spec:
        check_tensor(self.name, "x", x)
        return self.index(x.shape, begin, end, strides)[1], x.dtype

    def bprop(self, x: Tensor, begin: Any, end: Any, strides: Any, out: Tensor,
              dout: Tensor) -> tuple:
        grad = _prim(StridedSliceGrad, *self._masks)(dout, x.shape, begin, end, strides)
        return grad, None, None, None


class StridedSliceGrad(_Strided):
    """The gradient of StridedSlice: ``dy`` placed where the slice was taken, in zeros of shape
    ``shapex``: ``StridedSliceGrad(masks)(dy, shapex, begin, end, strides)``. As MindSpore's
    kernels read ``dy`` in row-major order, it may have any shape of the slice's size."""

    def infer(self, dy: Any, shapex: Any, begin: Any, end: Any, strides: Any) -> Spec:
        check_tensor(self.name, "dy", dy)
        shapex = _shape_of(self.name, "shapex", shapex)
        sliced = self.index(shapex, begin, end, strides)[1]
        if dy.size != math.prod(sliced):
            raise ValueError(f"StridedSliceGrad: dy has shape {list(dy.shape)}, but the slice of "
                             f"shape {list(shapex)} has shape {list(sliced)}")
        return shapex, dy.dtype

    def bprop(self, dy: Tensor, shapex: Any, begin: Any, end: Any, strides: Any, out: Tensor,
              dout: Tensor) -> tuple:
        grad = _prim(StridedSlice, *self._masks)(dout, begin, end, strides)
        if grad.shape != dy.shape:
            grad = reshape(grad, dy.shape)
        return grad, None, None, None, None


# -- gathering and scattering ---------------------------------------------------------------
class Gather(Primitive):
    """The slices of ``input_params`` at ``input_indices`` along ``axis``:
    ``Gather()(input_params, input_indices, axis)``. Indices lie in [-n, n), negative ones
    counting from the end; others are an error."""

    def infer(self, params: Any, indices: Any, axis: Any) -> Spec:
        check_tensor(self.name, "input_params", params)
        check_tensor(self.name, "input_indices", indices, mstype.int_type)
        axis = _axis(self.name, axis, params.ndim)
        return params.shape[:axis] + indices.shape + params.shape[axis + 1:], params.dtype

    def bprop(self, params: Tensor, indices: Tensor, axis: int, out: Tensor,
              dout: Tensor) -> tuple:
        # Scatter-add dout into zeros, with params' axis and the indices' dims moved first.
        axis %= params.ndim
        k, rank = indices.ndim, params.ndim
        zeros = F.zeros_like(params)
        if axis:
            front = (axis, *range(axis), *range(axis + 1, rank))
            zeros = transpose(zeros, front)
            dout = transpose(dout, (*range(axis, axis + k), *range(axis), *range(axis + k,
                                                                                dout.ndim)))
        grad = tensor_scatter_add(zeros, expand_dims(indices, -1), dout)
        if axis:
            grad = transpose(grad, (*range(1, axis + 1), 0, *range(axis + 1, rank)))
        return grad, None, None


def _check_nd_indices(op: str, x: Tensor, indices: Any) -> int:
    """The depth (last dimension) of ``indices`` that address ``x``, checked."""
    check_tensor(op, "indices", indices, _INDEX)
    depth = indices.shape[-1] if indices.ndim else 0
    if not 1 <= depth <= x.ndim:
        raise ValueError(f"{op}: the last dimension of indices (shape {list(indices.shape)}) "
                         f"must be in [1, {x.ndim}], the rank of x with shape {list(x.shape)}")
    return depth


class GatherNd(Primitive):
    """The elements or slices of ``x`` addressed by the last dimension of ``indices``:
    ``GatherNd()(x, indices)``, of shape ``indices.shape[:-1] + x.shape[indices.shape[-1]:]``."""

    def infer(self, x: Any, indices: Any) -> Spec:
        check_tensor(self.name, "x", x)
        depth = _check_nd_indices(self.name, x, indices)
        return indices.shape[:-1] + x.shape[depth:], x.dtype

    def bprop(self, x: Tensor, indices: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return tensor_scatter_add(F.zeros_like(x), indices, dout), None


class TensorScatterAdd(Primitive):
    """``input_x`` with ``updates`` added at the positions ``indices`` address (repeats add up):
    ``TensorScatterAdd()(input_x, indices, updates)``."""

    def infer(self, x: Any, indices: Any, updates: Any) -> Spec:
        check_tensor(self.name, "input_x", x, mstype.number_type)
        check_tensor(self.name, "updates", updates, (x.dtype,))
        depth = _check_nd_indices(self.name, x, indices)
        want = indices.shape[:-1] + x.shape[depth:]
        if updates.shape != want:
            raise ValueError(f"TensorScatterAdd: updates must have shape indices.shape[:-1] + "
                             f"input_x.shape[{depth}:] = {list(want)}, but got "
                             f"{list(updates.shape)}")
        return x.shape, x.dtype

    def bprop(self, x: Tensor, indices: Tensor, updates: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        return dout, None, gather_nd(dout, indices)


class OneHot(Primitive):
    """One-hot vectors: a new dimension of size ``depth`` at ``axis``, ``on_value`` where it
    equals ``indices``, ``off_value`` elsewhere: ``OneHot(axis=-1)(indices, depth, on_value,
    off_value)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = _int_attr(self.name, "axis", axis)

    def infer(self, indices: Any, depth: Any, on_value: Any, off_value: Any) -> Spec:
        check_tensor(self.name, "indices", indices, _INDEX)
        _int_attr(self.name, "depth", depth, minimum=0)
        check_tensor(self.name, "on_value", on_value, mstype.number_type)
        check_tensor(self.name, "off_value", off_value, (on_value.dtype,))
        for name, value in (("on_value", on_value), ("off_value", off_value)):
            if value.size != 1:
                raise ValueError(f"OneHot: {name} must be a scalar Tensor, but got shape "
                                 f"{list(value.shape)}")
        if not -1 <= self.axis <= indices.ndim:
            raise ValueError(f"OneHot: axis {self.axis} is out of range [-1, {indices.ndim}] "
                             f"for indices of shape {list(indices.shape)}")
        axis = indices.ndim if self.axis == -1 else self.axis
        return indices.shape[:axis] + (depth,) + indices.shape[axis:], on_value.dtype

    def bprop(self, indices: Tensor, depth: int, on_value: Tensor, off_value: Tensor,
              out: Tensor, dout: Tensor) -> tuple:
        hot = self(indices, depth, F.ones_like(on_value), F.zeros_like(off_value))
        d_on = F.reduce_sum(F.mul(dout, hot))
        d_off = F.sub(F.reduce_sum(dout), d_on)
        return None, None, reshape(d_on, on_value.shape), reshape(d_off, off_value.shape)


# -- static facts ---------------------------------------------------------------------------
class _Static(Primitive):
    """A primitive with no kernel of its own, answered in Python when called: a fact about a
    tensor known from its shape and dtype, a value made from constant inputs, or a side
    effect run on the host (the Summary ops)."""

    _fact: Callable[[Tensor], Any]

    def __call__(self, input_x: Any) -> Any:
        check_tensor(self.name, "input_x", input_x)
        return self._fact(input_x)


class Shape(_Static):
    """The shape of ``input_x`` as a tuple of ints: ``Shape()(input_x)``."""

    _fact = operator.attrgetter("shape")


class Rank(_Static):
    """The number of dimensions of ``input_x``, an int: ``Rank()(input_x)``."""

    _fact = operator.attrgetter("ndim")


class DType(_Static):
    """The dtype of ``input_x``: ``DType()(input_x)``."""

    _fact = operator.attrgetter("dtype")


class Size(_Static):
    """The number of elements of ``input_x``, an int: ``Size()(input_x)``."""

    _fact = operator.attrgetter("size")


# -- functional forms -----------------------------------------------------------------------
def broadcast_to(x: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Functional form of ``BroadcastTo``."""
    return _prim(BroadcastTo, shape)(x)


def squeeze(input_x: Tensor, axis: int | tuple[int, ...] = ()) -> Tensor:
    """Functional form of ``Squeeze``."""
    return _prim(Squeeze, axis)(input_x)


def concat(input_x: tuple | list, axis: int = 0) -> Tensor:
    """Functional form of ``Concat``."""
    return _prim(Concat, axis)(input_x)


def stack(input_x: tuple | list, axis: int = 0) -> Tensor:
    """Functional form of ``Stack``."""
    return _prim(Stack, axis)(input_x)


def split(input_x: Tensor, axis: int = 0, output_num: int = 1) -> tuple:
    """Functional form of ``Split``."""
    return _prim(Split, axis, output_num)(input_x)


def strided_slice(input_x: Tensor, begin: Any, end: Any, strides: Any, begin_mask: int = 0,
                  end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """Functional form of ``StridedSlice``."""
    prim = _prim(StridedSlice, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                 shrink_axis_mask)
    return prim(input_x, begin, end, strides)


def one_hot(indices: Tensor, depth: int, on_value: Tensor, off_value: Tensor,
            axis: int = -1) -> Tensor:
    """Functional form of ``OneHot``."""
    return _prim(OneHot, axis)(indices, depth, on_value, off_value)


reshape = Reshape()
transpose = Transpose()
expand_dims = ExpandDims()
tile = Tile()
tensor_slice = Slice()
gather = Gather()
gather_nd = GatherNd()
tensor_scatter_add = TensorScatterAdd()
shape = Shape()
rank = Rank()
size = Size()
dtype = DType()
