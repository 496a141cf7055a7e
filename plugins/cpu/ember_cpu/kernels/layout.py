"""More layout kernels on NumPy: reversing, sorting, space/depth/batch blocks (NCHW),
unstacking, grids, diagonals, masked filling and padding."""

from __future__ import annotations

import numpy as np


def _reverse_sequence(prim):
    seq_dim, batch_dim = prim.seq_dim, prim.batch_dim

    def kernel(x, seq_lengths):
        out = x.copy()
        for b, length in enumerate(seq_lengths.tolist()):
            at = [slice(None)] * x.ndim
            at[batch_dim], at[seq_dim] = b, slice(0, length)
            out[tuple(at)] = np.flip(x[tuple(at)], seq_dim - (seq_dim > batch_dim))
        return out

    return kernel


def _sort(prim):
    axis, descending = prim.axis, prim.descending

    def kernel(x):
        if descending:  # stable: ties keep their order
            flipped = np.flip(x, axis)
            order = x.shape[axis] - 1 - np.flip(np.argsort(flipped, axis, kind="stable"), axis)
        else:
            order = np.argsort(x, axis, kind="stable")
        return np.take_along_axis(x, order, axis), order.astype(np.int32)

    return kernel


def _space_to_depth(prim):
    b = prim.block_size

    def kernel(x):
        n, c, h, w = x.shape
        blocks = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
        return blocks.reshape(n, c * b * b, h // b, w // b)

    return kernel


def _depth_to_space(prim):
    b = prim.block_size

    def kernel(x):
        n, c, h, w = x.shape
        blocks = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
        return blocks.reshape(n, c // (b * b), h * b, w * b)

    return kernel


def _space_to_batch(prim):
    (bh, bw), pads = prim.block_shape, ((0, 0), (0, 0), *prim.paddings)

    def kernel(x):
        x = np.pad(x, pads)
        n, c, h, w = x.shape
        blocks = x.reshape(n, c, h // bh, bh, w // bw, bw).transpose(3, 5, 0, 1, 2, 4)
        return blocks.reshape(bh * bw * n, c, h // bh, w // bw)

    return kernel


def _batch_to_space(prim):
    (bh, bw), ((top, bottom), (left, right)) = prim.block_shape, prim.crops

    def kernel(x):
        n, c, h, w = x.shape
        n //= bh * bw
        full = x.reshape(bh, bw, n, c, h, w).transpose(2, 3, 4, 0, 5, 1)
        full = full.reshape(n, c, h * bh, w * bw)
        return np.ascontiguousarray(full[:, :, top:h * bh - bottom, left:w * bw - right])

    return kernel


def _diag(x):
    out = np.zeros((x.size, x.size), x.dtype)
    np.fill_diagonal(out, x.reshape(-1))
    return out.reshape(x.shape + x.shape)


def _diag_part(x):
    half = x.shape[:x.ndim // 2]
    size = int(np.prod(half))
    return np.ascontiguousarray(np.diagonal(x.reshape(size, size))).reshape(half)


def _masked_fill(x, mask, value):
    return np.where(mask, value, x)


def _padding(prim):
    size = prim.pad_dim_size

    def kernel(x):
        out = np.zeros(x.shape[:-1] + (size,), x.dtype)
        out[..., :1] = x
        return out

    return kernel


def _split_v(prim):
    def kernel(x):
        dim = prim.split_dim % x.ndim
        return tuple(np.split(x, np.cumsum(prim.sizes(x.shape[dim]))[:-1], axis=dim))

    return kernel


KERNELS = {
    "ReverseV2": lambda p: lambda x: np.flip(x, p.axis).copy(),
    "ReverseSequence": _reverse_sequence,
    "Sort": _sort,
    "SpaceToDepth": _space_to_depth,
    "DepthToSpace": _depth_to_space,
    "SpaceToBatchND": _space_to_batch,
    "BatchToSpaceND": _batch_to_space,
    "SpaceToBatch": _space_to_batch,
    "BatchToSpace": _batch_to_space,
    "SplitV": _split_v,
    "Unstack": lambda p: lambda x: tuple(np.moveaxis(x, p.axis, 0).copy()),
    "Unpack": lambda p: lambda x: tuple(np.moveaxis(x, p.axis, 0).copy()),
    "Meshgrid": lambda p: lambda *xs: tuple(np.meshgrid(*xs, indexing=p.indexing)),
    "Eye": lambda p: lambda n, m, t: np.eye(n, m, dtype=t.np_dtype),
    "Diag": lambda p: _diag,
    "DiagPart": lambda p: _diag_part,
    "MaskedFill": lambda p: _masked_fill,
    "Padding": _padding,
}
