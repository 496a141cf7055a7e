"""Negative log likelihood on aclnnNLLLoss and aclnnNLLLossBackward (no ignored class)."""

from __future__ import annotations

from typing import Any

from ember_ascend.device import AscendDevice, DeviceArray, DType, IntArray

#: aclnn's reduction codes, and its ignoreIndex: a class no label names (labels are checked
#: to be in [0, C) by the operator).
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
IGNORE = -100


def _nll_loss(prim: Any, dev: AscendDevice) -> Any:
    """(loss, total_weight); with reduction 'none' aclnn writes no total, so it is the sum of
    weight[labels] (aclnnGatherV2, aclnnReduceSum)."""
    reduction = REDUCTIONS[prim.reduction]

    def kernel(logits: DeviceArray, labels: DeviceArray,
               weight: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
        n = logits.shape[0]
        loss = dev.empty((n,) if reduction == 0 else (), logits.dtype)
        total = dev.empty((), logits.dtype)
        dev.aclnn("NLLLoss", logits, labels, weight, reduction, IGNORE, loss,
                  None if reduction == 0 else total)
        if reduction == 0:
            picked = dev.empty((n,), weight.dtype)
            dev.aclnn("GatherV2", weight, 0, labels, picked)
            if n:
                dev.aclnn("ReduceSum", picked, IntArray((0,)), False, DType(weight.dtype), total)
            else:
                dev.zero(total)
        return loss, total

    return kernel


def _nll_loss_grad(prim: Any, dev: AscendDevice) -> Any:
    reduction = REDUCTIONS[prim.reduction]

    def kernel(logits: DeviceArray, loss_grad: DeviceArray, labels: DeviceArray,
               weight: DeviceArray, total_weight: DeviceArray) -> DeviceArray:
        out = dev.empty(logits.shape, logits.dtype)
        dev.aclnn("NLLLossBackward", loss_grad, logits, labels, weight, reduction, IGNORE,
                  total_weight, out)
        return out

    return kernel


KERNELS = {
    "NLLLoss": _nll_loss,
    "NLLLossGrad": _nll_loss_grad,
}
