"""Cases for LayerNorm and L2Normalize of ``ember.ops.operations.norm_ops``.

References compute the statistics in float64 from the definitions; gradients of LayerNorm are
checked through its first output, the only one its backward rule reads.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import norm_ops
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.array import sample
from ember.testing.cases.nn import F64, HALF_LOOSE, output_of


def _layer_norm(norm: int, epsilon: float) -> Callable[..., tuple]:
    def reference(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> tuple:
        axes = tuple(range(norm % x.ndim, x.ndim))
        xs = x.astype(F64)
        mean, var = xs.mean(axis=axes, keepdims=True), xs.var(axis=axes, keepdims=True)
        y = (xs - mean) / np.sqrt(var + epsilon) * gamma + beta
        return tuple(a.astype(x.dtype) for a in (y, mean, var))

    return reference


def _layer_norm_grad(norm: int, epsilon: float) -> Callable[..., tuple]:
    """(dx, dgamma, dbeta) as the adjoint of the reference's y, written out in float64."""

    def reference(x: np.ndarray, dy: np.ndarray, var: np.ndarray, mean: np.ndarray,
                  gamma: np.ndarray) -> tuple:
        axes = tuple(range(norm % x.ndim, x.ndim))
        n = np.prod([x.shape[a] for a in axes])
        rstd = 1 / np.sqrt(var.astype(F64) + epsilon)
        x_hat = (x - mean.astype(F64)) * rstd
        g = dy.astype(F64) * gamma
        dx = rstd * (g - g.sum(axis=axes, keepdims=True) / n
                     - x_hat * (g * x_hat).sum(axis=axes, keepdims=True) / n)
        outer = tuple(range(x.ndim - gamma.ndim))
        return (dx.astype(x.dtype), (dy * x_hat).sum(axis=outer).astype(gamma.dtype),
                dy.astype(F64).sum(axis=outer).astype(gamma.dtype))

    return reference


def _layer_norm_grad_grad(norm: int) -> Callable[..., tuple]:
    """(d_x, d_dy, d_gamma): central differences in float64 of sum(grad_dx * dx + grad_dg *
    dgamma + grad_db * dbeta) over x, dy and gamma, LayerNormGrad's reference above with the
    mean and variance recomputed from x."""

    def reference(x: np.ndarray, dy: np.ndarray, var: np.ndarray, mean: np.ndarray,
                  gamma: np.ndarray, *grads: np.ndarray) -> tuple:
        def contracted(xs: np.ndarray, dys: np.ndarray, gs: np.ndarray) -> float:
            _, m, v = _layer_norm(norm, 1e-7)(xs, gs, gs)
            outs = _layer_norm_grad(norm, 1e-7)(xs, dys, v, m, gs)
            return sum(float((o * w).sum()) for o, w in zip(outs, grads, strict=True))

        args = [t.astype(F64) for t in (x, dy, gamma)]
        result = []
        for i, arg in enumerate(args):
            slope = np.zeros_like(arg)
            for idx in np.ndindex(arg.shape):
                ends = []
                for step in (1e-5, -1e-5):
                    moved = [a.copy() for a in args]
                    moved[i][idx] += step
                    ends.append(contracted(*moved))
                slope[idx] = (ends[0] - ends[1]) / 2e-5
            result.append(slope.astype(x.dtype))
        return tuple(result)

    return reference


def _ln_inputs(shape: tuple[int, ...], params: int) -> Callable[..., tuple]:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        p = shape[params % len(shape):]
        return ((sample(rng, dt, *shape) * 2 + 1).astype(dt),
                rng.uniform(0.5, 1.5, p).astype(dt), sample(rng, dt, *p))

    return inputs


def _ln_grad_inputs(shape: tuple[int, ...], norm: int, params: int) -> Callable[..., tuple]:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        x, gamma, _ = _ln_inputs(shape, params)(rng, dt)
        _, mean, var = _layer_norm(norm, 1e-7)(x, gamma, gamma)
        return x, sample(rng, dt, *shape), var, mean, gamma

    return inputs


def _ln_grad_grad_inputs(shape: tuple[int, ...], norm: int, params: int
                         ) -> Callable[..., tuple]:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        first = _ln_grad_inputs(shape, norm, params)(rng, dt)
        p = first[-1].shape
        return (*first, sample(rng, dt, *shape), sample(rng, dt, *p), sample(rng, dt, *p))

    return inputs


_LAYER_NORMS = [  # (id, x shape, begin_norm_axis, begin_params_axis, epsilon, check gradients)
    ("2d", (4, 5), 1, 1, 1e-7, True),
    ("3d-last", (2, 3, 4), -1, -1, 1e-7, True),
    ("4d-norm1-params2", (2, 3, 2, 2), 1, 2, 1e-5, True),
    ("3d-norm0", (2, 3, 4), 0, 1, 1e-7, False),
]


def _layer_norm_cases() -> list[OpCase]:
    cases = []
    for name, shape, norm, params, eps, grad in _LAYER_NORMS:
        def make(n: int = norm, p: int = params, e: float = eps) -> object:
            return P.LayerNorm(n, p, e)

        reference = _layer_norm(norm, eps)
        cases.append(OpCase(f"LayerNorm/{name}", "LayerNorm", make, _ln_inputs(shape, params),
                            reference, FLOATS, tolerance=HALF_LOOSE))
        if grad:
            cases.append(OpCase(f"LayerNorm/{name}-y", "LayerNorm",
                                lambda m=make: output_of(m(), 0), _ln_inputs(shape, params),
                                lambda *a, r=reference: r(*a)[0], FLOATS, (0, 1, 2),
                                HALF_LOOSE))
        cases.append(OpCase(f"LayerNormGrad/{name}", "LayerNormGrad",
                            lambda n=norm, p=params: norm_ops.LayerNormGrad(n, p),
                            _ln_grad_inputs(shape, norm, params), _layer_norm_grad(norm, 1e-7),
                            FLOATS, (1, 4) if grad else (), {np.float16: (3e-2, 3e-2)}))
        if grad:
            cases.append(OpCase(
                f"LayerNormGradGrad/{name}", "LayerNormGradGrad",
                lambda n=norm, p=params: norm_ops.LayerNormGradGrad(n, p),
                _ln_grad_grad_inputs(shape, norm, params), _layer_norm_grad_grad(norm),
                FLOATS, tolerance={np.float16: (5e-2, 5e-2), np.float32: (1e-4, 1e-4),
                                   np.float64: (1e-6, 1e-6)}))
    return cases


def _l2_normalize(axis: int, epsilon: float) -> Callable[[np.ndarray], np.ndarray]:
    def reference(x: np.ndarray) -> np.ndarray:
        xs = x.astype(F64)
        norm = np.sqrt(np.maximum((xs * xs).sum(axis=axis, keepdims=True), epsilon))
        return (xs / norm).astype(x.dtype)

    return reference


def _l2_normalize_grad(axis: int, epsilon: float) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray, out: np.ndarray, dout: np.ndarray) -> np.ndarray:
        xs, ds = x.astype(F64), dout.astype(F64)
        squares = (xs * xs).sum(axis=axis, keepdims=True)
        norm = np.sqrt(np.maximum(squares, epsilon))
        inner = np.where(squares >= epsilon, (xs * ds).sum(axis=axis, keepdims=True), 0.0)
        return ((ds - xs * inner / squares.clip(epsilon)) / norm).astype(x.dtype)

    return reference


def _small_rows(rng: np.random.Generator, dt: type) -> tuple[np.ndarray]:
    """Rows of norm above and below sqrt(epsilon) = 0.1 (and a zero row)."""
    x = sample(rng, np.float64, 3, 4)
    x[1] *= 0.01
    x[2] = 0
    return (x.astype(dt),)


def _l2_grad_inputs(x: np.ndarray, axis: int, epsilon: float,
                    rng: np.random.Generator) -> tuple:
    return x, _l2_normalize(axis, epsilon)(x), sample(rng, x.dtype.type, *x.shape)


_L2 = [  # (id, axis, epsilon, inputs, check gradients)
    ("axis0", 0, 1e-4, lambda rng, dt: (sample(rng, dt, 3, 4),), True),
    ("axis-1-3d", -1, 1e-4, lambda rng, dt: (sample(rng, dt, 2, 3, 4),), True),
    ("axis1-tiny-rows", 1, 1e-2, _small_rows, False),
]

def _lrn(radius: int, bias: float, alpha: float, beta: float) -> Callable[..., np.ndarray]:
    """Each channel over the window of its neighbours, a loop over channels."""

    def reference(x: np.ndarray) -> np.ndarray:
        xs = x.astype(F64)
        out = np.empty_like(xs)
        for c in range(x.shape[1]):
            window = xs[:, max(c - radius, 0):c + radius + 1]
            out[:, c] = xs[:, c] / (bias + alpha * (window ** 2).sum(axis=1)) ** beta
        return out.astype(x.dtype)

    return reference


_LRNS = [(2, 1.0, 0.5, 0.75), (1, 2.0, 1e-3, 0.5), (5, 1.0, 1.0, 0.5)]

CASES: list[OpCase] = [
    *_layer_norm_cases(),
    *(OpCase(f"L2Normalize/{name}", "L2Normalize", lambda a=axis, e=eps: P.L2Normalize(a, e),
             inputs, _l2_normalize(axis, eps), FLOATS, (0,) if grad else (), HALF_LOOSE)
      for name, axis, eps, inputs, grad in _L2),
    *(OpCase(f"L2NormalizeGrad/{name}", "L2NormalizeGrad",
             lambda a=axis, e=eps: norm_ops.L2NormalizeGrad(a, e),
             lambda rng, dt, i=inputs, a=axis, e=eps: _l2_grad_inputs(i(rng, dt)[0], a, e, rng),
             _l2_normalize_grad(axis, eps), FLOATS, tolerance=HALF_LOOSE)
      for name, axis, eps, inputs, _ in _L2),
    *(OpCase(f"LRN/r{r}-b{b}-a{a}-beta{beta}", "LRN", lambda r=r, b=b, a=a, beta=beta:
             P.LRN(r, b, a, beta), lambda rng, dt: (sample(rng, dt, 2, 6, 2, 3),),
             _lrn(r, b, a, beta), FLOATS, (0,), HALF_LOOSE) for r, b, a, beta in _LRNS),
]
