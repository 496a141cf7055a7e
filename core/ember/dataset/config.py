"""Dataset configuration, as ``mindspore.dataset.config``: the seed of the data pipeline.

Random dataset operations (``shuffle``, shuffled sources) draw one seed each time an iterator is
created, from the generator ``set_seed`` starts here or, when that was never called, from
``ember.set_seed``'s global generator. The same seeds and the same program give the same order;
each new iterator, and each epoch of one iterator, gets a fresh order, as in MindSpore.
"""

from __future__ import annotations

import random

import numpy as np

from ember.common import seed as _global_seed
from ember.dataset import _checks
from ember.dataset._checks import check_int

_UINT32_MAX = 2**32 - 1
_seed: int | None = None
_generator: np.random.Generator | None = None


def set_seed(seed: int) -> None:
    """Seed the data pipeline (and, as MindSpore does, Python's ``random`` and ``numpy.random``
    for deterministic Python transforms)."""
    global _seed, _generator
    check_int(seed, "dataset.config.set_seed", "seed", minimum=0)
    if seed > _UINT32_MAX:
        raise ValueError(f"dataset.config.set_seed: seed must be at most {_UINT32_MAX}, "
                         f"but got {seed}")
    random.seed(seed)
    np.random.seed(seed)
    _seed = seed
    _generator = np.random.default_rng(seed)


#: What ``get_seed`` answers when no seed was set, as MindSpore's: ``std::mt19937``'s default
#: seed (the pipeline's orders then still differ from run to run).
DEFAULT_SEED = 5489


def seed_in_effect() -> int | None:
    """The dataset seed from ``set_seed``, else ``ember.get_seed()``; None when neither is
    set."""
    return _seed if _seed is not None else _global_seed.get_seed()


def get_seed() -> int:
    """The seed in effect (``seed_in_effect``), else ``DEFAULT_SEED``."""
    seed = seed_in_effect()
    return DEFAULT_SEED if seed is None else seed


def iterator_seed() -> int:
    """A seed for one new iterator, drawn from the dataset generator or ember's global one."""
    generator = _generator if _generator is not None else _global_seed.generator()
    return int(generator.integers(2**63))


def set_num_parallel_workers(num: int) -> None:
    """The workers of dataset operations and readers given ``num_parallel_workers=None``.

    The default is 1, not MindSpore's 8: ember's workers are threads, which pay off for
    NumPy-heavy operations only, and one worker keeps random Python transforms reproducible.
    """
    _checks._default_workers = check_int(num, "dataset.config.set_num_parallel_workers", "num",
                                         minimum=1)
    _checks._workers_set = True


def get_num_parallel_workers() -> int:
    """The workers used where ``num_parallel_workers`` is None (see set_num_parallel_workers)."""
    return _checks._default_workers
