"""The conformance kit's control-flow cases: programs with ``cond``, ``switch`` and
``while_loop`` on tensor values, each with a NumPy reference.

For each case the kit checks, on the backend under test: PyNative mode (the Python functions
run) against the reference; the same program compiled with ``ms_function`` (``Switch`` and
``WhileLoop`` nodes handed to the backend's graph executor) against PyNative; in float64, the
gradients against finite differences, and the compiled gradients against PyNative's (those of
a loop hand the backend a saving ``WhileLoop`` and its ``ReverseScan``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.graph.compiler import ms_function
from ember.graph.control_flow import cond, switch, while_loop
from ember.ops import functional as F
from ember.testing import gradcheck

__all__ = ["CONTROL_FLOW_CASES", "ControlFlowCase", "check_control_flow_case"]


@dataclass(frozen=True)
class ControlFlowCase:
    """A program over tensors, its inputs (NumPy arrays) and its NumPy reference."""

    id: str
    fn: Callable[..., Any]
    inputs: tuple[np.ndarray, ...]
    reference: Callable[..., Any]
    grad: bool = True  # whether gradients of the float inputs are checked


def _branch(x: Any, y: Any) -> Any:
    return cond(F.reduce_sum(x) > 0, lambda a, b: a * b, lambda a, b: a - b * b, x, y)


def _branch_ref(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x * y if x.sum() > 0 else x - y * y


def _grow(x: Any) -> Any:
    """Double ``x`` while its sum is below 10: the trip count depends on the values."""
    return while_loop(lambda v: F.reduce_sum(v) < 10, lambda v: (v * 1.5 + 0.25,), [x])[0]


def _grow_ref(x: np.ndarray) -> np.ndarray:
    while x.sum() < 10:
        x = x * 1.5 + 0.25
    return x


def _steps(x: Any, w: Any) -> Any:
    """Three steps of ``tanh(v * w)`` with a counter, a branch inside the loop."""
    def body(i: Any, v: Any) -> tuple:
        v = cond(i < 2, lambda u: F.tanh(u * w), lambda u: u * u, v)
        return i + 1, v
    return while_loop(lambda i, v: i < 3, body, [Tensor(0, mstype.int32), x])[1]


def _steps_ref(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    for i in range(3):
        x = np.tanh(x * w) if i < 2 else x * x
    return x


def _nested(x: Any, w: Any) -> Any:
    """A loop inside a loop: ``v = v * w + 0.25``, ``i`` times on the ``i``-th of 3 trips."""
    def outer(i: Any, v: Any) -> tuple:
        v = while_loop(lambda j, u: j < i, lambda j, u: (j + 1, u * w + 0.25),
                       [Tensor(0, mstype.int32), v])[1]
        return i + 1, v
    return while_loop(lambda i, v: i < 3, outer, [Tensor(0, mstype.int32), x])[1]


def _nested_ref(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    for i in range(3):
        for _ in range(i):
            x = x * w + 0.25
    return x


def _pick(i: Any, x: Any) -> Any:
    return switch(i, [F.neg, F.tanh, lambda v: v * v], [x])


def _pick_ref(i: np.ndarray, x: np.ndarray) -> np.ndarray:
    return [np.negative, np.tanh, np.square][int(np.clip(i, 0, 2))](x)


_RNG = np.random.default_rng(7)
_X = _RNG.uniform(0.5, 1.5, (2, 3))
_W = _RNG.uniform(-1, 1, (2, 3))

CONTROL_FLOW_CASES = (
    ControlFlowCase("cond/true", _branch, (_X, _W), _branch_ref),
    ControlFlowCase("cond/false", _branch, (-_X, _W), _branch_ref),
    ControlFlowCase("while/value-dependent-trips", _grow, (_X * 0.1,), _grow_ref),
    ControlFlowCase("while/cond-inside", _steps, (_X, _W), _steps_ref),
    ControlFlowCase("while/nested", _nested, (_X, _W), _nested_ref),
    ControlFlowCase("switch/index-1", _pick, (np.array(1, np.int32), _X), _pick_ref),
    ControlFlowCase("switch/index-clamped", _pick, (np.array(7, np.int32), _X), _pick_ref),
)


def check_control_flow_case(case: ControlFlowCase, dtype: type = np.float32) -> None:
    """Every check of ``case`` on the device_target in effect (in PyNative mode)."""
    raw = tuple(a.astype(dtype) if a.dtype.kind == "f" else a for a in case.inputs)
    args = [Tensor(a) for a in raw]
    want = case.reference(*raw)
    got = case.fn(*args)
    compiled = ms_function(case.fn)(*args)
    rtol = 1e-5 if np.dtype(dtype) == np.float64 else 1e-4
    np.testing.assert_allclose(got.asnumpy(), want, rtol=rtol, atol=1e-6,
                               err_msg=f"{case.id}: PyNative vs the NumPy reference")
    np.testing.assert_allclose(compiled.asnumpy(), got.asnumpy(), rtol=rtol, atol=1e-6,
                               err_msg=f"{case.id}: Graph mode vs PyNative")
    if not case.grad or np.dtype(dtype) != np.float64:
        return
    sens = gradcheck.sensitivity(got, 3)
    numeric = gradcheck.numeric_grads(case.fn, args, sens)
    analytic = gradcheck.analytic_grads(case.fn, args, sens)
    graph = gradcheck.analytic_grads(case.fn, args, sens, staged=True)
    for i, (n, a, g) in enumerate(zip(numeric, analytic, graph)):
        if n is None:
            continue
        np.testing.assert_allclose(a, n, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{case.id}: gradient of input {i}, backward "
                                           "rules vs finite differences")
        np.testing.assert_allclose(g, a, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{case.id}: gradient of input {i}, Graph mode "
                                           "vs PyNative")
