"""Finite-difference checks of backward rules, shared by the op tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember import _autodiff
from ember.common.tensor import Tensor


def numeric_grads(fn: Callable[..., Tensor], args: list[Any], sens: np.ndarray,
                  eps: float = 1e-6) -> list[np.ndarray | None]:
    """d/d(arg) of sum(fn(*args) * sens) for every float Tensor argument, by central differences."""
    grads: list[np.ndarray | None] = []
    for i, arg in enumerate(args):
        if not isinstance(arg, Tensor) or arg.dtype.np_dtype.kind != "f":
            grads.append(None)
            continue
        base = arg.asnumpy().astype(np.float64)
        grad = np.zeros_like(base)
        for index in np.ndindex(base.shape):
            values = []
            for step in (eps, -eps):
                moved = base.copy()
                moved[index] += step
                trial = list(args)
                trial[i] = Tensor(moved.astype(arg.dtype.np_dtype))
                values.append(float(np.sum(fn(*trial).asnumpy().astype(np.float64) * sens)))
            grad[index] = (values[0] - values[1]) / (2 * eps)
        grads.append(grad)
    return grads


def analytic_grads(fn: Callable[..., Tensor], args: list[Any],
                   sens: np.ndarray) -> list[np.ndarray | None]:
    """The same gradients through the primitives' backward rules."""
    watched = [_autodiff.watch(a) for a in args]
    with _autodiff.recording():
        out = fn(*watched)
    targets = [w for w in watched if isinstance(w, Tensor)]
    found = iter(_autodiff.backward([out], [Tensor(sens.astype(out.dtype.np_dtype))], targets))
    result = []
    for w in watched:
        g = next(found) if isinstance(w, Tensor) else None
        result.append(None if g is None else g.asnumpy())
    return result


def check_grad(fn: Callable[..., Tensor], *args: Any, rtol: float = 1e-5,
               atol: float = 1e-6, seed: int = 0) -> None:
    """Assert the backward rules of ``fn`` agree with finite differences (use float64 inputs)."""
    out = fn(*args)
    sens = np.random.default_rng(seed).standard_normal(out.shape)
    for i, (want, got) in enumerate(zip(numeric_grads(fn, list(args), sens),
                                        analytic_grads(fn, list(args), sens))):
        if want is None:
            continue
        assert got is not None, f"no gradient for input {i}"
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"gradient of input {i}")
