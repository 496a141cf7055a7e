"""Shapes and layouts: copies on the stream, aclnnPermute/Expand/Repeat/Cat/Stack/OneHot/Flip,
gathers, and slices as strided views copied by aclnnInplaceCopy."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import (
    AscendDevice,
    DeviceArray,
    IntArray,
    Scalar,
    TensorList,
    View,
    contiguous_strides,
    view,
)
from ember_ascend.kernels.common import flip
from ember_ascend.kernels.spatial import placed


def _copy_as(shape_of: Any) -> Any:
    """A kernel that copies its input into an array of another shape (same elements)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, *args: Any) -> DeviceArray:
            out = dev.empty(shape_of(prim, x, *args), x.dtype)
            dev.copy(out, x)
            return out

        return kernel

    return factory


def _expand_dims(prim: Any, x: DeviceArray, axis: int) -> tuple[int, ...]:
    axis = axis % (x.ndim + 1)
    return (*x.shape[:axis], 1, *x.shape[axis:])


def _squeeze(prim: Any, x: DeviceArray) -> tuple[int, ...]:
    axes = {a % x.ndim for a in prim.axis} if prim.axis else {
        i for i, d in enumerate(x.shape) if d == 1}
    return tuple(d for i, d in enumerate(x.shape) if i not in axes)


def _reshape(prim: Any, x: DeviceArray, shape: tuple[int, ...]) -> tuple[int, ...]:
    shape = list(shape)
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        shape[shape.index(-1)] = x.size // known if known else 0
    return tuple(shape)


def _with_shape_list(op: str, of_shape: Any) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, values: tuple[int, ...]) -> DeviceArray:
            out = dev.empty(of_shape(x, values), x.dtype)
            dev.aclnn(op, x, IntArray(values), out)
            return out

        return kernel

    return factory


def _tile_shape(x: DeviceArray, multiples: tuple[int, ...]) -> tuple[int, ...]:
    shape = (1,) * (len(multiples) - x.ndim) + x.shape
    return tuple(d * m for d, m in zip(shape, multiples))


def _broadcast_to(prim: Any, dev: AscendDevice) -> Any:
    target = prim.shape

    def kernel(x: DeviceArray) -> DeviceArray:
        shape = tuple(x.shape[i - len(target) + x.ndim] if d == -1 else d
                      for i, d in enumerate(target))
        out = dev.empty(shape, x.dtype)
        dev.aclnn("Expand", x, IntArray(shape), out)
        return out

    return kernel


def _join(op: str, stacked: bool) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        axis = prim.axis

        def kernel(*xs: Any) -> DeviceArray:
            xs = xs[0] if len(xs) == 1 and isinstance(xs[0], tuple | list) else xs
            first = xs[0]
            rank = first.ndim + stacked
            dim = axis % rank
            if stacked:
                shape = (*first.shape[:dim], len(xs), *first.shape[dim:])
            else:
                shape = (*first.shape[:dim], sum(x.shape[dim] for x in xs),
                         *first.shape[dim + 1:])
            out = dev.empty(shape, first.dtype)
            dev.aclnn(op, TensorList(tuple(xs)), dim, out)
            return out

        return kernel

    return factory


def _strided_copy(dev: AscendDevice, x: DeviceArray, starts: tuple[int, ...],
                  steps: tuple[int, ...], shape: tuple[int, ...]) -> DeviceArray:
    """``x[start::step, ...]`` of ``shape`` as a new array: a strided view, copied."""
    out = dev.empty(shape, x.dtype)
    if out.size:
        strides = contiguous_strides(x.shape)
        offset = sum(s * st for s, st in zip(starts, strides))
        src = View(x, shape, tuple(st * step for st, step in zip(strides, steps)), offset)
        dev.aclnn("InplaceCopy", out, src)
    return out


def _slice(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, begin: tuple[int, ...], size: tuple[int, ...]) -> DeviceArray:
        shape = tuple(x.shape[i] - b if s == -1 else s for i, (b, s) in enumerate(zip(begin,
                                                                                      size)))
        return _strided_copy(dev, x, tuple(begin), (1,) * x.ndim, shape)

    return kernel


def _strided_view(array: DeviceArray, shape: tuple[int, ...],
                  index: tuple) -> tuple[View, tuple[int, ...]]:
    """``array`` (holding ``shape``) indexed by a NumPy basic index (slices, ints, None) as a
    view with strides >= 0 (as aclCreateTensor needs), and the dims to flip to get the slice."""
    strides = contiguous_strides(shape)
    offset, dims, steps, flips = 0, [], [], []
    axis = 0
    for item in index:
        if item is None:
            dims.append(1)
            steps.append(0)
            continue
        if isinstance(item, slice):
            start, stop, step = item.indices(shape[axis])
            n = len(range(start, stop, step))
            if step < 0 and n:
                start, step = start + (n - 1) * step, -step
                flips.append(len(dims))
            offset += start * strides[axis] if n else 0
            dims.append(n)
            steps.append(step * strides[axis])
        else:
            offset += item * strides[axis]
        axis += 1
    dims += shape[axis:]
    steps += strides[axis:]
    return View(array, tuple(dims), tuple(steps), offset), tuple(flips)


def _strided_slice(prim: Any, dev: AscendDevice) -> Any:
    """A strided view copied out (aclnnInplaceCopy), flipped where a step is negative."""
    def kernel(x: DeviceArray, begin: Any, end: Any, strides: Any) -> DeviceArray:
        index, shape = prim.index(x.shape, begin, end, strides)
        src, flips = _strided_view(x, x.shape, index)
        if flips:
            return flip(dev, src, flips)
        out = dev.empty(shape, x.dtype)
        if out.size:
            dev.aclnn("InplaceCopy", out, View(src.array, shape, src.strides, src.offset))
        return out

    return kernel


def _strided_slice_grad(prim: Any, dev: AscendDevice) -> Any:
    """Zeros of x's shape, with dy copied into the strided view the slice took."""
    def kernel(dy: DeviceArray, shapex: Any, begin: Any, end: Any,
               strides: Any) -> DeviceArray:
        shapex = tuple(shapex)
        out = dev.zero(dev.empty(shapex, dy.dtype))
        index, _ = prim.index(shapex, begin, end, strides)
        dst, flips = _strided_view(out, shapex, index)
        if dy.size:
            dev.aclnn("InplaceCopy", dst, flip(dev, view(dy, dst.shape), flips) if flips
                      else view(dy, dst.shape))
        return out

    return kernel


def _slice_grad(prim: Any, dev: AscendDevice) -> Any:
    strided = _strided_slice_grad(prim.strided_grad, dev)
    return lambda dy, x, begin, size: strided(dy, *prim.strided(x.shape, begin, size))


def _tensor_copy_slices(prim: Any, dev: AscendDevice) -> Any:
    """x copied, then value copied into the view of the slice (its strides are all 1)."""
    def kernel(x: DeviceArray, value: DeviceArray, begin: Any, end: Any,
               strides: Any) -> DeviceArray:
        out = dev.empty(x.shape, x.dtype)
        if out.size:
            dev.aclnn("InplaceCopy", out, x)
        index, _ = prim.index(x.shape, begin, end, strides)
        dst, _ = _strided_view(out, x.shape, index)
        if value.size:
            dev.aclnn("InplaceCopy", dst, view(value, dst.shape))
        return out

    return kernel


def _reverse(prim: Any, dev: AscendDevice) -> Any:
    axes = tuple(prim.axis)

    def kernel(x: DeviceArray) -> DeviceArray:
        return flip(dev, x, tuple(sorted(a % x.ndim for a in axes)))

    return kernel


def _unstack(prim: Any, dev: AscendDevice) -> Any:
    """Each slice along the axis, a strided view copied out."""
    def kernel(x: DeviceArray) -> tuple[DeviceArray, ...]:
        axis = prim.axis % x.ndim
        strides = contiguous_strides(x.shape)
        shape = x.shape[:axis] + x.shape[axis + 1:]
        parts = []
        for k in range(x.shape[axis]):
            part = dev.empty(shape, x.dtype)
            if part.size:
                dev.aclnn("InplaceCopy", part, View(x, shape, strides[:axis] + strides[axis + 1:],
                                                    k * strides[axis]))
            parts.append(part)
        return tuple(parts)

    return kernel


def _meshgrid(prim: Any, dev: AscendDevice) -> Any:
    """Each 1-d input viewed along its axis of the grid and expanded (aclnnExpand); 'xy'
    swaps the first two axes."""
    xy = prim.indexing == "xy"

    def kernel(*xs: DeviceArray) -> tuple[DeviceArray, ...]:
        sizes = [x.shape[0] for x in xs]
        axes = list(range(len(xs)))
        if xy:
            sizes[0], sizes[1] = sizes[1], sizes[0]
            axes[0], axes[1] = 1, 0
        grids = []
        for x, axis in zip(xs, axes):
            out = dev.empty(tuple(sizes), x.dtype)
            along = tuple(d if i == axis else 1 for i, d in enumerate(sizes))
            if out.size:
                dev.aclnn("Expand", view(x, along), IntArray(tuple(sizes)), out)
            grids.append(out)
        return tuple(grids)

    return kernel


def _eye(prim: Any, dev: AscendDevice) -> Any:
    """Zeros with ones filled into the diagonal, a view of stride m + 1."""
    def kernel(n: int, m: int, dtype: Any) -> DeviceArray:
        out = dev.zero(dev.empty((n, m), dtype.np_dtype))
        if min(n, m):
            dev.aclnn("InplaceFillScalar", View(out, (min(n, m),), (m + 1,)),
                      Scalar(1, out.dtype))
        return out

    return kernel


def _permuted(dev: AscendDevice, x: DeviceArray, shape: tuple[int, ...],
              order: tuple[int, ...], out_shape: tuple[int, ...]) -> DeviceArray:
    """``x`` read as ``shape``, its axes permuted (aclnnPermute) into an array of
    ``out_shape`` (the same elements)."""
    out = dev.empty(out_shape, x.dtype)
    if out.size:
        dev.aclnn("Permute", view(x, shape), IntArray(order),
                  view(out, tuple(shape[i] for i in order)))
    return out


def _space_to_depth(prim: Any, dev: AscendDevice) -> Any:
    b = prim.block_size

    def kernel(x: DeviceArray) -> DeviceArray:
        n, c, h, w = x.shape
        return _permuted(dev, x, (n, c, h // b, b, w // b, b), (0, 3, 5, 1, 2, 4),
                         (n, c * b * b, h // b, w // b))

    return kernel


def _depth_to_space(prim: Any, dev: AscendDevice) -> Any:
    b = prim.block_size

    def kernel(x: DeviceArray) -> DeviceArray:
        n, c, h, w = x.shape
        return _permuted(dev, x, (n, b, b, c // (b * b), h, w), (0, 3, 4, 1, 5, 2),
                         (n, c // (b * b), h * b, w * b))

    return kernel


def _space_to_batch(prim: Any, dev: AscendDevice) -> Any:
    """x padded with zeros, then its (bh, bw) blocks moved to the batch (aclnnPermute)."""
    (bh, bw), paddings = prim.block_shape, tuple(tuple(p) for p in prim.paddings)

    def kernel(x: DeviceArray) -> DeviceArray:
        (top, bottom), (left, right) = paddings
        n, c, h, w = x.shape
        h, w = h + top + bottom, w + left + right
        padded = placed(dev, x, (n, c, h, w), (0, 0, top, left))
        return _permuted(dev, padded, (n, c, h // bh, bh, w // bw, bw), (3, 5, 0, 1, 2, 4),
                         (bh * bw * n, c, h // bh, w // bw))

    return kernel


def _batch_to_space(prim: Any, dev: AscendDevice) -> Any:
    """The batch's blocks moved back into space (aclnnPermute), then cropped (a view)."""
    (bh, bw), crops = prim.block_shape, tuple(tuple(p) for p in prim.crops)

    def kernel(x: DeviceArray) -> DeviceArray:
        (top, bottom), (left, right) = crops
        n, c, h, w = x.shape
        n //= bh * bw
        full = _permuted(dev, x, (bh, bw, n, c, h, w), (2, 3, 4, 0, 5, 1),
                         (n, c, h * bh, w * bw))
        out = dev.empty((n, c, h * bh - top - bottom, w * bw - left - right), x.dtype)
        if out.size:
            strides = contiguous_strides(full.shape)
            dev.aclnn("InplaceCopy", out, View(full, out.shape, strides,
                                               top * strides[2] + left * strides[3]))
        return out

    return kernel


def _diag(prim: Any, dev: AscendDevice) -> Any:
    """Zeros of shape x.shape + x.shape with x copied into the diagonal (stride size + 1)."""
    def kernel(x: DeviceArray) -> DeviceArray:
        out = dev.zero(dev.empty(x.shape + x.shape, x.dtype))
        if x.size:
            dev.aclnn("InplaceCopy", View(out, (x.size,), (x.size + 1,)), view(x, (x.size,)))
        return out

    return kernel


def _diag_part(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> DeviceArray:
        half = x.shape[:x.ndim // 2]
        out = dev.empty(half, x.dtype)
        if out.size:
            dev.aclnn("InplaceCopy", view(out, (out.size,)),
                      View(x, (out.size,), (out.size + 1,)))
        return out

    return kernel


def _eps(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> DeviceArray:
        out = dev.empty(x.shape, x.dtype)
        if out.size:
            dev.aclnn("InplaceFillScalar", out, Scalar(prim.value(x.dtype), x.dtype))
        return out

    return kernel


def _dynamic_shape(prim: Any, dev: AscendDevice) -> Any:
    return lambda x: dev.from_host(np.array(x.shape, np.int32))


def _parts(dev: AscendDevice, x: DeviceArray, dim: int,
           sizes: tuple[int, ...]) -> tuple[DeviceArray, ...]:
    """``x`` cut along ``dim`` into consecutive parts of ``sizes``, each copied out."""
    parts, start = [], 0
    for size in sizes:
        shape = tuple(size if i == dim else d for i, d in enumerate(x.shape))
        parts.append(_strided_copy(dev, x, tuple(start if i == dim else 0
                                                 for i in range(x.ndim)), (1,) * x.ndim, shape))
        start += size
    return tuple(parts)


def _split(prim: Any, dev: AscendDevice) -> Any:
    axis, count = prim.axis, prim.output_num

    def kernel(x: DeviceArray) -> tuple[DeviceArray, ...]:
        dim = axis % x.ndim
        return _parts(dev, x, dim, (x.shape[dim] // count,) * count)

    return kernel


def _split_v(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> tuple[DeviceArray, ...]:
        dim = prim.split_dim % x.ndim
        return _parts(dev, x, dim, prim.sizes(x.shape[dim]))

    return kernel


def _gather(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, indices: DeviceArray, axis: int) -> DeviceArray:
        dim = axis % x.ndim
        out = dev.empty((*x.shape[:dim], *indices.shape, *x.shape[dim + 1:]), x.dtype)
        dev.aclnn("GatherV2", x, dim, indices, out)
        return out

    return kernel


def _gather_nd(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, indices: DeviceArray) -> DeviceArray:
        out = dev.empty((*indices.shape[:-1], *x.shape[indices.shape[-1]:]), x.dtype)
        dev.aclnn("GatherNd", x, indices, True, out)  # negative indices count from the end
        return out

    return kernel


def _one_hot(prim: Any, dev: AscendDevice) -> Any:
    axis = prim.axis

    def kernel(indices: DeviceArray, depth: int, on: DeviceArray,
               off: DeviceArray) -> DeviceArray:
        dim = axis % (indices.ndim + 1)
        out = dev.empty((*indices.shape[:dim], depth, *indices.shape[dim:]), on.dtype)
        dev.aclnn("OneHot", indices, depth, on, off, dim, out)
        return out

    return kernel


KERNELS = {
    "Reshape": _copy_as(_reshape),
    "FlattenGrad": _copy_as(_reshape),
    "ExpandDims": _copy_as(_expand_dims),
    "Squeeze": _copy_as(_squeeze),
    "Identity": _copy_as(lambda prim, x: x.shape),
    "GpuConvertToDynamicShape": _copy_as(lambda prim, x: x.shape),
    "ErrorOnDynamicShapeInput": _copy_as(lambda prim, x: x.shape),
    "Flatten": _copy_as(lambda prim, x: (x.shape[0], int(np.prod(x.shape[1:], dtype=np.int64)))),
    "Transpose": _with_shape_list("Permute", lambda x, perm: tuple(x.shape[p] for p in perm)),
    "Tile": _with_shape_list("Repeat", _tile_shape),
    "BroadcastTo": _broadcast_to,
    "Concat": _join("Cat", stacked=False),
    "Stack": _join("Stack", stacked=True),
    "ParallelConcat": _join("Cat", stacked=False),
    "Slice": _slice,
    "StridedSlice": _strided_slice,
    "TensorCopySlices": _tensor_copy_slices,
    "StridedSliceGrad": _strided_slice_grad,
    "SliceGrad": _slice_grad,
    "ReverseV2": _reverse,
    "Unstack": _unstack,
    "Unpack": _unstack,
    "Meshgrid": _meshgrid,
    "Eye": _eye,
    "DynamicShape": _dynamic_shape,
    "SpaceToDepth": _space_to_depth,
    "DepthToSpace": _depth_to_space,
    "SpaceToBatchND": _space_to_batch,
    "BatchToSpaceND": _batch_to_space,
    "SpaceToBatch": _space_to_batch,
    "BatchToSpace": _batch_to_space,
    "Diag": _diag,
    "DiagPart": _diag_part,
    "Eps": _eps,
    "Split": _split,
    "SplitV": _split_v,
    "Gather": _gather,
    "SparseGatherV2": _gather,
    "GatherNd": _gather_nd,
    "OneHot": _one_hot,
}
