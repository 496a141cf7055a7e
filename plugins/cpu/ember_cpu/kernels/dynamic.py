"""Kernels of value-shaped primitives (Unique, MaskedSelect, ComputeAccidentalHits,
NonMaxSuppressionV3, CTCGreedyDecoder) and their relatives on NumPy."""

from __future__ import annotations

import numpy as np


def _unique(x):
    """The distinct values in order of first appearance, and each element's position among
    them."""
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return values[order], rank[inverse.reshape(-1)]


def _unique_kernel(x):
    y, idx = _unique(x)
    return y, idx.astype(np.int32)


def _unique_with_pad(x, pad_num):
    y, idx = _unique(x)
    return np.concatenate([y, np.full(x.size - y.size, pad_num, x.dtype)]), idx.astype(x.dtype)


def _masked_select(x, mask):
    x, mask = np.broadcast_arrays(x, mask)
    return x[mask]


def _masked_select_grad(x, mask, grad):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    full = np.zeros(shape, grad.dtype)
    full[np.broadcast_to(mask, shape)] = grad
    lead = len(shape) - x.ndim
    axes = tuple(range(lead)) + tuple(lead + d for d, n in enumerate(x.shape)
                                      if n == 1 and shape[lead + d] != 1)
    return full.sum(axis=axes, dtype=full.dtype).reshape(x.shape) if axes else full


def _accidental_hits(true_classes, sampled):
    rows, _, ids = np.nonzero(true_classes[:, :, None] == sampled[None, None, :])
    return (rows.astype(true_classes.dtype), ids.astype(true_classes.dtype),
            np.full(rows.shape, np.finfo(np.float32).min, np.float32))


def _non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold):
    corners = boxes.astype(np.float64).reshape(-1, 2, 2)  # (y1, x1), (y2, x2)
    low, high = corners.min(axis=1), corners.max(axis=1)
    area = np.prod(high - low, axis=1)
    kept: list[int] = []
    for i in np.argsort(-scores.astype(np.float64), kind="stable"):
        if len(kept) >= max_output_size or not scores[i] > score_threshold:
            break
        if kept:
            inter = np.prod(np.clip(np.minimum(high[kept], high[i])
                                    - np.maximum(low[kept], low[i]), 0, None), axis=1)
            union = area[kept] + area[i] - inter
            iou = np.where((area[kept] > 0) & (area[i] > 0), inter / np.where(union, union, 1), 0)
            if (iou > iou_threshold).any():
                continue
        kept.append(int(i))
    return np.array(kept, max_output_size.dtype)


def _ctc_greedy_decoder(merge_repeated):
    def kernel(inputs, sequence_length):
        best = inputs.argmax(axis=2)  # (max_time, batch): the first of equal largest values
        top = inputs.max(axis=2)
        blank = inputs.shape[2] - 1
        decoded = []
        for b, length in enumerate(sequence_length.tolist()):
            classes = best[:length, b]
            keep = classes != blank
            if merge_repeated:
                keep[1:] &= classes[1:] != classes[:-1]
            decoded.append(classes[keep])
        longest = max((len(d) for d in decoded), default=0)
        indices = [(b, t) for b, d in enumerate(decoded) for t in range(len(d))]
        steps = np.arange(inputs.shape[0])[:, None] < sequence_length[None, :]
        log_prob = -np.where(steps, top, 0).sum(axis=0, dtype=inputs.dtype)
        return (np.array(indices, np.int64).reshape(-1, 2),
                np.concatenate([np.zeros(0, np.int64), *decoded]).astype(np.int64),
                np.array([inputs.shape[1], longest], np.int64), log_prob[:, None])

    return kernel


KERNELS = {
    "Unique": lambda p: _unique_kernel,
    "UniqueWithPad": lambda p: _unique_with_pad,
    "MaskedSelect": lambda p: _masked_select,
    "MaskedSelectGrad": lambda p: _masked_select_grad,
    "NonZero": lambda p: lambda x: np.stack(np.nonzero(x), 0 if p.transpose else 1),
    "Range": lambda p: lambda start, limit, delta: np.arange(start, limit, delta, start.dtype),
    "DynamicShape": lambda p: lambda x: np.array(x.shape, np.int32),
    "ComputeAccidentalHits": lambda p: _accidental_hits,
    "NonMaxSuppressionV3": lambda p: _non_max_suppression,
    "CTCGreedyDecoder": lambda p: _ctc_greedy_decoder(p.merge_repeated),
}
