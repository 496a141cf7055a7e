"""3-D convolution layers: ``Conv3d`` and ``Conv3dTranspose`` on NCDHW inputs."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import check_bool, check_choice, check_input, check_int, make_parameter
from ember.ops import operations as P

__all__ = ["Conv3d", "Conv3dTranspose"]


def _triple(layer: str, name: str, value: Any) -> tuple[int, int, int]:
    values = (value,) * 3 if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(values, tuple) or len(values) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
        raise ValueError(f"{layer}: '{name}' must be a positive int or a tuple of three, but got "
                         f"{value!r}")
    return values


class _Conv3dBase(Cell):
    """The arguments, weight and bias both 3-D convolution layers share; ``weight_shape``
    orders (in, out) as the primitive expects."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any,
                 pad_mode: str, padding: Any, dilation: Any, group: int, has_bias: bool,
                 weight_init: Any, bias_init: Any, data_format: str,
                 weight_channels: tuple[int, int]) -> None:
        super().__init__()
        layer = self.cls_name
        self.in_channels = check_int(layer, "in_channels", in_channels)
        self.out_channels = check_int(layer, "out_channels", out_channels)
        self.kernel_size = _triple(layer, "kernel_size", kernel_size)
        self.stride = _triple(layer, "stride", stride)
        self.dilation = _triple(layer, "dilation", dilation)
        if not isinstance(pad_mode, str):
            raise TypeError(f"{layer}: 'pad_mode' must be a str, but got {pad_mode!r}")
        self.pad_mode = check_choice(layer, "pad_mode", pad_mode.lower(), ("same", "valid", "pad"))
        self.padding = padding
        self.group = check_int(layer, "group", group)
        self.has_bias = check_bool(layer, "has_bias", has_bias)
        self.format = check_choice(layer, "data_format", data_format, ("NCDHW",))
        self.weight = make_parameter(layer, "weight_init", weight_init,
                                     (*weight_channels, *self.kernel_size), "weight")
        self.bias = make_parameter(layer, "bias_init", bias_init, (out_channels,),
                                   "bias") if has_bias else None
        self.bias_add = P.BiasAdd()

    def construct(self, x: Tensor) -> Tensor:
        check_input(self.cls_name, x, 5, exact=True)
        output = self.conv(x, self.weight)
        return self.bias_add(output, self.bias) if self.has_bias else output


class Conv3d(_Conv3dBase):
    """3-D convolution (cross-correlation) of an NCDHW input, plus an optional bias;
    ``weight`` is (out_channels, in_channels / group, kd, kh, kw)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = "normal", bias_init: Any = "zeros",
                 data_format: str = "NCDHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format,
                         (out_channels, in_channels // max(group, 1)))
        self.conv = P.Conv3D(out_channels, self.kernel_size, pad_mode=self.pad_mode,
                             pad=padding, stride=self.stride, dilation=self.dilation,
                             group=group)


class Conv3dTranspose(_Conv3dBase):
    """3-D transposed convolution of an NCDHW input (the input gradient of a Conv3d), plus an
    optional bias; ``weight`` is (in_channels, out_channels / group, kd, kh, kw) and
    ``output_padding`` grows the end of each spatial axis."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 output_padding: Any = 0, has_bias: bool = False, weight_init: Any = "normal",
                 bias_init: Any = "zeros", data_format: str = "NCDHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format,
                         (in_channels, out_channels // max(group, 1)))
        self.output_padding = output_padding
        self.conv = P.Conv3DTranspose(in_channels, out_channels, self.kernel_size,
                                      pad_mode=self.pad_mode, pad=padding, stride=self.stride,
                                      dilation=self.dilation, group=group,
                                      output_padding=output_padding)
