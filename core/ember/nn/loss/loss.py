"""Losses, as ``mindspore.nn.loss``: each compares ``logits`` with ``labels`` and reduces the
elementwise loss by ``reduction``: 'mean', 'sum' or 'none'."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops._rules import broadcast_shape

_REDUCTIONS = ("mean", "sum", "none")


def _check_tensor(owner: str, name: str, value: Any,
                  dtypes: tuple[mstype.Type, ...] = mstype.float_type) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{owner}: {name} must be a Tensor, but got {type(value).__name__}")
    if value.dtype not in dtypes:
        raise TypeError(f"{owner}: {name} must have dtype in "
                        f"[{', '.join(map(str, dtypes))}], but got {value.dtype}")
    return value


def _check_same(owner: str, logits: Any, labels: Any) -> None:
    """Float ``logits`` and ``labels`` of one shape and dtype."""
    _check_tensor(owner, "logits", logits)
    _check_tensor(owner, "labels", labels)
    if logits.shape != labels.shape or logits.dtype is not labels.dtype:
        raise ValueError(f"{owner}: logits and labels must have the same shape and dtype, but "
                         f"got logits {list(logits.shape)} {logits.dtype} and labels "
                         f"{list(labels.shape)} {labels.dtype}")


class LossBase(Cell):
    """Base of losses: ``get_loss(x, weights=1.0)`` weights the elementwise loss ``x`` and
    applies ``reduction`` ('mean', 'sum' or 'none') over all its axes."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: reduction must be one of "
                             f"{', '.join(_REDUCTIONS)}, but got {reduction!r}")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x: Tensor) -> tuple[int, ...]:
        """Every axis of ``x``: what 'mean' and 'sum' reduce."""
        return tuple(range(x.ndim))

    def get_loss(self, x: Tensor, weights: Any = 1.0) -> Tensor:
        """``x * weights`` reduced by ``reduction``; Float16 is reduced in Float32."""
        if not (isinstance(weights, int | float) and weights == 1.0):
            x = F.mul(x, weights)
        if not self.reduce:
            return x
        dtype = x.dtype
        if dtype is mstype.float16:
            x = F.cast(x, mstype.float32)
        x = F.reduce_mean(x, ()) if self.average else F.reduce_sum(x, ())
        return F.cast(x, dtype) if dtype is mstype.float16 else x


class L1Loss(LossBase):
    """``|logits - labels|``, reduced: ``L1Loss(reduction='mean')``."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self.cls_name, "logits", logits, mstype.number_type)
        _check_tensor(self.cls_name, "labels", labels, mstype.number_type)
        return self.get_loss(F.abs(F.sub(logits, labels)))


class MSELoss(LossBase):
    """``(logits - labels) ** 2``, reduced: ``MSELoss(reduction='mean')``."""

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_tensor(self.cls_name, "logits", logits, mstype.number_type)
        _check_tensor(self.cls_name, "labels", labels, mstype.number_type)
        return self.get_loss(F.square(F.sub(logits, labels)))


class SmoothL1Loss(LossBase):
    """``0.5 * d ** 2 / beta`` where ``d = |logits - labels| < beta``, else ``d - 0.5 * beta``:
    ``SmoothL1Loss(beta=1.0, reduction='none')``. MindSpore 1.6 has no ``reduction`` here and
    returns the elementwise loss, which is this default."""

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(beta, float):
            raise TypeError(f"SmoothL1Loss: beta must be a float, but got {type(beta).__name__}")
        if not beta > 0:
            raise ValueError(f"SmoothL1Loss: beta must be > 0, but got {beta}")
        self.beta = beta

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_same(self.cls_name, logits, labels)
        diff = F.abs(F.sub(logits, labels))
        quadratic = F.mul(F.square(diff), 0.5 / self.beta)
        linear = F.sub(diff, 0.5 * self.beta)
        return self.get_loss(F.select(F.less(diff, self.beta), quadratic, linear))


class SoftMarginLoss(LossBase):
    """The two-class logistic loss ``log(1 + exp(-labels * logits))`` for labels 1 and -1,
    reduced: ``SoftMarginLoss(reduction='mean')``, the primitive ``SoftMarginLoss``."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.soft_margin_loss = P.SoftMarginLoss(reduction)

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        return self.soft_margin_loss(logits, labels)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of ``sigmoid(logits)`` against ``labels`` (probabilities):
    ``-weight * (pos_weight * labels * log(sigmoid(logits)) + (1 - labels) *
    log(1 - sigmoid(logits)))``, computed stably, reduced:
    ``BCEWithLogitsLoss(reduction='mean', weight=None, pos_weight=None)``. ``weight`` and
    ``pos_weight`` (the weight of positive examples, per class on the last axis) are Tensors
    that broadcast to the logits' shape."""

    def __init__(self, reduction: str = "mean", weight: Tensor | None = None,
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(reduction)
        for name, value in (("weight", weight), ("pos_weight", pos_weight)):
            if value is not None:
                if isinstance(value, Parameter):
                    raise TypeError(f"BCEWithLogitsLoss: {name} must be a Tensor, not a "
                                    "Parameter")
                _check_tensor(self.cls_name, name, value)
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        _check_same(self.cls_name, logits, labels)
        for name, value in (("weight", self.weight), ("pos_weight", self.pos_weight)):
            if value is not None and broadcast_shape(self.cls_name, logits.shape,
                                                     value.shape) != logits.shape:
                raise ValueError(f"BCEWithLogitsLoss: {name} of shape {list(value.shape)} must "
                                 f"broadcast to the logits' shape {list(logits.shape)}")
        # -log(sigmoid(x)) = log(1 + exp(-|x|)) + max(-x, 0), without overflow
        neg_log_sigmoid = F.add(F.log(F.add(F.exp(F.neg(F.abs(logits))), 1.0)),
                                F.maximum(F.neg(logits), 0.0))
        positive = labels
        if self.pos_weight is not None:
            positive = F.mul(F.cast(self.pos_weight, logits.dtype), labels)
        # -(p y log s + (1 - y) log(1 - s)) = (1 - y) x + (p y + 1 - y) (-log s)
        negative = F.sub(1.0, labels)
        loss = F.add(F.mul(negative, logits),
                     F.mul(F.add(positive, negative), neg_log_sigmoid))
        if self.weight is not None:
            loss = F.mul(loss, F.cast(self.weight, logits.dtype))
        return self.get_loss(loss)


class NLLLoss(LossBase):
    """Negative log-likelihood of class indices ``labels`` (N) or (N, d1, ...) under
    log-probabilities ``logits`` (N, C) or (N, C, d1, ...): ``-weight[t] * logits[n, t]`` with
    ``t = labels[n]``; labels equal to ``ignore_index`` count for nothing. 'mean' divides the
    sum by the total weight of the counted labels: ``NLLLoss(weight=None, ignore_index=-100,
    reduction='mean')`` (MindSpore 2.0's, as 1.6 has no NLLLoss)."""

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        if weight is not None:
            _check_tensor(self.cls_name, "weight", weight)
            if weight.ndim != 1:
                raise ValueError(f"NLLLoss: weight must be 1-D (one weight per class), but got "
                                 f"shape {list(weight.shape)}")
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"NLLLoss: ignore_index must be an int, but got "
                            f"{type(ignore_index).__name__}")
        self.weight = weight
        self.ignore_index = ignore_index
        self.one_hot = P.OneHot(axis=1)
        self.sum_classes = P.ReduceSum()

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        owner = self.cls_name
        _check_tensor(owner, "logits", logits)
        _check_tensor(owner, "labels", labels, (mstype.int32, mstype.int64))
        if logits.ndim < 2 or labels.shape != logits.shape[:1] + logits.shape[2:]:
            raise ValueError(f"NLLLoss: logits must be (N, C) or (N, C, d1, ...) and labels "
                             f"(N) or (N, d1, ...), but got logits {list(logits.shape)} and "
                             f"labels {list(labels.shape)}")
        classes = logits.shape[1]
        dtype = logits.dtype
        hot = self.one_hot(labels, classes, Tensor(1, dtype), Tensor(0, dtype))
        counted = F.cast(F.not_equal(labels, self.ignore_index), dtype)
        if self.weight is None:
            weights = counted
        else:
            if self.weight.shape != (classes,):
                raise ValueError(f"NLLLoss: weight must have one value per class ({classes}), "
                                 f"but got shape {list(self.weight.shape)}")
            per_class = F.reshape(F.cast(self.weight, dtype), (1, classes) + (1,) * (
                logits.ndim - 2))
            weights = F.mul(self.sum_classes(F.mul(hot, per_class), 1), counted)
        loss = F.sub(0.0, F.mul(self.sum_classes(F.mul(hot, logits), 1), weights))  # no -0.0
        if self.reduction == "mean":
            return F.div(F.reduce_sum(loss, ()), F.reduce_sum(weights, ()))
        return self.get_loss(loss)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of ``softmax(logits)`` (N, C) against ``labels``: one-hot or soft labels
    (N, C), or class indices (N) with ``sparse=True``:
    ``SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')``."""

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
            _check_tensor(self.cls_name, "logits", logits)
            labels = self.one_hot(labels, logits.shape[-1], Tensor(1, logits.dtype),
                                  Tensor(0, logits.dtype))
        return self.get_loss(self.softmax_cross_entropy(logits, labels)[0])
