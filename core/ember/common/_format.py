"""MindSpore's printed form of a tensor: ``Tensor(shape=[], dtype=Float32, value= 2)``."""

from __future__ import annotations

import numpy as np

from ember.common import dtype as mstype


def _scalar(value: np.generic) -> str:
    if isinstance(value, np.floating):
        return f"{float(value):g}"  # C++ stream formatting: 6 significant digits
    return str(value.item())


def _element(value: np.generic) -> str:
    if isinstance(value, np.floating):
        return f"{float(value): .8e}"
    return str(value.item())


def tensor_repr(array: np.ndarray, dtype: mstype.Type) -> str:
    """The ``repr`` MindSpore gives a tensor of these values and this dtype."""
    head = f"Tensor(shape={list(array.shape)}, dtype={dtype}, value="
    if array.ndim == 0:
        return f"{head} {_scalar(array[()])})"
    body = np.array2string(array, separator=", ", formatter={"all": _element},
                           threshold=1000, max_line_width=10**6)
    if array.ndim > 2:  # NumPy separates blocks with blank lines; MindSpore does not
        body = "\n".join(line for line in body.split("\n") if line.strip())
    return f"{head}{' ' if array.ndim == 1 else chr(10)}{body})"
