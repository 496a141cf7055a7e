"""Probability losses: ``BCELoss`` and ``FocalLoss``."""

from __future__ import annotations

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.loss.loss import LossBase, _check_same, _check_tensor
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["BCELoss", "FocalLoss"]

_EPSILON = 1e-12  # MindSpore's BinaryCrossEntropy keeps log() finite with it


class BCELoss(LossBase):
    """``-weight * (labels * log(logits) + (1 - labels) * log(1 - logits))`` for
    probabilities ``logits``; MindSpore 1.6's default reduction is 'none'."""

    def __init__(self, weight: Tensor | None = None, reduction: str = "none") -> None:
        super().__init__(reduction)
        if weight is not None:
            _check_tensor(self.cls_name, "weight", weight)
        self.weight = weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_same(self.cls_name, logits, labels)
        log_p = F.log(F.add(logits, _EPSILON))
        log_q = F.log(F.add(F.sub(1.0, logits), _EPSILON))
        loss = F.neg(F.add(F.mul(labels, log_p), F.mul(F.sub(1.0, labels), log_q)))
        if self.weight is not None:
            loss = F.mul(loss, F.cast(self.weight, loss.dtype))
        return self.get_loss(loss)


class FocalLoss(LossBase):
    """``-weight[c] * (1 - p_c) ** gamma * log(p_c)`` for the true class c of each sample,
    ``p = softmax(logits)`` over axis 1 (N, C, ...). ``labels`` are class indices with a channel
    of 1 (N, 1, ...) or one-hot (N, C, ...); the per-sample losses are reduced."""

    def __init__(self, weight: Tensor | None = None, gamma: float = 2.0,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        if isinstance(gamma, bool) or not isinstance(gamma, float):
            raise TypeError(f"FocalLoss: gamma must be a float, but got {gamma!r}")
        if weight is not None:
            _check_tensor(self.cls_name, "weight", weight)
            if weight.ndim != 1:
                raise ValueError(f"FocalLoss: weight must be 1-D, but got shape "
                                 f"{list(weight.shape)}")
        self.weight, self.gamma = weight, gamma

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self.cls_name, "logits", logits)
        if logits.ndim < 2 or labels.ndim != logits.ndim or labels.shape[1] not in (
                1, logits.shape[1]) or labels.shape[2:] != logits.shape[2:]:
            raise ValueError(f"FocalLoss: labels must be (N, 1, ...) indices or (N, C, ...) "
                             f"one-hot for logits {list(logits.shape)}, but got "
                             f"{list(labels.shape)}")
        classes = logits.shape[1]
        if labels.shape[1] == 1:
            labels = P.OneHot(axis=1)(F.squeeze(F.cast(labels, mstype.int32), 1), classes,
                                      Tensor(1.0, logits.dtype), Tensor(0.0, logits.dtype))
        log_p = P.LogSoftmax(1)(logits)
        factor = F.pow(F.sub(1.0, F.exp(log_p)), self.gamma)
        loss = F.neg(F.mul(F.mul(factor, log_p), F.cast(labels, logits.dtype)))
        if self.weight is not None:
            loss = F.mul(loss, F.reshape(F.cast(self.weight, logits.dtype),
                                         (classes,) + (1,) * (logits.ndim - 2)))
        return self.get_loss(P.ReduceSum()(loss, 1))
