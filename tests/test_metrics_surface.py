"""The segmentation-surface metrics (``HausdorffDistance``, ``MeanSurfaceDistance``,
``RootMeanSquareDistance``) against MindSpore 1.6's docstring values and against SciPy's
erosion and distance transforms (the way MindSpore computes them)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, nn

X = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
Y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])


@pytest.mark.parametrize("metric, expected", [
    (nn.HausdorffDistance(), 1.4142135623730951),
    (nn.MeanSurfaceDistance(symmetric=False, distance_metric="euclidean"), 0.8047378541243649),
    (nn.RootMeanSquareDistance(symmetric=False, distance_metric="euclidean"),
     1.0000000000000002),
])
def test_docstring_values(metric, expected):
    metric.clear()
    metric.update(Tensor(X), Tensor(Y), 0)
    assert metric.eval() == pytest.approx(expected, rel=1e-12)


def scipy_surface(a_edges, b_edges, metric):
    morphology = pytest.importorskip("scipy.ndimage")
    if not a_edges.any():
        return np.array([])
    if not b_edges.any():
        return np.full(int(a_edges.sum()), np.inf)
    if metric == "euclidean":
        dist = morphology.distance_transform_edt(~b_edges)
    else:
        dist = morphology.distance_transform_cdt(~b_edges, metric=metric)
    return dist[a_edges]


def scipy_edges(mask):
    morphology = pytest.importorskip("scipy.ndimage")
    return morphology.binary_erosion(mask) ^ mask


def blobs(rng, shape):
    """Two overlapping random blobs of label 1 on a background of labels 0 and 2."""
    grid = np.indices(shape).astype(float)
    out = []
    for _ in range(2):
        centre = rng.uniform(0.3, 0.7, len(shape)) * np.array(shape)
        radius = rng.uniform(0.2, 0.35) * min(shape)
        dist = np.sqrt(sum((g - c) ** 2 for g, c in zip(grid, centre)))
        field = np.where(dist < radius, 1, rng.integers(0, 2, shape) * 2)
        out.append(field)
    return out


@pytest.mark.parametrize("shape", [(17, 23), (9, 11, 8)])
@pytest.mark.parametrize("distance", ["euclidean", "chessboard", "taxicab"])
def test_against_scipy(shape, distance):
    rng = np.random.default_rng(len(shape))
    y_pred, y = blobs(rng, shape)
    a, b = scipy_edges(y_pred == 1), scipy_edges(y == 1)
    ab, ba = scipy_surface(a, b, distance), scipy_surface(b, a, distance)

    msd = nn.MeanSurfaceDistance(symmetric=True, distance_metric=distance)
    msd.update(y_pred, Tensor(y), 1)
    assert msd.eval() == pytest.approx(np.mean((ab.mean(), ba.mean())), rel=1e-12)
    rms = nn.RootMeanSquareDistance(symmetric=True, distance_metric=distance)
    rms.update(y_pred, y, 1)
    assert rms.eval() == pytest.approx(np.sqrt(np.mean(((ab ** 2).mean(), (ba ** 2).mean()))),
                                       rel=1e-12)
    # uncropped and cropped Hausdorff agree for blobs inside the field
    for crop in (False, True):
        hd = nn.HausdorffDistance(distance_metric=distance, crop=crop)
        hd.update(y_pred.tolist(), y, 1)
        assert hd.eval() == pytest.approx(max(ab.max(), ba.max()), rel=1e-12)
    hd = nn.HausdorffDistance(distance_metric=distance, percentile=90.0, directed=True,
                              crop=False)
    hd.update(y_pred, y, 1)
    assert hd.eval() == pytest.approx(np.percentile(ab, 90.0), rel=1e-12)


def test_empty_edges_are_infinite_and_errors():
    empty = np.zeros((5, 5), int)
    full = np.zeros((5, 5), int)
    full[1:4, 1:4] = 1
    for metric in (nn.MeanSurfaceDistance(), nn.RootMeanSquareDistance(),
                   nn.HausdorffDistance(crop=False)):
        metric.update(empty, full, 1)
        assert metric.eval() == np.inf
        with pytest.raises(ValueError, match="3 inputs"):
            metric.update(empty, full)
        with pytest.raises(TypeError, match="label_idx"):
            metric.update(empty, full, "1")
        with pytest.raises(ValueError, match="label_idx 7"):
            metric.update(empty, full, 7)
        with pytest.raises(ValueError, match="same"):
            metric.update(empty, full[:4], 1)
        metric.clear()
        with pytest.raises(RuntimeError, match="update"):
            metric.eval()
    with pytest.raises(ValueError, match="'distance_metric'"):
        nn.MeanSurfaceDistance(distance_metric="cosine")
    with pytest.raises(TypeError, match="'symmetric'"):
        nn.RootMeanSquareDistance(symmetric=1)
    with pytest.raises(TypeError, match="'percentile'"):
        nn.HausdorffDistance(percentile=50)
    hd = nn.HausdorffDistance(percentile=150.0)
    hd.update(full, full, 1)
    with pytest.raises(ValueError, match="percentile"):
        hd.eval()
