"""In-place updates of Parameters on NumPy, and the overflow check of loss scaling."""

from __future__ import annotations

import numpy as np

from ember.ops.operations import apply_ops, fused_optim_ops


def _scalar(value, dtype):
    """A hyperparameter (a number or a one-element array) as a 0-d array of ``dtype``."""
    return np.asarray(value, dtype).reshape(())


def _assign(prim):
    def kernel(variable, value):
        np.copyto(variable, value)
        return variable

    return kernel


def _assign_add(prim):
    def kernel(variable, value):
        variable += value
        return variable

    return kernel


def _assign_sub(prim):
    def kernel(variable, value):
        variable -= value
        return variable

    return kernel


def _apply_momentum(prim):
    nesterov, scale = prim.use_nesterov, prim.gradient_scale

    def kernel(variable, accumulation, learning_rate, gradient, momentum):
        if scale != 1.0:
            gradient = gradient * scale
        momentum = _scalar(momentum, variable.dtype)
        accumulation *= momentum
        accumulation += gradient
        step = gradient + momentum * accumulation if nesterov else accumulation
        variable -= _scalar(learning_rate, variable.dtype) * step
        return variable

    return kernel


def _sgd(prim):
    dampening, weight_decay, nesterov = prim.dampening, prim.weight_decay, prim.nesterov

    def kernel(parameters, gradient, learning_rate, accum, momentum, stat):
        dtype = parameters.dtype
        if weight_decay > 0:
            gradient = gradient + parameters * _scalar(weight_decay, dtype)
        momentum = _scalar(momentum, dtype)
        if momentum > 0:
            first = stat > 0
            np.copyto(accum, np.where(
                first, gradient, accum * momentum + _scalar(1 - dampening, dtype) * gradient))
            stat[first] = 0
            gradient = gradient + accum * momentum if nesterov else accum
        parameters -= _scalar(learning_rate, dtype) * gradient
        return parameters

    return kernel


def _adam(prim):
    nesterov = prim.use_nesterov

    def kernel(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        dtype = var.dtype
        b1p, b2p = _scalar(beta1_power, np.float32), _scalar(beta2_power, np.float32)
        if b1p == 1:
            raise ValueError("beta1_power must not be 1 (it is beta1 ** step, step >= 1)")
        lr_t = _scalar(_scalar(lr, np.float32) * np.sqrt(1 - b2p) / (1 - b1p), dtype)
        beta1, beta2 = _scalar(beta1, dtype), _scalar(beta2, dtype)
        one = _scalar(1, dtype)
        m += (gradient - m) * (one - beta1)
        v += (gradient * gradient - v) * (one - beta2)
        step = m * beta1 + (one - beta1) * gradient if nesterov else m
        var -= lr_t * step / (np.sqrt(v) + _scalar(epsilon, dtype))
        return var, m, v

    return kernel


def _adam_weight_decay(prim):
    def kernel(var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        dtype = var.dtype
        beta1, beta2 = _scalar(beta1, dtype), _scalar(beta2, dtype)
        one = _scalar(1, dtype)
        m *= beta1
        m += (one - beta1) * gradient
        v *= beta2
        v += (one - beta2) * gradient * gradient
        update = m / (np.sqrt(v) + _scalar(epsilon, dtype)) + _scalar(decay, dtype) * var
        var -= _scalar(lr, dtype) * update
        return var, m, v

    return kernel


def _lars_update(prim):
    def kernel(weight, gradient, *scalars):  # computed in float32 for a float16 weight
        out = prim.forward(np, weight.astype(np.float32), gradient.astype(np.float32),
                           *(_scalar(s, np.float32) for s in scalars))
        return out.astype(weight.dtype)

    return kernel


def _float_status(prim):
    def kernel(x):
        return np.array([0 if np.isfinite(x).all() else 1], x.dtype)

    return kernel


# -- the Apply*/SparseApply*/FusedSparse* updates: each primitive's own rule, on NumPy ------
def _apply(prim):
    """Runs ``prim.update`` on the inputs and writes the results into its Parameters; the
    sparse primitives run it on the rows ``indices`` names (gradients of a repeated index
    summed), or with the gradient scattered over every row where the update is not lazy."""
    states = prim._states
    scalars = [i for i, name in enumerate(prim._inputs) if name in prim._scalars]
    sparse = prim.sparse
    at_grad = prim._inputs.index("grad") - states if sparse else -1

    def kernel(*args):
        variables, dtype = args[:states], args[0].dtype
        rest = [_scalar(a, dtype) if i in scalars else a for i, a in enumerate(args)][states:]
        if not sparse:
            _write(variables, prim.update(np, *variables, *rest))
        else:
            *rest, indices = rest
            rows, rest[at_grad] = _summed_rows(indices, rest[at_grad], len(args[0]))
            if prim.lazy:
                new = prim.update(np, *(v[rows] for v in variables), *rest)
                for variable, value in zip(variables, new):
                    variable[rows] = value
            else:
                dense = np.zeros_like(args[0])
                dense[rows] = rest[at_grad]
                rest[at_grad] = dense
                _write(variables, prim.update(np, *variables, *rest))
        if prim.placeholders:
            return tuple(np.zeros(1, dtype) for _ in range(prim._returns))
        return variables[0] if prim._returns == 1 else variables[:prim._returns]

    return kernel


def _write(variables, values):
    for variable, value in zip(variables, values):
        np.copyto(variable, value)


def _summed_rows(indices, grad, n):
    """The distinct rows ``indices`` names and the sum of ``grad``'s rows for each."""
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        raise ValueError(f"indices must be in [0, {n}), but they range over "
                         f"[{indices.min()}, {indices.max()}]")
    rows, inverse = np.unique(indices, return_inverse=True)
    summed = np.zeros((len(rows), *grad.shape[1:]), grad.dtype)
    np.add.at(summed, inverse.reshape(-1), grad)
    return rows, summed


# -- the fused updates of ``fused_optim_ops``: each primitive's own rule, in float32 ----------
def _fused(prim):
    hyper, written, returned = prim.hyper, prim.written, prim.returned

    def kernel(*args):
        inputs = [np.asarray(a, np.float32).reshape(()) if i in hyper else a.astype(np.float32)
                  for i, a in enumerate(args)]
        new = prim.update(np, *inputs)
        for i, value in zip(written, new):
            np.copyto(args[i], value, casting="unsafe")
        if not returned:
            return new[len(written)]
        return args[returned[0]] if len(returned) == 1 else tuple(args[i] for i in returned)

    return kernel


KERNELS = {
    "Assign": _assign,
    "DynamicAssign": _assign,
    "AssignAdd": _assign_add,
    "AssignSub": _assign_sub,
    "ApplyMomentum": _apply_momentum,
    "SGD": _sgd,
    "Adam": _adam,
    "AdamWeightDecay": _adam_weight_decay,
    "FloatStatus": _float_status,
    "LARSUpdate": _lars_update,
    **dict.fromkeys(apply_ops.__all__, _apply),
    **dict.fromkeys(fused_optim_ops.__all__, _fused),
}
