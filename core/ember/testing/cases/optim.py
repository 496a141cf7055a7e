"""Cases for the in-place optimizer updates of ``ember.ops.operations.apply_ops``.

Each case's call holds its first inputs in Parameters (see ``twice``), applies the update
twice and returns what the second call returns: the Parameters it updates, or the variable
alone, whose second step reads every state the first one wrote. References are the update
formulas of MindSpore's documentation in float64.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops import operations as P
from ember.testing.cases import OpCase
from ember.testing.cases.array import sample

F64 = np.float64
DTYPES = (np.float32, np.float64)
LOOSE = {np.float32: (1e-5, 1e-5)}  # the updates divide by square roots of small moments
#: Adam's bias-corrected learning rate may be computed in float32 whatever the dtype, as
#: MindSpore's CPU kernel does.
ADAM_TOLERANCE = {**LOOSE, np.float64: (1e-6, 1e-7)}


def twice(prim: Any, states: int | tuple[int, ...]) -> Callable[..., Any]:
    """``prim`` applied twice to Parameters holding the first ``states`` inputs (or the inputs
    at the positions ``states`` names): one set of Parameters per shape and dtype, made from
    the inputs on the first call (which the kit makes in PyNative mode), as a Cell holds its
    weights; later calls (Graph mode) copy the inputs in with ``Assign``. Where the primitive's
    outputs are placeholders, the call returns the Parameters."""
    held: dict[tuple, list[Parameter]] = {}
    assign = P.Assign()
    positions = tuple(range(states)) if isinstance(states, int) else states

    def call(*args: Any) -> Any:
        key = tuple((args[i].shape, args[i].dtype) for i in positions)
        if key not in held:
            held[key] = [Parameter(Tensor(args[i].asnumpy()), f"state{i}") for i in positions]
        else:
            for param, i in zip(held[key], positions):
                assign(param, args[i])
        params = held[key]
        inputs = list(args)
        for param, i in zip(params, positions):
            inputs[i] = param
        prim(*inputs)
        out = prim(*inputs)
        return tuple(params) if getattr(prim, "placeholders", False) else out

    return call


def _steps(rule: Callable[..., tuple], returns: int) -> Callable[..., Any]:
    """The reference: ``rule`` (new states from the inputs, in float64) applied twice."""

    def reference(*args: Any) -> Any:
        dtype = args[0].dtype
        values = [a.astype(F64) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
                  for a in args]
        n = len(rule(*values))
        for _ in range(2):
            values[:n] = rule(*values)
        out = tuple(np.asarray(v).astype(dtype) for v in values[:returns])
        return out[0] if returns == 1 else out

    return reference


def _shrink(prox: Any, lr: Any, l1: Any, l2: Any) -> Any:
    return np.sign(prox) * np.maximum(np.abs(prox) - lr * l1, 0) / (1 + lr * l2)


def _adagrad(epsilon: float = 0.0) -> Callable[..., tuple]:
    def rule(var: Any, accum: Any, lr: Any, grad: Any) -> tuple:
        accum = accum + grad ** 2
        return var - lr * grad / (np.sqrt(accum) + epsilon), accum

    return rule


def _proximal_adagrad(var: Any, accum: Any, lr: Any, l1: Any, l2: Any, grad: Any) -> tuple:
    accum = accum + grad ** 2
    return _shrink(var - lr * grad / np.sqrt(accum), lr, l1, l2), accum


def _adamax(var: Any, m: Any, v: Any, b1p: Any, lr: Any, b1: Any, b2: Any, eps: Any,
            g: Any) -> tuple:
    m = b1 * m + (1 - b1) * g
    v = np.maximum(b2 * v, np.abs(g))
    return var - lr / (1 - b1p) * m / (v + eps), m, v


def _adadelta(var: Any, accum: Any, au: Any, lr: Any, rho: Any, eps: Any, g: Any) -> tuple:
    accum = rho * accum + (1 - rho) * g ** 2
    update = np.sqrt(au + eps) / np.sqrt(accum + eps) * g
    return var - lr * update, accum, rho * au + (1 - rho) * update ** 2


def _rmsprop(var: Any, ms: Any, mom: Any, lr: Any, g: Any, decay: Any, momentum: Any,
             eps: Any) -> tuple:
    ms = decay * ms + (1 - decay) * g ** 2
    mom = momentum * mom + lr * g / np.sqrt(ms + eps)
    return var - mom, ms, mom


def _centered_rmsprop(var: Any, mg: Any, ms: Any, mom: Any, g: Any, lr: Any, decay: Any,
                      momentum: Any, eps: Any) -> tuple:
    mg = decay * mg + (1 - decay) * g
    ms = decay * ms + (1 - decay) * g ** 2
    mom = momentum * mom + lr * g / np.sqrt(ms - mg ** 2 + eps)
    return var - mom, mg, ms, mom


def _ftrl(var: Any, accum: Any, linear: Any, g: Any, lr: Any, l1: Any, l2: Any,
          power: Any, shrinkage: float = 0.0) -> tuple:
    """FTRL-proximal; L2 shrinkage adds ``2 * shrinkage * var`` to the gradient in linear."""
    new_accum = accum + g ** 2
    linear = linear + g + 2 * shrinkage * var - (new_accum ** -power - accum ** -power) / lr * var
    quadratic = new_accum ** -power / lr + 2 * l2
    var = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0.0)
    return var, new_accum, linear


def _sign_rule(power: bool) -> Callable[..., tuple]:
    def rule(var: Any, m: Any, lr: Any, base: Any, decay: Any, beta: Any, g: Any) -> tuple:
        m = beta * m + (1 - beta) * g
        signs = decay * np.sign(g) * np.sign(m)
        return var - lr * (np.exp(base * signs) if power else base + signs) * g, m

    return rule


def _keras_momentum(nesterov: bool) -> Callable[..., tuple]:
    def rule(var: Any, accum: Any, lr: Any, g: Any, momentum: Any) -> tuple:
        accum = momentum * accum - lr * g
        return var + (momentum * accum - lr * g if nesterov else accum), accum

    return rule


def _amsgrad(b1: float, b2: float, eps: float) -> Callable[..., tuple]:
    def rule(var: Any, m: Any, v: Any, vhat: Any, b1p: Any, b2p: Any, lr: Any,
             g: Any) -> tuple:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g ** 2
        vhat = np.maximum(vhat, v)
        return var - lr * np.sqrt(1 - b2p) / (1 - b1p) * m / (np.sqrt(vhat) + eps), m, v, vhat

    return rule


def _adagrad_da(var: Any, accum: Any, squared: Any, g: Any, lr: Any, l1: Any, l2: Any,
                step: Any) -> tuple:
    accum = accum + g
    squared = squared + g ** 2
    shrunk = np.sign(accum) * np.maximum(np.abs(accum) - l1 * step, 0) if l1 > 0 else accum
    return -lr * shrunk / (l2 * step * lr + np.sqrt(squared)), accum, squared


def _adagrad_da_inputs(l1: float) -> Callable[..., tuple]:
    """var, the gradient accumulator, the squared one (positive), grad, lr, l1, l2, the step
    (an int32 scalar)."""
    dense = _dense_inputs(3, (0.1, l1, 0.2), grad_at=0, positive=2)

    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        return (*dense(rng, dt), np.asarray(3, np.int32))

    return inputs


def _positive(rng: np.random.Generator, dt: type, *shape: int) -> np.ndarray:
    return rng.uniform(0.1, 1.0, shape).astype(dt)


def _dense_inputs(states: int, scalars: tuple[float, ...], grad_at: int = -1,
                  positive: int = 1) -> Callable[..., tuple]:
    """``states`` tensors of shape (3, 4) (those after the first ``positive`` of them
    positive), the scalars, and a gradient inserted at ``grad_at`` among the scalars."""

    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        tensors = [sample(rng, dt, 3, 4) if i < positive else _positive(rng, dt, 3, 4)
                   for i in range(states)]
        rest: list[Any] = [np.asarray(s, dt) for s in scalars]
        rest.insert(len(rest) if grad_at == -1 else grad_at, sample(rng, dt, 3, 4))
        return (*tensors, *rest)

    return inputs


def _centered_inputs(rng: np.random.Generator, dt: type) -> tuple:
    """var, mean_grad, mean_square (above mean_grad ** 2), moment, grad, the scalars."""
    return (sample(rng, dt, 3, 4), (sample(rng, F64, 3, 4) * 0.1).astype(dt),
            rng.uniform(1.0, 2.0, (3, 4)).astype(dt), sample(rng, dt, 3, 4),
            sample(rng, dt, 3, 4), *(np.asarray(s, dt) for s in (0.01, 0.9, 0.5, 1e-6)))


_DENSE = [  # (name, make, states, returns, rule, inputs)
    ("ApplyGradientDescent", P.ApplyGradientDescent, 1, 1,
     lambda var, a, d: (var - a * d,), _dense_inputs(1, (0.1,))),
    ("ApplyProximalGradientDescent", P.ApplyProximalGradientDescent, 1, 1,
     lambda var, a, l1, l2, d: (_shrink(var - a * d, a, l1, l2),),
     _dense_inputs(1, (0.1, 0.05, 0.2))),
    ("ApplyAdagrad", P.ApplyAdagrad, 2, 2, _adagrad(), _dense_inputs(2, (0.1,))),
    ("ApplyAdagradV2", lambda: P.ApplyAdagradV2(1e-3), 2, 2, _adagrad(1e-3),
     _dense_inputs(2, (0.1,))),
    ("ApplyProximalAdagrad", P.ApplyProximalAdagrad, 2, 2, _proximal_adagrad,
     _dense_inputs(2, (0.1, 0.05, 0.2))),
    ("ApplyAdaMax", P.ApplyAdaMax, 3, 3, _adamax,
     _dense_inputs(3, (0.81, 0.01, 0.9, 0.99, 1e-8))),
    ("ApplyAdadelta", P.ApplyAdadelta, 3, 3, _adadelta,
     _dense_inputs(3, (0.5, 0.9, 1e-6))),
    ("ApplyRMSProp", P.ApplyRMSProp, 3, 1, _rmsprop,
     _dense_inputs(3, (0.01, 0.9, 0.5, 1e-6), grad_at=1)),
    ("ApplyCenteredRMSProp", P.ApplyCenteredRMSProp, 4, 1, _centered_rmsprop,
     _centered_inputs),
    ("ApplyFtrl", P.ApplyFtrl, 3, 1, _ftrl,
     _dense_inputs(3, (0.1, 0.05, 0.1, -0.5), grad_at=0)),
    ("ApplyAdagradDA", P.ApplyAdagradDA, 3, 3, _adagrad_da, _adagrad_da_inputs(0.05)),
    ("ApplyAdagradDA-no-l1", P.ApplyAdagradDA, 3, 3, _adagrad_da, _adagrad_da_inputs(0.0)),
    ("ApplyPowerSign", P.ApplyPowerSign, 2, 2, _sign_rule(True),
     _dense_inputs(2, (0.1, np.e, 0.99, 0.9))),
    ("ApplyAddSign", P.ApplyAddSign, 2, 2, _sign_rule(False),
     _dense_inputs(2, (0.1, 1.0, 0.99, 0.9))),
    ("ApplyKerasMomentum", P.ApplyKerasMomentum, 2, 2, _keras_momentum(False),
     _dense_inputs(2, (0.1, 0.9), grad_at=1)),
    ("ApplyKerasMomentum-nesterov", lambda: P.ApplyKerasMomentum(use_nesterov=True), 2, 2,
     _keras_momentum(True), _dense_inputs(2, (0.1, 0.9), grad_at=1)),
    ("ApplyAdamWithAmsgrad", lambda: P.ApplyAdamWithAmsgrad(0.9, 0.999, 1e-8), 4, 4,
     _amsgrad(0.9, 0.999, 1e-8), _dense_inputs(4, (0.9, 0.999, 0.01))),
]


# -- sparse -----------------------------------------------------------------------------------
INDICES = np.array([3, 0, 3], np.int32)  # row 3 twice: its gradients are summed


def _sparse(rule: Callable[..., tuple], states: int, grad_at: int, lazy: bool = True,
            attrs: tuple = ()) -> Callable[..., tuple]:
    """``rule`` on the rows INDICES names (lazy) or on all rows, the gradient's rows summed
    into a dense gradient; ``attrs`` are hyperparameters the primitive holds as attributes."""

    def sparse_rule(*args: Any) -> tuple:
        *args, indices = args
        grad = np.zeros(args[0].shape)
        np.add.at(grad, indices, args[grad_at])
        full = [*args[:grad_at], grad, *args[grad_at + 1:], *attrs]
        new = rule(*full)
        if not lazy:
            return new
        rows = np.isin(np.arange(len(args[0])), indices)[:, None]
        return tuple(np.where(rows, n, old) for n, old in zip(new, args[:states]))

    return sparse_rule


def _sparse_inputs(states: int, scalars: tuple[float, ...]) -> Callable[..., tuple]:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        tensors = [sample(rng, dt, 5, 2)] + [_positive(rng, dt, 5, 2) for _ in range(states - 1)]
        return (*tensors, *(np.asarray(s, dt) for s in scalars), sample(rng, dt, 3, 2),
                INDICES)

    return inputs


def _adam(nesterov: bool) -> Callable[..., tuple]:
    def rule(var: Any, m: Any, v: Any, b1p: Any, b2p: Any, lr: Any, b1: Any, b2: Any,
             eps: Any, g: Any) -> tuple:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g ** 2
        step = b1 * m + (1 - b1) * g if nesterov else m
        return var - lr * np.sqrt(1 - b2p) / (1 - b1p) * step / (np.sqrt(v) + eps), m, v

    return rule


_FTRL = (0.1, 0.05, 0.1, -0.5)
_ADAM_SCALARS = (0.9, 0.999, 0.01, 0.9, 0.999, 1e-8)
_SPARSE = [  # (name, make, states, returns, rule, inputs)
    ("SparseApplyAdagrad", lambda: P.SparseApplyAdagrad(0.1), 2, 2,
     _sparse(lambda var, acc, g, lr: _adagrad()(var, acc, lr, g), 2, 2, attrs=(0.1,)),
     _sparse_inputs(2, ())),
    ("SparseApplyAdagradV2", lambda: P.SparseApplyAdagradV2(0.1, 1e-3), 2, 2,
     _sparse(lambda var, acc, g, lr: _adagrad(1e-3)(var, acc, lr, g), 2, 2, attrs=(0.1,)),
     _sparse_inputs(2, ())),
    ("SparseApplyProximalAdagrad", P.SparseApplyProximalAdagrad, 2, 2,
     _sparse(_proximal_adagrad, 2, 5), _sparse_inputs(2, (0.1, 0.05, 0.2))),
    ("SparseApplyFtrl", lambda: P.SparseApplyFtrl(*_FTRL), 3, 3,
     _sparse(_ftrl, 3, 3, attrs=_FTRL), _sparse_inputs(3, ())),
    ("SparseApplyAdam", P.SparseApplyAdam, 3, 3, _sparse(_adam(False), 3, 9, lazy=False),
     _sparse_inputs(3, _ADAM_SCALARS)),
    ("SparseApplyAdam-nesterov", lambda: P.SparseApplyAdam(use_nesterov=True), 3, 3,
     _sparse(_adam(True), 3, 9, lazy=False), _sparse_inputs(3, _ADAM_SCALARS)),
    ("SparseApplyLazyAdam", P.SparseApplyLazyAdam, 3, 3, _sparse(_adam(False), 3, 9),
     _sparse_inputs(3, _ADAM_SCALARS)),
    ("SparseApplyLazyAdam-nesterov", lambda: P.SparseApplyLazyAdam(use_nesterov=True), 3, 3,
     _sparse(_adam(True), 3, 9), _sparse_inputs(3, _ADAM_SCALARS)),
    ("FusedSparseLazyAdam", P.FusedSparseLazyAdam, 3, 3, _sparse(_adam(False), 3, 9),
     _sparse_inputs(3, _ADAM_SCALARS)),
    ("FusedSparseAdam", P.FusedSparseAdam, 3, 3, _sparse(_adam(False), 3, 9, lazy=False),
     _sparse_inputs(3, _ADAM_SCALARS)),
    ("FusedSparseAdam-nesterov", lambda: P.FusedSparseAdam(use_nesterov=True), 3, 3,
     _sparse(_adam(True), 3, 9, lazy=False), _sparse_inputs(3, _ADAM_SCALARS)),
    ("FusedSparseFtrl", lambda: P.FusedSparseFtrl(*_FTRL), 3, 3,
     _sparse(_ftrl, 3, 3, attrs=_FTRL), _sparse_inputs(3, ())),
    ("SparseApplyFtrlV2", lambda: P.SparseApplyFtrlV2(*_FTRL[:3], 0.3, _FTRL[3]), 3, 3,
     _sparse(_ftrl, 3, 3, attrs=(*_FTRL, 0.3)), _sparse_inputs(3, ())),
    ("SparseApplyRMSProp", lambda: P.SparseApplyRMSProp(0.9, 0.5, 1e-6), 3, 3,
     _sparse(lambda var, ms, mom, lr, g: _rmsprop(var, ms, mom, lr, g, 0.9, 0.5, 1e-6), 3, 4),
     _sparse_inputs(3, (0.01,))),
    ("SparseApplyAdadelta", lambda: P.SparseApplyAdadelta(1e-6), 3, 3,
     _sparse(lambda var, acc, au, lr, rho, g: _adadelta(var, acc, au, lr, rho, 1e-6, g), 3, 5),
     _sparse_inputs(3, (0.5, 0.9))),
    ("FusedSparseProximalAdagrad", P.FusedSparseProximalAdagrad, 2, 2,
     _sparse(_proximal_adagrad, 2, 5), _sparse_inputs(2, (0.1, 0.05, 0.2))),
]


# -- the updates of optim_ops (what ember's own optimizers and Assign run) --------------------
def _momentum(nesterov: bool) -> Callable[..., tuple]:
    def rule(var: Any, accum: Any, lr: Any, grad: Any, momentum: Any) -> tuple:
        accum = momentum * accum + grad
        step = grad + momentum * accum if nesterov else accum
        return var - lr * step, accum

    return rule


def _adam_weight_decay(var: Any, m: Any, v: Any, lr: Any, b1: Any, b2: Any, eps: Any,
                       decay: Any, g: Any) -> tuple:
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g ** 2
    return var - lr * (m / (np.sqrt(v) + eps) + decay * var), m, v


def _sgd(momentum_step: bool, weight_decay: float, nesterov: bool) -> Callable[..., tuple]:
    """SGD on (parameters, gradient, lr, accum, momentum, stat): the first step (stat > 0)
    starts accum at the gradient and clears stat."""
    def rule(param: Any, grad: Any, lr: Any, accum: Any, momentum: Any, stat: Any) -> tuple:
        g = grad + weight_decay * param
        accum = np.where(stat > 0, g, momentum * accum + g) if momentum_step else accum
        step = (g + momentum * accum if nesterov else accum) if momentum_step else g
        return param - lr * step, grad, lr, accum, momentum, np.zeros_like(stat)

    return rule


def _sgd_inputs(rng: np.random.Generator, dt: type) -> tuple:
    return (sample(rng, dt, 3, 4), sample(rng, dt, 3, 4), np.asarray(0.1, dt),
            sample(rng, dt, 3, 4), np.asarray(0.9, dt), np.ones((3, 4), dt))


_UPDATES = [  # (id, make, held inputs, outputs, rule, inputs)
    ("Assign/2-steps", P.Assign, 1, 1, lambda var, value: (value, value),
     _dense_inputs(1, ())),
    ("AssignAdd/2-steps", P.AssignAdd, 1, 1, lambda var, value: (var + value, value),
     _dense_inputs(1, ())),
    ("AssignSub/2-steps", P.AssignSub, 1, 1, lambda var, value: (var - value, value),
     _dense_inputs(1, ())),
    ("ApplyMomentum/2-steps", P.ApplyMomentum, 2, 1, _momentum(False),
     _dense_inputs(2, (0.1, 0.9), grad_at=1)),
    ("ApplyMomentum/nesterov", lambda: P.ApplyMomentum(use_nesterov=True), 2, 1,
     _momentum(True), _dense_inputs(2, (0.1, 0.9), grad_at=1)),
    ("Adam/2-steps", P.Adam, 3, 3, _adam(False), _dense_inputs(3, _ADAM_SCALARS)),
    ("Adam/nesterov", lambda: P.Adam(use_nesterov=True), 3, 3, _adam(True),
     _dense_inputs(3, _ADAM_SCALARS)),
    ("AdamWeightDecay/2-steps", P.AdamWeightDecay, 3, 3, _adam_weight_decay,
     _dense_inputs(3, (0.01, 0.9, 0.999, 1e-8, 0.01))),
    ("SGD/momentum", P.SGD, (0, 3, 5), 1, _sgd(True, 0.0, False), _sgd_inputs),
    ("SGD/nesterov-weight-decay", lambda: P.SGD(weight_decay=0.01, nesterov=True),
     (0, 3, 5), 1, _sgd(True, 0.01, True), _sgd_inputs),
]


# -- FusedAdaFactor: (epsilon, clip, beta1, beta2t, weight_decay, lr, grad, param, exp_avg,
#    row, col, sq), the last five held in Parameters ------------------------------------------
def _ada_factor(scale: bool, first_moment: bool, decay: bool) -> Callable[..., Any]:
    """Two Adafactor steps in float64 (Shazeer and Stern's factored second moments, as
    MindSpore's kernel floors them at 1e-30); returns the parameter."""
    def reference(eps, clip, beta1, beta2t, wd, lr, grad, param, m, row, col, sq) -> Any:
        dtype = param.dtype
        param, m, row, col, sq, grad = (a.astype(F64) for a in (param, m, row, col, sq, grad))
        eps1, eps2 = eps.astype(F64)
        for _ in range(2):
            u = grad ** 2 + eps1
            if param.ndim >= 2:
                row = beta2t * row + (1 - beta2t) * u.mean(-1)
                col = np.maximum(beta2t * col + (1 - beta2t) * u.mean(-2), 1e-30)
                r = np.sqrt(row / np.maximum(row.mean(-1, keepdims=True), 1e-30))
                update = grad / np.maximum(r[..., :, None] * np.sqrt(col)[..., None, :], 1e-30)
            else:
                sq = np.maximum(beta2t * sq + (1 - beta2t) * u, 1e-30)
                update = grad / np.sqrt(sq)
            rate = lr * max(eps2, np.sqrt(np.mean(param ** 2))) if scale else lr
            update = update * rate / max(np.sqrt(np.mean(update ** 2)) / clip, 1.0)
            if first_moment:
                m = beta1 * m + (1 - beta1) * update
                update = m
            param = param - update - (param * wd * rate if decay else 0)
        return param.astype(dtype)

    return reference


def _ada_factor_inputs(shape: tuple[int, ...], clip: float) -> Callable[..., tuple]:
    def inputs(rng: np.random.Generator, dt: type) -> tuple:
        factored = len(shape) >= 2
        hyper = [np.asarray(v, np.float32) for v in (clip, 0.9, 0.3, 0.1, 0.05)]
        states = [sample(rng, dt, *shape),
                  _positive(rng, dt, *shape[:-1]) if factored else np.zeros(1, dt),
                  _positive(rng, dt, *shape[:-2], shape[-1]) if factored else np.zeros(1, dt),
                  np.zeros(1, dt) if factored else _positive(rng, dt, *shape)]
        return (np.array([1e-30, 1e-3], np.float32), *hyper, sample(rng, dt, *shape),
                sample(rng, dt, *shape), *states)

    return inputs


_ADA_FACTOR = [  # (label, attributes, shape, clip threshold)
    ("factored-all", (True, True, True), (2, 3, 4), 1.0),
    ("factored-clipped", (False, False, False), (3, 4), 0.1),
    ("vector-scaled", (True, False, True), (5,), 1.0),
    ("vector-moment", (False, True, False), (5,), 1.0),
]


def _cases() -> list[OpCase]:
    cases = []
    for name, make, states, returns, rule, inputs in _DENSE + _SPARSE:
        prim_name = name.split("-")[0]
        label = name.partition("-")[2] or "2-steps"
        cases.append(OpCase(f"{prim_name}/{label}", prim_name,
                            lambda m=make, s=states: twice(m(), s), inputs,
                            _steps(rule, returns), DTYPES, tolerance=LOOSE))
    for case_id, make, held, returns, rule, inputs in _UPDATES:
        primitive = case_id.split("/")[0]
        cases.append(OpCase(case_id, primitive, lambda m=make, h=held: twice(m(), h), inputs,
                            _steps(rule, returns), DTYPES,
                            tolerance=ADAM_TOLERANCE if primitive == "Adam" else LOOSE))
    for label, flags, shape, clip in _ADA_FACTOR:
        cases.append(OpCase(f"FusedAdaFactor/{label}", "FusedAdaFactor",
                            lambda f=flags: twice(P.FusedAdaFactor(*f), (7, 8, 9, 10, 11)),
                            _ada_factor_inputs(shape, clip), _ada_factor(*flags), DTYPES,
                            tolerance=ADAM_TOLERANCE))
    return cases


CASES: list[OpCase] = _cases()
