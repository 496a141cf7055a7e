"""Dtypes and constants of ``mindspore.numpy``: Python ``int``/``float`` map to 32 bits."""

from __future__ import annotations

from ember.common.dtype import (  # noqa: F401
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)

inf = PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = 3.141592653589793

int_ = int32
uint = uint32
float_ = float32

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float_", "float16", "float32", "float64", "bool_"]
