"""Losses, as ``mindspore.nn.loss``."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F
from ember.ops import operations as P

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base of losses: ``get_loss(x)`` applies ``reduction`` ('mean', 'sum' or 'none')."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: reduction must be one of "
                             f"{', '.join(_REDUCTIONS)}, but got {reduction!r}")
        self.reduction = reduction

    def get_loss(self, x: Tensor, weights: Any = 1.0) -> Tensor:
        if not (isinstance(weights, int | float) and weights == 1.0):
            x = F.mul(x, weights)
        if self.reduction == "mean":
            return P.ReduceMean()(x, ())
        if self.reduction == "sum":
            return P.ReduceSum()(x, ())
        return x


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of ``softmax(logits)`` against ``labels``: one-hot labels, or class
    indices with ``sparse=True``. ``reduction`` defaults to 'none', as in MindSpore."""

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"SoftmaxCrossEntropyWithLogits: sparse must be a bool, but got "
                            f"{sparse!r}")
        self.sparse = sparse
        self.softmax_cross_entropy = P.SoftmaxCrossEntropyWithLogits()
        self.sparse_softmax_cross_entropy = P.SparseSoftmaxCrossEntropyWithLogits()
        self.one_hot = P.OneHot()

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        if self.sparse:
            if self.reduction == "mean":
                return self.sparse_softmax_cross_entropy(logits, labels)
            labels = self.one_hot(labels, logits.shape[-1], Tensor(1.0, logits.dtype),
                                  Tensor(0.0, logits.dtype))
        return self.get_loss(self.softmax_cross_entropy(logits, labels)[0])
