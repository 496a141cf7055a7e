"""Cases for ``ember.ops.operations.dynamic_ops``: Unique, MaskedSelect, NonZero,
ComputeAccidentalHits, NonMaxSuppressionV3 and CTCGreedyDecoder (whose output shapes depend on
values: Graph mode must refuse them), UniqueWithPad and DynamicShape.

References walk the elements in order with plain Python.
"""

from __future__ import annotations

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import dynamic_ops
from ember.testing.cases import INTS, OpCase
from ember.testing.cases.array import ANY, NUMBERS, sample


def _unique(x: np.ndarray, index_dtype: type = np.int32) -> tuple[np.ndarray, np.ndarray]:
    seen: dict = {}
    for value in x.tolist():
        seen.setdefault(value, len(seen))
    return (np.array(list(seen), x.dtype).reshape(-1),
            np.array([seen[v] for v in x.tolist()], index_dtype).reshape(x.shape))


def _unique_with_pad(x: np.ndarray, pad: int) -> tuple[np.ndarray, np.ndarray]:
    y, idx = _unique(x, x.dtype.type)
    return np.concatenate([y, np.full(len(x) - len(y), pad, x.dtype)]), idx


def _masked_select(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    xs, ms = np.broadcast_to(x, shape), np.broadcast_to(mask, shape)
    return np.array([xs[at] for at in np.ndindex(shape) if ms[at]], x.dtype).reshape(-1)


def _masked_select_grad(x: np.ndarray, mask: np.ndarray, grad: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    out = np.zeros(x.shape, x.dtype)
    ms = np.broadcast_to(mask, shape)
    chosen = iter(grad)
    for at in np.ndindex(shape):
        if ms[at]:
            out[tuple(a if n > 1 else 0 for a, n in zip(at[len(shape) - x.ndim:], x.shape))] \
                += next(chosen)
    return out


def _accidental_hits(true_classes: np.ndarray, sampled: np.ndarray) -> tuple:
    rows, ids = [], []
    for row, classes in enumerate(true_classes.tolist()):
        for c in classes:
            for place, s in enumerate(sampled.tolist()):
                if s == c:
                    rows.append(row)
                    ids.append(place)
    dt = true_classes.dtype
    return (np.array(rows, dt), np.array(ids, dt),
            np.full(len(rows), np.finfo(np.float32).min, np.float32))


def _non_zero(transpose: bool):
    def reference(x: np.ndarray) -> np.ndarray:
        rows = [at for at in np.ndindex(x.shape) if x[at]]
        out = np.array(rows, np.int64).reshape(len(rows), x.ndim)
        return out.T.copy() if transpose else out
    return reference


def _sparse(rng: np.random.Generator, dt: type, *shape: int) -> np.ndarray:
    """Values of which about half are zero (False)."""
    return np.where(rng.random(shape) < 0.5, sample(rng, dt, *shape), np.zeros((), dt))


def _non_max_suppression(boxes: np.ndarray, scores: np.ndarray, most: np.ndarray,
                         iou_threshold: np.ndarray, score_threshold: np.ndarray) -> np.ndarray:
    def extent(box: list) -> tuple:
        y1, x1, y2, x2 = box
        return min(y1, y2), min(x1, x2), max(y1, y2), max(x1, x2)

    def iou(a: tuple, b: tuple) -> float:
        area_a = (a[2] - a[0]) * (a[3] - a[1])
        area_b = (b[2] - b[0]) * (b[3] - b[1])
        if area_a <= 0 or area_b <= 0:
            return 0.0
        inter = (max(min(a[2], b[2]) - max(a[0], b[0]), 0)
                 * max(min(a[3], b[3]) - max(a[1], b[1]), 0))
        return inter / (area_a + area_b - inter)

    boxes_ = [extent(b) for b in boxes.astype(np.float64).tolist()]
    order = sorted(range(len(boxes_)), key=lambda i: (-float(scores[i]), i))
    kept: list[int] = []
    for i in order:
        if len(kept) >= int(most) or not float(scores[i]) > float(score_threshold):
            break
        if all(iou(boxes_[k], boxes_[i]) <= float(iou_threshold) for k in kept):
            kept.append(i)
    return np.array(kept, most.dtype)


def _nms_inputs(rng: np.random.Generator, dt: type, most: int, index: type = np.int32) -> tuple:
    """Ten boxes with integer corners in either order on a small grid (so that many overlap),
    distinct scores exact in float16, thresholds far from any IOU a grid box can have."""
    corners = rng.integers(0, 5, (10, 2, 2))
    corners[:, 1] += rng.integers(1, 4, (10, 2)) * rng.choice([-1, 1], (10, 1))
    scores = rng.permutation(10) / 16 + 0.25
    return (corners.reshape(10, 4).astype(dt), scores.astype(dt), np.array(most, index),
            np.array(0.1234, dt), np.array(0.3, dt))


def _ctc_greedy(inputs: np.ndarray, lengths: np.ndarray, merge_repeated: bool = True) -> tuple:
    blank = inputs.shape[2] - 1
    indices, values, log_prob, longest = [], [], [], 0
    for b, length in enumerate(lengths.tolist()):
        total, previous, decoded = 0.0, -1, []
        for t in range(length):
            row = inputs[t, b].tolist()
            best = row.index(max(row))
            total -= max(row)
            if best != blank and not (merge_repeated and best == previous):
                decoded.append(best)
            previous = best
        indices += [[b, place] for place in range(len(decoded))]
        values += decoded
        log_prob.append([total])
        longest = max(longest, len(decoded))
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([inputs.shape[1], longest], np.int64), np.array(log_prob, inputs.dtype))


def _ctc_inputs(rng: np.random.Generator, dt: type) -> tuple:
    """Logits over 4 classes (the blank the last) where runs of one class and blanks are
    likely: few distinct values, so that equal maxima (the first one wins) occur too."""
    return (rng.integers(0, 3, (7, 3, 4)).astype(dt) / 2, np.array([7, 4, 0], np.int32))


def _repeats(rng: np.random.Generator, dt: type, n: int) -> np.ndarray:
    """``n`` values with repeats: a few distinct ones drawn with replacement."""
    pool = sample(rng, dt, 4)
    return pool[rng.integers(0, 4, n)]


_INDEX = (np.int32, np.int64)

CASES: list[OpCase] = [
    OpCase("ComputeAccidentalHits/documented", "ComputeAccidentalHits",
           lambda: P.ComputeAccidentalHits(2),
           lambda rng, dt: (np.array([[1, 2], [0, 4], [3, 3]], dt), np.arange(5, dtype=dt)),
           _accidental_hits, _INDEX, graph=False),
    OpCase("ComputeAccidentalHits/repeats", "ComputeAccidentalHits",
           lambda: P.ComputeAccidentalHits(3),
           lambda rng, dt: (rng.integers(0, 6, (4, 3)).astype(dt),
                            rng.integers(0, 6, 7).astype(dt)),
           _accidental_hits, _INDEX, graph=False),
    OpCase("ComputeAccidentalHits/no-hits", "ComputeAccidentalHits", P.ComputeAccidentalHits,
           lambda rng, dt: (np.array([[7], [8]], dt), np.arange(5, dtype=dt)),
           _accidental_hits, _INDEX, graph=False),
    OpCase("NonMaxSuppressionV3/documented", "NonMaxSuppressionV3", P.NonMaxSuppressionV3,
           lambda rng, dt: (np.array([[1, 2, 3, 4], [1, 3, 3, 4], [1, 3, 4, 4], [1, 1, 4, 4],
                                      [1, 1, 3, 4]], dt),
                            np.array([0.4, 0.5, 0.72, 0.9, 0.45], dt), np.array(5, np.int32),
                            np.array(0.5, dt), np.array(0, dt)),
           lambda *a: np.array([3, 2, 0], np.int32), (np.float16, np.float32), graph=False),
    OpCase("NonMaxSuppressionV3/grid", "NonMaxSuppressionV3", P.NonMaxSuppressionV3,
           lambda rng, dt: _nms_inputs(rng, dt, 10), _non_max_suppression,
           (np.float16, np.float32), graph=False),
    OpCase("NonMaxSuppressionV3/max-output-int64", "NonMaxSuppressionV3",
           P.NonMaxSuppressionV3, lambda rng, dt: _nms_inputs(rng, dt, 2, np.int64),
           _non_max_suppression, (np.float16, np.float32), graph=False),
    OpCase("NonMaxSuppressionV3/max-output-negative", "NonMaxSuppressionV3",
           P.NonMaxSuppressionV3, lambda rng, dt: _nms_inputs(rng, dt, -3),
           _non_max_suppression, (np.float32,), graph=False),
    OpCase("CTCGreedyDecoder/documented", "CTCGreedyDecoder", P.CTCGreedyDecoder,
           lambda rng, dt: (np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]],
                                      [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]]], dt),
                            np.array([2, 2], np.int32)),
           lambda x, n: (np.array([[0, 0], [0, 1], [1, 0]], np.int64),
                         np.array([0, 1, 0], np.int64), np.array([2, 2], np.int64),
                         np.array([[-1.2], [-1.3]], x.dtype)),
           (np.float32, np.float64), graph=False),
    OpCase("CTCGreedyDecoder/merged", "CTCGreedyDecoder", P.CTCGreedyDecoder, _ctc_inputs,
           _ctc_greedy, (np.float32, np.float64), graph=False),
    OpCase("CTCGreedyDecoder/unmerged", "CTCGreedyDecoder", lambda: P.CTCGreedyDecoder(False),
           _ctc_inputs, lambda x, n: _ctc_greedy(x, n, False), (np.float32, np.float64),
           graph=False),
    OpCase("Unique/repeats", "Unique", P.Unique,
           lambda rng, dt: (_repeats(rng, dt, 9),), _unique, ANY, graph=False),
    OpCase("Unique/empty", "Unique", P.Unique,
           lambda rng, dt: (sample(rng, dt, 0),), _unique, ANY, graph=False),
    OpCase("UniqueWithPad/repeats", "UniqueWithPad", P.UniqueWithPad,
           lambda rng, dt: (_repeats(rng, dt, 9), -1), _unique_with_pad, INTS),
    OpCase("UniqueWithPad/documented", "UniqueWithPad", P.UniqueWithPad,
           lambda rng, dt: (np.array([1, 1, 5, 5, 4, 4, 3, 3, 2, 2], dt), 0),
           _unique_with_pad, INTS),
    OpCase("MaskedSelect/broadcast-mask", "MaskedSelect", P.MaskedSelect,
           lambda rng, dt: (sample(rng, dt, 2, 3), sample(rng, np.bool_, 3)),
           _masked_select, ANY, grad=(0,), graph=False),
    OpCase("MaskedSelect/broadcast-x", "MaskedSelect", P.MaskedSelect,
           lambda rng, dt: (sample(rng, dt, 2, 1), sample(rng, np.bool_, 2, 3)),
           _masked_select, ANY, grad=(0,), graph=False),
    OpCase("MaskedSelectGrad/broadcast-x", "MaskedSelectGrad", dynamic_ops.MaskedSelectGrad,
           lambda rng, dt: (sample(rng, dt, 2, 1), np.array([[1, 0, 1], [0, 1, 1]], bool),
                            sample(rng, dt, 4)),
           _masked_select_grad, NUMBERS),
    *(OpCase(f"NonZero/{label}", "NonZero", lambda t=transpose: P.NonZero(t),
             lambda rng, dt, shape=shape: (_sparse(rng, dt, *shape),), _non_zero(transpose), ANY,
             graph=False)
      for label, shape, transpose in [("2d", (3, 4), False), ("3d-transpose", (2, 3, 2), True),
                                      ("1d", (7,), False), ("empty", (0, 3), False)]),
    OpCase("NonZero/all-zero", "NonZero", P.NonZero,
           lambda rng, dt: (np.zeros((2, 2), dt),), _non_zero(False), ANY, graph=False),
    OpCase("Range/ints", "Range", P.Range,
           lambda rng, dt: (np.array(2, dt), np.array(-7, dt), np.array(-3, dt)),
           lambda a, b, c: np.array([2, -1, -4], a.dtype), INTS, graph=False),
    OpCase("Range/floats", "Range", lambda: P.Range(10),
           lambda rng, dt: (np.array(0.5, dt), np.array(2.25, dt), np.array(0.5, dt)),
           lambda a, b, c: np.array([0.5, 1.0, 1.5, 2.0], a.dtype), (np.float32, np.float64),
           graph=False),
    OpCase("DynamicShape/3d", "DynamicShape", P.DynamicShape,
           lambda rng, dt: (sample(rng, dt, 2, 0, 3),),
           lambda x: np.array(x.shape, np.int32), ANY),
    OpCase("DynamicShape/0d", "DynamicShape", P.DynamicShape,
           lambda rng, dt: (sample(rng, dt),), lambda x: np.zeros(0, np.int32), ANY),
]
