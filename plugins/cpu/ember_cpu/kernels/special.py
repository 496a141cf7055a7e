"""The inverse error function, truncation and Addcmul/Addcdiv on NumPy."""

from __future__ import annotations

import math

import numpy as np

_erf = np.frompyfunc(math.erf, 1, 1)


def _erfinv(x):
    """Giles' single-precision approximation, then two Newton steps on ``erf`` in float64;
    ±inf at ±1 and NaN beyond."""
    v = x.astype(np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1 - v) * (1 + v))
        near = w < 5
        t = np.where(near, w - 2.5, np.sqrt(w) - 3)
        central = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                   0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
        tail = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
        p = np.where(near, central[0], tail[0])
        for a, b in zip(central[1:], tail[1:], strict=True):
            p = np.where(near, a, b) + p * t
        y = p * v
        for _ in range(2):
            step = (_erf(y).astype(np.float64) - v) / (2 / math.sqrt(math.pi) * np.exp(-y * y))
            y = np.where(np.isfinite(y), y - step, y)
    y = np.where(np.abs(v) == 1, np.copysign(np.inf, v), y)
    return np.where(np.abs(v) > 1, np.nan, y).astype(x.dtype)


def _trunc(x):
    return np.trunc(x) if x.dtype.kind == "f" else x.copy()


KERNELS = {
    "Erfinv": lambda p: _erfinv,
    "Trunc": lambda p: _trunc,
    "Addcmul": lambda p: lambda data, x1, x2, value: data + value * (x1 * x2),
    "Addcdiv": lambda p: lambda data, x1, x2, value: data + value * (x1 / x2),
}
