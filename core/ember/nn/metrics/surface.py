"""Segmentation-surface metrics, as ``mindspore.nn.HausdorffDistance``,
``MeanSurfaceDistance`` and ``RootMeanSquareDistance``: distances between the edges (a mask
less its erosion) of a predicted and a true label field, on the host in NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember._checkparam import Validator
from ember.nn.metrics.metric import Metric, rearrange_inputs

_DISTANCES = ("euclidean", "chessboard", "taxicab")


def _erode(mask: np.ndarray) -> np.ndarray:
    """Binary erosion by the cross of each axis' two neighbours, outside the array False
    (``scipy.ndimage.binary_erosion``'s defaults)."""
    padded = np.pad(mask, 1, constant_values=False)
    inner = tuple(slice(1, -1) for _ in range(mask.ndim))
    out = mask.copy()
    for axis in range(mask.ndim):
        for step in (-1, 1):
            shifted = list(inner)
            shifted[axis] = slice(1 + step, padded.shape[axis] - 1 + step)
            out &= padded[tuple(shifted)]
    return out


def _edges(mask: np.ndarray) -> np.ndarray:
    return _erode(mask) ^ mask


def _surface_distance(from_edges: np.ndarray, to_edges: np.ndarray,
                      metric: str) -> np.ndarray:
    """For each edge point of ``from_edges``, its distance to the nearest edge point of
    ``to_edges`` (inf when there is none); empty when ``from_edges`` has none."""
    points = np.argwhere(from_edges).astype(np.float64)
    if not len(points):
        return np.array([])
    targets = np.argwhere(to_edges).astype(np.float64)
    if not len(targets):
        return np.full(len(points), np.inf)
    nearest = np.empty(len(points))
    chunk = max(1, 2 ** 22 // len(targets))
    for start in range(0, len(points), chunk):
        diff = np.abs(points[start:start + chunk, None, :] - targets[None, :, :])
        if metric == "euclidean":
            dist = np.sqrt((diff ** 2).sum(-1))
        elif metric == "chessboard":
            dist = diff.max(-1)
        else:
            dist = diff.sum(-1)
        nearest[start:start + chunk] = dist.min(1)
    return nearest


def _label_masks(name: str, inputs: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(y_pred == label_idx, y == label_idx)`` (boolean inputs as they are), checked."""
    if len(inputs) != 3:
        raise ValueError(f"{name}.update: needs 3 inputs (y_pred, y, label_idx), but got "
                         f"{len(inputs)}")
    y_pred, y = Metric._convert_data(inputs[0]), Metric._convert_data(inputs[1])
    label_idx = inputs[2]
    if isinstance(label_idx, bool) or not isinstance(label_idx, int | float):
        raise TypeError(f"{name}.update: label_idx must be an int or a float, but got "
                        f"{type(label_idx).__name__}")
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(f"{name}.update: label_idx {label_idx} is in neither y_pred nor y")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"{name}.update: y_pred and y must have the same non-empty shape, but "
                         f"got {y_pred.shape} and {y.shape}")
    y_pred = y_pred if y_pred.dtype == bool else y_pred == label_idx
    y = y if y.dtype == bool else y == label_idx
    return y_pred, y


class _SurfaceMetric(Metric):
    """Holds the edges of the last ``update(y_pred, y, label_idx)``; ``eval`` measures them."""

    def __init__(self, distance_metric: str) -> None:
        super().__init__()
        Validator.check_value_type("distance_metric", distance_metric, [str],
                                   type(self).__name__)
        self.distance_metric = Validator.check_string(distance_metric, _DISTANCES,
                                                      "distance_metric", type(self).__name__)
        self.clear()

    def clear(self) -> None:
        """Forget the last update."""
        self._y_pred_edges: np.ndarray | None = None
        self._y_edges: np.ndarray | None = None

    def _masks_to_edges(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """``update(y_pred, y, label_idx)``: the label fields (Tensor, NumPy array or list, of
        one shape) and the label whose region is measured (boolean fields are the regions)."""
        self._masks_to_edges(*_label_masks(type(self).__name__, inputs))

    def _distances(self, reverse: bool = False) -> np.ndarray:
        if self._y_pred_edges is None or self._y_edges is None:
            raise RuntimeError(f"{type(self).__name__}.eval: call update before eval")
        a, b = self._y_pred_edges, self._y_edges
        return _surface_distance(b, a, self.distance_metric) if reverse else (
            _surface_distance(a, b, self.distance_metric))


class HausdorffDistance(_SurfaceMetric):
    """The Hausdorff distance between the edges of the predicted and the true region:
    ``max(h(y_pred, y), h(y, y_pred))``, ``h(A, B)`` the largest distance from a point of A to
    its nearest point of B (or the ``percentile`` of those distances); only ``h(y_pred, y)``
    with ``directed``. ``crop`` first cuts both fields to the bounding box of their union
    (dropping axes of length 1, as MindSpore does). inf when an edge set is empty.

    ``HausdorffDistance(distance_metric='euclidean', percentile=None, directed=False,
    crop=True)``; ``distance_metric`` 'euclidean', 'chessboard' or 'taxicab'."""

    def __init__(self, distance_metric: str = "euclidean", percentile: float | None = None,
                 directed: bool = False, crop: bool = True) -> None:
        name = type(self).__name__
        self.percentile = percentile if percentile is None else Validator.check_value_type(
            "percentile", percentile, [float], name)
        self.directed = Validator.check_value_type("directed", directed, [bool], name)
        self.crop = Validator.check_value_type("crop", crop, [bool], name)
        super().__init__(distance_metric)

    def _masks_to_edges(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self.crop:
            union = y_pred | y
            if not union.any():
                self._y_pred_edges, self._y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = tuple(slice(idx.min(), idx.max() + 1) for idx in np.nonzero(union))
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        super()._masks_to_edges(y_pred, y)

    def _directed(self, reverse: bool) -> float:
        distances = self._distances(reverse)
        if not distances.size:
            return np.inf
        if not self.percentile:
            return distances.max()
        if not 0 <= self.percentile <= 100:
            raise ValueError(f"HausdorffDistance: percentile must be in [0, 100], but got "
                             f"{self.percentile}")
        return np.percentile(distances, self.percentile)

    def eval(self) -> float:
        """The (directed) Hausdorff distance of the last update."""
        forward = self._directed(False)
        return forward if self.directed else max(forward, self._directed(True))


class _EdgeToEdge(_SurfaceMetric):
    """A statistic of the distances from the predicted edge to the true one, or both ways."""

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        self.symmetric = Validator.check_value_type("symmetric", symmetric, [bool],
                                                    type(self).__name__)
        super().__init__(distance_metric)

    def _each_way(self, statistic: Any) -> list[float] | None:
        """``statistic`` of the distances from the predicted edge (and, with ``symmetric``,
        from the true edge); None when an edge set is empty."""
        values = []
        for reverse in (False, True) if self.symmetric else (False,):
            distances = self._distances(reverse)
            if not distances.size:
                return None
            values.append(statistic(distances))
        return values


class MeanSurfaceDistance(_EdgeToEdge):
    """The mean distance from the predicted region's edge points to the nearest edge point of
    the true region; with ``symmetric``, the mean of that and the reverse. inf when an edge
    set is empty.

    ``MeanSurfaceDistance(symmetric=False, distance_metric='euclidean')``."""

    def eval(self) -> float:
        """The mean surface distance of the last update."""
        means = self._each_way(np.mean)
        return np.inf if means is None else np.mean(means)


class RootMeanSquareDistance(_EdgeToEdge):
    """The root of the mean of the squared distances between the edges of the two regions,
    taken both ways with ``symmetric``. Without ``symmetric`` it is, as in MindSpore 1.6, the
    mean of the squared distances from the predicted edge to the true one (no root). inf when
    an edge set is empty.

    ``RootMeanSquareDistance(symmetric=False, distance_metric='euclidean')``."""

    def eval(self) -> float:
        """The root-mean-square surface distance of the last update."""
        squares = self._each_way(lambda d: (d ** 2).mean())
        if squares is None:
            return np.inf
        return np.sqrt(np.mean(squares)) if self.symmetric else squares[0]
