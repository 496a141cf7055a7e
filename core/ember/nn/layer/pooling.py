"""2-D pooling layers: ``MaxPool2d`` and ``AvgPool2d``."""

from __future__ import annotations

from typing import ClassVar

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import check_choice, check_window
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["AvgPool1d", "AvgPool2d", "MaxPool1d", "MaxPool2d"]


class _Pool2d(Cell):
    """A pooling primitive (``_primitive``) over windows of an NCHW input."""

    _primitive: ClassVar[str]

    def __init__(self, kernel_size: int | tuple[int, int] = 1, stride: int | tuple[int, int] = 1,
                 pad_mode: str = "valid", data_format: str = "NCHW") -> None:
        super().__init__()
        layer = type(self).__name__
        self.kernel_size = check_window(layer, "kernel_size", kernel_size)
        self.stride = check_window(layer, "stride", stride)
        if not isinstance(pad_mode, str):
            raise TypeError(f"{layer}: 'pad_mode' must be a str, but got {pad_mode!r}")
        self.pad_mode = check_choice(layer, "pad_mode", pad_mode.upper(), ("VALID", "SAME"))
        self.format = check_choice(layer, "data_format", data_format, ("NCHW", "NHWC"))
        self.pool = getattr(P, self._primitive)(kernel_size=self.kernel_size, strides=self.stride,
                                                pad_mode=self.pad_mode, data_format=self.format)

    def construct(self, x: Tensor) -> Tensor:
        return self.pool(x)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """Maximum over each window:
    ``MaxPool2d(kernel_size=1, stride=1, pad_mode='valid', data_format='NCHW')``."""

    _primitive = "MaxPool"


class AvgPool2d(_Pool2d):
    """Mean over each window:
    ``AvgPool2d(kernel_size=1, stride=1, pad_mode='valid', data_format='NCHW')``."""

    _primitive = "AvgPool"


class _Pool1d(_Pool2d):
    """Pooling of an NCL input: the 2-D pooling of (N, C, 1, L) with a (1, k) window."""

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid") -> None:
        layer = type(self).__name__
        for name, value in (("kernel_size", kernel_size), ("stride", stride)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{layer}: '{name}' must be a positive int, but got {value!r}")
        super().__init__((1, kernel_size), (1, stride), pad_mode)

    def construct(self, x: Tensor) -> Tensor:
        if not isinstance(x, Tensor) or x.ndim != 3:
            raise ValueError(f"{type(self).__name__}: the input must be an NCL Tensor of rank 3, "
                             f"but got {x!r}")
        return F.squeeze(self.pool(F.expand_dims(x, 2)), 2)


class MaxPool1d(_Pool1d):
    """Maximum over each window of an NCL input."""

    _primitive = "MaxPool"


class AvgPool1d(_Pool1d):
    """Mean over each window of an NCL input."""

    _primitive = "AvgPool"
