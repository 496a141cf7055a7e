"""Rotations and affine maps, as MindSpore 1.6's ``c_transforms.Rotate``, ``RandomRotation`` and
``RandomAffine`` (OpenCV's ``warpAffine``: coordinates in 1/32 pixel, uint8 bilinear weights in
15 bits, so uint8 results match OpenCV's to the bit for NEAREST and LINEAR) and their
``py_transforms`` twins (Pillow's ``rotate`` and ``transform``)."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ember.dataset._checks import check_value, type_check
from ember.dataset.transforms._base import FLOAT_MAX_INTEGER, RandomOperation
from ember.dataset.vision import _image
from ember.dataset.vision._image import ImageTensorOperation
from ember.dataset.vision.utils import Inter

_INT32 = 2**31 - 1


# -- argument checks, in 1.6's words -----------------------------------------------------------
def check_degrees(degrees: Any) -> tuple[float, float]:
    """A non-negative number ``d`` (meaning ``(-d, d)``) or ``(min, max)``."""
    type_check(degrees, (int, float, list, tuple), "degrees")
    if isinstance(degrees, int | float):
        check_value(degrees, 0, FLOAT_MAX_INTEGER, "degrees")
        return -degrees, degrees
    if len(degrees) != 2:
        raise TypeError("If degrees is a sequence, the length must be 2.")
    for i, value in enumerate(degrees):
        type_check(value, (int, float), f"degrees[{i}]")
        check_value(value, -FLOAT_MAX_INTEGER, FLOAT_MAX_INTEGER, "degrees")
    if degrees[0] > degrees[1]:
        raise ValueError("degrees should be in (min,max) format. Got (max,min).")
    return degrees[0], degrees[1]


def check_fill_value(fill_value: Any) -> tuple[int, int, int]:
    values = (fill_value,) if isinstance(fill_value, int) else fill_value
    if not isinstance(fill_value, int) and not (isinstance(fill_value, tuple)
                                                and len(fill_value) == 3):
        raise TypeError("fill_value should be a single integer or a 3-tuple.")
    for value in values:
        type_check(value, (int,), "fill_value")
        check_value(value, 0, 255, "fill_value")
    return tuple(values) * 3 if len(values) == 1 else tuple(values)


def check_rotation(resample: Any, expand: Any, center: Any, fill_value: Any) -> tuple:
    type_check(resample, (Inter,), "resample")
    type_check(expand, (bool,), "expand")
    if center is not None:
        if not (isinstance(center, tuple) and len(center) == 2):
            raise ValueError("Value center needs to be a 2-tuple.")
        for value in center:
            type_check(value, (int, float), "center")
            check_value(value, -_INT32 - 1, _INT32, "center")
    return check_fill_value(fill_value)


def _check_pair_range(value: Any, name: str, length: tuple[int, ...]) -> list:
    type_check(value, (list, tuple), name)
    for i, item in enumerate(value):
        type_check(item, (int, float), f"{name}[{i}]")
    if len(value) not in length:
        lengths = " or ".join(map(str, length))
        raise TypeError(f"{name} should be a list or tuple of length {lengths}.")
    return list(value)


def check_affine(degrees: Any, translate: Any, scale: Any, shear: Any, resample: Any,
                 fill_value: Any) -> tuple:
    """1.6's ``check_random_affine``; returns (degrees, translate, scale, shear, fill) with
    shear as four numbers ``(x_min, x_max, y_min, y_max)``."""
    degrees = check_degrees(degrees)
    if translate is not None:
        for i, t in enumerate(_check_pair_range(translate, "translate", (2, 4))):
            check_value(t, -1.0, 1.0, f"translate at {i}")
    if scale is not None:
        type_check(scale, (tuple, list), "scale")
        for i, item in enumerate(scale):
            type_check(item, (int, float), f"scale[{i}]")
        if len(scale) != 2:
            raise TypeError("scale should be a list or tuple of length 2.")
        if scale[0] > scale[1]:
            raise ValueError("Input scale[1] must be equal to or greater than scale[0].")
        if not 0 <= scale[0] <= scale[1] <= FLOAT_MAX_INTEGER:
            raise ValueError(f"Input is not within the required interval of [0, "
                             f"{FLOAT_MAX_INTEGER}].")
        if scale[1] <= 0:
            raise ValueError("Input scale[1] must be greater than 0.")
    if shear is not None:
        type_check(shear, (numbers.Number, tuple, list), "shear")
        if isinstance(shear, numbers.Number):
            if shear <= 0:
                raise ValueError("Input shear must be greater than 0.")
            shear = (-shear, shear, 0.0, 0.0)
        else:
            for i, item in enumerate(shear):
                type_check(item, (int, float), f"shear[{i}]")
            if len(shear) not in (2, 4):
                raise TypeError("shear must be of length 2 or 4.")
            if len(shear) == 2 and shear[0] > shear[1]:
                raise ValueError("Input shear[1] must be equal to or greater than shear[0]")
            if len(shear) == 4 and (shear[0] > shear[1] or shear[2] > shear[3]):
                raise ValueError("Input shear[1] must be equal to or greater than shear[0] and "
                                 "shear[3] must be equal to or greater than shear[2].")
            shear = tuple(shear) + (0.0, 0.0) if len(shear) == 2 else tuple(shear)
    type_check(resample, (Inter,), "resample")
    fill = check_fill_value(fill_value)
    return degrees, translate, scale, shear, fill


# -- OpenCV's warpAffine ----------------------------------------------------------------------
def _invert(m: np.ndarray) -> np.ndarray:
    """``cv::invertAffineTransform``."""
    det = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    det = 1.0 / det if det != 0 else 0.0
    a11, a22, a12, a21 = m[1, 1] * det, m[0, 0] * det, -m[0, 1] * det, -m[1, 0] * det
    return np.array([[a11, a12, -a11 * m[0, 2] - a12 * m[1, 2]],
                     [a21, a22, -a21 * m[0, 2] - a22 * m[1, 2]]])


def warp_affine(image: np.ndarray, matrix: np.ndarray, height: int, width: int, mode: Inter,
                fill: tuple[int, int, int]) -> np.ndarray:
    """``image`` mapped by the forward 2x3 ``matrix`` onto ``height x width``, points from
    outside filled with ``fill`` (per RGB channel). NEAREST takes the nearest pixel; the other
    modes are bilinear at 1/32-pixel positions."""
    inv = _invert(np.asarray(matrix, np.float64))
    nearest = mode == Inter.NEAREST
    shift, delta = (10, 512) if nearest else (5, 16)  # bilinear keeps 5 fraction bits
    ys, xs = np.arange(height)[:, None], np.arange(width)[None, :]
    sx, sy = ((np.rint((row[1] * ys + row[2]) * 1024).astype(np.int64) + delta
               + np.rint(row[0] * xs * 1024).astype(np.int64)) >> shift for row in inv)
    h, w = image.shape[:2]
    planes = image if image.ndim == 3 else image[..., None]
    border = np.array((list(fill) + [0] * planes.shape[2])[: planes.shape[2]], np.float64)

    def tap(y: np.ndarray, x: np.ndarray) -> np.ndarray:
        inside = (y >= 0) & (y < h) & (x >= 0) & (x < w)
        values = planes[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)].astype(np.float64)
        return np.where(inside[..., None], values, border)

    if nearest:
        out = tap(sy, sx)
    else:
        fx, fy = (sx & 31)[..., None], (sy & 31)[..., None]
        x0, y0 = sx >> 5, sy >> 5
        out = ((32 - fy) * ((32 - fx) * tap(y0, x0) + fx * tap(y0, x0 + 1))
               + fy * ((32 - fx) * tap(y0 + 1, x0) + fx * tap(y0 + 1, x0 + 1)))
        if image.dtype == np.uint8:  # weights * 32 are OpenCV's 15-bit table entries
            out = np.floor((out * 32 + (1 << 14)) / (1 << 15))
        else:
            out = out / 1024
    out = _image.saturate(out, image.dtype) if image.dtype.kind in "iu" else out.astype(
        image.dtype)
    return out if image.ndim == 3 else out[..., 0]


def rotation_matrix(cx: float, cy: float, degrees: float) -> np.ndarray:
    """``cv::getRotationMatrix2D`` with scale 1: a counter-clockwise turn about ``(cx, cy)``."""
    angle = math.radians(degrees)
    a, b = math.cos(angle), math.sin(angle)
    return np.array([[a, b, (1 - a) * cx - b * cy], [-b, a, b * cx + (1 - a) * cy]])


def rotate(image: np.ndarray, degrees: float, mode: Inter, expand: bool, center: Any,
           fill: tuple[int, int, int]) -> np.ndarray:
    """MindSpore's C++ ``Rotate``: about ``center`` (default the middle, ``((W-1)/2, (H-1)/2)``),
    on a canvas grown to hold the whole turned image with ``expand``. As 1.6, the fill's first
    and third values swap (it builds OpenCV's BGR scalar from an RGB fill)."""
    _image.check_image(image, "Rotate")
    fill = fill[::-1]
    h, w = image.shape[:2]
    cx, cy = ((w - 1) / 2.0, (h - 1) / 2.0) if not center else center
    cx, cy = float(np.float32(cx)), float(np.float32(cy))
    matrix = rotation_matrix(cx, cy, degrees)
    if not expand:
        return warp_affine(image, matrix, h, w, mode, fill)
    # cv::RotatedRect(center, size, degrees).boundingRect2f(), in float32 as OpenCV
    f32 = np.float32
    b = f32(math.cos(math.radians(degrees))) * f32(0.5)
    a = f32(math.sin(math.radians(degrees))) * f32(0.5)
    px = np.array([f32(cx) - a * f32(h) - b * f32(w), f32(cx) + a * f32(h) - b * f32(w)], f32)
    py = np.array([f32(cy) + b * f32(h) - a * f32(w), f32(cy) - b * f32(h) - a * f32(w)], f32)
    px = np.concatenate([px, f32(2) * f32(cx) - px])
    py = np.concatenate([py, f32(2) * f32(cy) - py])
    box_w, box_h = float(px.max() - px.min()), float(py.max() - py.min())
    matrix[0, 2] += box_w / 2.0 - w / 2.0
    matrix[1, 2] += box_h / 2.0 - h / 2.0
    return warp_affine(image, matrix, int(np.rint(box_h)), int(np.rint(box_w)), mode, fill)


def affine_matrix(h: int, w: int, degrees: float, tx: float, ty: float, scale: float,
                  shear_x: float, shear_y: float) -> np.ndarray:
    """MindSpore's C++ ``AffineOp`` matrix ``T * C * RSS * C^-1`` (float32 entries)."""
    a, sx, sy = math.radians(degrees), math.radians(shear_x), math.radians(-shear_y)
    m = [scale * math.cos(a + sy) / math.cos(sy),
         scale * (-math.cos(a + sy) * math.tan(sx) / math.cos(sy) - math.sin(a)),
         scale * math.sin(a + sy) / math.cos(sy),
         scale * (-math.sin(a + sy) * math.tan(sx) / math.cos(sy) + math.cos(a))]
    m = [float(np.float32(v)) for v in m]
    cx, cy = float(np.float32((w - 1) / 2.0)), float(np.float32((h - 1) / 2.0))
    return np.array([[m[0], m[1], float(np.float32((1 - m[0]) * cx - m[1] * cy + tx))],
                     [m[2], m[3], float(np.float32((1 - m[3]) * cy - m[2] * cx + ty))]])


# -- c_transforms ---------------------------------------------------------------------------
class Rotate(ImageTensorOperation):
    """The image turned counter-clockwise by ``degrees`` about ``center`` (``(x, y)``, default
    the middle), on a canvas grown to hold it all with ``expand``; outside points take
    ``fill_value``."""

    def __init__(self, degrees: float, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: tuple | None = None, fill_value: int | tuple = 0) -> None:
        type_check(degrees, (float, int), "degrees")
        check_value(degrees, -FLOAT_MAX_INTEGER, FLOAT_MAX_INTEGER, "degrees")
        self._fill = check_rotation(resample, expand, center, fill_value)
        self.degrees, self.resample, self.expand = degrees % 360, resample, expand
        self.center, self.fill_value = center, fill_value

    def _apply(self, image: np.ndarray) -> np.ndarray:
        return rotate(image, self._angle(), self.resample, self.expand, self.center, self._fill)

    def _angle(self) -> float:
        return self.degrees


class RandomRotation(RandomOperation, Rotate):
    """``Rotate`` by an angle drawn uniformly from ``degrees`` (``d`` means ``(-d, d)``)."""

    def __init__(self, degrees: Any, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: tuple | None = None, fill_value: int | tuple = 0) -> None:
        RandomOperation.__init__(self)
        low, high = check_degrees(degrees)
        self._fill = check_rotation(resample, expand, center, fill_value)
        if high - low >= 360:
            low, high = -180, 180
        elif isinstance(degrees, list | tuple):
            low, high = low % 360, high % 360
            high += 360 if low > high else 0
        self.degrees, self.resample, self.expand = (low, high), resample, expand
        self.center, self.fill_value = center, fill_value

    def _angle(self) -> float:
        return float(self._rng.uniform(*self.degrees))


class RandomAffine(ImageTensorOperation, RandomOperation):
    """A random affine map about the image's middle: an angle from ``degrees``, shifts from
    ``translate`` (fractions of the width and height: ``(x_max, y_max)`` meaning symmetric
    ranges, or ``(x_min, x_max, y_min, y_max)``), a scale from ``scale`` and shears (degrees)
    from ``shear``; outside points take ``fill_value``."""

    def __init__(self, degrees: Any, translate: Any = None, scale: Any = None, shear: Any = None,
                 resample: Inter = Inter.NEAREST, fill_value: int | tuple = 0) -> None:
        RandomOperation.__init__(self)
        self.degrees, translate, scale, shear, self._fill = check_affine(
            degrees, translate, scale, shear, resample, fill_value)
        if translate is not None and len(translate) == 2:
            translate = (-translate[0], translate[0], -translate[1], translate[1])
        self.translate = tuple(translate) if translate is not None else (0.0,) * 4
        self.scale = tuple(scale) if scale is not None else (1.0, 1.0)
        self.shear = shear if shear is not None else (0.0,) * 4
        self.resample, self.fill_value = resample, fill_value

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "RandomAffine")
        h, w = image.shape[:2]
        draw = self._rng.uniform
        degrees = draw(*self.degrees)
        tx, ty = draw(self.translate[0] * w, self.translate[1] * w), draw(
            self.translate[2] * h, self.translate[3] * h)
        scale, shear_x, shear_y = draw(*self.scale), draw(*self.shear[:2]), draw(*self.shear[2:])
        matrix = affine_matrix(h, w, math.fmod(degrees, 360.0), tx, ty, scale, shear_x, shear_y)
        return warp_affine(image, matrix, h, w, self.resample, self._fill)


__all__ = ["RandomAffine", "RandomRotation", "Rotate"]
