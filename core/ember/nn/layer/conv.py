"""Convolution layers: ``Conv2d``."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import (
    check_bool,
    check_choice,
    check_int,
    is_int,
    make_parameter,
    pair,
)
from ember.ops import operations as P

__all__ = ["Conv2d"]


def _padding(padding: Any) -> int | tuple[int, ...]:
    """A non-negative int, or a tuple of four (top, bottom, left, right)."""
    if not (is_int(padding, 0) or isinstance(padding, tuple) and len(padding) == 4
            and all(is_int(p, 0) for p in padding)):
        raise ValueError("Conv2d: 'padding' must be a non-negative int or a tuple of four "
                         f"non-negative ints (top, bottom, left, right), but got {padding!r}")
    return padding


class Conv2d(Cell):
    """2-D convolution (cross-correlation) of an NCHW input, plus an optional bias.

    ``Conv2d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init='normal', bias_init='zeros',
    data_format='NCHW')``: parameters ``weight`` (out_channels, in_channels / group, kh, kw)
    and, with ``has_bias``, ``bias`` (out_channels,).
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] = 1, pad_mode: str = "same",
                 padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, int] = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = "normal",
                 bias_init: Any = "zeros", data_format: str = "NCHW") -> None:
        super().__init__()
        self.in_channels = check_int("Conv2d", "in_channels", in_channels)
        self.out_channels = check_int("Conv2d", "out_channels", out_channels)
        self.kernel_size = pair("Conv2d", "kernel_size", kernel_size)
        self.stride = pair("Conv2d", "stride", stride)
        self.dilation = pair("Conv2d", "dilation", dilation)
        if not isinstance(pad_mode, str):
            raise TypeError(f"Conv2d: 'pad_mode' must be a str, but got {pad_mode!r}")
        check_choice("Conv2d", "pad_mode", pad_mode.lower(), ("same", "valid", "pad"))
        self.pad_mode = pad_mode
        self.padding = _padding(padding)
        if pad_mode.lower() != "pad" and padding not in (0, (0, 0, 0, 0)):
            raise ValueError(f"Conv2d: 'padding' must be 0 unless pad_mode is 'pad', but got "
                             f"padding={padding!r} with pad_mode={pad_mode!r}")
        self.group = check_int("Conv2d", "group", group)
        for name, channels in (("in_channels", in_channels), ("out_channels", out_channels)):
            if channels % group:
                raise ValueError(f"Conv2d: '{name}' ({channels}) must be divisible by 'group' "
                                 f"({group})")
        self.has_bias = check_bool("Conv2d", "has_bias", has_bias)
        self.format = check_choice("Conv2d", "data_format", data_format, ("NCHW", "NHWC"))
        self.weight_init = weight_init
        self.bias_init = bias_init
        self.conv2d = P.Conv2D(out_channel=out_channels, kernel_size=self.kernel_size, mode=1,
                               pad_mode=pad_mode.lower(), pad=padding, stride=self.stride,
                               dilation=self.dilation, group=group, data_format=self.format)
        self.bias_add = P.BiasAdd(data_format=self.format)
        kh, kw = self.kernel_size
        shape = ((out_channels, kh, kw, in_channels // group) if self.format == "NHWC"
                 else (out_channels, in_channels // group, kh, kw))
        self.weight = make_parameter("Conv2d", "weight_init", weight_init, shape, "weight")
        self.bias = make_parameter("Conv2d", "bias_init", bias_init, (out_channels,),
                                   "bias") if has_bias else None

    def construct(self, x: Tensor) -> Tensor:
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output

    def extend_repr(self) -> str:
        # MindSpore 1.6's text, spacing included.
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size},stride={self.stride},  "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.format}")
