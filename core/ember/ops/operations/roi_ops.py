"""ROIAlign of MindSpore's ``nn_ops``, with its backward primitive.

Each region of interest is sampled on a regular grid of ``sample_num`` points per bin and
axis, each point bilinearly interpolated from its four neighbours. Sampling and interpolation
are separable: ``sample_points`` gives, along each axis, the cells each bin's samples read and
their weights (a GPU kernel gathers those pixels), and ``sampling_matrices`` the same as two
small matrices per region, its output being ``A_y @ features @ A_x^T`` (the CPU kernel applies
them region by region). Both are written with an array namespace ``xp`` (NumPy on the CPU
backend, ``tf.experimental.numpy`` on the GPU backend).
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
        if isinstance(sample_num, bool) or not isinstance(sample_num, int):
            raise TypeError(f"{op}: 'sample_num' must be an int, but got {sample_num!r}")
        self.sample_num = sample_num
        if roi_end_mode not in (0, 1) or isinstance(roi_end_mode, bool):
            raise ValueError(f"{op}: 'roi_end_mode' must be 0 or 1, but got {roi_end_mode!r}")
        self.roi_end_mode = roi_end_mode

    def _check_rois(self, rois: Any, dtype: Any) -> None:
        check_tensor(self.name, "rois", rois, (dtype,))
        if rois.ndim != 2 or rois.shape[1] != 5:
            raise ValueError(f"{self.name}: 'rois' must have shape [n, 5] (batch index, x1, y1, "
                             f"x2, y2), but got {list(rois.shape)}")

    def _axis(self, xp: Any, start: Any, end: Any, pooled: int, length: int) -> tuple:
        """(cells, weights), each (n, pooled, 2 * samples): the two neighbouring cells of each
        bin's samples along one axis and their interpolation weights over the bin's sample
        count (0 for a sample outside [-1, length]). With sample_num <= 0 a region's bins take
        floor(bin size) samples, and a bin smaller than one cell, none: its weights are NaN,
        as MindSpore's 0 / 0."""
        start, end = start * self.spatial_scale, (end + self.roi_end_mode) * self.spatial_scale
        size = end - start if self.roi_end_mode else xp.maximum(end - start, 1.0)
        bin_size = (size / pooled)[:, None, None]
        if self.sample_num > 0:
            grid, samples = float(self.sample_num), self.sample_num
        else:
            grid = xp.floor(bin_size)
            try:
                samples = max(int(xp.max(grid)), 1) if size.shape[0] else 1
            except TypeError:  # a compiled kernel's symbolic rois
                raise RuntimeError(
                    f"{self.name}: sample_num={self.sample_num} takes floor(bin size) samples "
                    "per bin, a count that the rois' values give, and this backend compiles "
                    "the kernel before it has them: run it in PyNative mode or give "
                    "sample_num > 0") from None
        share = 1.0 / xp.maximum(grid, 1.0)  # each sample's share of its bin
        index = xp.arange(float(samples))
        steps = xp.arange(float(pooled))[:, None] + (index + 0.5) * share  # (n|1, pooled, samples)
        at = start[:, None, None] + bin_size * steps
        valid = (at >= -1.0) & (at <= length) & (index < grid)
        at = xp.maximum(at, 0.0)
        low = xp.floor(at)
        edge = low >= length - 1
        low = xp.where(edge, length - 1.0, low)
        high = xp.where(edge, low, low + 1.0)
        weight = xp.where(valid, share, 0.0)
        frac = xp.where(edge, 0.0, at - low) * weight
        weights = xp.concatenate([weight - frac, frac], axis=2)
        if self.sample_num <= 0:
            weights = xp.where(grid >= 1.0, weights, float("nan"))
        return xp.concatenate([low, high], axis=2), weights

    @staticmethod
    def batch_indices(xp: Any, rois: Any) -> Any:
        """Each region's image, as MindSpore's kernels read it: the first column (float64)
        plus 7e-5, rounded to the nearest integer."""
        return xp.floor(rois[:, 0] + (0.5 + 7e-5))

    def sample_points(self, xp: Any, rois: Any, height: int, width: int) -> tuple:
        """(rows, row weights, columns, column weights) of the regions' samples, as
        ``_axis`` gives them along y (n, pooled_height, 2 * sample_num) and x; rois are
        float64. As MindSpore's kernels, a region whose x1 and x2 are both 0 (within 0.001)
        pools to 0."""
        empty = (xp.abs(rois[:, 1]) < 0.001) & (xp.abs(rois[:, 3]) < 0.001)
        rows, row_weights = self._axis(xp, rois[:, 2], rois[:, 4], self.pooled_height, height)
        cols, col_weights = self._axis(xp, rois[:, 1], rois[:, 3], self.pooled_width, width)
        return rows, xp.where(empty[:, None, None], 0.0, row_weights), cols, col_weights

    def sampling_matrices(self, xp: Any, rois: Any, height: int, width: int) -> tuple:
        """(A_y of shape (n, pooled_height, height), A_x of shape (n, pooled_width, width)):
        the sample points as the matrices of region pooling, ``A_y @ image @ A_x^T``."""
        rows, row_weights, cols, col_weights = self.sample_points(xp, rois, height, width)

        def matrix(cells: Any, weights: Any, length: int) -> Any:
            hit = cells[..., None] == xp.arange(float(length))
            return xp.sum(xp.where(hit, weights[..., None], 0.0), axis=2)

        return matrix(rows, row_weights, height), matrix(cols, col_weights, width)


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

