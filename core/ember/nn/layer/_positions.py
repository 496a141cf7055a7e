"""Layers that move elements (padding, rolling, patches) pick them with one Gather from
positions computed on the host for the static shape, so they are differentiable for free."""

from __future__ import annotations

import numpy as np

from ember.common.tensor import Tensor
from ember.ops import functional as F


def positions_of(shape: tuple[int, ...]) -> np.ndarray:
    """The flat position of every element of a tensor of ``shape``."""
    return np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)


def take(x: Tensor, positions: np.ndarray) -> Tensor:
    """A tensor of ``positions.shape`` whose elements are ``x``'s at those flat positions;
    a position of -1 gives 0."""
    flat = F.reshape(x, (-1,))
    if (positions < 0).any():
        flat = F.concat((flat, F.zeros_like(flat[:1]) if x.size else F.fill(x.dtype, (1,), 0)))
        positions = np.where(positions < 0, x.size, positions)
    return F.reshape(F.gather(flat, Tensor(positions.reshape(-1)), 0), positions.shape)
