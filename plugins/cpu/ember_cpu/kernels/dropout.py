"""Dropout2D/3D and the packed-mask DropoutGenMask/DropoutDoMask on NumPy, drawn from one
generator per primitive (``_OpGenerator``) as Dropout draws."""

from __future__ import annotations

import math

import numpy as np

from ember.ops.operations.dropout_ops import mask_bytes
from ember_cpu.kernels.nn import _OpGenerator


def _scale(keep):
    keep = float(keep)
    return 1 / keep if keep else 0.0


def _channel_dropout(prim):
    scale, generator = _scale(prim.keep_prob), _OpGenerator(*prim.seeds)

    def kernel(x):
        kept = generator().random(x.shape[:2], dtype=np.float32) < prim.keep_prob
        mask = np.broadcast_to(kept.reshape(kept.shape + (1,) * (x.ndim - 2)), x.shape)
        return (x * (mask * scale)).astype(x.dtype), mask.copy()

    return kernel


def _gen_mask(prim):
    generator = _OpGenerator(*prim.seeds)

    def kernel(shape, keep_prob):
        draws = generator().random(mask_bytes(math.prod(shape)) * 8, dtype=np.float32)
        return np.packbits(draws < float(keep_prob), bitorder="little")

    return kernel


def _do_mask(x, mask, keep_prob):
    bits = np.unpackbits(mask, count=x.size, bitorder="little").reshape(x.shape)
    return (x * (bits * _scale(keep_prob))).astype(x.dtype)


KERNELS = {
    "Dropout2D": _channel_dropout,
    "Dropout3D": _channel_dropout,
    "DropoutGenMask": _gen_mask,
    "DropoutDoMask": lambda p: _do_mask,
}
