"""Combined layers: convolution or dense, then batch normalization, then an activation."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.activation import LeakyReLU, get_activation
from ember.nn.layer.basic import Dense, check_bool
from ember.nn.layer.conv import Conv2d
from ember.nn.layer.normalization import BatchNorm1d, BatchNorm2d

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation(owner: str, activation: Any, alpha: float) -> Cell | None:
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    if isinstance(activation, str):
        return get_activation(activation, owner)
    if activation is not None and not isinstance(activation, Cell):
        raise TypeError(f"{owner}: activation must be a str, a Cell or None, but got "
                        f"{type(activation).__name__}")
    return activation


class _Combined(Cell):
    def construct(self, x: Tensor) -> Tensor:
        x = self.core(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return x if self.activation is None else self.activation(x)


class Conv2dBnAct(_Combined):
    """``Conv2d``, an optional ``BatchNorm2d`` (``has_bn``) and an optional activation."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bn: bool = False, momentum: float = 0.997, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.core = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                           dilation, group, has_bias, weight_init, bias_init)
        self.has_bn = check_bool("Conv2dBnAct", "has_bn", has_bn)
        self.batchnorm = BatchNorm2d(out_channels, eps, momentum) if has_bn else None
        self.activation = _activation("Conv2dBnAct", activation, alpha)


class DenseBnAct(_Combined):
    """``Dense``, an optional ``BatchNorm1d`` (``has_bn``) and an optional activation."""

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal",
                 bias_init: Any = "zeros", has_bias: bool = True, has_bn: bool = False,
                 momentum: float = 0.9, eps: float = 1e-5, activation: Any = None,
                 alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.core = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = check_bool("DenseBnAct", "has_bn", has_bn)
        self.batchnorm = BatchNorm1d(out_channels, eps, momentum) if has_bn else None
        self.activation = _activation("DenseBnAct", activation, alpha)
