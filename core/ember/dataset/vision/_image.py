"""Image kernels on NumPy arrays ``<H, W>`` or ``<H, W, C>`` shared by the vision transforms.

Resizing follows OpenCV's ``cv::resize`` (what MindSpore's C++ transforms call), written as one
weight matrix per axis (``out = Wy @ image @ Wx.T``) and applied as its few non-zero taps.
LINEAR and CUBIC sample at half-pixel centres (``src = (dst + 0.5) * in / out - 0.5``) with the
edge pixel repeated (CUBIC with OpenCV's ``a = -0.75``); NEAREST takes ``floor(dst * in / out)``;
AREA weighs each source pixel by its overlap with the destination pixel. Integer images are
rounded to nearest and saturated, except uint8 LINEAR (and AREA halving), which follow OpenCV's
fixed-point arithmetic bit for bit (``_cvfixed``).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import Any

import numpy as np

from ember.dataset.transforms._base import TensorOperation
from ember.dataset.vision._cvfixed import resize_linear_u8
from ember.dataset.vision.utils import Border, Inter


class ImageTensorOperation(TensorOperation):
    """A transform of one image (a NumPy array or a PIL image). One with ``_several`` takes
    several images (columns) and transforms them alike: a random one draws the same values for
    each, as MindSpore 1.6's multi-column RandomCrop, RandomResizedCrop, RandomResize and the
    random flips."""

    _several = False

    def __call__(self, *columns: Any) -> Any:
        for column in columns:
            if not isinstance(column, np.ndarray) and not type(column).__module__.startswith(
                    "PIL."):
                raise TypeError(f"{type(self).__name__}: Input should be NumPy or PIL image, "
                                f"got {type(column).__name__}")
        if len(columns) <= 1 or not self._several:
            return super().__call__(*columns)  # refuses several columns of a one-to-one op
        rng = getattr(self, "_rng", None)
        state = None if rng is None else rng.bit_generator.state
        outputs = []
        for column in columns:
            if rng is not None:
                rng.bit_generator.state = state
            outputs.append(super().__call__(column))
        return tuple(outputs)


def check_image(image: np.ndarray, where: str, channels: tuple[int, ...] | None = None
                ) -> np.ndarray:
    """``image`` as ``<H, W>`` or ``<H, W, C>``; RuntimeError naming the transform otherwise."""
    if image.ndim not in (2, 3) or image.dtype.kind not in "buif":
        raise RuntimeError(f"{where}: the input must be an image of shape <H, W> or <H, W, C> "
                           f"with numbers, but got {image.dtype} of shape {image.shape}")
    if channels is not None and (image.ndim == 2 and 1 not in channels
                                 or image.ndim == 3 and image.shape[2] not in channels):
        raise RuntimeError(f"{where}: the image must have {' or '.join(map(str, channels))} "
                           f"channels, but got shape {image.shape}")
    return image


@cache
def _bounds(dtype: np.dtype) -> tuple[int, int]:
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def saturate(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float results in ``dtype``: integers rounded to nearest and clipped to its range."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return np.clip(np.rint(values), *_bounds(dtype)).astype(dtype)
    if dtype.kind == "b":
        return values > 0.5
    return values.astype(dtype, copy=False)


def _cubic(t: np.ndarray, a: float = -0.75) -> np.ndarray:
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def resize_weights(size_in: int, size_out: int, mode: Inter) -> np.ndarray:
    """The ``(size_out, size_in)`` matrix that resizes one axis."""
    scale = size_in / size_out
    dst = np.arange(size_out)
    weights = np.zeros((size_out, size_in))
    if mode == Inter.NEAREST:
        weights[dst, np.minimum(np.floor(dst * scale).astype(int), size_in - 1)] = 1
    elif mode == Inter.LINEAR:
        src = np.clip((dst + 0.5) * scale - 0.5, 0, size_in - 1)
        low = np.floor(src).astype(int)
        frac = src - low
        np.add.at(weights, (dst, low), 1 - frac)
        np.add.at(weights, (dst, np.minimum(low + 1, size_in - 1)), frac)
    elif mode == Inter.CUBIC:
        src = (dst + 0.5) * scale - 0.5
        low = np.floor(src).astype(int)
        for tap in range(-1, 3):
            np.add.at(weights, (dst, np.clip(low + tap, 0, size_in - 1)),
                      _cubic(src - (low + tap)))
    elif mode == Inter.AREA:
        start, stop = dst * scale, (dst + 1) * scale
        pixels = np.arange(size_in)
        overlap = (np.minimum(stop[:, None], pixels + 1) - np.maximum(start[:, None], pixels))
        weights = np.clip(overlap, 0, None) / scale
    else:
        raise ValueError(f"Resize: interpolation {mode!r} is not one of NEAREST, LINEAR, CUBIC, "
                         "AREA, PILCUBIC")
    return weights


@lru_cache(maxsize=64)
def resize_taps(size_in: int, size_out: int, mode: Inter, group: int = 1
                ) -> tuple[np.ndarray, np.ndarray]:
    """``resize_weights`` as taps: ``(index, weight)`` arrays of shape ``(size_out * group, k)``,
    the ``k`` source pixels each output pixel reads (2 for LINEAR, 4 for CUBIC, ...), for
    pixels of ``group`` channels stored side by side (each channel reads its own)."""
    weights = resize_weights(size_in, size_out, mode)
    k = max(int((weights != 0).sum(axis=1).max()), 1)
    index = np.argsort(weights == 0, axis=1, kind="stable")[:, :k]
    taps = np.take_along_axis(weights, index, axis=1).astype(np.float32)
    index = (index[:, None, :] * group + np.arange(group)[None, :, None]).reshape(-1, k)
    taps = np.ascontiguousarray(np.repeat(taps, group, axis=0).T)
    index = np.ascontiguousarray(index.T)
    for array in (index, taps):
        array.setflags(write=False)
    return index, taps


def _resize_rows(rows: np.ndarray, size_out: int, mode: Inter, group: int) -> np.ndarray:
    """A 2-D ``(n, m * group)`` array resized along its first axis (``group=0``) or, in groups
    of ``group`` channels, along its second."""
    axis = 0 if group == 0 else 1
    index, taps = resize_taps(rows.shape[axis] // max(group, 1), size_out, mode, max(group, 1))
    out = None
    for j in range(index.shape[0]):
        weight = taps[j] if group else taps[j, :, None]
        term = np.take(rows, index[j], axis=axis)
        term *= weight
        out = term if out is None else out.__iadd__(term)
    return out


def resize(image: np.ndarray, height: int, width: int, mode: Inter) -> np.ndarray:
    """``image`` resized to ``height x width``, in its dtype."""
    if mode == Inter.PILCUBIC:
        return _pil_resize(image, height, width)
    h, w = image.shape[:2]
    if (h, w) == (height, width):
        return image.copy()
    if image.dtype == np.uint8 and (mode == Inter.LINEAR or mode == Inter.AREA
                                    and (h, w) == (2 * height, 2 * width)):
        return resize_linear_u8(image, height, width)
    channels = image.shape[2] if image.ndim == 3 else 1
    rows = _resize_rows(image.reshape(h, -1).astype(np.float32), height, mode, 0)
    out = _resize_rows(rows, width, mode, channels)
    return saturate(out.reshape((height, width) + image.shape[2:]), image.dtype)


def _pil_resize(image: np.ndarray, height: int, width: int) -> np.ndarray:
    """Pillow's bicubic resize (MindSpore's PILCUBIC) of a uint8 image, channel by channel."""
    pil = import_pil("Resize with Inter.PILCUBIC")
    if image.dtype != np.uint8:
        raise RuntimeError(f"Resize: Inter.PILCUBIC needs a uint8 image, but got {image.dtype}")
    planes = image[..., None] if image.ndim == 2 else image
    out = [np.asarray(pil.Image.fromarray(np.ascontiguousarray(planes[..., c]))
                      .resize((width, height), pil.Image.BICUBIC))
           for c in range(planes.shape[2])]
    result = np.stack(out, axis=2)
    return result[..., 0] if image.ndim == 2 else result


def shorter_side(h: int, w: int, size: int) -> tuple[int, int]:
    """The shape that makes the shorter side ``size`` and keeps the aspect ratio."""
    if h <= w:
        return size, int(w * size / h)
    return int(h * size / w), size


def pad(image: np.ndarray, top: int, bottom: int, left: int, right: int, mode: Border,
        fill: tuple | int = 0) -> np.ndarray:
    """``image`` padded on each side, filling as ``mode`` says (``fill`` per channel for
    CONSTANT)."""
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (image.ndim - 2)
    if mode != Border.CONSTANT:
        return np.pad(image, widths, mode=mode.value)
    fill_values = np.broadcast_to(np.asarray(fill, dtype=image.dtype),
                                  image.shape[2:] if image.ndim == 3 else ())
    out = np.empty((image.shape[0] + top + bottom, image.shape[1] + left + right)
                   + image.shape[2:], dtype=image.dtype)
    out[...] = fill_values if image.ndim == 3 else fill_values[()]
    out[top:top + image.shape[0], left:left + image.shape[1]] = image
    return out


def crop(image: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    return image[top:top + height, left:left + width].copy()


def random_resized_box(rng: np.random.Generator, h: int, w: int, scale: tuple[float, float],
                       ratio: tuple[float, float], attempts: int) -> tuple[int, int, int, int]:
    """``(top, left, height, width)`` of a crop with an area fraction drawn from ``scale`` and a
    log-uniform aspect ratio from ``ratio``; after ``attempts`` misses, the centred crop of the
    nearest allowed aspect ratio (torchvision's and MindSpore's rule)."""
    area = h * w
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(attempts):
        target = area * rng.uniform(*scale)
        aspect = math.exp(rng.uniform(*log_ratio))
        cw = int(round(math.sqrt(target * aspect)))
        ch = int(round(math.sqrt(target / aspect)))
        if 0 < cw <= w and 0 < ch <= h:
            return int(rng.integers(h - ch + 1)), int(rng.integers(w - cw + 1)), ch, cw
    in_ratio = w / h
    if in_ratio < ratio[0]:
        cw, ch = w, int(round(w / ratio[0]))
    elif in_ratio > ratio[1]:
        ch, cw = h, int(round(h * ratio[1]))
    else:
        ch, cw = h, w
    return (h - ch) // 2, (w - cw) // 2, ch, cw


def gray(image: np.ndarray) -> np.ndarray:
    """The luma of an RGB image, ITU-R 601-2 (``0.299 R + 0.587 G + 0.114 B``), as float."""
    return image[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)


def smooth(image: np.ndarray) -> np.ndarray:
    """The image filtered by ``[[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13`` inside, its edge pixels
    kept, in its dtype (integers rounded)."""
    if min(image.shape[:2]) < 3:
        return image.copy()
    work = image.astype(np.float32)
    inner = 4 * work[1:-1, 1:-1]
    for dy in range(3):
        for dx in range(3):
            inner += work[dy:dy + image.shape[0] - 2, dx:dx + image.shape[1] - 2]
    out = image.copy()
    out[1:-1, 1:-1] = saturate(inner / 13, image.dtype)
    return out


def blend(image: np.ndarray, other: np.ndarray | float, factor: float) -> np.ndarray:
    """``other + factor * (image - other)`` in the image's dtype (Pillow's ``Image.blend``)."""
    out = other + factor * (image.astype(np.float32) - other)
    return saturate(out, image.dtype) if image.dtype.kind in "iu" else out.astype(image.dtype)


def adjust_hue(image: np.ndarray, shift: float) -> np.ndarray:
    """Each pixel's hue turned by ``shift`` of a full turn (in [-0.5, 0.5]) in HSV space."""
    scale = 255.0 if image.dtype == np.uint8 else 1.0
    rgb = image[..., :3].astype(np.float64) / scale
    high, low = rgb.max(-1), rgb.min(-1)
    chroma = high - low
    safe = np.where(chroma == 0, 1, chroma)
    r, g, b = np.moveaxis(rgb, -1, 0)
    hue = np.where(high == r, ((g - b) / safe) % 6,
                   np.where(high == g, (b - r) / safe + 2, (r - g) / safe + 4)) / 6
    hue = np.where(chroma == 0, 0, hue)
    hue = (hue + shift) % 1.0
    sat = np.where(high == 0, 0, chroma / np.where(high == 0, 1, high))
    k = (np.array([5, 3, 1]) + hue[..., None] * 6) % 6
    out = high[..., None] - high[..., None] * sat[..., None] * np.clip(
        np.minimum(k, 4 - k), 0, 1)
    result = image.copy()
    result[..., :3] = saturate(out * scale, image.dtype)
    return result


def adjust(image: np.ndarray, kind: str, factor: float) -> np.ndarray:
    """One colour adjustment of an RGB image by ``factor``."""
    if kind == "brightness":
        return blend(image, 0.0, factor)
    if kind == "contrast":
        return blend(image, float(np.floor(gray(image).mean() + 0.5)), factor)
    if kind == "saturation":
        grey = gray(image)
        grey = np.rint(grey) if image.dtype.kind in "iu" else grey
        return blend(image, grey[..., None], factor)
    if kind == "sharpness":
        return blend(image, smooth(image), factor)
    return adjust_hue(image, factor)


def invert(image: np.ndarray, where: str) -> np.ndarray:
    """``255 - image`` of an ``<H, W, 3>`` image, in its dtype."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise RuntimeError(f"{where}: image shape is not <H,W,C> with 3 channels, but got shape "
                           f"{image.shape}")
    return saturate(255.0 - image.astype(np.float32), image.dtype)


def import_pil(what: str):
    """The ``PIL`` package, or an ImportError that says how to install it."""
    try:
        import PIL.Image
        import PIL.ImageOps  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"{what} needs Pillow: pip install \"ember-core[vision]\" (or pip "
                          "install pillow)") from exc
    return PIL
