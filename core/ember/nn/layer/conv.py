"""Convolution layers: ``Conv2d``, ``Conv1d`` and their transposes."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import (
    check_bool,
    check_choice,
    check_input,
    check_int,
    is_int,
    make_parameter,
    pair,
)
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["Conv1d", "Conv1dTranspose", "Conv2d", "Conv2dTranspose"]


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
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.format}")


class _OneD(Cell):
    """A 1-D layer made of its 2-D base (next in the MRO): an NCL input runs as (N, C, 1, L)
    with a (1, k) kernel; the 2-D arguments come from the 1-D ones."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = "normal",
                 bias_init: Any = "zeros") -> None:
        layer = type(self).__name__
        kernel_size, stride, dilation = (check_int(layer, name, value) for name, value in (
            ("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)))
        padding = check_int(layer, "padding", padding, 0)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0, padding, padding), (1, dilation), group, has_bias, weight_init,
                         bias_init)

    def construct(self, x: Tensor) -> Tensor:
        check_input(type(self).__name__, x, 3, exact=True)
        return F.squeeze(super().construct(F.expand_dims(x, 2)), 2)


class Conv1d(_OneD, Conv2d):
    """1-D convolution of an NCL input: a Conv2d over (N, C, 1, L) with a (1, k) kernel;
    ``weight`` is (out_channels, in_channels / group, 1, kernel_size), as MindSpore's."""


class Conv2dTranspose(Cell):
    """2-D transposed convolution of an NCHW input (the input gradient of a Conv2d), plus an
    optional bias; ``weight`` is (in_channels, out_channels / group, kh, kw). The output is
    ``H * stride`` high for 'same', ``(H - 1) * stride + dilation * (kh - 1) + 1`` for 'valid',
    less the padding for 'pad'."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] = 1, pad_mode: str = "same",
                 padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, int] = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = "normal",
                 bias_init: Any = "zeros") -> None:
        super().__init__()
        layer = self.cls_name
        self.in_channels = check_int(layer, "in_channels", in_channels)
        self.out_channels = check_int(layer, "out_channels", out_channels)
        self.kernel_size = pair(layer, "kernel_size", kernel_size)
        self.stride = pair(layer, "stride", stride)
        self.dilation = pair(layer, "dilation", dilation)
        if not isinstance(pad_mode, str):
            raise TypeError(f"{layer}: 'pad_mode' must be a str, but got {pad_mode!r}")
        self.pad_mode = check_choice(layer, "pad_mode", pad_mode.lower(), ("same", "valid", "pad"))
        self.padding = _padding(padding)
        pads = (padding,) * 4 if isinstance(padding, int) else padding
        self.pads = pads if self.pad_mode == "pad" else (0, 0, 0, 0)
        self.group = check_int(layer, "group", group)
        self.has_bias = check_bool(layer, "has_bias", has_bias)
        self.backprop = P.Conv2DBackpropInput(
            out_channel=in_channels, kernel_size=self.kernel_size, pad_mode=self.pad_mode,
            pad=padding if self.pad_mode == "pad" else 0, stride=self.stride,
            dilation=self.dilation, group=group)
        kh, kw = self.kernel_size
        self.weight = make_parameter(layer, "weight_init", weight_init,
                                     (in_channels, out_channels // group, kh, kw), "weight")
        self.bias = make_parameter(layer, "bias_init", bias_init, (out_channels,),
                                   "bias") if has_bias else None
        self.bias_add = P.BiasAdd()

    def _size(self, n: int, k: int, s: int, d: int, pad: int) -> int:
        if self.pad_mode == "same":
            return n * s
        return (n - 1) * s + d * (k - 1) + 1 - pad

    def construct(self, x: Tensor) -> Tensor:
        check_input(self.cls_name, x, 4, exact=True)
        n, _, h, w = x.shape
        top, bottom, left, right = self.pads
        size = (n, self.out_channels,
                self._size(h, self.kernel_size[0], self.stride[0], self.dilation[0], top + bottom),
                self._size(w, self.kernel_size[1], self.stride[1], self.dilation[1], left + right))
        output = self.backprop(x, self.weight, size)
        return self.bias_add(output, self.bias) if self.has_bias else output


class Conv1dTranspose(_OneD, Conv2dTranspose):
    """1-D transposed convolution of an NCL input (a Conv2dTranspose with a (1, k) kernel)."""
