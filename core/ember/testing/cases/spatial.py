"""Cases for Pad, MirrorPad, ResizeBilinear and AdaptiveAvgPool2D of
``ember.ops.operations.spatial_ops``.

References are written from the definitions: padding places x inside zeros; mirror padding
maps every output index to the input index it mirrors; bilinear resizing interpolates each
output pixel from its four nearest input pixels, and its gradient scatters back to them;
adaptive average pooling averages the window of each output pixel, as MindSpore's docstring
writes its bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import spatial_ops
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.array import ANY, sample
from ember.testing.cases.nn import F64


def _pad(paddings: tuple) -> Callable[[np.ndarray], np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        shape = tuple(n + a + b for n, (a, b) in zip(x.shape, paddings))
        out = np.zeros(shape, x.dtype)
        out[tuple(slice(a, a + n) for n, (a, _) in zip(x.shape, paddings))] = x
        return out

    return reference


def _source(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each index of the padded axis, the index of x it holds."""
    j = np.arange(-before, n + after)
    edge = 0 if mode == "REFLECT" else 1  # SYMMETRIC repeats the edge element
    j = np.where(j < 0, -j - edge, j)
    return np.where(j >= n, 2 * n - 2 + edge - j, j)


def _index(shape: tuple[int, ...], paddings: Any, mode: str) -> tuple:
    return np.ix_(*(_source(n, a, b, mode) for n, (a, b) in zip(shape, paddings)))


def _mirror_pad(mode: str) -> Callable[..., np.ndarray]:
    return lambda x, paddings: x[_index(x.shape, paddings, mode)]


def _mirror_pad_grad(mode: str) -> Callable[..., np.ndarray]:
    def reference(dy: np.ndarray, paddings: Any) -> np.ndarray:
        shape = tuple(n - a - b for n, (a, b) in zip(dy.shape, paddings))
        dx = np.zeros(shape, F64)
        np.add.at(dx, _index(shape, paddings, mode), dy)
        return dx.astype(dy.dtype)

    return reference


_MIRRORS = [  # (id, x shape, paddings, mode, check gradients)
    ("reflect-2d", (3, 4), ((1, 2), (2, 3)), "REFLECT", True),
    ("symmetric-2d", (3, 4), ((3, 1), (0, 4)), "SYMMETRIC", True),
    ("reflect-4d-hw", (1, 2, 3, 3), ((0, 0), (0, 0), (2, 1), (1, 2)), "REFLECT", True),
    ("symmetric-1d", (2,), ((2, 2),), "SYMMETRIC", False),
]


def _mirror_cases() -> list[OpCase]:
    cases = []
    for name, shape, paddings, mode, grad in _MIRRORS:
        padded = tuple(n + a + b for n, (a, b) in zip(shape, paddings))
        cases += [
            OpCase(f"MirrorPad/{name}", "MirrorPad", lambda m=mode: P.MirrorPad(m),
                   lambda rng, dt, s=shape, p=paddings: (sample(rng, dt, *s), p),
                   _mirror_pad(mode), ANY if not grad else FLOATS, (0,) if grad else ()),
            OpCase(f"MirrorPadGrad/{name}", "MirrorPadGrad",
                   lambda m=mode: spatial_ops.MirrorPadGrad(m),
                   lambda rng, dt, s=padded, p=paddings: (sample(rng, dt, *s), p),
                   _mirror_pad_grad(mode), FLOATS, (0,) if grad else ()),
        ]
    return cases


def _scale(n_in: int, n_out: int, align_corners: bool) -> float:
    if align_corners:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    return n_in / n_out


def _taps(n_in: int, n_out: int, align_corners: bool) -> list[tuple[int, int, float]]:
    """(lower index, upper index, weight of the upper) for every output index."""
    taps = []
    for i in range(n_out):
        at = i * _scale(n_in, n_out, align_corners)
        low = min(int(np.floor(at)), n_in - 1)
        taps.append((low, min(low + 1, n_in - 1), at - low))
    return taps


def _corners(image_hw: tuple[int, ...], out_hw: tuple[int, ...], align_corners: bool) -> Any:
    """(p, q, [(row, column, weight) of its four input pixels]) for every output pixel."""
    rows = _taps(image_hw[0], out_hw[0], align_corners)
    cols = _taps(image_hw[1], out_hw[1], align_corners)
    for p, (r0, r1, fy) in enumerate(rows):
        for q, (c0, c1, fx) in enumerate(cols):
            yield p, q, [(r0, c0, (1 - fy) * (1 - fx)), (r0, c1, (1 - fy) * fx),
                         (r1, c0, fy * (1 - fx)), (r1, c1, fy * fx)]


def _resize(size: tuple[int, int], align_corners: bool) -> Callable[[np.ndarray], np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        out = np.zeros((*x.shape[:2], *size))
        for p, q, corners in _corners(x.shape[2:], size, align_corners):
            out[:, :, p, q] = sum(w * x[:, :, r, c].astype(F64) for r, c, w in corners)
        return out.astype(x.dtype)

    return reference


def _resize_grad(align_corners: bool) -> Callable[..., np.ndarray]:
    def reference(grads: np.ndarray, image: np.ndarray) -> np.ndarray:
        dx = np.zeros(image.shape)
        for p, q, corners in _corners(image.shape[2:], grads.shape[2:], align_corners):
            for r, c, w in corners:
                dx[:, :, r, c] += w * grads[:, :, p, q]
        return dx.astype(image.dtype)

    return reference


_RESIZES = [  # (id, x shape, size, align_corners, check gradients)
    ("up", (1, 2, 3, 4), (5, 7), False, True),
    ("down", (2, 1, 5, 6), (2, 4), False, True),
    ("up-align-corners", (1, 2, 3, 4), (5, 7), True, True),
    ("to-1x1-align-corners", (1, 1, 3, 3), (1, 1), True, False),
    ("same-size", (1, 1, 2, 3), (2, 3), False, False),
]


def _resize_cases() -> list[OpCase]:
    cases = []
    for name, shape, size, align, grad in _RESIZES:
        out_shape = (*shape[:2], *size)
        cases += [
            OpCase(f"ResizeBilinear/{name}", "ResizeBilinear",
                   lambda s=size, a=align: P.ResizeBilinear(s, a),
                   lambda rng, dt, s=shape: (sample(rng, dt, *s),), _resize(size, align),
                   FLOATS, (0,) if grad else ()),
            OpCase(f"ResizeBilinearGrad/{name}", "ResizeBilinearGrad",
                   lambda a=align: spatial_ops.ResizeBilinearGrad(a),
                   lambda rng, dt, s=shape, o=out_shape: (sample(rng, dt, *o),
                                                          sample(rng, dt, *s)),
                   _resize_grad(align), FLOATS, (0,) if grad else (),
                   {np.float16: (1e-2, 1e-2)}),
        ]
    return cases


_PADS = [  # (id, x shape, paddings, dtypes, check gradients)
    ("2d", (2, 3), ((1, 2), (0, 3)), ANY, False),
    ("2d-grad", (2, 3), ((1, 2), (0, 3)), FLOATS, True),
    ("4d-hw", (1, 2, 3, 2), ((0, 0), (0, 0), (2, 1), (1, 1)), FLOATS, True),
    ("none", (3,), ((0, 0),), FLOATS, False),
    ("empty", (0, 2), ((1, 1), (1, 0)), FLOATS, False),
]

# -- ROIAlign: a loop over regions, bins and samples, as MindSpore's kernel describes it ------
def _bilinear_at(image: np.ndarray, y: float, x: float) -> np.ndarray:
    """The (C,) values of a CHW image at (y, x); 0 outside [-1, size] on either axis."""
    h, w = image.shape[1:]
    if y < -1 or y > h or x < -1 or x > w:
        return np.zeros(image.shape[0])
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = min(int(np.floor(y)), h - 1), min(int(np.floor(x)), w - 1)
    y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
    ly, lx = (y - y0 if y0 < h - 1 else 0.0), (x - x0 if x0 < w - 1 else 0.0)
    return ((1 - ly) * (1 - lx) * image[:, y0, x0] + (1 - ly) * lx * image[:, y0, x1]
            + ly * (1 - lx) * image[:, y1, x0] + ly * lx * image[:, y1, x1])


def _roi_samples(roi: np.ndarray, pooled: tuple[int, int], scale: float, grid: int,
                 end_mode: int) -> tuple:
    """(samples per bin, [(p, q, y, x) of every sample point of the region]); with grid <= 0,
    floor(bin size) samples along each axis."""
    x1, y1 = roi[1] * scale, roi[2] * scale
    x2, y2 = (roi[3] + end_mode) * scale, (roi[4] + end_mode) * scale
    hh, ww = y2 - y1, x2 - x1
    if not end_mode:
        hh, ww = max(hh, 1.0), max(ww, 1.0)
    bh, bw = hh / pooled[0], ww / pooled[1]
    gh, gw = (grid, grid) if grid > 0 else (int(np.floor(bh)), int(np.floor(bw)))
    return gh * gw, [(p, q, y1 + p * bh + (iy + 0.5) * bh / gh, x1 + q * bw + (ix + 0.5) * bw / gw)
                     for p, q, iy, ix in np.ndindex(*pooled, gh, gw)]


def _roi_align(pooled: tuple[int, int], scale: float, grid: int,
               end_mode: int) -> Callable[..., np.ndarray]:
    def reference(features: np.ndarray, rois: np.ndarray) -> np.ndarray:
        out = np.zeros((len(rois), features.shape[1], *pooled))
        for r, roi in enumerate(rois.astype(F64)):
            if abs(roi[1]) < 1e-3 and abs(roi[3]) < 1e-3:
                continue  # MindSpore skips regions whose x1 and x2 are 0
            image = features[int(np.rint(roi[0]))].astype(F64)  # the nearest image
            count, points = _roi_samples(roi, pooled, scale, grid, end_mode)
            if not count:
                out[r] = np.nan  # bins with no samples: MindSpore's 0 / 0
            for p, q, y, x in points:
                out[r, :, p, q] += _bilinear_at(image, y, x) / count
        return out.astype(features.dtype)

    return reference


def _roi_inputs(rng: np.random.Generator, dt: type) -> tuple:
    """Features (2, 1, 5, 4) and regions inside, across and outside the image, one that
    MindSpore skips (x1 = x2 = 0), and one whose batch index 0.6 rounds to image 1."""
    rois = np.array([[0, 0.5, 1.0, 2.5, 3.5], [1, 2.0, -1.5, 6.0, 7.0], [0.6, 1.2, 2.2, 1.4, 2.3],
                     [0, 0.0, 1.0, 0.0, 3.0], [0, 5.0, 6.0, 8.0, 9.0]], dt)
    return sample(rng, dt, 2, 1, 5, 4), rois


_ROI_ALIGNS = [  # (id, pooled, scale, sample_num, roi_end_mode, check gradients)
    ("2x2-scale1", (2, 2), 1.0, 2, 1, True),
    ("3x2-scale0.5-end0", (3, 2), 0.5, 1, 0, True),
    ("1x3-grid3", (1, 3), 1.0, 3, 1, False),
    ("2x1-adaptive", (2, 1), 1.0, 0, 1, False),
    ("1x2-adaptive-end0", (1, 2), 2.0, -1, 0, False),
]

def _window(i: int, n_in: int, n_out: int) -> slice:
    return slice(int(np.floor(i * n_in / n_out)), int(np.ceil((i + 1) * n_in / n_out)))


def _adaptive_pool(size: tuple) -> Callable[[np.ndarray], np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        h, w = (n if s is None else s for s, n in zip(size, x.shape[-2:]))
        out = np.zeros((*x.shape[:-2], h, w))
        for i, j in np.ndindex(h, w):
            window = x[..., _window(i, x.shape[-2], h), _window(j, x.shape[-1], w)]
            out[..., i, j] = window.astype(F64).mean(axis=(-2, -1))
        return out.astype(x.dtype)

    return reference


def _adaptive_pool_grad(x: np.ndarray, grad: np.ndarray) -> np.ndarray:
    (h, w), dx = grad.shape[-2:], np.zeros(x.shape)
    for i, j in np.ndindex(h, w):
        rows, cols = _window(i, x.shape[-2], h), _window(j, x.shape[-1], w)
        count = (rows.stop - rows.start) * (cols.stop - cols.start)
        dx[..., rows, cols] += grad[..., i, j, None, None] / count
    return dx.astype(x.dtype)


_ADAPTIVE = [  # (id, x shape, output_size)
    ("nchw-overlapping", (2, 3, 5, 7), (3, 4)),
    ("chw-int", (2, 6, 4), 2),
    ("keep-height", (1, 2, 3, 5), (None, 2)),
    ("grow", (1, 1, 2, 3), (4, 5)),
]


def _adaptive_cases() -> list[OpCase]:
    cases = []
    for name, shape, size in _ADAPTIVE:
        pair = (size, size) if isinstance(size, int) else size
        out = (*shape[:-2], *(n if s is None else s for s, n in zip(pair, shape[-2:])))
        cases += [
            OpCase(f"AdaptiveAvgPool2D/{name}", "AdaptiveAvgPool2D",
                   lambda s=size: P.AdaptiveAvgPool2D(s),
                   lambda rng, dt, s=shape: (sample(rng, dt, *s),), _adaptive_pool(pair),
                   FLOATS, (0,)),
            OpCase(f"AdaptiveAvgPool2DGrad/{name}", "AdaptiveAvgPool2DGrad",
                   spatial_ops.AdaptiveAvgPool2DGrad,
                   lambda rng, dt, s=shape, o=out: (sample(rng, dt, *s), sample(rng, dt, *o)),
                   _adaptive_pool_grad, FLOATS, (1,)),
        ]
    return cases


CASES: list[OpCase] = [
    *(OpCase(f"Pad/{name}", "Pad", lambda p=paddings: P.Pad(p),
             lambda rng, dt, s=shape: (sample(rng, dt, *s),), _pad(paddings), dtypes,
             (0,) if grad else ())
      for name, shape, paddings, dtypes, grad in _PADS),
    *_mirror_cases(),
    *_resize_cases(),
    *_adaptive_cases(),
    *(OpCase(f"ROIAlign/{name}", "ROIAlign",
             lambda p=pooled, s=scale, g=grid, e=end: P.ROIAlign(*p, s, g, e), _roi_inputs,
             _roi_align(pooled, scale, grid, end), FLOATS, (0,) if grad else (),
             {np.float16: (1e-2, 1e-2)})
      for name, pooled, scale, grid, end, grad in _ROI_ALIGNS),
]
