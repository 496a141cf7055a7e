"""MindSpore's printed form of a tensor: ``Tensor(shape=[], dtype=Float32, value= 2)``.

Arrays print as MindSpore 1.6's C++ printer does: floats in scientific notation (width 15 and
8 digits; float16 width 11 and 4 digits), booleans right-aligned in 5 characters, integers padded
to the widest one shown; dimensions longer than 6 show their first and last 3 items around
``...`` (the innermost one only when the tensor has more than one dimension); a 1-D tensor
breaks its line every 12 floats or booleans, 24 integers.
``repr`` separates items with commas, ``ops.Print`` with spaces only.
"""

from __future__ import annotations

import re

import numpy as np

from ember.common import dtype as mstype

_THRESHOLD = 6


def _scalar(value: np.generic) -> str:
    if isinstance(value, np.floating):
        return f"{float(value):g}"  # C++ stream formatting: 6 significant digits
    return str(value.item())


def _items(array: np.ndarray) -> tuple[list[str], int]:
    """Every element as text (integers unpadded) and the line-feed period of a 1-D tensor."""
    flat = array.reshape(-1)
    if array.dtype == np.float16:
        return [f"{float(v):11.4e}" for v in flat], 2 * _THRESHOLD
    if array.dtype.kind == "f":
        return [f"{float(v):15.8e}" for v in flat], 2 * _THRESHOLD
    if array.dtype.kind == "b":
        return [f"{'True' if v else 'False':>5}" for v in flat], 2 * _THRESHOLD
    return [f"\0{int(v)}\1" for v in flat], 4 * _THRESHOLD  # padded once all are placed


def _row(texts: list[str], start: int, indices: list[int], sep: str, feed: int | None) -> str:
    out = ""
    for n, i in enumerate(indices):
        out += texts[start + i]
        if n != len(indices) - 1:
            out += sep + " "
        if feed and (i + 1) % feed == 0:
            out += "\n "
    return out


def _block(texts: list[str], shape: tuple[int, ...], start: int, depth: int, sep: str,
           feed: int | None) -> str:
    n = shape[depth]
    stride = int(np.prod(shape[depth + 1:], dtype=np.int64))
    if depth == len(shape) - 1:
        if n > _THRESHOLD and len(shape) > 1:
            half = _THRESHOLD // 2
            return ("[" + _row(texts, start, list(range(half)), sep, None) + " ... "
                    + _row(texts, start, list(range(n - half, n)), sep, None) + "]")
        return "[" + _row(texts, start, list(range(n)), sep, feed) + "]"
    join = sep + "\n" + " " * (depth + 1)
    half = _THRESHOLD // 2
    shown = range(n) if n <= _THRESHOLD else [*range(half), *range(n - half, n)]
    rows = [_block(texts, shape, start + i * stride, depth + 1, sep, feed) for i in shown]
    if n <= _THRESHOLD:
        return "[" + join.join(rows) + "]"
    # no separator right after the "..." line
    return ("[" + join.join(rows[:half]) + join + "..." + join[len(sep):]
            + join.join(rows[half:]) + "]")


def array_text(array: np.ndarray, comma: bool = True) -> str:
    """The values of a tensor of rank >= 1, as MindSpore prints them."""
    if array.size == 0:
        return ""
    texts, feed = _items(array)
    text = _block(texts, array.shape, 0, 0, "," if comma else "", feed if array.ndim == 1 else None)
    if "\0" not in text:
        return text
    shown = re.findall("\0([^\1]*)\1", text)  # integers pad to the widest one shown
    width = max(map(len, shown))
    return re.sub("\0([^\1]*)\1", lambda m: m.group(1).rjust(width), text)


def tensor_repr(array: np.ndarray, dtype: mstype.Type, comma: bool = True) -> str:
    """The ``repr`` MindSpore gives a tensor of these values and this dtype (``ops.Print``'s
    form without commas)."""
    head = f"Tensor(shape={list(array.shape)}, dtype={dtype}, value="
    if array.ndim == 0:
        return f"{head} {_scalar(array[()])})"
    return f"{head}{chr(10) if array.ndim > 1 else ' '}{array_text(array, comma)})"
