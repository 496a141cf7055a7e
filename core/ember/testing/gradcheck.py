"""Backward rules against central finite differences, through ``ops.GradOperation``.

``check_grad(fn, *args)`` differentiates ``sum(fn(*args) * sens)`` for a random ``sens`` both
ways: analytically with ``GradOperation(get_all=True, sens_param=True)`` and numerically by
moving each element of each floating-point Tensor argument by ``±eps``. Use float64 inputs
away from kinks (ties of max/min, 0 for abs), where finite differences are exact enough.
A function may return several tensors: each output of a floating-point dtype counts, the
others (indices) get a sensitivity of zeros.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common.tensor import Tensor

__all__ = ["analytic_grads", "check_grad", "numeric_grads", "sensitivity"]


def _outputs(out: Any) -> tuple[Tensor, ...]:
    return out if isinstance(out, tuple) else (out,)


def _is_float(t: Any) -> bool:
    return isinstance(t, Tensor) and t.dtype.np_dtype.kind == "f"


def sensitivity(out: Any, seed: int = 0) -> tuple[np.ndarray, ...]:
    """A random output gradient per output: standard normal for floats, zeros otherwise."""
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal(o.shape).astype(o.dtype.np_dtype) if _is_float(o)
                 else np.zeros(o.shape, o.dtype.np_dtype) for o in _outputs(out))


def _weighted_sum(out: Any, sens: tuple[np.ndarray, ...]) -> float:
    return sum(float(np.sum(o.asnumpy().astype(np.float64) * s))
               for o, s in zip(_outputs(out), sens) if _is_float(o))


def numeric_grads(fn: Callable[..., Any], args: list[Any], sens: tuple[np.ndarray, ...],
                  eps: float = 1e-6) -> list[np.ndarray | None]:
    """d/d(arg) of ``sum(fn(*args) * sens)`` for every floating-point Tensor argument (None
    for the others), by central differences."""
    grads: list[np.ndarray | None] = []
    for i, arg in enumerate(args):
        if not _is_float(arg):
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
                values.append(_weighted_sum(fn(*trial), sens))
            grad[index] = (values[0] - values[1]) / (2 * eps)
        grads.append(grad)
    return grads


def analytic_grads(fn: Callable[..., Any], args: list[Any], sens: tuple[np.ndarray, ...],
                   staged: bool = False) -> list[np.ndarray | None]:
    """The same gradients through the primitives' backward rules, with
    ``GradOperation(get_all=True, sens_param=True)``, compiled with ``ms_function`` if
    ``staged``; None for non-Tensor arguments."""
    from ember.graph.compiler import ms_function
    from ember.ops import GradOperation

    grad_fn = GradOperation(get_all=True, sens_param=True)(fn)
    if staged:
        grad_fn = ms_function(grad_fn)
    senses = tuple(Tensor(s) for s in sens)
    found = iter(grad_fn(*args, senses if len(senses) > 1 else senses[0]))
    return [next(found).asnumpy() if isinstance(a, Tensor) else None for a in args]


def check_grad(fn: Callable[..., Any], *args: Any, rtol: float = 1e-5, atol: float = 1e-6,
               seed: int = 0) -> None:
    """Assert the backward rules of ``fn`` agree with finite differences (use float64)."""
    sens = sensitivity(fn(*args), seed)
    for i, (want, got) in enumerate(zip(numeric_grads(fn, list(args), sens),
                                        analytic_grads(fn, list(args), sens))):
        if want is None:
            continue
        assert got is not None, f"no gradient for input {i}"
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"gradient of input {i}")
