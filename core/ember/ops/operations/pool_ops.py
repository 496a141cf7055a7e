"""Pools beside MaxPool and AvgPool: ``MaxPoolWithArgmax`` (the maxima and where they are) and
``AdaptiveAvgPool2D`` (means over windows that tile the input into a given output size)."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops.operations.nn_ops import MaxPoolGrad, _Pool
from ember.ops.primitive import Spec

__all__ = ["MaxPoolWithArgmax"]


class MaxPoolWithArgmax(_Pool):
    """The maximum of each window of NCHW ``x`` and where it is, as the int32 position
    ``h * W + w`` in its (H, W) plane of ``x`` (the first in row-major order where several
    are equal): ``MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode="valid",
    data_format="NCHW")(x)`` -> (output, argmax)."""

    def infer(self, x: Any) -> list[Spec]:
        shape = self._out_shape(x)
        return [(shape, x.dtype), (shape, mstype.int32)]

    def bprop(self, x: Tensor, out: tuple, dout: tuple) -> tuple:
        return (self._sibling(MaxPoolGrad)(x, out[0], dout[0]),)
