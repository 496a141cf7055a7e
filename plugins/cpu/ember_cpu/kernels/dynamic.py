"""Kernels of value-shaped primitives (Unique, MaskedSelect, ComputeAccidentalHits) and their
relatives on NumPy."""

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


KERNELS = {
    "Unique": lambda p: _unique_kernel,
    "UniqueWithPad": lambda p: _unique_with_pad,
    "MaskedSelect": lambda p: _masked_select,
    "MaskedSelectGrad": lambda p: _masked_select_grad,
    "NonZero": lambda p: lambda x: np.stack(np.nonzero(x), 0 if p.transpose else 1),
    "Range": lambda p: lambda start, limit, delta: np.arange(start, limit, delta, start.dtype),
    "DynamicShape": lambda p: lambda x: np.array(x.shape, np.int32),
    "ComputeAccidentalHits": lambda p: _accidental_hits,
}
