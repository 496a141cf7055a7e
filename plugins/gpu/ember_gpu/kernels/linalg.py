"""Matrix inverses, outer products and evenly spaced sequences on TensorFlow."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_gpu.kernels.math import Factory, Kernel, raw


def _matrix_inverse(prim: Any) -> Kernel:
    adjoint = prim.adjoint
    return lambda x: raw.MatrixInverse(input=x, adjoint=adjoint)


def _linspace(start: Any, stop: Any, num: int) -> Any:
    return raw.LinSpace(start=start, stop=stop, num=np.int32(num))


KERNELS: dict[str, Factory] = {
    "MatrixInverse": _matrix_inverse,
    "LinSpace": lambda p: _linspace,
    "Ger": lambda p: lambda x1, x2: raw.Mul(x=x1[:, None], y=x2[None, :]),
}
