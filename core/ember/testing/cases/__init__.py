"""The conformance kit's table of primitive cases: every backend runs the same table.

A case names one primitive configuration, how to make its inputs for a dtype, and a NumPy
reference that computes the expected outputs from the same inputs. The kit runs each case on
the backend under test in PyNative mode (against the reference), in Graph mode (against
PyNative) and, where ``grad`` holds, checks the backward rules by finite differences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

FLOATS = (np.float16, np.float32, np.float64)
INTS = (np.int32, np.int64)

#: Default (rtol, atol) per dtype for comparing a backend's result with the reference.
TOLERANCE = {np.float16: (2e-3, 2e-3), np.float32: (1e-5, 1e-6), np.float64: (1e-10, 1e-12)}


@dataclass(frozen=True)
class OpCase:
    """One primitive configuration with inputs and a NumPy reference.

    ``make()`` builds the primitive (e.g. ``lambda: P.ReduceSum(keep_dims=True)``).
    ``inputs(rng, dtype)`` returns the call's arguments: NumPy arrays become Tensors, other
    values (axes, shapes) are passed as they are. ``reference(*inputs)`` returns the expected
    output(s) as NumPy arrays (a tuple for several outputs); its dtype is what the primitive
    must return. ``grad`` lists the argument positions whose gradient is checked by finite
    differences (in float64), empty for none. ``graph`` is False for a primitive whose output
    shape depends on input values: Graph mode must refuse it with a RuntimeError naming it.
    """

    id: str
    primitive: str
    make: Callable[[], Any]
    inputs: Callable[[np.random.Generator, type], tuple]
    reference: Callable[..., Any]
    dtypes: tuple[type, ...] = FLOATS
    grad: tuple[int, ...] = ()
    tolerance: dict[type, tuple[float, float]] = field(default_factory=dict)
    graph: bool = True

    def tol(self, dtype: type) -> tuple[float, float]:
        return self.tolerance.get(dtype) or TOLERANCE.get(dtype, (0.0, 0.0))
