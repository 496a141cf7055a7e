"""Gathering by index and segment reductions: ``GatherD``, ``SparseGatherV2``,
``EmbeddingLookup`` and ``UnsortedSegment<Op>`` (Sum, Max, Min, Prod).

Segment ids outside ``[0, num_segments)`` are dropped, as MindSpore's CPU kernels drop them;
segments no id selects hold 0 (Sum), the dtype's lowest value (Max), highest (Min) or 1 (Prod).
"""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import (
    Gather,
    _axis,
    _int_attr,
    _prim,
    _shape_of,
    gather,
    reshape,
)
from ember.ops.primitive import Primitive, Spec

__all__ = [
    "EmbeddingLookup", "GatherD", "GatherDGrad", "SparseGatherV2", "UnsortedSegmentMax",
    "UnsortedSegmentMin", "UnsortedSegmentProd", "UnsortedSegmentSum", "gather_d",
    "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
    "unsorted_segment_sum",
]

_INDEX = (mstype.int32, mstype.int64)


class GatherD(Primitive):
    """Elements of ``x`` picked along ``dim`` by ``index`` (of x's rank): ``GatherD()(x, dim,
    index)``; for dim 1, ``out[i][j][k] = x[i][index[i][j][k]][k]``."""

    def infer(self, x: Any, dim: Any, index: Any) -> Spec:
        check_tensor(self.name, "x", x)
        check_tensor(self.name, "index", index, _INDEX)
        dim = _axis(self.name, dim, x.ndim)
        if index.ndim != x.ndim or any(i > n for d, (i, n) in
                                       enumerate(zip(index.shape, x.shape)) if d != dim):
            raise ValueError(f"GatherD: index of shape {list(index.shape)} must have the rank "
                             f"of x, shape {list(x.shape)}, and no larger size in any dimension "
                             f"but dim {dim}")
        return index.shape, x.dtype

    def bprop(self, x: Tensor, dim: int, index: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return _prim(GatherDGrad, dim % x.ndim, x.shape)(index, dout), None, None


class GatherDGrad(Primitive):
    """The gradient of GatherD: ``grad`` added into zeros of ``shape`` at the places GatherD
    read: ``GatherDGrad(dim, shape)(index, grad)``."""

    def __init__(self, dim: int = 0, shape: tuple[int, ...] = ()) -> None:
        super().__init__()
        self.dim = _int_attr(self.name, "dim", dim)
        self.shape = _shape_of(self.name, "shape", shape)
        _axis(self.name, dim, len(self.shape))

    def infer(self, index: Any, grad: Any) -> Spec:
        check_tensor(self.name, "index", index, _INDEX)
        check_tensor(self.name, "grad", grad, mstype.number_type)
        if grad.shape != index.shape or index.ndim != len(self.shape):
            raise ValueError(f"GatherDGrad: grad of shape {list(grad.shape)} and index of shape "
                             f"{list(index.shape)} must match, with the rank of shape "
                             f"{list(self.shape)}")
        return self.shape, grad.dtype

    def bprop(self, index: Tensor, grad: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return None, gather_d(dout, self.dim, index)


class SparseGatherV2(Gather):
    """Gather, as MindSpore's variant for sparse gradients: ``SparseGatherV2()(input_params,
    input_indices, axis)`` (its gradient is dense here)."""


class EmbeddingLookup(Primitive):
    """Rows of ``input_params`` at ``input_indices - offset``; indices outside the table give
    rows of zeros: ``EmbeddingLookup()(input_params, input_indices, offset)``."""

    def infer(self, params: Any, indices: Any, offset: Any) -> Spec:
        check_tensor(self.name, "input_params", params)
        check_tensor(self.name, "input_indices", indices, _INDEX)
        _int_attr(self.name, "offset", offset)
        if not params.ndim:
            raise ValueError("EmbeddingLookup: input_params must have at least one dimension")
        return indices.shape + params.shape[1:], params.dtype

    def bprop(self, params: Tensor, indices: Tensor, offset: int, out: Tensor,
              dout: Tensor) -> tuple:
        ids = F.sub(indices, Tensor(offset, indices.dtype)) if offset else indices
        rows = reshape(dout, (-1,) + params.shape[1:])
        grad = unsorted_segment_sum(rows, reshape(ids, (-1,)), params.shape[0])
        return grad, None, None


class _UnsortedSegment(Primitive):
    """``UnsortedSegment<Op>()(input_x, segment_ids, num_segments)``: the slices of ``input_x``
    whose ``segment_ids`` (a prefix of its shape) are equal, combined; output shape
    ``(num_segments,) + input_x.shape[segment_ids.ndim:]``."""

    def infer(self, x: Any, segment_ids: Any, num_segments: Any) -> Spec:
        check_tensor(self.name, "input_x", x, mstype.number_type)
        check_tensor(self.name, "segment_ids", segment_ids, _INDEX)
        _int_attr(self.name, "num_segments", num_segments, minimum=1)
        if x.shape[:segment_ids.ndim] != segment_ids.shape:
            raise ValueError(f"{self.name}: the shape of segment_ids, "
                             f"{list(segment_ids.shape)}, must be a prefix of the shape of "
                             f"input_x, {list(x.shape)}")
        return (num_segments,) + x.shape[segment_ids.ndim:], x.dtype


def _valid(segment_ids: Tensor, num_segments: int, x: Tensor) -> tuple[Tensor, Tensor]:
    """The ids with those out of range set to 0, and a mask of the valid ones shaped to
    broadcast against ``x``."""
    ids = segment_ids
    valid = F.logical_and(F.greater_equal(ids, Tensor(0, ids.dtype)),
                          F.less(ids, Tensor(num_segments, ids.dtype)))
    safe = F.select(valid, ids, F.zeros_like(ids))
    mask = reshape(valid, ids.shape + (1,) * (x.ndim - ids.ndim))
    return safe, mask


def _gather_segments(values: Tensor, safe_ids: Tensor, mask: Tensor, x: Tensor) -> Tensor:
    """``values[segment_ids]`` for every slice of ``x``, 0 where the id was out of range."""
    picked = gather(values, safe_ids, 0)
    return F.select(F.broadcast_to(mask, x.shape), picked, F.zeros_like(picked))


class UnsortedSegmentSum(_UnsortedSegment):
    """Sums the slices of ``input_x`` with equal ``segment_ids``."""

    def bprop(self, x: Tensor, segment_ids: Tensor, num_segments: int, out: Tensor,
              dout: Tensor) -> tuple:
        safe, mask = _valid(segment_ids, num_segments, x)
        return _gather_segments(dout, safe, mask, x), None, None


class _UnsortedSegmentExtremum(_UnsortedSegment):
    """Max/Min: the gradient is shared equally by the slices that hold a segment's result."""

    def bprop(self, x: Tensor, segment_ids: Tensor, num_segments: int, out: Tensor,
              dout: Tensor) -> tuple:
        safe, mask = _valid(segment_ids, num_segments, x)
        chosen = F.logical_and(F.equal(x, gather(out, safe, 0)), F.broadcast_to(mask, x.shape))
        count = unsorted_segment_sum(F.cast(chosen, x.dtype), segment_ids, num_segments)
        share = F.div(dout, F.maximum(count, F.ones_like(count)))
        picked = gather(share, safe, 0)
        return F.select(chosen, picked, F.zeros_like(picked)), None, None


class UnsortedSegmentMax(_UnsortedSegmentExtremum):
    """The elementwise maximum of the slices of ``input_x`` with equal ``segment_ids``."""


class UnsortedSegmentMin(_UnsortedSegmentExtremum):
    """The elementwise minimum of the slices of ``input_x`` with equal ``segment_ids``."""


class UnsortedSegmentProd(_UnsortedSegment):
    """The product of the slices of ``input_x`` with equal ``segment_ids``."""

    def bprop(self, x: Tensor, segment_ids: Tensor, num_segments: int, out: Tensor,
              dout: Tensor) -> tuple:
        # d out[s] / d x[i] is the product of the other members of segment s: with x[i] != 0
        # it is out[s] / x[i]; with x[i] == 0 it is the product of the segment's non-zeros
        # when x[i] is its only zero, and 0 otherwise.
        safe, mask = _valid(segment_ids, num_segments, x)
        zero = F.equal(x, F.zeros_like(x))
        ones = F.ones_like(x)
        zeros = unsorted_segment_sum(F.cast(zero, x.dtype), segment_ids, num_segments)
        nonzero_prod = unsorted_segment_prod(F.select(zero, ones, x), segment_ids, num_segments)
        only_zero = F.logical_and(zero, F.equal(gather(zeros, safe, 0), ones))
        others = F.select(zero, F.select(only_zero, gather(nonzero_prod, safe, 0),
                                         F.zeros_like(x)),
                          F.div(gather(out, safe, 0), F.select(zero, ones, x)))
        grad = F.mul(others, _gather_segments(dout, safe, mask, x))
        return grad, None, None


gather_d = GatherD()
unsorted_segment_sum = UnsortedSegmentSum()
unsorted_segment_max = UnsortedSegmentMax()
unsorted_segment_min = UnsortedSegmentMin()
unsorted_segment_prod = UnsortedSegmentProd()
