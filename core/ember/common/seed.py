"""The global seed: ``ember.set_seed`` makes initializers and random ops reproducible."""

from __future__ import annotations

import numpy as np

_global_seed: int | None = None
_generator = np.random.default_rng()


def set_seed(seed: int) -> None:
    """Seed every initializer and random operator, as ``mindspore.set_seed``."""
    global _global_seed, _generator
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, but got {seed!r}")
    _global_seed = seed
    _generator = np.random.default_rng(seed)


def get_seed() -> int | None:
    """The seed given to ``set_seed``, or None."""
    return _global_seed


def generator() -> np.random.Generator:
    """The process-wide generator initializers draw from (reseeded by ``set_seed``)."""
    return _generator


def op_generator(seed0: int = 0, seed1: int = 0) -> np.random.Generator:
    """A generator for a random primitive with seeds (Seed0, Seed1), as MindSpore combines them:
    fixed when either the global seed or the op's seeds are set, fresh entropy otherwise."""
    if _global_seed is None and seed0 == 0 and seed1 == 0:
        return np.random.default_rng()
    return np.random.default_rng([_global_seed or 0, seed0, seed1])
