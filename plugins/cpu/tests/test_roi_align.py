"""ROIAlign on the CPU works region by region: memory stays near one image's size however
many regions there are (MindSpore 1.6's own test pools 1024 regions of a 2x256x192x320 map),
and large regions give the same values as the kit's sample-by-sample reference."""

from __future__ import annotations

import tracemalloc

import numpy as np

from ember import Tensor, ops
from ember.ops.operations import _grad_ops as G
from ember.testing.cases.spatial import _roi_align as reference


def _rois(rng, count, height, width, scale):
    x1, y1 = rng.uniform(0, width / scale, count), rng.uniform(0, height / scale, count)
    x2 = x1 + rng.uniform(1, width / scale, count)
    y2 = y1 + rng.uniform(1, height / scale, count)
    return np.stack([rng.integers(0, 2, count), x1, y1, x2, y2], 1).astype(np.float32)


def test_memory_does_not_grow_with_the_number_of_regions():
    rng = np.random.default_rng(0)
    features = rng.standard_normal((2, 16, 48, 80)).astype(np.float32)
    rois = _rois(rng, 512, 48, 80, 0.25)
    tracemalloc.start()
    try:
        out = ops.ROIAlign(7, 7, 0.25, 2)(Tensor(features), Tensor(rois))
        dx = G.ROIAlignGrad(features.shape, 7, 7, 0.25, 2)(out, Tensor(rois))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # a copy of its image per region would take 512 * 240 KiB = 120 MiB; the sampling
    # matrices, built from (regions, bins, samples, width) masks, take about 9 MiB
    assert peak < 32 * 2**20, f"peak {peak / 2**20:.1f} MiB"
    assert dx.shape == features.shape and np.isfinite(dx.asnumpy()).all()


def test_large_regions_match_the_reference():
    rng = np.random.default_rng(1)
    features = rng.standard_normal((2, 3, 24, 40)).astype(np.float32)
    rois = _rois(rng, 12, 24, 40, 0.5)
    out = ops.ROIAlign(3, 4, 0.5, 2)(Tensor(features), Tensor(rois)).asnumpy()
    want = reference((3, 4), 0.5, 2, 1)(features.astype(np.float64), rois.astype(np.float64))
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
