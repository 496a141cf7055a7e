"""Image layers: ``ImageGradients``, ``PSNR``, ``CentralCrop``, ``Unfold`` (patches)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer._positions import positions_of, take
from ember.nn.layer.basic import check_choice, check_input, check_number
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["CentralCrop", "ImageGradients", "PSNR", "ResizeBilinear", "Unfold"]


class ImageGradients(Cell):
    """``(dy, dx)`` of NCHW images: differences with the next row and column, 0 on the last."""

    def construct(self, images: Tensor) -> tuple[Tensor, Tensor]:
        check_input("ImageGradients", images, 4, exact=True)
        n, c, h, w = images.shape
        dy = F.sub(images[:, :, 1:, :], images[:, :, :-1, :])
        dx = F.sub(images[:, :, :, 1:], images[:, :, :, :-1])
        dy = F.concat((dy, F.fill(images.dtype, (n, c, 1, w), 0)), 2)
        dx = F.concat((dx, F.fill(images.dtype, (n, c, h, 1), 0)), 3)
        return dy, dx


class PSNR(Cell):
    """Peak signal-to-noise ratio of each image pair (NCHW): ``10 log10(max_val² / mse)``."""

    def __init__(self, max_val: float = 1.0) -> None:
        super().__init__()
        self.max_val = check_number("PSNR", "max_val", max_val, 0, math.inf, low_open=True)

    def construct(self, img1: Tensor, img2: Tensor) -> Tensor:
        check_input("PSNR", img1, 4, exact=True)
        if img1.shape != img2.shape:
            raise ValueError(f"PSNR: the images must have the same shape, but got "
                             f"{list(img1.shape)} and {list(img2.shape)}")
        if img1.dtype is not img2.dtype:
            raise TypeError(f"PSNR: the images must have the same dtype, but got {img1.dtype} "
                            f"and {img2.dtype}")
        diff = F.sub(F.cast(img1, mstype.float32), F.cast(img2, mstype.float32))
        mse = P.ReduceMean()(F.square(diff), (1, 2, 3))
        return F.mul(F.log(F.real_div(self.max_val ** 2, mse)), 10 / math.log(10))


class CentralCrop(Cell):
    """The central ``central_fraction`` of CHW or NCHW images."""

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        self.central_fraction = check_number("CentralCrop", "central_fraction",
                                             central_fraction, 0, 1, low_open=True)

    def construct(self, image: Tensor) -> Tensor:
        if image.ndim not in (3, 4):
            raise ValueError(f"CentralCrop: the image must be 3-D or 4-D, but got shape "
                             f"{list(image.shape)}")
        h, w = image.shape[-2:]
        top = int((h - h * self.central_fraction) / 2)
        left = int((w - w * self.central_fraction) / 2)
        return image[..., top:h - top, left:w - left]


class Unfold(Cell):
    """Image patches as channels, as MindSpore's ``nn.Unfold``: NCHW input to
    (N, C * kh * kw, out_h, out_w), the depth ordered (row in patch, column in patch, channel).

    ``ksizes``, ``strides``, ``rates`` are ``[1, kh, kw, 1]``-style lists; ``padding`` 'valid'
    or 'same' (zeros, as TensorFlow's SAME)."""

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "valid") -> None:
        super().__init__()
        for name, value in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if (not isinstance(value, list | tuple) or len(value) != 4 or value[0] != 1
                    or value[3] != 1 or not all(isinstance(v, int) and v > 0 for v in value)):
                raise ValueError(f"Unfold: {name} must be [1, row, col, 1] of positive ints, but "
                                 f"got {value!r}")
        self.ksizes, self.strides, self.rates = ksizes[1:3], strides[1:3], rates[1:3]
        self.padding = check_choice("Unfold", "padding", padding.lower(), ("valid", "same"))

    def construct(self, x: Tensor) -> Tensor:
        check_input("Unfold", x, 4, exact=True)
        n, c, h, w = x.shape
        index = positions_of(x.shape)
        spans, outs, pads = [], [], []
        for size, k, s, r in zip((h, w), self.ksizes, self.strides, self.rates):
            span = (k - 1) * r + 1
            out = (size - span) // s + 1 if self.padding == "valid" else -(-size // s)
            total = max((out - 1) * s + span - size, 0) if self.padding == "same" else 0
            spans.append(span)
            outs.append(out)
            pads.append((total // 2, total - total // 2))
        index = np.pad(index, ((0, 0), (0, 0), *pads), constant_values=-1)
        (kh, kw), (sh, sw), (rh, rw) = self.ksizes, self.strides, self.rates
        rows = np.arange(outs[0])[:, None] * sh + np.arange(kh)[None, :] * rh  # (oh, kh)
        cols = np.arange(outs[1])[:, None] * sw + np.arange(kw)[None, :] * rw  # (ow, kw)
        # patches[n, c, oh, kh, ow, kw] -> (n, kh, kw, c, oh, ow)
        patches = index[:, :, rows[:, :, None, None], cols[None, None, :, :]]
        patches = patches.transpose(0, 3, 5, 1, 2, 4).reshape(n, kh * kw * c, *outs)
        return take(x, patches)


class ResizeBilinear(Cell):
    """NCHW images resized by bilinear interpolation to ``size`` (height, width) or by the
    integer ``scale_factor``; ``align_corners`` makes the corner pixels coincide."""

    def construct(self, x: Tensor, size: Any = None, scale_factor: int | None = None,
                  align_corners: bool = False) -> Tensor:
        check_input("ResizeBilinear", x, 4, exact=True)
        if (size is None) == (scale_factor is None):
            raise ValueError("ResizeBilinear: give exactly one of size and scale_factor")
        if scale_factor is not None:
            if isinstance(scale_factor, bool) or not isinstance(scale_factor, int) or (
                    scale_factor < 1):
                raise ValueError(f"ResizeBilinear: scale_factor must be a positive int, but got "
                                 f"{scale_factor!r}")
            size = (x.shape[2] * scale_factor, x.shape[3] * scale_factor)
        return P.ResizeBilinear(tuple(size), align_corners)(x)
