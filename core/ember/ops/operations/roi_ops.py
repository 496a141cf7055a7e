"""ROIAlign of MindSpore's ``nn_ops``, with its backward primitive.

Each region of interest is sampled on a regular grid of ``sample_num`` points per bin and
axis, each point bilinearly interpolated from its four neighbours. Sampling and interpolation
are separable, so a region's output is ``A_y @ features @ A_x^T`` for two small matrices per
region; ``sampling_matrices`` builds them once, written with an array namespace ``xp``
(NumPy on the CPU backend, ``tf.experimental.numpy`` on the GPU backend).
"""

from __future__ import annotations

from typing import Any

from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.nn_ops import _FLOAT, _check_int, _check_rank
from ember.ops.primitive import Primitive, Spec

__all__ = ["ROIAlign"]


class _ROIAlignBase(Primitive):
    def __init__(self, pooled_height: int, pooled_width: int, spatial_scale: float,
                 sample_num: int = 2, roi_end_mode: int = 1) -> None:
        super().__init__()
        op = self.name
        self.pooled_height = _check_int(op, "pooled_height", pooled_height, 1)
        self.pooled_width = _check_int(op, "pooled_width", pooled_width, 1)
        if isinstance(spatial_scale, bool) or not isinstance(spatial_scale, int | float):
            raise TypeError(f"{op}: 'spatial_scale' must be a float, but got {spatial_scale!r}")
        self.spatial_scale = float(spatial_scale)
        self.sample_num = _check_int(op, "sample_num", sample_num, 1)
        if roi_end_mode not in (0, 1) or isinstance(roi_end_mode, bool):
            raise ValueError(f"{op}: 'roi_end_mode' must be 0 or 1, but got {roi_end_mode!r}")
        self.roi_end_mode = roi_end_mode

    def _check_rois(self, rois: Any, dtype: Any) -> None:
        check_tensor(self.name, "rois", rois, (dtype,))
        if rois.ndim != 2 or rois.shape[1] != 5:
            raise ValueError(f"{self.name}: 'rois' must have shape [n, 5] (batch index, x1, y1, "
                             f"x2, y2), but got {list(rois.shape)}")

    def _axis(self, xp: Any, start: Any, end: Any, pooled: int, length: int) -> Any:
        """(n, pooled, length): the average interpolation weights of each bin's samples."""
        start, end = start * self.spatial_scale, (end + self.roi_end_mode) * self.spatial_scale
        size = end - start if self.roi_end_mode else xp.maximum(end - start, 1.0)
        bin_size = size / pooled
        grid = self.sample_num
        steps = xp.arange(float(pooled))[:, None] + (xp.arange(float(grid))[None, :] + 0.5) / grid
        at = start[:, None, None] + bin_size[:, None, None] * steps  # (n, pooled, grid)
        valid = (at >= -1.0) & (at <= length)
        at = xp.maximum(at, 0.0)
        low = xp.floor(at)
        edge = low >= length - 1
        low = xp.where(edge, length - 1.0, low)
        high = xp.where(edge, low, low + 1.0)
        frac = xp.where(edge, 0.0, at - low)
        cells = xp.arange(float(length))
        weights = (xp.where(cells == low[..., None], (1 - frac)[..., None], 0.0)
                   + xp.where(cells == high[..., None], frac[..., None], 0.0))
        return xp.sum(xp.where(valid[..., None], weights, 0.0), axis=2) / grid

    def sampling_matrices(self, xp: Any, rois: Any, height: int, width: int) -> tuple:
        """(A_y of shape (n, pooled_height, height), A_x of shape (n, pooled_width, width)); as
        MindSpore's kernels, a region whose x1 and x2 are both 0 (within 0.001) pools to 0."""
        empty = (xp.abs(rois[:, 1]) < 0.001) & (xp.abs(rois[:, 3]) < 0.001)
        ay = self._axis(xp, rois[:, 2], rois[:, 4], self.pooled_height, height)
        return (xp.where(empty[:, None, None], 0.0, ay),
                self._axis(xp, rois[:, 1], rois[:, 3], self.pooled_width, width))


class ROIAlign(_ROIAlignBase):
    """Bilinear ROI pooling of NCHW ``features`` over the regions ``rois`` (n, 5) = (batch
    index, x1, y1, x2, y2) in input coordinates scaled by ``spatial_scale``, the end
    coordinates plus ``roi_end_mode`` (with 0, regions smaller than 1 grow to 1):
    ``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2,
    roi_end_mode=1)(features, rois)`` -> (n, C, pooled_height, pooled_width)."""

    def infer(self, features: Any, rois: Any) -> Spec:
        check_tensor(self.name, "features", features, _FLOAT)
        _check_rank(self.name, "features", features, (4,))
        self._check_rois(rois, features.dtype)
        return ((rois.shape[0], features.shape[1], self.pooled_height, self.pooled_width),
                features.dtype)

    def bprop(self, features: Any, rois: Any, out: Any, dout: Any) -> tuple:
        grad = self._derived(ROIAlignGrad, tuple(features.shape), self.pooled_height,
                             self.pooled_width, self.spatial_scale, self.sample_num,
                             self.roi_end_mode)
        return grad(dout, rois), F.zeros_like(rois)


class ROIAlignGrad(_ROIAlignBase):
    """The gradient of ROIAlign with respect to its features, of shape ``xdiff_shape``:
    ``ROIAlignGrad(xdiff_shape, pooled_height, pooled_width, spatial_scale, sample_num=2,
    roi_end_mode=1)(ydiff, rois)``."""

    def __init__(self, xdiff_shape: tuple[int, ...], pooled_height: int, pooled_width: int,
                 spatial_scale: float, sample_num: int = 2, roi_end_mode: int = 1) -> None:
        super().__init__(pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode)
        if (not isinstance(xdiff_shape, tuple | list) or len(xdiff_shape) != 4
                or not all(isinstance(n, int) and n >= 0 for n in xdiff_shape)):
            raise ValueError(f"ROIAlignGrad: 'xdiff_shape' must be 4 non-negative ints, but got "
                             f"{xdiff_shape!r}")
        self.xdiff_shape = tuple(xdiff_shape)

    def infer(self, ydiff: Any, rois: Any) -> Spec:
        check_tensor(self.name, "ydiff", ydiff, _FLOAT)
        self._check_rois(rois, ydiff.dtype)
        want = (rois.shape[0], self.xdiff_shape[1], self.pooled_height, self.pooled_width)
        if ydiff.shape != want:
            raise ValueError(f"ROIAlignGrad: 'ydiff' must have shape {list(want)}, but got "
                             f"{list(ydiff.shape)}")
        return self.xdiff_shape, ydiff.dtype

