"""Dropout variants of MindSpore 1.6 beside ``Dropout``: whole channels (``Dropout2D``,
``Dropout3D``) and the older two-step form, a packed bit mask drawn by ``DropoutGenMask`` and
applied by ``DropoutDoMask``.

The packed mask holds one bit per element of the flattened input, element ``i`` at bit
``i % 8`` (least significant first) of byte ``i // 8``, padded to whole 128-bit blocks: a mask
for ``n`` elements is uint8 of shape ``(ceil(n / 128) * 16,)``, as MindSpore's. Draws are
seeded as ``ember.ops.operations.random_ops`` seeds them (``pure = False``).
"""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import _ints
from ember.ops.operations.nn_ops import _check_fraction, _check_int
from ember.ops.primitive import Primitive, Spec

__all__ = ["Dropout2D", "Dropout3D", "DropoutDoMask", "DropoutGenMask"]

_BLOCK_BITS = 128


class _ChannelDropout(Primitive):
    """Zeroes each (sample, channel) map of ``x`` with probability ``1 - keep_prob`` and scales
    the rest by ``1 / keep_prob``: ``<Op>(keep_prob=0.5)(x)`` -> (output of x's dtype, bool mask
    of x's shape). Drawn with the global seed (it has no seeds of its own)."""

    pure = False
    bprop_reads_inputs = False
    rank = 0

    def __init__(self, keep_prob: float = 0.5) -> None:
        super().__init__()
        self.keep_prob = _check_fraction(self.name, "keep_prob", keep_prob, zero_ok=True)

    @property
    def seeds(self) -> tuple[int, int]:
        """The seed pair kernels draw with: none of its own, so the global seed alone."""
        return 0, 0

    def infer(self, x: Any) -> list[Spec]:
        check_tensor(self.name, "x", x, mstype.int_type + mstype.float_type)
        if x.ndim != self.rank:
            raise ValueError(f"{self.name}: x must be {self.rank}-d, but got shape "
                             f"{list(x.shape)}")
        return [(x.shape, x.dtype), (x.shape, mstype.bool_)]

    def bprop(self, x: Tensor, out: tuple, dout: tuple) -> tuple:
        kept = F.cast(out[1], dout[0].dtype)
        if self.keep_prob:
            kept = F.mul(kept, Tensor(1 / self.keep_prob, dout[0].dtype))
        return (F.mul(dout[0], kept),)


class Dropout2D(_ChannelDropout):
    """Channel dropout of a 4-d NCHW ``x``."""

    rank = 4


class Dropout3D(_ChannelDropout):
    """Channel dropout of a 5-d NCDHW ``x``."""

    rank = 5


def _keep_prob(op: str, keep_prob: Any) -> None:
    """A float in [0, 1] or a 0-d float Tensor (whose value is checked by the kernel)."""
    if isinstance(keep_prob, Tensor):
        check_tensor(op, "keep_prob", keep_prob, mstype.float_type)
        if keep_prob.ndim:
            raise ValueError(f"{op}: keep_prob must be a 0-d Tensor, but got shape "
                             f"{list(keep_prob.shape)}")
    else:
        _check_fraction(op, "keep_prob", keep_prob, zero_ok=True)


def mask_bytes(count: int) -> int:
    """The length of a packed mask for ``count`` elements: whole 128-bit blocks."""
    return -(-count // _BLOCK_BITS) * _BLOCK_BITS // 8


class DropoutGenMask(Primitive):
    """A packed mask for a tensor of ``shape``, each bit 1 with probability ``keep_prob``:
    ``DropoutGenMask(Seed0=0, Seed1=0)(shape, keep_prob)`` -> uint8. MindSpore 1.6 keeps it
    for older scripts; ``Dropout`` draws and applies its mask in one step."""

    pure = False

    def __init__(self, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803 (MindSpore's)
        super().__init__()
        self.seed0 = _check_int(self.name, "Seed0", Seed0, 0)
        self.seed1 = _check_int(self.name, "Seed1", Seed1, 0)

    @property
    def seeds(self) -> tuple[int, int]:
        return self.seed0, self.seed1

    def infer(self, shape: Any, keep_prob: Any) -> Spec:
        shape = _ints(self.name, "shape", shape)
        if not shape or min(shape) < 1:
            raise ValueError(f"{self.name}: shape must hold positive ints, but got "
                             f"{list(shape)}")
        _keep_prob(self.name, keep_prob)
        return (mask_bytes(math.prod(shape)),), mstype.uint8

    def bprop(self, shape: Any, keep_prob: Any, out: Tensor, dout: Tensor) -> tuple:
        return None, None


class DropoutDoMask(Primitive):
    """``x`` where its bit of the packed ``mask`` is 1, scaled by ``1 / keep_prob``, else 0:
    ``DropoutDoMask()(x, mask, keep_prob)``, ``keep_prob`` a float or a 0-d float Tensor."""

    bprop_reads_out = False

    def infer(self, x: Any, mask: Any, keep_prob: Any) -> Spec:
        check_tensor(self.name, "x", x, (mstype.int32, *mstype.float_type))
        check_tensor(self.name, "mask", mask, (mstype.uint8,))
        if mask.ndim != 1 or mask.shape[0] * 8 < math.prod(x.shape):
            raise ValueError(f"{self.name}: mask must be 1-d with a bit for each of the "
                             f"{math.prod(x.shape)} elements of x, but got shape "
                             f"{list(mask.shape)}")
        _keep_prob(self.name, keep_prob)
        return x.shape, x.dtype

    def bprop(self, x: Tensor, mask: Tensor, keep_prob: Any, out: Tensor,
              dout: Tensor) -> tuple:
        return self(dout, mask, keep_prob), None, None
