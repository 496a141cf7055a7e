"""Cases for MindSpore's fused optimizer primitives (``FusedCastAdamWeightDecay``,
``FusedWeightScaleApplyMomentum``, ``AdamNoUpdateParam``) and LARS' ``LARSUpdate``.

The in-place updates run twice on Parameters (see ``optim.twice``); references are the
formulas of MindSpore's documentation and kernels, in float64.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import OpCase
from ember.testing.cases.array import sample
from ember.testing.cases.optim import ADAM_TOLERANCE, F64, twice

F32 = np.float32


def _positive(rng: np.random.Generator, dt: type, *shape: int) -> np.ndarray:
    return rng.uniform(0.1, 1.0, shape).astype(dt)


# -- LARSUpdate: (weight, gradient, sum of weight ** 2, sum of gradient ** 2, decay, lr) ------
def _lars(hyperpara: float, epsilon: float, clip: bool) -> Callable[..., Any]:
    def reference(w: Any, g: Any, w_sq: Any, g_sq: Any, decay: Any, lr: Any) -> Any:
        w64, g64 = w.astype(F64), g.astype(F64)
        w_norm = np.sqrt(F64(w_sq))
        coeff = hyperpara * w_norm / (np.sqrt(F64(g_sq)) + F64(decay) * w_norm + epsilon)
        if clip:
            coeff = min(max(coeff / F64(lr), 0.0), 1.0)
        return (coeff * (g64 + F64(decay) * w64)).astype(w.dtype)

    return reference


def _lars_inputs(decay: float, lr: float) -> Callable[..., tuple]:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        w, g = sample(rng, dt, 3, 4), sample(rng, dt, 3, 4)
        sums = [np.asarray(np.sum(x.astype(F64) ** 2), dt) for x in (w, g)]
        return (w, g, *sums, np.asarray(decay, dt), np.asarray(lr, dt))

    return inputs


# -- the fused updates: each reference applies two steps and returns the second's outputs ----
def _two_steps(step: Callable[..., tuple], states: tuple[int, ...],
               returned: tuple[int, ...]) -> Callable[..., Any]:
    """``step`` (new values of the inputs at ``states``, then any extra output) twice on the
    float64 inputs; the result is the inputs at ``returned`` in their dtypes (a tuple where
    more than one), or, where ``returned`` is empty, the extra output in float32."""
    def reference(*args: Any) -> Any:
        values = [a.astype(F64) for a in args]
        for _ in range(2):
            new = step(*values)
            for i, value in zip(states, new):
                values[i] = value
        if not returned:
            return new[len(states)].astype(F32)
        out = tuple(values[i].astype(args[i].dtype) for i in returned)
        return out[0] if len(out) == 1 else out

    return reference


def _cast_adam(var, m, v, lr, b1, b2, eps, decay, grad16, norm) -> tuple:
    g = grad16 / (norm if norm >= 1e-10 else 1.0)
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g ** 2
    return var - lr * (m / (np.sqrt(v) + eps) + decay * var), m, v


def _cast_adam_inputs(norm: float) -> Callable[..., tuple]:
    """var in the kit's dtype, m and v float32, the scalars, a float16 gradient."""
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        return (sample(rng, dt, 3, 4), sample(rng, F32, 3, 4), _positive(rng, F32, 3, 4),
                *(np.asarray(s, F32) for s in (0.01, 0.9, 0.999, 1e-6, 0.05)),
                sample(rng, np.float16, 3, 4), np.asarray(norm, F32))

    return inputs


def _weight_scale_momentum(decay, scale, var, accum, lr, grad, momentum) -> tuple:
    accum = momentum * accum + (grad + decay * var) * scale
    return var - lr * accum, accum


def _weight_scale_inputs(rng: np.random.Generator, dt: type) -> tuple:
    return (np.asarray(0.01, dt), np.asarray(0.5, dt), sample(rng, dt, 3, 4),
            sample(rng, dt, 3, 4), np.asarray(0.1, dt), sample(rng, dt, 3, 4),
            np.asarray(0.9, dt))


def _adam_delta(nesterov: bool) -> Callable[..., tuple]:
    def step(m, v, b1p, b2p, lr, b1, b2, eps, g) -> tuple:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g ** 2
        direction = b1 * m + (1 - b1) * g if nesterov else m
        return m, v, -lr * np.sqrt(1 - b2p) / (1 - b1p) * direction / (np.sqrt(v) + eps)

    return step


def _adam_delta_inputs(rng: np.random.Generator, dt: type) -> tuple:
    return (sample(rng, dt, 3, 4), _positive(rng, dt, 3, 4),
            *(np.asarray(s, dt) for s in (0.81, 0.998, 0.01, 0.9, 0.999, 1e-8)),
            sample(rng, dt, 3, 4))


CASES: list[OpCase] = [
    OpCase("LARSUpdate/default", "LARSUpdate", P.LARSUpdate, _lars_inputs(0.0, 1.0),
           _lars(0.001, 1e-5, False), (np.float16, F32)),
    OpCase("LARSUpdate/weight-decay", "LARSUpdate", lambda: P.LARSUpdate(1e-6, 0.02),
           _lars_inputs(0.1, 0.5), _lars(0.02, 1e-6, False), (np.float16, F32)),
    OpCase("LARSUpdate/clip", "LARSUpdate", lambda: P.LARSUpdate(1e-5, 0.5, True),
           _lars_inputs(0.01, 0.1), _lars(0.5, 1e-5, True), (np.float16, F32)),
    OpCase("LARSUpdate/clip-small-lr", "LARSUpdate", lambda: P.LARSUpdate(1e-5, 0.001, True),
           _lars_inputs(0.01, 0.5), _lars(0.001, 1e-5, True), (F32,)),
    OpCase("FusedCastAdamWeightDecay/2-steps", "FusedCastAdamWeightDecay",
           lambda: twice(P.FusedCastAdamWeightDecay(), (0, 1, 2)), _cast_adam_inputs(2.5),
           _two_steps(_cast_adam, (0, 1, 2), (0, 1, 2)), (np.float16, F32),
           tolerance=ADAM_TOLERANCE),
    OpCase("FusedCastAdamWeightDecay/tiny-global-norm", "FusedCastAdamWeightDecay",
           lambda: twice(P.FusedCastAdamWeightDecay(), (0, 1, 2)), _cast_adam_inputs(1e-12),
           _two_steps(_cast_adam, (0, 1, 2), (0, 1, 2)), (F32,),
           tolerance=ADAM_TOLERANCE),
    OpCase("FusedWeightScaleApplyMomentum/2-steps", "FusedWeightScaleApplyMomentum",
           lambda: twice(P.FusedWeightScaleApplyMomentum(), (2, 3)), _weight_scale_inputs,
           _two_steps(_weight_scale_momentum, (2, 3), (2,)),
           (np.float16, F32), tolerance=ADAM_TOLERANCE),
    OpCase("AdamNoUpdateParam/2-steps", "AdamNoUpdateParam",
           lambda: twice(P.AdamNoUpdateParam(), (0, 1)), _adam_delta_inputs,
           _two_steps(_adam_delta(False), (0, 1), ()), (F32,),
           tolerance=ADAM_TOLERANCE),
    OpCase("AdamNoUpdateParam/nesterov", "AdamNoUpdateParam",
           lambda: twice(P.AdamNoUpdateParam(use_nesterov=True), (0, 1)), _adam_delta_inputs,
           _two_steps(_adam_delta(True), (0, 1), ()), (F32,),
           tolerance=ADAM_TOLERANCE),
]
