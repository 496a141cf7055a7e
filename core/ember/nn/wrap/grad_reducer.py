"""``DistributedGradReducer``: gradients all-reduced across the processes of a data-parallel
launch, as ``mindspore.nn.wrap.grad_reducer``.

Gradients are fused into buckets, each flattened into one buffer and all-reduced by one
AllReduce, as the context's ``all_reduce_fusion_config`` / ``comm_fusion`` say: by parameter
indices ("index"), or consecutive gradients up to a size ("size"; "auto": 64 MB). Fewer,
larger messages cost fewer latencies than one collective per gradient.
"""

from __future__ import annotations

import math
from typing import Any

from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.communication.management import GlobalComm, group_ranks
from ember.nn.cell import Cell
from ember.ops.operations.array_ops import concat, reshape, tensor_slice
from ember.ops.operations.comm_ops import AllReduce, ReduceOp
from ember.ops.operations.math_ops import mul

__all__ = ["DistributedGradReducer", "fusion_buckets"]

_AUTO_MB = 64  # comm_fusion's "auto" threshold


def _segments(count: int, indices: list[int]) -> list[range]:
    """``range(count)`` split before each of ``indices``."""
    bounds = [0, *(i for i in indices if 0 < i < count), count]
    return [range(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def fusion_buckets(parameters: list[Parameter], fusion: bool = True) -> list[list[int]]:
    """The parameter indices whose gradients share one AllReduce, as the context's
    ``all_reduce_fusion_config`` (split indices, if set) or ``comm_fusion["allreduce"]`` say;
    each bucket holds one dtype. Without ``fusion``: one gradient a bucket."""
    from ember import context

    if not fusion:
        return [[i] for i in range(len(parameters))]
    split_at = context.get_auto_parallel_context("all_reduce_fusion_config")
    setting = context.get_auto_parallel_context("comm_fusion")["allreduce"]
    if split_at or setting["mode"] == "index":
        segments = _segments(len(parameters), split_at or setting["config"])
    else:
        limit = (setting["config"] or _AUTO_MB) * 2**20
        segments, start, size = [], 0, 0
        for i, param in enumerate(parameters):
            nbytes = math.prod(param.shape) * param.dtype.np_dtype.itemsize
            if i > start and size + nbytes > limit:
                segments.append(range(start, i))
                start, size = i, 0
            size += nbytes
        segments.append(range(start, len(parameters)))
    buckets = []
    for segment in segments:
        by_dtype: dict[Any, list[int]] = {}
        for i in segment:
            by_dtype.setdefault(parameters[i].dtype, []).append(i)
        buckets.extend(by_dtype.values())
    return [b for b in buckets if b]


class DistributedGradReducer(Cell):
    """All-reduces (sums) a tuple of gradients across the processes of ``group``, dividing by
    ``degree`` (default: the group's size) when ``mean``:
    ``DistributedGradReducer(parameters, mean=True, degree=None, fusion_type=1, group=...)``.
    ``fusion_type=0`` all-reduces each gradient alone; otherwise they are fused into buckets
    (:func:`fusion_buckets`)."""

    def __init__(self, parameters: Any, mean: bool = True, degree: int | None = None,
                 fusion_type: int = 1, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(auto_prefix=False)
        params = list(parameters)
        if not all(isinstance(p, Parameter) for p in params):
            raise TypeError("DistributedGradReducer: parameters must be Parameters (such as "
                            "optimizer.parameters)")
        if not isinstance(mean, bool):
            raise TypeError(f"DistributedGradReducer: mean must be a bool, but got {mean!r}")
        size = len(group_ranks(type(self).__name__, group))
        degree = size if degree is None else degree
        if not isinstance(degree, int) or isinstance(degree, bool) or degree < 1:
            raise ValueError(f"DistributedGradReducer: degree must be an int >= 1, but got "
                             f"{degree!r}")
        self.mean, self.degree, self.group = mean, degree, group
        self.shapes = [p.shape for p in params]
        self.buckets = fusion_buckets(params, fusion=fusion_type != 0)
        self.all_reduce = AllReduce(ReduceOp.SUM, group)

    def construct(self, grads: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        if len(grads) != len(self.shapes):
            raise ValueError(f"DistributedGradReducer: expected {len(self.shapes)} gradients "
                             f"(one per parameter), but got {len(grads)}")
        reduced: list[Any] = list(grads)
        for bucket in self.buckets:
            if len(bucket) == 1:
                reduced[bucket[0]] = self.all_reduce(grads[bucket[0]])
                continue
            total = self.all_reduce(concat([reshape(grads[i], (-1,)) for i in bucket]))
            start = 0
            for i in bucket:
                count = math.prod(self.shapes[i])
                piece = tensor_slice(total, (start,), (count,))
                reduced[i] = reshape(piece, self.shapes[i])
                start += count
        if self.mean:
            reduced = [mul(g, 1.0 / self.degree) for g in reduced]
        return tuple(reduced)
