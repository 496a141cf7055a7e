"""Cases for ``ember.ops.operations.layout_ops``. References index element by element, or
write the rearrangement out with NumPy slicing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.ops import operations as P
from ember.testing.cases import FLOATS, INTS, OpCase
from ember.testing.cases.array import ANY, NUMBERS, _joined, index, sample


def _reverse_sequence(seq_dim: int, batch_dim: int) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        out = x.copy()
        for at in np.ndindex(x.shape):
            length, s = lengths[at[batch_dim]], at[seq_dim]
            if s < length:
                source = list(at)
                source[seq_dim] = length - 1 - s
                out[at] = x[tuple(source)]
        return out

    return reference


def _sort(descending: bool) -> Callable[..., tuple]:
    """Sort along the last axis: rows sorted by (value, position), the key that makes ties keep
    their order."""

    def reference(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values, order = np.empty_like(x), np.empty(x.shape, np.int32)
        for row in np.ndindex(x.shape[:-1]):
            keyed = sorted(range(x.shape[-1]), key=lambda j: (
                -x[row][j] if descending else x[row][j], j))
            order[row] = keyed
            values[row] = x[row][keyed]
        return values, order

    return reference


def _space_to_depth(b: int) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        n, c, h, w = x.shape
        out = np.empty((n, c * b * b, h // b, w // b), x.dtype)
        for i, j in np.ndindex(b, b):
            out[:, (i * b + j) * c:(i * b + j + 1) * c] = x[:, :, i::b, j::b]
        return out

    return reference


def _depth_to_space(b: int) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        n, c, h, w = x.shape
        c //= b * b
        out = np.empty((n, c, h * b, w * b), x.dtype)
        for i, j in np.ndindex(b, b):
            out[:, :, i::b, j::b] = x[:, (i * b + j) * c:(i * b + j + 1) * c]
        return out

    return reference


def _space_to_batch(block: tuple, pads: tuple) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        padded = np.pad(x, ((0, 0), (0, 0), *pads))
        return np.concatenate([padded[:, :, i::block[0], j::block[1]]
                               for i in range(block[0]) for j in range(block[1])])

    return reference


def _batch_to_space(block: tuple, crops: tuple) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        blocks = block[0] * block[1]
        n, c, h, w = x.shape
        full = np.empty((n // blocks, c, h * block[0], w * block[1]), x.dtype)
        for k, (i, j) in enumerate(np.ndindex(*block)):
            full[:, :, i::block[0], j::block[1]] = x[k * (n // blocks):(k + 1) * (n // blocks)]
        (top, bottom), (left, right) = crops
        return full[:, :, top:full.shape[2] - bottom, left:full.shape[3] - right]

    return reference


def _meshgrid(indexing: str) -> Callable[..., tuple]:
    def reference(*xs: np.ndarray) -> tuple:
        shape = [len(x) for x in xs]
        if indexing == "xy":
            shape[0], shape[1] = shape[1], shape[0]
        outs = []
        for i, x in enumerate(xs):
            axis = (1 - i if i < 2 else i) if indexing == "xy" else i
            view = [1] * len(xs)
            view[axis] = len(x)
            outs.append(np.broadcast_to(x.reshape(view), shape).copy())
        return tuple(outs)

    return reference


def _diag(x: np.ndarray) -> np.ndarray:
    out = np.zeros(x.shape + x.shape, x.dtype)
    for at in np.ndindex(x.shape):
        out[at + at] = x[at]
    return out


def _diag_part(x: np.ndarray) -> np.ndarray:
    half = x.shape[:x.ndim // 2]
    out = np.empty(half, x.dtype)
    for at in np.ndindex(half):
        out[at] = x[at + at]
    return out


def _masked_fill(x: np.ndarray, mask: np.ndarray, value: Any) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    out = np.broadcast_to(x, shape).copy()
    out[np.broadcast_to(mask, shape)] = value
    return out


def _block_case(prim: str, label: str, make: Callable, shape: tuple,
                reference: Callable) -> OpCase:
    return OpCase(f"{prim}/{label}", prim, make, lambda rng, dt: (sample(rng, dt, *shape),),
                  reference, ANY, grad=(0,))


CASES: list[OpCase] = [
    OpCase("ReverseV2/two-axes", "ReverseV2", lambda: P.ReverseV2((0, -1)),
           lambda rng, dt: (sample(rng, dt, 2, 3, 4),), lambda x: x[::-1, :, ::-1], ANY,
           grad=(0,)),
    OpCase("ReverseV2/no-axes", "ReverseV2", lambda: P.ReverseV2([]),
           lambda rng, dt: (sample(rng, dt, 3),), lambda x: x.copy(), ANY),
    OpCase("ReverseSequence/seq1-batch0", "ReverseSequence", lambda: P.ReverseSequence(1),
           lambda rng, dt: (sample(rng, dt, 3, 4, 2), index(1, 4, 2)),
           _reverse_sequence(1, 0), ANY, grad=(0,)),
    OpCase("ReverseSequence/seq0-batch2", "ReverseSequence", lambda: P.ReverseSequence(0, 2),
           lambda rng, dt: (sample(rng, dt, 3, 2, 2), index(3, 0, dtype=np.int64)),
           _reverse_sequence(0, 2), ANY, grad=(0,)),
    OpCase("Sort/last-axis", "Sort", P.Sort,
           lambda rng, dt: (sample(rng, dt, 3, 5),), _sort(False), NUMBERS, grad=(0,)),
    OpCase("Sort/descending-ties", "Sort", lambda: P.Sort(descending=True),
           lambda rng, dt: (np.array([[2, 1, 2, 0, 1], [3, 3, 3, 1, 3]], dt),),
           _sort(True), NUMBERS),
    OpCase("Sort/axis0", "Sort", lambda: P.Sort(0),
           lambda rng, dt: (sample(rng, dt, 4, 2),),
           lambda x: tuple(np.swapaxes(a, 0, 1) for a in _sort(False)(x.T)), NUMBERS,
           grad=(0,)),
    _block_case("SpaceToDepth", "block2", lambda: P.SpaceToDepth(2), (2, 3, 4, 6),
                _space_to_depth(2)),
    _block_case("DepthToSpace", "block2", lambda: P.DepthToSpace(2), (2, 8, 2, 3),
                _depth_to_space(2)),
    _block_case("SpaceToBatchND", "padded", lambda: P.SpaceToBatchND((2, 3), ((1, 1), (0, 2))),
                (2, 2, 4, 4), _space_to_batch((2, 3), ((1, 1), (0, 2)))),
    _block_case("BatchToSpaceND", "cropped", lambda: P.BatchToSpaceND(2, [[0, 1], [1, 0]]),
                (8, 1, 2, 3), _batch_to_space((2, 2), ((0, 1), (1, 0)))),
    _block_case("SpaceToBatch", "padded", lambda: P.SpaceToBatch(2, [[0, 0], [1, 1]]),
                (1, 2, 2, 2), _space_to_batch((2, 2), ((0, 0), (1, 1)))),
    _block_case("BatchToSpace", "cropped", lambda: P.BatchToSpace(3, ((1, 0), (0, 2))),
                (9, 2, 1, 2), _batch_to_space((3, 3), ((1, 0), (0, 2)))),
    # MindSpore's docstring example: [1, -1] along dimension 1 of a 3x3
    OpCase("SplitV/docstring-inferred", "SplitV", lambda: P.SplitV([1, -1], 1, 2),
           lambda rng, dt: (np.arange(1, 10).reshape(3, 3).astype(dt),),
           lambda x: (np.array([[1], [4], [7]], x.dtype),
                      np.array([[2, 3], [5, 6], [8, 9]], x.dtype)), NUMBERS),
    OpCase("SplitV/negative-dim", "SplitV", lambda: P.SplitV((2, 1, 3), -1, 3),
           lambda rng, dt: (sample(rng, dt, 2, 2, 6),),
           lambda x: (x[..., 0:2], x[..., 2:3], x[..., 3:6]), ANY, grad=(0,)),
    OpCase("Unstack/axis1", "Unstack", lambda: P.Unstack(1),
           lambda rng, dt: (sample(rng, dt, 2, 3, 4),),
           lambda x: tuple(x[:, i] for i in range(3)), ANY, grad=(0,)),
    OpCase("Unpack/last-axis", "Unpack", lambda: P.Unpack(-1),
           lambda rng, dt: (sample(rng, dt, 2, 2),), lambda x: (x[:, 0], x[:, 1]), ANY,
           grad=(0,)),
    OpCase("Meshgrid/xy", "Meshgrid", lambda: _joined(P.Meshgrid()),
           lambda rng, dt: (sample(rng, dt, 2), sample(rng, dt, 3), sample(rng, dt, 4)),
           _meshgrid("xy"), ANY, grad=(0, 1, 2)),
    OpCase("Meshgrid/ij", "Meshgrid", lambda: _joined(P.Meshgrid("ij")),
           lambda rng, dt: (sample(rng, dt, 2), sample(rng, dt, 3)),
           _meshgrid("ij"), ANY, grad=(0, 1)),
    OpCase("Eye/wide", "Eye", P.Eye,
           lambda rng, dt: (2, 3, mstype.from_numpy(dt)),
           lambda n, m, t: np.array([[1, 0, 0], [0, 1, 0]], t.np_dtype), ANY),
    OpCase("Diag/2d", "Diag", P.Diag, lambda rng, dt: (sample(rng, dt, 2, 3),), _diag, NUMBERS,
           grad=(0,)),
    OpCase("DiagPart/2d", "DiagPart", P.DiagPart,
           lambda rng, dt: (sample(rng, dt, 2, 3, 2, 3),), _diag_part, NUMBERS, grad=(0,)),
    OpCase("MaskedFill/broadcast-mask", "MaskedFill", P.MaskedFill,
           lambda rng, dt: (sample(rng, dt, 2, 3), sample(rng, np.bool_, 3), sample(rng, dt)),
           _masked_fill, ANY, grad=(0, 2)),
    OpCase("MaskedFill/broadcast-input", "MaskedFill", P.MaskedFill,
           lambda rng, dt: (sample(rng, dt, 1, 3), sample(rng, np.bool_, 2, 3), sample(rng, dt)),
           _masked_fill, FLOATS + INTS, grad=(0, 2)),
    OpCase("Padding/to-4", "Padding", lambda: P.Padding(4),
           lambda rng, dt: (sample(rng, dt, 2, 1),),
           lambda x: np.hstack([x, np.zeros((2, 3), x.dtype)]), ANY, grad=(0,)),
]
