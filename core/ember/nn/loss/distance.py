"""Distance losses: ``RMSELoss``, ``MAELoss``, ``CosineEmbeddingLoss``, ``DiceLoss``,
``MultiClassDiceLoss``."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.layer.activation import get_activation
from ember.nn.loss.loss import LossBase, _check_same, _check_tensor
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["CosineEmbeddingLoss", "DiceLoss", "MAELoss", "MultiClassDiceLoss", "RMSELoss"]


class MAELoss(LossBase):
    """``|logits - label|``, reduced (mean by default)."""

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_tensor(self.cls_name, "logits", logits, mstype.number_type)
        return self.get_loss(F.abs(F.sub(logits, label)))


class RMSELoss(LossBase):
    """``sqrt(mean((logits - label) ** 2))``."""

    def __init__(self) -> None:
        super().__init__("mean")

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_tensor(self.cls_name, "logits", logits, mstype.number_type)
        return F.sqrt(self.get_loss(F.square(F.sub(logits, label))))


class CosineEmbeddingLoss(LossBase):
    """For rows x1, x2 and labels 1 or -1: ``1 - cos(x1, x2)`` where the label is 1,
    ``max(0, cos(x1, x2) - margin)`` where it is -1; reduced over the rows."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, int | float) or not (
                -1.0 <= margin <= 1.0):
            raise ValueError(f"CosineEmbeddingLoss: margin must be a number in [-1.0, 1.0], "
                             f"but got {margin!r}")
        self.margin = float(margin)

    def construct(self, logits_x1: Tensor, logits_x2: Tensor, labels: Tensor) -> Tensor:
        _check_same(self.cls_name, logits_x1, logits_x2)
        if labels.shape != logits_x1.shape[:1] + logits_x1.shape[2:]:
            raise ValueError(f"CosineEmbeddingLoss: labels must have shape "
                             f"{list(logits_x1.shape[:1] + logits_x1.shape[2:])}, but got "
                             f"{list(labels.shape)}")
        dot = P.ReduceSum()(F.mul(logits_x1, logits_x2), 1)
        norms = F.sqrt(F.mul(P.ReduceSum()(F.square(logits_x1), 1),
                             P.ReduceSum()(F.square(logits_x2), 1)))
        cosine = F.real_div(dot, norms)
        zeros = F.zeros_like(cosine)
        positive = F.select(F.equal(labels, 1), F.sub(1.0, cosine), zeros)
        negative = F.select(F.equal(labels, -1), F.maximum(F.sub(cosine, self.margin), zeros),
                            zeros)
        return self.get_loss(F.add(positive, negative))


def _dice(logits: Tensor, label: Tensor, smooth: float) -> Tensor:
    intersection = P.ReduceSum()(F.mul(logits, label), ())
    union = F.add(P.ReduceSum()(F.square(logits), ()), P.ReduceSum()(F.square(label), ()))
    return F.sub(1.0, F.real_div(F.mul(intersection, 2.0), F.add(union, smooth)))


class DiceLoss(LossBase):
    """``1 - 2 |X ∩ Y| / (|X|² + |Y|² + smooth)`` over all elements."""

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, int | float) or smooth <= 0:
            raise ValueError(f"DiceLoss: smooth must be a positive number, but got {smooth!r}")
        self.smooth = float(smooth)

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_same(self.cls_name, logits, label)
        return _dice(logits, label, self.smooth)


class MultiClassDiceLoss(LossBase):
    """The mean over classes (axis 1) of the Dice loss of ``activation(logits)`` against
    one-hot ``label``, each class weighted by ``weights``; ``ignore_indiex`` (MindSpore's
    spelling) skips one class."""

    def __init__(self, weights: Tensor | None = None, ignore_indiex: int | None = None,
                 activation: Any = "softmax") -> None:
        super().__init__()
        self.weights = weights
        self.ignore_indiex = ignore_indiex
        self.activation = get_activation(activation) if isinstance(activation, str) else (
            activation)
        self.dice = DiceLoss()

    def construct(self, logits: Tensor, label: Tensor) -> Tensor:
        _check_same(self.cls_name, logits, label)
        if logits.ndim < 2:
            raise ValueError(f"MultiClassDiceLoss: logits must have a class axis 1, but got "
                             f"shape {list(logits.shape)}")
        if self.activation is not None:
            logits = self.activation(logits)
        total = None
        classes = logits.shape[1]
        for i in range(classes):
            if i == self.ignore_indiex:
                continue
            loss = self.dice(logits[:, i], label[:, i])
            if self.weights is not None:
                loss = F.mul(loss, self.weights[i])
            total = loss if total is None else F.add(total, loss)
        return F.real_div(total, float(classes))
