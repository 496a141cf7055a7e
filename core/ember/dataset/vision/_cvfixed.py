"""OpenCV 4.5's integer arithmetic for uint8 images, which MindSpore 1.6's C++ transforms run,
written in NumPy so that the results match to the bit.

``resize_linear_u8`` is ``cv::resize`` with ``INTER_LINEAR``: coefficients rounded to 11 bits,
a horizontal pass in int32, then the vertical pass as OpenCV's SIMD loop computes it
(``((b0 * (r0 >> 4)) >> 16) + ((b1 * (r1 >> 4)) >> 16) + 2) >> 2``). An exact halving on both
axes is OpenCV's fast area path, ``(a + b + c + d + 2) >> 2``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

_COEF_SCALE = 2048  # INTER_RESIZE_COEF_SCALE


def _axis_coefficients(size_in: int, size_out: int) -> tuple[np.ndarray, np.ndarray]:
    """Source index ``s`` and the 11-bit weights ``(w0, w1)`` of ``s`` and ``s + 1`` for each
    output position, as OpenCV computes them (float32 fraction, rounded half to even)."""
    scale = 1.0 / (size_out / size_in)
    pos = ((np.arange(size_out) + 0.5) * scale - 0.5).astype(np.float32)
    start = np.floor(pos)
    frac = (pos - start).astype(np.float32)
    w1 = np.rint(frac * np.float32(_COEF_SCALE)).astype(np.int64)
    w0 = np.rint((np.float32(1) - frac) * np.float32(_COEF_SCALE)).astype(np.int64)
    return start.astype(np.int64), np.stack([w0, w1])


@lru_cache(maxsize=64)
def _columns(size_in: int, size_out: int, channels: int) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal taps over a row of ``size_in * channels`` values: indices and weights, each
    ``(2, size_out * channels)``; positions past either edge read the edge pixel alone."""
    start, weights = _axis_coefficients(size_in, size_out)
    edge = (start < 0) | (start >= size_in - 1)
    start = np.clip(start, 0, size_in - 1)
    weights = np.where(edge, np.array([[_COEF_SCALE], [0]]), weights)
    pixel = np.stack([start, np.minimum(start + 1, size_in - 1)])
    index = (pixel[:, :, None] * channels + np.arange(channels)).reshape(2, -1)
    taps = np.repeat(weights, channels, axis=1).astype(np.int32)
    return index, taps


def resize_linear_u8(image: np.ndarray, height: int, width: int) -> np.ndarray:
    """A uint8 ``<H, W>`` or ``<H, W, C>`` image resized bilinearly as ``cv::resize`` does."""
    h, w = image.shape[:2]
    if h == 2 * height and w == 2 * width:
        return _halve(image)
    channels = image.shape[2] if image.ndim == 3 else 1
    rows = image.reshape(h, -1).astype(np.int32)
    index, taps = _columns(w, width, channels)
    horizontal = rows[:, index[0]] * taps[0] + rows[:, index[1]] * taps[1]
    start, beta = _axis_coefficients(h, height)
    r0 = horizontal[np.clip(start, 0, h - 1)]
    r1 = horizontal[np.clip(start + 1, 0, h - 1)]
    b0, b1 = beta[0][:, None].astype(np.int32), beta[1][:, None].astype(np.int32)
    out = (((b0 * (r0 >> 4)) >> 16) + ((b1 * (r1 >> 4)) >> 16) + 2) >> 2
    return np.clip(out, 0, 255).astype(np.uint8).reshape((height, width) + image.shape[2:])


def _halve(image: np.ndarray) -> np.ndarray:
    """Each 2x2 block's mean, rounded half up (OpenCV's fast area resize)."""
    work = image.astype(np.int32)
    total = work[0::2, 0::2] + work[0::2, 1::2] + work[1::2, 0::2] + work[1::2, 1::2]
    return ((total + 2) >> 2).astype(np.uint8)
