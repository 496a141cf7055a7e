"""Cases for ``ember.ops.operations.dropout_ops`` whose result is certain: channel dropout and
packed masks with ``keep_prob`` 1 (everything kept) or 0 (nothing kept), and DropoutDoMask on
given masks. References read the mask bit by bit (element ``i`` at bit ``i % 8`` of byte
``i // 8``) rather than unpacking it as the kernels do."""

from __future__ import annotations

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, INTS, OpCase
from ember.testing.cases.array import sample

F64 = np.float64


def _channels(prim: str, keep: float, *shape: int) -> OpCase:
    def reference(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x * keep).astype(x.dtype), np.full(x.shape, bool(keep))

    return OpCase(f"{prim}/keep-{keep:g}", prim, lambda: getattr(P, prim)(keep),
                  lambda rng, dt: (sample(rng, dt, *shape),), reference, (*FLOATS, *INTS),
                  grad=(0,))


def _gen_mask(keep: float, shape: tuple[int, ...], keep_tensor: bool) -> OpCase:
    blocks = -(-int(np.prod(shape)) // 128)  # 128 bits, 16 bytes, a block

    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        return shape, (np.array(keep, dt) if keep_tensor else keep)

    label = f"keep-{keep:g}-{'tensor' if keep_tensor else 'float'}-{len(shape)}d"
    return OpCase(f"DropoutGenMask/{label}", "DropoutGenMask", lambda: P.DropoutGenMask(3, 5),
                  inputs, lambda *_: np.full(16 * blocks, 255 if keep else 0, np.uint8),
                  (np.float16, np.float32))


def _do_mask(x: np.ndarray, mask: np.ndarray, keep: float | np.ndarray) -> np.ndarray:
    flat = x.reshape(-1).astype(F64)
    out = np.zeros_like(flat)
    keep = float(keep)
    for i in range(flat.size):
        if (int(mask[i // 8]) >> (i % 8)) & 1:
            out[i] = flat[i] / keep
    return out.reshape(x.shape).astype(x.dtype)


def _mask_inputs(keep: float, keep_tensor: bool, *shape: int):
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        mask = rng.integers(0, 256, 16 * -(-int(np.prod(shape)) // 128)).astype(np.uint8)
        keep_prob = np.array(keep, F64 if dt == F64 else np.float32) if keep_tensor else keep
        return sample(rng, dt, *shape), mask, keep_prob

    return inputs


CASES: list[OpCase] = [
    _channels("Dropout2D", 1.0, 2, 3, 2, 2),
    _channels("Dropout2D", 0.0, 2, 3, 2, 2),
    _channels("Dropout3D", 1.0, 2, 2, 2, 1, 3),
    _channels("Dropout3D", 0.0, 1, 2, 2, 1, 3),
    _gen_mask(1.0, (3, 50), keep_tensor=True),
    _gen_mask(0.0, (2, 64), keep_tensor=False),
    _gen_mask(1.0, (7,), keep_tensor=False),
    OpCase("DropoutDoMask/keep-0.5", "DropoutDoMask", P.DropoutDoMask,
           _mask_inputs(0.5, False, 3, 5, 2), _do_mask, (*FLOATS, np.int32), grad=(0,)),
    OpCase("DropoutDoMask/keep-tensor-150", "DropoutDoMask", P.DropoutDoMask,
           _mask_inputs(0.8, True, 3, 50), _do_mask, FLOATS, grad=(0,)),
]
